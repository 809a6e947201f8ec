// What other areas may use of payments: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/payments/ is the area's own.
export { findCompanyPayment } from './payments.repository';
export { partyView } from './payments.view';
