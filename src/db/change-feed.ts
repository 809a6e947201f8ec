// Changes every process must hear about at once (an application removed, a company's
// features or sandbox clock changed), so that what processes cache from the database never
// outlives it. The writer sends NOTIFY in the statement (or transaction) that makes the
// change, so the message leaves only if the change commits; every process LISTENs on its own
// connection. While that connection is down a process may miss messages: `live` is false
// then, and caches read through to the database instead of serving what they hold.
import type { PGlite } from '@electric-sql/pglite';
import { randomUUID } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';

export type ChangeListener = (payload: string) => void;

export interface ChangeFeed {
  // The NOTIFY channel of this database (one per schema, so schemas sharing a server do not
  // hear each other).
  readonly channel: string;
  // Tags what this process sends: its own messages come back through Postgres after the
  // writer has already delivered them locally, and are not heard twice (a second forgetting
  // would cost a second read, at a moment that depends on the network).
  readonly origin: string;
  // Whether every change committed since start has been (or will be) delivered here.
  readonly live: boolean;
  // Called for every message, and with '*' when messages may have been missed.
  subscribe(listener: ChangeListener): void;
  // Delivers a message to this process's listeners now: the writer calls it right after its
  // change commits, so its own process never waits for the round trip through Postgres.
  deliverLocally(payload: string): void;
  // Before serving from a cache: lets messages that already reached this process be heard
  // (undefined when there is nothing to wait for).
  settled(): Promise<void> | undefined;
  close(): Promise<void>;
}

// An SQL expression that sends `payload` on the feed's channel when its statement commits.
// The writer delivers it locally once committed; other processes hear it from Postgres.
export function notifySql(feed: Pick<ChangeFeed, 'channel' | 'origin'>, payload: string): RawBuilder<unknown> {
  return sql`pg_notify(${feed.channel}, ${`${feed.origin}${ORIGIN_END}${payload}`})`;
}

const ORIGIN_END = '|';

export const EVERYTHING = '*';

export function channelOf(schema: string | undefined): string {
  return `pixgate_changes_${(schema ?? 'public').toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
}

abstract class Listeners {
  private readonly listeners: ChangeListener[] = [];
  readonly origin = randomUUID();

  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  deliverLocally(payload: string): void {
    for (const listener of this.listeners) listener(payload);
  }

  // A message as sent by notifySql: heard unless this process sent it (and delivered it).
  protected hearSent(message: string | undefined): void {
    const end = message?.indexOf(ORIGIN_END) ?? -1;
    if (message === undefined || end < 0) return this.deliverLocally(EVERYTHING);
    if (message.slice(0, end) !== this.origin) this.deliverLocally(message.slice(end + 1));
  }
}

// The embedded database has one session in one process: its LISTEN hears the NOTIFY of the
// process's own transactions when they commit.
export class EmbeddedChangeFeed extends Listeners implements ChangeFeed {
  readonly live = true;
  private unlisten: (() => Promise<void>) | undefined;

  // The embedded database delivers its messages as the committing statement returns.
  settled(): undefined {
    return undefined;
  }

  constructor(readonly channel: string) {
    super();
  }

  async start(pglite: PGlite): Promise<void> {
    this.unlisten = await pglite.listen(this.channel, (payload) => this.hearSent(payload));
  }

  async close(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
  }
}

const RECONNECT_MS = 1000;

// A dedicated connection LISTENs; when it drops, caches are told to forget everything (the
// messages sent meanwhile are lost) and it reconnects until it is back.
export class PostgresChangeFeed extends Listeners implements ChangeFeed {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private connected = false;

  constructor(
    private readonly url: string,
    readonly channel: string,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {
    super();
  }

  get live(): boolean {
    return this.connected;
  }

  // A message Postgres sent when a change committed may sit in this process's socket while a
  // request that follows the change is already being handled: one turn of the event loop
  // (its poll phase reads every socket that is ready) lets it be heard first.
  settled(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.hearSent(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.connected = true;
    // Anything cached before this connection listened may be stale.
    this.deliverLocally(EVERYTHING);
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.connected = false;
    this.deliverLocally(EVERYTHING);
    if (this.closed) return;
    if (error) this.onError(error);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.retry = setTimeout(() => {
      this.start().catch((error: Error) => {
        this.onError(error);
        if (!this.closed) this.scheduleReconnect();
      });
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}
