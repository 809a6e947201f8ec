// The payment page's HTML (GET /pay/{paymentLinkID}): what a Brazilian payer expects to see,
// in Portuguese unless the browser prefers English, amounts as R$ 12,34, times in Brasília.
// Everything shown is computed before (PaymentPageModel); the page's one small script (allowed
// by the CSP nonce) copies the code, pays in the sandbox and polls the status endpoint.
import { nonceSource, type PagePolicy } from '../lib/html';
import { BRASILIA_TIME_ZONE } from '../lib/brasilia';

export type Locale = 'pt-BR' | 'en';
export type PaymentLinkState = 'ACTIVE' | 'COMPLETED' | 'EXPIRED' | 'REMOVED' | 'WAITING';

export interface PaymentPageRefund {
  value: number;
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  at: string;
}

// The fine and interest a due-date charge adds once past its due date, as its body states them
// (the standard's modalities: multa 1 fixed, 2 percent; juros 1-4 calendar days, 5-8 business
// days, each a value per day, a percent a day, a month or a year). Values as the body writes
// them: reais or percent with a dot ("2.00").
export interface LateTerms {
  fine?: { modality: number; value: string };
  interest?: { modality: number; value: string };
}

// What a due-date charge costs today, line by line (cents), and its terms after the due date.
export interface DueBreakdown {
  dueDate: string;
  original: number;
  discount: number;
  abatement: number;
  fine: number;
  interest: number;
  terms?: LateTerms;
}

export interface PaymentPageModel {
  // a subscription's or static QR code's own name; else the page's default title
  title?: string;
  merchant?: string;
  // cents due today; undefined: the payer chooses the amount
  amount?: number;
  breakdown?: DueBreakdown;
  description?: string;
  status: PaymentLinkState;
  expiresAt?: string;
  brCode: string;
  imageUrl: string;
  paid?: { at: string; amount: number; refunds: PaymentPageRefund[] };
  // charges (not static QR codes) change state: the page polls this URL
  statusUrl?: string;
  // sandbox mode: a button pays the charge through POST /api/v1/sandbox/pay
  sandbox: boolean;
}

const TEXTS = {
  'pt-BR': {
    title: 'Pagamento Pix',
    anyAmount: 'Valor à sua escolha',
    status: {
      ACTIVE: 'Aguardando pagamento',
      COMPLETED: 'Pago',
      EXPIRED: 'Expirada: esta cobrança não pode mais ser paga',
      REMOVED: 'Cancelada pelo recebedor: esta cobrança não pode mais ser paga',
      WAITING: 'Nenhuma cobrança a pagar ainda: a próxima é gerada na data prevista',
    },
    payBy: 'Pague até',
    at: 'às',
    zone: '(horário de Brasília)',
    dueDate: 'Vencimento',
    original: 'Valor original',
    discount: 'Desconto',
    abatement: 'Abatimento',
    fine: 'Multa',
    interest: 'Juros',
    dueToday: 'Total a pagar hoje',
    afterDue: 'Após o vencimento',
    and: 'e',
    fineFixed: 'multa de {v}',
    finePercent: 'multa de {v}%',
    interestFixed: 'juros de {v} por dia {days}',
    interestPercent: 'juros de {v}% ao {per} ({days})',
    per: { day: 'dia', month: 'mês', year: 'ano' },
    calendarDay: 'corrido',
    businessDay: 'útil',
    calendarDays: 'dias corridos',
    businessDays: 'dias úteis',
    qrAlt: 'QR Code Pix',
    copyLabel: 'Pix Copia e Cola',
    copy: 'Copiar código',
    copied: 'Código copiado!',
    simulate: 'Simular pagamento (sandbox)',
    simulateFailed: 'O pagamento simulado foi recusado',
    paidAt: 'Pago em',
    amountPaid: 'Valor pago',
    refunds: 'Devoluções',
    refund: { EM_PROCESSAMENTO: 'em processamento', DEVOLVIDO: 'devolvida', NAO_REALIZADO: 'recusada' },
  },
  en: {
    title: 'Pix payment',
    anyAmount: 'Amount of your choice',
    status: {
      ACTIVE: 'Awaiting payment',
      COMPLETED: 'Paid',
      EXPIRED: 'Expired: this charge can no longer be paid',
      REMOVED: 'Cancelled by the merchant: this charge can no longer be paid',
      WAITING: 'No charge to pay yet: the next one is generated on schedule',
    },
    payBy: 'Pay by',
    at: 'at',
    zone: '(Brasília time)',
    dueDate: 'Due date',
    original: 'Original amount',
    discount: 'Discount',
    abatement: 'Rebate',
    fine: 'Fine',
    interest: 'Interest',
    dueToday: 'Total due today',
    afterDue: 'After the due date',
    and: 'and',
    fineFixed: 'a fine of {v}',
    finePercent: 'a fine of {v}%',
    interestFixed: 'interest of {v} per {days}',
    interestPercent: 'interest of {v}% a {per} ({days})',
    per: { day: 'day', month: 'month', year: 'year' },
    calendarDay: 'calendar day',
    businessDay: 'business day',
    calendarDays: 'calendar days',
    businessDays: 'business days',
    qrAlt: 'Pix QR code',
    copyLabel: 'Pix copy and paste',
    copy: 'Copy code',
    copied: 'Code copied!',
    simulate: 'Simulate payment (sandbox)',
    simulateFailed: 'The simulated payment was refused',
    paidAt: 'Paid on',
    amountPaid: 'Amount paid',
    refunds: 'Refunds',
    refund: { EM_PROCESSAMENTO: 'processing', DEVOLVIDO: 'refunded', NAO_REALIZADO: 'refused' },
  },
} as const;

