// Assembles a server: database (migrated), services, one dispatcher per spec, the Koa app.
import { answerClientError } from './http/client-errors';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { pixOperations } from '../generated/pix.operations';
import { platformOperations } from '../generated/platform.operations';
import type { Config } from './config';
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from './db/database';
import { migrateToLatest } from './db/migrate';
import { buildApp } from './http/app';
import { ApiDispatcher } from './http/dispatch';
import { pixHandlers } from './http/handlers.pix';
import { platformHandlers } from './http/handlers.platform';
import { pixSecurity, platformSecurity } from './http/security';
import { buildServices, type Services } from './services';
import { PROJECT_ROOT } from './lib/root';

const SPECS = join(PROJECT_ROOT, 'specs');

export interface RunningServer {
  url: string;
  // Request validators compiled at start-up (both APIs).
  validators: number;
  services: Services;
  database: DatabaseHandle;
  migrated: string[];
  logger: Logger;
  close(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  database?: DatabaseOptions;
  logger?: Logger;
  // Called once the database is new (its first migration just ran), before serving.
  onNewDatabase?: (services: Services) => Promise<void>;
  // false: jobs run only when a test calls services.jobs.runNow(name).
  backgroundJobs?: boolean;
}

// Log lines are buffered and written in batches: a synchronous write per request line cost
// about a fifth of a simple read's CPU. The buffer is written at least every LOG_FLUSH_MS, and
// at exit (pino flushes its destination then; main.ts flushes before a clean stop).
const LOG_FLUSH_MS = 200;

export function createLogger(config: Config): Logger {
  const destination = pino.destination({ sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return pino(
    {
      level: config.logLevel,
      base: { service: 'pixgate' },
      redact: {
        paths: [
          '*.authorization',
          '*.appID',
          '*.clientSecret',
          '*.access_token',
          '*.password',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config);
  const database = await openDatabase({
    ...(options.database ?? { url: config.databaseUrl, dataDir: config.dataDir }),
    onFeedError: (error) => logger.warn({ err: error }, 'the connection listening for changes failed; reconnecting'),
  });
  const migrated = await migrateToLatest(database.db, database.schema);
  const services = buildServices(config, database.db, database.changes, logger);
  // New: a new data folder (maybe already migrated from the template), or a first migration.
  const isNew = database.fresh || migrated.includes('2026_11_22_0001_identity');
  if (isNew && options.onNewDatabase) await options.onNewDatabase(services);

  const sandboxOnly = (op: { tag: string }) => config.sandbox || op.tag !== 'Sandbox';
  const platform = new ApiDispatcher({
    name: 'platform',
    specFile: resolve(SPECS, 'platform.yaml'),
    operations: platformOperations.filter(sandboxOnly),
    handlers: platformHandlers,
    security: platformSecurity,
    validateResponses: config.validateResponses,
  });
  const pix = new ApiDispatcher({
    name: 'pix',
    specFile: resolve(SPECS, 'pix.yaml'),
    operations: pixOperations,
    handlers: pixHandlers,
    security: pixSecurity,
    validateResponses: config.validateResponses,
    tolerant: true,
  });
  const compiling = performance.now();
  await Promise.all([platform.init(), pix.init()]);
  logger.info(
    { validators: platform.validatorCount + pix.validatorCount, ms: Math.round(performance.now() - compiling) },
    'request validators compiled',
  );
  const app = buildApp({ services, logger, dispatchers: { platform, pix }, countStatements: config.countStatements });

  const http: Server = createHttpServer(app.callback());
  http.keepAliveTimeout = 5000;
  http.on('clientError', answerClientError);
  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(config.port, ok);
  });
  const port = (http.address() as AddressInfo).port;
  if (options.backgroundJobs ?? true) services.jobs.start();

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    validators: platform.validatorCount + pix.validatorCount,
    services,
    database,
    migrated,
    logger,
    // Stops accepting, lets in-flight requests finish, then closes the database.
    close() {
      closing ??= (async () => {
        await new Promise<void>((ok) => {
          http.close(() => ok());
          http.closeIdleConnections();
        });
        await services.jobs.stop();
        await database.close();
      })();
      return closing;
    },
  };
}
