// Pix receipts, read as an outsider reads them: the PDF's text extracted by poppler's pdftotext
// (a real PDF parser, not ours), the PNG decoded by pngjs. A receipt of each type, for a Pix
// between two companies of this server and for one with another institution, holds every
// field: title, amount, Brasília time, ids, both parties (masked CPF or full CNPJ, institution
// and ISPB from the directory, agency and account), the key masked, the description, and for
// a refund the original Pix and the reason.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SETTLEMENT_JOB } from '../../src/pixin/devolution-settlement';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { runsOnlyIf } from '../support/skip';
import { advanceToLocalHour, fund } from '../payments/helpers';

function hasTool(name: string): boolean {
  try {
    execFileSync(name, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const withPdftotext = runsOnlyIf(hasTool('pdftotext'), 'needs pdftotext (Debian poppler-utils) to read the PDF');

let server: TestServer;
let shop: TestCompany; // receives
let buyer: TestCompany; // pays from this server
const dir = mkdtempSync(join(tmpdir(), 'receipts-'));

test.before(async () => {
  server = await startTestServer();
  shop = await createCompany(server.client, { name: 'Padaria São João', taxID: '11.222.333/0001-81' });
  buyer = await createCompany(server.client, { name: 'Açaí da Esquina' });
  await advanceToLocalHour(server, 10, shop, buyer);
  await fund(server, buyer.accountId, 1_000_000);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

let files = 0;
function pdfText(pdf: Buffer): string {
  const file = join(dir, `r${++files}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
}
function pdfPageSize(pdf: Buffer): string {
  const file = join(dir, `r${++files}.pdf`);
  writeFileSync(file, pdf);
  return /Page size:\s+([0-9.]+ x [0-9.]+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]!;
}

// Brasília has kept UTC-3 all year since 2019: the wall clock computed without Intl.
function brasilia(iso: string): string {
  const d = new Date(new Date(iso).getTime() - 3 * 3600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} às ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

async function receipt(company: TestCompany, type: string, id: string, query = '', headers = {}) {
  const res = await fetch(`${server.client.baseUrl}/api/v1/receipt/${type}/${id}${query}`, {
    headers: { authorization: company.appID, ...headers },
  });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

async function pdfOf(company: TestCompany, type: string, id: string, query = ''): Promise<string> {
  const res = await receipt(company, type, id, query);
  assert.is(res.status, 200, res.body.toString());
  assert.is(res.type, 'application/pdf');
  assert.is(res.body.subarray(0, 5).toString(), '%PDF-');
  return pdfText(res.body);
}

async function accountOf(company: TestCompany) {
  const res = await server.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID });
  return res.body.account as { branch: string; account: string; officialName: string; taxId: string };
}

async function timeOf(company: TestCompany, e2e: string): Promise<string> {
  const res = await server.client.get(`/api/v1/transaction/${e2e}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return res.body.transaction.time;
}

function expectAll(text: string, fields: string[]): void {
  for (const field of fields) assert.ok(text.includes(field), `the receipt lacks ${JSON.stringify(field)}:\n${text}`);
}

// A charge of the shop paid by the buyer, both on this server.
async function localPix(value: number, comment: string) {
  const correlationID = `pedido-${++files}`;
  const charge = await server.client.post('/api/v1/charge', { correlationID, value, comment }, { auth: shop.appID });
  assert.is(charge.status, 200, charge.text);
  const paid = await server.client.post(
    '/api/v1/payment',
    {
      type: 'QR_CODE',
      qrCode: charge.body.charge.brCode,
      correlationID: `pay-${correlationID}`,
      comment,
      autoApprove: true,
    },
    { auth: buyer.appID },
  );
  assert.is(paid.status, 200, paid.text);
  assert.is(paid.body.payment.status, 'CONFIRMED', paid.text);
  return {
    correlationID,
    e2e: paid.body.transaction.endToEndId as string,
    txid: charge.body.charge.transactionID as string,
  };
}

withPdftotext('a Pix between two companies here: pix-in, pix-out and both sides of its refund', async () => {
  const { correlationID, e2e, txid } = await localPix(123456, 'Bolo de fubá e pão de queijo');
  const [shopAccount, buyerAccount] = [await accountOf(shop), await accountOf(buyer)];
  const when = brasilia(await timeOf(shop, e2e));
  const shopFields = [shopAccount.officialName, '11.222.333/0001-81', shopAccount.branch, shopAccount.account];
  const buyerTax = buyerAccount.taxId;
  const buyerFields = [
    buyerAccount.officialName,
    `${buyerTax.slice(0, 2)}.${buyerTax.slice(2, 5)}.${buyerTax.slice(5, 8)}/${buyerTax.slice(8, 12)}-${buyerTax.slice(12)}`,
    buyerAccount.branch,
    buyerAccount.account,
  ];
  const common = ['R$ 1.234,56', `${when} (horário de Brasília)`, e2e, txid, 'pixgate sandbox PSP', '99999999'];

  const received = await pdfOf(shop, 'pix-in', e2e);
  expectAll(received, ['Comprovante de Pix recebido', ...common, ...shopFields, ...buyerFields]);
  expectAll(received, ['QUEM PAGOU', 'QUEM RECEBEU', 'Bolo de fubá e pão de queijo', 'Chave Pix', shop.pixKey]);
  const sent = await pdfOf(buyer, 'pix-out', e2e);
  expectAll(sent, ['Comprovante de Pix enviado', ...common, ...shopFields, ...buyerFields, shop.pixKey]);

  const refund = await server.client.post(
    `/api/v1/charge/${correlationID}/refund`,
    { correlationID: `estorno-${correlationID}`, value: 23456, comment: 'Pão de queijo em falta' },
    { auth: shop.appID },
  );
  assert.is(refund.status, 200, refund.text);
  const rtrId = refund.body.refund.endToEndId as string;
  assert.match(rtrId, /^D/);
  await server.services.jobs.runNow(SETTLEMENT_JOB);
  const refundFields = ['R$ 234,56', rtrId, e2e, 'Devolução do Pix: Pão de queijo em falta', ...shopFields];
  const returned = await pdfOf(shop, 'pix-refund', rtrId);
  expectAll(returned, ['Comprovante de devolução de Pix', 'QUEM DEVOLVEU', 'Pix original (E2E)', ...refundFields]);
  expectAll(returned, [buyerAccount.officialName, buyerFields[1]!]);
  const gotBack = await pdfOf(buyer, 'pix-refund', rtrId);
  expectAll(gotBack, ['Comprovante de devolução de Pix', 'Motivo da devolução', ...refundFields, buyerFields[1]!]);
});

withPdftotext('a Pix from and to other institutions: names and ISPBs from the directory, CPFs masked', async () => {
  const qr = await server.client.post(
    '/api/v1/qrcode-static',
    { name: 'Balcão', correlationID: 'balcao', value: 4590 },
    { auth: shop.appID },
  );
  assert.is(qr.status, 200, qr.text);
  const paid = await server.client.post('/api/v1/sandbox/pay', {
    brCode: qr.body.pixQrCode.brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '529.982.247-25' },
  });
  assert.is(paid.status, 200, paid.text);
  const e2e = paid.body.endToEndId as string;
  const received = await pdfOf(shop, 'pix-in', e2e);
  expectAll(received, ['Comprovante de Pix recebido', 'R$ 45,90', brasilia(await timeOf(shop, e2e)), e2e]);
  expectAll(received, ['Mariana Alves Costa', '***.982.247-**', 'NU PAGAMENTOS - IP', '18236120']);
  assert.not.ok(received.includes('52998224725') || received.includes('529.982.247-25'), 'the CPF is masked');

  // To a CPF key of another institution: the key is masked as the CPF is.
  const out = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 7000,
      destinationAlias: '11144477735',
      destinationAliasType: 'CPF',
      correlationID: 'fornecedor-cpf',
      comment: 'Farinha de mandioca',
      autoApprove: true,
    },
    { auth: buyer.appID },
  );
  assert.is(out.status, 200, out.text);
  const outE2e = out.body.transaction.endToEndId as string;
  const destination = out.body.destination as { name: string; psp: { id: string; name: string } } & Record<string, any>;
  const sent = await pdfOf(buyer, 'pix-out', outE2e, '?size=phone');
  expectAll(sent, ['Comprovante de Pix enviado', 'R$ 70,00', outE2e, 'Farinha de mandioca', '***.444.777-**']);
  const lookup = await server.client.get(`/api/v1/transaction/${outE2e}`, { auth: buyer.appID });
  const credit = lookup.body.transaction.creditParty;
  expectAll(sent, [credit.holder.name, credit.psp.id, credit.psp.name, credit.account.branch, credit.account.account]);
  assert.not.ok(sent.includes('11144477735'), 'the CPF key is masked');
  void destination;

  // The outside payer's refund.
  const refund = await server.client.post(
    '/api/v1/refund',
    { transactionEndToEndId: e2e, correlationID: 'devolve-balcao', value: 590, comment: 'Troco' },
    { auth: shop.appID },
  );
  assert.is(refund.status, 200, refund.text);
  await server.services.jobs.runNow(SETTLEMENT_JOB);
  const rtrId = refund.body.refund.returnIdentification as string;
  const returned = await pdfOf(shop, 'pix-refund', rtrId);
  expectAll(returned, ['R$ 5,90', rtrId, e2e, 'Devolução do Pix: Troco', 'Mariana Alves Costa', '***.982.247-**']);
  expectAll(returned, ['NU PAGAMENTOS - IP', '18236120', 'QUEM RECEBEU A DEVOLUÇÃO']);
});

test('A4 and phone, PDF and PNG: a PNG by Accept or ?format=png, of the expected size', async () => {
  const { e2e } = await localPix(990, 'Café');
  const a4 = await receipt(shop, 'pix-in', e2e);
  const phone = await receipt(shop, 'pix-in', e2e, '?size=phone');
  assert.is(a4.type, 'application/pdf');
  assert.is(phone.type, 'application/pdf');
  if (hasTool('pdfinfo')) {
    assert.is(pdfPageSize(a4.body), '595.28 x 841.89');
    assert.match(pdfPageSize(phone.body), /^360 x [0-9.]+$/);
  }
  const byAccept = await receipt(shop, 'pix-in', e2e, '', { accept: 'image/png' });
  const byQuery = await receipt(shop, 'pix-in', e2e, '?format=png&size=phone');
  assert.is(byAccept.type, 'image/png');
  assert.is(byQuery.type, 'image/png');
  const big = PNG.sync.read(byAccept.body);
  assert.is(big.width, 1191);
  assert.is(big.height, 1684);
  const small = PNG.sync.read(byQuery.body);
  assert.is(small.width, 1080);
  assert.ok(small.height > 1200 && small.height < 4000, `phone height ${small.height}`);
  // Drawn, not blank: the amount's green is there.
  let green = 0;
  for (let i = 0; i < big.data.length; i += 4) if (big.data[i + 1]! > big.data[i]! + 60) green++;
  assert.ok(green > 500, `green pixels: ${green}`);
  // The PDF asked for explicitly, whatever Accept says.
  const pdf = await receipt(shop, 'pix-in', e2e, '?format=pdf', { accept: 'image/png' });
  assert.is(pdf.type, 'application/pdf');
});

test("another company's e2e, a wrong type, an unknown id: all answer like a missing receipt", async () => {
  const { e2e } = await localPix(500, 'Pão');
  const missing = await receipt(buyer, 'pix-in', 'E99999999202601011200abcdefghijk');
  assert.is(missing.status, 404);
  assert.equal(JSON.parse(missing.body.toString()), { error: 'Receipt not found' });
  for (const [company, type] of [
    [buyer, 'pix-in'], // the buyer sent it: no pix-in of its own
    [shop, 'pix-out'], // the shop received it
    [shop, 'pix-refund'],
  ] as const) {
    const res = await receipt(company, type, e2e);
    assert.is(res.status, 404, `${type}: ${res.status}`);
    assert.equal(JSON.parse(res.body.toString()), { error: 'Receipt not found' });
  }
  const other = await createCompany(server.client);
  const theirs = await receipt(other, 'pix-in', e2e);
  assert.is(theirs.status, 404);
  const bad = await receipt(shop, 'pix-sideways', e2e);
  assert.is(bad.status, 400);
});

test.run();
