// Money in to keys: the sandbox's outside payer sends a Pix to a company's key; the Pix shows
// in the Pix API (GET /pix/v2/pix, /pix/{e2eid}), the balance moves, the events are recorded,
// and the same end-to-end id is settled once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { receivePix } from '../../src/pixin/receive.service';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { newEndToEndId } from '../../src/lib/ids';
import { cents } from '../../src/lib/money';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

// Money in as the server does it: its public URL, the receiving company's clock.
const RECEIVE = { publicUrl: 'http://localhost:8080' };

let server: TestServer;
let acme: TestCompany;
let other: TestCompany;
let bearer: string;
let otherBearer: string;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client);
  other = await createCompany(server.client, { name: 'Outra Empresa' });
  bearer = await pixToken(server.client, acme);
  otherBearer = await pixToken(server.client, other);
});
test.after(async () => {
  await auditLedger(server.services.db);
  await server.close();
});

const payer = { name: 'Joao Pedro Martins', taxID: '268.015.731-10' };
const RANGE = () => {
  const now = Date.now();
  return `inicio=${encodeURIComponent(new Date(now - 3600_000).toISOString())}&fim=${encodeURIComponent(new Date(now + 3600_000).toISOString())}`;
};

async function pixIn(key: string, value: number, extra: Record<string, unknown> = {}) {
  const res = await server.client.post('/api/v1/sandbox/pix-in', { pixKey: key, value, payer, ...extra });
  assert.is(res.status, 200, res.text);
  return res.body as { endToEndId: string; value: number; time: string; status: string; pixKey: string };
}

test('a Pix to a key is credited, answered, and shown in the Pix API', async () => {
  const before = await server.client.get(`/api/v1/account/${acme.accountId}`, { auth: acme.appID });
  assert.equal(before.body.account.balance, {
    total: 0,
    blocked: 0,
    available: 0,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });

  const received = await pixIn(acme.pixKey, 30000, { comment: 'Reembolso almoco' });
  assert.match(received.endToEndId, /^E18236120\d{12}[a-zA-Z0-9]{11}$/);
  assert.is(received.value, 30000);
  assert.is(received.status, 'CONFIRMED');
  assert.is(received.pixKey, acme.pixKey);

  const after = await server.client.get(`/api/v1/account/${acme.accountId}`, { auth: acme.appID });
  assert.equal(after.body.account.balance, {
    total: 30000,
    blocked: 0,
    available: 30000,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });

  const pix = await server.client.get(`/pix/v2/pix/${received.endToEndId}`, { auth: bearer });
  assert.is(pix.status, 200, pix.text);
  assert.equal(pix.body, {
    endToEndId: received.endToEndId,
    valor: '300.00',
    chave: acme.pixKey,
    horario: received.time,
    infoPagador: 'Reembolso almoco',
    devolucoes: [],
  });
});

test('another company, or an unknown e2eid, gets PixNaoEncontrado', async () => {
  const { endToEndId } = await pixIn(acme.pixKey, 100);
  const theirs = await server.client.get(`/pix/v2/pix/${endToEndId}`, { auth: otherBearer });
  const missing = await server.client.get(`/pix/v2/pix/E18236120202601011200abcdefghijk`, { auth: otherBearer });
  for (const res of [theirs, missing]) {
    assert.is(res.status, 404);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/PixNaoEncontrado');
    assert.is(res.body.detail, 'Pix not found');
  }
});

test('an unknown key answers 404, a bad payer tax id 400 (nothing credited)', async () => {
  const unknown = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: 'nobody@example.com',
    value: 100,
    payer,
  });
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { error: 'Pix key not found' });
  const badTaxId = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: acme.pixKey,
    value: 100,
    payer: { name: 'X', taxID: '11111111111' },
  });
  assert.is(badTaxId.status, 400);
  assert.is(badTaxId.body.details[0].field, 'payer.taxID');
  for (const value of [1e20, 1_000_000_000_000]) {
    const huge = await server.client.post('/api/v1/sandbox/pix-in', { pixKey: acme.pixKey, value, payer });
    assert.is(huge.status, 400, huge.text);
    assert.equal(huge.body.details, [{ field: 'body.value', message: 'must be <= 999999999999' }]);
  }
});

test('the events of a received Pix: TRANSACTION_RECEIVED (no charge, no txid: no Pix API callback)', async () => {
  const company = await createCompany(server.client, { name: 'Eventos Ltda' });
  const { endToEndId, time } = await pixIn(company.pixKey, 4590, { comment: 'Pedido 10482' });
  const events = await listEventsOfCompany(server.services.db, company.companyId);
  assert.equal(
    events.map((e) => e.type),
    ['OPENPIX:TRANSACTION_RECEIVED'],
  );
  const payload = events[0]!.payload as Record<string, any>;
  assert.equal(payload.pix, {
    value: 4590,
    time,
    endToEndId,
    infoPagador: 'Pedido 10482',
    pixKey: company.pixKey,
    type: 'PAYMENT',
    status: 'CONFIRMED',
    payer: { name: payer.name, taxID: { taxID: '26801573110', type: 'BR:CPF' } },
    createdAt: time,
  });
  assert.is(payload.company.id, company.companyId);
  assert.is(payload.account.accountId, company.accountId);
  assert.is(payload.charge, undefined);
});

