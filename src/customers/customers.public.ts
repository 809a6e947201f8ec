// What other areas may use of customers: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/customers/ is the area's own.
export { findCustomerByCorrelationId } from './customers.repository';
export { taxIdView } from './customers.rules';
