// A pg client that runs the hot path's queries (src/db/prepared.ts) as named prepared
// statements: each connection parses and plans one once, then only binds and executes it.
// Other SQL goes as before (unnamed), so the statements a connection keeps stay few and fixed.
import pg from 'pg';
import { preparedStatementName } from './prepared';

export class PreparingClient extends pg.Client {}

const unnamed = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

// query(text, values[, callback]) is how Kysely's driver calls it; every other form passes.
PreparingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [text, values, ...rest] = args;
  const name = typeof text === 'string' && Array.isArray(values) ? preparedStatementName(text) : undefined;
  if (name === undefined) return unnamed.apply(this, args);
  return unnamed.call(this, { name, text, values }, ...rest);
} as pg.Client['query'];
