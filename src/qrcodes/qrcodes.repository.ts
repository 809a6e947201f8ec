// All SQL of static QR codes. Every query is scoped to one company; deleted codes are never
// found.
import type { Db, NewStaticQrCodeRow, StaticQrCodeRow } from '../db/schema';
import { pagedRows } from '../db/paging';

function liveOf(db: Db, companyId: string) {
  return db
    .selectFrom('static_qrcodes')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null);
}

// Inserts unless the correlationID (or the key's identifier) is taken: then undefined.
export async function insertStaticQrCodeIfFree(db: Db, row: NewStaticQrCodeRow): Promise<StaticQrCodeRow | undefined> {
  return db
    .insertInto('static_qrcodes')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findStaticQrByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<StaticQrCodeRow | undefined> {
  return liveOf(db, companyId).where('correlation_id', '=', correlationId).executeTakeFirst();
}

// id: the code's id, its correlationID or its identifier (the BR Code's txid), in that order.
export async function findStaticQrByAnyId(db: Db, companyId: string, id: string): Promise<StaticQrCodeRow | undefined> {
  const rows = await liveOf(db, companyId)
    .where((eb) => eb.or([eb('id', '=', id), eb('correlation_id', '=', id), eb('identifier', '=', id)]))
    .execute();
  return (
    rows.find((r) => r.id === id) ?? rows.find((r) => r.correlation_id === id) ?? rows.find((r) => r.identifier === id)
  );
}

// The live code a Pix to this key with this txid pays (for money in: key + static txid).
export async function findStaticQrByKeyAndIdentifier(
  db: Db,
  pixKey: string,
  identifier: string,
): Promise<StaticQrCodeRow | undefined> {
  return db
    .selectFrom('static_qrcodes')
    .selectAll()
    .where('pix_key', '=', pixKey)
    .where('identifier', '=', identifier)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function markDeleted(db: Db, companyId: string, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('static_qrcodes')
    .set({ deleted_at: at, updated_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// Newest first.
export async function listStaticQrCodes(
  db: Db,
  companyId: string,
  skip: number,
  limit: number,
): Promise<{ rows: StaticQrCodeRow[]; total: number }> {
  const list = liveOf(db, companyId).orderBy('created_at', 'desc').orderBy('id', 'desc');
  return pagedRows(list, { skip, limit }, { countPastEnd: () => countStaticQrCodes(db, companyId) });
}

async function countStaticQrCodes(db: Db, companyId: string): Promise<number> {
  const count = await db
    .selectFrom('static_qrcodes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

// The live code of a payment link id (unguessable: the open QR image route looks codes up by it).
export async function findStaticQrByPaymentLinkId(db: Db, paymentLinkId: string): Promise<StaticQrCodeRow | undefined> {
  return db
    .selectFrom('static_qrcodes')
    .selectAll()
    .where('payment_link_id', '=', paymentLinkId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
