// Subscriptions: a customer pays `value` every period. Each generation makes a charge (the
// platform charge service, as POST /api/v1/charge does) with the subscription's customer and
// comment: OVERDUE (chargeType, the default) due `dayDue` days after it is generated, with the
// fines and interests, or DYNAMIC expiring `dayDue` days after it.
//
// Schedule (the server clock): the first charge on the next day-of-month `dayGenerateCharge`
// (today included) or at the date-time sent; then every 7 days (WEEKLY) or 1, 2, 3, 6, 12 months
// (MONTHLY, BIMONTHLY, TRIMONTHLY, SEMIANNUALLY, ANNUALLY) on that day of the month. With installmentCount the
// subscription is COMPLETED after that many charges. The background job `subscriptions.charges`
// generates what is due (several periods at once after the clock jumps). PIX_RECURRING
// (Pix Automatico) is accepted and, until it is linked to the Pix API's recurrences, charges
// like RECURRENT.
//
// The charge service runs its own transaction, so a generation is: claim the due
// subscriptions (FOR UPDATE SKIP LOCKED), create the charge by a correlationID fixed by the
// subscription and installment (a repeat returns the same charge), then record the
// installment and move the schedule only if no other run did it first.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { PlatformChargesService } from '../charges/platform/platform-charges.service';
import type { Database, Subscription } from '../db/schema';
import { upsertChargeCustomer } from '../customers/customers.service';
import { isUniqueViolation } from '../db/errors';
import { paymentLinkUrlOf } from '../charges/charge-model';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal';
import { addCalendarDays, todayUtc } from '../lib/business-days';
import type { Clock } from '../lib/clock';
import { firstChargeAt, nextChargeAt, normalizeFrequency } from './schedule';
import * as repo from './subscriptions.repository';

export type SubscriptionCreatePayload = components['schemas']['SubscriptionCreatePayload'];
export const SUBSCRIPTION_CHARGES_JOB = 'subscriptions.charges';
export const SUBSCRIPTION_CHARGES_INTERVAL_MS = 60_000;
const DUPLICATE = 'Subscription with this correlationID already exists';
const FINES_NEED_OVERDUE = 'fines and interests apply only to OVERDUE charges (chargeType)';
const BATCH = 50;

export function subscriptionView(s: Subscription, publicUrl: string) {
  return {
    globalID: s.global_id,
    ...(s.name !== null ? { name: s.name } : {}),
    value: Number(s.value),
    customer: s.customer,
    dayGenerateCharge: s.day_generate_charge,
    dayDue: s.day_due,
    type: s.type,
    chargeType: s.charge_type,
    frequency: s.frequency,
    isActive: s.status === 'ACTIVE',
    status: s.status,
    correlationID: s.correlation_id,
    paymentLinkUrl: paymentLinkUrlOf(publicUrl, s.payment_link_id),
    ...(s.interests ? { interests: s.interests } : {}),
    ...(s.fines ? { fines: s.fines } : {}),
    ...(s.additional_info ? { additionalInfo: s.additional_info } : {}),
    createdAt: s.created_at.toISOString(),
  };
}

// The charge correlationID of installment n (fixed: a repeated generation finds it).
export function chargeCorrelationId(s: Subscription, installment: number): string {
  return `subscription-${s.id}-${installment}`;
}

