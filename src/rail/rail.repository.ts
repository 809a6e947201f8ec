// All SQL of the rail: keys and accounts of this server, as the DICT and the SPI see them.
import { type LocalAccount } from '../accounts/accounts.repository';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

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
