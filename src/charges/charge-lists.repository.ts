// Lists of charges: by period and filters with a count (GET /cob, /cobv, /api/v1/charge),
// and newest first by keyset (the dashboard).
import { type SelectQueryBuilder, sql } from 'kysely';
import type { ChargeKind, ChargeStatus, Database, Db } from '../db/schema';
import { BEGINNING, END_OF_TIME, landingInPeriod } from './charge-counts.repository';
import { type ChargeInContext, chargeInContextQuery, chargeInContextOfRow } from './charges.repository';

export interface ChargeListFilter {
  companyId: string;
  kind?: ChargeKind;
  from?: Date;
  to?: Date;
  statuses?: ChargeStatus[];
  // Platform status filters, evaluated against `now`.
  platformStatus?: 'ACTIVE' | 'COMPLETED' | 'EXPIRED';
  now?: Date;
  customerId?: string | null;
  subscription?: string;
  cpf?: string;
  cnpj?: string;
  locationPresent?: boolean;
  loteId?: number;
}

// The company's charges the filter selects (columns, order and paging are the caller's).
function listQuery(db: Db, f: ChargeListFilter) {
  let q = db.selectFrom('charges').where('company_id', '=', f.companyId);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<=', f.to);
  if (f.statuses) q = q.where('status', 'in', f.statuses);
  if (f.customerId !== undefined)
    q = f.customerId === null ? q.where(sql<boolean>`false`) : q.where('customer_id', '=', f.customerId);
  if (f.subscription !== undefined) q = q.where(sql<string>`platform->>'subscription'`, '=', f.subscription);
  if (f.cpf) q = q.where(sql<string>`body->'devedor'->>'cpf'`, '=', f.cpf);
  if (f.cnpj) q = q.where(sql<string>`body->'devedor'->>'cnpj'`, '=', f.cnpj);
  if (f.locationPresent !== undefined) q = q.where('location_id', f.locationPresent ? 'is not' : 'is', null);
  if (f.loteId !== undefined) q = q.where('lote_id', '=', f.loteId);
  if (f.platformStatus) {
    const now = f.now!;
    if (f.platformStatus === 'COMPLETED') q = q.where('status', '=', 'CONCLUIDA');
    else if (f.platformStatus === 'ACTIVE') q = q.where('status', '=', 'ATIVA').where('payable_until', '>', now);
    else
      q = q.where((eb) =>
        eb.or([
          eb('status', 'in', ['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']),
          eb.and([eb('status', '=', 'ATIVA'), eb('payable_until', '<=', now)]),
        ]),
      );
  }
  return q;
}

// A list filtered by period (and kind) alone is counted per day (charge-counts.repository), and
// a deep skip starts reading at the day it lands on: two statements whatever the size of the
// list. Other filters count and skip over the rows they match.
export async function listCharges(
  db: Db,
  filter: ChargeListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: ChargeInContext[]; total: number }> {
  if (isPeriodOnly(filter)) return listChargesOfPeriod(db, filter, offset, limit);
  const page = listQuery(db, filter).select('id').orderBy('created_at').orderBy('id').offset(offset).limit(limit);
  const rows = await inContextOrdered(db, page);
  const count = await listQuery(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

// Newest first, a page after the charge `beforeId` (keyset: created_at, id), narrowed by `search` (the
// charge's id, correlationID or txid, or its payer's name, CPF or CNPJ): one statement, at
// any depth, without counting (the dashboard's list).
export async function listChargesNewestFirst(
  db: Db,
  filter: ChargeListFilter & { search?: string },
  beforeId: string | undefined,
  limit: number,
): Promise<ChargeInContext[]> {
  let page = listQuery(db, filter).select('id');
  const search = filter.search;
  if (search) {
    const digits = search.replace(/[.\-/\s]/g, '');
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    page = page.where((eb) =>
      eb.or([
        eb('id', '=', search),
        eb('correlation_id', '=', search),
        eb('txid', '=', search),
        eb(sql<string>`body->'devedor'->>'nome'`, 'ilike', like),
        eb(sql<string>`body->'devedor'->>'cpf'`, '=', digits),
        eb(sql<string>`body->'devedor'->>'cnpj'`, '=', digits),
      ]),
    );
  }
  // after the cursor's charge, by its own stored time (exact to the microsecond)
  if (beforeId !== undefined)
    page = page.where(
      sql<boolean>`(created_at, id) < (select c.created_at, c.id from charges c
        where c.company_id = ${filter.companyId} and c.id = ${beforeId})`,
    );
  page = page.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
  const rows = await chargeInContextQuery(db)
    .where('charges.id', 'in', page)
    .orderBy('charges.created_at', 'desc')
    .orderBy('charges.id', 'desc')
    .execute();
  return rows.map(chargeInContextOfRow);
}

// The charges whose ids `page` selects, in context, in list order.
async function inContextOrdered(
  db: Db,
  page: SelectQueryBuilder<Database, 'charges', { id: string }>,
): Promise<ChargeInContext[]> {
  const rows = await chargeInContextQuery(db)
    .where('charges.id', 'in', page)
    .orderBy('charges.created_at')
    .orderBy('charges.id')
    .execute();
  return rows.map(chargeInContextOfRow);
}

// The filters besides company, kind and period (typed so that a new filter must be named here).
const NARROWING_FILTERS: Record<Exclude<keyof ChargeListFilter, 'companyId' | 'kind' | 'from' | 'to' | 'now'>, true> = {
  statuses: true,
  platformStatus: true,
  customerId: true,
  subscription: true,
  cpf: true,
  cnpj: true,
  locationPresent: true,
  loteId: true,
};

function isPeriodOnly(f: ChargeListFilter): boolean {
  return (Object.keys(NARROWING_FILTERS) as (keyof typeof NARROWING_FILTERS)[]).every((k) => f[k] === undefined);
}

async function listChargesOfPeriod(
  db: Db,
  filter: ChargeListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: ChargeInContext[]; total: number }> {
  const to = filter.to ?? END_OF_TIME;
  const kinds: ChargeKind[] = filter.kind ? [filter.kind] : ['cob', 'cobv'];
  const landing = await landingInPeriod(db, filter.companyId, kinds, { from: filter.from ?? BEGINNING, to }, offset);
  if (!landing.from) return { rows: [], total: landing.total };
  const page = db
    .selectFrom('charges')
    .select('id')
    .where('company_id', '=', filter.companyId)
    .where('kind', 'in', kinds)
    .where('created_at', '>=', landing.from)
    .where('created_at', '<=', to)
    .orderBy('created_at')
    .orderBy('id')
    .offset(landing.skip)
    .limit(limit);
  return { rows: await inContextOrdered(db, page), total: landing.total };
}