type Texts = (typeof TEXTS)[Locale];

const TIME_ZONE = BRASILIA_TIME_ZONE;

// The language a payer reads: English only when the browser ranks some `en` above every `pt`.
export function localeOf(acceptLanguage: string | undefined): Locale {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((l) => l.q > 0 && /^(pt|en)(-|$)/.test(l.tag))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.tag.startsWith('en') ? 'en' : 'pt-BR';
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

// 15990 -> "R$ 159,90" (pt-BR), "R$ 159.90" (en); 123456789 -> "R$ 1.234.567,89"
export function formatBrl(cents: number, locale: Locale = 'pt-BR'): string {
  const [thousands, decimal] = locale === 'en' ? [',', '.'] : ['.', ','];
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `R$ ${whole}${decimal}${String(cents % 100).padStart(2, '0')}`;
}

// English spells the month out: 03/04 reads as March or April depending on the reader.
const dateStyle = (locale: Locale) => (locale === 'en' ? 'medium' : 'short');

// An instant as the payer's wall clock shows it: "15/03/2026 às 11:32" / "Mar 15, 2026 at 11:32".
export function formatDateTime(iso: string, locale: Locale): string {
  const d = new Date(iso);
  const date = new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, dateStyle: dateStyle(locale) }).format(d);
  const time = new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, timeStyle: 'short', hour12: false }).format(d);
  return `${date} ${TEXTS[locale].at} ${time}`;
}

// A calendar day (YYYY-MM-DD): "15/03/2026" / "Mar 15, 2026".
function formatDay(day: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: dateStyle(locale) }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

const time = (iso: string, locale: Locale) =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(formatDateTime(iso, locale))}</time>`;

// A percent as the body writes it ("2.50") in the payer's notation: "2,50" / "2.50".
const percentText = (value: string, locale: Locale) => (locale === 'en' ? value : value.replace('.', ','));
// Reais as the body writes them ("2.50") as R$ 2,50.
const reaisText = (value: string, locale: Locale) => formatBrl(Math.round(Number(value) * 100), locale);

function fineText(fine: NonNullable<LateTerms['fine']>, t: Texts, locale: Locale): string | undefined {
  if (fine.modality === 1) return t.fineFixed.replace('{v}', reaisText(fine.value, locale));
  if (fine.modality === 2) return t.finePercent.replace('{v}', percentText(fine.value, locale));
  return undefined;
}

function interestText(interest: NonNullable<LateTerms['interest']>, t: Texts, locale: Locale): string | undefined {
  const { modality, value } = interest;
  if (modality < 1 || modality > 8) return undefined;
  const business = modality > 4;
  const kind = (modality - 1) % 4; // 0 a value per day, 1 a percent a day, 2 a month, 3 a year
  if (kind === 0)
    return t.interestFixed
      .replace('{v}', reaisText(value, locale))
      .replace('{days}', business ? t.businessDay : t.calendarDay);
  return t.interestPercent
    .replace('{v}', percentText(value, locale))
    .replace('{per}', [t.per.day, t.per.month, t.per.year][kind - 1]!)
    .replace('{days}', business ? t.businessDays : t.calendarDays);
}

// "Após o vencimento: multa de 2,00% e juros de 1,00% ao mês (dias corridos)."
function lateTermsRow(terms: LateTerms | undefined, t: Texts, locale: Locale): string {
  const parts = [
    terms?.fine ? fineText(terms.fine, t, locale) : undefined,
    terms?.interest ? interestText(terms.interest, t, locale) : undefined,
  ].filter((p): p is string => p !== undefined);
  return parts.length ? `<p class="terms">${t.afterDue}: ${escapeHtml(parts.join(` ${t.and} `))}.</p>` : '';
}

function breakdownRows(b: DueBreakdown, amount: number, t: Texts, locale: Locale): string {
  const line = (label: string, cents: number, sign = '') =>
    `<tr><th scope="row">${label}</th><td>${sign}${formatBrl(cents, locale)}</td></tr>`;
  return `<p class="due">${t.dueDate} ${formatDay(b.dueDate, locale)}</p>
