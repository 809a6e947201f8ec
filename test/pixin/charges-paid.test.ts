// Charges paid by Pix: dynamic BR Codes through their location, static codes through their
// key (+ txid, + amount), what a payer's bank refuses, and the events of a paid charge.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { receivePix } from '../../src/pixin/receive.service';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { buildStaticBrCode } from '../../src/lib/brcode';
import { newEndToEndId } from '../../src/lib/ids';
import { cents } from '../../src/lib/money';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import type { TestServer } from '../support/server';
import { chargeRow, closeAudited, makeCob, makeCobv, startPixinServer } from './support';

// Money in as the server does it: its public URL, the receiving company's clock.
const RECEIVE = { publicUrl: 'http://localhost:8080' };

let server: TestServer;
let acme: TestCompany;
let bearer: string;

test.before(async () => {
  ({ server, acme, bearer } = await startPixinServer());
});
test.after(() => closeAudited(server));

const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };
const pay = (body: Record<string, unknown>) => server.client.post('/api/v1/sandbox/pay', { payer, ...body });

test('a dynamic BR Code is paid through its location: charge CONCLUIDA, Pix with its txid, events', async () => {
  const company = await createCompany(server.client, { name: 'Cobranca Ltda' });
  const token = await pixToken(server.client, company);
  const { charge, brCode } = await makeCob(server, company, { value: 15990, correlationId: 'pedido-2026-000184' });
  const res = await pay({ brCode });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, {
    endToEndId: res.body.endToEndId,
    value: 15990,
    time: res.body.time,
    status: 'CONFIRMED',
    chargeCorrelationID: 'pedido-2026-000184',
    pixKey: company.pixKey,
  });

  const paid = await chargeRow(server, charge.id);
  assert.is(paid.status, 'CONCLUIDA');
  assert.is(paid.paid_at!.toISOString(), res.body.time);

  const pix = await server.client.get(`/pix/v2/pix/${res.body.endToEndId}`, { auth: token });
  assert.equal(pix.body, {
    endToEndId: res.body.endToEndId,
    txid: charge.txid,
    valor: '159.90',
    chave: company.pixKey,
    horario: res.body.time,
    devolucoes: [],
  });

  const events = await listEventsOfCompany(server.services.db, company.companyId);
  assert.equal(events.map((e) => e.type).sort(), [
    'OPENPIX:CHARGE_COMPLETED',
    'OPENPIX:CHARGE_CREATED',
    'OPENPIX:TRANSACTION_RECEIVED',
    'PIX_API:PIX',
  ]);
  const completed = events.find((e) => e.type === 'OPENPIX:CHARGE_COMPLETED')!.payload as Record<string, any>;
  assert.is(completed.charge.status, 'COMPLETED');
  assert.is(completed.charge.correlationID, 'pedido-2026-000184');
  assert.is(completed.pix.endToEndId, res.body.endToEndId);
  assert.is(completed.pix.transactionID, charge.txid);
  assert.equal(completed.company, { id: company.companyId, name: 'Cobranca Ltda', taxID: completed.company.taxID });
  const received = events.find((e) => e.type === 'OPENPIX:TRANSACTION_RECEIVED')!.payload as Record<string, any>;
  assert.is(received.charge.correlationID, 'pedido-2026-000184');
  const callback = events.find((e) => e.type === 'PIX_API:PIX')!.payload;
  assert.equal(callback, { chave: company.pixKey, pix: pix.body });

  const rows = await server.services.db
    .selectFrom('transactions')
    .selectAll()
    .where('end_to_end_id', '=', res.body.endToEndId)
    .execute();
  assert.is(rows.length, 1);
  assert.is(rows[0]!.charge_id, charge.id);
  assert.equal(rows[0]!.details, {
    txid: charge.txid,
    pixKey: company.pixKey,
    payer: { name: payer.name, taxID: payer.taxID, ispb: '18236120' },
    chargeCorrelationID: 'pedido-2026-000184',
    charge: {
      correlationID: 'pedido-2026-000184',
      status: 'COMPLETED',
      value: 15990,
      transactionID: charge.txid,
      createdAt: charge.created_at.toISOString(),
    },
  });

  // Paid once: a second payment is refused.
  const again = await pay({ brCode });
  assert.is(again.status, 400);
  assert.equal(again.body, { error: 'The charge is already paid' });
});

