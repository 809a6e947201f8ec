// Table types of the database, one file per area under tables/, one XTable per table
// (Kysely's Selectable/Insertable/Updateable). jsonb columns are written as JSON text and
// read back parsed on both drivers.
import type { Kysely } from 'kysely';
import type { BoletosTables } from './tables/boletos';
import type { CatalogTables } from './tables/catalog';
import type { ChargesTables } from './tables/charges';
import type { CoreTables } from './tables/core';
import type { DashboardTables } from './tables/dashboard';
import type { KycTables } from './tables/kyc';
import type { ExtrasTables } from './tables/extras';
import type { MoneyTables } from './tables/money';
import type { PaymentsTables } from './tables/payments';
import type { PixInTables } from './tables/pixin';
import type { RecurrencesTables } from './tables/recurrences';
import type { RequestLogTables } from './tables/request-logs';
import type { TlsTables } from './tables/tls';
import type { WebhooksTables } from './tables/webhooks';

export * from './tables/boletos';
export * from './tables/catalog';
export * from './tables/charges';
export * from './tables/core';
export * from './tables/dashboard';
export * from './tables/kyc';
export * from './tables/extras';
export * from './tables/money';
export * from './tables/payments';
export * from './tables/pixin';
export * from './tables/recurrences';
export * from './tables/request-logs';
export * from './tables/tls';
export * from './tables/webhooks';

export interface Database
  extends
    CoreTables,
    DashboardTables,
    MoneyTables,
    CatalogTables,
    ChargesTables,
    PixInTables,
    PaymentsTables,
    WebhooksTables,
    ExtrasTables,
    KycTables,
    RecurrencesTables,
    RequestLogTables,
    BoletosTables,
    TlsTables {}

// The database handle every repository takes: the pool or a transaction.
export type Db = Kysely<Database>;
