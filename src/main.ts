// Entry point of `make run`: migrate, serve, print where, stop cleanly on SIGTERM/SIGINT.
import './v8-tuning';
import { type Config, listensEverywhere, loadConfig, maskPassword } from './config';
import { isDatabaseUnavailable, startupProblemOf } from './db/errors';
import { SealedWithAnotherKey } from './lib/secret-box';
import { credentialLines } from './sandbox/sandbox.service';
import { createLogger, startServer } from './server';

// A bad setting or a busy port is the operator's to fix: one clear line, no stack trace.
function fail(message: string): never {
  process.stderr.write(`pixgate: ${message}\n`);
  process.exit(2);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  fail((error as Error).message);
}
const logger = createLogger(config);
const started = Date.now();

const server = await startServer({
  config,
  logger,
  onNewDatabase: async (services) => {
    const demo = await services.sandbox.createDemoCompany();
    // Printed once, on a new database: the secret is stored hashed and cannot be shown again
    // (make demo-credentials issues new ones). On stderr, for the person who started it:
    // stdout is the JSON log stream.
    process.stderr.write(`\nNew database: created the demo company.\n${credentialLines(demo.application)}\n`);
  },
}).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') {
    const port = (error as NodeJS.ErrnoException & { port?: number }).port ?? config.port;
    const variable = config.tls.enabled && port === config.tls.port ? 'PIXGATE_TLS_PORT' : 'PORT';
    fail(`port ${port} is already in use (set ${variable} to another one)`);
  }
  if (error instanceof SealedWithAnotherKey)
    fail(
      `the secrets in the database were sealed under another PIXGATE_SECRETS_KEY (key id ${error.sealedKeyId}; this one's is ${error.keyId}): start with that key, or with it as PIXGATE_SECRETS_KEY_PREVIOUS to seal them again under the new one`,
    );
  if (error.code === 'DATA_DIR_IN_USE')
    fail(`${error.message}: stop it first, or set PIXGATE_DATA_DIR to another folder`);
  const problem = config.databaseUrl ? startupProblemOf(error) : undefined;
  if (problem) fail(`${problem} (DATABASE_URL=${maskPassword(config.databaseUrl!)})`);
  throw error;
});

const where = config.databaseUrl ? 'Postgres (DATABASE_URL)' : `embedded Postgres in ${config.dataDir}`;
const { url, reach } = listeningOn(config.host, new URL(server.url).port);
process.stderr.write(
  `pixgate listening on ${url} (${where}, sandbox ${config.sandbox ? 'on' : 'off'}, started in ${Date.now() - started} ms)\n` +
    `  ${reach}\n` +
    (server.tlsUrl
      ? `  https://localhost:${new URL(server.tlsUrl).port} (TLS; mTLS on the Pix API: ${config.mtls.mode}; CA: ${config.publicUrl}/sandbox/ca.pem)\n`
      : '') +
    `  reference: ${config.publicUrl}/docs\n`,
);

// Every database call is awaited by a request or a job, which answer or log its failure; should
// one ever be left unheard, a database outage must not end the process over it (anything else
// still does, as Node's default: a bug is not to be run past).
process.on('unhandledRejection', (reason) => {
  if (!isDatabaseUnavailable(reason)) throw reason;
  logger.warn({ error: (reason as Error).message }, 'a database failure was left unhandled');
});

// Where a person reaches it, and from where: the loopback answers this machine only.
function listeningOn(host: string, port: string): { url: string; reach: string } {
  const local = `http://localhost:${port}`;
  if (host === '127.0.0.1' || host === '::1' || host === 'localhost')
    return { url: local, reach: `on ${host} only (PIXGATE_HOST=0.0.0.0 listens on every interface)` };
  if (listensEverywhere(host)) return { url: local, reach: `on every interface (PIXGATE_HOST=${host})` };
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, reach: `on ${host} (PIXGATE_HOST)` };
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => logger.flush(() => process.exit(0)),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

// The payload-signing key is made on the first start (and kept), not by the first payment; once
// serving, as a request that needs it meanwhile waits for the same creation. Here rather than
// in startServer: tests start a server per file and rarely need it. After the signal
// handlers, so a SIGTERM meanwhile still stops cleanly; a failure only defers it to first use.
await server.services.payloadKeys.ensure().catch((err: unknown) => {
  if (!stopping) logger.warn({ err }, 'payload-signing key not created at start; it will be on first use');
});
