// Configuration, read once from the environment (documented in the README).
import { isIP } from 'node:net';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { locationUrlOf } from './charges/charges.public';
import { newAccessToken } from './lib/ids';
import { splitPemBundle } from './lib/x509';
import { SecretBox } from './lib/secret-box';
import { smtpConfigOf, type SmtpConfig } from './kyc/kyc.public';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, parseTimeoutMs } from './webhooks/webhooks.public';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './db/database';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  // The address the server listens on (PIXGATE_HOST): the loopback by default, since the
  // sandbox routes need no credentials; 0.0.0.0 (the container's) for every interface.
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  sandbox: boolean;
  logLevel: LogLevel;
  // Tests turn this on: every response is checked against the spec and a mismatch is a 500.
  validateResponses: boolean;
  // Count each request's statements to the database: X-Db-Statements on every response and
  // `db` in the request log (tests and the round-trip budgets turn it on; off, requests skip
  // the async-context tracking it needs).
  countStatements: boolean;
  // Webhook deliveries: delays before each retry (PIXGATE_WEBHOOK_RETRY_SCHEDULE) and the
  // time a receiver has to answer 2xx (PIXGATE_WEBHOOK_TIMEOUT_MS). See docs/webhooks.md.
  // sourceIps: the addresses deliveries leave from, answered by GET /api/v1/webhook/ips
  // (PIXGATE_WEBHOOK_SOURCE_IPS, comma-separated IPs or CIDR blocks; empty by default).
  webhooks: { retryScheduleMs: number[]; timeoutMs: number; sourceIps: string[] };
  // How long events (and their deliveries and attempts) are kept, in days of the company's
  // clock (PIXGATE_EVENT_RETENTION_DAYS). See docs/webhooks.md.
  events: { retentionDays: number };
  // Withdrawals below minFreeWithdrawValue pay withdrawFee (cents; PIXGATE_WITHDRAW_FEE,
  // PIXGATE_WITHDRAW_FREE_FROM); an account's own limits row overrides both. See docs/money-out.md.
  withdrawals: { fee: number; minFreeValue: number };
  // Origins whose browser pages may call both APIs (PIXGATE_CORS_ORIGINS: `*`, or origins
  // separated by commas; empty: none). Default `*` in sandbox mode, none otherwise.
  corsOrigins: string[];
  // The SMTP server one-time codes are e-mailed through (PIXGATE_SMTP_*); undefined: none,
  // e-mails wait in the outbox. See src/kyc/smtp-sender.ts.
  smtp: SmtpConfig | undefined;
  // The bearer token of platform operators (PIXGATE_OPERATOR_TOKEN, at least 32 characters);
  // undefined: operator operations answer 401.
  operatorToken: string | undefined;
  // The request log (src/request-logs): entries kept per company (PIXGATE_REQUEST_LOG_LIMIT,
  // 0: off), their maximum age in days (PIXGATE_REQUEST_LOG_MAX_AGE_DAYS, 0: none) and the
  // entries waiting in memory at most (PIXGATE_REQUEST_LOG_BUFFER).
  requestLog: { limit: number; maxAgeDays: number; bufferEntries: number };
  // Dashboard sessions end after this long without a request, and this long after sign-in
  // whatever happens (PIXGATE_DASHBOARD_IDLE_MINUTES, PIXGATE_DASHBOARD_MAX_HOURS).
  dashboard: { idleMs: number; maxAgeMs: number };
  // HTTPS beside plain HTTP (PIXGATE_TLS, PIXGATE_TLS_PORT), with the operator's certificate
  // (PIXGATE_TLS_CERT, PIXGATE_TLS_KEY) or one the sandbox CA issues. See docs/mtls.md.
  tls: TlsConfig;
  // Client certificates on the Pix API (PIXGATE_MTLS) and the operator's CAs trusted beside the
  // sandbox CA (PIXGATE_MTLS_CA).
  mtls: MtlsConfig;
  // The client certificate pixgate presents to webhook receivers over HTTPS
  // (PIXGATE_WEBHOOK_CLIENT_CERT, PIXGATE_WEBHOOK_CLIENT_KEY); undefined: one from the sandbox CA.
  webhookClientCertificate: CertificateAndKey | undefined;
  // How long to wait for Postgres (PIXGATE_DB_CONNECT_TIMEOUT_MS, PIXGATE_DB_STATEMENT_TIMEOUT_MS,
  // PIXGATE_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, PIXGATE_DB_KEEPALIVE_MS).
  databaseTimeouts: DatabaseTimeouts;
  // A request that has not finished after this long answers 503 and stores nothing
  // (PIXGATE_REQUEST_TIMEOUT_MS; src/db/deadline.ts).
  requestTimeoutMs: number;
  // What seals the secrets the server must read back (signing keys, webhook secrets) in the
  // database: PIXGATE_SECRETS_KEY, at least 32 characters; the published SANDBOX_SECRETS_KEY
  // in sandbox mode when unset; required outside sandbox mode. Use it through secretsBoxOf.
  secretsKey: string;
  // The key secretsKey replaces (PIXGATE_SECRETS_KEY_PREVIOUS): what it sealed still opens,
  // and the start sealing it again under secretsKey.
  previousSecretsKey: string | undefined;
}

