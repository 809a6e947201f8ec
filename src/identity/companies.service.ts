// Company rows as every request needs them (features, names for BR Codes and debtors, the
// sandbox clock), read once and cached per process; any change to a company announces
// `company:<id>` on the change feed and every process forgets it (src/db/read-cache.ts).
// Its accounts likewise, under `accounts:<id>`, and the keys that receive into them under
// `keys:<id>` (and `accounts:<id>`: a closed account takes its keys with it).
import { type AccountWithCompany, findAccountsOfCompany } from '../accounts/accounts.public';
import { findDefaultReceivingKey, findReceivingKey, type ReceivingKey } from '../keys/keys.public';
import type { Kysely, Transaction } from 'kysely';
import { AnnouncedWrites } from '../db/announced-writes';
import { type ChangeFeed, notifySql } from '../db/change-feed';
import { ReadCache } from '../db/read-cache';
import type { Company, Database } from '../db/schema';
import type { Clock } from '../db/clock';
import * as repo from './identity.repository';

// The change feed evicts an entry on every process when it changes, and nothing is served
// while the feed is down (src/db/read-cache.ts), so the time limit is only a backstop: long
// enough that a request in steady state never pays a reload it did not cause.
const TTL_MS = 10 * 60_000;

export const companyChange = (companyId: string) => `company:${companyId}`;
// Only the company's list of accounts changed (its credentials and settings did not).
export const accountsChange = (companyId: string) => `accounts:${companyId}`;
// Only the company's Pix keys changed (which one is the default, or one was deleted).
export const keysChange = (companyId: string) => `keys:${companyId}`;
// The cache key of the company's default receiving key (a Pix key holds no spaces).
const DEFAULT_KEY = ' default';

export type CompanyChangeKind = 'company' | 'accounts' | 'keys';
const CHANGES: Record<CompanyChangeKind, (companyId: string) => string> = {
  company: companyChange,
  accounts: accountsChange,
  keys: keysChange,
};

export class CompanyDirectory {
  private readonly cache: ReadCache<Company>;
  private readonly accountLists: ReadCache<AccountWithCompany[]>;
  private readonly receivingKeys: ReadCache<ReceivingKey>;
  private readonly writes: AnnouncedWrites<Database>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly feed: ChangeFeed,
  ) {
    this.cache = new ReadCache(feed, 'company', TTL_MS);
    this.accountLists = new ReadCache(feed, 'accounts', TTL_MS);
    this.receivingKeys = new ReadCache(feed, ['keys', 'accounts'], TTL_MS);
    this.writes = new AnnouncedWrites(feed);
  }

  // A Pix key of the company with the account behind it, or its default key when `key` is
  // undefined: read by every charge creation. A key made default or deleted announces the
  // company's keys, a closed account its accounts; a key not found is not kept, so a new key
  // needs no announcement.
  async receivingKey(
    companyId: string,
    key: string | undefined,
    db: Kysely<Database> = this.db,
  ): Promise<ReceivingKey | undefined> {
    return this.receivingKeys.get(
      `${companyId}:${key ?? DEFAULT_KEY}`,
      () => (key === undefined ? findDefaultReceivingKey(db, companyId) : findReceivingKey(db, companyId, key)),
      () => companyId,
    );
  }

  // Every bank account of the company (open and closed), with the company's names: read by
  // most money operations, changed only when an account is opened or closed (which announce
  // the company's change).
  async accounts(companyId: string, db: Kysely<Database> = this.db): Promise<AccountWithCompany[]> {
    return (
      (await this.accountLists.get(
        companyId,
        () => findAccountsOfCompany(db, companyId),
        () => companyId,
      )) ?? []
    );
  }

  async account(companyId: string, accountId: string, db?: Kysely<Database>): Promise<AccountWithCompany | undefined> {
    return (await this.accounts(companyId, db)).find((a) => a.id === accountId);
  }

  // Runs `work` in one transaction of `db`; what it announces with afterWrite is applied here
  // once it has committed, and it resolves once every process was signalled.
  async transaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.writes.transaction(db, work);
  }

  // Announces, in a transaction opened by transaction() (delivered when it commits), that the
  // company's `kind` changed: its row, its list of accounts (opened or closed: a closed
  // account takes its keys with it) or its Pix keys (one deleted or made default). A charge
  // created right after, on any process, does not use what changed.
  async afterWrite(trx: Kysely<Database>, kind: CompanyChangeKind, companyId: string): Promise<void> {
    await this.writes.afterWrite(trx, CHANGES[kind](companyId));
  }

  async find(companyId: string, db: Kysely<Database> = this.db): Promise<Company | undefined> {
    return this.cache.get(
      companyId,
      () => repo.findCompany(db, companyId),
      (c) => c.id,
    );
  }

  async get(companyId: string, db: Kysely<Database> = this.db): Promise<Company> {
    const company = await this.find(companyId, db);
    if (!company) throw new Error(`company ${companyId} not found`);
    return company;
  }

  // A company row read by another query (a join), kept if nothing changed meanwhile.
  remember(company: Company, generation: number): void {
    this.cache.store(company.id, company, company.id, generation);
  }

  mark(): number {
    return this.cache.mark();
  }

  // Moves the company's clock and announces it in the same statement; then forgets it here and
  // answers once every process was signalled (a read right after elsewhere sees the move).
  async advanceClock(companyId: string, ms: number): Promise<number | undefined> {
    const offset = await repo.moveCompanyClock(this.db, companyId, ms, notifySql(this.feed, companyChange(companyId)));
    await this.changed(companyId);
    return offset;
  }

  // Called after a statement that changed the company (and sent its NOTIFY) committed: forgets
  // it here at once, and resolves once every process's listening connection was signalled.
  private async changed(companyId: string): Promise<void> {
    this.feed.deliverLocally(companyChange(companyId));
    await this.feed.propagated();
  }
}

// Each company's clock: real time plus its offset (cached with the company row).
export class CompanyClock implements Clock {
  constructor(private readonly companies: CompanyDirectory) {}

  async offsetMs(companyId: string, db?: Kysely<Database>): Promise<number> {
    return Number((await this.companies.get(companyId, db)).clock_offset_ms);
  }

  async now(companyId: string, db?: Kysely<Database>): Promise<Date> {
    return new Date(Date.now() + (await this.offsetMs(companyId, db)));
  }

  async advance(companyId: string, seconds: number): Promise<Date> {
    const offset = await this.companies.advanceClock(companyId, Math.round(seconds * 1000));
    if (offset === undefined) throw new Error(`company ${companyId} not found`);
    return new Date(Date.now() + offset);
  }

  serverNow(): Date {
    return new Date();
  }
}
