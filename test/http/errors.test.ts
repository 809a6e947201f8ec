// Bad input of every kind gets a clear 4xx in the called API's own format, never a 500.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;
let bearer: string;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client);
  bearer = await pixToken(server.client, acme);
});
test.after(async () => server.close());

function isPlatformError(res: { status: number; body: any; headers: Headers }, status: number) {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.type(res.body.error, 'string');
}

function isProblem(res: { status: number; body: any; headers: Headers }, status: number, type?: string) {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.is(res.body.status, status);
  assert.type(res.body.title, 'string');
  assert.type(res.body.detail, 'string');
  assert.match(res.body.type, /^https:\/\/pix\.bcb\.gov\.br\/api\/v2\/error\/[A-Za-z]+$/);
  if (type) assert.is(res.body.type, `https://pix.bcb.gov.br/api/v2/error/${type}`);
}

test('malformed JSON: 400 in each format', async () => {
  const platform = await server.client.request('POST', '/api/v1/application', {
    raw: '{"accountId": ',
    headers: { 'content-type': 'application/json' },
    auth: acme.appID,
  });
  isPlatformError(platform, 400);
  const pix = await server.client.request('PUT', '/pix/v2/cob/abcdefghijklmnopqrstuvwxyz123', {
    raw: '{nope',
    headers: { 'content-type': 'application/json' },
    auth: bearer,
  });
  isProblem(pix, 400);
});

test('wrong content type: 415 in each format', async () => {
  const platform = await server.client.request('POST', '/api/v1/application', {
    raw: 'accountId=1',
    headers: { 'content-type': 'text/plain' },
    auth: acme.appID,
  });
  isPlatformError(platform, 415);
  const pix = await server.client.request('PUT', '/pix/v2/cob/abcdefghijklmnopqrstuvwxyz123', {
    raw: 'x',
    headers: { 'content-type': 'text/plain' },
    auth: bearer,
  });
  isProblem(pix, 415);
});

test('unknown fields where the schema forbids them: 400 naming the field', async () => {
  const res = await server.client.post(
    '/api/v1/application',
    { accountId: acme.accountId, application: { name: 'x', type: 'API' }, surprise: 1 },
    { auth: acme.appID },
  );
  isPlatformError(res, 400);
  assert.ok(
    res.body.details.some((d: { field: string }) => d.field.includes('surprise')),
    res.text,
  );
});

test('oversize bodies: 413', async () => {
  const big = JSON.stringify({ accountId: 'x'.repeat(2 * 1024 * 1024) });
  const res = await server.client.request('POST', '/api/v1/application', {
    raw: big,
    headers: { 'content-type': 'application/json' },
    auth: acme.appID,
  });
  isPlatformError(res, 413);
});

test('unknown paths: 404 in the format of the API prefix', async () => {
  isPlatformError(await server.client.get('/api/v1/nothing-here', { auth: acme.appID }), 404);
  isProblem(await server.client.get('/pix/v2/nothing-here', { auth: bearer }), 404);
  const other = await server.client.get('/elsewhere');
  assert.is(other.status, 404);
});

test('a known path with another method: 405 with Allow', async () => {
  const res = await server.client.request('PUT', '/api/v1/application', { body: {}, auth: acme.appID });
  isPlatformError(res, 405);
  assert.match(res.headers.get('allow') ?? '', /POST/);
  isProblem(await server.client.request('DELETE', '/pix/v2/cob', { auth: bearer }), 405);
});

test('Pix validation errors carry violacoes with razao and propriedade', async () => {
  const res = await server.client.put(
    '/pix/v2/cob/short',
    { calendario: { expiracao: 3600 }, valor: { original: '1.5' }, chave: 'x' },
    { auth: bearer },
  );
  isProblem(res, 400);
  assert.ok(Array.isArray(res.body.violacoes) && res.body.violacoes.length > 0, res.text);
  for (const v of res.body.violacoes) {
    assert.type(v.razao, 'string');
    assert.type(v.propriedade, 'string');
  }
});

test('an enum error names the accepted values, in both APIs', async () => {
  const platform = await server.client.get('/api/v1/charge?status=PAID', { auth: acme.appID });
  isPlatformError(platform, 400);
  assert.equal(platform.body.details, [
    { field: 'query.status', message: 'must be one of ACTIVE, COMPLETED, EXPIRED' },
  ]);
  const saque = {
    valor: '200.00',
    modalidadeAlteracao: 0,
    modalidadeAgente: 'AGXXX',
    prestadorDoServicoDeSaque: '12345678',
  };
  const pix = await server.client.put(
    '/pix/v2/cob/enumErrorTxid000000000000000001',
    { calendario: { expiracao: 1800 }, valor: { original: '0.00', retirada: { saque } }, chave: acme.pixKey },
    { auth: bearer },
  );
  isProblem(pix, 400);
  assert.equal(pix.body.violacoes[0], {
    razao: 'must be one of AGTEC, AGTOT, AGPSS',
    propriedade: 'body.valor.retirada.saque.modalidadeAgente',
    valor: 'AGXXX',
  });
});

