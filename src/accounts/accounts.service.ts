// Reading accounts with their balances, and the caller's company.
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { findCompany } from '../identity/identity.public';
import { getBalance, getBalances, type BalanceView, counterLeg, OUTSIDE, FEES } from '../ledger/ledger.service';
import { randomInt, randomUUID } from 'node:crypto';
import { retryOnConflict } from '../db/errors';
import { FEATURES, hasFeature } from '../identity/identity.service';
import { deleteAccountKeys } from '../keys/keys.public';
import { applyMove, balanceView, lockAccounts } from '../ledger/ledger.service';
import type { LimitsService } from '../limits/limits.service';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import { newEndToEndId } from '../lib/ids';
import type { Cents } from '../lib/money';
import { OWN_ISPB } from '../lib/psp';
import { INSUFFICIENT_BALANCE } from '../payments/payments.service';
import { partyView } from '../payments/payments.public';
import { localParty, type Party, madeUpParty } from '../rail/rail.public';
import { insertTransaction } from '../transactions/transactions.public';
import * as repo from './accounts.repository';

// The spec's Account with every field present, and the account's status besides.
export type AccountView = Required<components['schemas']['Account']> & {
  balance: BalanceView;
  status: 'OPEN' | 'CLOSED';
};

export function accountView(a: repo.AccountWithCompany, balance: BalanceView): AccountView {
  return {
    accountId: a.id,
    isDefault: a.is_default,
    balance,
    taxId: a.tax_id,
    officialName: a.official_name,
    tradeName: a.trade_name,
    branch: a.branch,
    account: a.account_number,
    accountName: a.account_name,
    status: a.status,
  };
}

export class AccountsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly limits: LimitsService,
    private readonly companies: CompanyDirectory,
  ) {}

  // Another company's account is answered exactly like a missing one.
  async get(principal: Principal, accountId: string): Promise<AccountView> {
    const account = await repo.findAccountOfCompany(this.db, principal.companyId, accountId);
    if (!account) throw errors.missing('account');
    return accountView(account, await getBalance(this.db, account.id));
  }

  async list(principal: Principal, page: Page, email?: string) {
    const { rows, total } = await repo.listOpenAccountsOfCompany(
      this.db,
      principal.companyId,
      page.skip,
      page.limit,
      email,
    );
    const balances = await getBalances(
      this.db,
      rows.map((r) => r.id),
    );
    return { accounts: rows.map((r) => accountView(r, balances.get(r.id)!)), total };
  }

  async company(principal: Principal) {
    const company = await findCompany(this.db, principal.companyId);
    if (!company) throw errors.missing('company');
    return {
      id: company.id,
      name: company.name,
      officialName: company.official_name,
      tradeName: company.trade_name,
      taxID: company.tax_id,
      features: company.features,
    };
  }

  // Duplicates the account of the calling application: same holder, new number, no balance;
  // the holder e-mail is the one sent, else the calling account's.
  async create(principal: Principal, holderEmail?: string): Promise<AccountView> {
    if (!hasFeature(principal, FEATURES.bankAccount)) throw errors.badRequest('Bank account feature is not enabled');
    if (principal.applicationType !== 'MASTER') throw errors.forbidden('Wrong API type');
    return this.companies.transaction(this.db, async (trx) => {
      const source = await repo.findAccountOfCompany(trx, principal.companyId, principal.accountId);
      if (!source) throw errors.missing('account');
      let number = newAccountNumber();
      while (await repo.accountNumberTaken(trx, number)) number = newAccountNumber();
      const created = await repo.insertBankAccount(trx, {
        id: randomUUID(),
        company_id: principal.companyId,
        is_default: false,
        branch: source.branch,
        account_number: number,
        account_name: source.account_name,
        status: 'OPEN',
        created_at: await this.clock.now(principal.companyId, trx),
        holder_email: holderEmail?.trim() || source.holder_email,
      });
      await this.companies.afterWrite(trx, 'accounts', principal.companyId);
      return accountView(
        { ...created, tax_id: source.tax_id, official_name: source.official_name, trade_name: source.trade_name },
        balanceView(undefined),
      );
    });
  }

  // Closes an account: the company needs the bank account feature; the account must be
  // open, empty and not the default one. Its Pix keys leave the DICT with it.
  async close(principal: Principal, accountId: string): Promise<{ status: 'OK'; accountId: string }> {
    if (!hasFeature(principal, FEATURES.bankAccount))
      throw errors.featureRequired('This feature is not enabled for your company', 403);
    if (!ACCOUNT_ID.test(accountId)) throw errors.badRequest('Account ID is invalid');
    return this.companies.transaction(this.db, async (trx) => {
      const account = await repo.findAccountOfCompany(trx, principal.companyId, accountId);
      if (!account) throw errors.missing('account');
      await repo.lockAccount(trx, account.id);
      const now = await this.clock.now(principal.companyId, trx);
      const balance = (await lockAccounts(trx, [account.id], now)).get(account.id)!;
      const current = (await repo.findAccountOfCompany(trx, principal.companyId, accountId))!;
      if (current.status === 'CLOSED') throw errors.badRequest('Account already closed');
      if (balance.total !== 0 || balance.blocked !== 0)
        throw errors.badRequest('Account with balance cannot be deleted');
      if (current.is_default) throw errors.badRequest('The default account cannot be deleted');
      await deleteAccountKeys(trx, account.id);
      await repo.closeAccount(trx, account.id, now);
      await this.companies.afterWrite(trx, 'accounts', principal.companyId);
      return { status: 'OK' as const, accountId: account.id };
    });
  }

  // Sends `value` to the holder's registered account outside this server; below the free
  // minimum a fee is debited too. Limits apply as to payments.
  async withdraw(principal: Principal, accountId: string, value: number) {
    const { clock, limits } = this;
    return retryOnConflict(() =>
      this.db.transaction().execute(async (trx) => {
        const account = await repo.findAccountOfCompany(trx, principal.companyId, accountId);
        if (!account) throw errors.missing('account');
        if (account.status !== 'OPEN') throw errors.badRequest('Account already closed');
        const at = await clock.now(principal.companyId, trx);
        const balance = (await lockAccounts(trx, [account.id], at)).get(account.id)!;
        await limits.check(trx, account.id, value, at);
        const settings = await limits.settings(trx, account.id, account.created_at);
        const fee = value < settings.min_free_withdraw_value ? settings.withdraw_fee : 0;
        if (balance.available < value + fee) throw errors.badRequest(INSUFFICIENT_BALANCE);
        const endToEndId = newEndToEndId(OWN_ISPB, at);
        const payer = { ...localParty(account), companyId: account.company_id, accountId: account.id };
        const destination = registeredDestination(account);
        const tx = await insertTransaction(trx, {
          company_id: account.company_id,
          account_id: account.id,
          type: 'WITHDRAW',
          value,
          end_to_end_id: endToEndId,
          charge_id: null,
          payment_id: null,
          created_at: at,
          details: {
            destination: {
              name: destination.name,
              taxID: destination.taxId,
              ispb: destination.ispb,
              bank: destination.bank,
              branch: destination.branch,
              account: destination.account,
              accountType: destination.accountType,
            },
            debitParty: partyView(payer),
            creditParty: partyView(destination),
            ...(fee ? { fee } : {}),
          },
        });
        const moved = await applyMove(trx, {
          moveId: `withdraw:${tx.id}`,
          legs: [{ accountId: account.id, kind: 'DEBIT', amount: value as Cents }, counterLeg(OUTSIDE, value)],
          at,
          transactionId: tx.id,
          description: 'Withdrawal',
        });
        if (!moved.ok) throw errors.badRequest(INSUFFICIENT_BALANCE);
        if (fee) await chargeWithdrawFee(trx, { account, fee, endToEndId, at, withdrawTxId: tx.id, settings });
        const after = await getBalance(trx, account.id);
        return {
          account: accountView(account, after),
          transaction: { endToEndId, transaction: value, ...(fee ? { fee } : {}) },
        };
      }),
    );
  }
}

