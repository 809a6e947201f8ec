// Exclusive (fidelity) cashback: a company promises a customer (by CPF/CNPJ) an amount back
// on their next purchase. One cashback per customer is PENDING at a time.
//
// Due: a cashback becomes due when the company receives a Pix from that customer (a PIX_IN
// whose payer has the tax id) settled at or after the cashback's creation, both instants on
// the company's clock (the sandbox clock when it was moved): moving the clock alone neither
// makes a cashback due nor expires it.
// Paid: once due, the amount goes back to the customer through the Pix rail as a devolution
// of that Pix (natureza ORIGINAL, description "Cashback"): the company's available balance is
// debited, the payer credited (an account here, or outside), REFUND_OUT in the transactions,
// the refund events; the cashback becomes USED with what was paid and the return's rtrId.
// A devolution cannot exceed the Pix, so a cashback larger than what is left refundable of the
// Pix is paid up to that (the rest is not paid). When the company's available balance does not
// cover it the cashback stays PENDING (due) and is tried again, never taking the balance
// below zero. Payment happens once: the pending row is locked and leaves PENDING in the same
// transaction as the devolution. The job `cashback.payouts` pays due cashbacks every few
// seconds; reading or asking for the customer's cashback pays it too.
//
// Balance: the PENDING value (0 when there is none) and the status of the customer's latest
// cashback (PENDING, USED, or NONE when the customer never had one).
import { findPixFromPayer } from '../transactions/transactions.public';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Cashback, Database } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { normalizeTaxId } from '../lib/taxid';
import { lockReceivedOfCompany, refundableOf, requestPlatformReturn } from '../pixin/pixin.public';
import * as repo from './cashback.repository';

export const CASHBACK_PAYOUTS_JOB = 'cashback.payouts';
const PAYOUTS_PER_RUN = 100;

export const CASHBACK_EXISTS = 'Customer already has a pending exclusive cashback';
export const CASHBACK_CREATED = 'Exclusive cashback created';

function cashbackView(c: Cashback) {
  return { value: Number(c.value), status: c.status, taxID: c.tax_id, createdAt: c.created_at.toISOString() };
}

function taxIdOf(raw: string, where: 'body' | 'path'): string {
  const checked = normalizeTaxId(raw);
  if (!checked.ok)
    throw errors.validation([{ field: 'taxID', in: where, message: checked.reason, value: raw }], 'Invalid taxID');
  return checked.value.taxId;
}

export class CashbackService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async balance(principal: Principal, rawTaxId: string) {
    const taxId = taxIdOf(rawTaxId, 'path');
    return this.db.transaction().execute(async (trx) => {
      const pending = await this.settle(trx, principal.companyId, taxId);
      if (pending) return { balance: Number(pending.value), status: 'PENDING' };
      const latest = await repo.findLatest(trx, principal.companyId, taxId);
      return { balance: 0, status: latest?.status ?? 'NONE' };
    });
  }

  // The pending cashback when there is one (created: false), else a new one (created: true).
  async getOrCreate(principal: Principal, input: { taxID: string; value: number }) {
    const taxId = taxIdOf(input.taxID, 'body');
    try {
      return await this.db.transaction().execute(async (trx) => {
        const now = await this.clock.now(principal.companyId, trx);
        const pending = await this.settle(trx, principal.companyId, taxId);
        if (pending) return { created: false, cashback: cashbackView(pending), message: CASHBACK_EXISTS };
        const row = await repo.insertCashback(trx, {
          id: randomUUID(),
          company_id: principal.companyId,
          tax_id: taxId,
          value: input.value,
          created_at: now,
          updated_at: now,
        });
        return { created: true, cashback: cashbackView(row), message: CASHBACK_CREATED };
      });
    } catch (error) {
      // A concurrent call created the pending cashback first: answer it.
      if (!isUniqueViolation(error)) throw error;
      const pending = await repo.findPending(this.db, principal.companyId, taxId);
      if (!pending) throw error;
      return { created: false, cashback: cashbackView(pending), message: CASHBACK_EXISTS };
    }
  }

  // Pays the cashbacks that are due (the job). Answers how many were paid.
  async payDue(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let paid = 0;
      for (const due of await repo.claimDue(trx, PAYOUTS_PER_RUN)) if (!(await this.payIfDue(trx, due))) paid++;
      return paid;
    });
  }

  // The customer's pending cashback, after paying it if it is due (then undefined).
  private async settle(trx: Kysely<Database>, companyId: string, taxId: string): Promise<Cashback | undefined> {
    const pending = await repo.lockPending(trx, companyId, taxId);
    return pending ? this.payIfDue(trx, pending) : undefined;
  }

  // `pending` is locked by the caller. Undefined once paid; the row while not due or not
  // covered by the company's available balance.
  private async payIfDue(trx: Kysely<Database>, pending: Cashback): Promise<Cashback | undefined> {
    const pix = await findPixFromPayer(trx, pending.company_id, pending.tax_id, pending.created_at);
    if (!pix) return pending;
    const now = await this.clock.now(pending.company_id, trx);
    const received = pix.end_to_end_id
      ? await lockReceivedOfCompany(trx, pending.company_id, pix.end_to_end_id)
      : undefined;
    const amount = received ? Math.min(Number(pending.value), (await refundableOf(trx, received)).ORIGINAL) : 0;
    let returnId: string | null = null;
    if (received && amount > 0) {
      const devolution = await requestPlatformReturn(
        trx,
        received,
        {
          id: `CB${pending.id.replace(/-/g, '')}`,
          value: amount,
          natureza: 'ORIGINAL',
          descricao: 'Cashback',
          from: 'available',
        },
        now,
      );
      if (!devolution) return pending;
      returnId = devolution.rtr_id;
    }
    await repo.markUsed(trx, pending.id, { transactionId: pix.id, paidValue: amount, returnId }, now);
    return undefined;
  }
}
