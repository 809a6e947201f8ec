// Subscriptions: a customer pays `value` every period. RECURRENT: each generation makes a
// charge (the platform charge service, as POST /api/v1/charge does) with the subscription's
// customer and comment: OVERDUE (chargeType, the default) due `dayDue` days after it is
// generated, with the fines and interests, or DYNAMIC expiring `dayDue` days after it.
// PIX_RECURRING (Pix Automatico): creating it creates a recurrence (rec) of the Pix API on a
// payload location of its own; once the payer approved it, each generation makes the recurring
// charge (cobr) of that period's cycle, due on the generation date, which the payer's PSP
// settles (recurrences job). An installment whose cobr cannot be made (the date's cycle has
// passed) is recorded without one (CANCELED; POST /installments/{id}/cobr makes it again).
//
// Schedule (the company's clock): the first charge on the next day-of-month
// `dayGenerateCharge` (today included) or at the date-time sent; then every 7 days (WEEKLY)
// or 1, 2, 3, 6, 12 months (MONTHLY, BIMONTHLY, TRIMONTHLY, SEMIANNUALLY, ANNUALLY) on that day
// of the month. With installmentCount the subscription is COMPLETED after that many charges.
// The background job `subscriptions.charges` generates what is due (several periods at once
// after the clock jumps).
//
// RECURRENT: the charge service runs its own transaction, so a generation is: claim the due
// subscriptions (FOR UPDATE SKIP LOCKED), create the charge by a correlationID fixed by the
// subscription and installment (a repeat returns the same charge), then record the
// installment and move the schedule only if no other run did it first. PIX_RECURRING: one
// transaction locks the subscription, makes the cobr and records the installment.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { PlatformChargesService } from '../charges/platform/platform-charges.service';
import type { Database, Subscription } from '../db/schema';
import { upsertChargeCustomer } from '../customers/customers.service';
import { isUniqueViolation } from '../db/errors';
import type { WritePart } from '../db/together';
import { type EventSamples, recordEventsPart, SAMPLE_PREFIX, type SampleContext } from '../events/events.service';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import { addCalendarDays, todayUtc } from '../lib/business-days';
import type { Clock } from '../db/clock';
import { pageInfo, type Page } from '../lib/paging';
import type { RecSummary } from '../recurrences/rec.service';
import type { RecurrencesServices } from '../recurrences/recurrences.module';
import { generateInstallmentCobr } from './installment-cobr';
import { firstChargeAt, nextChargeAt, normalizeFrequency, scheduleDates } from './schedule';
import * as repo from './subscriptions.repository';
import { checkNewValue, pixRecurringOf, recRequestOf, type SubscriptionCreatePayload } from './subscriptions.rules';
import { subscriptionView, type SubscriptionView } from './subscriptions.view';

type ChargeCreatePayload = components['schemas']['ChargeCreatePayload'];
export type { SubscriptionCreatePayload };
export type SubscriptionList = components['schemas']['Subscription'][];
export const SUBSCRIPTION_CHARGES_JOB = 'subscriptions.charges';
const DUPLICATE = 'Subscription with this correlationID already exists';
const FINES_NEED_OVERDUE = 'fines and interests apply only to OVERDUE charges (chargeType)';
const BATCH = 50;

// The charge correlationID of installment n (fixed: a repeated generation finds it).
export function chargeCorrelationId(s: Subscription, installment: number): string {
  return `subscription-${s.id}-${installment}`;
}

export function newInstallmentGlobalId(): string {
  return Buffer.from(`PaymentSubscriptionInstallment:${randomBytes(12).toString('hex')}`).toString('base64');
}

// The job's principal for the charges it creates on the company's behalf.
function jobPrincipal(companyId: string): Principal {
  return {
    applicationId: 'subscriptions',
    companyId,
    accountId: '',
    applicationType: 'API',
    scopes: null,
    features: [],
  };
}

type SubscriptionEvent =
  'PIXGATE:SUBSCRIPTION_CREATED' | 'PIXGATE:SUBSCRIPTION_CANCELED' | 'PIXGATE:SUBSCRIPTION_VALUE_CHANGED';

// The event of a subscription's change, written in the change's statement: {subscription} as
// it is after the change (a PIX_RECURRING one without its recurrence's state).
function subscriptionEventPart(type: SubscriptionEvent, s: Subscription, publicUrl: string, at: Date): WritePart {
  return recordEventsPart([
    { companyId: s.company_id, type, payload: { subscription: subscriptionView(s, publicUrl) }, at },
  ]);
}

