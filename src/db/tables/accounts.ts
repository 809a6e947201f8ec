// Tables of bank accounts and account registers (src/accounts, src/subaccounts).
import type { ColumnType, Insertable, Selectable } from 'kysely';

export interface BankAccountsTable {
  id: string;
  company_id: string;
  is_default: boolean;
  branch: string;
  account_number: string;
  account_name: string;
  status: 'OPEN' | 'CLOSED';
  created_at: Date;
  closed_at: Date | null;
  // E-mail of the account holder user (money-out migration); filters GET /account.
  holder_email: ColumnType<string | null, string | null | undefined, string | null>;
  // Set on a subaccount: the company account it belongs to (subaccounts migration).
  parent_account_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AccountRegistersTable {
  id: string;
  company_id: string;
  correlation_id: string;
  type: string;
  official_name: string;
  trade_name: string;
  tax_id: string;
  tax_id_type: string;
  status: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface AccountsTables {
  bank_accounts: BankAccountsTable;
  account_registers: AccountRegistersTable;
}

export type BankAccount = Selectable<BankAccountsTable>;
export type NewBankAccount = Insertable<BankAccountsTable>;
export type AccountRegisterRow = Selectable<AccountRegistersTable>;
export type NewAccountRegisterRow = Insertable<AccountRegistersTable>;
