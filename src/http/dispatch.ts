// One openapi-backend instance per spec, strict, with every safety handler registered.
// @koa/router resolves the path to an operation (a lookup that does not scan), and
// openapi-backend then runs that operation's security, validation and handler: its own
// router would rebuild and scan the operation list on every request.
import Router from '@koa/router';
import { params as bathParams } from 'bath-es5/params.js';
import { OpenAPIBackend, type Context as BackendContext, type Operation } from 'openapi-backend';
import type { ErrorObject } from 'ajv';
import { isDatabaseUnavailable } from '../db/errors';
import { DomainError, errors, type FieldIssue } from '../errors/errors';
import type { ApiName, AppState, Handler, KoaContext, OperationMeta } from './types';

export type { ApiName, AppState, KoaContext } from './types';
import type { Principal } from '../identity/principal.types';
import { idempotent } from './idempotency';
import { pruneOneOfBranches } from './oneof-errors';
import { tolerate } from './tolerant';
import { inexactIntegerErrors, withoutRounded } from './exact-integers';
import { addOpenApiFormats, FORMAT_MESSAGES } from './openapi-formats';

// Resolves one security scheme for a request; throws DomainError (401/403) when it fails.
export type SecurityResolver = (koa: KoaContext, operation: OperationMeta) => Promise<Principal>;

export interface ApiDefinition {
  name: ApiName;
  // The parsed spec (http/spec-document.ts); openapi-backend dereferences it.
  document: Record<string, unknown>;
  operations: OperationMeta[];
  // The generated handler map of the spec (every operationId is a key).
  handlers: object;
  security: Record<string, SecurityResolver>;
  validateResponses: boolean;
  // Normalise what a tolerant PSP accepts before validating (the Pix API: http/tolerant.ts).
  tolerant?: boolean;
  // Refuse a number written with a fraction or exponent, or beyond 2^53 - 1, where the schema
  // asks an integer (the platform API's money: http/exact-integers.ts).
  exactIntegers?: boolean;
}

type BackendRequest = Parameters<OpenAPIBackend['handleRequest']>[0];

interface RoutedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  // The body's text as received (JSON bodies), for what the parse loses (exactIntegers).
  rawBody?: string;
  // Path parameters, parsed once per request (parseRoutedRequest).
  params?: Record<string, string>;
  operation?: Operation;
  allowed?: string[];
}

// openapi-backend parses a request four times on its way to the handler (route, re-route,
// validate, coerce), each time compiling the operation's path template, deep-cloning the query
// and parsing cookies. Here the router already matched the operation and Koa parsed the query:
// the path parameters are read once with a matcher compiled at start-up, and a request is
// parsed once into a shallow copy (the validator coerces query and path values in it).
const parsedRequests = new WeakMap<RoutedRequest, ReturnType<typeof parseRequestOnce>>();
function parseRoutedRequest(req: RoutedRequest) {
  let parsed = parsedRequests.get(req);
  if (!parsed) parsedRequests.set(req, (parsed = parseRequestOnce(req)));
  return parsed;
}

function parseRequestOnce(req: RoutedRequest) {
  return {
    ...req,
    method: req.method.toLowerCase(),
    params: req.params ?? {},
    headers: { ...req.headers },
    query: { ...req.query },
    cookies: {},
    requestBody: req.body,
  };
}

export class ApiDispatcher {
  private readonly backend: OpenAPIBackend;
  private readonly operationsById = new Map<string, Operation>();
  private readonly pathParams = new Map<string, (path: string) => Record<string, string> | null>();
  private readonly metaById = new Map<string, OperationMeta>();
  // Operations run without openapi-backend's per-request pipeline (handleDirect), with the one
  // security scheme each needs ('' when open).
  private readonly directScheme = new Map<string, string>();
  private readonly runs = new Map<string, Run>();