// The fee of a withdrawal below the free minimum: its own transaction and ledger move.
async function chargeWithdrawFee(
  trx: Kysely<Database>,
  w: {
    account: { id: string; company_id: string };
    fee: number;
    endToEndId: string;
    at: Date;
    withdrawTxId: string;
    settings: { min_free_withdraw_value: number };
  },
): Promise<void> {
  const feeTx = await insertTransaction(trx, {
    company_id: w.account.company_id,
    account_id: w.account.id,
    type: 'FEE',
    value: w.fee,
    end_to_end_id: w.endToEndId,
    charge_id: null,
    payment_id: null,
    created_at: w.at,
    details: {
      reason: 'WITHDRAW_FEE',
      withdrawEndToEndId: w.endToEndId,
      description: `Fee of a withdrawal below ${w.settings.min_free_withdraw_value} cents`,
    },
  });
  const charged = await applyMove(trx, {
    moveId: `withdraw-fee:${w.withdrawTxId}`,
    legs: [{ accountId: w.account.id, kind: 'DEBIT', amount: w.fee as Cents }, counterLeg(FEES, w.fee)],
    at: w.at,
    transactionId: feeTx.id,
    description: 'Withdrawal fee',
  });
  if (!charged.ok) throw errors.badRequest(INSUFFICIENT_BALANCE);
}

const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function newAccountNumber(): string {
  return String(randomInt(10_000_000, 99_999_999));
}

// The holder's own account at an outside institution, where withdrawals go (stable per account).
export function registeredDestination(account: repo.AccountWithCompany): Party {
  return madeUpParty(`withdraw:${account.id}`, 'company', { name: account.official_name, taxId: account.tax_id });
}
