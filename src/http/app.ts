// The Koa application: request id and log line, error rendering per API, body parsing
// with limits, the routes of both specs, health and reference pages.
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Logger } from 'pino';
import type { Services } from '../services';
import type { ApiDispatcher, ApiName, AppState, KoaContext } from './dispatch';
import type { RequestContext } from './types';
import { DomainError, errors, isDomainError } from '../errors/errors';
import { renderError } from './render';
import { mountDocs } from './docs';
import { mountLanding } from './landing';
import { mountHealth } from './health';
import { dashboardMiddleware } from '../dashboard/dashboard.handler';
import { mountSandboxCa } from './sandbox-ca';
import { htmlSafetyHeaders } from './html-headers';
import cors from '@koa/cors';
import { countStatements, type StatementTally } from '../db/statement-counter';
import type { CapturedRequest } from '../request-logs/request-logs.types';
import { withDeadline } from '../db/deadline';
import { isDatabaseUnavailable } from '../db/errors';
import type { InFlightRequests } from './in-flight';

export const JSON_LIMIT = '1mb';

export interface AppParts {
  services: Services;
  logger: Logger;
  dispatchers: Record<ApiName, ApiDispatcher>;
  // Every request is counted here from its start to its log line and request log entry.
  inFlight: InFlightRequests;
  // Count each request's statements: X-Db-Statements on every response, `db` in its log line.
  countStatements?: boolean;
}

