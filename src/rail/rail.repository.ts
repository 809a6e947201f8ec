// All SQL of the rail: keys and accounts of this server, as the DICT and the SPI see them.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

export interface LocalAccount {
  id: string;
  company_id: string;
  branch: string;
  account_number: string;
  tax_id: string;
  official_name: string;
  trade_name: string;
}

export interface LocalKey extends LocalAccount {
  key: string;
  type: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
  account_id: string;
}

// A key of this server on an open account, with its owner.
export async function findLocalKey(db: Db, key: string): Promise<LocalKey | undefined> {
  return db
    .selectFrom('pix_keys')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'pix_keys.account_id')
    .innerJoin('companies', 'companies.id', 'pix_keys.company_id')
    .select([
      'pix_keys.key',
      'pix_keys.type',
      'pix_keys.account_id',
      'bank_accounts.id',
      'bank_accounts.company_id',
      'bank_accounts.branch',
      'bank_accounts.account_number',
    ])
    .select(['companies.tax_id', 'companies.official_name', 'companies.trade_name'])
    .where('pix_keys.key', '=', key)
    .where('bank_accounts.status', '=', 'OPEN')
    .executeTakeFirst();
}

// An open account of this server by branch and number ("0001" and "1" are one branch; the
// number matches with or without separators, or without a trailing check digit after "-").
export async function findLocalAccount(db: Db, branch: string, account: string): Promise<LocalAccount | undefined> {
  const numbers = [
    ...new Set(
      [
        account.replace(/[^0-9]/g, ''),
        account.includes('-') ? account.split('-')[0]!.replace(/[^0-9]/g, '') : '',
      ].filter(Boolean),
    ),
  ];
  return db
    .selectFrom('bank_accounts')
    .innerJoin('companies', 'companies.id', 'bank_accounts.company_id')
    .select(['bank_accounts.id', 'bank_accounts.company_id', 'bank_accounts.branch', 'bank_accounts.account_number'])
    .select(['companies.tax_id', 'companies.official_name', 'companies.trade_name'])
    .where('bank_accounts.branch', '=', branch.padStart(4, '0'))
    .where('bank_accounts.account_number', 'in', numbers)
    .where('bank_accounts.status', '=', 'OPEN')
    .executeTakeFirst();
}
