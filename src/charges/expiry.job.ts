// Charge expiry: a background job records OPENPIX:CHARGE_EXPIRED once per charge that is
// still ATIVA past its expiry (cob: expires_at; cobv: the end of dueDate + validity), by the
// server clock. Rows are claimed FOR UPDATE SKIP LOCKED, so several processes share the work.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../db/clock';
import { CHARGE_EXPIRED, chargeEventPayloadOf } from './charge-records';
import { claimExpiredCharges, type ExpiryClaim, markChargesExpired } from './charges.repository';

export const CHARGE_EXPIRY_JOB = 'charges.expiry';
const BATCH = 100;

export class ChargeExpiry {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  // Records the event of every charge expired by now (of one company, or of all); returns
  // how many. A batch is claimed and announced in two statements. The job's run (of all)
  // skips the charges another run holds; a company's run (after its clock moved) waits for
  // them, so that when it returns every charge of the company due by then is announced: the
  // clock's advance wakes the job too, which may hold some of them at that moment.
  async run(scope?: { companyId: string }): Promise<number> {
    const claim: ExpiryClaim = scope
      ? { limit: BATCH, companyId: scope.companyId, heldRows: 'wait' }
      : { limit: BATCH, heldRows: 'skip' };
    let total = 0;
    for (;;) {
      const done = await this.db.transaction().execute(async (trx) => {
        const expired = await claimExpiredCharges(trx, claim);
        const marks = [];
        for (const found of expired) {
          const { charge, company, account } = found;
          const now = await this.clock.now(charge.company_id, trx);
          const party = {
            company_id: charge.company_id,
            company_name: company.name,
            company_tax_id: company.tax_id,
            account_id: charge.account_id,
            ...account,
          };
          const payload = chargeEventPayloadOf(
            { ...found, charge: { ...charge, expired_event_at: now } },
            party,
            this.publicUrl,
            now,
          );
          marks.push({
            chargeId: charge.id,
            at: now,
            event: { id: randomUUID(), companyId: charge.company_id, type: CHARGE_EXPIRED, payload },
          });
        }
        await markChargesExpired(trx, marks);
        return expired.length;
      });
      total += done;
      if (done < BATCH) return total;
    }
  }
}
