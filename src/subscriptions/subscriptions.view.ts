// Subscriptions and their installments as the platform API shows them (generated types of
// generated/platform.types.ts). An installment of a PIX_RECURRING subscription shows the
// recurring charge of its cycle in the platform's words (the standard's status names mapped).
import type { components } from '../../generated/platform.types';
import { paymentLinkUrlOf, platformStatusOf } from '../charges/charges.public';
import type {
  Charge,
  CobRAttempt,
  CobRStatus,
  RecStatus,
  RecurringCharge,
  Subscription,
  SubscriptionInstallment,
} from '../db/schema';
import { addCalendarDays } from '../lib/business-days';
import { RETRY_WINDOW_DAYS } from '../recurrences/recurrences.public';
import type { RecSummary } from '../recurrences/rec.service';

type P = components['schemas'];
export type SubscriptionView = P['Subscription'];
export type InstallmentView = P['Installment'];
type PixRecurringView = NonNullable<SubscriptionView['pixRecurring']>;
type InstallmentCobrView = P['InstallmentCobr'];
type TryView = P['InstallmentCobrTry'];

const REC_STATUS: Record<RecStatus, PixRecurringView['status']> = {
  CRIADA: 'CREATED',
  APROVADA: 'APPROVED',
  REJEITADA: 'REJECTED',
  EXPIRADA: 'EXPIRED',
  CANCELADA: 'CANCELED',
};

const TRY_STATUS: Record<CobRAttempt['status'], TryView['tryStatus']> = {
  SOLICITADA: 'REQUESTED',
  AGENDADA: 'SCHEDULED',
  PAGA: 'PAID',
  REJEITADA: 'REJECTED',
  CANCELADA: 'CANCELED',
  EXPIRADA: 'EXPIRED',
};

const INSTALLMENT_STATUS: Record<CobRStatus, InstallmentView['status']> = {
  CRIADA: 'ACTIVE',
  ATIVA: 'ACTIVE',
  CONCLUIDA: 'COMPLETED',
  EXPIRADA: 'EXPIRED',
  REJEITADA: 'EXPIRED',
  CANCELADA: 'CANCELED',
};

function pixRecurringView(s: Subscription, rec: RecSummary | undefined): PixRecurringView | undefined {
  if (s.id_rec === null || s.pix_recurring === null || !rec) return undefined;
  const o = s.pix_recurring;
  return {
    recurrencyId: s.id_rec,
    ...(rec.emv !== undefined ? { emv: rec.emv } : {}),
    journey: o.journey,
    retryPolicy: o.retryPolicy,
    ...(o.minimumValue !== undefined ? { minimumValue: o.minimumValue } : {}),
    status: REC_STATUS[rec.status],
  };
}

// `rec`: what the subscription's recurrence is now (PIX_RECURRING).
export function subscriptionView(s: Subscription, publicUrl: string, rec?: RecSummary): SubscriptionView {
  const pixRecurring = pixRecurringView(s, rec);
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
    ...(pixRecurring ? { pixRecurring } : {}),
    createdAt: s.created_at.toISOString(),
  };
}

function cobrStatusOf(c: RecurringCharge): InstallmentCobrView['status'] {
  switch (c.status) {
    case 'CRIADA':
      return 'CREATED';
    case 'ATIVA': {
      const pending = c.attempts.some((a) => a.status === 'SOLICITADA' || a.status === 'AGENDADA');
      return pending || !c.attempts.some((a) => a.status === 'REJEITADA') ? 'ACTIVE' : 'FAILED_TRY';
    }
    case 'CONCLUIDA':
      return 'CONCLUDED';
    case 'REJEITADA':
      return 'REJECTED';
    case 'EXPIRADA':
      return 'EXPIRED';
    case 'CANCELADA':
      return 'CANCELED';
  }
}

function tryView(a: CobRAttempt, value: number): TryView {
  return {
    tryStatus: TRY_STATUS[a.status],
    finalityPurpose: a.tipo,
    ...(a.rejeicao ? { rejectCode: a.rejeicao.codigo } : {}),
    value,
    requestedExecutionDate: `${a.dataLiquidacao}T00:00:00.000Z`,
    createdAt: a.atualizacao[0]?.data ?? '',
    updatedAt: a.atualizacao[a.atualizacao.length - 1]?.data ?? '',
  };
}

function installmentCobrView(c: RecurringCharge, installmentId: string): InstallmentCobrView {
  const value = Number(c.value);
  const rejected = c.attempts.filter((a) => a.rejeicao).at(-1);
  const paid = c.pix?.[0];
  return {
    identifierId: c.txid,
    recurrencyId: c.id_rec,
    installmentId,
    ...(paid ? { endToEndId: paid.endToEndId } : {}),
    ...(rejected?.rejeicao ? { rejectCode: rejected.rejeicao.codigo } : {}),
    status: cobrStatusOf(c),
    value,
    tries: c.attempts.map((a) => tryView(a, value)),
    ...(paid ? { paymentDate: paid.horario } : {}),
    chargeDate: c.settlement_date,
    expiryDate: addCalendarDays(c.settlement_date, RETRY_WINDOW_DAYS),
    ...(c.body.infoAdicional !== undefined ? { description: c.body.infoAdicional } : {}),
    createdAt: c.created_at.toISOString(),
  };
}

// The status of an installment: its recurring charge's (PIX_RECURRING; CANCELED when none could
// be made), else its charge's.
function installmentStatusOf(
  charge: Charge | undefined,
  cobr: RecurringCharge | undefined,
  now: Date,
): InstallmentView['status'] {
  if (cobr) return INSTALLMENT_STATUS[cobr.status];
  if (charge) return platformStatusOf(charge, now);
  return 'CANCELED';
}

// `charge`: the charge of a RECURRENT installment; `cobr`: the recurring charge of a
// PIX_RECURRING one.
export function installmentView(
  i: SubscriptionInstallment,
  s: Subscription,
  charge: Charge | undefined,
  cobr: RecurringCharge | undefined,
  now: Date,
): InstallmentView {
  return {
    globalID: i.global_id,
    installmentNumber: i.installment,
    value: Number(i.value),
    status: installmentStatusOf(charge, cobr, now),
    dateGenerateCharge: i.scheduled_at.toISOString(),
    expiration: s.day_due * 86_400,
    createdAt: i.created_at.toISOString(),
    ...(i.charge_correlation_id !== null ? { correlationID: i.charge_correlation_id } : {}),
    paymentSubscriptionGlobalID: s.global_id,
    ...(cobr ? { cobr: installmentCobrView(cobr, i.global_id) } : {}),
  };
}
