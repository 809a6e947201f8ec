// Configuration, read once from the environment (documented in the README).
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { locationUrlOf } from './charges/charge-model';
import { newAccessToken } from './lib/ids';
import { smtpConfigOf, type SmtpConfig } from './kyc/smtp-sender';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, parseTimeoutMs } from './webhooks/retry';

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
    },
    withdrawals: {
      fee: cents(env.PIXGATE_WITHDRAW_FEE, 100, 'PIXGATE_WITHDRAW_FEE'),
      minFreeValue: cents(env.PIXGATE_WITHDRAW_FREE_FROM, 50_000, 'PIXGATE_WITHDRAW_FREE_FROM'),
    },
    corsOrigins: corsOrigins(env.PIXGATE_CORS_ORIGINS, flag(env.PIXGATE_SANDBOX, true)),
    smtp: smtpConfigOf(env),
    operatorToken: operatorToken(env.PIXGATE_OPERATOR_TOKEN),
  };
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
