// DICT key lookups and the per-company token bucket they spend. The bucket lives in the
// database (several processes share it): its refill is computed from the stored tokens and
// the last refill tick, under the row lock, never by a timer. A lookup that finds the key
// costs 1 token, one that does not costs 20 (never below zero); an empty bucket answers 429.
// Every refill and lookup is logged; a lookup's end-to-end id can then pay the key it found.
import type { Kysely } from 'kysely';
import type { Database, PixKeyTokenLogRow } from '../db/schema';
import { errors } from '../http/errors';
import type { Page } from '../http/paging';
import type { Principal } from '../http/principal';
import type { Clock } from '../lib/clock';
import { newEndToEndId } from '../lib/ids';
import { validatePixKey, type PixKeyType } from '../lib/pix-key';
import { OWN_ISPB } from '../lib/psp';
import { maskCpf } from '../rail/outside-world';
import type { DictEntry, Rail } from '../rail/rail';
import { requireLinkedAccount } from './linked-account';
import * as repo from './tokens.repository';

export const BUCKET = {
  maxTokens: 500,
  refillRate: 20,
  refillEveryMs: 60_000,
  lookupCost: 1,
  notFoundCost: 20,
} as const;

export type LookupReason = 'pixKeyCheck' | 'payment';

export type LookupOutcome =
  | { kind: 'found'; entry: DictEntry; endToEndId: string; at: Date }
  | { kind: 'notFound' }
  | { kind: 'empty'; nextRefresh: Date };

interface BucketState {
  tokens: number;
  refilledAt: Date;
  added: number;
}

// The bucket after every whole refill period since its last tick.
export function refill(
  row: { tokens: number; max_tokens: number; refill_rate: number; refilled_at: Date },
  now: Date,
): BucketState {
  const ticks = Math.max(0, Math.floor((now.getTime() - row.refilled_at.getTime()) / BUCKET.refillEveryMs));
  if (ticks === 0) return { tokens: row.tokens, refilledAt: row.refilled_at, added: 0 };
  const tokens = Math.min(row.max_tokens, row.tokens + ticks * row.refill_rate);
  return {
    tokens,
    refilledAt: new Date(row.refilled_at.getTime() + ticks * BUCKET.refillEveryMs),
    added: tokens - row.tokens,
  };
}

export function checkView(key: string, type: PixKeyType, endToEndId: string, entry: DictEntry) {
  const o = entry.owner;
  return {
    pixKey: key,
    type,
    pixKeyEndToEndId: endToEndId,
    owner: {
      name: o.name,
      taxID: o.taxIdType === 'BR:CPF' ? maskCpf(o.taxId) : o.taxId,
      psp: o.bank,
      branch: o.branch,
      account: o.account,
      accountType: o.accountType,
    },
  };
}

function logView(row: PixKeyTokenLogRow) {
  return {
    operation: row.operation,
    reason: row.reason,
    tokens: row.tokens,
    tokensBefore: row.tokens_before,
    tokensAfter: row.tokens_after,
    ...(row.end_to_end_id ? { endToEndId: row.end_to_end_id } : {}),
    ...(row.pix_key ? { pixKey: row.pix_key } : {}),
    companyBankAccount: row.account_id,
    createdAt: row.created_at.toISOString(),
  };
}

