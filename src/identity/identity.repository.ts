// All SQL of companies, bank accounts and applications.
import type { Kysely } from 'kysely';
import type {
  Application,
  BankAccount,
  Company,
  Database,
  NewApplication,
  NewBankAccount,
  NewCompany,
} from '../db/schema';

export type Db = Kysely<Database>;

export interface ApplicationWithCompany extends Application {
  features: string[];
}

export async function insertCompany(db: Db, company: NewCompany): Promise<Company> {
  return db.insertInto('companies').values(company).returningAll().executeTakeFirstOrThrow();
}

export async function insertBankAccount(db: Db, account: NewBankAccount): Promise<BankAccount> {
  return db.insertInto('bank_accounts').values(account).returningAll().executeTakeFirstOrThrow();
}

export async function insertApplication(db: Db, application: NewApplication): Promise<Application> {
  return db.insertInto('applications').values(application).returningAll().executeTakeFirstOrThrow();
}

export async function findActiveApplicationByClientId(
  db: Db,
  clientId: string,
): Promise<ApplicationWithCompany | undefined> {
  return db
    .selectFrom('applications')
    .innerJoin('companies', 'companies.id', 'applications.company_id')
    .selectAll('applications')
    .select('companies.features')
    .where('applications.client_id', '=', clientId)
    .where('applications.is_active', '=', true)
    .executeTakeFirst();
}

export async function findActiveApplicationById(db: Db, id: string): Promise<ApplicationWithCompany | undefined> {
  return db
    .selectFrom('applications')
    .innerJoin('companies', 'companies.id', 'applications.company_id')
    .selectAll('applications')
    .select('companies.features')
    .where('applications.id', '=', id)
    .where('applications.is_active', '=', true)
    .executeTakeFirst();
}

export async function findApplicationOfCompany(
  db: Db,
  companyId: string,
  clientId: string,
): Promise<Application | undefined> {
  return db
    .selectFrom('applications')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('client_id', '=', clientId)
    .forUpdate()
    .executeTakeFirst();
}

export async function deactivateApplication(db: Db, id: string, at: Date): Promise<Application> {
  return db
    .updateTable('applications')
    .set({ is_active: false, removed_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findOpenAccountOfCompany(
  db: Db,
  companyId: string,
  accountId: string,
): Promise<BankAccount | undefined> {
  return db
    .selectFrom('bank_accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
}

export async function findCompany(db: Db, id: string): Promise<Company | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countCompanies(db: Db): Promise<number> {
  const row = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