test('the same end-to-end id is settled once; a local payment by key credits without debiting here', async () => {
  const company = await createCompany(server.client, { name: 'Idempotente SA' });
  const db = server.services.db;
  const at = await server.services.clock.now(company.companyId);
  const endToEndId = newEndToEndId('99999999', at);
  const incoming = {
    endToEndId,
    value: cents(1234),
    at,
    payer: {
      name: 'Outra Empresa',
      taxId: '11222333000181',
      ispb: '99999999',
      companyId: other.companyId,
      accountId: other.accountId,
    },
    pixKey: company.pixKey,
    infoPagador: 'nota 55',
  };
  const first = await db.transaction().execute((trx) => receivePix(trx, incoming, RECEIVE));
  const second = await db.transaction().execute((trx) => receivePix(trx, incoming, RECEIVE));
  assert.ok(first.ok);
  assert.equal(second, first);
  const balance = await server.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID });
  assert.is(balance.body.account.balance.total, 1234);
  const events = await listEventsOfCompany(db, company.companyId);
  assert.is(events.length, 1);
  const rows = await db.selectFrom('transactions').selectAll().where('end_to_end_id', '=', endToEndId).execute();
  assert.is(rows.length, 1);
  assert.is(rows[0]!.type, 'PIX_IN');
  assert.is(rows[0]!.value, 1234);
  assert.equal(rows[0]!.details, {
    infoPagador: 'nota 55',
    pixKey: company.pixKey,
    payer: { name: 'Outra Empresa', taxID: '11222333000181', ispb: '99999999' },
  });
});

test('GET /pix lists by period, with filters and paging (parametros echo the query)', async () => {
  const company = await createCompany(server.client, { name: 'Lista Ltda' });
  const token = await pixToken(server.client, company);
  const a = await pixIn(company.pixKey, 100);
  const b = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: company.pixKey,
    value: 200,
    payer: { name: 'Empresa X', taxID: '11.222.333/0001-81' },
  });
  const c = await pixIn(company.pixKey, 300);

  const all = await server.client.get(`/pix/v2/pix?${RANGE()}`, { auth: token });
  assert.is(all.status, 200, all.text);
  assert.equal(
    all.body.pix.map((p: { valor: string }) => p.valor),
    ['1.00', '2.00', '3.00'],
  );
  assert.equal(all.body.parametros.paginacao, {
    paginaAtual: 0,
    itensPorPagina: 100,
    quantidadeDePaginas: 1,
    quantidadeTotalDeItens: 3,
  });

  const page = await server.client.get(`/pix/v2/pix?${RANGE()}&paginacao.paginaAtual=1&paginacao.itensPorPagina=2`, {
    auth: token,
  });
  assert.equal(
    page.body.pix.map((p: { endToEndId: string }) => p.endToEndId),
    [c.endToEndId],
  );
  assert.equal(page.body.parametros.paginacao, {
    paginaAtual: 1,
    itensPorPagina: 2,
    quantidadeDePaginas: 2,
    quantidadeTotalDeItens: 3,
  });

  const byCnpj = await server.client.get(`/pix/v2/pix?${RANGE()}&cnpj=11222333000181`, { auth: token });
  assert.equal(
    byCnpj.body.pix.map((p: { endToEndId: string }) => p.endToEndId),
    [b.body.endToEndId],
  );
  assert.is(byCnpj.body.parametros.cnpj, '11222333000181');
  const byCpf = await server.client.get(`/pix/v2/pix?${RANGE()}&cpf=26801573110`, { auth: token });
  assert.equal(
    byCpf.body.pix.map((p: { endToEndId: string }) => p.endToEndId),
    [a.endToEndId, c.endToEndId],
  );

  const withTxid = await server.client.get(`/pix/v2/pix?${RANGE()}&txIdPresente=true`, { auth: token });
  assert.equal(withTxid.body.pix, []);
  const withoutTxid = await server.client.get(`/pix/v2/pix?${RANGE()}&txIdPresente=false&devolucaoPresente=false`, {
    auth: token,
  });
  assert.is(withoutTxid.body.pix.length, 3);
  assert.is(withoutTxid.body.parametros.txIdPresente, false);

  const past = await server.client.get(`/pix/v2/pix?inicio=2020-01-01T00:00:00Z&fim=2020-12-31T00:00:00Z`, {
    auth: token,
  });
  assert.equal(past.body.pix, []);
  assert.equal(past.body.parametros, {
    inicio: '2020-01-01T00:00:00Z',
    fim: '2020-12-31T00:00:00Z',
    paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 },
  });
});

test('GET /pix refuses bad list parameters with PixConsultaInvalida', async () => {
  const cases = [
    'inicio=2026-03-02T00:00:00Z&fim=2026-03-01T00:00:00Z',
    'inicio=2026-03-01T00:00:00Z&fim=2026-03-02T00:00:00Z&cpf=26801573110&cnpj=11222333000181',
    'inicio=2026-03-01T00:00:00Z&fim=2026-03-02T00:00:00Z&paginacao.paginaAtual=-1',
    'inicio=2026-03-01T00:00:00Z&fim=2026-03-02T00:00:00Z&paginacao.itensPorPagina=0',
    'inicio=2026-03-01T00:00:00Z',
    'inicio=nope&fim=2026-03-02T00:00:00Z',
  ];
  for (const q of cases) {
    const res = await server.client.get(`/pix/v2/pix?${q}`, { auth: bearer });
    assert.is(res.status, 400, `${q}: ${res.text}`);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/PixConsultaInvalida', q);
    assert.ok(res.body.violacoes.length > 0, q);
  }
});

test('another company does not see the Pix in its list', async () => {
  const res = await server.client.get(`/pix/v2/pix?${RANGE()}`, { auth: otherBearer });
  assert.equal(res.body.pix, []);
});

test.run();
