// The delivery worker: drains the events outbox into deliveries (one per event and matching
// webhook, in the transaction that marks the event dispatched), then sends due deliveries.
//
// Several processes on one Postgres share the work: events and due deliveries are claimed
// with FOR UPDATE SKIP LOCKED; a claimed delivery is leased (lease_until) for longer than an
// attempt can take and sent outside any transaction, so a slow receiver holds no database
// session (the embedded database has only one). A process that dies mid-attempt leaves the
// lease to expire and another worker retries: delivery is at least once, never concurrent,
// and receivers de-duplicate on the event id.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type Config, secretsBoxOf } from '../config';
import type { Database, Webhook, WebhookDelivery } from '../db/schema';
import type { WritePart } from '../db/together';
import {
  type AccountEnvironment,
  claimUndispatchedEvents,
  findEvents,
  isPixCallback,
  markEventsDispatched,
  type PixCallbackType,
  type UndispatchedEvent,
  webhookBodyOf,
} from '../events/events.service';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDatabaseUnavailable } from '../db/errors';
import { nextDelayMs } from './retry';
import * as repo from './webhooks.repository';
import { type Attempt, failedAttempt, send } from './sender';
import { classifyError } from './attempt-errors';
import { checkedLookup } from './checked-lookup';
import { type ProbeResult, probeReceiver, type WebhookTlsService } from '../tls/webhook-tls.service';
import { hmacSignature, RSA_SIGNATURE_HEADER, rsaSignature, SIGNATURE_HEADER } from './signature';
import type { WebhookKeys } from './webhook-keys';
import { openedWebhook } from './webhook-secrets';
import { Limits } from './limits';

export type { AccountEnvironment } from '../events/events.service';

export const WEBHOOKS_JOB = 'webhooks';
// What the trigger on events sends when an event's transaction commits.
export const OUTBOX_CHANGE = 'webhooks:outbox';
const EVENT_BATCH = 200;
// Deliveries claimed by one statement, attempts in flight in one process, and of those at
// most PER_RECEIVER to one receiver (its origin).
const SEND_BATCH = 32;
const MAX_IN_FLIGHT = 64;
export const PER_RECEIVER = 8;
// Signatures of recent events kept (one per event: its deliveries go out together).
const SIGNATURES_KEPT = 4096;
// Recording an attempt is retried until this long before its lease expires.
const LEASE_MARGIN_MS = 5000;

export const TEST_HEADER = 'X-Pixgate-Test';

// The Pix API callbacks: event type -> webhook kind and the path appended to its URL (the
// body is the standard's, events/event-body.ts).
const PIX_CALLBACKS: { [T in PixCallbackType]: { kind: 'pix' | 'rec' | 'cobr'; path: string } } = {
  'PIX_API:PIX': { kind: 'pix', path: '/pix' },
  'PIX_API:REC': { kind: 'rec', path: '/rec' },
  'PIX_API:COBR': { kind: 'cobr', path: '/cobr' },
};

// Room is filled a batch at a time: claiming as each attempt ends (room for one) costs a claim
// statement per delivery, and a backlog drained about 10% slower (503-545 against 577-585 a
// second, docs/SPEED.md). A nearly idle worker claims at once: a new event waits for no batch.
function shouldClaim(room: number, inFlight: number): boolean {
  return room >= SEND_BATCH / 2 || (room > 0 && inFlight < PER_RECEIVER);
}

export function newDeliveryId(): string {
  return randomBytes(12).toString('hex');
}

export interface RunStats {
  fannedOut: number;
  attempted: number;
  succeeded: number;
}

// The headers as the delivery log keeps them: the webhook's Authorization masked (the end of
// the credential shows which one it was); the signatures in full (they are not secrets).
export function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  for (const name of Object.keys(out)) {
    if (name.toLowerCase() !== 'authorization') continue;
    const value = out[name]!;
    const m = /^(\S+)\s+(.+)$/.exec(value);
    const secret = m ? m[2]! : value;
    const masked = secret.length >= 12 ? `****${secret.slice(-4)}` : '****';
    out[name] = m ? `${m[1]} ${masked}` : masked;
  }
  return out;
}