// The key that seals secrets at rest in sandbox mode when PIXGATE_SECRETS_KEY is not set. It
// is published (here and in the README), so it protects nothing from a reader of the
// database who has read this: a sandbox holds no real money. Outside sandbox mode the
// server does not start without a key of its own.
export const SANDBOX_SECRETS_KEY = 'pixgate-sandbox-secrets-key:published,protects-nothing';

const secretBoxes = new WeakMap<Config, SecretBox>();

// The box (AES-256-GCM, src/lib/secret-box.ts) that seals and opens the secrets the server
// keeps in the database, its key derived from PIXGATE_SECRETS_KEY; one per configuration.
export function secretsBoxOf(config: Config): SecretBox {
  let box = secretBoxes.get(config);
  if (!box) {
    const derive = (key: string, previous?: SecretBox) =>
      SecretBox.derived(key, 'pixgate', 'secrets at rest v1', previous);
    const previous = config.previousSecretsKey === undefined ? undefined : derive(config.previousSecretsKey);
    secretBoxes.set(config, (box = derive(config.secretsKey, previous)));
  }
  return box;
}

export interface CertificateAndKey {
  certificatePem: string;
  privateKeyPem: string;
}

export interface TlsConfig {
  enabled: boolean;
  port: number;
  certificate: CertificateAndKey | undefined;
}

export type MtlsMode = 'off' | 'optional' | 'required';

