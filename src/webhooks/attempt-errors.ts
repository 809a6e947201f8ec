// Why a delivery attempt failed, in words: the class of the failure (what the delivery log and
// the events API show), the system's code and a reason an integrator can act on. Node's error
// codes are mapped here, TLS ones in one table (TLS_REASONS) that the work on client
// certificates (mTLS) extends.
export const ERROR_CLASSES = [
  'DNS',
  'REFUSED',
  'UNREACHABLE',
  'TLS',
  'TIMEOUT',
  'RESET',
  'BLOCKED',
  'PROTOCOL',
  'HTTP_STATUS',
  'OTHER',
] as const;

export type ErrorClass = (typeof ERROR_CLASSES)[number];

export interface AttemptFailure {
  class: ErrorClass;
  code: string | null;
  reason: string;
}

// What each TLS failure means for the receiver, by the code Node (OpenSSL) gives it.
// The receiver's authority is one pixgate does not trust: where a company adds it.
const TRUST_HINT = "the system's CAs and the company's webhook CA bundle (PUT /api/v1/webhook/tls) are trusted";
const UNKNOWN_AUTHORITY = `the server's certificate is not signed by a known authority; ${TRUST_HINT}`;

export const TLS_REASONS: Record<string, string> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNKNOWN_AUTHORITY,
  UNABLE_TO_GET_ISSUER_CERT: UNKNOWN_AUTHORITY,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNKNOWN_AUTHORITY,
  CERT_UNTRUSTED: UNKNOWN_AUTHORITY,
  SELF_SIGNED_CERT_IN_CHAIN: `the server's certificate chain ends in a self-signed authority nobody trusts; ${TRUST_HINT}`,
  DEPTH_ZERO_SELF_SIGNED_CERT: `the server's certificate is self-signed; ${TRUST_HINT}`,
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate is not valid for this host name (name mismatch)",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  CERT_NOT_YET_VALID: "the server's certificate is not valid yet",
  CERT_REVOKED: "the server's certificate has been revoked",
  CERT_SIGNATURE_FAILURE: "the server's certificate has an invalid signature",
  CERT_REJECTED: "the server's certificate was rejected",
  INVALID_PURPOSE: "the server's certificate may not be used for a TLS server",
  CERT_CHAIN_TOO_LONG: "the server's certificate chain is too long",
  ERR_SSL_WRONG_VERSION_NUMBER:
    'the server does not speak TLS on this port (an http:// server behind an https:// URL?)',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'the server refused the handshake (no protocol version or cipher in common)',
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'the server refused the handshake (no TLS version in common)',
  ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR: 'the server refused the handshake (internal error on its side)',
  ERR_SSL_TLSV1_UNRECOGNIZED_NAME: 'the server does not serve this host name (SNI)',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: "the server does not trust the authority of pixgate's client certificate",
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'the server requires a client certificate',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: "the server refused pixgate's client certificate",
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: 'the server denied access during the handshake',
};

// EPROTO carries OpenSSL's words only: what they mean, by the words.
const TLS_MESSAGES: [RegExp, string][] = [
  [/wrong version number/i, TLS_REASONS.ERR_SSL_WRONG_VERSION_NUMBER!],
  [/alert handshake failure/i, TLS_REASONS.ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE!],
  [/alert protocol version/i, TLS_REASONS.ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION!],
  [/unrecognized name/i, TLS_REASONS.ERR_SSL_TLSV1_UNRECOGNIZED_NAME!],
  [/alert unknown ca/i, TLS_REASONS.ERR_SSL_TLSV1_ALERT_UNKNOWN_CA!],
  [/certificate required/i, TLS_REASONS.ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED!],
  [/alert bad certificate/i, TLS_REASONS.ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE!],
];

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

export interface FailureContext {
  // host[:port] of the URL, for the reason's words.
  host: string;
}

// What OpenSSL's code (or, for EPROTO, its words) means, when this file knows it.
export function knownTlsReason(code: string, message: string): string | undefined {
  return TLS_REASONS[code] ?? (code === 'EPROTO' ? TLS_MESSAGES.find(([re]) => re.test(message))?.[1] : undefined);
}

function tlsFailure(code: string, message: string): AttemptFailure | undefined {
  const known = knownTlsReason(code, message);
  if (known) return { class: 'TLS', code, reason: `TLS: ${known} (${message})` };
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || /certificate|ssl|tls/i.test(message))
    return { class: 'TLS', code, reason: `TLS: the handshake failed (${message})` };
  return undefined;
}

function networkFailure(code: string, message: string, where: string): AttemptFailure | undefined {
  if (DNS_CODES.has(code))
    return {
      class: 'DNS',
      code,
      reason:
        code === 'EAI_AGAIN'
          ? `DNS: the lookup of ${where} failed for now (${message})`
          : `DNS: the name ${where} does not resolve (${message})`,
    };
  if (code === 'ECONNREFUSED')
    return { class: 'REFUSED', code, reason: `connection refused by ${where}: nothing listens there (${message})` };
  if (UNREACHABLE_CODES.has(code))
    return { class: 'UNREACHABLE', code, reason: `${where} cannot be reached from here (${message})` };
  if (code === 'ETIMEDOUT')
    return { class: 'TIMEOUT', code, reason: `the connection to ${where} timed out (${message})` };
  if (code === 'EPRIVATEADDRESS') return { class: 'BLOCKED', code, reason: message };
  if (code.startsWith('HPE_'))
    return { class: 'PROTOCOL', code, reason: `the answer of ${where} is not valid HTTP (${message})` };
  return undefined;
}

// A failure before an answer: DNS, connection, TLS, a malformed answer.
export function classifyError(err: unknown, context: FailureContext): AttemptFailure {
  const e = (err ?? {}) as NodeJS.ErrnoException;
  const message = (e.message || String(err)).slice(0, 500);
  const code = typeof e.code === 'string' ? e.code : null;
  // The server closed the connection in the middle of the TLS handshake.
  if (/before secure TLS connection was established/i.test(message))
    return {
      class: 'TLS',
      code,
      reason: `TLS: the server closed the connection during the handshake (${message})`,
    };
  if (code) {
    const found = tlsFailure(code, message) ?? networkFailure(code, message, context.host);
    if (found) return found;
  }
  if (code && RESET_CODES.has(code))
    return { class: 'RESET', code, reason: `${context.host} closed the connection before answering (${message})` };
  if (/socket hang up/i.test(message))
    return { class: 'RESET', code, reason: `${context.host} closed the connection before answering (${message})` };
  return { class: 'OTHER', code, reason: code && !message.includes(code) ? `${code}: ${message}` : message };
}

export function timeoutFailure(timeoutMs: number): AttemptFailure {
  return {
    class: 'TIMEOUT',
    code: null,
    reason: `no answer within ${timeoutMs} ms (PIXGATE_WEBHOOK_TIMEOUT_MS)`,
  };
}

export function statusFailure(statusCode: number): AttemptFailure {
  const redirect = statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : '';
  return { class: 'HTTP_STATUS', code: null, reason: `the receiver answered HTTP ${statusCode}, not 2xx${redirect}` };
}

export function blockedFailure(address: string): AttemptFailure {
  return { class: 'BLOCKED', code: null, reason: `refused: ${address} is a private address` };
}
