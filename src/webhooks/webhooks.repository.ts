// All SQL of webhooks, their deliveries and attempts. Every read of the management APIs is
// scoped to a company; the delivery worker's claims are not (they serve every company).
import { sql } from 'kysely';
import { companyNowSql, latestCompanyNowSql } from '../db/clock-sql';
import { type WritePart, withParts } from '../db/together';
import type {
  AttemptProbe,
  AttemptTls,
  Db,
  DeliveryStatus,
  NewWebhook,
  NewWebhookDelivery,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookKind,
} from '../db/schema';
import { pagedRows } from '../db/paging';
import type { Page } from '../lib/paging';

// "now() + ms", in the database's clock (every process agrees on it): leases, which bound
// real work, run on it.
const inMs = (ms: number) => sql<Date>`now() + (${ms}::double precision * interval '1 millisecond')`;
// When a delivery is due runs on the clock of its company (companyNowSql), so advancing a
// company's sandbox clock brings its retries forward.
const deliveryNow = (ms = 0) => companyNowSql(sql.ref('webhook_deliveries.company_id'), ms);

// ---- webhooks ----

// `also`: writes that go with it in the same statement (its test event and delivery).
export async function insertWebhook(db: Db, row: NewWebhook, also: WritePart[] = []): Promise<Webhook> {
  return withParts(db, also).insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findWebhook(
  db: Db,
  companyId: string,
  kind: WebhookKind,
  id: string,
): Promise<Webhook | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findPlatformDuplicate(
  db: Db,
  companyId: string,
  event: string,
  url: string,
): Promise<Webhook | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', '=', 'platform')
    .where('event', '=', event)
    .where('url', '=', url)
    .executeTakeFirst();
}

export async function listPlatformWebhooks(
  db: Db,
  companyId: string,
  url: string | undefined,
  skip: number,
  limit: number,
) {
  let q = webhooksOfCompany(db, companyId).where('kind', '=', 'platform');
  if (url !== undefined) q = q.where('url', '=', url);
  return pageOfWebhooks(q, { skip, limit });
}

// The company's webhooks, before a list's filters.
function webhooksOfCompany(db: Db, companyId: string) {
  return db.selectFrom('webhooks').where('company_id', '=', companyId);
}

// A page of these webhooks, oldest first, with the count of all of them.
function pageOfWebhooks(q: ReturnType<typeof webhooksOfCompany>, page: Page) {
  const countPastEnd = async () =>
    Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return pagedRows(q.selectAll().orderBy('created_at').orderBy('id'), page, { countPastEnd });
}