// Sample payloads for test events: a made-up monthly subscription of a made-up customer.
function sampleSubscription(ctx: SampleContext, status: Subscription['status'], value = 1000) {
  const s: Subscription = {
    id: randomUUID(),
    global_id: Buffer.from(`PaymentSubscription:${randomBytes(12).toString('hex')}`).toString('base64'),
    company_id: ctx.party.company_id,
    correlation_id: `${SAMPLE_PREFIX}subscription-${ctx.suffix}`,
    name: 'Test event: this subscription does not exist',
    comment: null,
    value,
    customer_id: null,
    customer: { name: 'Cliente de Teste', taxID: { taxID: '12345678909', type: 'BR:CPF' } },
    type: 'RECURRENT',
    frequency: 'MONTHLY',
    charge_type: 'OVERDUE',
    day_generate_charge: ctx.now.getUTCDate(),
    day_due: 7,
    installment_count: null,
    charges_generated: 0,
    interests: null,
    fines: null,
    additional_info: null,
    status,
    next_charge_at: status === 'ACTIVE' ? ctx.now : null,
    payment_link_id: randomUUID(),
    id_rec: null,
    pix_recurring: null,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  return { subscription: subscriptionView(s, ctx.publicUrl) };
}

export const subscriptionEventSamples: EventSamples = {
  'PIXGATE:SUBSCRIPTION_CREATED': (ctx) => sampleSubscription(ctx, 'ACTIVE'),
  'PIXGATE:SUBSCRIPTION_CANCELED': (ctx) => sampleSubscription(ctx, 'CANCELED'),
  'PIXGATE:SUBSCRIPTION_VALUE_CHANGED': (ctx) => sampleSubscription(ctx, 'ACTIVE', 1500),
};

export class SubscriptionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly charges: PlatformChargesService,
    private readonly recurrences: Pick<RecurrencesServices, 'recs' | 'cobrs'>,
    private readonly publicUrl: string,
  ) {}

  async create(principal: Principal, payload: SubscriptionCreatePayload): Promise<SubscriptionView> {
    // Clients that send no correlationID get one (existing clients of this API send none).
    const p = { ...payload, correlationID: payload.correlationID ?? `subscription-${randomUUID()}` };
    const chargeType = p.chargeType ?? 'OVERDUE';
    const frequency = normalizeFrequency(p.frequency ?? 'MONTHLY');
    const type = p.type ?? 'RECURRENT';
    if (chargeType === 'DYNAMIC' && (p.fines || p.interests)) throw errors.badRequest(FINES_NEED_OVERDUE);
    const pix = type === 'PIX_RECURRING' ? pixRecurringOf(p, frequency) : undefined;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const now = await this.clock.now(principal.companyId, trx);
        if (await repo.findSubscriptionByCorrelationId(trx, principal.companyId, p.correlationID))
          throw errors.badRequest(DUPLICATE);
        const customer = await upsertChargeCustomer(trx, principal.companyId, p.customer, now);
        const first = firstChargeAt(now, p.dayGenerateCharge ?? now.getUTCDate());
        let recSummary: RecSummary | undefined;
        const row = newSubscriptionRow({ principal, p, customer, first, type, frequency, chargeType, pix, now });
        if (pix) {
          const made = await this.createRecurrence(trx, row, p, pix, first.at, now);
          row.id_rec = made.rec.id_rec;
          recSummary = made.summary;
        }
        const saved = await repo.insertSubscription(
          trx,
          {
            ...row,
            customer: JSON.stringify(row.customer),
            interests: row.interests && JSON.stringify(row.interests),
            fines: row.fines && JSON.stringify(row.fines),
            additional_info: row.additional_info && JSON.stringify(row.additional_info),
            pix_recurring: row.pix_recurring && JSON.stringify(row.pix_recurring),
          },
          [subscriptionEventPart('PIXGATE:SUBSCRIPTION_CREATED', row, this.publicUrl, now)],
        );
        return subscriptionView(saved, this.publicUrl, recSummary);
      });
    } catch (error) {
      if (
        isUniqueViolation(error) &&
        (await repo.findSubscriptionByCorrelationId(this.db, principal.companyId, p.correlationID))
      )
        throw errors.badRequest(DUPLICATE);
      throw error;
    }
  }

  // The recurrence of a PIX_RECURRING subscription: from the first installment's date to the
  // last one's (with installmentCount), in the standard's period.
  private async createRecurrence(
    trx: Kysely<Database>,
    row: Subscription,
    p: SubscriptionCreatePayload,
    pix: ReturnType<typeof pixRecurringOf>,
    firstAt: Date,
    now: Date,
  ) {
    const dates = scheduleDates(firstAt, row.frequency, row.day_generate_charge, p.installmentCount);
    const calendario = {
      dataInicial: dates.first,
      ...(dates.last !== undefined ? { dataFinal: dates.last } : {}),
      periodicidade: pix.periodicidade,
    };
    const request = recRequestOf(row, p.customer, pix.options, calendario);
    return this.recurrences.recs.createWithLocation(trx, row.company_id, request, now);
  }

  // The subscription with its recurrence as it is now (PIX_RECURRING).
  private async viewOf(db: Kysely<Database>, s: Subscription): Promise<SubscriptionView> {
    if (s.id_rec === null) return subscriptionView(s, this.publicUrl);
    const recs = await this.recurrences.recs.summaries(db, s.company_id, [s.id_rec]);
    return subscriptionView(s, this.publicUrl, recs.get(s.id_rec));
  }

  // By globalID or correlationID.
  async get(principal: Principal, id: string): Promise<SubscriptionView> {
    const row = await repo.findSubscriptionByAnyId(this.db, principal.companyId, id);
    if (!row) throw errors.missing('subscription');
    return this.viewOf(this.db, row);
  }

  async list(principal: Principal, page: Page) {
    const { rows, total } = await repo.listSubscriptions(this.db, principal.companyId, page.skip, page.limit);
    const idRecs = rows.flatMap((r) => (r.id_rec !== null ? [r.id_rec] : []));
    const recs = await this.recurrences.recs.summaries(this.db, principal.companyId, idRecs);
    const subscriptions: SubscriptionList = rows.map((r) =>
      subscriptionView(r, this.publicUrl, r.id_rec !== null ? recs.get(r.id_rec) : undefined),
    );
    return { subscriptions, pageInfo: pageInfo(page, total) };
  }

  // PUT /subscriptions/{id}/cancel: no more installments; the recurrence is cancelled with it.
  async cancel(principal: Principal, id: string): Promise<SubscriptionView> {
    return this.db.transaction().execute(async (trx) => {
      const sub = await repo.lockByAnyId(trx, principal.companyId, id);
      if (!sub) throw errors.missing('subscription');
      if (sub.status !== 'ACTIVE') throw errors.badRequest(`Subscription is already ${sub.status}`);
      const now = await this.clock.now(principal.companyId, trx);
      if (sub.id_rec !== null)
        await this.recurrences.recs.cancelOfSubscription(trx, principal.companyId, sub.id_rec, now);
      const change = { status: 'CANCELED' as const, next_charge_at: null, updated_at: now };
      const saved = await repo.updateSubscription(trx, sub.id, change, [
        subscriptionEventPart('PIXGATE:SUBSCRIPTION_CANCELED', { ...sub, ...change }, this.publicUrl, now),
      ]);
      return this.viewOf(trx, saved);
    });
  }

  // PUT /subscriptions/{id}/value: the value of the installments generated from now on.
  async changeValue(principal: Principal, id: string, value: number): Promise<SubscriptionView> {
    return this.db.transaction().execute(async (trx) => {
      const sub = await repo.lockByAnyId(trx, principal.companyId, id);
      if (!sub) throw errors.missing('subscription');
      checkNewValue(sub, value);
      const now = await this.clock.now(principal.companyId, trx);
      const change = { value, updated_at: now };
      const event = subscriptionEventPart(
        'PIXGATE:SUBSCRIPTION_VALUE_CHANGED',
        { ...sub, ...change },
        this.publicUrl,
        now,
      );
      return this.viewOf(trx, await repo.updateSubscription(trx, sub.id, change, [event]));
    });
  }

  // The job: generates every installment that is due, period by period. Returns how many.
  async generateDue(): Promise<number> {
    let made = 0;
    for (;;) {
      const due = await this.db.transaction().execute(async (trx) => repo.claimDue(trx, BATCH));
      if (due.length === 0) return made;
      let progressed = false;
      for (const sub of due) {
        const generated = sub.type === 'PIX_RECURRING' ? await this.generateRecurring(sub) : await this.generate(sub);
        if (!generated) continue;
        made++;
        progressed = true;
      }
      if (!progressed) return made;
    }
  }

  // The schedule after installment n: the next date, or COMPLETED after the last one.
  private nextOf(sub: Subscription, installment: number) {
    const last = sub.installment_count !== null && installment >= sub.installment_count;
    return last
      ? { next_charge_at: null, status: 'COMPLETED' as const }
      : {
          next_charge_at: nextChargeAt(sub.next_charge_at!, sub.frequency, sub.day_generate_charge),
          status: 'ACTIVE' as const,
        };
  }

  private async generate(sub: Subscription): Promise<boolean> {
    const installment = sub.charges_generated + 1;
    const correlationID = chargeCorrelationId(sub, installment);
    const now = await this.clock.now(sub.company_id);
    const customer = sub.customer;
    // OVERDUE: due dayDue days after generation; DYNAMIC: expires dayDue days after it.
    const timing: Pick<ChargeCreatePayload, 'type' | 'expiresIn' | 'dueDate'> =
      sub.charge_type === 'DYNAMIC'
        ? { type: 'DYNAMIC', expiresIn: sub.day_due * 86_400 }
        : { type: 'OVERDUE', dueDate: addCalendarDays(todayUtc(now), sub.day_due) };
    const payload: ChargeCreatePayload = {
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
    };
    await this.charges.create(jobPrincipal(sub.company_id), payload, true, { subscription: sub.correlation_id });
    return this.db.transaction().execute(async (trx) => {
      const at = await this.clock.now(sub.company_id, trx);
      return repo.recordGenerated(
        trx,
        {
          subscription_id: sub.id,
          installment,
          global_id: newInstallmentGlobalId(),
          value: sub.value,
          scheduled_at: sub.next_charge_at!,
          charge_correlation_id: correlationID,
          created_at: at,
        },
        this.nextOf(sub, installment),
      );
    });
  }

  // A PIX_RECURRING installment. While the payer has not approved the recurrence nothing is
  // generated (the recurrences job expires it once its first date has passed); once the
  // recurrence has ended the subscription ends with it (CANCELED or EXPIRED).
  private async generateRecurring(claimed: Subscription): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const sub = await repo.lockSubscription(trx, claimed.id);
      if (!sub || sub.status !== 'ACTIVE' || sub.charges_generated !== claimed.charges_generated) return false;
      const now = await this.clock.now(sub.company_id, trx);
      const made = await generateInstallmentCobr(trx, this.recurrences.cobrs, sub, now);
      if (made.recStatus !== 'APROVADA') {
        if (made.recStatus !== 'CRIADA') {
          const status = made.recStatus === 'CANCELADA' ? 'CANCELED' : 'EXPIRED';
          await repo.updateSubscription(trx, sub.id, { status, next_charge_at: null, updated_at: now });
        }
        return false;
      }
      const installment = sub.charges_generated + 1;
      return repo.recordGenerated(
        trx,
        {
          subscription_id: sub.id,
          installment,
          global_id: newInstallmentGlobalId(),
          value: sub.value,
          scheduled_at: sub.next_charge_at!,
          charge_correlation_id: null,
          cobr_txid: made.txid ?? null,
          created_at: now,
        },
        this.nextOf(sub, installment),
      );
    });
  }
}

