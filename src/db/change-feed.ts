// Changes every process must hear about at once (an application removed, a company's
// features or sandbox clock changed), so that what processes cache from the database never
// outlives it. The writer sends NOTIFY in the statement (or transaction) that makes the
// change, so the message leaves only if the change commits; every process LISTENs on its own
// connection. While that connection is down a process may miss messages: `live` is false
// then, and caches read through to the database instead of serving what they hold.
import type { PGlite } from '@electric-sql/pglite';
import { createHash, randomUUID } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import { patientTimeout } from '../lib/patient-timer';

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
  // Numbers the next message this process sends (notifySql).
  stamp(): string;
  // After a change that must stop working everywhere at once (a deleted application): resolves
  // once every other process listening on the channel has heard the messages this process sent
  // so far and acknowledged them, so a request the client sends next, to any process, finds
  // the change (at most PROPAGATION_WAIT_MS; at once when no other process listens).
  propagated(): Promise<void>;
  close(): Promise<void>;
}

// An SQL expression that sends `payload` on the feed's channel when its statement commits.
// The writer delivers it locally once committed; other processes hear it from Postgres.
export function notifySql(feed: Pick<ChangeFeed, 'channel' | 'stamp'>, payload: string): RawBuilder<unknown> {
  return sql`pg_notify(${feed.channel}, ${`${feed.stamp()}${ORIGIN_END}${payload}`})`;
}

const ORIGIN_END = '|';
const SEQUENCE_MARK = ':';
const PROPAGATION_WAIT_MS = 2000;
const LISTENER_NAME = 'pxl:';

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

  protected sent = 0;
  abstract readonly live: boolean;

  deliverLocally(payload: string): void {
    for (const listener of this.listeners) listener(payload);
  }

  stamp(): string {
    return `${this.origin}${SEQUENCE_MARK}${++this.sent}`;
  }

  // A message as sent by notifySql: heard unless this process sent it (and delivered it).
  // Acknowledgements (`ack:`) are for their addressee only.
  protected hearSent(message: string | undefined): void {
    const end = message?.indexOf(ORIGIN_END) ?? -1;
    if (message === undefined || end < 0) return this.deliverLocally(EVERYTHING);
    const [origin = '', sequence = '0'] = message.slice(0, end).split(SEQUENCE_MARK);
    const payload = message.slice(end + 1);
    if (payload.startsWith(ACK)) return this.heardAck(payload.slice(ACK.length), origin);
    if (origin === this.origin) return;
    this.deliverLocally(payload);
    // Sequence 0: a trigger's message (the outbox's), which nobody waits to have heard.
    if (Number(sequence) > 0) this.acknowledge(origin, Number(sequence));
  }

  protected abstract acknowledge(origin: string, sequence: number): void;
  protected abstract heardAck(ack: string, from: string): void;
}

const ACK = 'ack:';

// The embedded database has one session in one process: its LISTEN hears the NOTIFY of the
// process's own transactions when they commit.
export class EmbeddedChangeFeed extends Listeners implements ChangeFeed {
  readonly live = true;
  private unlisten: (() => Promise<void>) | undefined;

  // The embedded database delivers its messages as the committing statement returns.
  settled(): undefined {
    return undefined;
  }

  // One process owns the embedded database: nobody else to tell.
  propagated(): Promise<void> {
    return Promise.resolve();
  }

  protected acknowledge(): void {}

  protected heardAck(): void {}

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

// Closes a connection at once, without the goodbye a partition would never let through.
export function destroyConnection(client: pg.Client): void {
  client.connection.stream.destroy();
}

export interface FeedConnectionSettings {
  // Bounds connecting (and LISTEN), and each heartbeat's answer.
  connectMs: number;
  keepAlive: boolean;
  keepAliveInitialDelayMillis: number;
  // How often the listening connection is checked (a statement answered within the connect
  // timeout); 0: never.
  heartbeatMs: number;
}

// A dedicated connection LISTENs; when it drops, caches are told to forget everything (the
// messages sent meanwhile are lost) and it reconnects until it is back, when caches are told
// to forget everything again (what was read meanwhile may have missed a message). A
// connection cut without a word (a network partition: no FIN, no reset) would look alive
// for as long as the kernel keeps it: the heartbeat finds it and gives it up.
export class PostgresChangeFeed extends Listeners implements ChangeFeed {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private connected = false;
  // Per other process (origin), the highest sequence of ours it acknowledged.
  private readonly acks = new Map<string, number>();
  private readonly waiting = new Set<() => void>();
  private settling: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    readonly channel: string,
    private readonly onError: (error: Error) => void = () => undefined,
    private readonly settings: FeedConnectionSettings = {
      connectMs: 5000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      heartbeatMs: 10_000,
    },
  ) {
    super();
  }

