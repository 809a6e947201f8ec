// A real server per test file, on a fresh database: in-memory PGlite by default, or a new
// schema of the Postgres at DATABASE_URL (dropped on close). Responses are checked against
// the specs by the server itself (a contract break answers 500).
import { randomBytes, randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { dropSchema } from '../../src/db/database';
import { startServer, type RunningServer } from '../../src/server';
import { auditLedger } from './ledger-auditor';
import { createSchemaFromTemplate } from './postgres-template';

export interface TestServer extends RunningServer {
  client: TestClient;
}

// A port for a test server, drawn below the kernel's ephemeral range (32768-60999 here):
// a port the kernel handed out (port 0) can be taken by any outgoing connection of another
// test file before the server binds it. Checked free on the address the server binds.
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 20000 + randomInt(12000);
    if (await canListen(port)) return port;
    if (attempt === 50) throw new Error('no free port found in 20000-31999');
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const probe = createServer();
    probe.once('error', () => ok(false));
    probe.listen(port, () => probe.close(() => ok(true)));
  });
}

// The secrets key of test servers started outside sandbox mode.
export const TEST_SECRETS_KEY = 'test-secrets-key:0123456789abcdefghijklmnopqrstuv';

export interface TestServerOptions {
  // Postgres: work in this schema (another server's, to run two servers on one database)
  // and leave it in place on close; the server that created a schema drops it.
  schema?: string;
  // Embedded: keep the database in this folder (a restart reopens it) instead of memory.
  dataDir?: string;
  // false: no timers; jobs run only through services.jobs.runNow(name).
  backgroundJobs?: boolean;
  // Postgres: reach it through this URL (a proxy in the test) instead of DATABASE_URL.
  databaseUrl?: string;
}

// uvu hides errors of before hooks: print them so a failed start says why.
export async function startTestServer(
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  try {
    return await startTestServerOnce(env, options);
  } catch (error) {
    console.error('test server failed to start:', error);
    throw error;
  }
}

// Another test file may still bind the port between the check and the server's listen:
// then the server closes what it opened and this tries another port.
async function startTestServerOnce(env: Record<string, string>, options: TestServerOptions): Promise<TestServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTestServerOnPort(await freePort(), env, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}

async function startTestServerOnPort(
  port: number,
  env: Record<string, string>,
  options: TestServerOptions,
): Promise<TestServer> {
  const url = process.env.DATABASE_URL;
  const ownsSchema = Boolean(url) && !options.schema;
  const schema = url ? (options.schema ?? `t_${randomBytes(6).toString('hex')}`) : undefined;
  const config = loadConfig({
    PORT: String(port),
    LOG_LEVEL: 'silent',
    PIXGATE_VALIDATE_RESPONSES: 'true',
    PIXGATE_COUNT_STATEMENTS: 'true',
    // outside sandbox mode the server needs a key of its own to seal secrets at rest
    ...(env.PIXGATE_SANDBOX === 'false' ? { PIXGATE_SECRETS_KEY: TEST_SECRETS_KEY } : {}),
    ...env,
  });
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const template = process.env.PIXGATE_TEST_TEMPLATE;
  const database = url
    ? // Named by schema, so a test can find (and terminate) its own server's sessions.
      { url: options.databaseUrl ?? url, schema: schema!, poolSize: 8, applicationName: `pixgate-${schema}` }
    : options.dataDir
      ? { dataDir: options.dataDir }
      : template
        ? { templateFile: template }
        : {};
  let server: RunningServer;
  try {
    // A schema of its own starts as a copy of the run's migrated template (scripts/test.ts).
    const pgTemplate = process.env.PIXGATE_TEST_PG_TEMPLATE;
    if (ownsSchema && pgTemplate) await createSchemaFromTemplate(url!, schema!, pgTemplate);
    server = await startServer({
      config,
      logger,
      database,
      ...(options.backgroundJobs === undefined ? {} : { backgroundJobs: options.backgroundJobs }),
    });
  } catch (error) {
    if (url && schema && ownsSchema) await dropSchema(url, schema);
    throw error;
  }
  const close = server.close.bind(server);
  return {
    ...server,
    client: new TestClient(server.url),
    // Every test file's money is audited before its server goes (double entry, balances equal
    // to their entries, no customer below zero): a broken invariant fails the file.
    async close() {
      try {
        await auditLedger(server.database.db);
      } finally {
        await close();
      }
      if (url && schema && ownsSchema) await dropSchema(url, schema);
    },
  };
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  form?: Record<string, string>;
  raw?: string;
  headers?: Record<string, string>;
  auth?: string;
}

// A kept-alive connection the server closed (its 5 s keep-alive timeout) just as the client
// sent on it: the request never reached a handler, so it is sent once more on a new
// connection, as browsers and HTTP client libraries do. It happens when a test blocks the
// event loop for seconds (decoding a 4096-pixel QR image on a loaded machine): the request is
// written before either side's idle timer ran, then the server's timer closes the socket.
const STALE_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

async function fetchWithOneResend(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (!code || !STALE_CONNECTION.has(code)) throw error;
    return await fetch(url, init);
  }
}

export class TestClient {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.auth !== undefined) headers.authorization = options.auth;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetchWithOneResend(this.baseUrl + path, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const type = res.headers.get('content-type') ?? '';
    if (/image\//.test(type)) {
      const buffer = Buffer.from(await res.arrayBuffer());
      return { status: res.status, headers: res.headers, body: buffer as T, text: '' };
    }
    const text = await res.text();
    let parsed: unknown = text;
    if (/json/.test(type) && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
