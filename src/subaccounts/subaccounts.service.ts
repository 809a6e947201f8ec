// Subaccounts: ledger accounts of a company, each reached by one Pix key registered for it
// here (so it receives Pix and the charges created with `subaccount`), belonging to the
// company account of the application that opened it. Money moves between a subaccount and
// that account (debit, credit, withdraw) or another subaccount (transfer) through the ledger,
// each move an INTERNAL_TRANSFER transaction. Needs the SUBACCOUNT feature.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import { closeAccount, insertBankAccount } from '../accounts/accounts.public';
import type { Database } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { errors, type FieldIssue } from '../errors/errors';
import { FEATURES, hasFeature } from '../identity/identity.service';
import type { Principal } from '../identity/principal.types';
import {
  requireLinkedAccount,
  deleteAccountKeys,
  findDefaultKey,
  findPixKeyOwner,
  insertPixKey,
} from '../keys/keys.public';
import { balanceView, lockAccounts, statementOf } from '../ledger/ledger.service';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import type { Page } from '../lib/paging';
import { validatePixKey } from '../lib/pix-key';
import { INSUFFICIENT_BALANCE, moveInternally } from '../transfers/transfers.public';
import * as repo from './subaccounts.repository';
import { MOVE_PREFIX, subAccountView, subaccountStatementEntryView } from './subaccounts.view';

const NOT_ENABLED = 'This feature is not enabled for your company';

type MoveInput = components['schemas']['SubAccountMovePayload'];
type TransferInput = components['schemas']['SubAccountTransferPayload'];

// A key as a path or body names it: its DICT form when valid, else as given (never found).
function dictForm(raw: string): string {
  const parsed = validatePixKey(raw.trim());
  return parsed.ok ? parsed.value.key : raw.trim();
}

