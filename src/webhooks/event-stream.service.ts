// The event stream (GET /api/v1/events/stream): a company's events as Server-Sent Events, as
// they commit, each with the body and the headers a webhook delivery of it carries (all but
// X-Pixgate-Signature, which `pixgate listen` makes with its own session secret, so that no
// secret crosses the network). What a shared sandbox offers a laptop it cannot reach.
//
// Each stream polls the database (events are recorded in the changing transactions of any
// process, and no NOTIFY announces them: a NOTIFY in every transaction that records an event
// would serialise their commits) every POLL_MS, reading only events committed for good, in
// commit order (events.repository.ts eventsAfter), so it skips none and repeats none, on any
// process. It runs outside the request that opened it: no request deadline, not counted in
// its round trips. Bounded: STREAMS_PER_COMPANY streams per company on one process, a
// heartbeat while idle (proxies and NATs drop silent connections), at most MAX_SECONDS long;
// close() ends them all when the server stops.
import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema';
import { withoutDeadline } from '../db/deadline';
import { isDatabaseUnavailable } from '../db/errors';
import { outsideStatementCount } from '../db/statement-counter';
import { errors } from '../errors/errors';
import {
  type AccountEnvironment,
  eventsAfter,
  type StreamedEvent,
  type StreamPosition,
  streamStart,
  webhookBodyOf,
} from '../events/events.service';
import { TEST_HEADER } from './delivery.service';
import { RSA_SIGNATURE_HEADER, rsaSignature } from './signature';
import type { WebhookKeys } from './webhook-keys';

export const STREAMS_PER_COMPANY = 5;
export const MAX_SECONDS = 3600;
const POLL_MS = 500;
const HEARTBEAT_MS = 15_000;
const BATCH = 100;
// What the client waits before reconnecting (the SSE `retry` field).
const RETRY_MS = 1000;

export interface StreamRequest {
  companyId: string;
  types?: readonly string[];
  // The Last-Event-ID header: the position of the last message the client received.
  lastEventId?: string;
  maxSeconds?: number;
}

// What a stream message's `data` holds for each event.
export interface StreamedEventMessage {
  id: string;
  type: string;
  isTest: boolean;
  body: string;
  headers: Record<string, string>;
}

// The message id is opaque to clients: base64url of the event's position in commit order.
export function encodeStreamPosition(position: StreamPosition): string {
  return Buffer.from(JSON.stringify({ x: position.xid, i: position.id })).toString('base64url');
}

export function decodeStreamPosition(text: string): StreamPosition | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { x, i } = parsed as { x?: unknown; i?: unknown };
    if (typeof x !== 'string' || !/^[0-9]{1,20}$/.test(x)) return undefined;
    if (typeof i !== 'string' || i.length > 255 || i.includes('\u0000')) return undefined;
    return { xid: x, id: i };
  } catch {
    return undefined;
  }
}

