// The receipts area's service, over the transactions area's service.
import type { Clock } from '../db/clock';
import type { TransactionsService } from '../transactions/transactions.service';
import { ReceiptsService } from './receipts.service';

export interface ReceiptsDependencies {
  transactions: TransactionsService;
  clock: Clock;
}

export function buildReceiptsService({ transactions, clock }: ReceiptsDependencies): ReceiptsService {
  return new ReceiptsService(transactions, clock);
}