export class WebhookDeliveryService {
  private readonly schedule: readonly number[];
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly environment: AccountEnvironment;
  private readonly receivers = new Limits(PER_RECEIVER);
  private readonly signatures = new EventSignatures();
  private nudged = false;
  private heard: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Config,
    private readonly keys: WebhookKeys,
    private readonly log: Logger,
    private readonly tls: Pick<WebhookTlsService, 'receiverTls'>,
  ) {
    this.schedule = config.webhooks.retryScheduleMs;
    this.timeoutMs = config.webhooks.timeoutMs;
    // Longer than an attempt can last, waiting for its turn at the receiver included, so a
    // live worker never loses its lease mid-attempt.
    this.leaseMs = this.timeoutMs * Math.ceil(MAX_IN_FLIGHT / PER_RECEIVER) + 30_000;
    this.environment = config.sandbox ? 'TESTING' : 'PRODUCTION';
  }

  // The outbox has new events (a NOTIFY from the trigger on events, heard by any process):
  // a run in progress fans them out before its next claim.
  nudge(): void {
    this.nudged = true;
    this.heard?.();
  }

  // Resolves at the next nudge: a run waiting for attempts to end fans new events out meanwhile.
  private nextNudge(): Promise<void> {
    return new Promise((resolve) => (this.heard = resolve));
  }

  // One run of the job: fan out what the outbox holds, then send what is due, up to
  // MAX_IN_FLIGHT at a time (PER_RECEIVER per receiver), claiming more as attempts end, until
  // nothing is due. A run does not stop on a budget while work waits: new events, heard
  // meanwhile, are fanned out within it. Each delivery is attempted at most once per run.
  async runOnce(): Promise<RunStats> {
    const stats: RunStats = { fannedOut: 0, attempted: 0, succeeded: 0 };
    await this.fanOutAll(stats);
    const inFlight = new Set<Promise<void>>();
    const retried: string[] = [];
    for (;;) {
      if (this.nudged) await this.fanOutAll(stats);
      const room = MAX_IN_FLIGHT - inFlight.size;
      const claimed = shouldClaim(room, inFlight.size) ? await this.claim(Math.min(room, SEND_BATCH), retried) : [];
      for (const { delivery, webhook, token } of claimed) {
        const sent: Promise<void> = this.sendClaimed(delivery, webhook, token, stats, retried).finally(() =>
          inFlight.delete(sent),
        );
        inFlight.add(sent);
      }
      if (claimed.length > 0 && inFlight.size < MAX_IN_FLIGHT) continue;
      if (inFlight.size === 0 && !this.nudged) break;
      if (this.nudged) continue;
      // An attempt that ends may let a later delivery of its object go; new events are
      // fanned out while attempts are in flight.
      if (inFlight.size > 0) await Promise.race([...inFlight, this.nextNudge()]);
      this.heard = undefined;
    }
    return stats;
  }

  private async fanOutAll(stats: RunStats): Promise<void> {
    this.nudged = false;
    for (let n = await this.fanOut(); n > 0; n = await this.fanOut()) {
      stats.fannedOut += n;
      if (n < EVENT_BATCH) break;
    }
  }

  private async claim(limit: number, except: readonly string[]) {
    const token = randomUUID();
    const claimed = await repo.claimDueDeliveries(this.db, limit, this.leaseMs, token, except);
    if (claimed.length === 0) return [];
    const ids = [...new Set(claimed.map((d) => d.webhook_id))];
    const webhooks = new Map((await repo.webhooksByIds(this.db, ids)).map((w) => [w.id, w]));
    // A webhook deleted meanwhile took its deliveries with it (on delete cascade).
    return claimed
      .filter((d) => webhooks.has(d.webhook_id))
      .map((delivery) => ({ delivery, webhook: webhooks.get(delivery.webhook_id)!, token }));
  }

  // One claimed delivery, after its turn among the receiver's (at most PER_RECEIVER at once).
  private async sendClaimed(
    delivery: WebhookDelivery,
    webhook: Webhook,
    token: string,
    stats: RunStats,
    retried: string[],
  ): Promise<void> {
    const receiver = this.receivers.of(targetUrl(webhook).origin);
    await receiver.acquire();
    try {
      const result = await this.attempt(delivery, webhook, token, { manual: false });
      stats.attempted++;
      if (result.ok) stats.succeeded++;
      else retried.push(delivery.id);
    } catch (err) {
      // Recording failed (the database away past the lease): another run retries it.
      retried.push(delivery.id);
      this.log.warn({ deliveryId: delivery.id, error: (err as Error).message }, 'webhook attempt not recorded');
    } finally {
      receiver.release();
    }
  }

  // Turns undispatched events into deliveries, in one transaction with marking them.
  async fanOut(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const events = await claimUndispatchedEvents(trx, EVENT_BATCH);
      if (events.length === 0) return 0;
      const webhooks = await repo.activeWebhooksOf(trx, [...new Set(events.map((e) => e.company_id))]);
      // Each event with the webhooks it goes to, matched once, in the outbox's order.
      const targets = events
        .map((event) => ({ event, to: webhooks.filter((w) => matches(w, event)) }))
        .filter((t) => t.to.length > 0);
      const withPayloads = await findEvents(
        trx,
        targets.map((t) => t.event.id),
      );
      const payloads = new Map(withPayloads.map((e) => [e.id, e]));
      const now = new Date();
      const rows: repo.NewDelivery[] = targets.flatMap(({ event, to }) =>
        to.map((webhook) => ({
          id: newDeliveryId(),
          webhook_id: webhook.id,
          company_id: event.company_id,
          event_id: event.id,
          event_type: event.type,
          body: webhookBodyOf(payloads.get(event.id)!, this.environment),
          object_id: payloads.get(event.id)!.object_id,
          status: 'PENDING' as const,
          lease_token: null,
          lease_until: null,
          created_at: now,
          updated_at: now,
        })),
      );
      await repo.insertDeliveries(trx, rows);
      await markEventsDispatched(
        trx,
        events.map((e) => e.id),
      );
      return events.length;
    });
  }

  // A manual redelivery: one attempt now, whatever the delivery's status. Answers undefined
  // when a worker is attempting it at this moment.
  async redeliver(companyId: string, webhook: Webhook, deliveryId: string): Promise<WebhookDelivery | undefined> {
    const token = randomUUID();
    const delivery = await repo.leaseDelivery(this.db, companyId, deliveryId, this.leaseMs, token);
    if (!delivery) return undefined;
    await this.attempt(delivery, webhook, token, { manual: true });
    return delivery;
  }

  // A test delivery: written with its event (`also`) already leased to this process, and
  // attempted now, once. Answers the delivery as inserted.
  async sendTest(webhook: Webhook, row: repo.NewDelivery, also: WritePart): Promise<WebhookDelivery> {
    const token = randomUUID();
    const delivery = await repo.insertLeasedDelivery(this.db, row, [also], { token, ms: this.leaseMs });
    await this.attempt(delivery, webhook, token, { manual: false });
    return delivery;
  }

  // Sends one delivery and records the attempt (and the outcome while the lease holds).
  private async attempt(
    delivery: WebhookDelivery,
    webhook: Webhook,
    token: string,
    { manual }: { manual: boolean },
  ): Promise<Attempt> {
    const at = new Date();
    const url = targetUrl(webhook);
    const headers = await this.headers(delivery, webhook, at);
    const { attempt, probe } = await this.call(delivery, url, headers);
    const outcome = manual ? manualOutcome(delivery, attempt) : this.automaticOutcome(delivery, attempt);
    const record: repo.AttemptRecord = {
      deliveryId: delivery.id,
      at,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      manual,
      url: url.href,
      requestHeaders: loggedHeaders(headers),
      response: attempt.response,
      errorClass: attempt.errorClass,
      errorCode: attempt.errorCode,
      tls: attempt.tls,
      probe,
    };
    const held = await this.recordAttempt(token, record, outcome, at.getTime() + this.leaseMs - LEASE_MARGIN_MS);
    if (!held)
      this.log.warn({ deliveryId: delivery.id }, 'webhook delivery lease lost (or delivery deleted) during an attempt');
    const fields = {
      companyId: delivery.company_id,
      deliveryId: delivery.id,
      webhookId: webhook.id,
      eventId: delivery.event_id,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      errorClass: attempt.errorClass,
      manual,
      ...(delivery.is_test ? { test: true } : {}),
    };
    // A failed attempt is the receiver's problem to look into: warn, with whether it will retry.
    if (attempt.ok) this.log.info(fields, 'webhook delivered');
    else
      this.log.warn(
        { ...fields, nextInMs: outcome?.nextInMs, gaveUp: outcome?.status === 'FAILED' },
        'webhook attempt failed',
      );
    return attempt;
  }

  // One HTTP attempt; an https receiver over mutual TLS with the company's settings, probed
  // first without a client certificate when the company asks for it.
  private async call(
    delivery: WebhookDelivery,
    url: URL,
    headers: Record<string, string>,
  ): Promise<{ attempt: Attempt; probe: ProbeResult | null }> {
    const guard = this.config.sandbox ? {} : { lookup: checkedLookup };
    try {
      const tls = url.protocol === 'https:' ? await this.tls.receiverTls(delivery.company_id) : undefined;
      const probe = tls?.probe ? await probeReceiver(url, tls, { timeoutMs: this.timeoutMs, ...guard }) : null;
      const attempt = await send({
        url,
        body: delivery.body,
        headers,
        timeoutMs: this.timeoutMs,
        allowPrivate: this.config.sandbox,
        ...(tls ? { tls } : {}),
      });
      return { attempt, probe };
    } catch (err) {
      return { attempt: failedAttempt(classifyError(err, { host: url.host }), 0), probe: null };
    }
  }

  // Records the attempt as soon as the receiver answered. A database that is away then (a
  // restart, a failover) is waited for while the lease holds: given up, the delivery would be
  // sent again when the lease expires, though the receiver already has it.
  private async recordAttempt(
    token: string,
    record: repo.AttemptRecord,
    outcome: repo.DeliveryOutcome | undefined,
    leaseEndsAt: number,
  ): Promise<boolean> {
    for (let waitMs = 200; ; waitMs = Math.min(waitMs * 2, 2000)) {
      try {
        return await repo.recordAttempt(this.db, token, record, outcome);
      } catch (err) {
        // The webhook (and with it the delivery) was deleted during the attempt: nothing to log.
        if (isForeignKeyViolation(err)) return false;
        const retry = isDatabaseUnavailable(err) && !isPastDeadline(err) && Date.now() + waitMs < leaseEndsAt;
        if (!retry) throw err;
        this.log.warn(
          { deliveryId: record.deliveryId, error: (err as Error).message },
          'recording a webhook attempt failed; retrying',
        );
        await sleep(waitMs);
      }
    }
  }

  private automaticOutcome(delivery: WebhookDelivery, attempt: Attempt): repo.DeliveryOutcome {
    const attemptCount = delivery.attempt_count + 1;
    if (attempt.ok) return { status: 'SUCCEEDED', attemptCount, nextInMs: null };
    // A test delivery is attempted once: its result is what the tester wants to see.
    const delay = delivery.is_test ? undefined : nextDelayMs(this.schedule, attemptCount);
    return delay === undefined
      ? { status: 'FAILED', attemptCount, nextInMs: null }
      : { status: 'PENDING', attemptCount, nextInMs: delay };
  }

  private async headers(delivery: WebhookDelivery, webhook: Webhook, at: Date): Promise<Record<string, string>> {
    const t = Math.floor(at.getTime() / 1000);
    const key = await this.keys.current();
    const { secret, authorization } = openedWebhook(secretsBoxOf(this.config), webhook);
    return {
      'Content-Type': 'application/json',
      'User-Agent': 'pixgate-webhooks/1',
      'X-Pixgate-Event': delivery.event_type,
      'X-Pixgate-Event-Id': delivery.event_id,
      'X-Pixgate-Delivery-Id': delivery.id,
      ...(delivery.is_test ? { [TEST_HEADER]: '1' } : {}),
      [SIGNATURE_HEADER]: hmacSignature(secret, delivery.body, t),
      [RSA_SIGNATURE_HEADER]: await this.signatures.of(key, delivery),
      'X-Pixgate-Key-Id': key.kid,
      ...(authorization ? { Authorization: authorization } : {}),
    };
  }
}

