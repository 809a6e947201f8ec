// The payment page behind a charge's paymentLinkUrl (GET /pay/{paymentLinkID}): a small HTML
// page with the QR code image, the amount, the description and the copy-and-paste BR Code.
// Open, like the QR code image: the payment link id is unguessable.
import type { Kysely } from 'kysely';
import * as charges from '../charges/charges.repository';
import { platformChargeView } from '../charges/platform/platform-view';
import type { Database } from '../db/schema';
import { errors } from '../http/errors';
import type { Clock } from '../lib/clock';
import { findByPaymentLinkId as findStaticQrByPaymentLinkId } from '../qrcodes/qrcodes.repository';

// What the page shows (already computed: no rule lives in the HTML).
export interface PaymentPageModel {
  title: string;
  merchant?: string;
  // cents; undefined: the payer chooses the amount
  amount?: number;
  description?: string;
  status: 'ACTIVE' | 'COMPLETED' | 'EXPIRED';
  expiresDate?: string;
  brCode: string;
  imageUrl: string;
}

const STATUS_TEXT: Record<PaymentPageModel['status'], string> = {
  ACTIVE: 'Awaiting payment',
  COMPLETED: 'Paid',
  EXPIRED: 'Expired: this charge can no longer be paid',
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

// 15990 -> "R$ 159,90"; 123456789 -> "R$ 1.234.567,89"
export function formatBrl(cents: number): string {
  const whole = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${whole},${String(cents % 100).padStart(2, '0')}`;
}

export function renderPaymentPage(m: PaymentPageModel): string {
  const payable = m.status === 'ACTIVE' && m.brCode !== '';
  const rows = [
    m.merchant ? `<p class="merchant">${escapeHtml(m.merchant)}</p>` : '',
    `<p class="amount">${m.amount !== undefined ? formatBrl(m.amount) : 'Amount of your choice'}</p>`,
    m.description ? `<p class="description">${escapeHtml(m.description)}</p>` : '',
    `<p class="status status-${m.status.toLowerCase()}">${STATUS_TEXT[m.status]}</p>`,
    payable && m.expiresDate ? `<p class="expires">Pay by <time datetime="${escapeHtml(m.expiresDate)}">${escapeHtml(m.expiresDate.replace('T', ' ').slice(0, 16))} UTC</time></p>` : '',
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

export class PaymentPageService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  // The page's HTML; 404 when no charge or static QR code has this payment link id.
  async render(paymentLinkId: string): Promise<string> {
    const model = await this.model(paymentLinkId);
    if (!model) throw errors.notFound('Payment link not found');
    return renderPaymentPage(model);
  }

  private async model(paymentLinkId: string): Promise<PaymentPageModel | undefined> {
    // relative: the page and its image are served by the same server (and CSP img-src 'self')
    const imageUrl = (id: string) => `/openpix/charge/brcode/image/${encodeURIComponent(id)}.png?size=600`;
    const charge = await charges.findChargeByPaymentLinkId(this.db, paymentLinkId);
    if (charge) {
      const now = await this.clock.now();
      const view = await platformChargeView(this.db, charge, this.publicUrl, now);
      const company = await charges.findCompanyRow(this.db, charge.company_id);
      const merchant = company ? company.trade_name || company.name : undefined;
      return {
        title: 'Pix payment',
        ...(merchant ? { merchant } : {}),
        // a due-date charge costs today what valueToPay says (discount, fine, interest)
        amount: (view.valueToPay as number | undefined) ?? (view.value as number),
        ...(typeof view.comment === 'string' ? { description: view.comment } : {}),
        status: view.status as PaymentPageModel['status'],
        ...(typeof view.expiresDate === 'string' ? { expiresDate: view.expiresDate } : {}),
        brCode: view.brCode as string,
        imageUrl: imageUrl(paymentLinkId),
      };
    }
    const code = await findStaticQrByPaymentLinkId(this.db, paymentLinkId);
    if (!code) return undefined;
    const company = await charges.findCompanyRow(this.db, code.company_id);
    const merchant = company ? company.trade_name || company.name : undefined;
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
}
