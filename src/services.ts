// The composition root: every area's services, built once per process over one database
// handle, each by its area's module (src/<area>/<area>.module.ts); the background jobs they
// run are the table of src/job-table.ts.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type AccountsServices, buildAccountsServices } from './accounts/accounts.module';
import type { BoletosService } from './boletos/boletos.service';
import { buildBoletosService } from './boletos/boletos.module';
import type { CashbackService } from './cashback/cashback.service';
import { buildCashbackService } from './cashback/cashback.module';
import { buildChargesServices, type ChargesServices } from './charges/charges.module';
import type { Config } from './config';
import type { CustomersService } from './customers/customers.service';
import { buildCustomersService } from './customers/customers.module';
import type { DashboardSessionService } from './dashboard/sessions.service';
import { buildDashboardSessionService } from './dashboard/dashboard.module';
import type { ChangeFeed } from './db/change-feed';
import type { Clock } from './db/clock';
import type { Database } from './db/schema';
import type { DecodeService } from './decode/decode.service';
import { buildDecodeService } from './decode/decode.module';
import type { DirectoryService } from './directory/directory.service';
import { buildDirectoryService } from './directory/directory.module';
import type { DisputesService } from './disputes/disputes.service';
import { buildDisputesService } from './disputes/disputes.module';
import { eventSamples } from './event-samples';
import type { EventsService } from './events/events.service';
import { buildEventsService } from './events/events.module';
import type { IdempotencyStore } from './idempotency/idempotency.service';
import { buildIdempotencyStore } from './idempotency/idempotency.module';
import { buildIdentityServices, type IdentityServices } from './identity/identity.module';
import { buildImagesServices, type ImagesServices } from './images/images.module';
import { Scheduler } from './jobs/scheduler';
import { buildKeysServices, type KeysServices } from './keys/keys.module';
import { buildKycServices, type KycServices } from './kyc/kyc.module';
import type { LimitsService } from './limits/limits.service';
import { buildLimitsService } from './limits/limits.module';
import type { FundsRecoveryService } from './funds-recovery/funds-recovery.service';
import { buildFundsRecoveryService } from './funds-recovery/funds-recovery.module';
import type { PartnersService } from './partners/partners.service';
import { buildPartnersService } from './partners/partners.module';
import type { PaymentsService } from './payments/payments.service';
import { buildPaymentsService } from './payments/payments.module';
import type { PixInService } from './pixin/pixin.service';
import { buildPixInService } from './pixin/pixin.module';
import type { QrCodesService } from './qrcodes/qrcodes.service';
import { buildQrCodesService } from './qrcodes/qrcodes.module';
import type { Rail } from './rail/rail.public';
import { buildRail } from './rail/rail.module';
import type { ReceiptsService } from './receipts/receipts.service';
import { buildReceiptsService } from './receipts/receipts.module';
import { buildRecurrencesServices, type RecurrencesServices } from './recurrences/recurrences.module';
import type { RequestLogService } from './request-logs/request-logs.service';
import { buildRequestLogService } from './request-logs/request-logs.module';
import type { SandboxService } from './sandbox/sandbox.service';
import { buildSandboxService } from './sandbox/sandbox.module';
import { buildSigningServices, type SigningServices } from './signing/signing.module';
import type { SubAccountsService } from './subaccounts/subaccounts.service';
import { buildSubAccountsService } from './subaccounts/subaccounts.module';
import { buildSubscriptionsServices, type SubscriptionsServices } from './subscriptions/subscriptions.module';
import { buildTlsServices, type TlsServices } from './tls/tls.module';
import type { TransactionsService } from './transactions/transactions.service';
import { buildTransactionsService } from './transactions/transactions.module';
import { buildTransfersServices, type TransfersServices } from './transfers/transfers.module';
import { buildWebhookServices, type WebhookServices } from './webhooks/webhooks.module';
import { platformScopes } from '../generated/platform.scopes';
import { pixScopes } from '../generated/pix.scopes';