<table class="breakdown">${[
    line(t.original, b.original),
    b.discount ? line(t.discount, b.discount, '− ') : '',
    b.abatement ? line(t.abatement, b.abatement, '− ') : '',
    b.fine ? line(t.fine, b.fine, '+ ') : '',
    b.interest ? line(t.interest, b.interest, '+ ') : '',
    `<tr class="total"><th scope="row">${t.dueToday}</th><td>${formatBrl(amount, locale)}</td></tr>`,
  ].join('')}</table>${lateTermsRow(b.terms, t, locale)}`;
}

function paidRows(paid: NonNullable<PaymentPageModel['paid']>, t: Texts, locale: Locale): string {
  const refunds = paid.refunds.length
    ? `<h2>${t.refunds}</h2><ul class="refunds">${paid.refunds
        .map((r) => `<li>${formatBrl(r.value, locale)}, ${t.refund[r.status]}, ${time(r.at, locale)}</li>`)
        .join('')}</ul>`
    : '';
  return `<section class="paid"><p>${t.paidAt} ${time(paid.at, locale)}</p>
<p>${t.amountPaid} <strong class="paid-amount">${formatBrl(paid.amount, locale)}</strong></p>${refunds}</section>`;
}

function payRows(m: PaymentPageModel, t: Texts, locale: Locale): string {
  const simulate =
    m.sandbox && m.statusUrl
      ? `<button id="simulate" type="button" class="secondary" data-failed="${t.simulateFailed}">${t.simulate}</button>
<p id="simulate-error" class="error" hidden></p>`
      : '';
  return [
    m.expiresAt ? `<p class="expires">${t.payBy} ${time(m.expiresAt, locale)} ${t.zone}</p>` : '',
    `<img class="qr" src="${escapeHtml(m.imageUrl)}" width="300" height="300" alt="${t.qrAlt}">`,
    `<p class="code-label" id="brcode-label">${t.copyLabel}</p>`,
    `<p class="code" id="brcode" aria-labelledby="brcode-label">${escapeHtml(m.brCode)}</p>`,
    `<button id="copy" type="button" data-copied="${t.copied}">${t.copy}</button>`,
    simulate,
  ].join('\n');
}

// The <main> of the page: what the script swaps in when the status changes.
export function renderPaymentMain(m: PaymentPageModel, locale: Locale): string {
  const t = TEXTS[locale];
  const payable = m.status === 'ACTIVE' && m.brCode !== '';
  const amount = m.paid ? undefined : m.amount;
  const rows = [
    m.merchant ? `<p class="merchant">${escapeHtml(m.merchant)}</p>` : '',
    m.paid ? '' : `<p class="amount">${amount !== undefined ? formatBrl(amount, locale) : t.anyAmount}</p>`,
    payable && m.breakdown && amount !== undefined ? breakdownRows(m.breakdown, amount, t, locale) : '',
    m.description ? `<p class="description">${escapeHtml(m.description)}</p>` : '',
    `<p class="status status-${m.status.toLowerCase()}" id="status">${t.status[m.status]}</p>`,
    payable ? payRows(m, t, locale) : '',
    m.paid ? paidRows(m.paid, t, locale) : '',
  ];
  const state = stateKey(m.status, m.paid ? refundedOf(m.paid.refunds) : undefined);
  const polling = m.statusUrl ? ` data-status-url="${escapeHtml(m.statusUrl)}" data-state="${state}"` : '';
  return `<main${polling}>
