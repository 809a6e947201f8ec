// The one error catalog of both APIs, outside the HTTP layer: services throw DomainError (a
// code, a status, a message and, for the Pix API, a problem type); http/render.ts maps it to
// each API's format (platform: {error, details}; Pix: RFC 7807 problem+json with violacoes).
import type { components } from '../../generated/platform.types';

// One wrong input: its field as the request names it inside its part (`customer.taxID`;
// `cob.valor.original` in the standard's own naming), and that part when it is a query or path
// parameter (absent: the body). Each API's renderer writes the location its own way.
export interface FieldIssue {
  field: string;
  in?: 'body' | 'query' | 'path';
  message: string;
  value?: string;
}

export interface DomainErrorOptions {
  details?: FieldIssue[];
  // The Pix problem type name (e.g. CobNaoEncontrado); when absent the operation's own
  // type for the status is used, then the general type of the status.
  pixType?: string;
  // The platform API's account-register read answers `error` as an array of issues.
  errorBody?: components['schemas']['ValidationIssue'][];
  headers?: Record<string, string>;
  // POST /oauth/token answers in the OAuth2 format (RFC 6749 5.2): this is its `error`.
  oauthError?: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message);
  }
}

// The things a request names that may not exist, and their 404 messages (code <THING>_NOT_FOUND).
export const MISSING = {
  account: 'Account not found',
  accountRegister: 'Account register not found',
  application: 'Application not found',
  boletoTransaction: 'Boleto transaction not found',
  certificate: 'Certificate not found',
  charge: 'Charge not found',
  company: 'Company not found',
  delivery: 'Delivery not found',
  event: 'Event not found',
  installment: 'Installment not found',
  onboarding: 'Onboarding not found',
  payment: 'Payment not found',
  paymentLink: 'Payment link not found',
  pix: 'Pix not found',
  pixKey: 'Pix key not found',
  preRegistration: 'Pre registration not found',
  qrCode: 'QR code not found',
  receipt: 'Receipt not found',
  recurrence: 'Recurrence not found',
  refund: 'Refund not found',
  requestLog: 'Request log entry not found',
  subaccount: 'Subaccount not found',
  representative: 'Representative not found',
  subscription: 'Subscription not found',
  transaction: 'Transaction not found',
  webhook: 'Webhook not found',
} as const;

export type MissingThing = keyof typeof MISSING;

function codeOf(thing: MissingThing): string {
  return `${thing.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_NOT_FOUND`;
}

// What a 503 asks the client to wait before trying again: about how long a Postgres restart or
// failover takes to be noticed and ridden out.
export const RETRY_AFTER_SECONDS = 5;

// Catalog: code, HTTP status and message. Messages quoted by the documents are verbatim.
export const errors = {
  missing: (thing: MissingThing, pixType?: string) =>
    new DomainError(codeOf(thing), 404, MISSING[thing], pixType ? { pixType } : {}),
  validation: (details: FieldIssue[], message = 'Validation error') =>
    new DomainError('VALIDATION', 400, message, { details }),
  badRequest: (message: string, details?: FieldIssue[]) =>
    new DomainError('BAD_REQUEST', 400, message, details ? { details } : {}),
  malformedJson: () => new DomainError('MALFORMED_BODY', 400, 'Request body is not valid JSON'),
  unsupportedMediaType: (type: string) =>
    new DomainError('UNSUPPORTED_MEDIA_TYPE', 415, `Content-Type ${type || '(none)'} is not accepted here`),
  payloadTooLarge: (limit: string) => new DomainError('PAYLOAD_TOO_LARGE', 413, `Request body is larger than ${limit}`),
  unauthorized: (message = 'Invalid Authorization header') =>
    new DomainError('UNAUTHORIZED', 401, message, { pixType: 'NaoAutorizado' }),
  // Mutual TLS (src/tls/): the connection's client certificate does not admit the caller. At
  // the token endpoint it answers RFC 6749 invalid_client, elsewhere a problem+json 401.
  clientCertificateRefused: (reason: string, at: 'token' | 'api') =>
    new DomainError(
      'CLIENT_CERTIFICATE_REFUSED',
      401,
      `Client certificate refused: ${reason}`,
      at === 'token' ? { oauthError: 'invalid_client' } : { pixType: 'NaoAutorizado' },
    ),
  // RFC 8705 section 3: a token bound to a certificate, over a connection without that one.
  boundTokenRefused: (reason: string) =>
    new DomainError('INVALID_TOKEN', 401, `The token is bound to a client certificate (RFC 8705): ${reason}`, {
      pixType: 'NaoAutorizado',
      headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${reason.replace(/"/g, "'")}"` },
    }),
  forbidden: (message: string) => new DomainError('FORBIDDEN', 403, message, { pixType: 'AcessoNegado' }),
  missingScope: (scope: string) =>
    new DomainError('MISSING_SCOPE', 403, `Your application does not have the scope ${scope}`, {
      pixType: 'AcessoNegado',
    }),
  featureRequired: (message: string, status = 403) => new DomainError('FEATURE_REQUIRED', status, message),
  notFound: (message: string, pixType?: string) =>
    new DomainError('NOT_FOUND', 404, message, pixType ? { pixType } : {}),
  gone: (message: string, pixType?: string) => new DomainError('GONE', 410, message, pixType ? { pixType } : {}),
  conflict: (message: string) => new DomainError('CONFLICT', 409, message),
  unprocessable: (message: string) => new DomainError('UNPROCESSABLE', 422, message),
  tooManyRequests: (message: string) => new DomainError('TOO_MANY_REQUESTS', 429, message),
  routeNotFound: () => new DomainError('ROUTE_NOT_FOUND', 404, 'No such endpoint'),
  methodNotAllowed: (allowed: string[]) =>
    new DomainError('METHOD_NOT_ALLOWED', 405, `Method not allowed; this endpoint accepts ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    }),
  badEncoding: () =>
    new DomainError('BAD_ENCODING', 400, 'The request path or query is not valid percent-encoded UTF-8'),
  // The database refused a value the schema let through (a NUL character, a number out of
  // range, a value too large for an index): the client's input, not a server fault.
  unacceptableValue: () =>
    new DomainError(
      'UNACCEPTABLE_VALUE',
      400,
      'A value in the request cannot be stored (NUL character, number out of range or value too large)',
    ),
  internal: () => new DomainError('INTERNAL', 500, 'Internal server error', { pixType: 'ErroInternoDoServidor' }),
  // The database could not be reached or did not answer in time (a restart, a failover, a
  // network cut), or the request ran out of time: nothing of the request was stored, except
  // when its COMMIT was already on its way (then it was stored once: a retry with the same
  // correlationID or Idempotency-Key finds it).
  databaseUnavailable: () =>
    new DomainError('DATABASE_UNAVAILABLE', 503, 'The service is temporarily unavailable; try again shortly', {
      pixType: 'ServicoIndisponivel',
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    }),
} as const;

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
