// The payment page's rules without a browser: language by Accept-Language, amounts and times
// as a Brazilian payer reads them, a due-date charge's lines, the CSP nonce, and the status
// endpoint the page polls (awaiting, paid with refunds, expired, removed, unknown).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatBrl, formatDateTime, localeOf, renderPaymentMain } from '../../src/images/payment-page.view';
import { startTestServer, type TestServer } from '../support/server';
import { advanceClock, chargesCompany, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server);
});
test.after(() => server.close());

const pathOf = (url: string) => new URL(url).pathname;

async function charge(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await server.client.post('/api/v1/charge', body, { auth: acme.appID });
  assert.is(res.status, 200, res.text);
  return res.body.charge;
}

test('language: Portuguese unless the browser ranks English above Portuguese', () => {
  assert.is(localeOf(undefined), 'pt-BR');
  assert.is(localeOf(''), 'pt-BR');
  assert.is(localeOf('pt-BR,pt;q=0.9,en;q=0.8'), 'pt-BR');
  assert.is(localeOf('en-US,en;q=0.9'), 'en');
  assert.is(localeOf('fr-FR,en;q=0.5'), 'en');
  assert.is(localeOf('en;q=0.4,pt;q=0.6'), 'pt-BR');
  assert.is(localeOf('de,fr'), 'pt-BR');
  assert.is(localeOf('en;q=0,pt;q=0.1'), 'pt-BR');
});

test('amounts as R$ 12,34 (R$ 12.34 in English); times on the Brasília clock', () => {
  assert.is(formatBrl(1234), 'R$ 12,34');
  assert.is(formatBrl(123456789), 'R$ 1.234.567,89');
  assert.is(formatBrl(5), 'R$ 0,05');
  assert.is(formatBrl(123456, 'en'), 'R$ 1,234.56');
  // 02:30 UTC is 23:30 of the day before in São Paulo (UTC-3, no daylight saving since 2019)
  assert.is(formatDateTime('2026-03-16T02:30:00Z', 'pt-BR'), '15/03/2026 às 23:30');
  assert.is(formatDateTime('2026-03-16T02:30:00Z', 'en'), 'Mar 15, 2026 at 23:30');
});

