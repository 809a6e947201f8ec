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
import type { components } from '../../generated/pix.types';
import { type Config, secretsBoxOf } from '../config';
import type { Database, EventRow, Webhook, WebhookDelivery } from '../db/schema';
import type { EventPayload, PixCallbackPayloads, PixCallbackType } from '../events/event-payloads';
import {
  claimUndispatchedEvents,
  findEvents,
  markEventsDispatched,
  type UndispatchedEvent,
} from '../events/events.repository';
import { nextDelayMs } from './retry';
import * as repo from './webhooks.repository';
import { send, type Attempt } from './sender';
import { hmacSignature, RSA_SIGNATURE_HEADER, rsaSignature, SIGNATURE_HEADER } from './signature';
import type { WebhookKeys } from './webhook-keys';
import { openedWebhook } from './webhook-secrets';

export const JOB_NAME = 'webhooks';
export const JOB_INTERVAL_MS = 1000;
const EVENT_BATCH = 200;
// Deliveries claimed (and sent in parallel) at a time by one process.
const SEND_BATCH = 16;
// One run stops claiming after this long; the next run continues.
const RUN_BUDGET_MS = 5000;

type PixSchemas = components['schemas'];

// The Pix API callbacks: event type -> webhook kind, path appended to the URL, body.
interface PixCallback<T extends PixCallbackType> {
  kind: 'pix' | 'rec' | 'cobr';
  path: string;
  body: (p: PixCallbackPayloads[T]) => unknown;
}
const PIX_CALLBACKS: { [T in PixCallbackType]: PixCallback<T> } = {
  'PIX_API:PIX': { kind: 'pix', path: '/pix', body: (p): PixSchemas['WebhookPixNotificacao'] => ({ pix: [p.pix] }) },
  'PIX_API:REC': { kind: 'rec', path: '/rec', body: (p): PixSchemas['WebhookRecNotificacao'] => ({ recs: [p.rec] }) },
  'PIX_API:COBR': {
    kind: 'cobr',
    path: '/cobr',
    body: (p): PixSchemas['WebhookCobRNotificacao'] => ({ cobsr: [p.cobr] }),
  },
};

function isPixCallback(type: string): type is PixCallbackType {
  return Object.hasOwn(PIX_CALLBACKS, type);
}

// A callback's body from its stored payload, which recordEvent checked against its type.
function callbackBody<T extends PixCallbackType>(type: T, payload: EventPayload): unknown {
  return PIX_CALLBACKS[type].body(payload as PixCallbackPayloads[T]);
}

export function newDeliveryId(): string {
  return randomBytes(12).toString('hex');
}

export interface RunStats {
  fannedOut: number;
  attempted: number;
  succeeded: number;
}

