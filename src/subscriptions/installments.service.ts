// The installments of subscriptions: list (per subscription), read, and for PIX_RECURRING the
// recurring charge of an installment made again or retried. The cobr itself follows the Pix
// API's rules (CobRService), in the installment's transaction: what the standard refuses is
// refused here with the same reasons, in the platform's error format.
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import { findChargesByCorrelationIds } from '../charges/charges.public';
import type { Database, RecurringCharge, SubscriptionInstallment } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import { addCalendarDays, todayUtc } from '../lib/business-days';
import type { Clock } from '../db/clock';
import { pageInfo, type Page } from '../lib/paging';
import { findRecurrence, findCobrsByTxids, lockCobr } from '../recurrences/recurrences.public';
import type { CobRService } from '../recurrences/cobr.service';
import { cobrRequestOf, dateOf, dueDateOf } from './installment-cobr';
import * as repo from './subscriptions.repository';
import { installmentView, type InstallmentView } from './subscriptions.view';

export type InstallmentCobrPayload = components['schemas']['InstallmentCobrPayload'];
export type InstallmentList = components['schemas']['Installment'][];

const NOT_PIX_RECURRING = 'Only installments of a PIX_RECURRING subscription have recurring charges';
// Charges that still stand for their installment (paid, or awaiting settlement).
const LIVE_COBR: RecurringCharge['status'][] = ['CRIADA', 'ATIVA', 'CONCLUIDA'];

export class InstallmentsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly cobrs: CobRService,
  ) {}

  // GET /subscriptions/{id}/installments (globalID or correlationID), newest first.
  async list(principal: Principal, subscriptionId: string, page: Page) {
    const sub = await repo.findSubscriptionByAnyId(this.db, principal.companyId, subscriptionId);
    if (!sub) throw errors.missing('subscription');
    const { rows, total } = await repo.listInstallments(this.db, sub.id, page.skip, page.limit);
    const correlationIds = rows.flatMap((r) => (r.charge_correlation_id !== null ? [r.charge_correlation_id] : []));
    const txids = rows.flatMap((r) => (r.cobr_txid !== null ? [r.cobr_txid] : []));
    const charges = await findChargesByCorrelationIds(this.db, sub.company_id, correlationIds);
    const cobrs = await findCobrsByTxids(this.db, sub.company_id, txids);
    const now = await this.clock.now(principal.companyId);
    const installments: InstallmentList = rows.map((r) =>
      installmentView(
        r,
        sub,
        charges.find((c) => c.correlation_id === r.charge_correlation_id),
        cobrs.find((c) => c.txid === r.cobr_txid),
        now,
      ),
    );
    return { installments, pageInfo: pageInfo(page, total) };
  }

  async get(principal: Principal, globalId: string): Promise<InstallmentView> {
    const found = await repo.findInstallment(this.db, principal.companyId, globalId);
    if (!found) throw errors.missing('installment');
    const { installment: i, sub } = found;
    const charges =
      i.charge_correlation_id !== null
        ? await findChargesByCorrelationIds(this.db, sub.company_id, [i.charge_correlation_id])
        : [];
    const cobrs = i.cobr_txid !== null ? await findCobrsByTxids(this.db, sub.company_id, [i.cobr_txid]) : [];
    const now = await this.clock.now(principal.companyId);
    return installmentView(i, sub, charges[0], cobrs[0], now);
  }

  // POST /installments/{id}/cobr: a new cobr for an installment without a standing one.
  async createCobr(principal: Principal, globalId: string, input: InstallmentCobrPayload): Promise<InstallmentView> {
    return this.db.transaction().execute(async (trx) => {
      const found = await repo.lockInstallment(trx, principal.companyId, globalId);
      if (!found) throw errors.missing('installment');
      const { installment, sub } = found;
      if (sub.type !== 'PIX_RECURRING' || sub.id_rec === null) throw errors.badRequest(NOT_PIX_RECURRING);
      const current =
        installment.cobr_txid !== null ? await lockCobr(trx, sub.company_id, installment.cobr_txid) : undefined;
      if (current && LIVE_COBR.includes(current.status))
        throw errors.badRequest(`The installment already has a recurring charge (${current.status})`);
      const now = await this.clock.now(principal.companyId, trx);
      const rec = (await findRecurrence(trx, sub.company_id, sub.id_rec))!;
      const date = dateOf(installment.scheduled_at);
      const due = dueDateOf(rec.body.calendario, date, todayUtc(now));
      if (due === undefined)
        throw errors.badRequest(`The cycle of the recurrence this installment (of ${date}) belongs to has ended`);
      const value = input.value ?? Number(installment.value);
      const request = await cobrRequestOf(trx, sub, due, value);
      const { cobr } = await this.cobrs.createWithin(trx, sub.company_id, undefined, request, now);
      const saved = await repo.setInstallmentCobr(trx, installment, cobr.txid, value);
      return installmentView(saved, sub, undefined, cobr, now);
    });
  }

  // POST /installments/{id}/cobr/retry: one more settlement attempt, tomorrow.
  async retryCobr(principal: Principal, globalId: string, input: InstallmentCobrPayload): Promise<InstallmentView> {
    return this.db.transaction().execute(async (trx) => {
      const found = await repo.findInstallment(trx, principal.companyId, globalId);
      if (!found) throw errors.missing('installment');
      const { installment, sub } = found;
      if (sub.type !== 'PIX_RECURRING') throw errors.badRequest(NOT_PIX_RECURRING);
      const txid = cobrTxidOf(installment);
      const now = await this.clock.now(principal.companyId, trx);
      const cobr = await lockCobr(trx, sub.company_id, txid);
      if (cobr && input.value !== undefined && input.value !== Number(cobr.value))
        throw errors.badRequest(`A retry charges the amount of the recurring charge (${Number(cobr.value)})`);
      const tomorrow = addCalendarDays(todayUtc(now), 1);
      const retried = await this.cobrs.retryWithin(trx, sub.company_id, txid, tomorrow, now);
      return installmentView(installment, sub, undefined, retried.cobr, now);
    });
  }
}

function cobrTxidOf(installment: SubscriptionInstallment): string {
  if (installment.cobr_txid === null) throw errors.badRequest('The installment has no recurring charge to retry');
  return installment.cobr_txid;
}