export interface MtlsConfig {
  mode: MtlsMode;
  // PEM certificates of PIXGATE_MTLS_CA.
  trustedCaPems: string[];
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['false', '0', 'no', 'off'].includes(value.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a TCP port, got ${env.PORT}`);
  return {
    port,
    host: listenHost(env.PIXGATE_HOST),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    dataDir: resolve(env.PIXGATE_DATA_DIR || './data'),
    publicUrl: publicUrl(env.PIXGATE_PUBLIC_URL || `http://localhost:${port}`),
    sandbox: flag(env.PIXGATE_SANDBOX, true),
    logLevel: logLevel(env.LOG_LEVEL),
    validateResponses: flag(env.PIXGATE_VALIDATE_RESPONSES, false),
    countStatements: flag(env.PIXGATE_COUNT_STATEMENTS, false),
    webhooks: {
      retryScheduleMs: parseRetrySchedule(env.PIXGATE_WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE),
      timeoutMs: parseTimeoutMs(env.PIXGATE_WEBHOOK_TIMEOUT_MS),
      sourceIps: sourceIps(env.PIXGATE_WEBHOOK_SOURCE_IPS),
    },
    events: { retentionDays: retentionDays(env.PIXGATE_EVENT_RETENTION_DAYS) },
    withdrawals: {
      fee: cents(env.PIXGATE_WITHDRAW_FEE, 100, 'PIXGATE_WITHDRAW_FEE'),
      minFreeValue: cents(env.PIXGATE_WITHDRAW_FREE_FROM, 50_000, 'PIXGATE_WITHDRAW_FREE_FROM'),
    },
    corsOrigins: corsOrigins(env.PIXGATE_CORS_ORIGINS, flag(env.PIXGATE_SANDBOX, true)),
    smtp: smtpConfigOf(env),
    operatorToken: operatorToken(env.PIXGATE_OPERATOR_TOKEN),
    requestLog: {
      limit: wholeNumber(env.PIXGATE_REQUEST_LOG_LIMIT, 10_000, { name: 'PIXGATE_REQUEST_LOG_LIMIT', max: 1_000_000 }),
      maxAgeDays: wholeNumber(env.PIXGATE_REQUEST_LOG_MAX_AGE_DAYS, 30, {
        name: 'PIXGATE_REQUEST_LOG_MAX_AGE_DAYS',
        max: 3650,
      }),
      bufferEntries: wholeNumber(env.PIXGATE_REQUEST_LOG_BUFFER, 10_000, {
        name: 'PIXGATE_REQUEST_LOG_BUFFER',
        min: 1,
        max: 1_000_000,
      }),
    },
    dashboard: {
      idleMs:
        wholeNumber(env.PIXGATE_DASHBOARD_IDLE_MINUTES, 480, {
          name: 'PIXGATE_DASHBOARD_IDLE_MINUTES',
          min: 1,
          max: 10_000,
        }) * 60_000,
      maxAgeMs:
        wholeNumber(env.PIXGATE_DASHBOARD_MAX_HOURS, 24, { name: 'PIXGATE_DASHBOARD_MAX_HOURS', min: 1, max: 10_000 }) *
        3_600_000,
    },
    ...tlsSettings(env, flag(env.PIXGATE_SANDBOX, true)),
    ...timeouts(env),
    secretsKey: secretsKey(env.PIXGATE_SECRETS_KEY, flag(env.PIXGATE_SANDBOX, true)),
    previousSecretsKey: env.PIXGATE_SECRETS_KEY_PREVIOUS || undefined,
  };
}

// A whole number from the environment, within bounds.
function wholeNumber(
  value: string | undefined,
  fallback: number,
  { name, min = 0, max }: { name: string; min?: number; max: number },
): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
  return n;
}

// IPv4 or IPv6 addresses, each optionally a CIDR block; at most 100 (the answer's bound).
function sourceIps(value: string | undefined): string[] {
  const ips = (value ?? '')
    .split(',')
    .map((ip) => ip.trim())
    .filter(Boolean);
  for (const ip of ips) {
    const [address, prefix, ...rest] = ip.split('/');
    const family = isIP(address!);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (!family || !prefixOk || rest.length > 0)
      throw new Error(`PIXGATE_WEBHOOK_SOURCE_IPS: ${ip} is not an IP address or CIDR block`);
  }
  if (ips.length > 100) throw new Error('PIXGATE_WEBHOOK_SOURCE_IPS may name at most 100 addresses');
  return ips;
}

type TlsSettings = Pick<Config, 'tls' | 'mtls' | 'webhookClientCertificate'>;

