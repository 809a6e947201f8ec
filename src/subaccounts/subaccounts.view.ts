// The platform API's SubAccount object and statement lines. Pure.
import type { components } from '../../generated/platform.types';
import { balanceView } from '../ledger/ledger.service';
import type { StatementRow } from '../ledger/ledger.service';
import type { SubAccountRow } from './subaccounts.repository';

export type SubAccountView = components['schemas']['SubAccount'];
export type StatementEntryView = components['schemas']['StatementEntry'];

export function subAccountView(row: SubAccountRow): SubAccountView {
  const balance = balanceView(row.balance);
  return { name: row.name, pixKey: row.pix_key, balance: balance.total, withdrawBlocked: balance.blocked > 0 };
}

// Move ids of the subaccount operations, which say what a statement line was.
export const MOVE_PREFIX = {
  transfer: 'subaccount-transfer:',
  withdraw: 'subaccount-withdraw:',
} as const;

function operationOf(row: StatementRow): NonNullable<StatementEntryView['operationType']> {
  if (row.move_id.startsWith(MOVE_PREFIX.transfer)) return row.kind === 'CREDIT' ? 'TRANSFER_CREDIT' : 'TRANSFER_DEBIT';
  if (row.move_id.startsWith(MOVE_PREFIX.withdraw)) return 'WITHDRAWAL';
  return row.kind;
}

// A line of an account's statement.
export function statementEntryView(row: StatementRow): StatementEntryView {
  return entryView(row, undefined);
}

// A line of a subaccount's statement: with the operation type only these carry.
export function subaccountStatementEntryView(row: StatementRow): StatementEntryView {
  return entryView(row, operationOf(row));
}

function entryView(row: StatementRow, operationType: StatementEntryView['operationType']): StatementEntryView {
  return {
    id: row.id,
    time: row.created_at.toISOString(),
    ...(row.description ? { description: row.description.slice(0, 255) } : {}),
    balance: row.balance,
    value: row.amount,
    type: row.kind,
    ...(operationType ? { operationType } : {}),
    ...(row.transaction_id ? { transactionId: row.transaction_id } : {}),
  };
}
