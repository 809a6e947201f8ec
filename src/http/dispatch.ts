// Every request of one API takes one path here: routing (@koa/router, within the group of paths
// a Map finds: see middleware()), security, validation, handler, answer.
// openapi-backend (one instance per spec) dereferences the spec and compiles each operation's
// request validators once, at start-up; it is used through its public API only. Its own
// handleRequest is not the path: it routes by rebuilding and scanning the operation list on
// every request (about 3 ms for the platform spec's 137 operations) and parses each request
// four times.
import type Koa from 'koa';
import type Ajv from 'ajv';
import type { Options as AjvOptions } from 'ajv';
import { OpenAPIBackend, type ValidationContext } from 'openapi-backend';
import { isDatabaseUnavailable } from '../db/errors';
import { DomainError, errors } from '../errors/errors';
import type { ApiName, AppState, KoaContext, OperationMeta, ParsedRequest, Reply, RequestContext, Run } from './types';

export type { ApiName, AppState, KoaContext } from './types';
import type { Principal } from '../identity/principal.types';
import { idempotent } from './idempotency';
import { tolerate } from './tolerant';
import { addOpenApiFormats } from './openapi-formats';
import { requestErrors, validationFailure } from './request-validation';
import { type Route, routeOf } from './routes';
import type { SpecDocument } from './spec-document';

export { issuesFromAjv } from './request-validation';

// Resolves one security scheme for a request; throws DomainError (401/403) when it fails.
export type SecurityResolver = (koa: KoaContext, operation: OperationMeta) => Promise<Principal>;

export interface ApiDefinition {
  name: ApiName;
  // The parsed spec (http/spec-document.ts); openapi-backend dereferences it.
  document: SpecDocument;
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

// A handler of the generated map (types.ts Handler of one operation), called with the request
// its operation's validators accepted.
type AnyHandler = (req: ParsedRequest, ctx: RequestContext) => Promise<Reply>;

export class ApiDispatcher {
  private readonly backend: OpenAPIBackend;
  // One Ajv instance per validation context (and its options) serves every schema of the spec.
  private readonly ajvs = new Map<string, Ajv>();
  private readonly routes = new Map<string, Route>();
  private readonly runs = new Map<string, Run>();

  constructor(private readonly definition: ApiDefinition) {
    this.backend = new OpenAPIBackend({
      definition: definition.document,
      strict: true,
      // quick: skip re-validating the definition at start-up (lint and the spec tests do it)
      // and compile validators when asked: init() asks for every operation's.
      quick: true,
      validate: true,
      coerceTypes: true,
      // optimize: false skips Ajv's pass over the code it generates: a third less time to
      // compile the 236 validators at start-up, and no measurable change per validation
      // (8.2-8.8 us for a charge creation body either way).
      ajvOpts: { strict: false, allErrors: true, verbose: true, code: { optimize: false } },
      customizeAjv: (fresh, options, context) => this.sharedAjv(fresh, options, context),
    });
  }

  // openapi-backend makes a new Ajv instance for each schema it compiles (2 per operation):
  // each would set up its formats and compile the JSON Schema meta-schema again. The first
  // instance of each context is kept (with the OpenAPI formats) and serves them all, at a
  // third of the start-up time; the others are dropped unused.
  private sharedAjv(fresh: Ajv, options: AjvOptions, context: ValidationContext): Ajv {
    const key = `${context} ${JSON.stringify(options)}`;
    let ajv = this.ajvs.get(key);
    if (!ajv) this.ajvs.set(key, (ajv = addOpenApiFormats(fresh)));
    return ajv;
  }

  // How many request validators were compiled at start-up, and how many Ajv instances hold
  // them (the start-up log says both).
  validatorCount = 0;
  get ajvCount(): number {
    return this.ajvs.size;
  }

  async init(): Promise<void> {
    await this.backend.init();
    const operations = new Map(this.backend.getOperations().map((op) => [op.operationId!, op]));
    // Every operation's request validators now, rather than on its first request.
    for (const id of operations.keys())
      this.validatorCount += this.backend.validator.getRequestValidatorsForOperation(id)?.length ?? 0;
    for (const meta of this.definition.operations) {
      const operation = operations.get(meta.operationId);
      if (!operation) throw new Error(`${this.definition.name}: ${meta.operationId} is not in the spec`);
      const route = routeOf(meta, operation, this.backend.validator.getRequestValidatorsForOperation(meta.operationId));
      for (const scheme of route.schemes)
        if (!this.definition.security[scheme])
          throw new Error(`${this.definition.name}: no resolver for the security scheme ${scheme}`);
      this.routes.set(meta.operationId, route);
      const handler = (this.definition.handlers as Record<string, AnyHandler | undefined>)[meta.operationId];
      // The generated map's type already asks for every operation; this holds for plain JS too.
      if (!handler) throw new Error(`${this.definition.name}: no handler for ${meta.operationId}`);
      this.runs.set(meta.operationId, this.wrap(meta, handler));
    }
  }

