// Exclusive (fidelity) cashback: a company promises a customer (by CPF/CNPJ) an amount back
// on their next purchase. One cashback per customer is PENDING at a time: it stays PENDING
// until the company receives a Pix from that customer (a PIX_IN whose payer has the tax id)
// at or after its creation, which makes it USED (the Pix that used it is kept). The move to
// USED is made when the customer's cashback is next read or asked for. No money moves here:
// the platform keeps the record; giving the amount back is the company's business.
//
// Balance: the PENDING value (0 when there is none) and the status of the customer's latest
// cashback (PENDING, USED, or NONE when the customer never had one).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Cashback, Database } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal';
import type { Clock } from '../lib/clock';
import { normalizeTaxId } from '../lib/taxid';
import * as repo from './cashback.repository';

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

  // The customer's pending cashback after marking it USED if a Pix from them has arrived.
  private async settle(trx: Kysely<Database>, companyId: string, taxId: string): Promise<Cashback | undefined> {
    const pending = await repo.lockPending(trx, companyId, taxId);
    if (!pending) return undefined;
    const pix = await repo.findPixFromPayer(trx, companyId, taxId, pending.created_at);
    if (!pix) return pending;
    await repo.markUsed(trx, pending.id, pix.id, await this.clock.now(companyId, trx));
    return undefined;
  }
}
