// The transactions area's service.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { TransactionsService } from './transactions.service';

export interface TransactionsDependencies {
  db: Kysely<Database>;
}

export function buildTransactionsService({ db }: TransactionsDependencies): TransactionsService {
  return new TransactionsService(db);
}
