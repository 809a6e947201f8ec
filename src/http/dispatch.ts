// One openapi-backend instance per spec, strict, with every safety handler registered.
// @koa/router resolves the path to an operation (a lookup that does not scan), and
// openapi-backend then runs that operation's security, validation and handler: its own
// router would rebuild and scan the operation list on every request.
import Router from '@koa/router';
import type Koa from 'koa';
import { OpenAPIBackend, type Context as BackendContext, type Operation } from 'openapi-backend';
import type { ErrorObject } from 'ajv';
import { ApiError, errors, type FieldIssue } from './errors';
import type { Handler, OperationMeta, RequestContext } from './types';
import type { Principal } from './principal';
import { isPending } from './pending';
import { idempotent } from './idempotency';
import { pruneOneOfBranches } from './oneof-errors';
import { addOpenApiFormats, FORMAT_MESSAGES } from './openapi-formats';

export type ApiName = 'platform' | 'pix';
export type KoaContext = Koa.ParameterizedContext<AppState>;

export interface AppState {
  api?: ApiName;
  operation?: OperationMeta;
  requestContext: RequestContext;
}

// Resolves one security scheme for a request; throws ApiError (401/403) when it fails.
export type SecurityResolver = (koa: KoaContext, operation: OperationMeta) => Promise<Principal>;

export interface ApiDefinition {
  name: ApiName;
  specFile: string;
  operations: OperationMeta[];
  // The generated handler map of the spec (every operationId is a key).
  handlers: object;
  security: Record<string, SecurityResolver>;
  validateResponses: boolean;
}

interface RoutedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  operation?: Operation;
  allowed?: string[];
}

export class ApiDispatcher {
  private readonly backend: OpenAPIBackend;
  private readonly operationsById = new Map<string, Operation>();
  private readonly metaById = new Map<string, OperationMeta>();

  constructor(private readonly definition: ApiDefinition) {
    this.backend = new OpenAPIBackend({
      definition: definition.specFile,
      strict: true,
      // quick: skip re-validating the definition at start-up (lint and the spec tests do it)
      // and compile an operation's validators on its first request: 65 ms instead of ~8 s.
      quick: true,
      validate: true,
      coerceTypes: true,
      ajvOpts: { strict: false, allErrors: true, verbose: true },
      customizeAjv: (ajv) => addOpenApiFormats(ajv as never) as never,
      handlers: {
        validationFail: async (c: BackendContext) => {
          throw errors.validation(issuesFromAjv(pruneOneOfBranches(c.validation.errors ?? [])));
        },
        notFound: async () => {
          throw errors.routeNotFound();
        },
        methodNotAllowed: async (c: BackendContext) => {
          throw errors.methodNotAllowed((c.request as unknown as RoutedRequest).allowed ?? []);
        },
        notImplemented: async (c: BackendContext) => {
          throw errors.notImplemented(c.operation.operationId ?? 'unknown');
        },
        unauthorizedHandler: async (c: BackendContext) => {
          throw firstSecurityError(c) ?? errors.unauthorized();
        },
      },
    });
  }

  async init(): Promise<void> {
    await this.backend.init();
    const router = this.backend.router;
    const all = router.getOperations();
    for (const op of all) this.operationsById.set(op.operationId!, op);
    for (const meta of this.definition.operations) this.metaById.set(meta.operationId, meta);
    // The definition never changes after init: answer from the precomputed tables.
    router.getOperations = () => all;
    router.getOperation = (id: string) => this.operationsById.get(id);
    router.matchOperation = ((req: RoutedRequest, strict?: boolean) => {
      if (req.operation) return req.operation;
      if (!strict) return undefined;
      throw new Error(req.allowed?.length ? '405-methodNotAllowed' : '404-notFound');
    }) as typeof router.matchOperation;
    for (const meta of this.definition.operations) {
      const handler = (this.definition.handlers as Record<string, Handler<any> | undefined>)[meta.operationId];
      if (handler && !isPending(handler)) this.backend.register(meta.operationId, this.wrap(meta, handler));
    }
    for (const [scheme, resolve] of Object.entries(this.definition.security)) {
      this.backend.registerSecurityHandler(scheme, async (c: BackendContext, koa: KoaContext) => {
        const meta = this.metaById.get(c.operation.operationId!)!;
        const principal = await resolve(koa, meta);
        koa.state.requestContext.principal = principal;
        return principal;
      });
    }
  }

  // Registers every path of the spec on the router, most literal paths first.
  mount(router: Router<AppState>): void {
    const byPath = new Map<string, OperationMeta[]>();
    for (const meta of this.definition.operations) byPath.set(meta.path, [...(byPath.get(meta.path) ?? []), meta]);
    const paths = [...byPath.keys()].sort(bySpecificity);
    for (const path of paths) {
      const metas = byPath.get(path)!;
      const allowed = metas.map((m) => m.method.toUpperCase());
      router.all(toKoaPath(path), async (koa: KoaContext) => {
        const meta = metas.find((m) => m.method === koa.method.toLowerCase());
        await this.dispatch(koa, meta, allowed);
      });
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
    const request: RoutedRequest = {
      method: koa.method,
      path: koa.path,
      headers: koa.headers,
      query: koa.query,
      body: (koa.request as { body?: unknown }).body,
      ...(meta ? { operation: this.operationsById.get(meta.operationId) } : {}),
      allowed,
    };
    const reply = (await this.backend.handleRequest(request as never, koa)) as Reply;
    if (this.definition.validateResponses && meta) this.checkResponse(meta, reply);
    koa.status = reply.status;
    for (const [k, v] of Object.entries(reply.headers ?? {})) koa.set(k, v);
    if (reply.contentType) koa.type = reply.contentType;
    if (reply.body !== undefined) koa.body = reply.body as never;
    else if (reply.status !== 204 && reply.status !== 304) {
      // A success without content (e.g. the standard's PUT /webhook 200): an empty body, not Koa's "OK".
      koa.body = '';
      koa.remove('Content-Type');
    }
  }

  private wrap(meta: OperationMeta, handler: Handler<any>) {
    const run = async (c: BackendContext, koa: KoaContext): Promise<Reply> => {
      const req = {
        params: c.request.params ?? {},
        query: c.request.query ?? {},
        body: c.request.requestBody,
        headers: koa.headers as Record<string, string | undefined>,
      };
      return (await handler(req, koa.state.requestContext)) as Reply;
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
      throw new ApiError(
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
      throw new ApiError(
        'CONTRACT',
        500,
        `response of ${meta.operationId} (${reply.status}) breaks the contract: ${JSON.stringify(problems).slice(0, 2000)}`,
      );
    }
  }
}

interface Reply {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

function firstSecurityError(c: BackendContext): ApiError | undefined {
  for (const result of Object.values(c.security ?? {})) {
    const error = (result as { error?: unknown } | undefined)?.error;
    if (error instanceof ApiError) return error;
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

// ajv errors from openapi-backend, as field issues ("body.value", "query.skip").
export function issuesFromAjv(list: ErrorObject[]): FieldIssue[] {
  return list.map((e) => {
    const path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean);
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    if (missing) path.push(missing);
    if (extra) path.push(extra);
    if (path[0] === 'requestBody') path[0] = 'body';
    const field = path.join('.') || 'body';
    const message = extra
      ? 'is not an accepted field'
      : (FORMAT_MESSAGES[(e.params as { format?: string }).format ?? ''] ?? e.message ?? 'is invalid');
    const issue: FieldIssue = { field, message };
    if (e.data !== undefined && typeof e.data !== 'object') issue.value = String(e.data);
    return issue;
  });
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
