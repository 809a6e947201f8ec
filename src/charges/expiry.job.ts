// Charge expiry: a background job records OPENPIX:CHARGE_EXPIRED once per charge that is
// still ATIVA past its expiry (cob: expires_at; cobv: the end of dueDate + validity), by the
// server clock. Rows are claimed FOR UPDATE SKIP LOCKED, so several processes share the work.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { recordEvent } from '../events/events.repository';
import type { Clock } from '../lib/clock';
import { CHARGE_EXPIRED, chargeEventPayload } from './charge-records';
import * as repo from './charges.repository';

export const CHARGE_EXPIRY_JOB = 'charges.expiry';
export const CHARGE_EXPIRY_INTERVAL_MS = 5_000;
const BATCH = 100;

export class ChargeExpiry {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  // Records the event of every charge expired by now; returns how many.
  async run(): Promise<number> {
    let total = 0;
    for (;;) {
      const done = await this.db.transaction().execute(async (trx) => {
        const now = await this.clock.now(trx);
        const expired = await repo.claimExpiredCharges(trx, now, BATCH);
        for (const charge of expired) {
          const marked = await repo.updateCharge(trx, charge.id, { expired_event_at: now });
          await recordEvent(trx, {
            companyId: charge.company_id,
            type: CHARGE_EXPIRED,
            payload: await chargeEventPayload(trx, marked, this.publicUrl, now),
            at: now,
          });
        }
        return expired.length;
      });
      total += done;
      if (done < BATCH) return total;
    }
  }
}
