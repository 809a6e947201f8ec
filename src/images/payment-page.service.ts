// The payment page behind a charge's paymentLinkUrl (GET /pay/{paymentLinkID}) and the status
// it polls (GET /pay/{paymentLinkID}/status). A static QR code's link shows its code; a
// subscription's link shows its latest charge. Open, like the QR code image: the payment link
// id is unguessable.
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import {
  buildPlatformChargeView,
  chargeViewContext,
  cobvAmountsOn,
  cobvLastDay,
  cobvValorOf,
  platformStatusOf,
  findChargeByCorrelationId,
  findChargeByPaymentLinkId,
} from '../charges/charges.public';
import { findCompany } from '../identity/identity.public';
import type { Charge, Database } from '../db/schema';
import { errors } from '../errors/errors';
import { brasiliaDate } from '../lib/brasilia';
import type { Clock } from '../db/clock';
import { paymentsOfCharges } from '../pixin/pixin.public';
import { findStaticQrByPaymentLinkId } from '../qrcodes/qrcodes.public';
import { findSubscriptionByPaymentLinkId } from '../subscriptions/subscriptions.public';
import {
  type DueBreakdown,
  type Locale,
  type PaymentLinkState,
  type PaymentPageModel,
  refundedOf,
  renderPaymentPage,
} from './payment-page.view';

type PaymentLinkStatus = components['schemas']['PaymentLinkStatus'];

// What a payment link points at: a charge, a subscription with no charge yet, a static QR code.
type Target =
  | { kind: 'charge'; charge: Charge; title?: string }
  | { kind: 'waiting'; model: PaymentPageModel }
  | { kind: 'static'; model: PaymentPageModel };

// relative: the page and its image are served by the same server (and CSP img-src 'self')
const imageUrl = (id: string) => `/openpix/charge/brcode/image/${encodeURIComponent(id)}.png?size=600`;
const statusUrl = (id: string) => `/pay/${encodeURIComponent(id)}/status`;

function stateOf(charge: Charge, now: Date): PaymentLinkState {
  if (charge.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || charge.status === 'REMOVIDA_PELO_PSP') return 'REMOVED';
  return platformStatusOf(charge, now);
}

// A due-date charge's lines for today in Brasília (its last payable day once past it), as the
// view's valueToPay computes them, and the fine and interest its body states for late payment.
function breakdownOf(charge: Charge, now: Date): DueBreakdown | undefined {
  if (charge.kind !== 'cobv') return undefined;
  const lastDay = cobvLastDay(charge);
  const today = brasiliaDate(now);
  const computed = cobvAmountsOn(charge, today > lastDay ? lastDay : today);
  if (!computed.ok) return undefined;
  const a = computed.value;
  const { multa, juros } = cobvValorOf(charge);
  return {
    dueDate: charge.due_date!,
    original: a.original,
    discount: a.desconto,
    abatement: a.abatimento,
    fine: a.multa,
    interest: a.juros,
    terms: {
      ...(multa ? { fine: { modality: multa.modalidade, value: multa.valorPerc } } : {}),
      ...(juros ? { interest: { modality: juros.modalidade, value: juros.valorPerc } } : {}),
    },
  };
}