export class SubAccountsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly companies: CompanyDirectory,
  ) {}

  private requireFeature(principal: Principal): void {
    if (!hasFeature(principal, FEATURES.subaccount)) throw errors.featureRequired(NOT_ENABLED);
  }

  async list(principal: Principal, page: Page) {
    this.requireFeature(principal);
    const { rows, total } = await repo.listSubAccounts(this.db, principal.companyId, page.skip, page.limit);
    return { subAccounts: rows.map(subAccountView), total };
  }

  async get(principal: Principal, rawKey: string) {
    this.requireFeature(principal);
    return subAccountView(await this.find(this.db, principal, rawKey));
  }

  private async find(db: Kysely<Database>, principal: Principal, rawKey: string): Promise<repo.SubAccountRow> {
    const found = await repo.findSubAccountByKey(db, principal.companyId, dictForm(rawKey));
    if (!found) throw errors.missing('subaccount');
    return found;
  }

  // Opens a subaccount under the key, or answers the one the key already names.
  async create(principal: Principal, input: { pixKey: string; name: string }) {
    this.requireFeature(principal);
    const parsed = validatePixKey(input.pixKey.trim());
    if (!parsed.ok) {
      const issue: FieldIssue = { field: 'pixKey', in: 'body', message: 'pixKey is not a valid Pix key' };
      throw errors.validation([issue], issue.message);
    }
    const name = input.name.trim();
    if (!name)
      throw errors.validation([{ field: 'name', in: 'body', message: 'name is required' }], 'name is required');
    const { key, type } = parsed.value;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const existing = await repo.findSubAccountByKey(trx, principal.companyId, key);
        if (existing) return subAccountView(existing);
        if (await findPixKeyOwner(trx, key)) throw errors.badRequest('This Pix key is already registered');
        const parent = await requireLinkedAccount(trx, principal);
        const now = await this.clock.now(principal.companyId, trx);
        const id = randomUUID();
        await insertBankAccount(trx, {
          id,
          company_id: principal.companyId,
          is_default: false,
          branch: 'sub',
          account_number: `sub-${id}`,
          account_name: name,
          status: 'OPEN',
          created_at: now,
          holder_email: null,
          parent_account_id: parent.id,
        });
        await insertPixKey(trx, {
          key,
          company_id: principal.companyId,
          account_id: id,
          type,
          is_default: false,
          created_at: now,
        });
        return subAccountView({
          account_id: id,
          company_id: principal.companyId,
          parent_account_id: parent.id,
          name,
          pix_key: key,
          created_at: now,
          balance: undefined,
        });
      });
    } catch (error) {
      // Registered meanwhile by another request.
      if (isUniqueViolation(error)) throw errors.badRequest('This Pix key is already registered');
      throw error;
    }
  }

  // Closes a subaccount with nothing in it; its key leaves with it.
  async remove(principal: Principal, rawKey: string) {
    this.requireFeature(principal);
    return this.companies.transaction(this.db, async (trx) => {
      const sub = await this.find(trx, principal, rawKey);
      const now = await this.clock.now(principal.companyId, trx);
      const balance = (await lockAccounts(trx, [sub.account_id], now)).get(sub.account_id)!;
      if (balance.total !== 0) throw errors.badRequest('Only subaccount without balance can be removed');
      await deleteAccountKeys(trx, sub.account_id);
      await closeAccount(trx, sub.account_id, now);
      // Its key may be cached as a receiving key (charges to the subaccount).
      await this.companies.afterWrite(trx, 'keys', principal.companyId);
      return { status: 'OK' as const, pixKey: sub.pix_key };
    });
  }

  // From the company account into the subaccount (credit) or back (debit).
  async move(principal: Principal, rawKey: string, direction: 'debit' | 'credit', input: MoveInput) {
    this.requireFeature(principal);
    return this.db.transaction().execute(async (trx) => {
      const sub = await this.find(trx, principal, rawKey);
      const at = await this.clock.now(principal.companyId, trx);
      const description = input.description?.trim() || `Subaccount ${sub.name} ${direction}ed`;
      const [from, to] =
        direction === 'debit' ? [sub.account_id, sub.parent_account_id] : [sub.parent_account_id, sub.account_id];
      await moveInternally(trx, {
        moveId: `subaccount-${direction}:${sub.account_id}:${input.correlationID ?? randomUUID()}`,
        companyId: principal.companyId,
        fromAccountId: from,
        toAccountId: to,
        value: input.value,
        at,
        description,
        details: {
          operation: `SUBACCOUNT_${direction.toUpperCase()}`,
          subaccount: sub.pix_key,
          ...(input.correlationID ? { correlationID: input.correlationID } : {}),
        },
        reused: `A ${direction} with this correlationID already exists with a different body`,
      });
      return {
        pixKey: sub.pix_key,
        value: input.value,
        ...(input.description !== undefined ? { description: input.description } : {}),
        success: `Sub-account has been successfully ${direction}ed, ${input.value}`,
      };
    });
  }

  // The available balance (or `value`) of the subaccount to the company account it belongs to.
  async withdraw(principal: Principal, rawKey: string, value: number | undefined) {
    this.requireFeature(principal);
    return this.db.transaction().execute(async (trx) => {
      const sub = await this.find(trx, principal, rawKey);
      const at = await this.clock.now(principal.companyId, trx);
      const locked = await lockAccounts(trx, [sub.account_id, sub.parent_account_id], at);
      const available = locked.get(sub.account_id)!.available;
      const amount = value ?? available;
      if (amount <= 0 || amount > available) throw errors.badRequest(INSUFFICIENT_BALANCE);
      const correlationID = randomUUID();
      const comment = `Withdrawal of subaccount ${sub.name}`;
      await moveInternally(trx, {
        moveId: `${MOVE_PREFIX.withdraw}${correlationID}`,
        companyId: principal.companyId,
        fromAccountId: sub.account_id,
        toAccountId: sub.parent_account_id,
        value: amount,
        at,
        description: comment,
        details: { operation: 'SUBACCOUNT_WITHDRAW', subaccount: sub.pix_key, correlationID },
        reused: INSUFFICIENT_BALANCE,
      });
      const destination = await findDefaultKey(trx, principal.companyId);
      const before = balanceView(locked.rows.get(sub.account_id));
      return {
        account: {
          status: 'CONFIRMED' as const,
          value: amount,
          correlationID,
          ...(destination ? { destinationAlias: destination.key } : {}),
          comment,
        },
        subAccount: { ...subAccountView(sub), balance: before.total - amount },
      };
    });
  }

  // Between two subaccounts of the company.
  async transfer(principal: Principal, input: TransferInput) {
    this.requireFeature(principal);
    const fromKey = dictForm(input.fromPixKey);
    const toKey = dictForm(input.toPixKey);
    if (fromKey === toKey) throw errors.badRequest('The origin and destination subaccounts must differ');
    return this.db.transaction().execute(async (trx) => {
      const found = await repo.findSubAccountsByKeys(trx, principal.companyId, [fromKey, toKey]);
      const origin = found.find((s) => s.pix_key === fromKey);
      const destination = found.find((s) => s.pix_key === toKey);
      if (!origin || !destination) throw errors.missing('subaccount');
      const at = await this.clock.now(principal.companyId, trx);
      await moveInternally(trx, {
        moveId: `${MOVE_PREFIX.transfer}${principal.companyId}:${input.correlationID ?? randomUUID()}`,
        companyId: principal.companyId,
        fromAccountId: origin.account_id,
        toAccountId: destination.account_id,
        value: input.value,
        at,
        description: `Transfer from subaccount ${origin.name} to ${destination.name}`,
        details: {
          operation: 'SUBACCOUNT_TRANSFER',
          destination: { pixKey: destination.pix_key, name: destination.name },
          ...(input.correlationID ? { correlationID: input.correlationID } : {}),
        },
        reused: 'A transfer with this correlationID already exists with a different body',
      });
      const after = await repo.findSubAccountsByKeys(trx, principal.companyId, [fromKey, toKey]);
      const view = (key: string) => subAccountView(after.find((s) => s.pix_key === key)!);
      return { value: input.value, originSubaccount: view(fromKey), destinationSubaccount: view(toKey) };
    });
  }

  async statement(principal: Principal, rawKey: string, period: { start?: Date; end?: Date }, page: Page) {
    this.requireFeature(principal);
    const sub = await this.find(this.db, principal, rawKey);
    const rows = await statementOf(this.db, sub.account_id, period, page);
    return rows.map((r) => subaccountStatementEntryView(r));
  }
}
