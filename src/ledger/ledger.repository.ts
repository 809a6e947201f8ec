// All SQL of balances and ledger entries. A move costs two statements: one locks (creating
// missing rows) the balances it touches and reads any earlier application of the same move id;
// one writes its entries and the new balances together.
import { sql } from 'kysely';
import type { AccountBalance, Db, LedgerBucket, LedgerEntryKind } from '../db/schema';

export interface StoredLeg {
  move_id?: string;
  account_id: string;
  kind: LedgerEntryKind;
  bucket: LedgerBucket;
  amount: number;
}

// Locks the balance rows of these accounts (creating missing ones) in id order, so that two
// moves over the same accounts never deadlock; with the legs already stored under `moveIds`.
export async function lockBalancesForMoves(
  db: Db,
  accountIds: string[],
  moveIds: string[],
  at: Date,
): Promise<{ balances: Map<string, AccountBalance>; stored: StoredLeg[] }> {
  const ids = [...new Set(accountIds)].sort();
  const { rows } = await sql<AccountBalance & { stored: StoredLeg[] | null }>`
    insert into account_balances (account_id, updated_at)
    select id, ${at}::timestamptz from unnest(${ids}::text[]) with ordinality as t(id, n) order by n
    on conflict (account_id) do update set account_id = excluded.account_id
    returning *, (
      select json_agg(json_build_object('move_id', e.move_id, 'account_id', e.account_id, 'kind', e.kind, 'bucket', e.bucket, 'amount', e.amount) order by e.id)
      from ledger_entries e where e.move_id = any(${moveIds}::text[])
    ) as stored`.execute(db);
  const stored = rows[0]?.stored ?? [];
  return {
    balances: new Map(rows.map(({ stored: _, ...b }) => [b.account_id, numeric(b)])),
    stored: stored.map((l) => ({ ...l, amount: Number(l.amount) })),
  };
}

// Locks the balance rows of these accounts (creating missing ones), in id order.
export async function lockBalances(db: Db, accountIds: string[], at: Date): Promise<Map<string, AccountBalance>> {
  return (await lockBalancesForMoves(db, accountIds, [], at)).balances;
}

export interface NewEntry extends StoredLeg {
  move_id: string;
  transaction_id: string | null;
  description: string | null;
  created_at: Date;
}

// The entries of a move and the balances they lead to, in one statement.
export async function writeMove(db: Db, entries: NewEntry[], balances: AccountBalance[]): Promise<void> {
  const values = sql.join(
    entries.map(
      (e) =>
        sql`(${e.account_id}, ${e.move_id}, ${e.kind}, ${e.bucket}, ${e.amount}::int8, ${e.transaction_id}::text, ${e.description}::text, ${e.created_at}::timestamptz)`,
    ),
  );
  await sql`
    with entries as (
      insert into ledger_entries (account_id, move_id, kind, bucket, amount, transaction_id, description, created_at)
      values ${values}
    )
    update account_balances b
    set total = v.total, blocked = v.blocked, blocked_security = v.blocked_security,
      blocked_withdraw_safety = v.blocked_withdraw_safety, updated_at = v.updated_at
    from jsonb_to_recordset(${JSON.stringify(balances)}::jsonb) as v(account_id text, total int8, blocked int8,
      blocked_security int8, blocked_withdraw_safety int8, updated_at timestamptz)
    where b.account_id = v.account_id`.execute(db);
}

export async function findBalance(db: Db, accountId: string): Promise<AccountBalance | undefined> {
  return db.selectFrom('account_balances').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function findBalances(db: Db, accountIds: string[]): Promise<AccountBalance[]> {
  if (accountIds.length === 0) return [];
  return db.selectFrom('account_balances').selectAll().where('account_id', 'in', accountIds).execute();
}

function numeric(b: AccountBalance): AccountBalance {
  return {
    ...b,
    total: Number(b.total),
    blocked: Number(b.blocked),
    blocked_security: Number(b.blocked_security),
    blocked_withdraw_safety: Number(b.blocked_withdraw_safety),
  };
}

// The transaction and time a move was written with (a replayed move answers the first one).
export async function findMoveRecord(
  db: Db,
  moveId: string,
): Promise<{ transaction_id: string | null; created_at: Date } | undefined> {
  return db
    .selectFrom('ledger_entries')
    .select(['transaction_id', 'created_at'])
    .where('move_id', '=', moveId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export interface StatementRow {
  id: string;
  move_id: string;
  kind: 'CREDIT' | 'DEBIT';
  amount: number;
  balance: number;
  description: string | null;
  transaction_id: string | null;
  created_at: Date;
}

// The money movements (credits and debits; holds and releases leave the total alone) of an
// account in [start, end), oldest first, each with the account's total after it: the running
// sum is taken over the whole history before the period is cut out.
export async function listStatement(
  db: Db,
  accountId: string,
  period: { start?: Date; end?: Date },
  skip: number,
  limit: number,
): Promise<StatementRow[]> {
  const { rows } = await sql<StatementRow>`
    select * from (
      select e.id::text as id, e.move_id, e.kind, e.amount, e.description, e.transaction_id, e.created_at,
        sum(case e.kind when 'CREDIT' then e.amount else -e.amount end) over (order by e.id) as balance
      from ledger_entries e
      where e.account_id = ${accountId} and e.kind in ('CREDIT', 'DEBIT')
    ) s
    where (${period.start ?? null}::timestamptz is null or s.created_at >= ${period.start ?? null}::timestamptz)
      and (${period.end ?? null}::timestamptz is null or s.created_at < ${period.end ?? null}::timestamptz)
    order by s.id::bigint
    offset ${skip} limit ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, amount: Number(r.amount), balance: Number(r.balance) }));
}

// The legs of a move (an empty list when no move has that id).
export async function findMoveLegs(db: Db, moveId: string): Promise<StoredLeg[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['account_id', 'kind', 'bucket', 'amount'])
    .where('move_id', '=', moveId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

// An account's balance row and its money in (credits) and out (debits) per Brasília day since
// `since`, in one statement (the dashboard's home).
export async function findBalanceWithDailyFlows(
  db: Db,
  accountId: string,
  since: Date,
): Promise<{ balance: AccountBalance | null; days: { day: string; credits: number; debits: number }[] }> {
  const row = await sql<{
    balance: AccountBalance | null;
    days: { day: string; credits: number | string; debits: number | string }[] | null;
  }>`select
    (select row_to_json(b) from account_balances b where b.account_id = ${accountId}) as balance,
    (select json_agg(d order by d.day) from (
       select to_char(created_at at time zone 'UTC' - interval '3 hours', 'YYYY-MM-DD') as day,
              coalesce(sum(amount) filter (where kind = 'CREDIT'), 0) as credits,
              coalesce(sum(amount) filter (where kind = 'DEBIT'), 0) as debits
       from ledger_entries where account_id = ${accountId} and created_at >= ${since}
       group by 1) d) as days`.execute(db);
  const first = row.rows[0]!;
  const balance = first.balance ? numeric(first.balance) : null;
  const days = (first.days ?? []).map((d) => ({ day: d.day, credits: Number(d.credits), debits: Number(d.debits) }));
  return { balance, days };
}
