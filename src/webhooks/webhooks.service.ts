// Webhooks of the platform API: registration (one event, one URL, a signing secret shown
// once), listing, removal, the delivery log, manual redelivery and the RSA public keys.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Config, secretsBoxOf } from '../config';
import type { Database, Webhook, WebhookAttempt, WebhookDelivery } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal';
import type { Clock } from '../lib/clock';
import { randomAlphanumeric } from '../lib/ids';
import type { WebhookDeliveryService } from './delivery.service';
import { checkWebhookUrl } from './url-guard';
import { storedWebhookEvent } from './webhook-events';
import type { components } from '../../generated/platform.types';
import type { WebhookKeys } from './webhook-keys';
import * as repo from './webhooks.repository';
import { openedWebhook, sealedWebhook, sealWebhooksAtRest } from './webhook-secrets';

export const DEFAULT_EVENT = 'OPENPIX:TRANSACTION_RECEIVED';

export type CreateWebhookInput = components['schemas']['WebhookCreatePayload']['webhook'];

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

export function deliveryView(d: WebhookDelivery, attempts: WebhookAttempt[]): components['schemas']['WebhookDelivery'] {
  return {
    id: d.id,
    webhookId: d.webhook_id,
    event: storedWebhookEvent(d.event_type),
    status: d.status,
    attempts: attempts.map((a) => ({
      time: a.attempted_at.toISOString(),
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      error: a.error,
    })),
    nextAttemptAt: d.status === 'PENDING' && d.next_attempt_at ? d.next_attempt_at.toISOString() : null,
    createdAt: d.created_at.toISOString(),
  };
}

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

export class WebhooksService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly delivery: WebhookDeliveryService,
    private readonly keys: WebhookKeys,
  ) {}

  async create(principal: Principal, input: CreateWebhookInput) {
    checkInput(input);
    const check = await checkWebhookUrl(input.url, this.config.sandbox);
    if (!check.ok)
      throw errors.badRequest(`Webhook url ${check.reason}`, [
        { field: 'webhook.url', in: 'body', message: check.reason },
      ]);
    const event = input.event ?? DEFAULT_EVENT;
    const secret = newWebhookSecret();
    try {
      const created = await this.db.transaction().execute(async (trx) => {
        if (await repo.findPlatformDuplicate(trx, principal.companyId, event, input.url))
          throw errors.badRequest(DUPLICATE);
        const now = await this.clock.now(principal.companyId, trx);
        return repo.insertWebhook(
          trx,
          sealedWebhook(secretsBoxOf(this.config), {
            id: newWebhookId(),
            company_id: principal.companyId,
            kind: 'platform' as const,
            event,
            chave: null,
            name: input.name,
            url: input.url,
            authorization: input.authorization ?? null,
            is_active: input.isActive ?? true,
            secret,
            created_at: now,
            updated_at: now,
          }),
        );
      });
      return { ...webhookView(openedWebhook(secretsBoxOf(this.config), created)), secret };
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.badRequest(DUPLICATE);
      throw error;
    }
  }

  // Seals the secrets of webhooks stored in clear or under the previous key (at start-up).
  async sealAtRest(): Promise<number> {
    return sealWebhooksAtRest(this.db, secretsBoxOf(this.config));
  }

  async list(principal: Principal, url: string | undefined, page: Page) {
    checkSkip(page);
    const { rows, total } = await repo.listPlatformWebhooks(this.db, principal.companyId, url, page.skip, page.limit);
    const box = secretsBoxOf(this.config);
    return { webhooks: rows.map((row) => webhookView(openedWebhook(box, row))), total };
  }

  // Removes the webhook with its delivery log; pending deliveries are not attempted again.
  async remove(principal: Principal, id: string): Promise<void> {
    if (id.includes('\u0000')) throw errors.missing('webhook');
    if (!(await repo.deleteWebhookById(this.db, principal.companyId, 'platform', id))) throw errors.missing('webhook');
  }

  // Both formats: `public_keys` as the public reference answers it (receivers written for it
  // read `key` of the `is_current` one), `keys` with the kid of X-Pixgate-Key-Id and the JWK.
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

  async deliveries(principal: Principal, webhookId: string, page: Page) {
    checkSkip(page);
    await this.webhookOf(principal, webhookId);
    const { rows, total } = await repo.listDeliveriesOfWebhook(
      this.db,
      principal.companyId,
      webhookId,
      page.skip,
      page.limit,
    );
    const attempts = await repo.attemptsOf(
      this.db,
      rows.map((r) => r.id),
    );
    return { deliveries: rows.map((d) => deliveryView(d, attempts.get(d.id)!)), total };
  }

  // One attempt now (synchronous, bounded by the delivery timeout); answers the delivery.
  async redeliver(principal: Principal, webhookId: string, deliveryId: string) {
    const webhook = await this.webhookOf(principal, webhookId);
    if (deliveryId.includes('\u0000')) throw errors.missing('delivery');
    const found = await repo.findDeliveryOfWebhook(this.db, principal.companyId, webhookId, deliveryId);
    if (!found) throw errors.missing('delivery');
    const leased = await this.delivery.redeliver(principal.companyId, webhook, deliveryId);
    if (!leased) throw errors.badRequest('This delivery is being attempted right now; try again in a few seconds');
    const after = await repo.findDeliveryOfWebhook(this.db, principal.companyId, webhookId, deliveryId);
    if (!after) throw errors.missing('delivery');
    const attempts = await repo.attemptsOf(this.db, [after.id]);
    return deliveryView(after, attempts.get(after.id)!);
  }

  private async webhookOf(principal: Principal, id: string): Promise<Webhook> {
    // An id the database cannot even hold (NUL) names no webhook.
    if (id.includes('\u0000')) throw errors.missing('webhook');
    const webhook = await repo.findWebhook(this.db, principal.companyId, 'platform', id);
    if (!webhook) throw errors.missing('webhook');
    return webhook;
  }
}