interface NewSubscriptionRow {
  principal: Principal;
  p: SubscriptionCreatePayload & { correlationID: string };
  customer: { id: string; view: Subscription['customer'] };
  first: { day: number; at: Date };
  type: Subscription['type'];
  frequency: Subscription['frequency'];
  chargeType: Subscription['charge_type'];
  pix: { options: NonNullable<Subscription['pix_recurring']> } | undefined;
  now: Date;
}

// The row of a new subscription, before its recurrence (a PIX_RECURRING one) is made.
function newSubscriptionRow({
  principal,
  p,
  customer,
  first,
  type,
  frequency,
  chargeType,
  pix,
  now,
}: NewSubscriptionRow): Subscription {
  return {
    id: randomUUID(),
    global_id: Buffer.from(`PaymentSubscription:${randomBytes(12).toString('hex')}`).toString('base64'),
    company_id: principal.companyId,
    correlation_id: p.correlationID,
    name: p.name ?? null,
    comment: p.comment ?? null,
    value: p.value,
    customer_id: customer.id,
    customer: customer.view,
    type,
    frequency,
    charge_type: chargeType,
    day_generate_charge: first.day,
    day_due: p.dayDue ?? 7,
    installment_count: p.installmentCount ?? null,
    charges_generated: 0,
    interests: p.interests ? { value: p.interests.value } : null,
    fines: p.fines ? { value: p.fines.value } : null,
    additional_info: p.additionalInfo?.length ? p.additionalInfo : null,
    status: 'ACTIVE',
    next_charge_at: first.at,
    payment_link_id: randomUUID(),
    id_rec: null,
    pix_recurring: pix ? pix.options : null,
    created_at: now,
    updated_at: now,
  };
}
