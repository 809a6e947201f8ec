// What other areas may use of limits: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/limits/ is the area's own.
export { localDate } from './brasilia-time';