test('health and reference pages', async () => {
  const health = await server.client.get('/healthz');
  assert.is(health.status, 200);
  assert.is(health.body.status, 'ok');
  const docs = await server.client.get('/docs');
  assert.is(docs.status, 200);
  assert.match(docs.text, /swagger-ui/);
  const spec = await server.client.get('/docs/specs/pix.yaml');
  assert.is(spec.status, 200);
  assert.match(spec.text, /openapi: 3/);
});

test('bad percent-encoding in a path: 400 in each format', async () => {
  isPlatformError(await server.client.get('/api/v1/charge/%ff', { auth: acme.appID }), 400);
  isProblem(await server.client.get('/pix/v2/cob/%ff%fe', { auth: bearer }), 400);
});

test('values the database cannot hold (NUL, out of range): 400, and nothing half-written', async () => {
  const nul = await server.client.post(
    '/api/v1/customer',
    { name: 'Ana\u0000Souza', email: 'ana@example.com' },
    { auth: acme.appID },
  );
  isPlatformError(nul, 400);
  const list = await server.client.get('/api/v1/customer', { auth: acme.appID });
  assert.is(list.status, 200);
  assert.not.ok(JSON.stringify(list.body).includes('Souza'), 'no customer was stored');
  isPlatformError(await server.client.get('/api/v1/charge?skip=99999999999999999999', { auth: acme.appID }), 400);
  const cob = await server.client.put(
    '/pix/v2/cob/abcdefghijklmnopqrstuvwxyz123',
    {
      calendario: { expiracao: 3600 },
      valor: { original: '1.00' },
      chave: acme.pixKey,
      solicitacaoPagador: 'a\u0000b',
    },
    { auth: bearer },
  );
  isProblem(cob, 400);
});

test('numbers past what is stored or computed: 400 naming the range, never a 500 (found by fuzzing)', async () => {
  // int32 of the standard (calendario.expiracao), enforced, not only named.
  const cob = await server.client.put(
    '/pix/v2/cob/abcdefghijklmnopqrstuvwxyz124',
    { calendario: { expiracao: 2 ** 53 - 1 }, valor: { original: '1.00' }, chave: acme.pixKey },
    { auth: bearer },
  );
  isProblem(cob, 400, 'CobOperacaoInvalida');
  assert.equal(cob.body.violacoes[0], {
    razao: 'must be an integer from -2147483648 to 2147483647',
    propriedade: 'body.calendario.expiracao',
    valor: String(2 ** 53 - 1),
  });
  assert.is(
    (await server.client.get('/pix/v2/cob/abcdefghijklmnopqrstuvwxyz124?revisao=2147483648', { auth: bearer })).status,
    400,
  );
  // A due-date charge payable past 9999-12-31 cannot be dated.
  const cobv = await server.client.put(
    '/pix/v2/cobv/abcdefghijklmnopqrstuvwxyz125',
    {
      calendario: { dataDeVencimento: '2027-01-01', validadeAposVencimento: 2_147_483_647 },
      devedor: { cpf: '12345678909', nome: 'Ana' },
      valor: { original: '1.00' },
      chave: acme.pixKey,
    },
    { auth: bearer },
  );
  isProblem(cobv, 400, 'CobVOperacaoInvalida');
  assert.ok(
    cobv.body.violacoes.some(
      (v: any) => v.propriedade === 'calendario.validadeAposVencimento' && /9999-12-31/.test(v.razao),
    ),
    cobv.text,
  );
  // Platform amounts stop at the largest one the Pix standard writes (9999999999.99).
  const payment = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 2 ** 63,
      destinationAlias: 'ana@example.com',
      destinationAliasType: 'EMAIL',
      correlationID: 'too-big',
    },
    { auth: acme.appID },
  );
  isPlatformError(payment, 400);
  assert.equal(payment.body.details, [{ field: 'body.value', message: 'must be <= 999999999999' }]);
  assert.is(
    (await server.client.get('/api/v1/payment/too-big', { auth: acme.appID })).status,
    404,
    'nothing was stored',
  );
});

test('every answer carries a request id', async () => {
  const res = await server.client.get('/healthz', { headers: { 'x-request-id': 'abc-123' } });
  assert.is(res.headers.get('x-request-id'), 'abc-123');
});

test.run();
