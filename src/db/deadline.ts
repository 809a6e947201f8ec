// How long a unit of work (a request) may keep the database busy. A request runs within a
// deadline (PIXGATE_REQUEST_TIMEOUT_MS): past it, no statement of that request is sent any
// more except ROLLBACK, so its transaction rolls back instead of committing late, and on
// Postgres a statement still waiting then is abandoned with its connection (src/db/
// preparing-client.ts), which Postgres answers by rolling the transaction back. The answer
// the client already got (503) then stays true: nothing was stored. Only a COMMIT already on
// its way when the time ran out may have committed (its answer lost with the connection).
import { AsyncLocalStorage } from 'node:async_hooks';

interface Deadline {
  // Date.now() past which the work has run out of time.
  at: number;
  ms: number;
}

// A deadline; null: no bounds at all (withoutTimeouts); undefined: none (withoutDeadline).
const scope = new AsyncLocalStorage<Deadline | null | undefined>();

// A statement refused or abandoned because its request or its own bound ran out of time.
export class DatabaseTimeoutError extends Error {
  constructor(
    message: string,
    readonly code: 'PIXGATE_DEADLINE' | 'PIXGATE_DB_TIMEOUT',
  ) {
    super(message);
  }
}

// Runs `work` with a deadline `ms` from now: rejects with a DatabaseTimeoutError once it has
// passed, even when `work` is still waiting (its statements are then refused or abandoned).
export function withDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const deadline = { at: Date.now() + ms, ms };
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut(deadline)), ms);
    scope.run(deadline, work).then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

// Runs `work` without the deadline of its caller, its statements still bounded: what a request
// must write even when it ran out of time (freeing what it held).
export function withoutDeadline<T>(work: () => Promise<T>): Promise<T> {
  return scope.run(undefined, work);
}

// Runs `work` without the deadline of its caller and without the per-statement bound
// (migrations: a long ALTER must not be cut at start-up).
export function withoutTimeouts<T>(work: () => Promise<T>): Promise<T> {
  return scope.run(null, work);
}

export function timeoutsLifted(): boolean {
  return scope.getStore() === null;
}

// Milliseconds left before the current deadline; undefined when there is none.
export function remainingMs(): number | undefined {
  const deadline = scope.getStore();
  return deadline ? deadline.at - Date.now() : undefined;
}

const ROLLBACK = /^\s*rollback\b/i;

// Before a statement is sent: refuses it once the deadline has passed (a ROLLBACK always goes,
// so the connection leaves its transaction).
export function checkDeadline(sqlText: string): void {
  const deadline = scope.getStore();
  if (deadline && Date.now() >= deadline.at && !ROLLBACK.test(sqlText)) throw timedOut(deadline);
}

function timedOut(deadline: Deadline): DatabaseTimeoutError {
  return new DatabaseTimeoutError(`The request did not finish within ${deadline.ms} ms`, 'PIXGATE_DEADLINE');
}