  constructor(private readonly definition: ApiDefinition) {
    this.backend = new OpenAPIBackend({
      definition: definition.document as never,
      strict: true,
      // quick: skip re-validating the definition at start-up (lint and the spec tests do it);
      // init() then compiles the request validators itself (compileRequestValidators).
      quick: true,
      validate: true,
      coerceTypes: true,
      // optimize: false skips Ajv's pass over the code it generates: a third less time to
      // compile the 236 validators at start-up, and no measurable change per validation
      // (8.2-8.8 us for a charge creation body either way).
      ajvOpts: { strict: false, allErrors: true, verbose: true, code: { optimize: false } },
      customizeAjv: (ajv) => addOpenApiFormats(ajv),
      handlers: {
        validationFail: async (c: BackendContext) => {
          throw errors.validation(issuesFromAjv(withoutRounded(pruneOneOfBranches(c.validation.errors ?? []))));
        },
        notFound: async () => {
          throw errors.routeNotFound();
        },
        methodNotAllowed: async (c: BackendContext) => {
          throw errors.methodNotAllowed((c.request as unknown as RoutedRequest).allowed ?? []);
        },
        unauthorizedHandler: async (c: BackendContext) => {
          throw firstSecurityError(c) ?? unavailableDatabaseOf(c) ?? errors.unauthorized();
        },
      },
    });
  }

  // How many request validators were compiled at start-up (the start-up log says it).
  validatorCount = 0;

  // Every operation's request validators, now rather than on its first request. openapi-backend
  // makes a new Ajv instance for each schema it compiles (2 per operation, each setting up its
  // formats again): one instance per validation context serves them all, at a third of the time.
  private compileRequestValidators(operations: Operation[]): number {
    const validator = this.backend.validator as unknown as {
      getAjv(context: string, options?: object): unknown;
      getRequestValidatorsForOperation(operationId: string): unknown[] | null;
    };
    if (this.definition.exactIntegers) this.checkIntegerText();
    const makeAjv = validator.getAjv.bind(validator);
    const shared = new Map<string, unknown>();
    validator.getAjv = (context: string, options: object = {}) => {
      const key = `${context} ${JSON.stringify(options)}`;
      if (!shared.has(key)) shared.set(key, makeAjv(context, options));
      return shared.get(key);
    };
    return operations.reduce(
      (n, op) => n + (validator.getRequestValidatorsForOperation(op.operationId!)?.length ?? 0),
      0,
    );
  }

  // Both paths to the handler (handleDirect, and openapi-backend's own) validate through
  // validator.validateRequest: the body's inexact integers join its errors there.
  private checkIntegerText(): void {
    const validator = this.backend.validator;
    const validate = validator.validateRequest.bind(validator);
    validator.validateRequest = (req, operation) => {
      const result = validate(req, operation);
      const op = (typeof operation === 'object' ? operation : (req as unknown as RoutedRequest).operation) as
        { requestBody?: { content?: Record<string, { schema?: object }> } } | undefined;
      const schema = op?.requestBody?.content?.['application/json']?.schema;
      const inexact = inexactIntegerErrors((req as unknown as RoutedRequest).rawBody, schema);
      if (inexact.length === 0) return result;
      return { ...result, valid: false, errors: [...(result.errors ?? []), ...inexact] };
    };
  }

