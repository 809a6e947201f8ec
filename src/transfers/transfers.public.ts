// What other areas may use of transfers: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/transfers/ is the area's own.
export { INSUFFICIENT_BALANCE, moveInternally } from './internal-move';
