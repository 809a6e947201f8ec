// Table types of the database, one file per area under tables/, one XTable per table
// (Kysely's Selectable/Insertable/Updateable). jsonb columns are written as JSON text and
// read back parsed on both drivers.
import type { Kysely } from 'kysely';
import type { AccountsTables } from './tables/accounts';
import type { BoletosTables } from './tables/boletos';
import type { CashbackTables } from './tables/cashback';
import type { ChargesTables } from './tables/charges';
import type { CustomersTables } from './tables/customers';
import type { DashboardTables } from './tables/dashboard';
import type { DisputesTables } from './tables/disputes';
import type { EventsTables } from './tables/events';
import type { FundsRecoveryTables } from './tables/funds-recovery';
import type { IdempotencyTables } from './tables/idempotency';
import type { IdentityTables } from './tables/identity';
import type { KeysTables } from './tables/keys';
import type { KycTables } from './tables/kyc';
import type { LedgerTables } from './tables/ledger';
import type { LimitsTables } from './tables/limits';
import type { PartnersTables } from './tables/partners';
import type { PaymentsTables } from './tables/payments';
import type { PixInTables } from './tables/pixin';
import type { QrCodesTables } from './tables/qrcodes';
import type { RecurrencesTables } from './tables/recurrences';
import type { RequestLogTables } from './tables/request-logs';
import type { SandboxTables } from './tables/sandbox';
import type { SigningTables } from './tables/signing';
import type { SubscriptionsTables } from './tables/subscriptions';
import type { TlsTables } from './tables/tls';
import type { TransactionsTables } from './tables/transactions';
import type { WebhooksTables } from './tables/webhooks';

export * from './tables/accounts';
export * from './tables/boletos';
export * from './tables/cashback';
export * from './tables/charges';
export * from './tables/customers';
export * from './tables/dashboard';
export * from './tables/disputes';
export * from './tables/events';
export * from './tables/funds-recovery';
export * from './tables/idempotency';
export * from './tables/identity';
export * from './tables/keys';
export * from './tables/kyc';
export * from './tables/ledger';
export * from './tables/limits';
export * from './tables/partners';
export * from './tables/payments';
export * from './tables/pixin';
export * from './tables/qrcodes';
export * from './tables/recurrences';
export * from './tables/request-logs';
export * from './tables/sandbox';
export * from './tables/signing';
export * from './tables/subscriptions';
export * from './tables/tls';
export * from './tables/transactions';
export * from './tables/webhooks';

export interface Database
  extends
    AccountsTables,
    BoletosTables,
    CashbackTables,
    ChargesTables,
    CustomersTables,
    DashboardTables,
    DisputesTables,
    EventsTables,
    FundsRecoveryTables,
    IdempotencyTables,
    IdentityTables,
    KeysTables,
    KycTables,
    LedgerTables,
    LimitsTables,
    PartnersTables,
    PaymentsTables,
    PixInTables,
    QrCodesTables,
    RecurrencesTables,
    RequestLogTables,
    SandboxTables,
    SigningTables,
    SubscriptionsTables,
    TlsTables,
    TransactionsTables,
    WebhooksTables {}

// The database handle every repository takes: the pool or a transaction.
export type Db = Kysely<Database>;
