// What other areas may use of transactions: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/transactions/ is the area's own.
export {
  findCompanyTransactions,
  findPixFromPayer,
  findReceivedPix,
  findTransaction,
  findTransactionById,
  insertTransaction,
  insertTransactionPart,
  insertTransactions,
  outflowUsageQuery,
  type OutflowWindows,
  type TransactionDetails,
} from './transactions.repository';