export class PaymentPageService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    private readonly sandbox: boolean,
  ) {}

  // The page's HTML; 404 when no charge, subscription or static QR code has this payment link id.
  async render(paymentLinkId: string, locale: Locale, nonce: string): Promise<string> {
    const target = await this.targetOf(paymentLinkId);
    if (!target) throw errors.missing('paymentLink');
    const model = target.kind === 'charge' ? await this.chargeModel(target.charge, target.title) : target.model;
    return renderPaymentPage(model, locale, nonce);
  }

  // The state the page polls: status, and once paid when, how much and what was refunded.
  async status(paymentLinkId: string): Promise<PaymentLinkStatus> {
    const target = await this.targetOf(paymentLinkId);
    if (!target) throw errors.missing('paymentLink');
    if (target.kind !== 'charge') return { status: target.model.status };
    const { charge } = target;
    const status = stateOf(charge, await this.clock.now(charge.company_id));
    const paid = status === 'COMPLETED' ? await this.paidOf(charge) : undefined;
    return paid ? { status, paidAt: paid.at, amountPaid: paid.amount, refunded: refundedOf(paid.refunds) } : { status };
  }

  private async targetOf(paymentLinkId: string): Promise<Target | undefined> {
    const charge = await findChargeByPaymentLinkId(this.db, paymentLinkId);
    if (charge) return { kind: 'charge', charge };
    const subscription = await findSubscriptionByPaymentLinkId(this.db, paymentLinkId);
    if (subscription) {
      const { sub, latestChargeCorrelationId } = subscription;
      const latest = latestChargeCorrelationId
        ? await findChargeByCorrelationId(this.db, sub.company_id, latestChargeCorrelationId)
        : undefined;
      if (latest) return { kind: 'charge', charge: latest, title: sub.name || undefined };
      const merchant = await this.merchantOf(sub.company_id);
      return {
        kind: 'waiting',
        model: {
          ...(sub.name ? { title: sub.name } : {}),
          ...(merchant ? { merchant } : {}),
          amount: Number(sub.value),
          ...(sub.comment ? { description: sub.comment } : {}),
          status: 'WAITING',
          brCode: '',
          imageUrl: '',
          sandbox: this.sandbox,
        },
      };
    }
    const code = await findStaticQrByPaymentLinkId(this.db, paymentLinkId);
    if (!code) return undefined;
    const merchant = await this.merchantOf(code.company_id);
    return {
      kind: 'static',
      model: {
        ...(code.name ? { title: code.name } : {}),
        ...(merchant ? { merchant } : {}),
        ...(code.value !== null ? { amount: code.value } : {}),
        ...(code.comment ? { description: code.comment } : {}),
        status: 'ACTIVE',
        brCode: code.br_code,
        imageUrl: imageUrl(paymentLinkId),
        sandbox: this.sandbox,
      },
    };
  }

  private async merchantOf(companyId: string): Promise<string | undefined> {
    const company = await findCompany(this.db, companyId);
    return company ? company.trade_name || company.name : undefined;
  }

  // The Pix that paid the charge and its devolutions.
  private async paidOf(charge: Charge): Promise<PaymentPageModel['paid']> {
    const payment = (await paymentsOfCharges(this.db, charge.company_id, [charge.id])).get(charge.id);
    if (!payment) return undefined;
    return {
      at: payment.pix.settled_at.toISOString(),
      amount: payment.pix.value,
      refunds: payment.devolutions.map((d) => ({
        value: d.value,
        status: d.status,
        at: (d.settled_at ?? d.requested_at).toISOString(),
      })),
    };
  }

  private async chargeModel(charge: Charge, title: string | undefined): Promise<PaymentPageModel> {
    const [now, ctx] = await Promise.all([this.clock.now(charge.company_id), chargeViewContext(this.db, charge)]);
    const view = buildPlatformChargeView(charge, ctx, this.publicUrl, now);
    const status = stateOf(charge, now);
    const paid = status === 'COMPLETED' ? await this.paidOf(charge) : undefined;
    const breakdown = breakdownOf(charge, now);
    return {
      ...(title ? { title } : {}),
      merchant: ctx.company.trade_name || ctx.company.name,
      // a due-date charge costs today what valueToPay says (discount, fine, interest)
      amount: (view.valueToPay as number | undefined) ?? charge.value,
      ...(breakdown ? { breakdown } : {}),
      ...(typeof view.comment === 'string' ? { description: view.comment } : {}),
      status,
      ...(typeof view.expiresDate === 'string' ? { expiresAt: view.expiresDate } : {}),
      brCode: view.brCode as string,
      imageUrl: imageUrl(charge.payment_link_id),
      ...(paid ? { paid } : {}),
      statusUrl: statusUrl(charge.payment_link_id),
      sandbox: this.sandbox,
    };
  }
}