export class WebhookDeliveryService {
  private readonly schedule: readonly number[];
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly environment: AccountEnvironment;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Config,
    private readonly keys: WebhookKeys,
    private readonly log: Logger,
  ) {
    this.schedule = config.webhooks.retryScheduleMs;
    this.timeoutMs = config.webhooks.timeoutMs;
    // Longer than an attempt can last, so a live worker never loses its lease mid-attempt.
    this.leaseMs = this.timeoutMs + 30_000;
    this.environment = config.sandbox ? 'TESTING' : 'PRODUCTION';
  }

  // One run of the job: fan out what the outbox holds, then send what is due.
  async runOnce(): Promise<RunStats> {
    const stats: RunStats = { fannedOut: 0, attempted: 0, succeeded: 0 };
    const started = Date.now();
    for (let n = await this.fanOut(); n > 0; n = await this.fanOut()) {
      stats.fannedOut += n;
      if (n < EVENT_BATCH || Date.now() - started > RUN_BUDGET_MS) break;
    }
    while (Date.now() - started < RUN_BUDGET_MS) {
      const token = randomUUID();
      const claimed = await repo.claimDueDeliveries(this.db, SEND_BATCH, this.leaseMs, token);
      if (claimed.length === 0) break;
      const webhooks = new Map(
        (await repo.webhooksByIds(this.db, [...new Set(claimed.map((d) => d.webhook_id))])).map((w) => [w.id, w]),
      );
      // A webhook deleted meanwhile took its deliveries with it (on delete cascade).
      const live = claimed.filter((d) => webhooks.has(d.webhook_id));
      const results = await Promise.all(live.map((d) => this.attempt(d, webhooks.get(d.webhook_id)!, token, false)));
      stats.attempted += results.length;
      stats.succeeded += results.filter((r) => r.ok).length;
      // A partial batch was everything due: retries that became due meanwhile wait for the next run.
      if (claimed.length < SEND_BATCH) break;
    }
    return stats;
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
          body: bodyOf(payloads.get(event.id)!, this.environment),
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
    await this.attempt(delivery, webhook, token, true);
    return delivery;
  }

  // Sends one delivery and records the attempt (and the outcome while the lease holds).
  private async attempt(delivery: WebhookDelivery, webhook: Webhook, token: string, manual: boolean): Promise<Attempt> {
    const at = new Date();
    let attempt: Attempt;
    try {
      attempt = await send({
        url: targetUrl(webhook),
        body: delivery.body,
        headers: await this.headers(delivery, webhook, at),
        timeoutMs: this.timeoutMs,
        allowPrivate: this.config.sandbox,
      });
    } catch (err) {
      attempt = { statusCode: null, latencyMs: 0, error: err instanceof Error ? err.message : String(err), ok: false };
    }
    const outcome = manual ? manualOutcome(delivery, attempt) : this.automaticOutcome(delivery, attempt);
    const record = {
      deliveryId: delivery.id,
      at,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      manual,
    };
    const held = await this.db
      .transaction()
      .execute((trx) => repo.recordAttempt(trx, token, record, outcome))
      // The webhook (and with it the delivery) was deleted during the attempt: nothing to log.
      .catch((err: unknown) => (isForeignKeyViolation(err) ? false : Promise.reject(err)));
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
      manual,
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

  private automaticOutcome(delivery: WebhookDelivery, attempt: Attempt): repo.DeliveryOutcome {
    const attemptCount = delivery.attempt_count + 1;
    if (attempt.ok) return { status: 'SUCCEEDED', attemptCount, nextInMs: null };
    const delay = nextDelayMs(this.schedule, attemptCount);
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
      [SIGNATURE_HEADER]: hmacSignature(secret, delivery.body, t),
      [RSA_SIGNATURE_HEADER]: rsaSignature(key.privateKeyPem, delivery.body),
      'X-Pixgate-Key-Id': key.kid,
      ...(authorization ? { Authorization: authorization } : {}),
    };
  }
}

// A manual attempt never takes retries away: success completes the delivery, a failure
// leaves it as it was (a pending one keeps its schedule).
function manualOutcome(delivery: WebhookDelivery, attempt: Attempt): repo.DeliveryOutcome | undefined {
  if (!attempt.ok) return undefined;
  return { status: 'SUCCEEDED', attemptCount: delivery.attempt_count, nextInMs: null };
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

// What kind of account received the event: a sandbox (test) account or a live one, as the
// public reference tells them apart (account.environment).
export type AccountEnvironment = 'TESTING' | 'PRODUCTION';

// Platform webhooks: {event, eventId, ...the objects}, the account saying its environment;
// Pix API callbacks: the standard's body.
export function bodyOf(event: EventRow, environment: AccountEnvironment): string {
  if (isPixCallback(event.type)) return JSON.stringify(callbackBody(event.type, event.payload));
  const { event: _event, eventId: _eventId, ...objects } = event.payload;
  const account = objects.account;
  if (account !== null && typeof account === 'object') objects.account = { ...account, environment };
  return JSON.stringify({ event: event.type, eventId: event.id, ...objects });
}

// The Pix API posts to {webhookUrl}/pix (or /rec, /cobr): the path is appended.
export function targetUrl(webhook: Webhook): URL {
  const url = new URL(webhook.url);
  const callback = Object.values(PIX_CALLBACKS).find((c) => c.kind === webhook.kind);
  if (callback) url.pathname = url.pathname.replace(/\/+$/, '') + callback.path;
  return url;
}
