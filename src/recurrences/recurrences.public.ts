// What other areas may use of recurrences: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/recurrences/ is the area's own.
export { findCobrsByTxids, lockCobr } from './cobr.repository';
export { RETRY_WINDOW_DAYS, cycleOf } from './cobr.rules';
export { findRecurrence } from './recurrences.repository';
