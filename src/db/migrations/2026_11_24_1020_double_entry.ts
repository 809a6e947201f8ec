// Double entry: every ledger move has legs that add up to zero. Money that comes from or goes
// to other institutions (the simulated Pix rail) is taken from or given to the counter-account
// @outside, fees the platform charges go to @fees; the paying account's held buckets are where
// money waits for its settlement. The counter-accounts belong to the platform itself (the
// company @pixgate, which has no applications and no keys): they keep entries but no balance
// row (src/ledger/ledger.service.ts says why); their balance, the sum of their entries, may be
// negative (@outside is minus all the money that came in and stayed), customers' never.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into companies (id, name, tax_id, official_name, trade_name, features, created_at)
    values ('@pixgate', 'pixgate', '00000000000000', 'pixgate ledger', 'pixgate', '[]', now())`.execute(db);
  // Branch and number hold no digits: no payment addressed by branch and account finds them.
  await sql`insert into bank_accounts (id, company_id, is_default, branch, account_number, account_name, status, created_at)
    values ('@outside', '@pixgate', false, 'ledger', 'outside', 'Other institutions (Pix rail)', 'OPEN', now()),
           ('@fees', '@pixgate', false, 'ledger', 'fees', 'Fees earned', 'OPEN', now())`.execute(db);
  for (const check of [
    'account_balances_total_check',
    'account_balances_blocked_check',
    'account_balances_blocked_security_check',
    'account_balances_blocked_withdraw_safety_check',
    'account_balances_available_not_negative',
  ]) {
    await sql`alter table account_balances drop constraint ${sql.id(check)}`.execute(db);
  }
  await sql`alter table account_balances add constraint account_balances_customer_not_negative check (
    account_id like '@%' or (total >= 0 and blocked >= 0 and blocked_security >= 0 and blocked_withdraw_safety >= 0
      and total - blocked - blocked_security - blocked_withdraw_safety >= 0))`.execute(db);
  // A move is looked up by its id alone (replays, audits).
  await db.schema.createIndex('ledger_entries_move_id').on('ledger_entries').column('move_id').execute();
  // Entries written before double entry had no counter-legs: give each unbalanced move its
  // leg on @outside, so the whole ledger adds up to zero (money in and out came from there).
  await sql`insert into ledger_entries (account_id, move_id, kind, bucket, amount, transaction_id, description, created_at)
    select '@outside', move_id, case when net > 0 then 'DEBIT' else 'CREDIT' end, 'available', abs(net), null,
      'counter-leg of a move written before double entry', at
    from (
      select move_id, sum(case kind when 'CREDIT' then amount when 'DEBIT' then -amount else 0 end) as net, min(created_at) as at
      from ledger_entries group by move_id
    ) moves where net <> 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_entries_move_id').execute();
  await sql`alter table account_balances drop constraint account_balances_customer_not_negative`.execute(db);
}
