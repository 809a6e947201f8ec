// All SQL of idempotency records: one per (company, Idempotency-Key), found by the key's
// hash (idempotency.service.ts keyHashOf); the key itself is never stored.
import { sql } from 'kysely';
import { companyNowSql } from '../db/clock-sql';
import type { Db, IdempotencyRecordRow } from '../db/schema';

export interface Fresh {
  companyId: string;
  keyHash: string;
  operationId: string;
  fingerprint: string;
  now: Date;
  lockedUntil: Date;
  expiresAt: Date;
}

// Inserts a RUNNING record; false when the key already has one.
export async function insertRunning(db: Db, r: Fresh): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_records')
    .values({
      company_id: r.companyId,
      key_hash: r.keyHash,
      operation_id: r.operationId,
      fingerprint: r.fingerprint,
      state: 'RUNNING',
      created_at: r.now,
      locked_until: r.lockedUntil,
      expires_at: r.expiresAt,
    })
    .onConflict((oc) => oc.columns(['company_id', 'key_hash']).doNothing())
    .returning('key_hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function lockRecord(
  db: Db,
  companyId: string,
  keyHash: string,
): Promise<IdempotencyRecordRow | undefined> {
  return db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('key_hash', '=', keyHash)
    .forUpdate()
    .executeTakeFirst();
}

// Makes an expired or abandoned record this request's RUNNING record.
export async function takeOver(db: Db, r: Fresh): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({
      operation_id: r.operationId,
      fingerprint: r.fingerprint,
      state: 'RUNNING',
      response_status: null,
      response_type: null,
      response_headers: null,
      response_body: null,
      created_at: r.now,
      locked_until: r.lockedUntil,
      expires_at: r.expiresAt,
    })
    .where('company_id', '=', r.companyId)
    .where('key_hash', '=', r.keyHash)
    .execute();
}

export async function complete(
  db: Db,
  companyId: string,
  keyHash: string,
  fingerprint: string,
  // the body sealed (the service seals it)
  response: { status: number; type: string | null; headers: Record<string, string>; body: string | null },
): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({
      state: 'DONE',
      response_status: response.status,
      response_type: response.type,
      response_headers: JSON.stringify(response.headers),
      response_body: response.body,
    })
    .where('company_id', '=', companyId)
    .where('key_hash', '=', keyHash)
    .where('fingerprint', '=', fingerprint)
    .where('state', '=', 'RUNNING')
    .execute();
}

export async function release(db: Db, companyId: string, keyHash: string, fingerprint: string): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('company_id', '=', companyId)
    .where('key_hash', '=', keyHash)
    .where('fingerprint', '=', fingerprint)
    .where('state', '=', 'RUNNING')
    .execute();
}

// Records past their company's clock.
export async function deleteExpired(db: Db): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_records')
    .where('expires_at', '<', companyNowSql(sql.ref('idempotency_records.company_id')))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
