// The services of every area, built once per process over one database handle.
import type { Kysely } from 'kysely';
import type { AccountsService } from './accounts/accounts.service';
import { buildChargesServices, type ChargesServices } from './charges/charges.module';
import { CustomersService } from './customers/customers.service';
import { QrCodesService } from './qrcodes/qrcodes.service';
import { TransactionsService } from './transactions/transactions.service';
import type { Config } from './config';
import type { Database } from './db/schema';
import { IdentityService } from './identity/identity.service';
import { OAuthService } from './identity/oauth.service';
import { Scheduler } from './jobs/scheduler';
import { DatabaseClock, type Clock } from './lib/clock';
import type { Logger } from 'pino';
import { SandboxService } from './sandbox/sandbox.service';
import { PixInService } from './pixin/pixin.service';
import { MedService } from './med/med.service';
import { DisputesService } from './disputes/disputes.service';
import { CashbackService } from './cashback/cashback.service';
import { buildSubscriptionsService } from './subscriptions/subscriptions.module';
import type { SubscriptionsService } from './subscriptions/subscriptions.service';
import { PayloadKeyService } from './signing/payload-keys.service';
import { SigningKeyService } from './signing/signing.service';
import { platformScopes } from '../generated/platform.operations';
import { pixScopes } from '../generated/pix.operations';
import { buildWebhookServices, type WebhookServices } from './webhooks/webhooks.module';
import { buildMoneyOutServices, type MoneyOutServices } from './payments/money-out.module';
import { buildKycServices, type KycServices } from './kyc/kyc.module';
import { PartnersService } from './partners/partners.service';
import { buildRecurrencesServices, type RecurrencesServices } from './recurrences/recurrences.module';

export interface Services extends WebhookServices, MoneyOutServices {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  jobs: Scheduler;
  keys: SigningKeyService;
  payloadKeys: PayloadKeyService;
  identity: IdentityService;
  accounts: AccountsService;
  customers: CustomersService;
  qrcodes: QrCodesService;
  transactions: TransactionsService;
  oauth: OAuthService;
  sandbox: SandboxService;
  pixin: PixInService;
  charges: ChargesServices;
  kyc: KycServices;
  partners: PartnersService;
  recurrences: RecurrencesServices;
  med: MedService;
  disputes: DisputesService;
  cashback: CashbackService;
  subscriptions: SubscriptionsService;
}

export function buildServices(config: Config, db: Kysely<Database>, log: Logger): Services {
  const jobs = new Scheduler(log);
  const clock = new DatabaseClock(db);
  const keys = new SigningKeyService(db);
  const payloadKeys = new PayloadKeyService(keys, config.publicUrl);
  const identity = new IdentityService(db, clock, new Set([...platformScopes, ...pixScopes]));
  const oauth = new OAuthService(identity, keys, pixScopes);
  const sandbox = new SandboxService(identity, clock);
  const catalog = {
    customers: new CustomersService(db, clock),
    qrcodes: new QrCodesService(db, clock, config.publicUrl),
    transactions: new TransactionsService(db),
  };
  const pixin = new PixInService(db, clock, jobs, config);
  const webhooks = buildWebhookServices(config, db, clock, keys, jobs, log);
  const charges = buildChargesServices(config, db, clock, payloadKeys, jobs);
  const kyc = buildKycServices(config, db, clock);
  const partners = new PartnersService(db, clock, new Set([...platformScopes, ...pixScopes]));
  const med = new MedService(db, clock);
  const disputes = new DisputesService(db, clock);
  const cashback = new CashbackService(db, clock);
  const subscriptions = buildSubscriptionsService(db, clock, jobs, charges.platform, config.publicUrl);
  const recurrences = buildRecurrencesServices(config, db, clock, payloadKeys, jobs);
  return {
    recurrences,
    config,
    db,
    clock,
    jobs,
    keys,
    payloadKeys,
    identity,
    oauth,
    sandbox,
    pixin,
    charges,
    kyc,
    partners,
    med,
    disputes,
    cashback,
    subscriptions,
    ...catalog,
    ...webhooks,
    ...buildMoneyOutServices(config, db, clock, jobs),
  };
}
