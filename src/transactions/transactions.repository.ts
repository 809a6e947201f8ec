// All SQL of the transactions a company sees (GET /api/v1/transaction): every money move
// with a business meaning, written in the same database transaction as its ledger move.
//
// Types: PIX_IN (a Pix received, with or without a charge), PIX_OUT (a payment sent),
// REFUND_OUT (a devolution sent back to a payer), REFUND_IN (a devolution received),
// WITHDRAW (to the account's registered destination), FEE, INTERNAL_TRANSFER (money moved
// between two accounts of this server: a transfer, a subaccount move or a split part; written
// on the account the money left).
import { pagedRows } from '../db/paging';
import type { WritePart } from '../db/together';
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, Db, NewTransaction, Transaction } from '../db/schema';

import type { StoredTransactionDetails } from '../db/documents/transaction-details';

export type TransactionType =
  'PIX_IN' | 'PIX_OUT' | 'BILL_PAYMENT' | 'REFUND_OUT' | 'REFUND_IN' | 'WITHDRAW' | 'FEE' | 'INTERNAL_TRANSFER';

export type { CounterpartyDetails, TransactionDetails } from '../db/documents/transaction-details';

// The same insert as a part of a statement that writes several tables (src/db/together.ts).
export function insertTransactionPart(
  tx: Omit<NewTransaction, 'details'> & { type: TransactionType; details?: StoredTransactionDetails },
): WritePart {
  return (qc) => qc.insertInto('transactions').values({ ...tx, details: JSON.stringify(tx.details ?? {}) });
}

