// The payment page behind a charge's paymentLinkUrl (GET /pay/{paymentLinkID}): a small HTML
// page with the QR code image, the amount, the description and the copy-and-paste BR Code.
// A static QR code's link shows its code; a subscription's link shows its latest charge.
// Open, like the QR code image: the payment link id is unguessable.
import type { Kysely } from 'kysely';
import * as charges from '../charges/charges.repository';
import { platformChargeView } from '../charges/platform/platform.view';
import type { Charge, Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Clock } from '../lib/clock';
import { findByPaymentLinkId as findStaticQrByPaymentLinkId } from '../qrcodes/qrcodes.repository';
import { findByPaymentLinkId as findSubscriptionByPaymentLinkId } from '../subscriptions/subscriptions.repository';

// What the page shows (already computed: no rule lives in the HTML).
export interface PaymentPageModel {
  title: string;
  merchant?: string;
  // cents; undefined: the payer chooses the amount
  amount?: number;
  description?: string;
  // WAITING: a subscription whose first charge is not generated yet
  status: 'ACTIVE' | 'COMPLETED' | 'EXPIRED' | 'WAITING';
  expiresDate?: string;
  brCode: string;
  imageUrl: string;
}

const STATUS_TEXT: Record<PaymentPageModel['status'], string> = {
  ACTIVE: 'Awaiting payment',
  COMPLETED: 'Paid',
  EXPIRED: 'Expired: this charge can no longer be paid',
  WAITING: 'No charge to pay yet: the next one is generated on schedule',
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

// 15990 -> "R$ 159,90"; 123456789 -> "R$ 1.234.567,89"
export function formatBrl(cents: number): string {
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${whole},${String(cents % 100).padStart(2, '0')}`;
}

export function renderPaymentPage(m: PaymentPageModel): string {
  const payable = m.status === 'ACTIVE' && m.brCode !== '';
  const rows = [
    m.merchant ? `<p class="merchant">${escapeHtml(m.merchant)}</p>` : '',
    `<p class="amount">${m.amount !== undefined ? formatBrl(m.amount) : 'Amount of your choice'}</p>`,
    m.description ? `<p class="description">${escapeHtml(m.description)}</p>` : '',
    `<p class="status status-${m.status.toLowerCase()}">${STATUS_TEXT[m.status]}</p>`,
    payable && m.expiresDate
      ? `<p class="expires">Pay by <time datetime="${escapeHtml(m.expiresDate)}">${escapeHtml(m.expiresDate.replace('T', ' ').slice(0, 16))} UTC</time></p>`
      : '',
    payable
      ? `<img src="${escapeHtml(m.imageUrl)}" width="300" height="300" alt="Pix QR code">
<label for="brcode">Pix copy and paste</label>
<textarea id="brcode" readonly rows="4">${escapeHtml(m.brCode)}</textarea>`
      : '',
  ];
  return page(m.title, rows.filter(Boolean).join('\n'));
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;text-align:center}
.amount{font-size:2rem;font-weight:bold}img{max-width:100%;height:auto}textarea{width:100%;font-family:monospace;word-break:break-all}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

// relative: the page and its image are served by the same server (and CSP img-src 'self')
const imageUrl = (id: string) => `/openpix/charge/brcode/image/${encodeURIComponent(id)}.png?size=600`;

export class PaymentPageService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  // The page's HTML; 404 when no charge, subscription or static QR code has this payment link id.
  async render(paymentLinkId: string): Promise<string> {
    const model = await this.model(paymentLinkId);
    if (!model) throw errors.missing('paymentLink');
    return renderPaymentPage(model);
  }

  private async model(paymentLinkId: string): Promise<PaymentPageModel | undefined> {
    const charge = await charges.findChargeByPaymentLinkId(this.db, paymentLinkId);
    if (charge) return this.chargeModel(charge, 'Pix payment');
    const subscription = await findSubscriptionByPaymentLinkId(this.db, paymentLinkId);
    if (subscription) {
      const { sub, latestChargeCorrelationId } = subscription;
      const title = sub.name || 'Subscription';
      const latest = latestChargeCorrelationId
        ? await charges.findChargeByCorrelationId(this.db, sub.company_id, latestChargeCorrelationId)
        : undefined;
      if (latest) return this.chargeModel(latest, title);
      const merchant = await this.merchantOf(sub.company_id);
      return {
        title,
        ...(merchant ? { merchant } : {}),
        amount: Number(sub.value),
        ...(sub.comment ? { description: sub.comment } : {}),
        status: 'WAITING',
        brCode: '',
        imageUrl: '',
      };
    }
    const code = await findStaticQrByPaymentLinkId(this.db, paymentLinkId);
    if (!code) return undefined;
    const merchant = await this.merchantOf(code.company_id);
    return {
      title: code.name || 'Pix payment',
      ...(merchant ? { merchant } : {}),
      ...(code.value !== null ? { amount: code.value } : {}),
      ...(code.comment ? { description: code.comment } : {}),
      status: 'ACTIVE',
      brCode: code.br_code,
      imageUrl: imageUrl(paymentLinkId),
    };
  }

  private async merchantOf(companyId: string): Promise<string | undefined> {
    const company = await charges.findCompanyRow(this.db, companyId);
    return company ? company.trade_name || company.name : undefined;
  }

  private async chargeModel(charge: Charge, title: string): Promise<PaymentPageModel> {
    const now = await this.clock.now(charge.company_id);
    const view = await platformChargeView(this.db, charge, this.publicUrl, now);
    const merchant = await this.merchantOf(charge.company_id);
    return {
      title,
      ...(merchant ? { merchant } : {}),
      // a due-date charge costs today what valueToPay says (discount, fine, interest)
      amount: (view.valueToPay as number | undefined) ?? (view.value as number),
      ...(typeof view.comment === 'string' ? { description: view.comment } : {}),
      status: view.status as PaymentPageModel['status'],
      ...(typeof view.expiresDate === 'string' ? { expiresDate: view.expiresDate } : {}),
      brCode: view.brCode as string,
      imageUrl: imageUrl(charge.payment_link_id),
    };
  }
}
