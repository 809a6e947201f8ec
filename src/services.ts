// The services of every area, built once per process over one database handle.
import type { Kysely } from 'kysely';
import type { AccountsService } from './accounts/accounts.service';
import { buildChargesServices, type ChargesServices } from './charges/charges.module';
import { CustomersService } from './customers/customers.service';
import { QrCodesService } from './qrcodes/qrcodes.service';
import { TransactionsService } from './transactions/transactions.service';
import { type Config, secretsBoxOf } from './config';
import type { Database } from './db/schema';
import { IdentityService } from './identity/identity.service';
import { OAuthService } from './identity/oauth.service';
import { Scheduler } from './jobs/scheduler';
import type { Clock } from './db/clock';
import type { ChangeFeed } from './db/change-feed';
import { CompanyClock, CompanyDirectory } from './identity/companies.service';
import type { Logger } from 'pino';
import { SandboxService } from './sandbox/sandbox.service';
import type { PixInService } from './pixin/pixin.service';
import { buildPixInService } from './pixin/pixin.module';
import { FundsRecoveryService } from './funds-recovery/funds-recovery.service';
import { DisputesService } from './disputes/disputes.service';
import type { CashbackService } from './cashback/cashback.service';
import { buildCashbackService } from './cashback/cashback.module';
import { buildSubscriptionsServices, type SubscriptionsServices } from './subscriptions/subscriptions.module';
import { PayloadKeyService } from './signing/payload-keys.service';
import { SigningKeyService } from './signing/signing.service';
import { platformScopes } from '../generated/platform.scopes';
import { pixScopes } from '../generated/pix.scopes';
import { buildWebhookServices, type WebhookServices } from './webhooks/webhooks.module';
import type { EventsService } from './events/events.service';
import { buildEventsService } from './events/events.module';
import { eventSamples } from './event-samples';
import { buildMoneyOutServices, type MoneyOutServices } from './payments/money-out.module';
import { buildKycServices, type KycServices } from './kyc/kyc.module';
import { PartnersService } from './partners/partners.service';
import { buildRecurrencesServices, type RecurrencesServices } from './recurrences/recurrences.module';
import { SubAccountsService } from './subaccounts/subaccounts.service';
import { TransfersService } from './transfers/transfers.service';
import { StatementService } from './transfers/statement.service';
import { DecodeService } from './decode/decode.service';
import type { RequestLogService } from './request-logs/request-logs.service';
import { buildRequestLogService } from './request-logs/request-logs.module';
import { DashboardSessionService } from './dashboard/sessions.service';
import { DirectoryService } from './directory/directory.service';
import { ReceiptsService } from './receipts/receipts.service';
import { BoletosService } from './boletos/boletos.service';
import type { TlsAuthorityService } from './tls/authority.service';
import type { CertificatesService } from './tls/certificates.service';
import type { WebhookTlsService } from './tls/webhook-tls.service';
import { buildTlsServices } from './tls/tls.module';

// Every service by name: handlers reach them as ctx.services.<name>.
export interface Services {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  companies: CompanyDirectory;
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
  fundsRecovery: FundsRecoveryService;
  disputes: DisputesService;
  cashback: CashbackService;
  subaccounts: SubAccountsService;
  transfers: TransfersService;
  statement: StatementService;
  decode: DecodeService;
  requestLogs: RequestLogService;
  directory: DirectoryService;
  receipts: ReceiptsService;
  boletos: BoletosService;
  tlsAuthority: TlsAuthorityService;
  certificates: CertificatesService;
  webhookTls: WebhookTlsService;
  subscriptions: SubscriptionsServices['subscriptions'];
  installments: SubscriptionsServices['installments'];
  events: EventsService;
  webhooks: WebhookServices['webhooks'];
  pixWebhooks: WebhookServices['pixWebhooks'];
  webhookDelivery: WebhookServices['webhookDelivery'];
  eventStreams: WebhookServices['eventStreams'];
  accountRegisters: MoneyOutServices['accountRegisters'];
  limits: MoneyOutServices['limits'];
  rail: MoneyOutServices['rail'];
  pixKeys: MoneyOutServices['pixKeys'];
  keyLookups: MoneyOutServices['keyLookups'];
  payments: MoneyOutServices['payments'];
  idempotency: MoneyOutServices['idempotency'];
  dashboardSessions: DashboardSessionService;
}

export function buildServices(config: Config, db: Kysely<Database>, changes: ChangeFeed, log: Logger): Services {
  const jobs = new Scheduler(log);
  const companies = new CompanyDirectory(db, changes);
  const clock = new CompanyClock(companies);
  const keys = new SigningKeyService(db, secretsBoxOf(config));
  const payloadKeys = new PayloadKeyService(keys, config.publicUrl);
  const identity = new IdentityService(db, clock, companies, changes, new Set([...platformScopes, ...pixScopes]));
  const oauth = new OAuthService(identity, keys, pixScopes);
  const sandbox = new SandboxService(identity, clock);
  const pixin = buildPixInService(config, db, clock, jobs);
  const tls = buildTlsServices({ config, db, clock, changes, identity, companies });
  const webhooks = buildWebhookServices({ config, db, clock, keys, jobs, log, companies, changes, tls, eventSamples });
  const charges = buildChargesServices(config, db, clock, payloadKeys, jobs, companies);
  const kyc = buildKycServices(config, db, clock, jobs, log);
  const partners = new PartnersService(db, clock, new Set([...platformScopes, ...pixScopes]));
  const fundsRecovery = new FundsRecoveryService(db, clock);
  const disputes = new DisputesService(db, clock);
  const cashback = buildCashbackService(db, clock, jobs);
  const recurrences = buildRecurrencesServices(config, db, clock, payloadKeys, jobs);
  const subscriptions = buildSubscriptionsServices(db, clock, jobs, charges.platform, recurrences, config.publicUrl);
  const moneyOut = buildMoneyOutServices(config, db, clock, jobs, companies);
  const transactions = new TransactionsService(db);
  return {
    ...tls,
    recurrences,
    config,
    db,
    clock,
    companies,
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
    fundsRecovery,
    disputes,
    cashback,
    subscriptions: subscriptions.subscriptions,
    installments: subscriptions.installments,
    customers: new CustomersService(db, clock),
    qrcodes: new QrCodesService(db, clock, config.publicUrl),
    transactions,
    receipts: new ReceiptsService(transactions, clock),
    boletos: new BoletosService(db, clock, config.publicUrl),
    subaccounts: new SubAccountsService(db, clock, companies),
    transfers: new TransfersService(db, clock),
    statement: new StatementService(db),
    decode: new DecodeService(config.publicUrl),
    requestLogs: buildRequestLogService(config, db, jobs, log),
    directory: new DirectoryService(),
    events: buildEventsService(config, db, jobs),
    ...webhooks,
    accounts: moneyOut.accounts,
    accountRegisters: moneyOut.accountRegisters,
    limits: moneyOut.limits,
    rail: moneyOut.rail,
    pixKeys: moneyOut.pixKeys,
    keyLookups: moneyOut.keyLookups,
    payments: moneyOut.payments,
    idempotency: moneyOut.idempotency,
    dashboardSessions: new DashboardSessionService(db, changes, identity, config.dashboard),
  };
}
