// Pix API webhooks (standard v2.8.2): /webhook/{chave}, /webhook, /webhookrec, /webhookcobr
// with the standard's errors, and the callbacks {webhookUrl}/pix, /rec and /cobr.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { insertPixKey } from '../../src/keys/keys.repository';
import { verifyHmacSignature, verifyRsaSignature } from '../../src/webhooks/signature';
import { pixToken } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from './receiver';

interface PixCompany {
  companyId: string;
  taxID: string;
  appID: string;
  key: string;
  bearer: string;
}

let server: TestServer;
let receiver: Receiver;
let acme: PixCompany;
let other: PixCompany;
const ERR = 'https://pix.bcb.gov.br/api/v2/error/';

async function pixCompany(name: string): Promise<PixCompany> {
  const res = await server.client.post('/api/v1/sandbox/companies', { name });
  assert.is(res.status, 201, res.text);
  const { company, application, pixKey } = res.body;
  return {
    companyId: company.id,
    taxID: company.taxID,
    appID: application.appID,
    key: pixKey.key,
    bearer: await pixToken(server.client, application),
  };
}

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: '1h' }, { backgroundJobs: false });
  receiver = await startReceiver();
  acme = await pixCompany('Padaria Pao Dourado');
  other = await pixCompany('Outra Empresa');
});
test.after(async () => {
  await receiver.close();
  await server.close();
});
test.before.each(() => {
  receiver.requests.length = 0;
  receiver.respond = () => 200;
});

const put = (c: PixCompany, path: string, webhookUrl: unknown) =>
  server.client.put(`/pix/v2/${path}`, { webhookUrl }, { auth: c.bearer });
const get = (c: PixCompany, path: string) => server.client.get(`/pix/v2/${path}`, { auth: c.bearer });
const del = (c: PixCompany, path: string) => server.client.delete(`/pix/v2/${path}`, { auth: c.bearer });

test('PUT, GET, list and DELETE the webhook of one of the company keys', async () => {
  const url = `${receiver.url}/api/pix/webhook`;
  const created = await put(acme, `webhook/${acme.key}`, url);
  assert.is(created.status, 200, created.text);
  assert.is(created.text, '');
  assert.is(created.headers.get('content-length'), '0');
  const secret = created.headers.get('x-pixgate-webhook-secret')!;
  assert.match(secret, /^whsec_[A-Za-z0-9]{32}$/);
  const read = await get(acme, `webhook/${acme.key}`);
  assert.is(read.status, 200, read.text);
  // cnpj: the receiving user's, which the official schema requires in a webhook's answer.
  assert.equal({ ...read.body, criacao: 'x' }, { webhookUrl: url, chave: acme.key, cnpj: acme.taxID, criacao: 'x' });
  // A second PUT points it elsewhere, keeping its creation time and secret.
  const moved = await put(acme, `webhook/${acme.key}`, `${url}-2`);
  assert.is(moved.status, 200);
  assert.is(moved.headers.get('x-pixgate-webhook-secret'), secret);
  const again = await get(acme, `webhook/${acme.key}`);
  assert.equal(again.body, { ...read.body, webhookUrl: `${url}-2` });

  const list = await get(acme, 'webhook');
  assert.is(list.status, 200, list.text);
  assert.equal(list.body, {
    parametros: {
      paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 },
    },
    webhooks: [again.body],
  });
  const inWindow = await get(
    acme,
    `webhook?inicio=2000-01-01T00:00:00Z&fim=2000-12-31T00:00:00Z&paginacao.itensPorPagina=5`,
  );
  assert.equal(inWindow.body, {
    parametros: {
      inicio: '2000-01-01T00:00:00Z',
      fim: '2000-12-31T00:00:00Z',
      paginacao: { paginaAtual: 0, itensPorPagina: 5, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 },
    },
    webhooks: [],
  });
  assert.equal((await get(other, 'webhook')).body.webhooks, []);

  const removed = await del(acme, `webhook/${acme.key}`);
  assert.equal([removed.status, removed.text], [204, '']);
  const missing = await get(acme, `webhook/${acme.key}`);
  assert.is(missing.status, 404);
  assert.equal(missing.body, {
    type: `${ERR}WebhookNaoEncontrado`,
    title: 'Webhook not found',
    status: 404,
    detail: `No webhook is configured for key ${acme.key}.`,
  });
  assert.is((await del(acme, `webhook/${acme.key}`)).status, 404);
});