// Which API a path belongs to decides the error format of anything that goes wrong.
export function apiOfPath(path: string): ApiName | undefined {
  if (/^\/(api|openpix)\//.test(path)) return 'platform';
  if (/^\/(pix|qr)\/v2(\/|$)|^\/oauth\/|^\/\.well-known\//.test(path)) return 'pix';
  return undefined;
}

export function buildApp({
  services,
  logger,
  dispatchers,
  inFlight,
  countStatements: counting = false,
}: AppParts): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  app.silent = true;
  app.use(requestLifecycle({ services, logger, inFlight, counting }));
  app.use(htmlSafetyHeaders());
  if (services.config.corsOrigins.length) app.use(corsOf(services.config.corsOrigins));
  app.use(bodyParser());

  const router = new Router<AppState>();
  mountHealth(router, services.db, logger, () => ({ requestLog: services.requestLogs.status() }));
  mountLanding(router, services.config.sandbox);
  mountDocs(router, services);
  mountSandboxCa(router, services.tlsAuthority);
  app.use(
    dashboardMiddleware({
      sandbox: services.config.sandbox,
      secureCookies: services.config.publicUrl.startsWith('https:'),
    }),
  );
  app.use(dispatchers.platform.middleware());
  app.use(dispatchers.pix.middleware());
  app.use(router.routes());

  app.use(async (koa: KoaContext) => {
    const api = apiOfPath(koa.path);
    if (api) await dispatchers[api].notFound(koa);
    else throw errors.routeNotFound();
  });
  return app;
}

// A request's context for its handler. A class with the logger's getter on its prototype, not
// an object literal with `get log()` closing over the request: measured under load, every
// request's objects (its Koa context, its rows, its answer) then outlived two young-generation
// collections and were promoted, about 1.5 MB per collection, and old space grew by 100 to
// 200 MB between full collections (half of /healthz's throughput went with it). With this
// class nothing of a request is promoted.
class LiveRequestContext implements RequestContext {
  readonly requestId: string;
  readonly services: Services;
  readonly ip: string;
  principal: RequestContext['principal'] = undefined;
  clientCertificate?: string | undefined;
  private readonly logger: Logger;
  private child: Logger | undefined;

  constructor(o: { requestId: string; services: Services; ip: string; logger: Logger }) {
    this.requestId = o.requestId;
    this.services = o.services;
    this.ip = o.ip;
    this.logger = o.logger;
  }

  // Made when something logs through it (most requests only write their one request line).
  get log(): Logger {
    return (this.child ??= this.logger.child({ requestId: this.requestId }));
  }
}

// Each request: its id, its context for the handler, its error rendered in its API's format,
// its one log line (and statement count when counting).
function requestLifecycle({
  services,
  logger,
  inFlight,
  counting,
}: {
  services: Services;
  logger: Logger;
  inFlight: InFlightRequests;
  counting: boolean;
}): Koa.Middleware<AppState> {
  const deadlineMs = services.config.requestTimeoutMs;
  // The request line's fields are fixed and hold no secret: written without the redaction pass
  // (half the cost of a log line) that every other line goes through.
  const accessLog = logger.child({}, { redact: [] });

  return async (koa: KoaContext, next: Koa.Next) => {
    const started = process.hrtime.bigint();
    const given = koa.get('x-request-id');
    const requestId = /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : randomUUID();
    const context = new LiveRequestContext({ requestId, services, ip: koa.ip, logger });
    koa.state.requestContext = context;
    koa.set('X-Request-Id', requestId);
    const tally: StatementTally | undefined = counting
      ? { statements: 0, ...(logger.isLevelEnabled('trace') ? { texts: [] } : {}) }
      : undefined;
    let failure: { code: string; message: string } | undefined;
    inFlight.begin();
    try {
      await withDeadline(deadlineMs, () => (tally ? countStatements(tally, next) : next()));
    } catch (thrown) {
      failure = answerFailure(koa, thrown, context);
    } finally {
      try {
        noteAnswer(koa, { services, accessLog, requestId, started, failure, tally });
        if (tally?.texts) context.log.trace({ statements: tally.texts }, 'statements');
      } finally {
        // after the request log has its entry: a stop waits for it (src/http/in-flight.ts)
        inFlight.end();
      }
    }
  };
}

// A request's one log line, its request log entry and its statement count header.
function noteAnswer(
  koa: KoaContext,
  o: {
    services: Services;
    accessLog: Logger;
    requestId: string;
    started: bigint;
    failure: { code: string; message: string } | undefined;
    tally: StatementTally | undefined;
  },
): void {
  const { services, accessLog, requestId, started, failure, tally } = o;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const principal = koa.state.requestContext.principal;
  const error = koa.status >= 400 ? (failure ?? failureOfBody(koa.body)) : undefined;
  accessLog.info(
    {
      requestId,
      method: koa.method,
      path: koa.path,
      status: koa.status,
      ms: Math.round(ms * 100) / 100,
      ...(tally ? { db: tally.statements } : {}),
      operationId: koa.state.operation?.operationId,
      // who called, and why a 4xx/5xx happened: what support is asked about first
      companyId: principal?.companyId,
      applicationId: principal?.applicationId,
      ...(error ? { error } : {}),
    },
    'request',
  );
  // The company's request log of its calls to either API (a path of neither, such as the
  // dashboard's pages, is none): buffered, written later in the background (no round trip).
  if (principal?.companyId && services.requestLogs.enabled && apiOfPath(koa.path))
    services.requestLogs.record(
      capturedRequest(koa, { requestId, principal, ms, error }),
      koa.status >= 400 ? { requestBody: (koa.request as { body?: unknown }).body, responseBody: koa.body } : undefined,
    );
  if (tally) koa.set('X-Db-Statements', String(tally.statements));
}

// One answered request as the request log keeps it: one object of what the request already
// holds (the log redacts and clips it in the background, when it writes the batch).
function capturedRequest(
  koa: KoaContext,
  answered: { requestId: string; principal: Caller; ms: number; error: LoggedFailure | undefined },
): CapturedRequest {
  const { headers } = koa;
  const { principal, ms, error } = answered;
  return {
    companyId: principal.companyId,
    clientId: principal.clientId,
    at: Date.now() - Math.round(ms),
    requestId: answered.requestId,
    api: apiOfPath(koa.path) === 'pix' ? 'PIX_API' : 'PLATFORM_API',
    method: koa.method,
    path: koa.path,
    query: koa.querystring,
    operationId: koa.state.operation?.operationId,
    status: koa.status,
    latencyMs: ms,
    idempotencyKey: headers['idempotency-key'] as string | undefined,
    ip: koa.state.requestContext.ip,
    userAgent: headers['user-agent'],
    contentType: headers['content-type'],
    errorCode: error?.code,
    errorMessage: error?.message,
  };
}

type Caller = NonNullable<RequestContext['principal']>;

interface LoggedFailure {
  code?: string | undefined;
  message?: string | undefined;
}

// A request that threw: logged as it deserves, answered in its API's format.
function answerFailure(koa: KoaContext, thrown: unknown, context: RequestContext): { code: string; message: string } {
  const error = toApiError(thrown);
  // An outage says nothing about the code: one line with its cause, no stack.
  if (error.code === 'DATABASE_UNAVAILABLE')
    context.log.warn(
      { cause: (thrown as Error).message, operationId: koa.state.operation?.operationId },
      'database unavailable',
    );
  else if (error.status >= 500)
    context.log.error({ err: thrown, operationId: koa.state.operation?.operationId }, 'request failed');
  const api = koa.state.api ?? apiOfPath(koa.path);
  if (api) renderError(koa, api, error, koa.state.operation);
  else {
    koa.status = error.status;
    for (const [k, v] of Object.entries(error.options.headers ?? {})) koa.set(k, v);
    koa.body = { error: error.message };
  }
  return { code: error.code, message: clip(error.message) };
}

const MAX_LOGGED_MESSAGE = 300;
const clip = (text: string) => (text.length <= MAX_LOGGED_MESSAGE ? text : `${text.slice(0, MAX_LOGGED_MESSAGE - 1)}…`);

// An error answered without a throw (a route no API owns, a body set by hand): what its body
// says, in either API's format.
function failureOfBody(body: unknown): LoggedFailure | undefined {
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return undefined;
  const b = body as { error?: unknown; type?: unknown; title?: unknown; detail?: unknown };
  if (typeof b.error === 'string') return { message: clip(b.error) };
  if (typeof b.type === 'string')
    return { code: b.type.split('/').pop()!, message: clip(String(b.detail ?? b.title ?? '')) };
  return undefined;
}

// Browser pages of the allowed origins may call both APIs (preflights answered here).
function corsOf(origins: string[]): Koa.Middleware<AppState> {
  const any = origins.includes('*');
  const handle = cors({
    origin: (koa) => (any ? '*' : origins.includes(koa.get('Origin')) ? koa.get('Origin') : ''),
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposeHeaders: ['X-Request-Id', 'Idempotent-Replayed', 'Location', 'Retry-After', 'Allow'],
    maxAge: 600,
  });
  // A request without Origin is not a browser's cross-origin call: only Vary is due (what the
  // library would add), without its per-request work on every server-to-server call.
  return (koa, next) => {
    if (koa.get('Origin')) return handle(koa, next);
    koa.vary('Origin');
    return next();
  };
}

const PARSED_METHODS = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];

