// A write other processes must hear about takes one call: `afterWrite(trx, payload)` inside a
// transaction opened by `transaction()`. The message is sent in that transaction, so it
// leaves only if the change commits; once the commit has returned it is delivered here at
// once, and the transaction resolves when every other process has acknowledged it, so a
// request sent next, to any process, finds the change. Kysely has no after-commit hook: the
// transaction opened here is that hook, and afterWrite refuses a transaction it did not
// open, so the local half can no longer be forgotten.
import { type Kysely, sql, type Transaction } from 'kysely';
import { type ChangeFeed, notifySql } from './change-feed';

export class AnnouncedWrites<DB> {
  // Per open transaction, the messages it announced.
  private readonly pending = new WeakMap<Kysely<DB>, Set<string>>();

  constructor(private readonly feed: ChangeFeed) {}

  async transaction<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    const announced = new Set<string>();
    const result = await db.transaction().execute((trx) => {
      this.pending.set(trx, announced);
      return work(trx);
    });
    if (announced.size === 0) return result;
    for (const payload of announced) this.feed.deliverLocally(payload);
    await this.feed.propagated();
    return result;
  }

  async afterWrite(trx: Kysely<DB>, payload: string): Promise<void> {
    const announced = this.pending.get(trx);
    if (!announced) throw new Error('afterWrite needs a transaction opened by AnnouncedWrites.transaction()');
    await sql`select ${notifySql(this.feed, payload)}`.execute(trx);
    announced.add(payload);
  }
}
