// What other areas may use of subaccounts: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/subaccounts/ is the area's own.
export { findSubAccountByKey } from './subaccounts.repository';
export { statementEntryView } from './subaccounts.view';
