// All SQL of subscriptions and their installments (the charges they generated).
import { type Insertable, sql, type Updateable } from 'kysely';
import { companyNowSql } from '../db/clock-sql';
import { type WritePart, withParts } from '../db/together';
import type {
  Db,
  NewSubscription,
  Subscription,
  SubscriptionChargesTable,
  SubscriptionInstallment,
  SubscriptionsTable,
} from '../db/schema';
import { pagedRows } from '../db/paging';

// `also`: writes that go with it in the same statement (its event).
export async function insertSubscription(db: Db, row: NewSubscription, also: WritePart[] = []): Promise<Subscription> {
  return withParts(db, also).insertInto('subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findSubscriptionByCorrelationId(
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

// ACTIVE subscriptions whose next charge is due on their company's clock, locked for the
// caller (others skip them).
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

// Records an installment (once) and moves the schedule on, only if no one did it first.
export async function recordGenerated(
  db: Db,
  row: Insertable<SubscriptionChargesTable>,
  next: { next_charge_at: Date | null; status: Subscription['status'] },
): Promise<boolean> {
  const moved = await db
    .updateTable('subscriptions')
    .set({
      charges_generated: row.installment,
      next_charge_at: next.next_charge_at,
      status: next.status,
      updated_at: row.created_at,
    })
    .where('id', '=', row.subscription_id)
    .where('charges_generated', '=', Number(row.installment) - 1)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return false;
  await db.insertInto('subscription_charges').values(row).execute();
  return true;
}

// A company's subscription by globalID or correlationID.
function selectByAnyId(db: Db, companyId: string, id: string) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('global_id', '=', id), eb('correlation_id', '=', id)]))
    .orderBy(sql`global_id = ${id}`, 'desc')
    .limit(1);
}

export async function findSubscriptionByAnyId(
  db: Db,
  companyId: string,
  id: string,
): Promise<Subscription | undefined> {
  return selectByAnyId(db, companyId, id).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockByAnyId(db: Db, companyId: string, id: string): Promise<Subscription | undefined> {
  return selectByAnyId(db, companyId, id).forUpdate().executeTakeFirst();
}

// A subscription by its own id, locked (the job's generation of one installment).
export async function lockSubscription(db: Db, id: string): Promise<Subscription | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateSubscription(
  db: Db,
  id: string,
  changes: Updateable<SubscriptionsTable>,
  also: WritePart[] = [],
): Promise<Subscription> {
  return withParts(db, also)
    .updateTable('subscriptions')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// A page of the company's subscriptions, newest first, and how many it has.
export async function listSubscriptions(db: Db, companyId: string, skip: number, limit: number) {
  const ofCompany = db.selectFrom('subscriptions').where('company_id', '=', companyId);
  const list = ofCompany.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  const countPastEnd = async () =>
    Number((await ofCompany.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return pagedRows(list, { skip, limit }, { countPastEnd });
}

// A page of a subscription's installments, newest first, and how many it has.
export async function listInstallments(db: Db, subscriptionId: string, skip: number, limit: number) {
  const ofSubscription = db.selectFrom('subscription_charges').where('subscription_id', '=', subscriptionId);
  const list = ofSubscription.selectAll().orderBy('installment', 'desc');
  const countPastEnd = async () =>
    Number((await ofSubscription.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return pagedRows(list, { skip, limit }, { countPastEnd });
}

// An installment of the company (by its globalID) with its subscription, in one statement.
function selectInstallment(db: Db, companyId: string, globalId: string) {
  return db
    .selectFrom('subscription_charges')
    .innerJoin('subscriptions', 'subscriptions.id', 'subscription_charges.subscription_id')
    .selectAll('subscriptions')
    .select([
      'subscription_charges.installment as i_installment',
      'subscription_charges.global_id as i_global_id',
      'subscription_charges.value as i_value',
      'subscription_charges.scheduled_at as i_scheduled_at',
      'subscription_charges.charge_correlation_id as i_charge_correlation_id',
      'subscription_charges.cobr_txid as i_cobr_txid',
      'subscription_charges.created_at as i_created_at',
    ])
    .where('subscriptions.company_id', '=', companyId)
    .where('subscription_charges.global_id', '=', globalId);
}

export interface InstallmentWithSubscription {
  installment: SubscriptionInstallment;
  sub: Subscription;
}

function splitInstallment(
  row: Awaited<ReturnType<ReturnType<typeof selectInstallment>['executeTakeFirst']>>,
): InstallmentWithSubscription | undefined {
  if (!row) return undefined;
  const {
    i_installment,
    i_global_id,
    i_value,
    i_scheduled_at,
    i_charge_correlation_id,
    i_cobr_txid,
    i_created_at,
    ...sub
  } = row;
  return {
    installment: {
      subscription_id: sub.id,
      installment: i_installment,
      global_id: i_global_id,
      value: i_value,
      scheduled_at: i_scheduled_at,
      charge_correlation_id: i_charge_correlation_id,
      cobr_txid: i_cobr_txid,
      created_at: i_created_at,
    },
    sub,
  };
}

export async function findInstallment(
  db: Db,
  companyId: string,
  globalId: string,
): Promise<InstallmentWithSubscription | undefined> {
  return splitInstallment(await selectInstallment(db, companyId, globalId).executeTakeFirst());
}

// The same, the installment row locked FOR UPDATE until the transaction ends.
export async function lockInstallment(
  db: Db,
  companyId: string,
  globalId: string,
): Promise<InstallmentWithSubscription | undefined> {
  return splitInstallment(
    await selectInstallment(db, companyId, globalId).forUpdate('subscription_charges').executeTakeFirst(),
  );
}

// A new recurring charge (and its value) for an installment.
export async function setInstallmentCobr(
  db: Db,
  installment: SubscriptionInstallment,
  cobrTxid: string,
  value: number,
): Promise<SubscriptionInstallment> {
  return db
    .updateTable('subscription_charges')
    .set({ cobr_txid: cobrTxid, value })
    .where('subscription_id', '=', installment.subscription_id)
    .where('installment', '=', installment.installment)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// The subscription behind a payment link, with the charge correlationID of its latest installment.
export async function findSubscriptionByPaymentLinkId(
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
    .where('charge_correlation_id', 'is not', null)
    .orderBy('installment', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest?.charge_correlation_id ? { sub, latestChargeCorrelationId: latest.charge_correlation_id } : { sub };
}