// Every service by name, flat, grouped by area in the order of src/'s folders (one comment per
// area): handlers reach them as ctx.services.<name>.
export interface Services {
  // the process: configuration, database, background jobs
  config: Config;
  db: Kysely<Database>;
  jobs: Scheduler;
  // accounts: a company's accounts and account registers
  accounts: AccountsServices['accounts'];
  accountRegisters: AccountsServices['accountRegisters'];
  // boletos
  boletos: BoletosService;
  // cashback
  cashback: CashbackService;
  // charges: both APIs' charges over one charge model, their locations, batches, payloads, expiry
  standardCharges: ChargesServices['standardCharges'];
  platformCharges: ChargesServices['platformCharges'];
  chargeLocs: ChargesServices['chargeLocs'];
  chargeLotes: ChargesServices['chargeLotes'];
  chargePayloads: ChargesServices['chargePayloads'];
  chargeExpiry: ChargesServices['chargeExpiry'];
  // customers
  customers: CustomersService;
  // dashboard: its sign-in sessions
  dashboardSessions: DashboardSessionService;
  // decode: what a Pix code says
  decode: DecodeService;
  // directory: the PSPs of the Pix network
  directory: DirectoryService;
  // disputes
  disputes: DisputesService;
  // events: the events API
  events: EventsService;
  // funds-recovery: MED, the special return mechanism
  fundsRecovery: FundsRecoveryService;
  // idempotency: the records of platform POSTs' Idempotency-Key
  idempotency: IdempotencyStore;
  // identity: companies and their clocks, applications, OAuth2 tokens
  companies: IdentityServices['companies'];
  clock: Clock;
  identity: IdentityServices['identity'];
  oauth: IdentityServices['oauth'];
  // images: a charge's QR code image and its payer's page
  images: ImagesServices['images'];
  paymentPages: ImagesServices['paymentPages'];
  // keys: Pix keys and the lookups of keys
  pixKeys: KeysServices['pixKeys'];
  keyLookups: KeysServices['keyLookups'];
  // kyc: onboardings, one-time codes and their delivery
  kycOnboardings: KycServices['kycOnboardings'];
  kycCodes: KycServices['kycCodes'];
  kycDelivery: KycServices['kycDelivery'];
  // limits
  limits: LimitsService;
  // partners
  partners: PartnersService;
  // payments: money out
  payments: PaymentsService;
  // pixin: money in (Pix received, refunds, devolutions)
  pixin: PixInService;
  // qrcodes
  qrcodes: QrCodesService;
  // rail: the (simulated) Pix network
  rail: Rail;
  // receipts
  receipts: ReceiptsService;
  // recurrences: Pix Automático (rec, locrec, solicrec, cobr), the payer's side in the sandbox
  recs: RecurrencesServices['recs'];
  recLocs: RecurrencesServices['recLocs'];
  recPayloads: RecurrencesServices['recPayloads'];
  solicrecs: RecurrencesServices['solicrecs'];
  cobrs: RecurrencesServices['cobrs'];
  sandboxRecs: RecurrencesServices['sandboxRecs'];
  recurrencesJob: RecurrencesServices['recurrencesJob'];
  // request-logs: each company's last API calls
  requestLogs: RequestLogService;
  // sandbox
  sandbox: SandboxService;
  // signing: pixgate's signing keys and the keys of Pix payloads
  signingKeys: SigningServices['signingKeys'];
  payloadKeys: SigningServices['payloadKeys'];
  // subaccounts
  subaccounts: SubAccountsService;
  // subscriptions: subscriptions and installments
  subscriptions: SubscriptionsServices['subscriptions'];
  installments: SubscriptionsServices['installments'];
  // tls: the sandbox CA, client certificates, the TLS side of webhook deliveries
  tlsAuthority: TlsServices['tlsAuthority'];
  certificates: TlsServices['certificates'];
  webhookTls: TlsServices['webhookTls'];
  // transactions
  transactions: TransactionsService;
  // transfers: between a company's accounts, and statements
  transfers: TransfersServices['transfers'];
  statement: TransfersServices['statement'];
  // webhooks: both APIs' webhooks, their delivery, event streams
  webhooks: WebhookServices['webhooks'];
  pixWebhooks: WebhookServices['pixWebhooks'];
  webhookDelivery: WebhookServices['webhookDelivery'];
  eventStreams: WebhookServices['eventStreams'];
}