  // Every path of the spec as one middleware (src/http/app.ts mounts it). Testing each path's
  // pattern in turn on every request (144 of them) cost a charge read 16% more CPU (A/B, five
  // pairs, docs/SPEED.md). So the paths are grouped by their first three segments (a Map lookup
  // per request), each group's paths most literal first. A path templated within its first
  // three segments (/qr/v2/{token}) is in a list tried after the group's: literal before
  // templated. Matching follows the rules of @koa/router, which did this before (its chain of
  // closures and composed middleware per request cost a read CPU): case ignored, one trailing
  // slash allowed, a parameter one segment or part of one.
  middleware(): Koa.Middleware<AppState> {
    const groups = new Map<string, PathEntry[]>();
    const templated: PathEntry[] = [];
    const byPath = new Map<string, Route[]>();
    for (const route of this.routes.values())
      byPath.set(route.meta.path, [...(byPath.get(route.meta.path) ?? []), route]);
    for (const path of [...byPath.keys()].sort(bySpecificity)) {
      const routes = byPath.get(path)!;
      const entry = {
        pattern: patternOf(path),
        names: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        routes,
        allowed: routes.map((r) => r.meta.method.toUpperCase()),
      };
      const key = groupOf(path);
      if (key.includes('{')) templated.push(entry);
      else groups.set(key, [...(groups.get(key) ?? []), entry]);
    }
    return (koa, next) => {
      const path = koa.path;
      const found = matchOf(groups.get(groupOf(path)), path) ?? matchOf(templated, path);
      if (!found) return next();
      const method = koa.method.toLowerCase();
      const route = found.entry.routes.find((r) => r.meta.method === method);
      return this.dispatch(koa, route, found.entry.allowed, route && paramsOf(found));
    };
  }

  // Answers a request under this API's prefix that matched no path.
  async notFound(koa: KoaContext): Promise<void> {
    await this.dispatch(koa, undefined, [], undefined);
  }

  // The one path: route, security, validation, handler, answer.
  private async dispatch(
    koa: KoaContext,
    route: Route | undefined,
    allowed: string[],
    params: Record<string, string> | undefined,
  ): Promise<void> {
    koa.state.api = this.definition.name;
    koa.state.operation = route?.meta;
    if (!route) throw allowed.length ? errors.methodNotAllowed(allowed) : errors.routeNotFound();
    const { meta } = route;
    checkContentType(koa, meta);
    if (this.definition.tolerant) tolerateBody(koa, route);
    const req: ParsedRequest = {
      params: params ?? {},
      // a copy: validation coerces its values in place, and Koa keeps its own parse
      query: { ...koa.query },
      body: (koa.request as { body?: unknown }).body,
      headers: koa.headers as ParsedRequest['headers'],
    };
    if (route.schemes.length > 0) await this.authorize(route, koa);
    // (a JSON body's text: a form's is no JSON to scan)
    const rawBody =
      this.definition.exactIntegers && koa.is('json') ? (koa.request as { rawBody?: string }).rawBody : undefined;
    const found = requestErrors(route, req, rawBody);
    if (found.length > 0) throw validationFailure(found);
    const reply = await this.runs.get(meta.operationId)!(req, koa);
    if (this.definition.validateResponses) this.checkResponse(route, reply);
    answer(koa, reply);
  }

  // Security as OpenAPI states it (and openapi-backend's handleRequest runs it): each scheme
  // the operation names runs once, and the request passes when every scheme of one of its
  // requirements did. A refusal answers the first DomainError a scheme threw (its 401 or 403),
  // else the database being away (503: the credentials could not be checked, which is no answer
  // about them), else 401.
  private async authorize(route: Route, koa: KoaContext): Promise<void> {
    // (one requirement of one scheme, as nearly every operation has: no bookkeeping of passes)
    if (route.requirements.length === 1 && route.schemes.length === 1) {
      try {
        await this.authenticate(route.schemes[0]!, koa, route.meta);
        return;
      } catch (error) {
        throw refusalOf([error]);
      }
    }
    const passed = new Set<string>();
    const refusals: unknown[] = [];
    const attempt = (scheme: string, i: number) =>
      this.authenticate(scheme, koa, route.meta).then(
        () => passed.add(scheme),
        (error: unknown) => (refusals[i] = error),
      );
    await Promise.all(route.schemes.map(attempt));
    if (route.requirements.some((schemes) => schemes.every((s) => passed.has(s)))) return;
    throw refusalOf(refusals);
  }

