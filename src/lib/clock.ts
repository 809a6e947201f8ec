// The one clock of the server: wall time plus an offset kept in the database, so every
// process agrees on it and the sandbox (and tests) can move it forward. Expiries, due
// dates, refund windows, retries and recurrences all read it.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

export interface Clock {
  now(db?: Kysely<Database>): Promise<Date>;
  advance(seconds: number): Promise<Date>;
  offsetMs(db?: Kysely<Database>): Promise<number>;
}

// The same clock inside a query (database time plus the offset), for rows whose due time
// SQL compares, such as webhook retries; `clockNowSql(ms)` is that moment plus `ms`.
export function clockNowSql(ms = 0) {
  return sql<Date>`(now() + ((select offset_ms from sandbox_clock where id = 1) + ${ms}::double precision) * interval '1 millisecond')`;
}

export class DatabaseClock implements Clock {
  constructor(private readonly db: Kysely<Database>) {}

  // Pass the transaction when inside one (the embedded database has a single session).
  async offsetMs(db: Kysely<Database> = this.db): Promise<number> {
    const row = await db.selectFrom('sandbox_clock').select('offset_ms').where('id', '=', 1).executeTakeFirstOrThrow();
    return Number(row.offset_ms);
  }

  async now(db?: Kysely<Database>): Promise<Date> {
    return new Date(Date.now() + (await this.offsetMs(db)));
  }

  async advance(seconds: number): Promise<Date> {
    const row = await this.db
      .updateTable('sandbox_clock')
      .set({ offset_ms: sql`offset_ms + ${Math.round(seconds * 1000)}` })
      .where('id', '=', 1)
      .returning('offset_ms')
      .executeTakeFirstOrThrow();
    return new Date(Date.now() + Number(row.offset_ms));
  }
}