export class KeyLookupService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly rail: Rail,
  ) {}

  // GET /pix-keys/{pixKey}/check and POST /pix-keys/check.
  async check(principal: Principal, rawKey: string) {
    const parsed = validatePixKey(rawKey.trim());
    if (!parsed.ok) throw errors.badRequest(`Invalid Pix key: ${parsed.reason}`);
    const { key, type } = parsed.value;
    const outcome = await this.lookup(principal, key, type, 'pixKeyCheck');
    if (outcome.kind === 'empty') throw emptyBucket(outcome.nextRefresh);
    if (outcome.kind === 'notFound') throw errors.notFound('Pix key not found');
    return checkView(key, outcome.entry.type, outcome.endToEndId, outcome.entry);
  }

  // One lookup in its own transaction (its cost is kept even when the caller then fails).
  async lookup(principal: Principal, key: string, type: PixKeyType, reason: LookupReason): Promise<LookupOutcome> {
    await requireLinkedAccount(this.db, principal);
    return this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(trx);
      const state = await this.refilledBucket(trx, principal, now);
      if (state.tokens < BUCKET.lookupCost)
        return { kind: 'empty', nextRefresh: new Date(state.refilledAt.getTime() + BUCKET.refillEveryMs) };
      const entry = await this.rail.lookupKey(trx, key, type);
      const cost = entry ? BUCKET.lookupCost : BUCKET.notFoundCost;
      const after = Math.max(0, state.tokens - cost);
      const endToEndId = newEndToEndId(OWN_ISPB, now);
      await repo.insertLog(trx, {
        company_id: principal.companyId,
        account_id: principal.accountId,
        operation: 'REMOVE',
        reason,
        tokens: state.tokens - after,
        tokens_before: state.tokens,
        tokens_after: after,
        pix_key: key,
        found: entry !== undefined,
        result: entry ? JSON.stringify(entry) : null,
        end_to_end_id: entry ? endToEndId : null,
        created_at: now,
      });
      await repo.saveBucket(trx, principal.companyId, after, state.refilledAt);
      return entry ? { kind: 'found', entry, endToEndId, at: now } : { kind: 'notFound' };
    });
  }

  // A previous lookup of this company that found the key (a payment reuses its end-to-end id).
  async findLookup(
    db: Kysely<Database>,
    companyId: string,
    endToEndId: string,
  ): Promise<{ key: string; entry: DictEntry } | undefined> {
    const row = await repo.findLookup(db, companyId, endToEndId);
    if (!row || !row.found || !row.result || !row.pix_key) return undefined;
    return { key: row.pix_key, entry: row.result as unknown as DictEntry };
  }

  async tokens(principal: Principal) {
    await requireLinkedAccount(this.db, principal);
    const now = await this.clock.now();
    const row = (await repo.findBucket(this.db, principal.companyId)) ?? {
      tokens: BUCKET.maxTokens,
      max_tokens: BUCKET.maxTokens,
      refill_rate: BUCKET.refillRate,
      refilled_at: now,
    };
    const state = refill(row, now);
    return {
      tokens: state.tokens,
      maxTokens: row.max_tokens,
      tokensAfterRefresh: Math.min(row.max_tokens, state.tokens + row.refill_rate),
      refreshRate: row.refill_rate,
      nextRefresh: new Date(state.refilledAt.getTime() + BUCKET.refillEveryMs).toISOString(),
    };
  }

  async logs(principal: Principal, accountId: string | undefined, page: Page) {
    const { rows, total } = await repo.listLogs(this.db, principal.companyId, accountId, page.skip, page.limit);
    return { logs: rows.map(logView), total };
  }

  private async refilledBucket(trx: Kysely<Database>, principal: Principal, now: Date): Promise<BucketState> {
    const row = await repo.lockBucket(trx, principal.companyId, {
      tokens: BUCKET.maxTokens,
      maxTokens: BUCKET.maxTokens,
      refillRate: BUCKET.refillRate,
      at: now,
    });
    const state = refill(row, now);
    if (state.added > 0) {
      await repo.insertLog(trx, {
        company_id: principal.companyId,
        account_id: principal.accountId,
        operation: 'ADD',
        reason: 'refill',
        tokens: state.added,
        tokens_before: row.tokens,
        tokens_after: state.tokens,
        pix_key: null,
        found: null,
        result: null,
        end_to_end_id: null,
        created_at: state.refilledAt,
      });
    }
    if (state.refilledAt !== row.refilled_at)
      await repo.saveBucket(trx, principal.companyId, state.tokens, state.refilledAt);
    return state;
  }
}

export function emptyBucket(nextRefresh: Date) {
  return errors.tooManyRequests(
    `The key lookup token bucket is empty; it gets ${BUCKET.refillRate} tokens every minute (next at ${nextRefresh.toISOString()})`,
  );
}