  async init(): Promise<void> {
    await this.backend.init();
    const router = this.backend.router;
    const all = router.getOperations();
    for (const op of all) this.operationsById.set(op.operationId!, op);
    this.validatorCount = this.compileRequestValidators(all);
    for (const meta of this.definition.operations) this.metaById.set(meta.operationId, meta);
    // The definition never changes after init: answer from the precomputed tables.
    router.getOperations = () => all;
    router.getOperation = (id: string) => this.operationsById.get(id);
    for (const op of all) this.pathParams.set(op.operationId!, bathParams(op.path));
    router.parseRequest = parseRoutedRequest as unknown as typeof router.parseRequest;
    router.matchOperation = ((req: RoutedRequest, strict?: boolean) => {
      if (req.operation) return req.operation;
      if (!strict) return undefined;
      throw new Error(req.allowed?.length ? '405-methodNotAllowed' : '404-notFound');
    }) as typeof router.matchOperation;
    for (const meta of this.definition.operations) {
      const handler = (this.definition.handlers as Record<string, Handler<any> | undefined>)[meta.operationId];
      // The generated map's type already asks for every operation; this holds for plain JS too.
      if (!handler) throw new Error(`${this.definition.name}: no handler for ${meta.operationId}`);
      const run = this.wrap(meta, handler);
      this.runs.set(meta.operationId, run);
      this.backend.register(meta.operationId, run);
    }
    for (const scheme of Object.keys(this.definition.security)) {
      this.backend.registerSecurityHandler(scheme, (c: BackendContext, koa: KoaContext) =>
        this.authenticate(scheme, koa, c.operation.operationId!),
      );
    }
    this.chooseDirectSchemes(all);
  }

  private async authenticate(scheme: string, koa: KoaContext, operationId: string): Promise<Principal> {
    const principal = await this.definition.security[scheme]!(koa, this.metaById.get(operationId)!);
    koa.state.requestContext.principal = principal;
    return principal;
  }

  // openapi-backend's handleRequest costs a routed request more than its security and
  // validation do: a context, a second parse, a promise chain per security scheme, lodash walks,
  // and more suspended async frames, which live (and are copied by each young-generation GC)
  // while the request waits for the database. The operations whose security is one scheme
  // or none run here instead, through the same security resolvers, the same request validators
  // (validateRequest) and the same registered handler; the others (alternative or combined
  // schemes, and unrouted requests) still go through handleRequest. dispatch picks the path
  // from the map filled here.
  private chooseDirectSchemes(all: Operation[]): void {
    for (const op of all) {
      const requirements = op.security ?? [];
      const schemes = requirements.length === 1 ? Object.keys(requirements[0]!) : [];
      if (requirements.length === 0) this.directScheme.set(op.operationId!, '');
      else if (schemes.length === 1 && this.definition.security[schemes[0]!])
        this.directScheme.set(op.operationId!, schemes[0]!);
    }
  }

  private async handleDirect(req: RoutedRequest, koa: KoaContext, scheme: string): Promise<Reply> {
    const operation = req.operation!;
    const operationId = operation.operationId!;
    const security: BackendContext['security'] = { authorized: true };
    if (scheme) {
      try {
        security[scheme] = await this.authenticate(scheme, koa, operationId);
      } catch (error) {
        // as the unauthorizedHandler answers a failed scheme (the credentials could not be
        // checked without the database: that is no answer about them)
        throw error instanceof DomainError || isDatabaseUnavailable(error) ? error : errors.unauthorized();
      }
    }
    const validation = this.backend.validator.validateRequest(asBackendRequest(req), operation);
    if (validation.errors)
      throw errors.validation(issuesFromAjv(withoutRounded(pruneOneOfBranches(validation.errors))));
    // What handleRequest hands the handler, without parsing it again: validateRequest coerced
    // the path and query values (and made single query values arrays where the schema says so)
    // in place, in the parse it cached for this request.
    const request = parseRoutedRequest(req) as unknown as BackendContext['request'];
    return this.runs.get(operationId)!(
      { api: this.backend, request, operation, validation, security, response: undefined },
      koa,
    );
  }

  // Registers every path of the spec on the router, most literal paths first.
  mount(router: Router<AppState>): void {
    const byPath = new Map<string, OperationMeta[]>();
    for (const meta of this.definition.operations) byPath.set(meta.path, [...(byPath.get(meta.path) ?? []), meta]);
    const paths = [...byPath.keys()].sort(bySpecificity);
    for (const path of paths) {
      const metas = byPath.get(path)!;
      const allowed = metas.map((m) => m.method.toUpperCase());
      router.all(toKoaPath(path), (koa: KoaContext) =>
        this.dispatch(
          koa,
          metas.find((m) => m.method === koa.method.toLowerCase()),
          allowed,
        ),
      );
    }
  }