function tlsSettings(env: NodeJS.ProcessEnv, sandbox: boolean): TlsSettings {
  const enabled = flag(env.PIXGATE_TLS, false);
  const port = Number(env.PIXGATE_TLS_PORT || 8443);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PIXGATE_TLS_PORT must be a TCP port, got ${env.PIXGATE_TLS_PORT}`);
  const certificate = certificateAndKey(env, 'PIXGATE_TLS_CERT', 'PIXGATE_TLS_KEY');
  const mode = mtlsMode(env.PIXGATE_MTLS, { enabled, sandbox });
  const trustedCaPems = env.PIXGATE_MTLS_CA ? pemCertificates(env.PIXGATE_MTLS_CA, 'PIXGATE_MTLS_CA') : [];
  return {
    tls: { enabled, port, certificate },
    mtls: { mode, trustedCaPems },
    webhookClientCertificate: certificateAndKey(env, 'PIXGATE_WEBHOOK_CLIENT_CERT', 'PIXGATE_WEBHOOK_CLIENT_KEY'),
  };
}

// Off unless TLS is on; then optional in sandbox mode and required otherwise.
function mtlsMode(value: string | undefined, { enabled, sandbox }: { enabled: boolean; sandbox: boolean }): MtlsMode {
  if (value === undefined || value === '') return !enabled ? 'off' : sandbox ? 'optional' : 'required';
  const mode = value.toLowerCase();
  if (mode !== 'off' && mode !== 'optional' && mode !== 'required')
    throw new Error(`PIXGATE_MTLS must be off, optional or required, got ${value}`);
  if (mode !== 'off' && !enabled) throw new Error(`PIXGATE_MTLS=${mode} needs PIXGATE_TLS=on`);
  return mode;
}

// A PEM given inline (it starts with -----BEGIN) or as the path of a file holding it.
function pemOf(value: string, name: string): string {
  if (value.trimStart().startsWith('-----BEGIN')) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch (error) {
    throw new Error(`${name}: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function pemCertificates(value: string, name: string): string[] {
  const pems = splitPemBundle(pemOf(value, name));
  if (pems.length === 0) throw new Error(`${name} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pems;
}

function certificateAndKey(env: NodeJS.ProcessEnv, certName: string, keyName: string): CertificateAndKey | undefined {
  const cert = env[certName];
  const key = env[keyName];
  if (!cert && !key) return undefined;
  if (!cert || !key) throw new Error(`${certName} and ${keyName} are set together or not at all`);
  const certificatePem = pemCertificates(cert, certName).join('');
  const privateKeyPem = pemOf(key, keyName);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKeyPem))
    throw new Error(`${keyName} holds no PEM private key (-----BEGIN PRIVATE KEY-----)`);
  return { certificatePem, privateKeyPem };
}

// The bounds on waiting for the database and on a request (README, configuration).
function timeouts(env: NodeJS.ProcessEnv): Pick<Config, 'databaseTimeouts' | 'requestTimeoutMs'> {
  const d = DEFAULT_DATABASE_TIMEOUTS;
  const databaseTimeouts = {
    connectMs: milliseconds(env, 'PIXGATE_DB_CONNECT_TIMEOUT_MS', d.connectMs, [100, 120_000]),
    statementMs: milliseconds(env, 'PIXGATE_DB_STATEMENT_TIMEOUT_MS', d.statementMs, [0, 3_600_000]),
    idleInTransactionMs: milliseconds(
      env,
      'PIXGATE_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
      d.idleInTransactionMs,
      [0, 3_600_000],
    ),
    keepAliveMs: milliseconds(env, 'PIXGATE_DB_KEEPALIVE_MS', d.keepAliveMs, [1000, 3_600_000]),
  };
  const requestTimeoutMs = milliseconds(env, 'PIXGATE_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, [100, 600_000]);
  const webhookMs = parseTimeoutMs(env.PIXGATE_WEBHOOK_TIMEOUT_MS);
  // A manual redelivery waits for the receiver within its request.
  if (requestTimeoutMs <= webhookMs)
    throw new Error(
      `PIXGATE_REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must be longer than PIXGATE_WEBHOOK_TIMEOUT_MS (${webhookMs}): a manual redelivery waits for the receiver within its request`,
    );
  return { databaseTimeouts, requestTimeoutMs };
}

// Longer than the statement timeout (a request may also wait for a connection), shorter than
// the 30 s an integrator's HTTP client commonly waits, so the 503 arrives and a retry fits.
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number, [min, max]: [number, number]): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number of milliseconds from ${min} to ${max}, got ${value}`);
  return n;
}

function secretsKey(value: string | undefined, sandbox: boolean): string {
  if (value === undefined || value === '') {
    if (sandbox) return SANDBOX_SECRETS_KEY;
    throw new Error(
      'PIXGATE_SECRETS_KEY must be set when PIXGATE_SANDBOX=false: at least 32 random characters (e.g. openssl rand -base64 32), kept outside the database; it seals the signing keys and webhook secrets stored there',
    );
  }
  if (value.length < 32) throw new Error('PIXGATE_SECRETS_KEY must have at least 32 characters');
  return value;
}

export const DEFAULT_HOST = '127.0.0.1';

// An IP address (v4 or v6) or a host name to listen on.
function listenHost(value: string | undefined): string {
  if (value === undefined || value === '') return DEFAULT_HOST;
  if (
    isIP(value) ||
    /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(value)
  )
    return value;
  throw new Error(
    `PIXGATE_HOST must be an IP address or a host name to listen on (127.0.0.1, 0.0.0.0, ::), got ${value}`,
  );
}

// Every interface, on either family: what PIXGATE_HOST names to be reached from other machines.
export function listensEverywhere(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

function operatorToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 32 || /\s/.test(value))
    throw new Error('PIXGATE_OPERATOR_TOKEN must be at least 32 characters without spaces');
  return value;
}

