// What other areas may use of pixin: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/pixin/ is the area's own.
export { refundableOf, refundableTotal, requestPlatformReturn } from './devolution.rules';
export { findReceived, lockReceived, lockReceivedOfCompany, paymentsOfCharges } from './pixin.repository';
export { accountEventView, companyView, pixView } from './pixin.view';
