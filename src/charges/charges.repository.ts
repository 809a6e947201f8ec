// The SQL of charges and their revisions: reads in context, the single-statement creation,
// revisions, locks, expiry and payment. Payload locations are in locations.repository, lists
// of charges in charge-lists.repository.
import { type QueryCreator, sql } from 'kysely';
import { prepared } from '../db/prepared';
import { type WritePart, withParts } from '../db/together';
import { qualified } from '../db/columns';
import { companyNowSql, latestCompanyNowSql } from '../db/clock-sql';
import {
  type Charge,
  CHARGE_ROW_COLUMNS,
  type ChargeUpdate,
  type Company,
  type Database,
  type Db,
  type Location,
  type NewCharge,
} from '../db/schema';

// What views of a charge need around it, read with it in one statement: its payload location
// and the receiving company's names (BR Code merchant, receiver of a cobv).
export type ChargeCompany = Pick<Company, 'name' | 'trade_name' | 'official_name' | 'tax_id'>;
export interface ChargeInContext {
  charge: Charge;
  location: Location | undefined;
  company: ChargeCompany;
}

// The charge joined with its company and location (charge-lists.repository pages it).
export function chargeInContextQuery(db: Db) {
  return db
    .selectFrom('charges')
    .innerJoin('companies', 'companies.id', 'charges.company_id')
    .leftJoin('locations', 'locations.id', 'charges.location_id')
    .select(qualified('charges', CHARGE_ROW_COLUMNS))
    .select([
      'companies.name as co_name',
      'companies.trade_name as co_trade_name',
      'companies.official_name as co_official_name',
      'companies.tax_id as co_tax_id',
      'locations.id as loc_id',
      'locations.kind as loc_kind',
      'locations.token as loc_token',
      'locations.charge_id as loc_charge_id',
      'locations.created_at as loc_created_at',
      'locations.linked_once as loc_linked_once',
    ]);
}

type ChargeInContextRow = Awaited<ReturnType<ReturnType<typeof chargeInContextQuery>['executeTakeFirstOrThrow']>>;

export function chargeInContextOfRow(row: ChargeInContextRow): ChargeInContext {
  const { co_name, co_trade_name, co_official_name, co_tax_id, ...rest } = row;
  const { loc_id, loc_kind, loc_token, loc_charge_id, loc_created_at, loc_linked_once, ...charge } = rest;
  const location =
    loc_id === null
      ? undefined
      : {
          id: Number(loc_id),
          company_id: charge.company_id,
          kind: loc_kind!,
          token: loc_token!,
          charge_id: loc_charge_id,
          created_at: loc_created_at!,
          linked_once: loc_linked_once!,
        };
  return {
    charge,
    location,
    company: { name: co_name, trade_name: co_trade_name, official_name: co_official_name, tax_id: co_tax_id },
  };
}

// The id of the company's charge that one of `names` names, by precedence: its id, then its
// correlationID, then its txid. Three probes of unique indexes, the first that finds one
// answering (COALESCE stops there), not one OR over the three columns: a cached generic plan
// of the OR walked every charge of the company (the read got 15 times slower once a company
// had thousands of charges), and even with fresh statistics its bitmap scans cost the read
// 40% of its throughput.
function chargeIdNamedBy(db: Db, companyId: string, names: readonly string[]) {
  const probe = (column: 'correlation_id' | 'txid') =>
    db
      .selectFrom('charges')
      .select('id')
      .where('company_id', '=', companyId)
      .where(column, 'in', names)
      // The correlationID index leaves out charges without one.
      .$if(column === 'correlation_id', (q) => q.where('correlation_id', 'is not', null))
      .limit(1);
  // The id is unique: the primary key finds it, then its company is checked. Without table
  // statistics (the embedded database has no autovacuum) the planner preferred the
  // (company_id, created_at, id) index and read all of the company's entries; the company
  // written as an expression leaves it only the primary key.
  const byId = db
    .selectFrom('charges')
    .select('id')
    .where('id', 'in', names)
    .where(sql`company_id || ''`, '=', companyId)
    .limit(1);
  return sql<string>`coalesce((${byId}), (${probe('correlation_id')}), (${probe('txid')}))`;
}

