// Sample charges for test events, made by the code that makes real ones (the platform's plan,
// the standard's body, the record as creation writes it) from a made-up creation request, and
// the payloads of the charge events around them.
import type { Principal } from '../../identity/principal.types';
import { newTxid } from '../../lib/ids';
import { type EventSamples, SAMPLE_PREFIX, type SampleContext } from '../../events/events.service';
import { chargeEventPayloadOf, newChargeOf, type NewChargeRecord } from '../charge-records';
import type { ChargeInContext } from '../charges.repository';
import type { ChargeStatus } from '../../db/schema';
import { planCharge, type ChargeCreatePayload } from './platform.rules';
import { standardBodyOf } from './platform-charges.service';

const DAY_MS = 86_400_000;

export interface SampleChargeOptions {
  status?: ChargeStatus;
  // When the charge was made, before the sample's time (an expired one is older than its expiry).
  ageMs?: number;
}

// A made-up DYNAMIC charge of R$ 10,00 to the company's default key.
export function sampleChargeInContext(ctx: SampleContext, options: SampleChargeOptions = {}): ChargeInContext {
  const now = new Date(ctx.now.getTime() - (options.ageMs ?? 0));
  const principal: Principal = {
    applicationId: `${SAMPLE_PREFIX}application`,
    companyId: ctx.party.company_id,
    accountId: ctx.party.account_id,
    applicationType: 'API',
    scopes: [],
    features: [],
  };
  const payload: ChargeCreatePayload = {
    correlationID: `${SAMPLE_PREFIX}charge-${ctx.suffix}`,
    value: 1000,
    comment: 'Test event: this charge does not exist',
  };
  const plan = planCharge(principal, payload, now);
  const key: NewChargeRecord['key'] = {
    key: ctx.pixKey,
    company_id: ctx.party.company_id,
    account_id: ctx.party.account_id,
    type: 'EVP',
    is_default: true,
    created_at: now,
    branch: ctx.party.branch,
    account_number: ctx.party.account_number,
    account_status: 'OPEN',
  };
  const body = standardBodyOf(plan, { chave: key.key, payload, now, company: ctx.company });
  const { provisional } = newChargeOf({
    companyId: ctx.party.company_id,
    kind: plan.kind,
    platformType: 'DYNAMIC',
    txid: newTxid(),
    correlationId: payload.correlationID,
    body,
    platform: plan.platform,
    value: payload.value,
    key,
    company: { ...ctx.company, id: ctx.company.id },
    customerId: null,
    expiresAt: new Date(now.getTime() + plan.expiracao! * 1000),
    dueDate: null,
    validityAfterDue: null,
    paymentLinkId: `${SAMPLE_PREFIX}${ctx.suffix}`,
    now,
  });
  const status = options.status ?? 'ATIVA';
  return { ...provisional, charge: { ...provisional.charge, status, updated_at: ctx.now } };
}

const payloadOf = (ctx: SampleContext, charge: ChargeInContext) =>
  chargeEventPayloadOf(charge, ctx.party, ctx.publicUrl, ctx.now);

export const chargeEventSamples: EventSamples = {
  'OPENPIX:CHARGE_CREATED': (ctx) => payloadOf(ctx, sampleChargeInContext(ctx)),
  // Made two days ago: its day of validity has passed.
  'OPENPIX:CHARGE_EXPIRED': (ctx) => payloadOf(ctx, sampleChargeInContext(ctx, { ageMs: 2 * DAY_MS })),
  'PIXGATE:CHARGE_DELETED': (ctx) =>
    payloadOf(ctx, sampleChargeInContext(ctx, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })),
};