// A Postgres URL the driver can use, checked before any connection is tried (the driver's own
// parse error is a stack trace). The password never appears in the message.
function databaseUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const hint = 'postgres://user[:password]@host[:port]/database';
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`DATABASE_URL must be a URL like ${hint}, got ${maskPassword(value)}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new Error(`DATABASE_URL must be a postgres:// URL like ${hint}, got ${parsed.protocol}//...`);
  if (!parsed.hostname) throw new Error(`DATABASE_URL names no host: ${maskPassword(value)} (like ${hint})`);
  return value;
}

// user:secret@ -> user:***@, in URLs the WHATWG parser refuses too.
export function maskPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

function corsOrigins(value: string | undefined, sandbox: boolean): string[] {
  if (value === undefined) return sandbox ? ['*'] : [];
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin))
      throw new Error(`PIXGATE_CORS_ORIGINS: ${origin} is not an origin (scheme://host[:port]) or *`);
  }
  return origins;
}

// A BR Code carries a payload location without scheme in at most 77 characters (the
// standard's loc.location); the longest we write is a cobv's.
const MAX_LOCATION = 77;

function publicUrl(value: string): string {
  const url = value.replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`PIXGATE_PUBLIC_URL must be an absolute http(s) URL, got ${value}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`PIXGATE_PUBLIC_URL must be an http(s) URL, got ${value}`);
  const longest = locationUrlOf(url, { kind: 'cobv', token: newAccessToken() });
  if (longest.length > MAX_LOCATION) {
    const hostAndPath = `${parsed.host}${parsed.pathname}`.replace(/\/+$/, '');
    const room = hostAndPath.length - (longest.length - MAX_LOCATION);
    throw new Error(
      `PIXGATE_PUBLIC_URL is too long for BR Codes: its host and path (${hostAndPath}) may have at most ${room} characters, so that payload locations fit the standard's 77`,
    );
  }
  return url;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  const level = value.toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${value}`);
  return level;
}

// A non-negative integer number of cents from the environment.
function cents(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer number of cents, got ${value}`);
  return n;
}

export const DEFAULT_EVENT_RETENTION_DAYS = 30;

function retentionDays(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_EVENT_RETENTION_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new Error(`PIXGATE_EVENT_RETENTION_DAYS must be a whole number of days from 1 to 3650, got ${value}`);
  return days;
}
