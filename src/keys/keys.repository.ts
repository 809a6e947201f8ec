// All SQL of Pix keys. A key is unique across the whole server (its primary key).
import { type LocalAccount } from '../accounts/accounts.public';
import { prepared } from '../db/prepared';
import { type WritePart, withParts } from '../db/together';
import { type Db, type NewPixKey, PIX_KEY_COLUMNS, type PixKey } from '../db/schema';
import { qualified } from '../db/columns';
import { pagedRows } from '../db/paging';

export interface PixKeyOwner extends PixKey {
  company_name: string;
  company_tax_id: string;
  branch: string;
  account_number: string;
  account_status: 'OPEN' | 'CLOSED';
}

// `also`: writes that go with it in the same statement (its event).
export async function insertPixKey(db: Db, key: NewPixKey, also: WritePart[] = []): Promise<PixKey> {
  return withParts(db, also).insertInto('pix_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

// The key with its owner (company and account), or undefined when no company here has it.
export async function findPixKeyOwner(db: Db, key: string): Promise<PixKeyOwner | undefined> {
  return db
    .selectFrom('pix_keys')
    .innerJoin('companies', 'companies.id', 'pix_keys.company_id')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'pix_keys.account_id')
    .selectAll('pix_keys')
    .select([
      'companies.name as company_name',
      'companies.tax_id as company_tax_id',
      'bank_accounts.branch',
      'bank_accounts.account_number',
      'bank_accounts.status as account_status',
    ])
    .where('pix_keys.key', '=', key)
    .executeTakeFirst();
}

export async function findCompanyKey(db: Db, companyId: string, key: string): Promise<PixKey | undefined> {
  return db
    .selectFrom('pix_keys')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .executeTakeFirst();
}

// A key that receives money with the account behind it (what a charge's views and events show).
export interface ReceivingKey extends PixKey {
  branch: string;
  account_number: string;
  account_status: 'OPEN' | 'CLOSED';
}

function receivingKeyQuery(db: Db, companyId: string) {
  return db
    .selectFrom('pix_keys')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'pix_keys.account_id')
    .select(qualified('pix_keys', PIX_KEY_COLUMNS))
    .select(['bank_accounts.branch', 'bank_accounts.account_number', 'bank_accounts.status as account_status'])
    .where('pix_keys.company_id', '=', companyId);
}

const defaultReceivingKey = prepared(['companyId'], (db, p: { companyId: string }) =>
  receivingKeyQuery(db, p.companyId).where('pix_keys.is_default', '=', true),
);
const receivingKey = prepared(['companyId', 'key'], (db, p: { companyId: string; key: string }) =>
  receivingKeyQuery(db, p.companyId).where('pix_keys.key', '=', p.key),
);

export async function findDefaultReceivingKey(db: Db, companyId: string): Promise<ReceivingKey | undefined> {
  return (await defaultReceivingKey(db, { companyId }))[0];
}

export async function findReceivingKey(db: Db, companyId: string, key: string): Promise<ReceivingKey | undefined> {
  return (await receivingKey(db, { companyId, key }))[0];
}

export async function findDefaultKey(db: Db, companyId: string): Promise<PixKey | undefined> {
  return db
    .selectFrom('pix_keys')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

export async function listCompanyKeys(db: Db, companyId: string): Promise<PixKey[]> {
  return db
    .selectFrom('pix_keys')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('key')
    .execute();
}

// Keys of one account, default first then oldest first.
export async function listAccountKeys(
  db: Db,
  accountId: string,
  skip: number,
  limit: number,
): Promise<{ rows: PixKey[]; total: number }> {
  const list = db
    .selectFrom('pix_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .orderBy('key');
  return pagedRows(list, { skip, limit }, { countPastEnd: () => countAccountKeys(db, accountId) });
}

export async function countAccountKeys(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('pix_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function lockCompanyKey(db: Db, companyId: string, key: string): Promise<PixKey | undefined> {
  return db
    .selectFrom('pix_keys')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirst();
}

export async function deleteKey(db: Db, key: string, also: WritePart[] = []): Promise<void> {
  await withParts(db, also).deleteFrom('pix_keys').where('key', '=', key).execute();
}

export async function deleteAccountKeys(db: Db, accountId: string): Promise<number> {
  const result = await db.deleteFrom('pix_keys').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// Makes `key` the company's only default key (the partial unique index allows one).
export async function makeDefault(db: Db, companyId: string, key: string, also: WritePart[] = []): Promise<PixKey> {
  await db
    .updateTable('pix_keys')
    .set({ is_default: false })
    .where('company_id', '=', companyId)
    .where('is_default', '=', true)
    .where('key', '!=', key)
    .execute();
  return withParts(db, also)
    .updateTable('pix_keys')
    .set({ is_default: true })
    .where('key', '=', key)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// The owners of several keys (one statement): the account behind each key found here, with
// the account it belongs to when it is a subaccount.
export interface KeyAccount {
  key: string;
  company_id: string;
  account_id: string;
  account_status: 'OPEN' | 'CLOSED';
  parent_account_id: string | null;
}

export async function findKeyAccounts(db: Db, keys: string[]): Promise<KeyAccount[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('pix_keys')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'pix_keys.account_id')
    .select([
      'pix_keys.key',
      'pix_keys.company_id',
      'pix_keys.account_id',
      'bank_accounts.status as account_status',
      'bank_accounts.parent_account_id',
    ])
    .where('pix_keys.key', 'in', keys)
    .execute();
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
