// The Idempotency-Key layer of every platform POST (around the operation's handler, after its
// security and validation, so it covers every area's operations without their help).
//
// A key (at most 255 characters) is stored per company for at least 24 hours. The first
// request with it runs and, when it answers 2xx, its answer is kept byte for byte; the same
// key with the same request (operation, path, query and canonical body) replays that answer
// (header Idempotent-Replayed: true); with another request it answers 422; while the first
// is still running, 409. A request that fails (4xx, 5xx) changed nothing and frees its key,
// so it can be retried as is. Records live in the database: several processes share them.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Context as BackendContext } from 'openapi-backend';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { KoaContext } from './dispatch';
import { errors } from './errors';
import * as repo from './idempotency.repository';
import type { OperationMeta } from './types';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const MAX_KEY_LENGTH = 255;
export const KEEP_MS = 24 * 3600 * 1000;
// A RUNNING record older than this belongs to a request that died; another may take it over.
export const LEASE_MS = 10 * 60 * 1000;

interface Reply {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

type Run = (c: BackendContext, koa: KoaContext) => Promise<Reply>;

type Claim = { kind: 'claimed' } | { kind: 'running' } | { kind: 'mismatch' } | { kind: 'replay'; reply: Reply };

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
    const now = await this.clock.now();
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
    return repo.deleteExpired(this.db, await this.clock.now());
  }
}

// Wraps a POST operation's handler with the Idempotency-Key behaviour.
export function idempotent(meta: OperationMeta, run: Run): Run {
  return async (c, koa) => {
    const key = koa.get(IDEMPOTENCY_HEADER);
    const { principal, services } = koa.state.requestContext;
    if (!key || !principal) return run(c, koa);
    if (key.length > MAX_KEY_LENGTH)
      throw errors.badRequest(`${IDEMPOTENCY_HEADER} must have at most ${MAX_KEY_LENGTH} characters`);
    const store = services.idempotency;
    const fingerprint = fingerprintOf(meta.operationId, koa.originalUrl, c.request.requestBody);
    const claim = await store.claim(principal.companyId, key, meta.operationId, fingerprint);
    if (claim.kind === 'replay') return claim.reply;
    if (claim.kind === 'mismatch')
      throw errors.unprocessable(`${IDEMPOTENCY_HEADER} was already used with a different request`);
    if (claim.kind === 'running')
      throw errors.conflict(`A request with this ${IDEMPOTENCY_HEADER} is still being processed`);
    let reply: Reply | undefined;
    try {
      reply = await run(c, koa);
      return reply;
    } finally {
      await store.finish(principal.companyId, key, fingerprint, reply);
    }
  };
}
