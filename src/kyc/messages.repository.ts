// All SQL of the one-time code messages (the outbox of kyc_code_messages): written with the
// code in the send's transaction, claimed by the delivery job, read by the sandbox inbox.
import { sql } from 'kysely';
import { companyNowSql, latestCompanyNowSql } from '../db/clock-sql';
import type { Db, KycChannel, KycCodeMessageRow, NewKycCodeMessage } from '../db/schema';
import type { WritePart } from '../db/together';

// The company's clock for the message row a query is looking at (retries read it).
const messageNow = (ms = 0) => companyNowSql(sql.ref('kyc_code_messages.company_id'), ms);

// The message's row as a part of a statement that writes several tables (src/db/together.ts):
// written with its code.
export function insertMessagePart(row: NewKycCodeMessage): WritePart {
  return (qc) => qc.insertInto('kyc_code_messages').values(row);
}

// Leases up to `limit` due messages of the channels that have a sender (FOR UPDATE SKIP
// LOCKED: several processes share the work, none sends a message another one holds).
export async function claimDueMessages(
  db: Db,
  channels: KycChannel[],
  limit: number,
  leaseMs: number,
  token: string,
): Promise<KycCodeMessageRow[]> {
  if (channels.length === 0) return [];
  const due = db
    .selectFrom('kyc_code_messages')
    .select('id')
    .where('status', '=', 'PENDING')
    .where('channel', 'in', channels)
    .where('next_attempt_at', '<=', latestCompanyNowSql())
    .where('next_attempt_at', '<=', messageNow())
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('kyc_code_messages')
    .set({ lease_token: token, lease_until: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'` })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

// Whether a message's text outlives its delivery (sandbox mode; the inbox shows it).
export interface BodyKeeping {
  keepBody: boolean;
}

// Delivered: the text is kept only when `keepBody` (sandbox mode; the inbox shows it).
export async function markSent(db: Db, id: string, token: string, { keepBody }: BodyKeeping): Promise<void> {
  await db
    .updateTable('kyc_code_messages')
    .set({
      status: 'SENT',
      attempts: sql<number>`attempts + 1`,
      sent_at: messageNow(),
      last_error: null,
      lease_token: null,
      lease_until: null,
      ...(keepBody ? {} : { body: null }),
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .execute();
}

// A failed attempt: due again after `retryInMs` on the company's clock, or FAILED for good
// (null), its text cleared then outside sandbox mode.
export async function markAttemptFailed(
  db: Db,
  id: string,
  token: string,
  error: string,
  retryInMs: number | null,
  { keepBody }: BodyKeeping,
): Promise<void> {
  await db
    .updateTable('kyc_code_messages')
    .set({
      attempts: sql<number>`attempts + 1`,
      last_error: error,
      lease_token: null,
      lease_until: null,
      ...(retryInMs === null
        ? { status: 'FAILED' as const, ...(keepBody ? {} : { body: null }) }
        : { next_attempt_at: messageNow(retryInMs) }),
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .execute();
}

// The messages sent to one address, newest first (the sandbox inbox).
export async function listMessagesTo(db: Db, address: string, limit: number): Promise<KycCodeMessageRow[]> {
  return db
    .selectFrom('kyc_code_messages')
    .selectAll()
    .where('address', '=', address)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// Messages whose text is kept and not sealed under the key with this prefix.
export async function findBodiesNotSealedWith(
  db: Db,
  sealedPrefix: string,
): Promise<Array<{ id: string; body: string }>> {
  const rows = await db
    .selectFrom('kyc_code_messages')
    .select(['id', 'body'])
    .where('body', 'is not', null)
    .where('body', 'not like', `${sealedPrefix}%`)
    .execute();
  return rows.map((r) => ({ id: r.id, body: r.body! }));
}

// Replaces a message's text by its sealed form, unless it changed meanwhile (sent: cleared).
export async function replaceBody(db: Db, id: string, from: string, to: string): Promise<void> {
  await db.updateTable('kyc_code_messages').set({ body: to }).where('id', '=', id).where('body', '=', from).execute();
}