test('the page: pt-BR by default, English by Accept-Language, a nonce shared by CSP and script', async () => {
  const c = await charge({ correlationID: 'page-1', value: 1234, comment: 'Pedido 1' });
  const pt = await server.client.get(pathOf(c.paymentLinkUrl));
  assert.is(pt.status, 200);
  assert.is(pt.headers.get('content-language'), 'pt-BR');
  assert.match(pt.headers.get('vary') ?? '', /Accept-Language/);
  assert.match(pt.text, /<html lang="pt-BR">/);
  assert.match(pt.text, /R\$ 12,34/);
  assert.match(pt.text, /Aguardando pagamento/);
  assert.match(pt.text, /horário de Brasília/);
  assert.match(pt.text, /id="copy"/);
  assert.match(pt.text, /id="simulate"/, 'sandbox mode: the simulate button');
  const csp = pt.headers.get('content-security-policy') ?? '';
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce, csp);
  assert.ok(pt.text.includes(`<script nonce="${nonce}">`));
  assert.not.match(csp, /unsafe-inline/);
  assert.not.match(pt.text, /<script(?![^>]*nonce)/, 'no script without the nonce');
  const again = await server.client.get(pathOf(c.paymentLinkUrl));
  assert.is.not(/nonce-([^']+)'/.exec(again.headers.get('content-security-policy') ?? '')?.[1], nonce);

  const en = await server.client.get(pathOf(c.paymentLinkUrl), { headers: { 'accept-language': 'en-GB,en;q=0.9' } });
  assert.match(en.text, /<html lang="en">/);
  assert.match(en.text, /Awaiting payment/);
  assert.match(en.text, /R\$ 12\.34/);
});

test('a due-date charge shows what is due today, line by line', async () => {
  const c = await charge({
    correlationID: 'page-due',
    value: 20000,
    type: 'OVERDUE',
    daysForDueDate: 1,
    fines: { value: 200 },
    interests: { value: 100 },
    customer: { name: 'Maria Silva', taxID: '52998224725' },
  });
  const before = await server.client.get(pathOf(c.paymentLinkUrl));
  assert.match(before.text, /<p class="amount">R\$ 200,00<\/p>/);
  assert.not.match(before.text, /Multa/);
  await advanceClock(server, acme, 5 * 86400);
  const late = await server.client.get(pathOf(c.paymentLinkUrl));
  const read = await server.client.get('/api/v1/charge/page-due', { auth: acme.appID });
  const due = read.body.charge.valueToPay as number;
  assert.ok(due > 20000, `fine and interest are due: ${due}`);
  assert.ok(late.text.includes(`<p class="amount">${formatBrl(due)}</p>`), late.text);
  assert.match(late.text, /Valor original<\/th><td>R\$ 200,00/);
  assert.match(late.text, /Multa<\/th><td>\+ R\$ 4,00/);
  assert.match(late.text, /Juros<\/th><td>\+ R\$/);
  assert.ok(late.text.includes(`Total a pagar hoje</th><td>${formatBrl(due)}`));
});

test('status: awaiting, then paid with amount and refunds, as the page says too', async () => {
  const c = await charge({ correlationID: 'page-paid', value: 1500 });
  const status = `/pay/${c.paymentLinkID}/status`;
  let s = await server.client.get(status);
  assert.is(s.status, 200);
  assert.equal(s.body, { status: 'ACTIVE' });
  assert.is(s.headers.get('cache-control'), 'no-store');
  const pay = await server.client.post('/api/v1/sandbox/pay', {
    brCode: c.brCode,
    payer: { name: 'Ana', taxID: '52998224725' },
  });
  assert.is(pay.status, 200, pay.text);
  s = await server.client.get(status);
  assert.is(s.body.status, 'COMPLETED');
  assert.is(s.body.amountPaid, 1500);
  assert.is(s.body.refunded, 0);
  const read = await server.client.get('/api/v1/charge/page-paid', { auth: acme.appID });
  assert.is(s.body.paidAt, read.body.charge.paidAt);
  const refund = await server.client.post(
    '/api/v1/charge/page-paid/refund',
    { correlationID: 'page-paid-r1', value: 400 },
    { auth: acme.appID },
  );
  assert.is(refund.status, 200, refund.text);
  s = await server.client.get(status);
  assert.is(s.body.refunded, 400);
  const page = await server.client.get(pathOf(c.paymentLinkUrl));
  assert.match(page.text, />Pago</);
  assert.match(page.text, /Valor pago <strong class="paid-amount">R\$ 15,00<\/strong>/);
  assert.match(page.text, /<h2>Devoluções<\/h2><ul class="refunds"><li>R\$ 4,00, /);
  assert.match(page.text, /data-state="COMPLETED:400"/);
  assert.not.match(page.text, /id="simulate"/);
});

test('status: expired and removed charges, and unknown links', async () => {
  const removed = await charge({ correlationID: 'page-removed', value: 100 });
  const del = await server.client.delete('/api/v1/charge/page-removed', { auth: acme.appID });
  assert.is(del.status, 200, del.text);
  const r = await server.client.get(`/pay/${removed.paymentLinkID}/status`);
  assert.equal(r.body, { status: 'REMOVED' });
  const page = await server.client.get(pathOf(removed.paymentLinkUrl));
  assert.match(page.text, /Cancelada pelo recebedor/);
  assert.not.match(page.text, /class="qr"/);

  const expiring = await charge({ correlationID: 'page-expiring', value: 100, expiresIn: 300 });
  await advanceClock(server, acme, 400);
  const e = await server.client.get(`/pay/${expiring.paymentLinkID}/status`);
  assert.equal(e.body, { status: 'EXPIRED' });

  const missing = await server.client.get('/pay/no-such-link/status');
  assert.is(missing.status, 404);
  assert.is(missing.body.error, 'Payment link not found');
});

test('a static QR code is always awaiting, and offers no simulate button (the payer picks the amount)', async () => {
  const qr = await server.client.post('/api/v1/qrcode-static', { name: 'Gorjeta' }, { auth: acme.appID });
  const link = qr.body.pixQrCode.paymentLinkID as string;
  const s = await server.client.get(`/pay/${link}/status`);
  assert.equal(s.body, { status: 'ACTIVE' });
  const page = await server.client.get(`/pay/${link}`);
  assert.match(page.text, /Valor à sua escolha/);
  assert.not.match(page.text, /id="simulate"/);
  assert.not.match(page.text, /data-status-url/);
});

test('outside sandbox mode the page has no simulate button', () => {
  const html = renderPaymentMain(
    { status: 'ACTIVE', brCode: '000201', imageUrl: '/i.png', statusUrl: '/pay/x/status', sandbox: false },
    'pt-BR',
  );
  assert.not.match(html, /id="simulate"/);
  assert.match(html, /id="copy"/);
  const sandbox = renderPaymentMain(
    { status: 'ACTIVE', brCode: '000201', imageUrl: '/i.png', statusUrl: '/pay/x/status', sandbox: true },
    'pt-BR',
  );
  assert.match(sandbox, /id="simulate"/);
});

test.run();