// The RSA signature of an event's body, made once per event and key: every webhook the event
// goes to and every attempt send the same body (the HMAC, which carries the attempt's time,
// is cheap and made each time).
class EventSignatures {
  private readonly made = new Map<string, Promise<string>>();

  of(key: { kid: string; privateKeyPem: string }, delivery: WebhookDelivery): Promise<string> {
    const id = `${key.kid} ${delivery.event_id} ${delivery.body.length}`;
    let signature = this.made.get(id);
    if (signature === undefined) {
      signature = rsaSignature(key.privateKeyPem, delivery.body);
      // A failed signature is not kept: the next attempt signs again.
      signature.catch(() => this.made.delete(id));
      if (this.made.size >= SIGNATURES_KEPT) this.made.delete(this.made.keys().next().value!);
      this.made.set(id, signature);
    }
    return signature;
  }
}

// A manual attempt never takes retries away: success completes the delivery, a failure
// leaves it as it was (a pending one keeps its schedule).
function manualOutcome(delivery: WebhookDelivery, attempt: Attempt): repo.DeliveryOutcome | undefined {
  if (!attempt.ok) return undefined;
  return { status: 'SUCCEEDED', attemptCount: delivery.attempt_count, nextInMs: null };
}

// A manual redelivery's request ran out of time: its statements are refused from then on.
function isPastDeadline(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'PIXGATE_DEADLINE';
}

function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}

function matches(webhook: Webhook, event: UndispatchedEvent): boolean {
  if (webhook.company_id !== event.company_id) return false;
  if (isPixCallback(event.type)) {
    const callback = PIX_CALLBACKS[event.type];
    if (webhook.kind !== callback.kind) return false;
    return callback.kind !== 'pix' || webhook.chave === event.chave;
  }
  return webhook.kind === 'platform' && webhook.event === event.type;
}

// The Pix API posts to {webhookUrl}/pix (or /rec, /cobr): the path is appended.
export function targetUrl(webhook: Webhook): URL {
  const url = new URL(webhook.url);
  const callback = Object.values(PIX_CALLBACKS).find((c) => c.kind === webhook.kind);
  if (callback) url.pathname = url.pathname.replace(/\/+$/, '') + callback.path;
  return url;
}
