// The pool's client. It runs the hot path's queries (src/db/prepared.ts) as named prepared
// statements: each connection parses and plans one once, then only binds and executes it.
// Other SQL goes as before (unnamed), so the statements a connection keeps stay few and fixed.
// node-postgres remembers what it prepared per connection, so a new connection (after one
// was lost) prepares again.
//
// It also keeps a lost connection from taking the process down or being used again: a
// connection that fails while checked out emits 'error' with no listener of the pool on it
// (unheard, Node would throw it and end the process), so each client listens itself and
// remembers what broke it (`broken`: the pool must discard it, src/db/database.ts). And it
// bounds how long a statement's answer may take, by the statement timeout (plus a grace for
// Postgres's own answer) and by what is left of the request's deadline: past that the
// connection is given up (destroyed), which Postgres answers by rolling back its open
// transaction. This is what ends the wait in a network partition, where no answer, FIN or
// reset ever comes.
import pg from 'pg';
import { patientTimeout } from '../lib/patient-timer';
import { DatabaseTimeoutError, remainingMs, timeoutsLifted } from './deadline';
import { preparedStatementName } from './prepared';

export interface ClientBounds {
  // The longest opening the connection may take (ms); 0: unbounded.
  connectMs?: number;
  // The longest a statement's answer may take (ms); 0: unbounded (the request deadline still
  // applies).
  statementBoundMs: number;
  // Told once when a connection breaks (the log).
  onBroken?: (error: Error) => void;
}

// node-postgres hands the pool's options to each client it makes; these ride along.
export type PreparingClientConfig = pg.ClientConfig & { bounds?: ClientBounds };

// A ROLLBACK sent after the deadline gets this long before its connection is given up.
const ROLLBACK_GRACE_MS = 1000;

export class PreparingClient extends pg.Client {
  // What broke this connection; once set it is never used again.
  broken: Error | undefined;
  readonly bounds: ClientBounds;
  // The row shapes of the named statements this connection has described (NamedQuery).
  readonly rowShapes = new Map<string, RowShape>();

  constructor(config: PreparingClientConfig = {}) {
    super(config);
    this.bounds = config.bounds ?? { statementBoundMs: 0 };
    this.on('error', (error: Error) => this.markBroken(error));
  }

  markBroken(error: Error): void {
    if (this.broken) return;
    this.broken = error;
    this.bounds.onBroken?.(error);
  }

  // Gives the connection up now: queued and running queries fail, Postgres rolls back.
  abandon(error: Error): void {
    this.markBroken(error);
    this.connection.stream.destroy();
  }

  // How long the answer to `text` may take from now; undefined: no bound.
  boundFor(text: unknown): number | undefined {
    if (timeoutsLifted()) return undefined;
    const own = this.bounds.statementBoundMs || undefined;
    const left = remainingMs();
    if (left === undefined) return own;
    const forDeadline =
      left > 0 ? left : typeof text === 'string' && /^\s*rollback\b/i.test(text) ? ROLLBACK_GRACE_MS : 0;
    return own === undefined ? forDeadline : Math.min(own, forDeadline);
  }
}

const connectUnbounded = pg.Client.prototype.connect as (this: pg.Client, ...args: unknown[]) => unknown;

// Opening a connection is bounded here rather than by node-postgres's connectionTimeoutMillis,
// whose plain timer fires after a blocked event loop although the server had answered
// (src/lib/patient-timer.ts). The pool calls connect(callback); the promise form passes too.
PreparingClient.prototype.connect = function (this: PreparingClient, callback?: (error?: Error) => void) {
  const ms = this.bounds.connectMs;
  if (!ms) return connectUnbounded.call(this, callback);
  let timedOut: Error | undefined;
  const timer = patientTimeout(() => {
    timedOut = new DatabaseTimeoutError(`No connection to the database within ${ms} ms`, 'PIXGATE_DB_TIMEOUT');
    this.abandon(timedOut);
  }, ms);
  // The connection's end says "terminated"; the timeout is what happened.
  const done = (error?: Error) => {
    timer.clear();
    return error && (timedOut ?? error);
  };
  if (!callback)
    return (connectUnbounded.call(this) as Promise<void>).then(
      () => void done(),
      (error: Error) => Promise.reject(done(error)),
    );
  return connectUnbounded.call(this, (error?: Error) => callback(done(error)));
} as pg.Client['connect'];

const unnamed = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

// What a named statement's rows look like on one connection: its RowDescription as
// node-postgres makes it ready to parse rows (fields, their parsers, the empty row).
interface RowShape {
  fields: unknown;
  parsers: unknown;
  emptyRow: unknown;
}

