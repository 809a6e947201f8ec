// DICT key lookups and the per-company token bucket they spend. The bucket lives in the
// database (several processes share it): its refill is computed from the stored tokens and
// the last refill tick, under the row lock, never by a timer. A lookup that finds the key
// costs 1 token, one that does not costs 20 (never below zero); an empty bucket answers 429.
// Every refill and lookup is logged; a lookup's end-to-end id can then pay the key it found.
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { Database, NewPixKeyTokenLogRow, PixKeyTokenLogRow } from '../db/schema';
import { errors } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { newEndToEndId } from '../lib/ids';
import { validatePixKey, type PixKeyType } from '../lib/pix-key';
import { OWN_ISPB } from '../lib/psp';
import { type DictEntry, type Rail, maskCpf } from '../rail/rail.public';
import type { CompanyDirectory } from '../identity/companies.service';
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

export function checkView(
  key: string,
  type: PixKeyType,
  endToEndId: string,
  entry: DictEntry,
): components['schemas']['PixKeyCheck'] {
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
    private readonly companies: CompanyDirectory,
  ) {}

  // GET /pix-keys/{pixKey}/check and POST /pix-keys/check.
  async check(principal: Principal, rawKey: string) {
    const parsed = validatePixKey(rawKey.trim());
    if (!parsed.ok) throw errors.badRequest(`Invalid Pix key: ${parsed.reason}`);
    const { key, type } = parsed.value;
    const outcome = await this.lookup(principal, key, type, 'pixKeyCheck');
    if (outcome.kind === 'empty') throw emptyBucket(outcome.nextRefresh);
    if (outcome.kind === 'notFound') throw errors.missing('pixKey');
    return checkView(key, outcome.entry.type, outcome.endToEndId, outcome.entry);
  }

  // One lookup in its own transaction (its cost is kept even when the caller then fails):
  // the bucket locked (refilled on the way), the DICT asked, the spend and its log written.
  async lookup(principal: Principal, key: string, type: PixKeyType, reason: LookupReason): Promise<LookupOutcome> {
    await this.requireLinkedAccount(principal);
    return this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(principal.companyId, trx);
      const { state, logs } = await this.refilledBucket(trx, principal, now);
      if (state.tokens < BUCKET.lookupCost) {
        if (logs.length) await repo.saveBucketWithLogs(trx, principal.companyId, state, logs);
        return { kind: 'empty', nextRefresh: new Date(state.refilledAt.getTime() + BUCKET.refillEveryMs) };
      }
      const entry = await this.rail.lookupKey(trx, key, type);
      const cost = entry ? BUCKET.lookupCost : BUCKET.notFoundCost;
      const after = Math.max(0, state.tokens - cost);
      const endToEndId = newEndToEndId(OWN_ISPB, now);
      logs.push({
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
      await repo.saveBucketWithLogs(trx, principal.companyId, { tokens: after, refilledAt: state.refilledAt }, logs);
      return entry ? { kind: 'found', entry, endToEndId, at: now } : { kind: 'notFound' };
    });
  }

  // The caller's own account must be open (a lookup is made on behalf of an account).
  private async requireLinkedAccount(principal: Principal) {
    const account = await this.companies.account(principal.companyId, principal.accountId);
    if (!account || account.status !== 'OPEN') throw errors.badRequest('You need to link a Bank Account to this API');
    return account;
  }

  // A previous lookup of this company that found the key (a payment reuses its end-to-end id).
  async findLookup(
    db: Kysely<Database>,
    companyId: string,
    endToEndId: string,
  ): Promise<{ key: string; entry: DictEntry } | undefined> {
    const row = await repo.findLookup(db, companyId, endToEndId);
    if (!row || !row.found || !row.result || !row.pix_key) return undefined;
    return { key: row.pix_key, entry: row.result };
  }

  async tokens(principal: Principal) {
    await this.requireLinkedAccount(principal);
    const now = await this.clock.now(principal.companyId);
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

  // The bucket locked and refilled for every whole period since its last tick, with the log
  // row of that refill (written by the caller, with its spend).
  private async refilledBucket(trx: Kysely<Database>, principal: Principal, now: Date) {
    const row = await repo.lockBucket(trx, principal.companyId, {
      tokens: BUCKET.maxTokens,
      maxTokens: BUCKET.maxTokens,
      refillRate: BUCKET.refillRate,
      at: now,
    });
    const state = refill(row, now);
    const logs: NewPixKeyTokenLogRow[] = [];
    if (state.added > 0) {
      logs.push({
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
    return { state, logs };
  }
}

export function emptyBucket(nextRefresh: Date) {
  return errors.tooManyRequests(
    `The key lookup token bucket is empty; it gets ${BUCKET.refillRate} tokens every minute (next at ${nextRefresh.toISOString()})`,
  );
}
