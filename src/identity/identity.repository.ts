// All SQL of companies and applications (bank accounts: src/accounts/accounts.repository.ts).
import { type RawBuilder, sql } from 'kysely';
import type { Application, Company, Db, NewApplication, NewCompany, NewCompanyFeatureChange } from '../db/schema';
import type { WritePart } from '../db/together';
import { pagedRows } from '../db/paging';

export interface ApplicationWithCompany extends Application {
  features: string[];
  company: Company;
}

export async function insertCompany(db: Db, company: NewCompany): Promise<Company> {
  return db.insertInto('companies').values(company).returningAll().executeTakeFirstOrThrow();
}

export async function insertApplication(db: Db, application: NewApplication): Promise<Application> {
  return db.insertInto('applications').values(application).returningAll().executeTakeFirstOrThrow();
}

// An active application and its company, in one statement (the company's columns aliased).
function activeApplicationQuery(db: Db) {
  return db
    .selectFrom('applications')
    .innerJoin('companies', 'companies.id', 'applications.company_id')
    .selectAll('applications')
    .select([
      'companies.name as company_name',
      'companies.tax_id as company_tax_id',
      'companies.official_name as company_official_name',
      'companies.trade_name as company_trade_name',
      'companies.features as company_features',
      'companies.created_at as company_created_at',
      'companies.clock_offset_ms as company_clock_offset_ms',
    ])
    .where('applications.is_active', '=', true);
}

type ApplicationRow = Awaited<ReturnType<ReturnType<typeof activeApplicationQuery>['executeTakeFirstOrThrow']>>;

function splitCompany(row: ApplicationRow | undefined): ApplicationWithCompany | undefined {
  if (!row) return undefined;
  const {
    company_name,
    company_tax_id,
    company_official_name,
    company_trade_name,
    company_features,
    company_created_at,
    company_clock_offset_ms,
    ...application
  } = row;
  const company: Company = {
    id: application.company_id,
    name: company_name,
    tax_id: company_tax_id,
    official_name: company_official_name,
    trade_name: company_trade_name,
    features: company_features,
    created_at: company_created_at,
    clock_offset_ms: Number(company_clock_offset_ms),
  };
  return { ...application, features: company.features, company };
}

export async function findActiveApplicationByClientId(
  db: Db,
  clientId: string,
): Promise<ApplicationWithCompany | undefined> {
  return splitCompany(
    await activeApplicationQuery(db).where('applications.client_id', '=', clientId).executeTakeFirst(),
  );
}

export async function findActiveApplicationById(db: Db, id: string): Promise<ApplicationWithCompany | undefined> {
  return splitCompany(await activeApplicationQuery(db).where('applications.id', '=', id).executeTakeFirst());
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

// An application of the company by clientId, active or not, without a lock.
export async function findApplicationByClientIdOfCompany(
  db: Db,
  companyId: string,
  clientId: string,
): Promise<Application | undefined> {
  return db
    .selectFrom('applications')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

// A page of the company's applications, newest first, with the total count.
export async function findApplicationsOfCompany(
  db: Db,
  companyId: string,
  page: { skip: number; limit: number },
): Promise<{ rows: Application[]; total: number }> {
  const list = db
    .selectFrom('applications')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at', 'desc')
    .orderBy('id');
  return pagedRows(list, page);
}

export async function deactivateApplication(db: Db, id: string, at: Date): Promise<Application> {
  return db
    .updateTable('applications')
    .set({ is_active: false, removed_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Moves a company's sandbox clock by `ms` and announces it, in one statement; the new offset.
export async function moveCompanyClock(
  db: Db,
  companyId: string,
  ms: number,
  notify: RawBuilder<unknown>,
): Promise<number | undefined> {
  const row = await db
    .with('moved', (q) =>
      q
        .updateTable('companies')
        .set({ clock_offset_ms: sql`clock_offset_ms + ${ms}` })
        .where('id', '=', companyId)
        .returning('clock_offset_ms'),
    )
    .selectFrom('moved')
    .select(['moved.clock_offset_ms', notify.as('announced')])
    .executeTakeFirst();
  return row ? Number(row.clock_offset_ms) : undefined;
}

export async function findCompany(db: Db, id: string): Promise<Company | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

// The first company made with this name (the demo company of a new database).
export async function findOldestCompanyNamed(db: Db, name: string): Promise<Company | undefined> {
  return db
    .selectFrom('companies')
    .selectAll()
    .where('name', '=', name)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function countCompanies(db: Db): Promise<number> {
  const row = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// The company row, locked FOR UPDATE (a change of its features).
export async function lockCompany(db: Db, companyId: string): Promise<Company | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', companyId).forUpdate().executeTakeFirst();
}

// New features and their audit row, as parts of one statement (src/db/together.ts).
export function changeCompanyFeaturesParts(change: NewCompanyFeatureChange): WritePart[] {
  return [
    (qc) => qc.updateTable('companies').set({ features: change.features_after }).where('id', '=', change.company_id),
    (qc) => qc.insertInto('company_feature_changes').values(change),
  ];
}
