// Reading the transactions a company sees: list with filters, one by id or endToEndId.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import { periodOf, type Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import * as repo from './transactions.repository';
import { storedTypesOf, transactionView, type ApiTransactionType, type TransactionView } from './transactions.view';

export type { ReceiptSource, TransactionType } from './transactions.repository';

export interface TransactionListQuery {
  start?: string;
  end?: string;
  type?: ApiTransactionType;
}

export class TransactionsService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(
    principal: Principal,
    query: TransactionListQuery,
    page: Page,
  ): Promise<{ transactions: TransactionView[]; total: number }> {
    const filter: repo.TransactionFilter = {
      ...periodOf(query),
      ...(query.type ? { types: storedTypesOf(query.type) } : {}),
    };
    const { rows, total } = await repo.listTransactions(this.db, principal.companyId, filter, page.skip, page.limit);
    return { transactions: rows.map(transactionView), total };
  }

  // id: the transaction's id (globalID) or its endToEndId.
  async get(principal: Principal, id: string): Promise<TransactionView> {
    const row = await repo.findTransaction(this.db, principal.companyId, id);
    if (!row) throw errors.missing('transaction');
    return transactionView(row);
  }

  // The company's transaction of these types carrying this end-to-end (or return) id, with
  // the Pix rows a receipt shows (one statement); undefined when the company has none.
  async receiptSource(
    companyId: string,
    endToEndId: string,
    types: readonly repo.TransactionType[],
  ): Promise<repo.ReceiptSource | undefined> {
    return repo.findReceiptSource(this.db, companyId, endToEndId, [...types]);
  }
}
