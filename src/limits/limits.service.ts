// Pix-out limits of an account: per transaction and per day, separately for daytime and for
// nighttime (20:00 to 06:00 Brasília time on the server clock), and per calendar month.
// Payments and withdrawals check them under the payer's balance row lock, so concurrent
// ones cannot pass a limit together. Accounts without their own row use the defaults.
import type { Kysely } from 'kysely';
import type { AccountLimitsRow, Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { findAccountOfCompany } from '../accounts/accounts.public';
import { dayWindows, isNighttime, monthWindow, NIGHT_END_HOUR, NIGHT_START_HOUR } from './brasilia-time';
import * as repo from './limits.repository';

export interface LimitDefaults {
  daytimePerTransaction: number;
  daytimeDaily: number;
  nighttimePerTransaction: number;
  nighttimeDaily: number;
  monthly: number;
  minFreeWithdrawValue: number;
  withdrawFee: number;
}

export const DEFAULT_LIMITS: Omit<LimitDefaults, 'minFreeWithdrawValue' | 'withdrawFee'> = {
  daytimePerTransaction: 10_000_000,
  daytimeDaily: 50_000_000,
  nighttimePerTransaction: 1_000_000,
  nighttimeDaily: 5_000_000,
  monthly: 300_000_000,
};

const hhmm = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

export class LimitsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly defaults: LimitDefaults,
  ) {}

  async settings(db: Kysely<Database>, accountId: string, since: Date): Promise<AccountLimitsRow> {
    return (await repo.findLimits(db, accountId)) ?? this.defaultsFor(accountId, since);
  }

  // The limits of an account that has none of its own.
  private defaultsFor(accountId: string, since: Date): AccountLimitsRow {
    const d = this.defaults;
    return {
      account_id: accountId,
      daytime_per_transaction: d.daytimePerTransaction,
      daytime_daily: d.daytimeDaily,
      nighttime_per_transaction: d.nighttimePerTransaction,
      nighttime_daily: d.nighttimeDaily,
      monthly: d.monthly,
      min_free_withdraw_value: d.minFreeWithdrawValue,
      withdraw_fee: d.withdrawFee,
      updated_at: since,
    };
  }

  async view(principal: Principal, accountId: string) {
    const account = await findAccountOfCompany(this.db, principal.companyId, accountId);
    if (!account) throw errors.missing('account');
    const now = await this.clock.now(principal.companyId);
    const limits = await this.settings(this.db, account.id, account.created_at);
    const used = await this.usage(this.db, account.id, now);
    return {
      accountId: account.id,
      daytime: { perTransaction: limits.daytime_per_transaction, daily: limits.daytime_daily, usedToday: used.daytime },
      nighttime: {
        perTransaction: limits.nighttime_per_transaction,
        daily: limits.nighttime_daily,
        usedToday: used.nighttime,
      },
      nighttimeStart: hhmm(NIGHT_START_HOUR),
      nighttimeEnd: hhmm(NIGHT_END_HOUR),
      monthly: limits.monthly,
      minFreeWithdrawValue: limits.min_free_withdraw_value,
      updatedAt: limits.updated_at.toISOString(),
    };
  }

  // Throws 400 when sending `value` now would pass a limit. Call it holding the payer's
  // balance row lock (the usage cannot change under it).
  async check(trx: Kysely<Database>, accountId: string, value: number, now: Date): Promise<void> {
    const day = dayWindows(now);
    const month = monthWindow(now);
    const read = await repo.limitsAndUsage(trx, accountId, {
      monthStart: month.start,
      monthEnd: month.end,
      dayStart: day.start,
      nightEnds: day.nightEnds,
      nightStarts: day.nightStarts,
      dayEnd: day.end,
    });
    const limits = read.limits ?? this.defaultsFor(accountId, now);
    const used = read.used;
    const night = isNighttime(now);
    const period = night ? 'nighttime' : 'daytime';
    const perTransaction = night ? limits.nighttime_per_transaction : limits.daytime_per_transaction;
    const daily = night ? limits.nighttime_daily : limits.daytime_daily;
    const usedToday = night ? used.nighttime : used.daytime;
    if (value > perTransaction)
      throw errors.badRequest(`Value exceeds the ${period} limit per transaction (${perTransaction} cents)`);
    if (usedToday + value > daily)
      throw errors.badRequest(
        `Value exceeds the ${period} daily limit (${daily} cents, ${usedToday} already used today)`,
      );
    if (used.month + value > limits.monthly)
      throw errors.badRequest(
        `Value exceeds the monthly limit (${limits.monthly} cents, ${used.month} already used this month)`,
      );
  }

  private usage(db: Kysely<Database>, accountId: string, now: Date) {
    const day = dayWindows(now);
    const month = monthWindow(now);
    return repo.usage(db, accountId, {
      monthStart: month.start,
      monthEnd: month.end,
      dayStart: day.start,
      nightEnds: day.nightEnds,
      nightStarts: day.nightStarts,
      dayEnd: day.end,
    });
  }
}