test("the standard's errors: another user's key, a bad URL, a bad period, no webhook", async () => {
  const foreign = await put(acme, `webhook/${other.key}`, `${receiver.url}/x`);
  assert.is(foreign.status, 400, foreign.text);
  assert.equal(foreign.body, {
    type: `${ERR}WebhookOperacaoInvalida`,
    title: 'Invalid webhook',
    status: 400,
    detail: 'The request to configure a webhook breaks the schema or is semantically wrong.',
    violacoes: [
      { razao: 'The Pix key does not belong to this receiving user', propriedade: 'chave', valor: other.key },
    ],
  });
  const ftp = await put(acme, `webhook/${acme.key}`, 'ftp://sistemas.example.com/pix');
  assert.is(ftp.status, 400);
  assert.is(ftp.body.type, `${ERR}WebhookOperacaoInvalida`);
  assert.equal(ftp.body.violacoes, [
    { razao: 'webhookUrl must use http or https', propriedade: 'webhookUrl', valor: 'ftp://sistemas.example.com/pix' },
  ]);
  const long = await put(acme, `webhook/${acme.key}`, `https://sistemas.example.com/${'p'.repeat(2100)}`);
  assert.is(long.status, 400);
  assert.is(long.body.type, `${ERR}WebhookOperacaoInvalida`);
  const noUrl = await server.client.put(`/pix/v2/webhook/${acme.key}`, {}, { auth: acme.bearer });
  assert.is(noUrl.status, 400);
  assert.is(noUrl.body.type, `${ERR}WebhookOperacaoInvalida`);
  const period = await get(acme, 'webhook?inicio=2026-03-01T00:00:00Z&fim=2026-02-01T00:00:00Z');
  assert.is(period.status, 400);
  assert.is(period.body.type, `${ERR}WebhookConsultaInvalida`);
  // Another company's webhook is answered exactly like none.
  assert.is((await put(other, `webhook/${other.key}`, `${receiver.url}/o`)).status, 200);
  const theirs = await get(acme, `webhook/${other.key}`);
  assert.equal([theirs.status, theirs.body.type], [404, `${ERR}WebhookNaoEncontrado`]);
  assert.is((await del(acme, `webhook/${other.key}`)).status, 404);
  assert.is((await del(other, `webhook/${other.key}`)).status, 204);
  // Input the database cannot hold or count: clear 4xx in the standard's format, never a 500.
  const nul = await put(acme, 'webhook/a%00b', `${receiver.url}/x`);
  assert.equal(
    [nul.status, nul.headers.get('content-type'), nul.body.type, nul.body.violacoes?.[0]?.propriedade],
    [400, 'application/problem+json', `${ERR}WebhookOperacaoInvalida`, 'chave'],
  );
  assert.equal(
    [(await get(acme, 'webhook/a%00b')).body.type, (await del(acme, 'webhook/a%00b')).status],
    [`${ERR}WebhookNaoEncontrado`, 404],
  );
  const far = await get(acme, 'webhook?paginacao.paginaAtual=99999999999999999999');
  assert.equal(
    [far.status, far.body.type, far.body.violacoes?.[0]?.propriedade],
    [400, `${ERR}WebhookConsultaInvalida`, 'query.paginacao.paginaAtual'],
    far.text,
  );
  const noScope = await pixToken(server.client, await appOf(acme), 'webhook.read');
  const denied = await server.client.put(
    `/pix/v2/webhook/${acme.key}`,
    { webhookUrl: `${receiver.url}/x` },
    { auth: noScope },
  );
  assert.is(denied.status, 403);
});

async function appOf(c: PixCompany) {
  const res = await server.client.post(
    '/api/v1/application',
    {
      accountId: (await server.client.get('/api/v1/account', { auth: c.appID })).body.accounts[0].accountId,
      application: { name: 'ro', type: 'API', scopes: ['webhook.read'] },
    },
    { auth: c.appID },
  );
  assert.is(res.status, 201, res.text);
  return res.body.application as { clientId: string; clientSecret: string };
}

test('webhookrec and webhookcobr: PUT, GET, DELETE, NaoEncontrado, no query parameters', async () => {
  for (const [path, invalid, consulta] of [
    ['webhookrec', 'WebhookRecOperacaoInvalida', 'WebhookRecConsultaInvalida'],
    ['webhookcobr', 'WebhookCobROperacaoInvalida', 'WebhookCobRConsultaInvalida'],
  ] as const) {
    const none = await get(acme, path);
    assert.equal([none.status, none.body.type], [404, `${ERR}NaoEncontrado`]);
    const url = `${receiver.url}/${path}`;
    const res = await put(acme, path, url);
    assert.is(res.status, 200, res.text);
    assert.match(res.headers.get('x-pixgate-webhook-secret') ?? '', /^whsec_/);
    const read = await get(acme, path);
    assert.equal({ ...read.body, criacao: 'x' }, { webhookUrl: url, criacao: 'x' });
    assert.equal((await get(other, path)).status, 404);
    const query = await get(acme, `${path}?chave=${acme.key}`);
    assert.is(query.status, 400);
    assert.equal(query.body.type, `${ERR}${consulta}`);
    assert.equal(query.body.violacoes, [{ razao: 'is not an accepted field', propriedade: 'query.chave' }]);
    const bad = await put(acme, path, 'mailto:ops@example.com');
    assert.equal([bad.status, bad.body.type], [400, `${ERR}${invalid}`]);
    assert.is((await del(acme, path)).status, 204);
    assert.is((await del(acme, path)).status, 404);
  }
});

