// Webhooks of the platform API: registration (one event, one URL, a signing secret shown
// once, and a test event sent to it at once), listing, removal, the delivery log (every
// attempt in full), test events, manual redelivery and the RSA public keys; and the delivery
// log of the Pix API's webhooks (their registration is pix-webhooks.service.ts).
//
// Every function takes the company id: the API's handlers pass the caller's, a dashboard
// passes the company it shows.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Config, secretsBoxOf } from '../config';
import type { Database, Webhook, WebhookKind } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { randomAlphanumeric } from '../lib/ids';
import type { CompanyDirectory } from '../identity/companies.service';
import {
  type EventSamples,
  type EventView,
  eventViewOf,
  type NewEvent,
  recordEventsPart,
  type SampleContext,
  WEBHOOK_OBJECT,
  webhookBodyOf,
} from '../events/events.service';
import { type AccountEnvironment, newDeliveryId, type WebhookDeliveryService } from './delivery.service';
import { deliveryDetailView, deliveryView, pixDeliveryView, pixWebhookView } from './deliveries.view';
import { checkWebhookUrl } from './url-guard';
import { storedWebhookEvent, WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';
import type { components } from '../../generated/platform.types';
import type { WebhookKeys } from './webhook-keys';
import * as repo from './webhooks.repository';
import { openedWebhook, sealedWebhook, sealWebhooksAtRest } from './webhook-secrets';

export const DEFAULT_EVENT = 'OPENPIX:TRANSACTION_RECEIVED';
const PIX_KINDS: readonly WebhookKind[] = ['pix', 'rec', 'cobr'];
const PLATFORM: readonly WebhookKind[] = ['platform'];

export type CreateWebhookInput = components['schemas']['WebhookCreatePayload']['webhook'];
type Schemas = components['schemas'];

// The platform's webhook id: base64 of "Webhook:" and 24 hex digits, as the reference's.
export function newWebhookId(): string {
  return Buffer.from(`Webhook:${randomBytes(12).toString('hex')}`).toString('base64');
}

export function newWebhookSecret(): string {
  return `whsec_${randomAlphanumeric(32)}`;
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export function webhookView(w: Webhook): components['schemas']['Webhook'] {
  return {
    id: w.id,
    name: w.name ?? '',
    event: storedWebhookEvent(w.event),
    url: w.url,
    ...(w.authorization !== null ? { authorization: w.authorization } : {}),
    isActive: w.is_active,
    createdAt: w.created_at.toISOString(),
    updatedAt: w.updated_at.toISOString(),
  };
}

export { deliveryView } from './deliveries.view';

const DUPLICATE = 'A webhook for this url and event already exists';

// What a text field may hold: the database refuses NUL, and the authorization is sent as an
// HTTP header, so it must be a valid header value (no line breaks or other control characters).
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

function checkInput(input: CreateWebhookInput): void {
  const issues: FieldIssue[] = [];
  if (input.name.includes('\u0000'))
    issues.push({ field: 'webhook.name', in: 'body', message: 'must not contain NUL characters' });
  if (
    input.authorization !== undefined &&
    (CONTROL.test(input.authorization) || /[^\u0000-\u00ff]/.test(input.authorization))
  ) {
    issues.push({
      field: 'webhook.authorization',
      in: 'body',
      message: 'must be a valid HTTP header value (no line breaks, control or non-Latin-1 characters)',
    });
  }
  if (issues.length) throw errors.validation(issues);
}

// The database counts rows in a bigint: a skip beyond what a number holds exactly is refused.
export function checkSkip(page: Page): void {
  if (!Number.isSafeInteger(page.skip))
    throw errors.validation([{ field: 'skip', in: 'query', message: `must be at most ${Number.MAX_SAFE_INTEGER}` }]);
}

// What a test event needs besides the database: the company's clock, names and account, the
// sample builders of every area, and a way to wake the delivery worker.
export interface TestEventDeps {
  companies: CompanyDirectory;
  samples: EventSamples;
  wake: () => void;
}

export class WebhooksService {
  private readonly environment: AccountEnvironment;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly worker: WebhookDeliveryService,
    private readonly keys: WebhookKeys,
    private readonly tests: TestEventDeps,
  ) {
    this.environment = config.sandbox ? 'TESTING' : 'PRODUCTION';
  }

  // Registers the webhook and, in the same statement, the test event it gets at once (as the
  // public reference sends one to a new webhook); the worker is woken to send it now.
  async create(companyId: string, input: CreateWebhookInput) {
    checkInput(input);
    const check = await checkWebhookUrl(input.url, this.config.sandbox);
    if (!check.ok)
      throw errors.badRequest(`Webhook url ${check.reason}`, [
        { field: 'webhook.url', in: 'body', message: check.reason },
      ]);
    const event = input.event ?? DEFAULT_EVENT;
    const secret = newWebhookSecret();
    const isActive = input.isActive ?? true;
    try {
      const created = await this.db.transaction().execute(async (trx) => {
        if (await repo.findPlatformDuplicate(trx, companyId, event, input.url)) throw errors.badRequest(DUPLICATE);
        const now = await this.clock.now(companyId, trx);
        const id = newWebhookId();
        const row = {
          id,
          company_id: companyId,
          kind: 'platform' as const,
          event,
          chave: null,
          name: input.name,
          url: input.url,
          authorization: input.authorization ?? null,
          is_active: isActive,
          secret,
          created_at: now,
          updated_at: now,
        };
        return repo.insertWebhook(
          trx,
          sealedWebhook(secretsBoxOf(this.config), row),
          isActive ? this.creationTestParts(companyId, id, event, now) : [],
        );
      });
      if (isActive) this.tests.wake();
      return { ...webhookView(openedWebhook(secretsBoxOf(this.config), created)), secret };
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.badRequest(DUPLICATE);
      throw error;
    }
  }

  // The test event of a new webhook: the public reference's body, {data_criacao, event},
  // about the webhook itself, delivered to it alone (written already dispatched).
  private creationTestParts(companyId: string, webhookId: string, type: string, now: Date) {
    const event: NewEvent = {
      id: randomUUID(),
      companyId,
      type,
      payload: { data_criacao: now.toISOString() },
      at: now,
      object: { type: WEBHOOK_OBJECT, id: webhookId, correlationId: null },
      isTest: true,
      dispatchedAt: new Date(),
    };
    const delivery = this.testDeliveryRow(event, webhookId);
    return [recordEventsPart([event]), repo.insertDeliveryPart(delivery)];
  }

  private testDeliveryRow(event: NewEvent, webhookId: string): repo.NewDelivery {
    const now = new Date();
    const source = {
      id: event.id!,
      type: event.type,
      payload: event.payload,
      is_test: true,
      object_type: event.object?.type ?? null,
    };
    return {
      id: newDeliveryId(),
      webhook_id: webhookId,
      company_id: event.companyId,
      event_id: event.id!,
      event_type: event.type,
      body: webhookBodyOf(source, this.environment),
      status: 'PENDING',
      is_test: true,
      lease_token: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
    };
  }

  // Seals the secrets of webhooks stored in clear or under the previous key (at start-up).
  async sealAtRest(): Promise<number> {
    return sealWebhooksAtRest(this.db, secretsBoxOf(this.config));
  }

  async list(companyId: string, url: string | undefined, page: Page) {
    checkSkip(page);
    const { rows, total } = await repo.listPlatformWebhooks(this.db, companyId, url, page.skip, page.limit);
    const box = secretsBoxOf(this.config);
    return { webhooks: rows.map((row) => webhookView(openedWebhook(box, row))), total };
  }

  // Removes the webhook with its delivery log; pending deliveries are not attempted again.
  async remove(companyId: string, id: string): Promise<void> {
    if (id.includes('\u0000')) throw errors.missing('webhook');
    if (!(await repo.deleteWebhookById(this.db, companyId, 'platform', id))) throw errors.missing('webhook');
  }

  // Both formats: `public_keys` as the public reference answers it (receivers written for it
  // read `key` of the `is_current` one), `keys` with the kid of X-Pixgate-Key-Id and the JWK.
  // The events a webhook may subscribe to: the one list the request validator and the
  // stored rows are checked against, so it grows with the spec's WebhookEvent.
  events(): readonly WebhookEvent[] {
    return WEBHOOK_EVENTS;
  }

  // Where deliveries come from, as configured (PIXGATE_WEBHOOK_SOURCE_IPS).
  sourceIps(): string[] {
    return [...this.config.webhooks.sourceIps];
  }

  async publicKeys() {
    const key = await this.keys.current();
    return {
      public_keys: [{ key_identifier: key.keyIdentifier, is_current: true, key: key.publicKeyPem }],
      keys: [
        {
          kid: key.kid,
          alg: 'RS256' as const,
          pem: key.publicKeyPem,
          jwk: key.jwk,
          active: true,
          createdAt: key.createdAt.toISOString(),
        },
      ],
    };
  }

  // The delivery log of a platform webhook, newest first, attempts in short.
  async deliveries(companyId: string, webhookId: string, page: Page) {
    await this.webhookOf(companyId, PLATFORM, webhookId);
    const { rows, total } = await this.deliveryPage(companyId, webhookId, page);
    return { deliveries: rows.map((r) => deliveryView(r.delivery, r.attempts)), total };
  }

  // One delivery of a platform webhook with every attempt in full (one statement).
  async delivery(companyId: string, webhookId: string, deliveryId: string): Promise<Schemas['WebhookDeliveryDetail']> {
    return this.deliveryOf(companyId, PLATFORM, webhookId, deliveryId);
  }

  // One platform webhook of the company (404 otherwise).
  async get(principal: Principal, id: string) {
    return webhookView(
      openedWebhook(secretsBoxOf(this.config), await this.webhookOf(principal.companyId, PLATFORM, id)),
    );
  }

  // The newest deliveries with their attempts, of one webhook or about one charge (by its
  // transactionID), in one statement (the dashboard's pages).
  async recentDeliveries(principal: Principal, filter: { webhookId?: string; transactionId?: string }, limit: number) {
    if (filter.webhookId?.includes('\u0000') || filter.transactionId?.includes('\u0000')) return [];
    const rows = await repo.listDeliveriesWithAttempts(this.db, principal.companyId, filter, limit);
    return rows.map((r) => deliveryView(r.delivery, r.attempts));
  }

  // One attempt now (synchronous, bounded by the delivery timeout); answers the delivery.
  async redeliver(companyId: string, webhookId: string, deliveryId: string) {
    const { delivery, attempts } = await this.redeliverOf(companyId, PLATFORM, webhookId, deliveryId);
    return deliveryView(delivery, attempts);
  }

  // A test event of the webhook's type with a sample body (made by the area that makes the
  // real ones, from made-up objects), delivered to this webhook alone, now; answers once the
  // attempt is done.
  async test(
    companyId: string,
    webhookId: string,
  ): Promise<{ event: EventView; delivery: Schemas['WebhookDeliveryDetail'] }> {
    const webhook = await this.webhookOf(companyId, PLATFORM, webhookId);
    const type = storedWebhookEvent(webhook.event);
    const build = this.tests.samples[type];
    if (!build) throw new Error(`no sample payload for ${type}`);
    const now = await this.clock.now(companyId);
    const event: NewEvent = {
      id: randomUUID(),
      companyId,
      type,
      payload: build(await this.sampleContext(companyId, now)),
      at: now,
      isTest: true,
      dispatchedAt: new Date(),
    };
    const sent = await this.worker.sendTest(
      webhook,
      this.testDeliveryRow(event, webhook.id),
      recordEventsPart([event]),
    );
    const found = await repo.findDeliveryWithAttempts(this.db, companyId, PLATFORM, webhook.id, sent.id);
    if (!found) throw errors.missing('delivery');
    return {
      event: eventViewOf(event, this.environment),
      delivery: deliveryDetailView(found.delivery, found.attempts),
    };
  }

  private async sampleContext(companyId: string, now: Date): Promise<SampleContext> {
    const company = await this.tests.companies.get(companyId);
    const key = await this.tests.companies.receivingKey(companyId, undefined);
    return {
      company,
      party: {
        company_id: companyId,
        company_name: company.name,
        company_tax_id: company.tax_id,
        account_id: key?.account_id ?? `test-account-${companyId}`,
        branch: key?.branch ?? '0001',
        account_number: key?.account_number ?? '0000000',
        status: 'OPEN',
      },
      pixKey: key?.key ?? '00000000-0000-4000-8000-000000000000',
      now,
      suffix: randomBytes(6).toString('hex'),
      publicUrl: this.config.publicUrl,
    };
  }

  // ---- the Pix API's webhooks (kinds pix, rec, cobr) ----

  async listPixWebhooks(companyId: string, page: Page) {
    checkSkip(page);
    const { rows, total } = await repo.listPixApiWebhooks(this.db, companyId, page.skip, page.limit);
    return { webhooks: rows.map(pixWebhookView), total };
  }

  async pixDeliveries(companyId: string, webhookId: string, page: Page) {
    await this.webhookOf(companyId, PIX_KINDS, webhookId);
    const { rows, total } = await this.deliveryPage(companyId, webhookId, page);
    return { deliveries: rows.map((r) => pixDeliveryView(r.delivery, r.attempts)), total };
  }

  async pixDelivery(companyId: string, webhookId: string, deliveryId: string) {
    return this.deliveryOf(companyId, PIX_KINDS, webhookId, deliveryId);
  }

  async redeliverPix(companyId: string, webhookId: string, deliveryId: string) {
    const { delivery, attempts } = await this.redeliverOf(companyId, PIX_KINDS, webhookId, deliveryId);
    return pixDeliveryView(delivery, attempts);
  }

  // ---- shared ----

  private async deliveryPage(companyId: string, webhookId: string, page: Page) {
    checkSkip(page);
    return repo.listDeliveriesOfWebhook(this.db, companyId, webhookId, page.skip, page.limit);
  }

  private async deliveryOf(companyId: string, kinds: readonly WebhookKind[], webhookId: string, deliveryId: string) {
    if (webhookId.includes('\u0000') || deliveryId.includes('\u0000')) throw errors.missing('delivery');
    const found = await repo.findDeliveryWithAttempts(this.db, companyId, kinds, webhookId, deliveryId);
    if (!found) throw errors.missing('delivery');
    return deliveryDetailView(found.delivery, found.attempts);
  }

  private async redeliverOf(companyId: string, kinds: readonly WebhookKind[], webhookId: string, deliveryId: string) {
    const webhook = await this.webhookOf(companyId, kinds, webhookId);
    if (deliveryId.includes('\u0000')) throw errors.missing('delivery');
    const found = await repo.findDeliveryOfWebhook(this.db, companyId, webhookId, deliveryId);
    if (!found) throw errors.missing('delivery');
    const leased = await this.worker.redeliver(companyId, webhook, deliveryId);
    if (!leased) throw errors.badRequest('This delivery is being attempted right now; try again in a few seconds');
    const after = await repo.findDeliveryOfWebhook(this.db, companyId, webhookId, deliveryId);
    if (!after) throw errors.missing('delivery');
    const attempts = await repo.attemptsOf(this.db, [after.id]);
    return { delivery: after, attempts: attempts.get(after.id)! };
  }

  private async webhookOf(companyId: string, kinds: readonly WebhookKind[], id: string): Promise<Webhook> {
    // An id the database cannot even hold (NUL) names no webhook.
    if (id.includes('\u0000')) throw errors.missing('webhook');
    const webhook = await repo.findWebhookOfKinds(this.db, companyId, kinds, id);
    if (!webhook) throw errors.missing('webhook');
    return webhook;
  }
}
