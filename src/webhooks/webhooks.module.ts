// The webhooks area's services, built once per process. Its background job (the delivery's
// runOnce) is a row of src/job-table.ts; a committed event wakes it here.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { CompanyDirectory } from '../identity/companies.service';
import type { Config } from '../config';
import type { EventSamples } from '../events/events.service';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import type { Clock } from '../db/clock';
import { type ChangeFeed, EVERYTHING } from '../db/change-feed';
import type { WebhookTlsService } from '../tls/webhook-tls.service';
import type { SigningKeyService } from '../signing/signing.service';
import { OUTBOX_CHANGE, WEBHOOKS_JOB, WebhookDeliveryService } from './delivery.service';
import { PixWebhooksService } from './pix-webhooks.service';
import { WebhookKeys } from './webhook-keys';
import { WebhooksService } from './webhooks.service';
import { EventStreamService } from './event-stream.service';

export interface WebhookServices {
  webhooks: WebhooksService;
  pixWebhooks: PixWebhooksService;
  webhookDelivery: WebhookDeliveryService;
  eventStreams: EventStreamService;
}

export interface WebhookDependencies {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  keys: SigningKeyService;
  // Woken (the WEBHOOKS_JOB of the job table) when there is something to send.
  jobs: Pick<Scheduler, 'wake'>;
  log: Logger;
  companies: CompanyDirectory;
  // Heard for committed events (the outbox's trigger): the worker wakes at once.
  changes: ChangeFeed;
  // Receivers over mutual TLS: pixgate's client certificate and each company's CA bundle.
  tls: { webhookTls: WebhookTlsService };
  eventSamples: EventSamples;
}

export { WEBHOOKS_JOB } from './delivery.service';

export function buildWebhookServices(deps: WebhookDependencies): WebhookServices {
  const { config, db, clock, keys, jobs, log, companies, changes, eventSamples: samples } = deps;
  const tls = deps.tls.webhookTls;
  const webhookKeys = new WebhookKeys(keys);
  const webhookDelivery = new WebhookDeliveryService(db, config, webhookKeys, log.child({ area: 'webhooks' }), tls);
  const wake = () => jobs.wake(WEBHOOKS_JOB);
  // A committed event (the trigger on events, migration 2026_11_26_0910) wakes the worker at
  // once, here and on every other process; the job's interval stays the fallback.
  changes.subscribe((payload) => {
    if (payload !== OUTBOX_CHANGE && payload !== EVERYTHING) return;
    webhookDelivery.nudge();
    wake();
  });
  return {
    webhooks: new WebhooksService(db, clock, config, webhookDelivery, webhookKeys, { companies, samples, wake }),
    pixWebhooks: new PixWebhooksService(db, clock, config, companies),
    webhookDelivery,
    eventStreams: new EventStreamService(
      db,
      webhookKeys,
      config.sandbox ? 'TESTING' : 'PRODUCTION',
      log.child({ area: 'event-stream' }),
    ),
  };
}