  // Answers a request under this API's prefix that matched no path.
  async notFound(koa: KoaContext): Promise<void> {
    await this.dispatch(koa, undefined, []);
  }

  private async dispatch(koa: KoaContext, meta: OperationMeta | undefined, allowed: string[]): Promise<void> {
    koa.state.api = this.definition.name;
    koa.state.operation = meta;
    if (meta) checkContentType(koa, meta);
    if (meta && this.definition.tolerant) this.tolerate(koa, meta);
    const request: RoutedRequest = {
      method: koa.method,
      path: koa.path,
      headers: koa.headers,
      query: koa.query,
      body: (koa.request as { body?: unknown }).body,
      // (a JSON body's: a form's text is no JSON to scan)
      ...(koa.is('json') ? { rawBody: (koa.request as { rawBody?: string }).rawBody } : {}),
      ...(meta
        ? { params: this.pathParams.get(meta.operationId)!(this.backend.router.normalizePath(koa.path)) ?? {} }
        : {}),
      ...(meta ? { operation: this.operationsById.get(meta.operationId) } : {}),
      allowed,
    };
    // Node types a header or query value as possibly undefined (IncomingHttpHeaders,
    // ParsedUrlQuery); a parsed request never holds one, which is all openapi-backend's Request adds.
    const scheme = meta ? this.directScheme.get(meta.operationId) : undefined;
    const reply =
      scheme === undefined
        ? ((await this.backend.handleRequest(request as BackendRequest, koa)) as Reply)
        : await this.handleDirect(request, koa, scheme);
    if (this.definition.validateResponses && meta) this.checkResponse(meta, reply);
    koa.status = reply.status;
    for (const [k, v] of Object.entries(reply.headers ?? {})) {
      // Vary adds to what the middleware already named (Origin), it does not replace it
      if (k.toLowerCase() === 'vary') koa.vary(v);
      else koa.set(k, v);
    }
    if (reply.contentType) koa.type = reply.contentType;
    if (reply.body !== undefined) koa.body = reply.body;
    else if (reply.status !== 204 && reply.status !== 304) {
      // A success without content (e.g. the standard's PUT /webhook 200): an empty body, not Koa's "OK".
      koa.body = '';
      koa.remove('Content-Type');
    }
  }

  private tolerate(koa: KoaContext, meta: OperationMeta): void {
    const request = koa.request as { body?: unknown };
    if (!request.body || typeof request.body !== 'object') return;
    const operation = this.operationsById.get(meta.operationId) as
      { requestBody?: { content?: Record<string, { schema?: object }> } } | undefined;
    const schema = operation?.requestBody?.content?.['application/json']?.schema;
    if (schema) request.body = tolerate(schema, request.body);
  }

  private wrap(meta: OperationMeta, handler: Handler<any>) {
    // The handler's own promise (no async frame of its own waiting on it).
    const run = (c: BackendContext, koa: KoaContext): Promise<Reply> => {
      const req = {
        params: c.request.params ?? {},
        query: c.request.query ?? {},
        body: c.request.requestBody,
        headers: koa.headers as Record<string, string | undefined>,
      };
      return handler(req, koa.state.requestContext) as Promise<Reply>;
    };
    // Every platform POST honours the Idempotency-Key header (src/http/idempotency.ts).
    return this.definition.name === 'platform' && meta.method === 'post' ? idempotent(meta, run) : run;
  }

