// All SQL of account limits and of the usage they are checked against (the PIX_OUT and
// WITHDRAW transactions of the account, written in the same transaction as their debit).
import { type OutflowWindows, outflowUsageQuery } from '../transactions/transactions.public';
import { sql } from 'kysely';
import type { AccountLimitsRow, Db } from '../db/schema';

export async function findLimits(db: Db, accountId: string): Promise<AccountLimitsRow | undefined> {
  return db.selectFrom('account_limits').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function upsertLimits(db: Db, row: AccountLimitsRow): Promise<void> {
  await db
    .insertInto('account_limits')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...row }))
    .execute();
}

export type UsageWindows = OutflowWindows;

export interface Usage {
  month: number;
  daytime: number;
  nighttime: number;
}

// Money out of the account this month, and today by daytime and nighttime.
export async function usage(db: Db, accountId: string, w: UsageWindows): Promise<Usage> {
  const row = await outflowUsageQuery(db, accountId, w).executeTakeFirstOrThrow();
  return { month: Number(row.month), daytime: Number(row.daytime), nighttime: Number(row.nighttime) };
}

// The account's own limits (if it has some) and its usage, in one statement.
export async function limitsAndUsage(
  db: Db,
  accountId: string,
  w: UsageWindows,
): Promise<{ limits: AccountLimitsRow | undefined; used: Usage }> {
  const row = await outflowUsageQuery(db, accountId, w)
    .select((eb) =>
      eb
        .selectFrom('account_limits')
        .select(sql<AccountLimitsRow>`row_to_json(account_limits)`.as('l'))
        .where('account_limits.account_id', '=', accountId)
        .as('limits'),
    )
    .executeTakeFirstOrThrow();
  const limits = row.limits ? { ...row.limits, updated_at: new Date(row.limits.updated_at) } : undefined;
  return {
    limits,
    used: { month: Number(row.month), daytime: Number(row.daytime), nighttime: Number(row.nighttime) },
  };
}
