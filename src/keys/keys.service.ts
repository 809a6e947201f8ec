// The company's Pix keys: list (of the application's account), create (the company CNPJ, or
// an EVP the server generates), set the default, delete (not the default). A key is unique
// across the whole server; an account holds at most MAX_KEYS_PER_ACCOUNT keys (the DICT's
// limit for companies).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import { accountView } from '../accounts/accounts.service';
import type { Database, PixKey } from '../db/schema';
import { errors } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import { newEvpKey } from '../lib/ids';
import { validatePixKey } from '../lib/pix-key';
import { onlyDigitsAndLetters } from '../lib/taxid';
import { getBalance } from '../ledger/ledger.service';
import { isUniqueViolation } from '../db/errors';
import type { WritePart } from '../db/together';
import { type EventSamples, recordEventsPart, type SampleContext } from '../events/events.service';
import * as repo from './keys.repository';
import { requireLinkedAccount } from './linked-account';
import { findSubAccountByKey } from '../subaccounts/subaccounts.public';

export const MAX_KEYS_PER_ACCOUNT = 20;

export function pixKeyView(k: PixKey): components['schemas']['PixKey'] {
  return { key: k.key, type: k.type, isDefault: k.is_default, createdAt: k.created_at.toISOString() };
}

type KeyEvent = 'PIXGATE:PIX_KEY_CREATED' | 'PIXGATE:PIX_KEY_DELETED' | 'PIXGATE:PIX_KEY_DEFAULT_CHANGED';

// The event of a key's change, written in the change's statement: {pixKey} as it is after it.
function keyEventPart(type: KeyEvent, key: PixKey, at: Date): WritePart {
  return recordEventsPart([{ companyId: key.company_id, type, payload: { pixKey: pixKeyView(key) }, at }]);
}

// Sample payloads for test events: a made-up EVP key of the company's account.
function sampleKey(ctx: SampleContext, { isDefault }: { isDefault: boolean }) {
  const key: PixKey = {
    key: randomUUID(),
    company_id: ctx.party.company_id,
    account_id: ctx.party.account_id,
    type: 'EVP',
    is_default: isDefault,
    created_at: ctx.now,
  };
  return { pixKey: pixKeyView(key) };
}

export const keyEventSamples: EventSamples = {
  'PIXGATE:PIX_KEY_CREATED': (ctx) => sampleKey(ctx, { isDefault: false }),
  'PIXGATE:PIX_KEY_DELETED': (ctx) => sampleKey(ctx, { isDefault: false }),
  'PIXGATE:PIX_KEY_DEFAULT_CHANGED': (ctx) => sampleKey(ctx, { isDefault: true }),
};

// A key as written in a path: its DICT form when it is a valid key, else as given.
export function canonicalKey(raw: string): string {
  const parsed = validatePixKey(raw.trim());
  return parsed.ok ? parsed.value.key : raw.trim();
}

export class PixKeysService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly companies: CompanyDirectory,
  ) {}

  // The keys of the caller's account without the account's view (the dashboard's list):
  // three statements instead of four.
  async listKeys(principal: Principal, page: Page) {
    const account = await requireLinkedAccount(this.db, principal);
    const { rows, total } = await repo.listAccountKeys(this.db, account.id, page.skip, page.limit);
    return { pixKeys: rows.map(pixKeyView), total };
  }

  async list(principal: Principal, page: Page) {
    const account = await requireLinkedAccount(this.db, principal);
    const { rows, total } = await repo.listAccountKeys(this.db, account.id, page.skip, page.limit);
    return {
      pixKeys: rows.map(pixKeyView),
      account: accountView(account, await getBalance(this.db, account.id)),
      total,
    };
  }

  // The key the company's charges are paid into when none is named (its default key).
  async defaultKey(principal: Principal): Promise<string | undefined> {
    return (await repo.findDefaultKey(this.db, principal.companyId))?.key;
  }

  // An EVP key is made here (a key sent is ignored); a CNPJ key is the company's CNPJ, the one
  // sent (checked) or, without one, the company's own.
  async create(principal: Principal, input: { key?: string; type: 'CNPJ' | 'EVP' }) {
    const account = await requireLinkedAccount(this.db, principal);
    let key: string;
    if (input.type === 'CNPJ') {
      const given = onlyDigitsAndLetters(input.key ?? account.tax_id).toUpperCase();
      if (!validatePixKey(given, 'CNPJ').ok || given !== onlyDigitsAndLetters(account.tax_id).toUpperCase()) {
        throw errors.badRequest('The CNPJ key must be the CNPJ of the company');
      }
      key = given;
    } else key = newEvpKey();
    try {
      return await this.db.transaction().execute(async (trx) => {
        if ((await repo.countAccountKeys(trx, account.id)) >= MAX_KEYS_PER_ACCOUNT) {
          throw errors.badRequest(`An account may have at most ${MAX_KEYS_PER_ACCOUNT} Pix keys`);
        }
        // A new key was in no process's cache (keys not found are not kept): nothing to announce.
        const hasDefault = (await repo.findDefaultKey(trx, principal.companyId)) !== undefined;
        const row: PixKey = {
          key,
          company_id: principal.companyId,
          account_id: account.id,
          type: input.type,
          is_default: !hasDefault,
          created_at: await this.clock.now(principal.companyId, trx),
        };
        const created = await repo.insertPixKey(trx, row, [
          keyEventPart('PIXGATE:PIX_KEY_CREATED', row, row.created_at),
        ]);
        return pixKeyView(created);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.badRequest('Pix key already exists');
      throw err;
    }
  }

  async setDefault(principal: Principal, rawKey: string) {
    const key = canonicalKey(rawKey);
    return this.companies.transaction(this.db, async (trx) => {
      const found = await repo.lockCompanyKey(trx, principal.companyId, key);
      if (!found) throw errors.missing('pixKey');
      const now = await this.clock.now(principal.companyId, trx);
      const made = await repo.makeDefault(trx, principal.companyId, key, [
        keyEventPart('PIXGATE:PIX_KEY_DEFAULT_CHANGED', { ...found, is_default: true }, now),
      ]);
      await this.companies.afterWrite(trx, 'keys', principal.companyId);
      return pixKeyView(made);
    });
  }

  async remove(principal: Principal, rawKey: string): Promise<void> {
    const key = canonicalKey(rawKey);
    await this.companies.transaction(this.db, async (trx) => {
      const found = await repo.lockCompanyKey(trx, principal.companyId, key);
      if (!found) throw errors.missing('pixKey');
      if (found.is_default) throw errors.badRequest('The default Pix key cannot be deleted');
      // A subaccount is reached by its one key: the key leaves with the subaccount.
      if (found.account_id !== principal.accountId && (await findSubAccountByKey(trx, principal.companyId, key)))
        throw errors.badRequest('The Pix key of a subaccount is removed with the subaccount');
      const now = await this.clock.now(principal.companyId, trx);
      await repo.deleteKey(trx, key, [keyEventPart('PIXGATE:PIX_KEY_DELETED', found, now)]);
      await this.companies.afterWrite(trx, 'keys', principal.companyId);
    });
  }
}
