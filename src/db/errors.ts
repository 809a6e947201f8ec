// Postgres error codes callers react to (both drivers report them as `code`).
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === '23505';
}

// A table that does not exist (yet): a database no migration has run on.
export function isUndefinedTable(error: unknown): boolean {
  return codeOf(error) === '42P01';
}

// A deadlock or serialization failure: the transaction was rolled back and may run again.
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40P01' || code === '40001';
}

// The database cannot be reached or gave up on the statement, through no fault of the request:
// a connection refused, reset or terminated (a restart, a failover, a network cut), a server
// shutting down or starting (57P01-57P03), a connection exception (class 08), no connection
// slot left (53300), a statement or idle transaction cancelled by its timeout (57014, 25P03),
// or a bound of this process (src/db/deadline.ts). Whatever the transaction did has rolled
// back, except a COMMIT whose answer was lost: the request may be sent again (idempotently).
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
    // SQLSTATEs are five characters: any other code of five is the database's own answer.
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.test(message);
}

const UNAVAILABLE_CODES = new Set([
  ...['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'],
  ...['57P01', '57P02', '57P03', '57P05', '57014', '25P03', '53300'],
  ...['PIXGATE_DB_TIMEOUT', 'PIXGATE_DEADLINE'],
]);

// What node-postgres and pg-pool say without a code when a connection is lost or never made.
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout expired|timeout exceeded when trying to connect|Query read timeout|Cannot use a pool after calling end)/;

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

// Runs a whole transaction again when Postgres aborted it for a deadlock or serialization
// failure (two payments crossing between the same accounts lock in opposite orders).
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (error) {
      if (i >= attempts || !isRetryableConflict(error)) throw error;
      await new Promise((ok) => setTimeout(ok, 5 * i + Math.floor(Math.random() * 10)));
    }
  }
}

// Postgres refusals at connection time, by SQLSTATE: what the operator must change.
const CONNECT_REFUSALS: Record<string, string> = {
  '3D000': 'the database named in DATABASE_URL does not exist (create it, e.g. createdb, or name another)',
  '28000': 'Postgres refused the role of DATABASE_URL (unknown role, or no pg_hba.conf entry for it)',
  '28P01': 'Postgres refused the password of DATABASE_URL',
  '53300': 'Postgres has no connection slot left (too many clients)',
  '57P03': 'Postgres is starting up or shutting down; try again',
};

// Network failures of the first connection, by Node error code.
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections at the host and port of DATABASE_URL (is Postgres running?)',
  ENOTFOUND: 'the host of DATABASE_URL is unknown (DNS found no such name)',
  EAI_AGAIN: 'the host of DATABASE_URL could not be resolved (DNS did not answer)',
  ETIMEDOUT: 'the host of DATABASE_URL did not answer in time',
  EHOSTUNREACH: 'the host of DATABASE_URL is unreachable',
  ECONNRESET: 'the database closed the connection at once (wrong port, or TLS expected?)',
};

// One line saying why the database could not be opened at start, or undefined when the error
// is not about reaching it (a bug: the caller lets its stack trace through).
export function startupProblemOf(error: unknown): string | undefined {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (typeof code === 'string' && CONNECT_REFUSALS[code]) return `${CONNECT_REFUSALS[code]}: ${message}`;
  if (typeof code === 'string' && NETWORK_FAILURES[code]) return `${NETWORK_FAILURES[code]}: ${message}`;
  // the driver's own refusals of a URL or TLS setting, before any SQL
  if (typeof code === 'string' && /^(08|28)/.test(code)) return `cannot connect to the database: ${message}`;
  if (/self[- ]signed|certificate|SSL|TLS/i.test(message)) return `TLS to the database failed: ${message}`;
  return undefined;
}
