// Types shared by the generated handler maps and the handwritten handlers. A handler takes
// the validated request of one operation (types from openapi-typescript) and returns one of
// that operation's success responses; errors are thrown as DomainError.
import type { Readable } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Principal } from '../identity/principal.types';
import type { Services } from '../services';

type ValueOf<T> = T[keyof T];

type Params<O, K extends string> = O extends { parameters: infer P }
  ? P extends Record<K, infer X>
    ? [X] extends [never]
      ? Record<string, never>
      : [X] extends [undefined]
        ? Record<string, never>
        : NonNullable<X>
    : Record<string, never>
  : Record<string, never>;

type Body<O> = O extends { requestBody: { content: infer C } }
  ? ValueOf<C>
  : O extends { requestBody?: { content: infer C } }
    ? ValueOf<C> | undefined
    : undefined;

type SuccessStatus = 200 | 201 | 202 | 204;
type ContentOf<R> = R extends { content: infer C } ? ([C] extends [never] ? undefined : ValueOf<C>) : undefined;

export type HandlerRequest<O> = {
  params: Params<O, 'path'>;
  query: Params<O, 'query'>;
  body: Body<O>;
  headers: Record<string, string | undefined>;
};

export type HandlerReply<O> = O extends { responses: infer R }
  ? ValueOf<{
      [S in keyof R & SuccessStatus]: {
        status: S;
        // A stream: an answer written as it happens (text/event-stream).
        body: ContentOf<R[S]> | Buffer | Readable;
        contentType?: string;
        headers?: Record<string, string>;
      };
    }>
  : never;

export interface RequestContext {
  requestId: string;
  log: Logger;
  services: Services;
  // Set on authenticated operations; open operations get undefined. Security sets it as soon
  // as the credentials verify, so a call then refused (scope, IP) still names its caller in
  // the log line and the company's request log (no handler runs after a refusal).
  principal: Principal | undefined;
  // The caller's IP address as seen by the server.
  ip: string;
  // The RFC 8705 thumbprint of the client certificate that admitted the caller (mutual TLS at
  // the token endpoint): the token issued is bound to it.
  clientCertificate?: string | undefined;
}

export type Handler<O> = (req: HandlerRequest<O>, ctx: RequestContext) => Promise<HandlerReply<O>>;

// Metadata of one operation, emitted by codegen from the spec.
export interface OperationMeta {
  operationId: string;
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  path: string;
  tag: string;
  security: string[];
  scope: string | null;
  requestContentTypes: string[];
  // Pix problem types this operation answers, by status: type name and title.
  problemTypes: Record<string, { type: string; title: string }>;
  // The status of a request without an Authorization header when the contract says other than
  // 401 (x-missing-authorization-status: the account-register operations answer 400).
  missingAuthorizationStatus?: number;
}

export type ApiName = 'platform' | 'pix';

// What a request carries through the Koa middleware: its API, its operation once routed, and
// the context its handler gets.
export interface AppState {
  api?: ApiName;
  operation?: OperationMeta;
  requestContext: RequestContext;
}

export type KoaContext = Koa.ParameterizedContext<AppState>;

// A request as dispatch hands it to a handler (HandlerRequest of any operation): its path and
// query values as validation coerced them.
export interface ParsedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | undefined>;
}

// What a handler answers (HandlerReply of any operation).
export interface Reply {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

// A handler run for a request, with the layers around it (Idempotency-Key).
export type Run = (req: ParsedRequest, koa: KoaContext) => Promise<Reply>;