const chargeInContextByAnyId = prepared(
  ['companyId', 'name', 'alias'],
  (db, p: { companyId: string; name: string; alias: string }) =>
    chargeInContextQuery(db)
      .where('charges.company_id', '=', p.companyId)
      .where('charges.id', '=', chargeIdNamedBy(db, p.companyId, [p.name, p.alias])),
);

// A company's charge by id, correlationID or txid (in that order of precedence), in context.
// `alias` is a second name for it (the charge id a globalID decodes to).
export async function findChargeInContextByAnyId(
  db: Db,
  companyId: string,
  name: string,
  alias: string = name,
): Promise<ChargeInContext | undefined> {
  const [row] = await chargeInContextByAnyId(db, { companyId, name, alias });
  return row && chargeInContextOfRow(row);
}

const chargeInContextByTxid = prepared(['companyId', 'txid'], (db, p: { companyId: string; txid: string }) =>
  chargeInContextQuery(db).where('charges.company_id', '=', p.companyId).where('charges.txid', '=', p.txid),
);

export async function findChargeInContextByTxid(
  db: Db,
  companyId: string,
  txid: string,
): Promise<ChargeInContext | undefined> {
  const [row] = await chargeInContextByTxid(db, { companyId, txid });
  return row && chargeInContextOfRow(row);
}

const lockedChargeInContextByTxid = prepared(['companyId', 'txid'], (db, p: { companyId: string; txid: string }) =>
  chargeInContextQuery(db)
    .where('charges.company_id', '=', p.companyId)
    .where('charges.txid', '=', p.txid)
    .forUpdate('charges'),
);

// The same, locked (FOR UPDATE of the charge row) for a change in the caller's transaction.
// Prepared: every PUT of a cob or cobv starts with it.
export async function lockChargeInContextByTxid(
  db: Db,
  companyId: string,
  txid: string,
): Promise<ChargeInContext | undefined> {
  const [row] = await lockedChargeInContextByTxid(db, { companyId, txid });
  return row && chargeInContextOfRow(row);
}

// A new charge in one statement: its payload location (new, or an existing one it takes
// over), the charge, its revision 0 and the event announcing it. Postgres runs the parts of a
// data-modifying WITH as one statement, so they commit or fail together.
// The columns a new charge is written with (all of them, so its SQL has one shape).
export type NewChargeRow = Required<Omit<NewCharge, 'location_id'>>;
const CHARGE_COLUMNS = CHARGE_ROW_COLUMNS.filter(
  (c): c is Exclude<(typeof CHARGE_ROW_COLUMNS)[number], 'location_id'> => c !== 'location_id',
);

interface NewChargeEvent {
  event_id: string;
  event_type: string;
  event_payload: string;
  // The charge's ids as the events API filters on them (events.object_id, correlation_id).
  event_object_id: string;
  event_correlation_id: string | null;
}

// Either CTE of the location answers its id.
type LocationCte = (q: QueryCreator<Database>) => ReturnType<typeof newLocationOf> | ReturnType<typeof takenLocationOf>;

// The foreign-key checks of a creation (the charge's location, the revision's charge) are
// plans Postgres keeps per session (SPI), generic after five runs: made while a new
// database's tables were a page or two (after an ANALYZE of nearly empty tables, as
// autovacuum's first pass), they scanned the whole table for every creation until the next
// ANALYZE. For this statement's transaction only (set_config's is_local; outside BEGIN, the
// statement), they are planned for each run with the table as it is; a check is a
// primary-key probe of one table, whose planning costs little. The session's prepared
// statements keep their generic plans (a custom plan of the charge read cost Postgres five
// times its generic one).
const customPlans = <DB>(q: QueryCreator<DB>) =>
  q.selectNoFrom(sql<string>`set_config('plan_cache_mode', 'force_custom_plan', true)`.as('mode'));