  private async authenticate(scheme: string, koa: KoaContext, meta: OperationMeta): Promise<Principal> {
    const principal = await this.definition.security[scheme]!(koa, meta);
    koa.state.requestContext.principal = principal;
    return principal;
  }

  private wrap(meta: OperationMeta, handler: AnyHandler): Run {
    // The handler's own promise (no async frame of its own waiting on it).
    const run: Run = (req, koa) => handler(req, koa.state.requestContext);
    // Every platform POST honours the Idempotency-Key header (src/http/idempotency.ts).
    return this.definition.name === 'platform' && meta.method === 'post' ? idempotent(meta, run) : run;
  }

  // Tests run with this on: an answer that breaks the contract becomes a 500 that says why.
  private checkResponse({ meta, operation }: Route, reply: Reply): void {
    const isJson = !reply.contentType || /json/.test(reply.contentType);
    if (!isJson || Buffer.isBuffer(reply.body)) return;
    const responses = (operation.responses ?? {}) as Record<string, { content?: unknown }>;
    const declared = responses[String(reply.status)];
    if (!declared) {
      throw new DomainError(
        'CONTRACT',
        500,
        `response of ${meta.operationId} has status ${reply.status}, which the spec does not declare`,
      );
    }
    // A response the spec declares without content (204, a bare 200) has nothing to check.
    if (reply.body === undefined && !declared.content) return;
    const problems = this.backend.validateResponse(reply.body, operation, reply.status).errors ?? [];
    if (problems.length > 0) {
      throw new DomainError(
        'CONTRACT',
        500,
        `response of ${meta.operationId} (${reply.status}) breaks the contract: ${JSON.stringify(problems).slice(0, 2000)}`,
      );
    }
  }
}

// What a request no scheme let in is told: a scheme's own refusal (403 for an address off the
// allowlist), the database being unavailable (503), else 401.
function refusalOf(refusals: unknown[]): unknown {
  return (
    refusals.find((e) => e instanceof DomainError) ??
    refusals.find((e) => isDatabaseUnavailable(e)) ??
    errors.unauthorized()
  );
}

function answer(koa: KoaContext, reply: Reply): void {
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

function tolerateBody(koa: KoaContext, route: Route): void {
  const request = koa.request as { body?: unknown };
  if (!request.body || typeof request.body !== 'object' || !route.bodySchema) return;
  request.body = tolerate(route.bodySchema, request.body);
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

// The group of a path (its first three segments, lowercase): /api/v1/charge/{id} is in
// /api/v1/charge. (Not split('/'): this runs on every request.)
function groupOf(path: string): string {
  let end = 0;
  for (let slashes = 0; slashes < 3 && end !== -1; slashes++) end = path.indexOf('/', end + 1);
  return (end === -1 ? path : path.slice(0, end)).toLowerCase();
}

// One path of the spec: its pattern, its parameters' names in order, its operations and the
// methods they answer.
interface PathEntry {
  pattern: RegExp;
  names: string[];
  routes: Route[];
  allowed: string[];
}

interface PathMatch {
  entry: PathEntry;
  values: RegExpExecArray;
}

function matchOf(entries: PathEntry[] | undefined, path: string): PathMatch | undefined {
  if (!entries) return undefined;
  for (const entry of entries) {
    const values = entry.pattern.exec(path);
    if (values) return { entry, values };
  }
  return undefined;
}

// The path parameters, each percent-decoded (a malformed escape throws URIError, which is
// answered as a bad encoding in the API's format).
function paramsOf({ entry, values }: PathMatch): Record<string, string> {
  const params: Record<string, string> = {};
  entry.names.forEach((name, i) => (params[name] = decodeURIComponent(values[i + 1]!)));
  return params;
}

// A spec path as a pattern of request paths: each {parameter} one or more characters of one
// segment (captured), the literal parts as they are (any case), one trailing slash allowed.
function patternOf(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('([^/]+?)')}/?$`, 'i');
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