// Requests of other methods go straight on: koa-body would only test the content type four
// times and then call next() from one more async frame.
function bodyParser(): Koa.Middleware<AppState> {
  const parse = koaBodyOf();
  const parsed = new Set<string>(PARSED_METHODS);
  return (koa, next) => (parsed.has(koa.method.toUpperCase()) ? parse(koa, next) : next());
}

function koaBodyOf(): Koa.Middleware<AppState> {
  return koaBody({
    json: true,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonStrict: true,
    jsonLimit: JSON_LIMIT,
    // the text as received, beside the parse: how a number was written (http/exact-integers.ts)
    includeUnparsed: true,
    formLimit: '64kb',
    parsedMethods: PARSED_METHODS,
    onError: (err: Error) => {
      throw bodyError(err);
    },
  });
}

function bodyError(err: Error & { status?: number; type?: string }): DomainError {
  if (err.status === 413 || err.type === 'entity.too.large') return errors.payloadTooLarge(JSON_LIMIT);
  if (err.status === 415) return errors.unsupportedMediaType('');
  return errors.malformedJson();
}

function toApiError(thrown: unknown): DomainError {
  if (isDomainError(thrown)) return thrown;
  if (thrown instanceof URIError) return errors.badEncoding();
  // The database away or too slow (src/db/errors.ts): 503, whatever the API.
  if (isDatabaseUnavailable(thrown)) return errors.databaseUnavailable();
  // Postgres class 22 (data exception) and 54000 (e.g. index row too large) come from values
  // the client sent; the transaction they broke has rolled back.
  const sqlState = (thrown as { code?: unknown }).code;
  if (typeof sqlState === 'string' && /^(22[0-9A-Z]{3}|54000)$/.test(sqlState)) return errors.unacceptableValue();
  const status = (thrown as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new DomainError('HTTP', status, (thrown as Error).message || 'Bad request');
  }
  return errors.internal();
}
