// Configuration, read once from the environment (documented in the README).
import { resolve } from 'node:path';
import { locationUrlOf } from './charges/charge-model';
import { newAccessToken } from './lib/ids';
import { SecretBox } from './lib/secret-box';
import { smtpConfigOf, type SmtpConfig } from './kyc/smtp-sender';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, parseTimeoutMs } from './webhooks/retry';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
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
  webhooks: { retryScheduleMs: number[]; timeoutMs: number };
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

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['false', '0', 'no', 'off'].includes(value.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a TCP port, got ${env.PORT}`);
  return {
    port,
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
    },
    withdrawals: {
      fee: cents(env.PIXGATE_WITHDRAW_FEE, 100, 'PIXGATE_WITHDRAW_FEE'),
      minFreeValue: cents(env.PIXGATE_WITHDRAW_FREE_FROM, 50_000, 'PIXGATE_WITHDRAW_FREE_FROM'),
    },
    corsOrigins: corsOrigins(env.PIXGATE_CORS_ORIGINS, flag(env.PIXGATE_SANDBOX, true)),
    smtp: smtpConfigOf(env),
    operatorToken: operatorToken(env.PIXGATE_OPERATOR_TOKEN),
    secretsKey: secretsKey(env.PIXGATE_SECRETS_KEY, flag(env.PIXGATE_SANDBOX, true)),
    previousSecretsKey: env.PIXGATE_SECRETS_KEY_PREVIOUS || undefined,
  };
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
