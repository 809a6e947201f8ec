// OpenSSL's certificate verification codes (Node's `authorizationError.code` and the `code` of
// a TLS client's error) in words, for whoever's certificate failed: a client's at the Pix API,
// a webhook receiver's at delivery.
const UNKNOWN_CA = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

// The reason a certificate did not verify, for `whose` (e.g. "the certificate", "the
// receiver's certificate"); `trusted` names the CAs it should chain to.
export function describeVerifyCode(code: string | undefined, whose: string, trusted: string): string | undefined {
  if (!code) return undefined;
  if (UNKNOWN_CA.has(code)) return `${whose} was issued by an unknown CA (${code}): it does not chain to ${trusted}`;
  switch (code) {
    case 'CERT_HAS_EXPIRED':
      return `${whose} has expired (CERT_HAS_EXPIRED)`;
    case 'CERT_NOT_YET_VALID':
      return `${whose} is not valid yet (CERT_NOT_YET_VALID)`;
    case 'CERT_SIGNATURE_FAILURE':
      return `${whose}'s signature does not verify (CERT_SIGNATURE_FAILURE)`;
    case 'INVALID_PURPOSE':
      return `${whose} may not be used for this purpose (INVALID_PURPOSE: its extended key usage)`;
    case 'CERT_REVOKED':
      return `${whose} was revoked (CERT_REVOKED)`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `${whose} does not name the host (ERR_TLS_CERT_ALTNAME_INVALID: name mismatch)`;
    default:
      return undefined;
  }
}
