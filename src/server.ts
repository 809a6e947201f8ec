// Assembles a server: database (migrated), services, one dispatcher per spec, the Koa app.
import { answerClientError } from './http/client-errors';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { type AddressInfo, isIP } from 'node:net';
import pino, { type Logger } from 'pino';
import { LineBatch } from './lib/line-batch';
import { pixOperations } from '../generated/pix.operations';
import { platformOperations } from '../generated/platform.operations';
import { type Config, listensEverywhere } from './config';
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from './db/database';
import { migrateToLatest } from './db/migrate';
import { buildApp } from './http/app';
import { InFlightRequests } from './http/in-flight';
import { ApiDispatcher } from './http/dispatch';
import { loadSpecDocument } from './http/spec-document';
import { pixHandlers } from './http/handlers.pix';
import { platformHandlers } from './http/handlers.platform';
import { pixSecurity, platformSecurity } from './http/security';
import { jobTable } from './job-table';
import { buildServices, type Services } from './services';

export interface RunningServer {
  url: string;
  // The HTTPS listener (PIXGATE_TLS=on): https://127.0.0.1:<PIXGATE_TLS_PORT>.
  tlsUrl: string | undefined;
  // Request validators compiled at start-up (both APIs), and the Ajv instances holding them.
  validators: number;
  ajvInstances: number;
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
// about a fifth of a simple read's CPU. They are gathered in a LineBatch (src/lib/line-batch.ts
// says why) and written at least every LOG_FLUSH_MS, and at exit (main.ts flushes before a
// clean stop; at any other exit the batch is written synchronously).
const LOG_FLUSH_MS = 200;
// A stop waits this long past the request deadline for requests still running (a request
// answers at its deadline at the latest; this covers its log line and request log entry).
const IN_FLIGHT_GRACE_MS = 1000;
// Bytes of log lines waiting for stdout at most. A reader that stops reading (a stuck collector,
// a full pipe) would otherwise keep every line in memory until the process runs out of it:
// past this, new lines are dropped, counted, and reported once stdout takes lines again.
const LOG_WAITING_MAX_BYTES = 16 * 1024 * 1024;

export function createLogger(config: Config): Logger {
  const out = pino.destination({ sync: false, maxLength: LOG_WAITING_MAX_BYTES });
  const destination = new LineBatch(out);
  const drops = { lines: 0, reported: 0 };
  out.on('drop', (text: string) => (drops.lines += countLines(text)));
  setInterval(() => {
    destination.flush();
    reportLogDrops(logger, drops);
  }, LOG_FLUSH_MS).unref();
  const logger = pino(
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
  return logger;
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

// A warn line at a flush when lines were dropped since the last one, with the count since the
// start (a report can be dropped too while stdout stays full: it is counted, and the next
// flush reports again).
function reportLogDrops(logger: Logger, drops: { lines: number; reported: number }): void {
  if (drops.lines === drops.reported) return;
  drops.reported = drops.lines;
  logger.warn({ droppedLines: drops.lines }, 'log lines dropped: stdout was not read');
}

// The two APIs' dispatchers (their validators are compiled by init()).
function buildDispatchers(config: Config): { platform: ApiDispatcher; pix: ApiDispatcher } {
  const sandboxOnly = (op: { tag: string }) => config.sandbox || op.tag !== 'Sandbox';
  const platform = new ApiDispatcher({
    name: 'platform',
    document: loadSpecDocument('platform'),
    operations: platformOperations.filter(sandboxOnly),
    handlers: platformHandlers,
    security: platformSecurity,
    validateResponses: config.validateResponses,
    exactIntegers: true,
  });
  const pix = new ApiDispatcher({
    name: 'pix',
    document: loadSpecDocument('pix'),
    operations: pixOperations,
    handlers: pixHandlers,
    security: pixSecurity,
    validateResponses: config.validateResponses,
    tolerant: true,
  });
  return { platform, pix };
}

// A dispatcher holds what its spec and these two settings decide (routes, validators, the
// generated handlers, which read the server from each request's context), so servers of one
// process share it: a process that starts a second server (a test runner running file after
// file) does not compile the same 236 validators again.
const dispatchersBySettings = new Map<string, Promise<{ platform: ApiDispatcher; pix: ApiDispatcher }>>();

function compiledDispatchers(config: Config): Promise<{ platform: ApiDispatcher; pix: ApiDispatcher }> {
  const key = JSON.stringify([config.sandbox, config.validateResponses]);
  let compiled = dispatchersBySettings.get(key);
  if (!compiled) {
    const dispatchers = buildDispatchers(config);
    compiled = Promise.all([dispatchers.platform.init(), dispatchers.pix.init()]).then(() => dispatchers);
    // A failed compilation is not kept: the next start tries again and says why.
    compiled.catch(() => dispatchersBySettings.delete(key));
    dispatchersBySettings.set(key, compiled);
  }
  return compiled;
}

// The request validators of both APIs, and the Ajv instances that hold them.
function validatorCounts(...dispatchers: ApiDispatcher[]): { validators: number; ajvInstances: number } {
  return {
    validators: dispatchers.reduce((n, d) => n + d.validatorCount, 0),
    ajvInstances: dispatchers.reduce((n, d) => n + d.ajvCount, 0),
  };
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(options.config);
  // The database opens while the validators compile: a new embedded data folder is copied in
  // a worker thread and Postgres connects over the network, so the open starts first and the
  // compilation (synchronous, on this thread) fills the wait.
  const opening = openDatabase({
    timeouts: options.config.databaseTimeouts,
    ...(options.database ?? { url: options.config.databaseUrl, dataDir: options.config.dataDir }),
    onFeedError: (error) =>
      logger.warn({ error: error.message }, 'the connection listening for changes failed; reconnecting'),
    // A restart, failover or network cut: the connection is discarded and the pool opens
    // new ones as requests need them. No stack: it says nothing about the code.
    onConnectionError: (error) => logger.warn({ error: error.message }, 'a database connection broke; discarded'),
  });
  // Awaited in serve(); a failure before that must not leave the open's rejection unheard.
  opening.catch(() => undefined);
  try {
    return await serve(opening, options, logger);
  } catch (error) {
    // Whatever failed once the open began (the validators, a migration, the new database's
    // demo company, a port in use): a caller that retries (another port) or exits leaves no
    // pool or embedded instance behind.
    await opening.then(
      (database) => database.close(),
      () => undefined,
    );
    throw error;
  }
}

async function serve(opening: Promise<DatabaseHandle>, options: StartOptions, logger: Logger): Promise<RunningServer> {
  const { config } = options;
  const compiling = performance.now();
  const { platform, pix } = await compiledDispatchers(config);
  const compiledMs = Math.round(performance.now() - compiling);
  const database = await opening;
  const migrated = await migrateToLatest(database.db, database.schema);
  const services = buildServices(config, database.db, database.changes, logger);
  // Every background job (the database actually opened decides whether the statistics job is
  // one: a caller may pass one other than the config's).
  services.jobs.registerAll(jobTable(services, { embedded: database.kind === 'embedded', log: logger }));
  // Secrets an older version stored in clear, or sealed under PIXGATE_SECRETS_KEY_PREVIOUS,
  // are sealed under the current key before anything is served; one sealed under a key this
  // server lacks stops the start (SealedWithAnotherKey).
  await Promise.all([
    services.signingKeys.sealAtRest(),
    services.webhooks.sealAtRest(),
    services.kycOnboardings.sealAtRest(),
  ]);
  // New: a new data folder (maybe already migrated from the template), or a first migration.
  const isNew = database.fresh || migrated.includes('2026_11_22_0001_identity');
  if (isNew && options.onNewDatabase) await options.onNewDatabase(services);

  // Said once the database opened: a server that cannot start prints only why.
  logger.info({ ...validatorCounts(platform, pix), ms: compiledMs }, 'request validators compiled');
  const inFlight = new InFlightRequests();
  const app = buildApp({
    services,
    logger,
    dispatchers: { platform, pix },
    inFlight,
    countStatements: config.countStatements,
  });

  const http: Server = createHttpServer(app.callback());
  http.keepAliveTimeout = 5000;
  http.on('clientError', answerClientError);
  await listen(http, config.port, config.host);
  const port = (http.address() as AddressInfo).port;
  let https: HttpsServer | undefined;
  try {
    https = config.tls.enabled ? await serveTls(app.callback(), services, logger) : undefined;
  } catch (error) {
    // A busy TLS port (or a certificate that cannot be made): nothing stays listening.
    await new Promise<void>((ok) => http.close(() => ok()));
    throw error;
  }
  if (options.backgroundJobs ?? true) services.jobs.start();

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHostOf(config.host)}:${port}`,
    tlsUrl: https ? `https://${urlHostOf(config.host)}:${(https.address() as AddressInfo).port}` : undefined,
    validators: platform.validatorCount + pix.validatorCount,
    get ajvInstances() {
      return validatorCounts(platform, pix).ajvInstances;
    },
    services,
    database,
    migrated,
    logger,
    // Stops accepting, ends the event streams, lets in-flight requests finish (those whose
    // client left too), writes the request log's buffer, then closes the database.
    close() {
      closing ??= stopServing({ servers: [http, https], services, inFlight, database, config, logger });
      return closing;
    },
  };
}

async function stopServing(o: {
  servers: Array<Server | HttpsServer | undefined>;
  services: Services;
  inFlight: InFlightRequests;
  database: DatabaseHandle;
  config: Config;
  logger: Logger;
}): Promise<void> {
  const { services, inFlight, database, config, logger } = o;
  const servers = o.servers.filter((server) => server !== undefined);
  const stopped = Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((ok) => {
          server.close(() => ok());
          server.closeIdleConnections();
        }),
    ),
  );
  // A stream would keep its connection open for as long as it lasts (an hour).
  await services.eventStreams.close();
  await stopped;
  // A request whose client left has no connection to wait for, but may still be at work: each
  // answers at its deadline at the latest.
  if (!(await inFlight.settled(config.requestTimeoutMs + IN_FLIGHT_GRACE_MS)))
    logger.warn({ inFlight: inFlight.size }, 'stopping with requests still running');
  // Requests have finished: the request log writes what they left in its buffer.
  await services.requestLogs.close();
  await services.jobs.stop();
  await database.close();
}

