// Idempotency records: one per (company, Idempotency-Key), kept at least 24 hours. The first
// request with a key claims it; the same request again replays the kept answer; another
// request with the key is a mismatch; a request still running makes others wait. Records live
// in the database, so several processes share them (the HTTP layer is http/idempotency.ts).
//
// A kept answer may carry a secret (POST /application answers a clientSecret and an appID),
// so neither the key nor the answer is stored in clear: a record is found by the SHA-256 of
// "<company id>\n<Idempotency-Key>" (key_hash), and its answer is sealed (AES-256-GCM) under
// a key derived (HKDF-SHA256) from the Idempotency-Key itself, which only the caller holds.
// The replay opens it with the key the caller sends again and answers it byte for byte.
// Someone who reads the database (or its files) reads neither, unless they guess the key: a
// key with little entropy ("order-1") is as weak here as it is anywhere; send a random one.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { SecretBox } from '../lib/secret-box';
import * as repo from './idempotency.repository';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const MAX_KEY_LENGTH = 255;
export const KEEP_MS = 24 * 3600 * 1000;
// A RUNNING record older than this belongs to a request that died; another may take it over.
export const LEASE_MS = 10 * 60 * 1000;

export interface Reply {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Claim = { kind: 'claimed' } | { kind: 'running' } | { kind: 'mismatch' } | { kind: 'replay'; reply: Reply };

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, canonical(x)]),
    );
  return v;
}

export function fingerprintOf(operationId: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${operationId}\n${url}\n${JSON.stringify(canonical(body ?? null))}`)
    .digest('hex');
}

// What a record stores of a company's Idempotency-Key.
export function keyHashOf(companyId: string, key: string): string {
  return createHash('sha256').update(`${companyId}\n${key}`).digest('hex');
}

// The box that seals a record's answer: its key only the Idempotency-Key gives.
export function answerBoxOf(companyId: string, key: string): SecretBox {
  return SecretBox.derived(key, companyId, ANSWER_KEY_PURPOSE);
}

// Where a sealed answer belongs (its associated data): it opens in no other record.
export function answerPlaceOf(keyHash: string): string {
  return `idempotency_records.response_body:${keyHash}`;
}

const ANSWER_KEY_PURPOSE = 'pixgate idempotency answer v1';

export class IdempotencyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async claim(companyId: string, key: string, operationId: string, fingerprint: string): Promise<Claim> {
    const now = await this.clock.now(companyId);
    const keyHash = keyHashOf(companyId, key);
    const fresh = {
      companyId,
      keyHash,
      operationId,
      fingerprint,
      now,
      lockedUntil: new Date(now.getTime() + LEASE_MS),
      expiresAt: new Date(now.getTime() + KEEP_MS),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await repo.insertRunning(this.db, fresh)) return { kind: 'claimed' };
      const claim = await this.db.transaction().execute(async (trx): Promise<Claim | undefined> => {
        const row = await repo.lockRecord(trx, companyId, keyHash);
        if (!row) return undefined; // released meanwhile: insert again
        const abandoned = row.state === 'RUNNING' && row.locked_until <= now;
        if (row.expires_at <= now || abandoned) {
          await repo.takeOver(trx, fresh);
          return { kind: 'claimed' };
        }
        if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
        if (row.state === 'RUNNING') return { kind: 'running' };
        return {
          kind: 'replay',
          reply: {
            status: row.response_status!,
            ...(row.response_body !== null
              ? { body: answerBoxOf(companyId, key).openBytes(row.response_body, answerPlaceOf(keyHash)) }
              : {}),
            ...(row.response_type ? { contentType: row.response_type } : {}),
            headers: { ...(row.response_headers ?? {}), 'Idempotent-Replayed': 'true' },
          },
        };
      });
      if (claim) return claim;
    }
    return { kind: 'running' };
  }

  // Keeps a 2xx answer; anything else frees the key.
  async finish(companyId: string, key: string, fingerprint: string, reply: Reply | undefined): Promise<void> {
    const keyHash = keyHashOf(companyId, key);
    const storable = reply && reply.status >= 200 && reply.status < 300 && !Buffer.isBuffer(reply.body);
    if (!storable) return repo.release(this.db, companyId, keyHash, fingerprint);
    const body =
      reply.body === undefined ? null : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    await repo.complete(this.db, companyId, keyHash, fingerprint, {
      status: reply.status,
      type: reply.contentType ?? (body === null ? null : 'application/json'),
      headers: reply.headers ?? {},
      body: body === null ? null : answerBoxOf(companyId, key).seal(body, answerPlaceOf(keyHash)),
    });
  }

  async deleteExpired(): Promise<number> {
    return repo.deleteExpired(this.db);
  }
}
