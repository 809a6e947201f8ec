// What other areas may use of qrcodes: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/qrcodes/ is the area's own.
export { findStaticQrByAnyId, findStaticQrByKeyAndIdentifier, findStaticQrByPaymentLinkId } from './qrcodes.repository';
