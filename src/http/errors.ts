// The one error catalog of both APIs. Services throw ApiError; each API renders it in its
// own format (platform: {error, details}; Pix: RFC 7807 problem+json with violacoes).
export interface FieldIssue {
  field: string;
  message: string;
  value?: string;
}

export interface ApiErrorOptions {
  details?: FieldIssue[];
  // The Pix problem type name (e.g. CobNaoEncontrado); when absent the operation's own
  // type for the status is used, then the general type of the status.
  pixType?: string;
  // The platform API's account-register read answers `error` as an array of issues.
  errorBody?: unknown;
  headers?: Record<string, string>;
  // POST /oauth/token answers in the OAuth2 format (RFC 6749 5.2): this is its `error`.
  oauthError?: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(message);
  }
}

// Catalog: code, HTTP status and message. Messages quoted by the documents are verbatim.
export const errors = {
  validation: (details: FieldIssue[], message = 'Validation error') =>
    new ApiError('VALIDATION', 400, message, { details }),
  badRequest: (message: string, details?: FieldIssue[]) =>
    new ApiError('BAD_REQUEST', 400, message, details ? { details } : {}),
  malformedJson: () => new ApiError('MALFORMED_BODY', 400, 'Request body is not valid JSON'),
  unsupportedMediaType: (type: string) =>
    new ApiError('UNSUPPORTED_MEDIA_TYPE', 415, `Content-Type ${type || '(none)'} is not accepted here`),
  payloadTooLarge: (limit: string) => new ApiError('PAYLOAD_TOO_LARGE', 413, `Request body is larger than ${limit}`),
  unauthorized: (message = 'Invalid Authorization header') =>
    new ApiError('UNAUTHORIZED', 401, message, { pixType: 'NaoAutorizado' }),
  forbidden: (message: string) => new ApiError('FORBIDDEN', 403, message, { pixType: 'AcessoNegado' }),
  missingScope: (scope: string) =>
    new ApiError('MISSING_SCOPE', 403, `Your application does not have the scope ${scope}`, {
      pixType: 'AcessoNegado',
    }),
  featureRequired: (message: string, status = 403) => new ApiError('FEATURE_REQUIRED', status, message),
  notFound: (message: string, pixType?: string) => new ApiError('NOT_FOUND', 404, message, pixType ? { pixType } : {}),
  gone: (message: string, pixType?: string) => new ApiError('GONE', 410, message, pixType ? { pixType } : {}),
  conflict: (message: string) => new ApiError('CONFLICT', 409, message),
  unprocessable: (message: string) => new ApiError('UNPROCESSABLE', 422, message),
  tooManyRequests: (message: string) => new ApiError('TOO_MANY_REQUESTS', 429, message),
  routeNotFound: () => new ApiError('ROUTE_NOT_FOUND', 404, 'No such endpoint'),
  methodNotAllowed: (allowed: string[]) =>
    new ApiError('METHOD_NOT_ALLOWED', 405, `Method not allowed; this endpoint accepts ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    }),
  notImplemented: (operationId: string) =>
    new ApiError('NOT_IMPLEMENTED', 501, `Operation ${operationId} is not implemented yet`),
  badEncoding: () => new ApiError('BAD_ENCODING', 400, 'The request path or query is not valid percent-encoded UTF-8'),
  // The database refused a value the schema let through (a NUL character, a number out of
  // range, a value too large for an index): the client's input, not a server fault.
  unacceptableValue: () =>
    new ApiError(
      'UNACCEPTABLE_VALUE',
      400,
      'A value in the request cannot be stored (NUL character, number out of range or value too large)',
    ),
  internal: () => new ApiError('INTERNAL', 500, 'Internal server error', { pixType: 'ErroInternoDoServidor' }),
} as const;

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