function listen(server: Server | HttpsServer, port: number, host: string): Promise<void> {
  return new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok();
    });
  });
}

// Both APIs over TLS 1.2 or 1.3 (OpenSSL prefers 1.3) on PIXGATE_TLS_PORT. A client
// certificate is asked of every client and checked against the trusted CAs, but no handshake
// is refused for it: the Pix API decides per route (PIXGATE_MTLS) and answers a refusal in its
// own format, with the reason in words (src/tls/certificates.service.ts).
async function serveTls(
  callback: ReturnType<ReturnType<typeof buildApp>['callback']>,
  services: Services,
  logger: Logger,
): Promise<HttpsServer> {
  const { config, tlsAuthority } = services;
  const [credentials, trusted] = await Promise.all([
    tlsAuthority.serverCredentials(),
    config.mtls.mode === 'off' ? Promise.resolve([]) : tlsAuthority.trustedClientCas(),
  ]);
  const https = createHttpsServer(
    {
      cert: credentials.certificatePem,
      key: credentials.privateKeyPem,
      minVersion: 'TLSv1.2',
      requestCert: config.mtls.mode !== 'off',
      rejectUnauthorized: false,
      ...(trusted.length ? { ca: trusted } : {}),
    },
    callback,
  );
  https.keepAliveTimeout = 5000;
  https.on('clientError', answerClientError);
  https.on('tlsClientError', (err: NodeJS.ErrnoException) =>
    logger.debug({ err: { code: err.code, message: err.message } }, 'TLS handshake failed'),
  );
  await listen(https, config.tls.port, config.host);
  return https;
}

// Where this process reaches the server it started: the loopback when it listens on every
// interface, else the address it listens on (an IPv6 one in brackets).
function urlHostOf(host: string): string {
  if (listensEverywhere(host)) return '127.0.0.1';
  return isIP(host) === 6 ? `[${host}]` : host;
}