test('a payer bank refuses: wrong amount, expired, removed, unknown location, bad code', async () => {
  const { brCode } = await makeCob(server, acme, { value: 1000 });
  const wrong = await pay({ brCode, value: 999 });
  assert.is(wrong.status, 400);
  assert.equal(wrong.body, { error: 'The charge must be paid with exactly 10.00' });

  const expired = await makeCob(server, acme, { value: 1000 });
  await server.services.db
    .updateTable('charges')
    .set({ expires_at: new Date(Date.now() - 1000), payable_until: new Date(Date.now() - 1000) })
    .where('id', '=', expired.charge.id)
    .execute();
  const late = await pay({ brCode: expired.brCode });
  assert.is(late.status, 400);
  assert.equal(late.body, { error: 'The charge has expired' });

  const removed = await makeCob(server, acme, { value: 1000 });
  await server.services.db
    .updateTable('charges')
    .set({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
    .where('id', '=', removed.charge.id)
    .execute();
  const gone = await pay({ brCode: removed.brCode });
  assert.is(gone.status, 400);
  assert.equal(gone.body, { error: 'The charge was removed' });

  const other = await makeCob(server, acme, { value: 1000 });
  await server.services.db
    .updateTable('locations')
    .set({ charge_id: null })
    .where('id', '=', Number(other.charge.location_id))
    .execute();
  const unlinked = await pay({ brCode: other.brCode });
  assert.is(unlinked.status, 404);
  assert.equal(unlinked.body, { error: 'Charge not found' });

  const broken = await pay({ brCode: brCode.slice(0, -1) + (brCode.endsWith('0') ? '1' : '0') });
  assert.is(broken.status, 400);
  assert.is(broken.body.error, 'Invalid BR Code');
  assert.equal(broken.body.details, [{ field: 'brCode', message: 'CRC does not match' }]);

  // Nothing was credited by the refusals.
  const balance = await server.client.get(`/api/v1/account/${acme.accountId}`, { auth: acme.appID });
  assert.is(balance.body.account.balance.total, 0);
});

test('valor.modalidadeAlteracao 1 lets the payer choose the amount', async () => {
  const { brCode } = await makeCob(server, acme, { value: 8970, valor: { modalidadeAlteracao: 1 } });
  const res = await pay({ brCode, value: 5000 });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.value, 5000);
});

test('ensureSameTaxID: only the debtor may pay', async () => {
  const devedor = { cpf: '52998224725', nome: 'Mariana Alves Costa' };
  const { brCode } = await makeCob(server, acme, { value: 1000, devedor, platform: { ensureSameTaxID: true } });
  const stranger = await server.client.post('/api/v1/sandbox/pay', {
    brCode,
    payer: { name: 'Outro', taxID: '39053344705' },
  });
  assert.is(stranger.status, 400);
  assert.equal(stranger.body, { error: "The payer's tax id is not the one the charge requires" });
  const debtor = await server.client.post('/api/v1/sandbox/pay', {
    brCode,
    payer: { name: 'Mariana', taxID: '529.982.247-25' },
  });
  assert.is(debtor.status, 200, debtor.text);
});

test('a due-date charge: its code has no amount, the payer pays what is due today; past validity it is refused', async () => {
  const today = new Date().toISOString().slice(0, 10);
  const due = await makeCobv(server, acme, { value: 20000, dueDate: today });
  const res = await pay({ brCode: due.brCode });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.value, 20000);

  const past = await makeCobv(server, acme, { value: 20000, dueDate: '2020-01-01', validity: 5 });
  const late = await pay({ brCode: past.brCode });
  assert.is(late.status, 400);
  assert.equal(late.body, { error: 'The charge can no longer be paid: its validity after the due date has ended' });
  const lateWithValue = await pay({ brCode: past.brCode, value: 20000 });
  assert.is(lateWithValue.status, 400);
});

test('a due-date charge paid late carries its parts in componentesValor', async () => {
  const dueDate = new Date(Date.now() - 5 * 86400_000).toISOString().slice(0, 10);
  const late = await makeCobv(server, acme, {
    value: 20000,
    dueDate,
    valor: { multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '1.00' } },
  });
  const res = await pay({ brCode: late.brCode });
  assert.is(res.status, 200, res.text);
  const pix = await server.client.get(`/pix/v2/pix/${res.body.endToEndId}`, { auth: bearer });
  const parts = pix.body.componentesValor;
  assert.is(parts.original.valor, '200.00');
  assert.is(parts.multa.valor, '4.00');
  assert.ok(Number(parts.juros.valor) > 0, JSON.stringify(parts));
  assert.is(
    Math.round(Number(parts.original.valor) * 100 + Number(parts.multa.valor) * 100 + Number(parts.juros.valor) * 100),
    res.body.value,
  );
  assert.is(pix.body.valor, (res.body.value / 100).toFixed(2));
});

test("a key with a charge's txid pays that charge; an unknown txid is a plain Pix carrying it", async () => {
  const { charge } = await makeCob(server, acme, { value: 4200, correlationId: 'via-chave' });
  const at = await server.services.clock.now(acme.companyId);
  const incoming = {
    value: cents(4200),
    at,
    payer: { name: 'Pagador', taxId: '52998224725', ispb: '18236120' },
    pixKey: acme.pixKey,
  };
  const paid = await server.services.db
    .transaction()
    .execute((trx) =>
      receivePix(trx, { ...incoming, endToEndId: newEndToEndId('18236120', at), txid: charge.txid }, RECEIVE),
    );
  assert.ok(paid.ok && paid.chargeId === charge.id);
  assert.is((await chargeRow(server, charge.id)).status, 'CONCLUIDA');

  const plain = await server.services.db
    .transaction()
    .execute((trx) =>
      receivePix(trx, { ...incoming, endToEndId: newEndToEndId('18236120', at), txid: 'semCobranca1' }, RECEIVE),
    );
  assert.ok(plain.ok && plain.chargeId === null);
  const pix = await server.client.get(`/pix/v2/pix/${plain.endToEndId}`, { auth: bearer });
  assert.is(pix.body.txid, 'semCobranca1');
});