function chargeWithLocation(db: Db, p: NewChargeRow & NewChargeEvent, location: LocationCte) {
  const row = Object.fromEntries(CHARGE_COLUMNS.map((c) => [c, p[c]])) as NewChargeRow;
  return (
    db
      .with('loc', location)
      .with('plans', (q) => customPlans(q))
      .with('rev', (q) =>
        q.insertInto('charge_revisions').values({
          charge_id: p.id,
          revision: 0,
          status: p.status,
          body: p.body,
          created_at: p.created_at,
        }),
      )
      .with('ev', (q) =>
        q.insertInto('events').values({
          id: p.event_id,
          company_id: p.company_id,
          type: p.event_type,
          payload: p.event_payload,
          created_at: p.created_at,
          object_type: 'charge',
          object_id: p.event_object_id,
          correlation_id: p.event_correlation_id,
        }),
      )
      .insertInto('charges')
      // Reading `plans` here runs its set_config before the checks, which fire at the end.
      .values({ ...row, location_id: (eb) => eb.selectFrom(['loc', 'plans']).select('loc.id') })
      .returning(CHARGE_ROW_COLUMNS)
  );
}

const newLocationOf = (q: QueryCreator<Database>, p: NewChargeRow & { token: string }) =>
  q
    .insertInto('locations')
    .values({
      company_id: p.company_id,
      kind: p.kind,
      token: p.token,
      charge_id: p.id,
      linked_once: true,
      created_at: p.created_at,
    })
    .returning('id');

const takenLocationOf = (q: QueryCreator<Database>, p: NewChargeRow & { existing_id: number }) =>
  q
    .updateTable('locations')
    .set({ charge_id: p.id, linked_once: true })
    .where('id', '=', p.existing_id)
    .returning('id');

const EVENT_COLUMNS = ['event_id', 'event_type', 'event_payload', 'event_object_id', 'event_correlation_id'] as const;
const chargeWithNewLocation = prepared(
  [...CHARGE_COLUMNS, ...EVENT_COLUMNS, 'token'],
  (db, p: NewChargeRow & NewChargeEvent & { token: string }) => chargeWithLocation(db, p, (q) => newLocationOf(q, p)),
);
const chargeWithTakenLocation = prepared(
  [...CHARGE_COLUMNS, ...EVENT_COLUMNS, 'existing_id'],
  (db, p: NewChargeRow & NewChargeEvent & { existing_id: number }) =>
    chargeWithLocation(db, p, (q) => takenLocationOf(q, p)),
);

// A new charge in one statement: its payload location (new, or an existing one it takes
// over), the charge, its revision 0 and the event announcing it. Postgres runs the parts of a
// data-modifying WITH as one statement, so they commit or fail together.
export async function insertChargeWithLocation(
  db: Db,
  charge: NewChargeRow,
  location: { existingId: number } | { token: string },
  event: { id: string; type: string; payload: string; objectId: string; correlationId: string | null },
): Promise<{ charge: Charge; locationId: number }> {
  const p = {
    ...charge,
    event_id: event.id,
    event_type: event.type,
    event_payload: event.payload,
    event_object_id: event.objectId,
    event_correlation_id: event.correlationId,
  };
  const [inserted] =
    'existingId' in location
      ? await chargeWithTakenLocation(db, { ...p, existing_id: location.existingId })
      : await chargeWithNewLocation(db, { ...p, token: location.token });
  if (!inserted) throw new Error(`charge ${charge.id} was not inserted`);
  return { charge: inserted, locationId: Number(inserted.location_id) };
}