  // Tests run with this on: an answer that breaks the contract becomes a 500 that says why.
  private checkResponse(meta: OperationMeta, reply: Reply): void {
    const isJson = !reply.contentType || /json/.test(reply.contentType);
    if (!isJson || Buffer.isBuffer(reply.body)) return;
    const declared = Object.keys(this.operationsById.get(meta.operationId)?.responses ?? {});
    if (!declared.includes(String(reply.status))) {
      throw new DomainError(
        'CONTRACT',
        500,
        `response of ${meta.operationId} has status ${reply.status}, which the spec does not declare`,
      );
    }
    // A response the spec declares without content (204, a bare 200) has nothing to check.
    const response = (
      this.operationsById.get(meta.operationId)?.responses as Record<string, { content?: unknown }> | undefined
    )?.[String(reply.status)];
    if (reply.body === undefined && response && !response.content) return;
    const problems = this.backend.validateResponse(reply.body, meta.operationId, reply.status).errors ?? [];
    if (problems.length > 0) {
      throw new DomainError(
        'CONTRACT',
        500,
        `response of ${meta.operationId} (${reply.status}) breaks the contract: ${JSON.stringify(problems).slice(0, 2000)}`,
      );
    }
  }
}

type Run = (c: BackendContext, koa: KoaContext) => Promise<Reply>;

// Koa's headers may hold undefined values, which openapi-backend's Request type does not name.
const asBackendRequest = (req: RoutedRequest) => req as unknown as BackendRequest;

interface Reply {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

function firstSecurityError(c: BackendContext): DomainError | undefined {
  for (const result of Object.values(c.security ?? {})) {
    const error = (result as { error?: unknown } | undefined)?.error;
    if (error instanceof DomainError) return error;
  }
  return undefined;
}

// A scheme that could not be resolved because the database is away: 503, not 401.
function unavailableDatabaseOf(c: BackendContext): unknown {
  for (const result of Object.values(c.security ?? {})) {
    const error = (result as { error?: unknown } | undefined)?.error;
    if (isDatabaseUnavailable(error)) return error;
  }
  return undefined;
}

function checkContentType(koa: KoaContext, meta: OperationMeta): void {
  if (meta.requestContentTypes.length === 0 || !hasBody(koa)) return;
  const type = (koa.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (!meta.requestContentTypes.includes(type)) throw errors.unsupportedMediaType(type);
}

function hasBody(koa: KoaContext): boolean {
  const length = Number(koa.get('content-length') || 0);
  return length > 0 || Boolean(koa.get('transfer-encoding'));
}

// ajv errors from openapi-backend, as field issues (body value, query skip).
export function issuesFromAjv(list: ErrorObject[]): FieldIssue[] {
  return list.map((e) => {
    const path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean);
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    if (missing) path.push(missing);
    if (extra) path.push(extra);
    const part = path[0] === 'query' || path[0] === 'path' ? path[0] : 'body';
    const field = path.slice(1).join('.');
    const message = extra
      ? 'is not an accepted field'
      : (allowedValuesMessage(e) ??
        FORMAT_MESSAGES[(e.params as { format?: string }).format ?? ''] ??
        e.message ??
        'is invalid');
    const issue: FieldIssue = { field, in: part, message };
    if (e.data !== undefined && typeof e.data !== 'object') issue.value = String(e.data);
    return issue;
  });
}

// The spec's enums are short; a long one is cut so an answer stays readable.
const MAX_LISTED_VALUES = 30;

// An enum or const error says what is accepted ("must be one of CNPJ, EVP"), not ajv's "must be
// equal to one of the allowed values".
function allowedValuesMessage(e: ErrorObject): string | undefined {
  if (e.keyword === 'const') return `must be ${String((e.params as { allowedValue?: unknown }).allowedValue)}`;
  if (e.keyword !== 'enum') return undefined;
  const allowed = ((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String);
  const listed = allowed.slice(0, MAX_LISTED_VALUES).join(', ');
  return `must be one of ${listed}${allowed.length > MAX_LISTED_VALUES ? ', ...' : ''}`;
}

function toKoaPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

// Literal segments before templated ones, so /pix-keys/check wins over /pix-keys/{pixKey}.
function bySpecificity(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    const x = sa[i];
    const y = sb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const px = x.startsWith('{') ? 1 : 0;
    const py = y.startsWith('{') ? 1 : 0;
    if (px !== py) return px - py;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