export class SubscriptionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly charges: PlatformChargesService,
    private readonly publicUrl: string,
  ) {}

  async create(principal: Principal, payload: SubscriptionCreatePayload) {
    // Clients that send no correlationID get one (existing clients of this API send none).
    const p = { ...payload, correlationID: payload.correlationID ?? `subscription-${randomUUID()}` };
    const chargeType = p.chargeType ?? 'OVERDUE';
    if (chargeType === 'DYNAMIC' && (p.fines || p.interests)) throw errors.badRequest(FINES_NEED_OVERDUE);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const now = await this.clock.now(principal.companyId, trx);
        if (await repo.findByCorrelationId(trx, principal.companyId, p.correlationID))
          throw errors.badRequest(DUPLICATE);
        const customer = await upsertChargeCustomer(trx, principal.companyId, p.customer, now);
        const first = firstChargeAt(now, p.dayGenerateCharge ?? now.getUTCDate());
        const row = await repo.insertSubscription(trx, {
          id: randomUUID(),
          global_id: Buffer.from(`PaymentSubscription:${randomBytes(12).toString('hex')}`).toString('base64'),
          company_id: principal.companyId,
          correlation_id: p.correlationID,
          name: p.name ?? null,
          comment: p.comment ?? null,
          value: p.value,
          customer_id: customer.id,
          customer: JSON.stringify(customer.view),
          type: p.type ?? 'RECURRENT',
          frequency: normalizeFrequency(p.frequency ?? 'MONTHLY'),
          charge_type: chargeType,
          day_generate_charge: first.day,
          day_due: p.dayDue ?? 7,
          installment_count: p.installmentCount ?? null,
          interests: p.interests ? JSON.stringify({ value: p.interests.value }) : null,
          fines: p.fines ? JSON.stringify({ value: p.fines.value }) : null,
          additional_info: p.additionalInfo?.length ? JSON.stringify(p.additionalInfo) : null,
          status: 'ACTIVE',
          next_charge_at: first.at,
          payment_link_id: randomUUID(),
          created_at: now,
          updated_at: now,
        });
        return subscriptionView(row, this.publicUrl);
      });
    } catch (error) {
      if (isUniqueViolation(error) && (await repo.findByCorrelationId(this.db, principal.companyId, p.correlationID)))
        throw errors.badRequest(DUPLICATE);
      throw error;
    }
  }

  async get(principal: Principal, globalId: string) {
    const row = await repo.findByGlobalId(this.db, principal.companyId, globalId);
    if (!row) throw errors.missing('subscription');
    return subscriptionView(row, this.publicUrl);
  }

  // The job: generates every charge that is due, period by period. Returns how many.
  async generateDue(): Promise<number> {
    let made = 0;
    for (;;) {
      const due = await this.db.transaction().execute(async (trx) => repo.claimDue(trx, BATCH));
      if (due.length === 0) return made;
      let progressed = false;
      for (const sub of due) {
        if (!(await this.generate(sub))) continue;
        made++;
        progressed = true;
      }
      if (!progressed) return made;
    }
  }

  private async generate(sub: Subscription): Promise<boolean> {
    const installment = sub.charges_generated + 1;
    const correlationID = chargeCorrelationId(sub, installment);
    const now = await this.clock.now(sub.company_id);
    const customer = sub.customer as {
      name?: string;
      email?: string;
      phone?: string;
      taxID?: { taxID?: string };
      address?: Record<string, unknown>;
    };
    const principal: Principal = {
      applicationId: 'subscriptions',
      companyId: sub.company_id,
      accountId: '',
      applicationType: 'API',
      scopes: null,
      features: [],
    };
    // OVERDUE: due dayDue days after generation; DYNAMIC: expires dayDue days after it.
    const timing =
      sub.charge_type === 'DYNAMIC'
        ? { type: 'DYNAMIC', expiresIn: sub.day_due * 86_400 }
        : { type: 'OVERDUE', dueDate: addCalendarDays(todayUtc(now), sub.day_due) };
    await this.charges.create(
      principal,
      {
        ...timing,
        value: Number(sub.value),
        correlationID,
        customer: {
          name: customer.name ?? 'Cliente',
          ...(customer.taxID?.taxID ? { taxID: customer.taxID.taxID } : {}),
          ...(customer.email ? { email: customer.email } : {}),
          ...(customer.phone ? { phone: customer.phone } : {}),
        },
        ...(sub.comment ? { comment: sub.comment } : {}),
        ...(sub.interests ? { interests: sub.interests } : {}),
        ...(sub.fines ? { fines: sub.fines } : {}),
        ...(sub.additional_info ? { additionalInfo: sub.additional_info } : {}),
      } as never,
      true,
      { subscription: sub.correlation_id },
    );
    return this.db.transaction().execute(async (trx) => {
      const at = await this.clock.now(sub.company_id, trx);
      const last = sub.installment_count !== null && installment >= sub.installment_count;
      const next = last
        ? { next_charge_at: null, status: 'COMPLETED' as const }
        : {
            next_charge_at: nextChargeAt(sub.next_charge_at!, sub.frequency, sub.day_generate_charge),
            status: 'ACTIVE' as const,
          };
      return repo.recordGenerated(trx, sub, installment, correlationID, next, at);
    });
  }
}