  get live(): boolean {
    return this.connected;
  }

  // A message Postgres sent when a change committed may sit in this process's socket while a
  // request that follows the change is already being handled: one turn of the event loop
  // (its poll phase reads every socket that is ready) lets it be heard first. The requests
  // handled in one poll phase (many, under load) share one wait: its callback runs in the
  // check phase that follows, after every socket of that phase was read. A request that
  // asks once it has run waits for the next turn.
  settled(): Promise<void> {
    return (this.settling ??= new Promise((resolve) =>
      setImmediate(() => {
        this.settling = undefined;
        resolve();
      }),
    ));
  }

  async propagated(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const upTo = this.sent;
    // The other processes listening now (their listening sessions carry the channel's name).
    // The change has committed and its message left through Postgres whatever happens here:
    // a connection lost meanwhile only ends the wait.
    const rows = await client
      .query<{ origin: string }>(
        `select split_part(application_name, '/', 2) as origin from pg_stat_activity
        where application_name like $1 and pid <> pg_backend_pid()`,
        [`${this.listenerPrefix()}%`],
      )
      .then(
        (result) => result.rows,
        () => [],
      );
    const others = rows.map((r) => r.origin);
    const done = () => others.every((o) => (this.acks.get(o) ?? 0) >= upTo);
    if (done()) return;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return;
        finish();
      };
      const finish = () => (clearTimeout(timer), this.waiting.delete(check), resolve());
      const timer = setTimeout(finish, PROPAGATION_WAIT_MS);
      this.waiting.add(check);
    });
  }

  // Tells the sender its message was heard here (on the listening connection; one statement,
  // only for the rare changes that go through the feed).
  protected acknowledge(origin: string, sequence: number): void {
    const ack = `${this.stamp()}${ORIGIN_END}${ACK}${origin}${SEQUENCE_MARK}${sequence}`;
    this.client?.query('select pg_notify($1, $2)', [this.channel, ack]).catch(() => undefined);
  }

  // 'pxl:<8 hex of the channel>/': with the origin, within Postgres's 63-character names.
  private listenerPrefix(): string {
    return `${LISTENER_NAME}${createHash('sha1').update(this.channel).digest('hex').slice(0, 8)}/`;
  }

  protected heardAck(ack: string, from: string): void {
    const [to, sequence] = ack.split(SEQUENCE_MARK);
    if (to !== this.origin) return;
    this.acks.set(from, Math.max(this.acks.get(from) ?? 0, Number(sequence) || 0));
    for (const check of [...this.waiting]) check();
  }

  async start(): Promise<void> {
    const { heartbeatMs, connectMs, ...connection } = this.settings;
    const client = new pg.Client({
      connectionString: this.url,
      ...connection,
      // Names this process's listening session, so a writer can count who must acknowledge.
      application_name: `${this.listenerPrefix()}${this.origin}`,
    });
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.hearSent(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    // Bounded as a whole: a partition may let the connection open and then swallow LISTEN.
    const giveUp = patientTimeout(() => destroyConnection(client), connectMs * 2);
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
    } catch (error) {
      destroyConnection(client);
      throw error;
    } finally {
      giveUp.clear();
    }
    this.client = client;
    this.connected = true;
    if (heartbeatMs > 0) this.beat(client, heartbeatMs);
    // Anything cached before this connection listened may be stale.
    this.deliverLocally(EVERYTHING);
  }

  // Every `everyMs`, a statement on the listening connection must be answered within the
  // connect timeout, else the connection is given up (and `live` turns false at once).
  private beat(client: pg.Client, everyMs: number): void {
    clearInterval(this.heartbeat);
    let waiting = false;
    this.heartbeat = setInterval(() => {
      if (waiting || this.client !== client) return;
      waiting = true;
      const timer = patientTimeout(() => destroyConnection(client), this.settings.connectMs);
      client
        .query('select 1')
        .catch(() => undefined)
        .finally(() => {
          timer.clear();
          waiting = false;
        });
    }, everyMs);
    this.heartbeat.unref();
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    clearInterval(this.heartbeat);
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
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}