export async function insertTransaction(
  db: Kysely<Database>,
  tx: Omit<NewTransaction, 'id' | 'details'> & {
    id?: string;
    type: TransactionType;
    details?: StoredTransactionDetails;
  },
): Promise<Transaction> {
  return db
    .insertInto('transactions')
    .values({ ...tx, id: tx.id ?? randomUUID(), details: JSON.stringify(tx.details ?? {}) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// A transaction with what its own side of a Pix shows: the account and its company.
export interface TransactionWithAccount extends Transaction {
  branch: string;
  account_number: string;
  company_trade_name: string;
  company_official_name: string;
  company_tax_id: string;
}

export interface TransactionFilter {
  start?: Date;
  end?: Date;
  types?: TransactionType[];
}

function ofCompany(db: Kysely<Database>, companyId: string) {
  return db
    .selectFrom('transactions')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'transactions.account_id')
    .innerJoin('companies', 'companies.id', 'transactions.company_id')
    .selectAll('transactions')
    .select([
      'bank_accounts.branch',
      'bank_accounts.account_number',
      'companies.trade_name as company_trade_name',
      'companies.official_name as company_official_name',
      'companies.tax_id as company_tax_id',
    ])
    .where('transactions.company_id', '=', companyId);
}

// Newest first; start inclusive, end exclusive (on created_at).
export async function listTransactions(
  db: Kysely<Database>,
  companyId: string,
  filter: TransactionFilter,
  skip: number,
  limit: number,
): Promise<{ rows: TransactionWithAccount[]; total: number }> {
  if (filter.types && filter.types.length === 0) return { rows: [], total: 0 };
  let rows = ofCompany(db, companyId);
  let count = db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('transactions.company_id', '=', companyId);
  if (filter.start) {
    rows = rows.where('transactions.created_at', '>=', filter.start);
    count = count.where('transactions.created_at', '>=', filter.start);
  }
  if (filter.end) {
    rows = rows.where('transactions.created_at', '<', filter.end);
    count = count.where('transactions.created_at', '<', filter.end);
  }
  if (filter.types) {
    rows = rows.where('transactions.type', 'in', filter.types);
    count = count.where('transactions.type', 'in', filter.types);
  }
  const countPastEnd = async () => Number((await count.executeTakeFirstOrThrow()).n);
  const list = rows.orderBy('transactions.created_at', 'desc').orderBy('transactions.id', 'desc');
  return pagedRows(list, { skip, limit }, { countPastEnd });
}

// By the transaction's id, else by its endToEndId (the first row carrying it: the movement
// itself rather than a fee recorded with the same id).
export async function findTransaction(
  db: Kysely<Database>,
  companyId: string,
  id: string,
): Promise<TransactionWithAccount | undefined> {
  const byId = await ofCompany(db, companyId).where('transactions.id', '=', id).executeTakeFirst();
  if (byId) return byId;
  return ofCompany(db, companyId)
    .where('transactions.end_to_end_id', '=', id)
    .orderBy(sql`transactions.type = 'FEE'`)
    .orderBy('transactions.created_at')
    .orderBy('transactions.id')
    .executeTakeFirst();
}

// Several transactions in one statement.
export async function insertTransactions(
  db: Kysely<Database>,
  txs: Array<Omit<NewTransaction, 'details'> & { type: TransactionType; details?: StoredTransactionDetails }>,
): Promise<void> {
  if (txs.length === 0) return;
  await db
    .insertInto('transactions')
    .values(txs.map((tx) => ({ ...tx, details: JSON.stringify(tx.details ?? {}) })))
    .execute();
}

// The first Pix the company received from this payer at or after `since`.
export async function findPixFromPayer(
  db: Db,
  companyId: string,
  taxId: string,
  since: Date,
): Promise<{ id: string; end_to_end_id: string | null; created_at: Date } | undefined> {
  return db
    .selectFrom('transactions')
    .select(['id', 'end_to_end_id', 'created_at'])
    .where('company_id', '=', companyId)
    .where('type', '=', 'PIX_IN')
    .where('created_at', '>=', since)
    .where(sql<string>`coalesce(details->'payer'->>'taxID', details->'payer'->>'taxId')`, '=', taxId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

// A Pix received by any company (the sandbox's payer knows only the endToEndId).
export async function findReceivedPix(db: Db, endToEndId: string): Promise<Transaction | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('end_to_end_id', '=', endToEndId)
    .where('type', '=', 'PIX_IN')
    .orderBy('created_at')
    .executeTakeFirst();
}

export async function findTransactionById(db: Db, id: string): Promise<Transaction> {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

// Money out of an account (PIX_OUT and WITHDRAW) in the month and, today, by daytime and
// nighttime; a query the limits area extends with its own columns (one statement).
export function outflowUsageQuery(db: Db, accountId: string, w: OutflowWindows) {
  return db
    .selectFrom('transactions')
    .select([
      sql<number>`coalesce(sum(value), 0)::int8`.as('month'),
      sql<number>`coalesce(sum(case when created_at >= ${w.nightEnds} and created_at < ${w.nightStarts} then value else 0 end), 0)::int8`.as(
        'daytime',
      ),
      sql<number>`coalesce(sum(case when (created_at >= ${w.dayStart} and created_at < ${w.nightEnds}) or (created_at >= ${w.nightStarts} and created_at < ${w.dayEnd}) then value else 0 end), 0)::int8`.as(
        'nighttime',
      ),
    ])
    .where('account_id', '=', accountId)
    .where('type', 'in', ['PIX_OUT', 'WITHDRAW'])
    .where('created_at', '>=', w.monthStart)
    .where('created_at', '<', w.monthEnd);
}

// The transactions of the company carrying this endToEndId, with the status of the payment
// that sent it (PIX_OUT rows are written by the payments area when a payment settles).
export async function findCompanyTransactions(
  db: Db,
  companyId: string,
  endToEndId: string,
): Promise<Array<Transaction & { payment_status: string | null }>> {
  return db
    .selectFrom('transactions')
    .leftJoin('payments', 'payments.id', 'transactions.payment_id')
    .selectAll('transactions')
    .select('payments.status as payment_status')
    .where('transactions.company_id', '=', companyId)
    .where('transactions.end_to_end_id', '=', endToEndId)
    .orderBy('transactions.created_at')
    .execute();
}

export interface OutflowWindows {
  monthStart: Date;
  monthEnd: Date;
  dayStart: Date;
  nightEnds: Date;
  nightStarts: Date;
  dayEnd: Date;
}

// What a receipt of a Pix is made from, in one statement: the company's transaction (its own
// side: account and company), and the Pix rows around it: the received Pix (its key, txid and
// the payer's account when the payer banks here), or for a return the devolution its return
// id names, the Pix it returns, and the other side's account when it banks here.
export interface ReceiptSource extends TransactionWithAccount {
  pix_key: string | null;
  pix_txid: string | null;
  other_branch: string | null;
  other_account_number: string | null;
  devolution_descricao: string | null;
  devolution_natureza: string | null;
}

export async function findReceiptSource(
  db: Db,
  companyId: string,
  endToEndId: string,
  types: TransactionType[],
): Promise<ReceiptSource | undefined> {
  return (
    ofCompany(db, companyId)
      // a Pix received: its row, and the payer's account when the payer banks here
      .leftJoin('pix_received as received', (j) =>
        j
          .onRef('received.end_to_end_id', '=', 'transactions.end_to_end_id')
          .onRef('received.company_id', '=', 'transactions.company_id')
          .on('transactions.type', '=', 'PIX_IN'),
      )
      .leftJoin('bank_accounts as payer_account', 'payer_account.id', 'received.payer_account_id')
      // a return: the devolution, the Pix it returns and the other side's account
      .leftJoin('pix_devolutions as devolution', (j) =>
        j
          .onRef('devolution.rtr_id', '=', 'transactions.end_to_end_id')
          .on('transactions.type', 'in', ['REFUND_OUT', 'REFUND_IN']),
      )
      .leftJoin('pix_received as original', 'original.end_to_end_id', 'devolution.end_to_end_id')
      .leftJoin('bank_accounts as returned_to', (j) =>
        j.onRef('returned_to.id', '=', 'original.payer_account_id').on('transactions.type', '=', 'REFUND_OUT'),
      )
      .leftJoin('bank_accounts as returned_by', (j) =>
        j.onRef('returned_by.id', '=', 'devolution.account_id').on('transactions.type', '=', 'REFUND_IN'),
      )
      .select([
        'received.pix_key',
        sql<string | null>`coalesce(received.txid, original.txid)`.as('pix_txid'),
        sql<string | null>`coalesce(payer_account.branch, returned_to.branch, returned_by.branch)`.as('other_branch'),
        sql<
          string | null
        >`coalesce(payer_account.account_number, returned_to.account_number, returned_by.account_number)`.as(
          'other_account_number',
        ),
        'devolution.descricao as devolution_descricao',
        'devolution.natureza as devolution_natureza',
      ])
      .where('transactions.end_to_end_id', '=', endToEndId)
      .where('transactions.type', 'in', types)
      .orderBy('transactions.created_at')
      .limit(1)
      .executeTakeFirst()
  );
}
