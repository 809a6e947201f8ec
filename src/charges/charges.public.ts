// What other areas may use of charges: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/charges/ is the area's own.
export {
  MERCHANT_CITY,
  brCodeOf,
  cobvAmountsOn,
  cobvLastDay,
  cobvValorOf,
  locationUrlOf,
  merchantNameOf,
  paymentLinkUrlOf,
  platformStatusOf,
  tokenOfLocationUrl,
} from './charge-model';
export { chargeEventView, type ChargeEventView } from './charge-records';
export {
  findChargeByCorrelationId,
  findChargeByPaymentLinkId,
  findChargeInContextByTxid,
  findChargesByCorrelationIds,
  txidUsedByCharge,
  type ChargeWithAccount,
} from './charges.repository';
export { findLocationWithCharge } from './locations.repository';
export { completeCharge, findCompanyCharge, lockChargeForPayment, type PaymentTarget } from './payable';
export { buildPlatformChargeView, chargeViewContext, platformChargeView } from './platform/platform.view';
export { type Devedor } from './standard/standard.rules';