// The parts of node-postgres's Query and Result a NamedQuery works with (not in its types).
interface QueryInternals {
  name: string;
  portal: string;
  values: unknown[];
  binary: boolean;
  rows: number | undefined;
  _accumulateRows: boolean;
  _result: { fields: unknown; _parsers: unknown; _prebuiltEmptyResultObject: unknown };
  hasBeenParsed(connection: unknown): boolean;
  handleError(error: unknown, connection: unknown): void;
  _getRows(connection: unknown, rows: number | undefined): void;
}

interface BindingConnection {
  bind(message: object): void;
  sync(): void;
}

// A named statement's query, made from its text and values and then named: given a config
// object ({ name, text, values }), node-postgres copies it property by property on every run,
// about 1% of a read's CPU. Once the connection has described the statement's rows, a run
// skips the Describe: node-postgres would describe the portal and build the rows' parsers
// again on every run, although a prepared statement's columns cannot change (a change fails
// it: "cached plan must not change result type"). For a charge read's 35 columns that cost
// about a sixth of its CPU (A/B, five pairs: B/A 0.81).
class NamedQuery extends pg.Query {
  constructor(
    name: string,
    text: string,
    values: unknown[],
    private readonly shapes: Map<string, RowShape>,
  ) {
    super(text, values);
    (this as { name?: string }).name = name;
  }

  prepare(connection: BindingConnection): void {
    const self = this as unknown as QueryInternals;
    const shape = this.shapes.get(self.name);
    if (!shape || !self.hasBeenParsed(connection)) return pgPrepare.call(this, connection);
    try {
      connection.bind({
        portal: self.portal,
        statement: self.name,
        values: self.values,
        binary: self.binary,
        valueMapper: pgUtils.prepareValue,
      });
    } catch (error) {
      // (the statement stays: it was parsed by an earlier run, unlike node-postgres's case)
      connection.sync();
      return self.handleError(error, connection);
    }
    self._result.fields = shape.fields;
    self._result._parsers = shape.parsers;
    self._result._prebuiltEmptyResultObject = shape.emptyRow;
    // (what handleRowDescription sets: a query with a callback keeps its rows)
    self._accumulateRows = true;
    self._getRows(connection, self.rows);
  }

  handleRowDescription(message: unknown): void {
    pgHandleRowDescription.call(this, message);
    const { _result: result, name } = this as unknown as QueryInternals;
    this.shapes.set(name, {
      fields: result.fields,
      parsers: result._parsers,
      emptyRow: result._prebuiltEmptyResultObject,
    });
  }
}

const queryPrototype = pg.Query.prototype as unknown as Record<string, (this: unknown, ...args: unknown[]) => void>;
const pgPrepare = queryPrototype.prepare!;
const pgHandleRowDescription = queryPrototype.handleRowDescription!;
const pgUtils = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils;

// Runs a named statement's query on `client`: its result, or its failure.
function runNamed(client: PreparingClient, query: NamedQuery): Promise<unknown> {
  const answered = new Promise((resolve, reject) => {
    (query as { callback?: unknown }).callback = (error: Error | null, result: unknown) =>
      error ? reject(error) : resolve(result);
  });
  unnamed.call(client, query);
  return answered;
}

// query(text, values) is how Kysely's driver and the direct runner call it (a promise); the
// forms with a callback pass unchanged.
PreparingClient.prototype.query = function (this: PreparingClient, ...args: unknown[]) {
  const [text, values, ...rest] = args;
  const name = typeof text === 'string' && Array.isArray(values) ? preparedStatementName(text) : undefined;
  if (args.some((a) => typeof a === 'function'))
    return unnamed.apply(this, name === undefined ? args : [{ name, text, values }, ...rest]);
  const pending =
    name === undefined
      ? (unnamed.apply(this, args) as Promise<unknown>)
      : runNamed(this, new NamedQuery(name, text as string, values as unknown[], this.rowShapes));
  return bounded(this, pending, this.boundFor(text));
} as pg.Client['query'];

// The query's answer, or its failure; a failure that ended the session (FATAL: Postgres
// shutting down, the session terminated) breaks the client, and so does running out of time.
function bounded(client: PreparingClient, pending: Promise<unknown>, ms: number | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer =
      ms === undefined
        ? undefined
        : patientTimeout(() => {
            const error = new DatabaseTimeoutError(`The database did not answer within ${ms} ms`, 'PIXGATE_DB_TIMEOUT');
            client.abandon(error);
            reject(error);
          }, ms);
    pending.then(
      (result) => {
        timer?.clear();
        resolve(result);
      },
      (error: Error & { severity?: string }) => {
        timer?.clear();
        if (error.severity === 'FATAL' || error.severity === 'PANIC') client.markBroken(error);
        reject(error);
      },
    );
  });
}