<h1>${escapeHtml(m.title ?? t.title)}</h1>
${rows.filter(Boolean).join('\n')}
</main>`;
}

// What refunds not refused add up to (the status endpoint's `refunded`).
export function refundedOf(refunds: PaymentPageRefund[]): number {
  return refunds.filter((r) => r.status !== 'NAO_REALIZADO').reduce((sum, r) => sum + r.value, 0);
}

// The page and its status endpoint agree on this key: the page reloads its <main> when it moves.
function stateKey(status: PaymentLinkState, refunded: number | undefined): string {
  return `${status}:${refunded ?? 0}`;
}

const STYLE = `body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2330;background:#f5f6f8}
main{box-sizing:border-box;max-width:26rem;margin:0 auto;padding:1.5rem 1rem;text-align:center}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem}.merchant{color:#555;margin:.2rem 0}
.amount{font-size:2.2rem;font-weight:700;margin:.5rem 0}
.status{display:inline-block;padding:.2rem .8rem;border-radius:1rem;background:#e8eaef;font-weight:600}
.status-active{background:#fff4d6}.status-completed{background:#d9f5e3;color:#0f5c2e}
.status-expired,.status-removed{background:#fde2e1;color:#8a1c17}
.qr{display:block;box-sizing:border-box;width:100%;max-width:300px;height:auto;margin:1rem auto;background:#fff}
.code-label{font-weight:600;margin:.5rem 0 .2rem}
.code{box-sizing:border-box;width:100%;margin:0 0 .8rem;padding:.6rem;background:#fff;border:1px solid #ccd;border-radius:.4rem;
font:.8rem/1.4 ui-monospace,Menlo,Consolas,monospace;text-align:left;word-break:break-all;overflow-wrap:anywhere;user-select:all}
button{box-sizing:border-box;width:100%;padding:.8rem;border:0;border-radius:.5rem;background:#0b7a3e;color:#fff;font:600 1rem system-ui,sans-serif;cursor:pointer;margin:.3rem 0}
button.secondary{background:#fff;color:#0b5cad;border:1px solid #0b5cad}button:disabled{opacity:.6}
.breakdown{margin:0 auto .8rem;border-collapse:collapse}.breakdown th{text-align:left;font-weight:400;padding:.1rem 1rem .1rem 0}
.breakdown td{text-align:right}.breakdown .total th,.breakdown .total td{font-weight:700;border-top:1px solid #ccd}
.refunds{list-style:none;padding:0}.error{color:#8a1c17}.due,.expires,.terms{color:#444}`;

// Copies the code, pays through the sandbox, and polls the status endpoint: when the state
// moves, the page's <main> is fetched again and swapped in, without a reload.
const SCRIPT = `(() => {
  const payer = { name: 'Pagador Sandbox', taxID: '26801573110' };
  let main = document.querySelector('main');
  const bind = () => {
    const copy = document.getElementById('copy');
    const code = document.getElementById('brcode');
    if (copy && code) copy.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(code.textContent); } catch {
        const range = document.createRange(); range.selectNodeContents(code);
        const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range); document.execCommand('copy');
      }
      copy.textContent = copy.dataset.copied;
    });
    const simulate = document.getElementById('simulate');
    if (simulate && code) simulate.addEventListener('click', async () => {
      simulate.disabled = true;
      const res = await fetch('/api/v1/sandbox/pay', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ brCode: code.textContent, payer }) });
      if (res.ok) return poll();
      const error = document.getElementById('simulate-error');
      error.textContent = simulate.dataset.failed + ': ' + ((await res.json().catch(() => ({}))).error || res.status);
      error.hidden = false; simulate.disabled = false;
    });
  };
  const poll = async () => {
    const url = main.dataset.statusUrl;
    if (!url || /^(EXPIRED|REMOVED):/.test(main.dataset.state)) return;
    const res = await fetch(url, { cache: 'no-store' }).catch(() => undefined);
    if (!res || (!res.ok && res.status !== 404)) return;
    const s = res.ok ? await res.json() : { status: 'REMOVED' };
    if (s.status + ':' + (s.refunded || 0) === main.dataset.state) return;
    const html = await (await fetch(location.href, { cache: 'no-store' })).text();
    // only <main>: the answer's <style> carries another nonce, and parsing it would be refused
    const fragment = html.slice(html.indexOf('<main'), html.indexOf('</main>') + 7);
    const next = new DOMParser().parseFromString(fragment, 'text/html').querySelector('main');
    if (!next) return;
    main.replaceWith(next); main = next; bind();
  };
  bind();
  setInterval(poll, 2000);
})();`;

export function renderPaymentPage(m: PaymentPageModel, locale: Locale, nonce: string): string {
  const t = TEXTS[locale];
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(m.title ?? t.title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
${renderPaymentMain(m, locale)}
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`;
}

// The page's CSP: its own images and status endpoint, its one nonce'd style and script.
export function paymentPagePolicy(nonce: string): PagePolicy {
  return {
    img: ["'self'"],
    style: [nonceSource(nonce)],
    script: [nonceSource(nonce)],
    connect: ["'self'"],
  };
}
