// Idempotency records: one per (company, Idempotency-Key), kept at least 24 hours. The first
// request with a key claims it; the same request again replays the kept answer; another
// request with the key is a mismatch; a request still running makes others wait. Records live
// in the database, so several processes share them (the HTTP layer is http/idempotency.ts).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
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

export class IdempotencyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async claim(companyId: string, key: string, operationId: string, fingerprint: string): Promise<Claim> {
    const now = await this.clock.now(companyId);
    const fresh = {
      companyId,
      key,
      operationId,
      fingerprint,
      now,
      lockedUntil: new Date(now.getTime() + LEASE_MS),
      expiresAt: new Date(now.getTime() + KEEP_MS),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await repo.insertRunning(this.db, fresh)) return { kind: 'claimed' };
      const claim = await this.db.transaction().execute(async (trx): Promise<Claim | undefined> => {
        const row = await repo.lockRecord(trx, companyId, key);
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
            ...(row.response_body !== null ? { body: Buffer.from(row.response_body, 'utf8') } : {}),
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
    const storable = reply && reply.status >= 200 && reply.status < 300 && !Buffer.isBuffer(reply.body);
    if (!storable) return repo.release(this.db, companyId, key, fingerprint);
    const body =
      reply.body === undefined ? null : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    await repo.complete(this.db, companyId, key, fingerprint, {
      status: reply.status,
      type: reply.contentType ?? (body === null ? null : 'application/json'),
      headers: reply.headers ?? {},
      body,
    });
  }

  async deleteExpired(): Promise<number> {
    return repo.deleteExpired(this.db);
  }
}
