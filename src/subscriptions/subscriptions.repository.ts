// All SQL of subscriptions and the charges they generated.
import { type Kysely, sql } from 'kysely';
import { companyNowSql } from '../db/clock-sql';
import type { Database, NewSubscription, Subscription } from '../db/schema';

type Db = Kysely<Database>;

export async function insertSubscription(db: Db, row: NewSubscription): Promise<Subscription> {
  return db.insertInto('subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<Subscription | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId)
    .executeTakeFirst();
}

export async function findByGlobalId(db: Db, companyId: string, globalId: string): Promise<Subscription | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('global_id', '=', globalId)
    .executeTakeFirst();
}

// Active subscriptions whose next charge is due, locked for the caller (others skip them).
// ACTIVE subscriptions whose next charge is due on their company's clock.
export async function claimDue(db: Db, limit: number): Promise<Subscription[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', '=', 'ACTIVE')
    .where('next_charge_at', '<=', companyNowSql(sql.ref('subscriptions.company_id')))
    .orderBy('next_charge_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

// Records installment n (once) and moves the schedule on, only if no one did it first.
export async function recordGenerated(
  db: Db,
  sub: Subscription,
  installment: number,
  chargeCorrelationId: string,
  next: { next_charge_at: Date | null; status: Subscription['status'] },
  at: Date,
): Promise<boolean> {
  const moved = await db
    .updateTable('subscriptions')
    .set({ charges_generated: installment, next_charge_at: next.next_charge_at, status: next.status, updated_at: at })
    .where('id', '=', sub.id)
    .where('charges_generated', '=', installment - 1)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return false;
  await db
    .insertInto('subscription_charges')
    .values({ subscription_id: sub.id, installment, charge_correlation_id: chargeCorrelationId, created_at: at })
    .execute();
  return true;
}

// The subscription behind a payment link, with the charge correlationID of its latest installment.
export async function findByPaymentLinkId(
  db: Db,
  paymentLinkId: string,
): Promise<{ sub: Subscription; latestChargeCorrelationId?: string } | undefined> {
  const sub = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('payment_link_id', '=', paymentLinkId)
    .executeTakeFirst();
  if (!sub) return undefined;
  const latest = await db
    .selectFrom('subscription_charges')
    .select('charge_correlation_id')
    .where('subscription_id', '=', sub.id)
    .orderBy('installment', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest ? { sub, latestChargeCorrelationId: latest.charge_correlation_id } : { sub };
}