export async function deleteWebhookById(db: Db, companyId: string, kind: WebhookKind, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('webhooks')
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

// The Pix API webhook of a key (kind pix) or of the company (kinds rec and cobr).
export async function findPixWebhook(
  db: Db,
  companyId: string,
  kind: Exclude<WebhookKind, 'platform'>,
  chave?: string,
): Promise<Webhook | undefined> {
  let q = db.selectFrom('webhooks').selectAll().where('company_id', '=', companyId).where('kind', '=', kind);
  if (kind === 'pix') q = q.where('chave', '=', chave!);
  return q.executeTakeFirst();
}

// Creates the Pix API webhook of a key (kind pix) or of the company (rec, cobr), or points
// the existing one to a new URL (it keeps its id, secret and creation time).
export async function upsertPixWebhook(
  db: Db,
  row: NewWebhook & { kind: Exclude<WebhookKind, 'platform'> },
): Promise<Webhook> {
  return db
    .insertInto('webhooks')
    .values(row)
    .onConflict((oc) => {
      const target =
        row.kind === 'pix'
          ? oc.columns(['company_id', 'chave']).where(sql<boolean>`kind = 'pix'`)
          : oc.columns(['company_id', 'kind']).where(sql<boolean>`kind in ('rec', 'cobr')`);
      return target.doUpdateSet((eb) => ({ url: eb.ref('excluded.url'), updated_at: eb.ref('excluded.updated_at') }));
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deletePixWebhook(
  db: Db,
  companyId: string,
  kind: Exclude<WebhookKind, 'platform'>,
  chave?: string,
): Promise<boolean> {
  let q = db.deleteFrom('webhooks').where('company_id', '=', companyId).where('kind', '=', kind);
  if (kind === 'pix') q = q.where('chave', '=', chave!);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function listKeyWebhooks(
  db: Db,
  companyId: string,
  range: { inicio?: Date; fim?: Date },
  offset: number,
  limit: number,
) {
  let q = webhooksOfCompany(db, companyId).where('kind', '=', 'pix');
  if (range.inicio) q = q.where('created_at', '>=', range.inicio);
  if (range.fim) q = q.where('created_at', '<=', range.fim);
  return pageOfWebhooks(q, { skip: offset, limit });
}

// Active webhooks of these companies (the fan-out matches events against them).
export async function activeWebhooksOf(trx: Db, companyIds: string[]): Promise<Webhook[]> {
  if (companyIds.length === 0) return [];
  return trx
    .selectFrom('webhooks')
    .selectAll()
    .where('company_id', 'in', companyIds)
    .where('is_active', '=', true)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function webhooksByIds(db: Db, ids: string[]): Promise<Webhook[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('webhooks').selectAll().where('id', 'in', ids).execute();
}

// ---- deliveries ----

// The most attempts one delivery's read answers (automatic ones are bounded by the retry
// schedule; redeliveries by whoever asks).
export const ATTEMPTS_READ_LIMIT = 1000;

type StoredAttemptJson = Omit<WebhookAttempt, 'attempted_at'> & { attempted_at: string };

export type NewDelivery = Omit<NewWebhookDelivery, 'next_attempt_at'>;

// One delivery per (webhook, event), due now (server clock): inserting twice does nothing.
export async function insertDeliveries(trx: Db, rows: NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('webhook_deliveries')
    .values(rows.map((r) => ({ ...r, next_attempt_at: companyNowSql(sql.val(r.company_id)) })))
    .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
    .execute();
}

// A delivery as a part of a statement that writes its event (and webhook) too, due now.
export function insertDeliveryPart(row: NewDelivery): WritePart {
  return (qc) =>
    qc.insertInto('webhook_deliveries').values({ ...row, next_attempt_at: companyNowSql(sql.val(row.company_id)) });
}

// A delivery with its event, in one statement, leased to the caller for `leaseMs` (it is
// attempted at once, by the caller); answered as inserted.
export async function insertLeasedDelivery(
  db: Db,
  row: NewDelivery,
  also: WritePart[],
  lease: { token: string; ms: number },
): Promise<WebhookDelivery> {
  return withParts(db, also)
    .insertInto('webhook_deliveries')
    .values({
      ...row,
      lease_token: lease.token,
      lease_until: inMs(lease.ms),
      next_attempt_at: companyNowSql(sql.val(row.company_id)),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Leases up to `limit` due deliveries to the caller for `leaseMs`. Rows another worker is
// claiming right now are skipped (FOR UPDATE SKIP LOCKED), leased ones are not due.
// Due deliveries, leased to `token`. One object's deliveries go in the order they were made:
// one waits while an earlier delivery of its object waits for its first attempt or is being
// attempted (after a failed first attempt the later ones go on: a receiver that is down does
// not hold its other events back). `except`: deliveries this run already attempted.
export async function claimDueDeliveries(
  db: Db,
  limit: number,
  leaseMs: number,
  token: string,
  except: readonly string[] = [],
): Promise<WebhookDelivery[]> {
  return claimDueDeliveriesQuery(db, limit, leaseMs, token, except).execute();
}

// The claim as a query, for its plan to be checked (test/webhooks/claim-plan.test.ts): the
// due deliveries are chosen once per claim, not once per row of the table.
export function claimDueDeliveriesQuery(
  db: Db,
  limit: number,
  leaseMs: number,
  token: string,
  except: readonly string[] = [],
) {
  let due = db
    .selectFrom('webhook_deliveries as d')
    .select('d.id')
    .where('d.status', '=', 'PENDING')
    .where('d.next_attempt_at', '<=', latestCompanyNowSql())
    // The clock of d's company: inside this subquery the bare table name would be the outer
    // UPDATE's row, making the subquery correlated (run once per row of the table, about
    // 50 ms a claim over a 1,000-delivery backlog, and more rows than the limit).
    .where('d.next_attempt_at', '<=', companyNowSql(sql.ref('d.company_id')))
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', sql<Date>`now()`)]))
    .where((eb) =>
      eb.or([
        eb('d.object_id', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as e')
              .select(sql`1`.as('one'))
              .whereRef('e.company_id', '=', 'd.company_id')
              .whereRef('e.object_id', '=', 'd.object_id')
              .whereRef('e.seq', '<', 'd.seq')
              .where('e.status', '=', 'PENDING')
              .where('e.is_test', '=', false)
              .where((inner) =>
                inner.or([inner('e.attempt_count', '=', 0), inner('e.lease_until', '>=', sql<Date>`now()`)]),
              ),
          ),
        ),
      ]),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.seq')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  if (except.length > 0) due = due.where('d.id', 'not in', except);
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_token: token, lease_until: inMs(leaseMs) })
    .where('id', 'in', due)
    .returningAll();
}

// Leases one delivery of the company for a manual redelivery; undefined when a worker
// holds it now.
export async function leaseDelivery(
  db: Db,
  companyId: string,
  id: string,
  leaseMs: number,
  token: string,
): Promise<WebhookDelivery | undefined> {
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_token: token, lease_until: inMs(leaseMs) })
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();
}

export interface AttemptRecord {
  deliveryId: string;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  manual: boolean;
  // What was sent: the URL and the headers as the log shows them (secrets masked).
  url: string;
  requestHeaders: Record<string, string>;
  // What came back (null without an answer).
  response: { headers: Record<string, string>; body: string; bodyTruncated: boolean } | null;
  errorClass: string | null;
  errorCode: string | null;
  // The handshake of an https attempt, and the probe before it (null on http).
  tls: AttemptTls | null;
  probe: AttemptProbe | null;
}

export interface DeliveryOutcome {
  status: DeliveryStatus;
  attemptCount: number;
  // Milliseconds from now to the next automatic attempt; null: none.
  nextInMs: number | null;
}

// Sets the delivery's outcome and releases it while the caller still holds the lease, and
// logs the attempt, in one statement: the first thing done after the receiver answered, so
// that a success is on record one round trip later (a process that dies before that has the
// delivery sent again when its lease expires). Answers whether the lease was still held.
export async function recordAttempt(
  db: Db,
  token: string,
  attempt: AttemptRecord,
  outcome: DeliveryOutcome | undefined,
): Promise<boolean> {
  const response = attempt.response;
  const { rows } = await sql<{ held: number }>`
    with outcome as (${db
      .updateTable('webhook_deliveries')
      .set({
        ...(outcome
          ? {
              status: outcome.status,
              attempt_count: outcome.attemptCount,
              next_attempt_at: outcome.nextInMs === null ? null : deliveryNow(outcome.nextInMs),
            }
          : {}),
        lease_token: null,
        lease_until: null,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', attempt.deliveryId)
      .where('lease_token', '=', token)
      .returning('id')}),
    logged as (
      -- logged only while the delivery exists (its webhook may have been deleted meanwhile)
      insert into webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, error, manual, url,
        request_headers, response_headers, response_body, response_body_truncated, error_class, error_code,
        tls, probe)
      select id, ${attempt.at}, ${attempt.statusCode}::integer, ${attempt.latencyMs}::integer, ${attempt.error}::text,
        ${attempt.manual}::boolean, ${attempt.url}::text, ${JSON.stringify(attempt.requestHeaders)}::jsonb,
        ${response ? JSON.stringify(response.headers) : null}::jsonb, ${response?.body ?? null}::text,
        ${response?.bodyTruncated ?? null}::boolean, ${attempt.errorClass}::text, ${attempt.errorCode}::text,
        ${attempt.tls ? JSON.stringify(attempt.tls) : null}::jsonb, ${attempt.probe ? JSON.stringify(attempt.probe) : null}::jsonb
      from webhook_deliveries where id = ${attempt.deliveryId})
    select count(*)::integer as held from outcome`.execute(db);
  return Number(rows[0]?.held ?? 0) > 0;
}

export async function findDeliveryOfWebhook(
  db: Db,
  companyId: string,
  webhookId: string,
  id: string,
): Promise<WebhookDelivery | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
}

const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'company_id',
  'event_id',
  'event_type',
  'body',
  'status',
  'attempt_count',
  'next_attempt_at',
  'lease_token',
  'lease_until',
  'created_at',
  'updated_at',
  'is_test',
] as const;

// Each delivery's attempts, oldest first, as JSON (the columns the log shows).
const attemptsJson = (delivery: string) => sql<StoredAttemptJson[] | null>`(
    select json_agg(a order by a.id) from (
      select * from webhook_attempts where delivery_id = ${sql.ref(delivery)} order by id limit ${ATTEMPTS_READ_LIMIT}) a)`;

function attemptsFromJson(stored: StoredAttemptJson[] | null): WebhookAttempt[] {
  return (stored ?? []).map((a) => ({ ...a, id: Number(a.id), attempted_at: new Date(a.attempted_at) }));
}

// A page of a webhook's deliveries, newest first, each with its attempts, and how many it has,
// in one statement (the page joined laterally to the count: an empty page still answers it).
export async function listDeliveriesOfWebhook(
  db: Db,
  companyId: string,
  webhookId: string,
  skip: number,
  limit: number,
): Promise<{ rows: { delivery: WebhookDelivery; attempts: WebhookAttempt[] }[]; total: number }> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .where('company_id', '=', companyId)
        .where('webhook_id', '=', webhookId)
        .select(eb.fn.countAll<string>().as('total'))
        .as('t'),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .where('company_id', '=', companyId)
          .where('webhook_id', '=', webhookId)
          .select(DELIVERY_COLUMNS)
          .select(attemptsJson('webhook_deliveries.id').as('attempts'))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .offset(skip)
          .limit(limit)
          .as('p'),
      (join) => join.onTrue(),
    )
    .select('t.total')
    .select(DELIVERY_COLUMNS.map((c) => `p.${c}` as const))
    .select('p.attempts')
    .execute();
  const total = Number(rows[0]?.total ?? 0);
  return {
    rows: rows
      .filter((r) => r.id !== null)
      .map(({ total: _total, attempts, ...delivery }) => ({
        delivery: delivery as WebhookDelivery,
        attempts: attemptsFromJson(attempts),
      })),
    total,
  };
}

export async function attemptsOf(db: Db, deliveryIds: string[]): Promise<Map<string, WebhookAttempt[]>> {
  const out = new Map<string, WebhookAttempt[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return out;
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('id')
    .execute();
  for (const row of rows) out.get(row.delivery_id)!.push(row);
  return out;
}

// The newest deliveries of the company's platform webhooks, each with its attempts, in one
// statement: of one webhook, or those whose body carries a charge's transactionID.
export async function listDeliveriesWithAttempts(
  db: Db,
  companyId: string,
  filter: { webhookId?: string; transactionId?: string },
  limit: number,
): Promise<{ delivery: WebhookDelivery; attempts: WebhookAttempt[] }[]> {
  let q = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .where('d.company_id', '=', companyId)
    .where('w.company_id', '=', companyId)
    .where('w.kind', '=', 'platform')
    .selectAll('d')
    .select(
      sql<
        WebhookAttempt[] | null
      >`(select json_agg(a order by a.id) from webhook_attempts a where a.delivery_id = d.id)`.as('attempt_rows'),
    );
  if (filter.webhookId !== undefined) q = q.where('d.webhook_id', '=', filter.webhookId);
  if (filter.transactionId !== undefined)
    q = q.where(sql<boolean>`position(${`"transactionID":${JSON.stringify(filter.transactionId)}`} in d.body) > 0`);
  const rows = await q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
  return rows.map(({ attempt_rows, ...delivery }) => ({
    delivery: delivery as WebhookDelivery,
    attempts: (attempt_rows ?? []).map((a) => ({ ...a, attempted_at: new Date(a.attempted_at) })),
  }));
}

// One delivery of one of the company's webhooks (of these kinds) with its attempts, oldest
// first, in one statement.
export async function findDeliveryWithAttempts(
  db: Db,
  companyId: string,
  kinds: readonly WebhookKind[],
  webhookId: string,
  id: string,
): Promise<{ delivery: WebhookDelivery; attempts: WebhookAttempt[] } | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .select(attemptsJson('d.id').as('attempts'))
    .where('d.company_id', '=', companyId)
    .where('d.webhook_id', '=', webhookId)
    .where('d.id', '=', id)
    .where('w.kind', 'in', kinds)
    .executeTakeFirst();
  if (!row) return undefined;
  const { attempts: stored, ...delivery } = row;
  return { delivery, attempts: attemptsFromJson(stored) };
}

// The company's Pix API webhooks (kinds pix, rec, cobr), oldest first.
export async function listPixApiWebhooks(db: Db, companyId: string, skip: number, limit: number) {
  const q = webhooksOfCompany(db, companyId).where('kind', 'in', ['pix', 'rec', 'cobr']);
  return pageOfWebhooks(q, { skip, limit });
}

// One of the company's webhooks of these kinds.
export async function findWebhookOfKinds(
  db: Db,
  companyId: string,
  kinds: readonly WebhookKind[],
  id: string,
): Promise<Webhook | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', 'in', kinds)
    .where('id', '=', id)
    .executeTakeFirst();
}

// Webhooks whose secret or authorization is not stored sealed under the key with this prefix.
export async function findWebhooksNotSealedWith(
  db: Db,
  sealedPrefix: string,
): Promise<Array<Pick<Webhook, 'id' | 'secret' | 'authorization'>>> {
  return db
    .selectFrom('webhooks')
    .select(['id', 'secret', 'authorization'])
    .where((eb) =>
      eb.or([eb('secret', 'not like', `${sealedPrefix}%`), eb('authorization', 'not like', `${sealedPrefix}%`)]),
    )
    .execute();
}

// Replaces a webhook's secrets by their sealed forms, unless another process did meanwhile.
export async function replaceWebhookSecrets(
  db: Db,
  from: Pick<Webhook, 'id' | 'secret' | 'authorization'>,
  to: Pick<Webhook, 'secret' | 'authorization'>,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set(to)
    .where('id', '=', from.id)
    .where('secret', '=', from.secret)
    .where((eb) =>
      from.authorization === null ? eb('authorization', 'is', null) : eb('authorization', '=', from.authorization),
    )
    .execute();
}
