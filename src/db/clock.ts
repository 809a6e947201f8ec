// The movable clock: real time plus an offset kept per company in the database (the sandbox
// moves a company's clock forward with that company's credentials), so every process agrees
// on each company's time. Expiries, due dates, refund windows, retries, recurrences and
// limits read the clock of the company they belong to. The same clock inside SQL is in
// db/clock-sql.ts.
import type { Kysely } from 'kysely';
import type { Database } from './schema';

export interface Clock {
  // The company's now. Pass the transaction when inside one (the embedded database has a
  // single session): the offset is usually cached and then no statement is sent at all.
  now(companyId: string, db?: Kysely<Database>): Promise<Date>;
  offsetMs(companyId: string, db?: Kysely<Database>): Promise<number>;
  // Moves the company's clock forward; every process hears of it at once.
  advance(companyId: string, seconds: number): Promise<Date>;
  // The server's own time, for what belongs to no company (operators, idempotency records).
  serverNow(): Date;
}