export class EventStreamService {
  private readonly open = new Set<EventStream>();
  private readonly perCompany = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly keys: WebhookKeys,
    private readonly environment: AccountEnvironment,
    private readonly log: Logger,
  ) {}

  // Opens a stream and answers its body. One statement (where it starts) unless it resumes.
  async start(request: StreamRequest): Promise<Readable> {
    const given = request.lastEventId;
    const resumed = given === undefined ? undefined : decodeStreamPosition(given);
    if (given !== undefined && !resumed)
      throw errors.validation([
        { field: 'Last-Event-ID', message: 'is not an id of this stream (send it as received)' },
      ]);
    if (this.closed) throw errors.databaseUnavailable();
    const count = this.perCompany.get(request.companyId) ?? 0;
    if (count >= STREAMS_PER_COMPANY)
      throw errors.tooManyRequests(
        `at most ${STREAMS_PER_COMPANY} event streams of one company at a time; close one (or wait for it to end)`,
      );
    this.perCompany.set(request.companyId, count + 1);
    try {
      const position = resumed ?? (await streamStart(this.db));
      const stream = new EventStream(this, request, position);
      this.open.add(stream);
      stream.begin(Math.min(request.maxSeconds ?? MAX_SECONDS, MAX_SECONDS) * 1000);
      return stream.out;
    } catch (error) {
      this.released(request.companyId);
      throw error;
    }
  }

  // Ends every stream and refuses new ones (the server is stopping): answers once each has ended.
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.open].map((s) => s.end()));
  }

  get openCount(): number {
    return this.open.size;
  }

  // ---- used by the streams ----

  forget(stream: EventStream, companyId: string): void {
    if (this.open.delete(stream)) this.released(companyId);
  }

  private released(companyId: string): void {
    const left = (this.perCompany.get(companyId) ?? 1) - 1;
    if (left > 0) this.perCompany.set(companyId, left);
    else this.perCompany.delete(companyId);
  }

  read(companyId: string, after: StreamPosition, types: readonly string[] | undefined): Promise<StreamedEvent[]> {
    return eventsAfter(this.db, companyId, after, { ...(types ? { types } : {}), limit: BATCH });
  }

  async messages(events: StreamedEvent[], streamId: string, sent: number): Promise<StreamedEventMessage[]> {
    if (events.length === 0) return [];
    const key = await this.keys.current();
    const bodies = events.map((event) => webhookBodyOf(event, this.environment));
    const signatures = await Promise.all(bodies.map((body) => rsaSignature(key.privateKeyPem, body)));
    return events.map((event, n) => {
      const body = bodies[n]!;
      return {
        id: event.id,
        type: event.type,
        isTest: event.is_test,
        body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'pixgate-webhooks/1',
          'X-Pixgate-Event': event.type,
          'X-Pixgate-Event-Id': event.id,
          'X-Pixgate-Delivery-Id': `${streamId}-${sent + n + 1}`,
          ...(event.is_test ? { [TEST_HEADER]: '1' } : {}),
          [RSA_SIGNATURE_HEADER]: signatures[n]!,
          'X-Pixgate-Key-Id': key.kid,
        },
      };
    });
  }

  failed(streamId: string, error: unknown): void {
    if (isDatabaseUnavailable(error))
      this.log.warn({ streamId, error: (error as Error).message }, 'event stream: database unavailable; retrying');
    else this.log.error({ err: error, streamId }, 'event stream failed; ended');
  }
}

class EventStream {
  readonly out = new PassThrough();
  private readonly id = `es_${randomBytes(8).toString('hex')}`;
  private readonly timers: NodeJS.Timeout[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private sent = 0;
  // The database is away: said once, not at every poll, until a read works again.
  private failing = false;
  private finished: Promise<void> | undefined;

  constructor(
    private readonly owner: EventStreamService,
    private readonly request: StreamRequest,
    private position: StreamPosition,
  ) {
    // The client left (Koa destroys the body when the response closes).
    this.out.once('close', () => void this.end());
  }

  begin(maxMs: number): void {
    this.out.write(`retry: ${RETRY_MS}\n\n`);
    this.write('pixgate.ready', { streamId: this.id });
    this.timers.push(
      setInterval(() => this.out.write(': keep-alive\n\n'), HEARTBEAT_MS),
      setTimeout(() => void this.end(), maxMs),
    );
    for (const t of this.timers) t.unref();
    // Outside the request that opened it: neither its deadline nor its statement count.
    this.finished = outsideStatementCount(() => withoutDeadline(() => this.loop()));
  }

  async end(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      for (const t of this.timers) clearTimeout(t);
      this.wake?.();
      this.owner.forget(this, this.request.companyId);
    }
    await this.finished;
    if (!this.out.writableEnded) this.out.end();
  }

  private async loop(): Promise<void> {
    while (!this.ended) {
      let more = false;
      try {
        const events = await this.owner.read(this.request.companyId, this.position, this.request.types);
        const messages = await this.owner.messages(events, this.id, this.sent);
        for (const [n, message] of messages.entries()) {
          if (this.ended) return;
          const event = events[n]!;
          this.position = { xid: event.xid, id: event.id };
          this.sent++;
          if (!this.write('pixgate.event', message, encodeStreamPosition(this.position))) await this.drained();
        }
        more = events.length === BATCH;
        this.failing = false;
      } catch (error) {
        if (!this.failing) this.owner.failed(this.id, error);
        this.failing = true;
        if (!isDatabaseUnavailable(error)) {
          void this.end();
          return;
        }
      }
      if (!more) await this.pause(POLL_MS);
    }
  }

  private write(event: string, data: unknown, id?: string): boolean {
    if (this.out.writableEnded || this.out.destroyed) return true;
    return this.out.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  // A slow client: wait until what was written has gone (or the stream ended).
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => (this.out.off('drain', done), (this.wake = undefined), resolve());
      this.out.once('drain', done);
      this.wake = done;
    });
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => ((this.wake = undefined), resolve()), ms);
      this.wake = () => (clearTimeout(timer), (this.wake = undefined), resolve());
    });
  }
}