// Changes the charge and keeps its new revision (the standard's object as it now is), in one
// statement.
export async function updateChargeWithRevision(
  db: Db,
  id: string,
  changes: ChargeUpdate,
  at: Date,
  also: WritePart[] = [],
): Promise<Charge> {
  return withParts(db, also)
    .with('revised', (qc) => qc.updateTable('charges').set(changes).where('id', '=', id).returningAll())
    .with('kept', (qc) =>
      qc
        .insertInto('charge_revisions')
        .columns(['charge_id', 'revision', 'status', 'body', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('revised')
            .select([
              'revised.id',
              'revised.revision',
              'revised.status',
              'revised.body',
              sql<Date>`${at}::timestamptz`.as('created_at'),
            ]),
        ),
    )
    .selectFrom('revised')
    .selectAll()
    .executeTakeFirstOrThrow() as Promise<Charge>;
}

export async function updateCharge(db: Db, id: string, changes: ChargeUpdate): Promise<Charge> {
  return db.updateTable('charges').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

function selectChargeById(db: Db, id: string) {
  return db.selectFrom('charges').selectAll().where('id', '=', id);
}

// The charge, locked FOR UPDATE until the transaction ends.
export async function lockChargeById(db: Db, id: string): Promise<Charge | undefined> {
  return selectChargeById(db, id).forUpdate().executeTakeFirst();
}

function selectChargeByTxid(db: Db, companyId: string, txid: string) {
  return db.selectFrom('charges').selectAll().where('company_id', '=', companyId).where('txid', '=', txid);
}

export async function findChargeByTxid(db: Db, companyId: string, txid: string): Promise<Charge | undefined> {
  return selectChargeByTxid(db, companyId, txid).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockChargeByTxid(db: Db, companyId: string, txid: string): Promise<Charge | undefined> {
  return selectChargeByTxid(db, companyId, txid).forUpdate().executeTakeFirst();
}

export async function findChargeByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<Charge | undefined> {
  return db
    .selectFrom('charges')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId)
    .executeTakeFirst();
}

// The company's charges with these correlationIDs (one statement; a subscription's installments).
export async function findChargesByCorrelationIds(
  db: Db,
  companyId: string,
  correlationIds: string[],
): Promise<Charge[]> {
  if (correlationIds.length === 0) return [];
  return db
    .selectFrom('charges')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', 'in', correlationIds)
    .execute();
}

// A company's charge by id, correlationID or txid (in that order of precedence); `alias` is a
// second name for it (the charge id a globalID decodes to).
export async function findChargeByAnyId(
  db: Db,
  companyId: string,
  name: string,
  alias: string = name,
): Promise<Charge | undefined> {
  return db
    .selectFrom('charges')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', chargeIdNamedBy(db, companyId, [name, alias]))
    .executeTakeFirst();
}

export async function findChargeByPaymentLinkId(db: Db, paymentLinkId: string): Promise<Charge | undefined> {
  return db.selectFrom('charges').selectAll().where('payment_link_id', '=', paymentLinkId).executeTakeFirst();
}

// A revision of the charge (the standard's object as it was).
export async function findChargeRevision(db: Db, chargeId: string, revision: number) {
  return db
    .selectFrom('charge_revisions')
    .selectAll()
    .where('charge_id', '=', chargeId)
    .where('revision', '=', revision)
    .executeTakeFirst();
}

// The txids of these charges, by charge id.
export async function findTxidsOfCharges(db: Db, chargeIds: string[]): Promise<Map<string, string>> {
  if (chargeIds.length === 0) return new Map();
  const rows = await db.selectFrom('charges').select(['id', 'txid']).where('id', 'in', chargeIds).execute();
  return new Map(rows.map((r) => [r.id, r.txid]));
}

// Payment and expiry ----------------------------------------------------------------------

// A charge in context with the account that receives its payment.
export interface ReceivingAccount {
  branch: string;
  account_number: string;
  status: 'OPEN' | 'CLOSED';
}
export type ChargeWithAccount = ChargeInContext & { account: ReceivingAccount };

function chargeWithAccountQuery(db: Db) {
  return chargeInContextQuery(db)
    .innerJoin('bank_accounts', 'bank_accounts.id', 'charges.account_id')
    .select([
      'bank_accounts.branch as acc_branch',
      'bank_accounts.account_number as acc_number',
      'bank_accounts.status as acc_status',
    ]);
}

type ChargeWithAccountRow = Awaited<ReturnType<ReturnType<typeof chargeWithAccountQuery>['executeTakeFirstOrThrow']>>;

function withAccount({ acc_branch, acc_number, acc_status, ...row }: ChargeWithAccountRow): ChargeWithAccount {
  return {
    ...chargeInContextOfRow(row),
    account: { branch: acc_branch, account_number: acc_number, status: acc_status },
  };
}

// The charge a payment names, locked (FOR UPDATE) for its payment, with its receiving
// account: by the payment location it is served at (its token, from the BR Code's URL, or its
// id, which a boleto's barcode names), or by the company's txid.
export type ChargePaymentKey = { locationToken: string } | { locationId: number } | { companyId: string; txid: string };

export async function lockChargeWithAccount(db: Db, by: ChargePaymentKey): Promise<ChargeWithAccount | undefined> {
  let q = chargeWithAccountQuery(db);
  if ('txid' in by) q = q.where('charges.company_id', '=', by.companyId).where('charges.txid', '=', by.txid);
  else {
    q =
      'locationId' in by
        ? q.where('locations.id', '=', by.locationId)
        : q.where('locations.token', '=', by.locationToken);
    // The location serves the charge (not only the charge pointing at it).
    q = q.whereRef('locations.charge_id', '=', 'charges.id');
  }
  const row = await q.forUpdate('charges').executeTakeFirst();
  return row && withAccount(row);
}

// Which expired charges a claim takes: of one company or of all, and whether it skips the rows
// another transaction holds (the job's runs share the work) or waits for them (a run that
// must not end while a due charge is unannounced: Postgres re-reads a row it waited on, so a
// charge the other run announced is then left out).
export interface ExpiryClaim {
  limit: number;
  companyId?: string;
  heldRows: 'skip' | 'wait';
}

// Claims up to `limit` expired charges whose expiry event is not recorded yet, in context and
// with their receiving account. Each charge is compared with its own company's clock.
export async function claimExpiredCharges(
  db: Db,
  { limit, companyId, heldRows }: ExpiryClaim,
): Promise<ChargeWithAccount[]> {
  // No company's clock is ahead of the furthest one: a bound the index on payable_until can use
  // before each charge is compared with its own company's clock.
  let q = chargeWithAccountQuery(db)
    .where('charges.status', '=', 'ATIVA')
    .where('charges.expired_event_at', 'is', null)
    .where('charges.payable_until', '<=', latestCompanyNowSql())
    .where('charges.payable_until', '<=', companyNowSql(sql.ref('charges.company_id')));
  if (companyId !== undefined) q = q.where('charges.company_id', '=', companyId);
  // (both kinds lock in id order, so a waiting run and the job cannot deadlock)
  const locked = q.orderBy('charges.id').limit(limit).forUpdate('charges');
  const rows = await (heldRows === 'skip' ? locked.skipLocked() : locked).execute();
  return rows.map(withAccount);
}

// Marks charges as announced expired and records their events, in one statement.
export async function markChargesExpired(
  db: Db,
  marks: Array<{
    chargeId: string;
    at: Date;
    event: { id: string; companyId: string; type: string; payload: unknown };
  }>,
): Promise<void> {
  if (marks.length === 0) return;
  const charges = JSON.stringify(marks.map((m) => ({ id: m.chargeId, at: m.at })));
  const events = JSON.stringify(
    marks.map((m) => ({
      id: m.event.id,
      company_id: m.event.companyId,
      type: m.event.type,
      payload: m.event.payload,
      at: m.at,
    })),
  );
  await sql`
    with marked as (
      update charges c set expired_event_at = v.at
      from jsonb_to_recordset(${charges}::jsonb) as v(id text, at timestamptz)
      where c.id = v.id
    )
    insert into events (id, company_id, type, payload, created_at)
    select id, company_id, type, payload, at
    from jsonb_to_recordset(${events}::jsonb) as e(id text, company_id text, type text, payload jsonb, at timestamptz)`.execute(
    db,
  );
}

export async function txidUsedByCharge(db: Db, companyId: string, txid: string): Promise<boolean> {
  const row = await db
    .selectFrom('charges')
    .select('id')
    .where('company_id', '=', companyId)
    .where('txid', '=', txid)
    .executeTakeFirst();
  return row !== undefined;
}

// A payment completes the charge: CONCLUIDA, paid at `at`, with no new revision.
export async function markChargePaid(db: Db, chargeId: string, at: Date): Promise<void> {
  await db
    .updateTable('charges')
    .set({ status: 'CONCLUIDA', paid_at: at, updated_at: at })
    .where('id', '=', chargeId)
    .execute();
}
