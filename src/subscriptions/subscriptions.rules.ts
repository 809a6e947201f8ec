// Pure rules of subscriptions: what a PIX_RECURRING subscription means in the standard's words
// (its recurrence's period, retry policy, amount, debtor) and the checks of its options.
import type { components as platform } from '../../generated/platform.types';
import type { components as pix } from '../../generated/pix.types';
import type { Subscription, SubscriptionPixRecurring } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import { formatDecimalAmount, cents } from '../lib/money';
import type { Frequency } from './schedule';

type RecSolicitada = pix['schemas']['RecSolicitada'];
export type SubscriptionCreatePayload = platform['schemas']['SubscriptionCreatePayload'];
export type Periodicidade = RecSolicitada['calendario']['periodicidade'];

// The standard has no two-month period (BIMONTHLY).
const PERIODS: Partial<Record<Frequency, Periodicidade>> = {
  WEEKLY: 'SEMANAL',
  MONTHLY: 'MENSAL',
  TRIMONTHLY: 'TRIMESTRAL',
  SEMIANNUALLY: 'SEMESTRAL',
  ANNUALLY: 'ANUAL',
};

export const RETRY_POLICIES: Record<SubscriptionPixRecurring['retryPolicy'], RecSolicitada['politicaRetentativa']> = {
  NON_PERMITED: 'NAO_PERMITE',
  THREE_RETRIES_7_DAYS: 'PERMITE_3R_7D',
};

// The options of a PIX_RECURRING subscription with their defaults, or the refusal of what
// Pix Automatico cannot do (all issues together).
export function pixRecurringOf(
  p: SubscriptionCreatePayload,
  frequency: Frequency,
): { options: SubscriptionPixRecurring; periodicidade: Periodicidade } {
  const o = p.pixRecurringOptions ?? {};
  const issues: FieldIssue[] = [];
  const periodicidade = PERIODS[frequency];
  if (!periodicidade)
    issues.push({
      field: 'frequency',
      message: `${frequency} is not a period of Pix Automatico: use WEEKLY, MONTHLY, TRIMONTHLY, SEMIANNUALLY or ANNUALLY`,
      value: frequency,
    });
  if (o.journey === 'PAYMENT_ON_APPROVAL')
    issues.push({
      field: 'pixRecurringOptions.journey',
      message: 'PAYMENT_ON_APPROVAL is not offered yet: use ONLY_RECURRENCY',
      value: o.journey,
    });
  if (o.minimumValue !== undefined && o.minimumValue > p.value)
    issues.push({
      field: 'pixRecurringOptions.minimumValue',
      message: 'minimumValue cannot be above value',
      value: String(o.minimumValue),
    });
  for (const field of ['fines', 'interests'] as const)
    if (p[field]) issues.push({ field, message: `${field} do not apply to PIX_RECURRING subscriptions` });
  if (issues.length || !periodicidade) throw errors.validation(issues);
  return {
    options: {
      journey: o.journey ?? 'ONLY_RECURRENCY',
      retryPolicy: o.retryPolicy ?? 'NON_PERMITED',
      ...(o.minimumValue !== undefined ? { minimumValue: o.minimumValue } : {}),
    },
    periodicidade,
  };
}

// The recurrence of a PIX_RECURRING subscription: the customer as debtor, the correlationID as
// contract, the first and (with installmentCount) last installment dates, a fixed amount or,
// with minimumValue, a minimum one.
export function recRequestOf(
  sub: Pick<Subscription, 'correlation_id' | 'name' | 'value'>,
  customer: { name: string; taxID: string },
  options: SubscriptionPixRecurring,
  calendario: RecSolicitada['calendario'],
): Omit<RecSolicitada, 'loc'> {
  const taxId = customer.taxID.replace(/\D/g, '');
  const nome = customer.name.slice(0, 140);
  const amount = (v: number) => formatDecimalAmount(cents(v));
  return {
    vinculo: {
      ...(sub.name ? { objeto: sub.name.slice(0, 35) } : {}),
      devedor: taxId.length === 11 ? { cpf: taxId, nome } : { cnpj: taxId, nome },
      contrato: sub.correlation_id.slice(0, 35),
    },
    calendario,
    valor:
      options.minimumValue !== undefined
        ? { valorMinimoRecebedor: amount(options.minimumValue) }
        : { valorRec: amount(Number(sub.value)) },
    politicaRetentativa: RETRY_POLICIES[options.retryPolicy],
  };
}

// PUT /subscriptions/{id}/value: a Pix Automatico amount changes only above a minimum.
export function checkNewValue(sub: Subscription, value: number): void {
  if (sub.status !== 'ACTIVE') throw errors.badRequest(`Subscription is already ${sub.status}`);
  if (sub.type !== 'PIX_RECURRING') return;
  const minimum = sub.pix_recurring?.minimumValue;
  if (minimum === undefined)
    throw errors.badRequest(
      'The value of this Pix Automatico subscription is fixed by its recurrence (created without pixRecurringOptions.minimumValue)',
    );
  if (value < minimum) throw errors.badRequest(`value cannot be below pixRecurringOptions.minimumValue (${minimum})`);
}
