// Assembles a server: database (migrated), services, one dispatcher per spec, the Koa app.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
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

const SPECS = resolve(import.meta.dirname, '../specs');

export interface RunningServer {
  url: string;
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

export function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'pixgate' },
    redact: {
      paths: ['*.authorization', '*.appID', '*.clientSecret', '*.access_token', '*.password', 'headers.authorization'],
      censor: '[redacted]',
    },
  });
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config);
  const database = await openDatabase(options.database ?? { url: config.databaseUrl, dataDir: config.dataDir });
  const migrated = await migrateToLatest(database.db, database.schema);
  const services = buildServices(config, database.db, logger);
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
  });
  await Promise.all([platform.init(), pix.init()]);
  const app = buildApp({ services, logger, dispatchers: { platform, pix } });

  const http: Server = createHttpServer(app.callback());
  http.keepAliveTimeout = 5000;
  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(config.port, ok);
  });
  const port = (http.address() as AddressInfo).port;
  if (options.backgroundJobs ?? true) services.jobs.start();

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
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
