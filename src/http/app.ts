// The Koa application: request id and log line, error rendering per API, body parsing
// with limits, the routes of both specs, health and reference pages.
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Logger } from 'pino';
import type { Services } from '../services';
import type { ApiDispatcher, ApiName, AppState, KoaContext } from './dispatch';
import { ApiError, errors, isApiError } from './errors';
import { renderError } from './render';
import { mountDocs } from './docs';

export const JSON_LIMIT = '1mb';

export interface AppParts {
  services: Services;
  logger: Logger;
  dispatchers: Record<ApiName, ApiDispatcher>;
}

// Which API a path belongs to decides the error format of anything that goes wrong.
export function apiOfPath(path: string): ApiName | undefined {
  if (/^\/(api|openpix)\//.test(path)) return 'platform';
  if (/^\/(pix|qr)\/v2(\/|$)|^\/oauth\/|^\/\.well-known\//.test(path)) return 'pix';
  return undefined;
}

export function buildApp({ services, logger, dispatchers }: AppParts): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  app.silent = true;

  app.use(async (koa: KoaContext, next) => {
    const started = process.hrtime.bigint();
    const given = koa.get('x-request-id');
    const requestId = /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : randomUUID();
    const log = logger.child({ requestId });
    koa.state.requestContext = { requestId, log, services, principal: undefined, ip: koa.ip };
    koa.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status >= 500)
        log.error({ err: thrown, operationId: koa.state.operation?.operationId }, 'request failed');
      const api = koa.state.api ?? apiOfPath(koa.path);
      if (api) renderError(koa, api, error, koa.state.operation);
      else {
        koa.status = error.status;
        koa.body = { error: error.message };
      }
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          method: koa.method,
          path: koa.path,
          status: koa.status,
          ms: Math.round(ms * 100) / 100,
          operationId: koa.state.operation?.operationId,
        },
        'request',
      );
    }
  });

  app.use(
    koaBody({
      json: true,
      urlencoded: true,
      text: false,
      multipart: false,
      jsonStrict: true,
      jsonLimit: JSON_LIMIT,
      formLimit: '64kb',
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
      onError: (err: Error) => {
        throw bodyError(err);
      },
    }),
  );

  const router = new Router<AppState>();
  router.get('/healthz', async (koa) => {
    await services.db.selectFrom('sandbox_clock').select('id').executeTakeFirst();
    koa.body = { status: 'ok' };
  });
  mountDocs(router);
  dispatchers.platform.mount(router);
  dispatchers.pix.mount(router);
  app.use(router.routes());

  app.use(async (koa: KoaContext) => {
    const api = apiOfPath(koa.path);
    if (api) await dispatchers[api].notFound(koa);
    else throw errors.routeNotFound();
  });
  return app;
}

function bodyError(err: Error & { status?: number; type?: string }): ApiError {
  if (err.status === 413 || err.type === 'entity.too.large') return errors.payloadTooLarge(JSON_LIMIT);
  if (err.status === 415) return errors.unsupportedMediaType('');
  return errors.malformedJson();
}

function toApiError(thrown: unknown): ApiError {
  if (isApiError(thrown)) return thrown;
  if (thrown instanceof URIError) return errors.badEncoding();
  // Postgres class 22 (data exception) and 54000 (e.g. index row too large) come from values
  // the client sent; the transaction they broke has rolled back.
  const sqlState = (thrown as { code?: unknown }).code;
  if (typeof sqlState === 'string' && /^(22[0-9A-Z]{3}|54000)$/.test(sqlState)) return errors.unacceptableValue();
  const status = (thrown as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('HTTP', status, (thrown as Error).message || 'Bad request');
  }
  return errors.internal();
}