// A company's clock moved forward: its charges now past their expiry are announced before the
// move answers; the rest that came due (due dates, retries) is left to the jobs, woken now.
function workDueByClock(expiry: ChargesServices['chargeExpiry'], jobs: Scheduler) {
  return async (companyId: string): Promise<void> => {
    await expiry.run({ companyId });
    jobs.wakeClockDriven();
  };
}

// Every service; the caller registers the job table over them (src/job-table.ts).
export function buildServices(config: Config, db: Kysely<Database>, changes: ChangeFeed, log: Logger): Services {
  const scopes = new Set([...platformScopes, ...pixScopes]);
  const jobs = new Scheduler(log);
  const { signingKeys, payloadKeys } = buildSigningServices({ config, db });
  const identityArea = buildIdentityServices({ db, changes, signingKeys, scopes, pixScopes });
  const { companies, clock, identity } = identityArea;
  const rail = buildRail(config);
  const limits = buildLimitsService({ config, db, clock });
  const keys = buildKeysServices({ db, clock, rail, companies });
  const charges = buildChargesServices({ config, db, clock, payloadKeys, companies });
  const recurrences = buildRecurrencesServices({ config, db, clock, payloadKeys });
  const { publicUrl } = config;
  const subscriptions = buildSubscriptionsServices({
    db,
    clock,
    charges: charges.platformCharges,
    recurrences,
    publicUrl,
  });
  const tls = buildTlsServices({ config, db, clock, changes, identity, companies });
  const webhookDeps = { config, db, clock, keys: signingKeys, jobs, log, companies, changes, tls, eventSamples };
  const webhooks = buildWebhookServices(webhookDeps);
  const transfers = buildTransfersServices({ db, clock });
  const transactions = buildTransactionsService({ db });
  return {
    config,
    db,
    jobs,
    ...buildAccountsServices({ db, clock, limits, companies }),
    boletos: buildBoletosService({ config, db, clock }),
    cashback: buildCashbackService({ db, clock }),
    ...charges,
    customers: buildCustomersService({ db, clock }),
    dashboardSessions: buildDashboardSessionService({ config, db, changes, identity }),
    decode: buildDecodeService({ config }),
    directory: buildDirectoryService(),
    disputes: buildDisputesService({ db, clock }),
    events: buildEventsService({ config, db }),
    idempotency: buildIdempotencyStore({ db, clock }),
    ...identityArea,
    ...buildImagesServices({ config, db, clock }),
    ...keys,
    ...buildKycServices({ config, db, clock, log }),
    limits,
    fundsRecovery: buildFundsRecoveryService({ db, clock }),
    partners: buildPartnersService({ db, clock, scopes }),
    payments: buildPaymentsService({ config, db, clock, rail, limits, keyLookups: keys.keyLookups, companies }),
    pixin: buildPixInService({ config, db, clock }),
    qrcodes: buildQrCodesService({ config, db, clock }),
    rail,
    receipts: buildReceiptsService({ transactions, clock }),
    ...recurrences,
    requestLogs: buildRequestLogService({ config, db, log }),
    sandbox: buildSandboxService({ identity, clock, clockAdvanced: workDueByClock(charges.chargeExpiry, jobs) }),
    signingKeys,
    payloadKeys,
    subaccounts: buildSubAccountsService({ db, clock, companies }),
    ...subscriptions,
    ...tls,
    transactions,
    ...transfers,
    ...webhooks,
  };
}
