// All SQL of partners: pre-registrations (scoped to the partner company), the affiliates made
// from them, and the applications made for the affiliates.
import type { Db, NewPreRegistration, PreRegistrationRow } from '../db/schema';
import { pagedRows } from '../db/paging';

export interface PreRegistrationWithCompany extends PreRegistrationRow {
  company_name: string | null;
  first_client_id: string | null;
}

function withCompany(db: Db, partnerCompanyId: string) {
  return db
    .selectFrom('partner_pre_registrations as p')
    .leftJoin('companies as c', 'c.id', 'p.company_id')
    .selectAll('p')
    .select('c.name as company_name')
    .select((eb) =>
      eb
        .selectFrom('partner_applications as pa')
        .innerJoin('applications as a', 'a.id', 'pa.application_id')
        .select('a.client_id')
        .whereRef('pa.pre_registration_id', '=', 'p.id')
        .orderBy('pa.created_at')
        .orderBy('a.client_id')
        .limit(1)
        .as('first_client_id'),
    )
    .where('p.partner_company_id', '=', partnerCompanyId);
}

export async function insertPreRegistrationIfFree(db: Db, row: NewPreRegistration): Promise<boolean> {
  const inserted = await db
    .insertInto('partner_pre_registrations')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findPreRegistration(
  db: Db,
  partnerCompanyId: string,
  taxId: string,
): Promise<PreRegistrationWithCompany | undefined> {
  return withCompany(db, partnerCompanyId).where('p.tax_id', '=', taxId).executeTakeFirst();
}

export async function lockPreRegistration(
  db: Db,
  partnerCompanyId: string,
  taxId: string,
): Promise<PreRegistrationRow | undefined> {
  return db
    .selectFrom('partner_pre_registrations')
    .selectAll()
    .where('partner_company_id', '=', partnerCompanyId)
    .where('tax_id', '=', taxId)
    .forUpdate()
    .executeTakeFirst();
}

// A page of the partner's pre-registrations, oldest first, with the count of all of them.
export async function listPreRegistrations(
  db: Db,
  partnerCompanyId: string,
  page: { skip: number; limit: number },
): Promise<{ rows: PreRegistrationWithCompany[]; total: number }> {
  const list = withCompany(db, partnerCompanyId).orderBy('p.created_at').orderBy('p.id');
  return pagedRows(list, page, { countPastEnd: () => countPreRegistrations(db, partnerCompanyId) });
}

function countOf(db: Db, partnerCompanyId: string) {
  return db
    .selectFrom('partner_pre_registrations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('partner_company_id', '=', partnerCompanyId);
}

async function countPreRegistrations(db: Db, partnerCompanyId: string): Promise<number> {
  return Number((await countOf(db, partnerCompanyId).executeTakeFirstOrThrow()).n);
}

// Pre-registrations that became companies (affiliates).
async function countAffiliates(db: Db, partnerCompanyId: string): Promise<number> {
  const q = countOf(db, partnerCompanyId).where('company_id', 'is not', null);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

// A page of the partner's affiliates, oldest affiliation first, with the count of all of them.
export async function listAffiliates(db: Db, partnerCompanyId: string, page: { skip: number; limit: number }) {
  const list = db
    .selectFrom('partner_pre_registrations as p')
    .innerJoin('companies as c', 'c.id', 'p.company_id')
    .select(['c.id', 'c.name', 'c.tax_id', 'p.tax_id_type', 'p.affiliated_at'])
    .where('p.partner_company_id', '=', partnerCompanyId)
    .orderBy('p.affiliated_at')
    .orderBy('p.id');
  return pagedRows(list, page, { countPastEnd: () => countAffiliates(db, partnerCompanyId) });
}

export async function setAffiliate(db: Db, preRegistrationId: string, companyId: string, at: Date): Promise<void> {
  await db
    .updateTable('partner_pre_registrations')
    .set({ company_id: companyId, affiliated_at: at })
    .where('id', '=', preRegistrationId)
    .execute();
}

export async function findPartnerApplication(db: Db, preRegistrationId: string, name: string) {
  return db
    .selectFrom('partner_applications as pa')
    .innerJoin('applications as a', 'a.id', 'pa.application_id')
    .select(['pa.name', 'pa.type', 'a.is_active', 'a.client_id', 'a.scopes'])
    .where('pa.pre_registration_id', '=', preRegistrationId)
    .where('pa.name', '=', name)
    .executeTakeFirst();
}

export async function insertPartnerApplication(
  db: Db,
  row: {
    application_id: string;
    pre_registration_id: string;
    name: string;
    type: 'API' | 'PLUGIN' | 'ORACLE';
    created_at: Date;
  },
): Promise<void> {
  await db.insertInto('partner_applications').values(row).execute();
}
