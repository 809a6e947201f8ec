// What other areas may use of subscriptions: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/subscriptions/ is the area's own.
export { findSubscriptionByPaymentLinkId } from './subscriptions.repository';