test('callbacks: Pix with txid to {webhookUrl}/pix, recurrences to /rec, recurring charges to /cobr, signed', async () => {
  const pixSecret = (await put(acme, `webhook/${acme.key}`, `${receiver.url}/erp/`)).headers.get(
    'x-pixgate-webhook-secret',
  )!;
  const recSecret = (await put(acme, 'webhookrec', `${receiver.url}/notificacoes`)).headers.get(
    'x-pixgate-webhook-secret',
  )!;
  const cobrSecret = (await put(acme, 'webhookcobr', `${receiver.url}/cobrancas?x=1`)).headers.get(
    'x-pixgate-webhook-secret',
  )!;
  // A second key of the company, without a webhook: its Pix are not posted anywhere.
  const second = 'pix@paodourado.com.br';
  await server.database.db.transaction().execute(async (trx) => {
    const acc = await trx
      .selectFrom('bank_accounts')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .executeTakeFirstOrThrow();
    await insertPixKey(trx, {
      key: second,
      company_id: acme.companyId,
      account_id: acc.id,
      type: 'EMAIL',
      is_default: false,
      created_at: new Date(),
    });
  });
  const pix = {
    endToEndId: 'E18236120202603101352Rf35mq892v1',
    txid: '750DWxoRsqKp5GWlI42iMyxTO2',
    valor: '45.90',
    chave: acme.key,
    horario: '2026-03-10T13:52:47.611Z',
  };
  const devolvido = {
    ...pix,
    devolucoes: [
      {
        id: 'DEV1',
        rtrId: 'D13370835202603111020iIkIRyWj81q',
        valor: '1.00',
        horario: { solicitacao: '2026-03-11T10:20:31.447Z' },
        status: 'DEVOLVIDO',
      },
    ],
  };
  const rec = { idRec: 'RR1337083520260305Kzjd6PoQurO', status: 'APROVADA' };
  const cobr = { idRec: 'RR1337083520260305Kzjd6PoQurO', txid: 'ucWV9lUdQn577OFd27f3IP4W3z', status: 'CRIADA' };
  const ids = [
    await record(server, acme.companyId, 'PIX_API:PIX', { chave: acme.key, pix }),
    await record(server, acme.companyId, 'PIX_API:PIX', { chave: acme.key, pix: devolvido }),
    await record(server, acme.companyId, 'PIX_API:REC', { rec }),
    await record(server, acme.companyId, 'PIX_API:COBR', { cobr }),
  ];
  await record(server, acme.companyId, 'PIX_API:PIX', { chave: second, pix: { ...pix, chave: second } });
  await record(server, other.companyId, 'PIX_API:REC', { rec });
  await drain(server, 2);
  const byId = new Map(receiver.requests.map((r) => [r.headers['x-pixgate-event-id'], r]));
  assert.is(receiver.requests.length, 4);
  const expected = [
    ['/erp/pix', { pix: [pix] }, pixSecret],
    ['/erp/pix', { pix: [devolvido] }, pixSecret],
    ['/notificacoes/rec', { recs: [rec] }, recSecret],
    ['/cobrancas/cobr?x=1', { cobsr: [cobr] }, cobrSecret],
  ] as const;
  const keys = (await server.client.get('/api/v1/webhook/public-keys', { auth: acme.appID })).body.keys;
  ids.forEach((id, i) => {
    const req = byId.get(id)!;
    const [path, body, secret] = expected[i]!;
    assert.ok(req, `event ${i} was not delivered`);
    assert.equal([req.method, req.path, req.json], ['POST', path, body]);
    assert.is(req.headers['content-type'], 'application/json');
    assert.is(req.headers['authorization'], undefined);
    assert.equal(verifyHmacSignature(secret, req.body, req.headers['x-pixgate-signature'] as string), { ok: true });
    assert.ok(verifyRsaSignature(keys[0].pem, req.body, req.headers['x-webhook-signature'] as string));
  });
  for (const path of [`webhook/${acme.key}`, 'webhookrec', 'webhookcobr'])
    assert.is((await del(acme, path)).status, 204);
});

test('a deleted Pix webhook gets nothing more: its pending deliveries go with it', async () => {
  receiver.respond = () => 500;
  await put(acme, `webhook/${acme.key}`, `${receiver.url}/gone`);
  const pix = { endToEndId: 'E1', valor: '1.00', chave: acme.key, horario: '2026-03-10T13:52:47.611Z' };
  await record(server, acme.companyId, 'PIX_API:PIX', { chave: acme.key, pix });
  await drain(server);
  assert.is(receiver.requests.length, 1);
  const webhook = await server.database.db
    .selectFrom('webhooks')
    .select('id')
    .where('company_id', '=', acme.companyId)
    .where('chave', '=', acme.key)
    .executeTakeFirstOrThrow();
  const pending = () =>
    server.database.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', webhook.id).execute();
  assert.equal(await pending(), [{ status: 'PENDING' }]);
  assert.is((await del(acme, `webhook/${acme.key}`)).status, 204);
  assert.equal(await pending(), []);
  await record(server, acme.companyId, 'PIX_API:PIX', { chave: acme.key, pix });
  await drain(server, 2);
  assert.is(receiver.requests.length, 1);
});

test.run();