test('a static BR Code: its amount is paid when present, value required when absent, refused when different', async () => {
  const fixed = buildStaticBrCode({
    pixKey: acme.pixKey,
    merchantName: 'Aurora Moda',
    merchantCity: 'SAO PAULO',
    amount: cents(2500),
    txid: 'CAFEBALCAO01',
  });
  const res = await pay({ brCode: fixed });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.value, 2500);
  const pix = await server.client.get(`/pix/v2/pix/${res.body.endToEndId}`, { auth: bearer });
  assert.is(pix.body.txid, 'CAFEBALCAO01');
  const different = await pay({ brCode: fixed, value: 2400 });
  assert.is(different.status, 400);
  assert.is(different.body.error, 'The value differs from the amount of the QR code (25.00)');

  const open = buildStaticBrCode({ pixKey: acme.pixKey, merchantName: 'Aurora Moda', merchantCity: 'SAO PAULO' });
  const noValue = await pay({ brCode: open });
  assert.is(noValue.status, 400);
  assert.equal(noValue.body.details, [
    { field: 'value', message: 'value is required to pay a QR code without amount' },
  ]);
  const withValue = await pay({ brCode: open, value: 777 });
  assert.is(withValue.status, 200);
  const noTxid = await server.client.get(`/pix/v2/pix/${withValue.body.endToEndId}`, { auth: bearer });
  assert.is(noTxid.body.txid, undefined);

  const unknownKey = buildStaticBrCode({
    pixKey: 'ninguem@example.com',
    merchantName: 'X',
    merchantCity: 'Y',
    amount: cents(100),
  });
  const notFound = await pay({ brCode: unknownKey });
  assert.is(notFound.status, 404);
  assert.equal(notFound.body, { error: 'Pix key not found' });
});

test('a static QR code of the catalog is linked to the Pix that pays it', async () => {
  const created = await server.client.post(
    '/api/v1/qrcode-static',
    { name: 'Balcao', value: 1500, correlationID: 'balcao-1' },
    { auth: acme.appID },
  );
  assert.is(created.status, 200, created.text);
  const res = await pay({ brCode: created.body.pixQrCode.brCode });
  assert.is(res.status, 200, res.text);
  const row = await server.services.db
    .selectFrom('transactions')
    .selectAll()
    .where('end_to_end_id', '=', res.body.endToEndId)
    .executeTakeFirstOrThrow();
  assert.equal((row.details as { pixQrCode: unknown }).pixQrCode, {
    name: 'Balcao',
    correlationID: 'balcao-1',
    identifier: created.body.pixQrCode.identifier,
  });
});

test('Pix Troco: the change part is refundable with RETIRADA, the purchase with ORIGINAL', async () => {
  const troco = {
    modalidadeAlteracao: 0,
    retirada: {
      troco: {
        valor: '50.00',
        modalidadeAlteracao: 0,
        modalidadeAgente: 'AGTEC' as const,
        prestadorDoServicoDeSaque: '13370835',
      },
    },
  };
  const { brCode } = await makeCob(server, acme, { value: 3250, valor: troco });
  const wrong = await pay({ brCode, value: 3250 });
  assert.is(wrong.status, 400);
  const res = await pay({ brCode, value: 8250 });
  assert.is(res.status, 200, res.text);
  const e2eid = res.body.endToEndId;
  const pix = await server.client.get(`/pix/v2/pix/${e2eid}`, { auth: bearer });
  assert.equal(pix.body.componentesValor, {
    original: { valor: '32.50' },
    troco: { valor: '50.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '13370835' },
  });
  const put = (id: string, body: unknown) =>
    server.client.put(`/pix/v2/pix/${e2eid}/devolucao/${id}`, body, { auth: bearer });
  assert.is((await put('t1', { valor: '50.01', natureza: 'RETIRADA' })).status, 400);
  assert.is(
    (await put('t2', { valor: '50.00', natureza: 'RETIRADA', descricao: 'Troco nao entregue no caixa' })).status,
    201,
  );
  const over = await put('t3', { valor: '32.51' });
  assert.is(over.status, 400);
  assert.is(over.body.detail, 'The devolution exceeds what is left to return of the Pix purchase part: at most 32.50');
  assert.is((await put('t4', { valor: '32.50' })).status, 201);
});

test.run();
