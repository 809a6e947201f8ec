// An integer field takes integer text only: a money value written with a fraction or an
// exponent (100.0, 1e2, 100.000000000000001, which JSON.parse reads as 100), or beyond
// 2^53 - 1 (99999999999999999999), is refused with a validation error naming the field, not
// rounded. Fields typed as number (payment metadata) take any number.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inexactIntegerErrors, withoutRounded } from '../../src/http/exact-integers';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let company: TestCompany;

test.before(async () => {
  server = await startTestServer();
  company = await createCompany(server.client);
});
test.after(async () => server.close());

const post = (path: string, raw: string, auth: string | undefined = company.appID) =>
  server.client.request('POST', path, {
    raw,
    headers: { 'content-type': 'application/json' },
    ...(auth ? { auth } : {}),
  });

const MESSAGE = 'must be an integer written with digits only (no fraction, no exponent)';

test('a charge value that is not integer text is refused, naming the field; nothing is created', async () => {
  const refusals: Array<[string, string]> = [
    ['100.000000000000001', MESSAGE],
    ['99999999999.99999999', MESSAGE],
    ['100.0', MESSAGE],
    ['1e2', MESSAGE],
    ['1E+2', MESSAGE],
    ['-0.0', MESSAGE],
    // beyond 2^53 - 1: the field's own maximum says why
    ['9007199254740993', 'must be <= 999999999999'],
    ['99999999999999999999', 'must be <= 999999999999'],
  ];
  for (const [value, message] of refusals) {
    const res = await post('/api/v1/charge', `{"correlationID":"inexato-${value}","value":${value}}`);
    assert.is(res.status, 400, `${value}: ${res.text}`);
    assert.equal(res.body, { error: 'Validation error', details: [{ field: 'body.value', message }] }, value);
  }
  const made = await server.database.db
    .selectFrom('charges')
    .select('correlation_id')
    .where('company_id', '=', company.companyId)
    .where('correlation_id', 'like', 'inexato-%')
    .execute();
  assert.equal(made, []);
  const exact = await post('/api/v1/charge', '{"correlationID":"exato","value":100}');
  assert.equal([exact.status, exact.body.charge?.value], [200, 100], exact.text);
});

test('an integer field without a maximum refuses what is beyond 2^53 - 1 itself', () => {
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer' }, list: { type: 'array', items: { type: 'integer' } } },
  };
  const errors = withoutRounded(inexactIntegerErrors('{"n": 9007199254740993, "list": [1, 2.5]}', schema));
  assert.equal(
    errors.map((e) => [e.instancePath, e.message]),
    [
      ['/requestBody/n', 'must be an integer from -9007199254740991 to 9007199254740991'],
      ['/requestBody/list/1', MESSAGE],
    ],
  );
});

test('a payment (a oneOf body) names the field too; metadata numbers stay free', async () => {
  const res = await post(
    '/api/v1/payment',
    '{"type":"PIX_KEY","value":700.5e0,"destinationAlias":"fornecedor@tecidosbrasil.com.br","destinationAliasType":"EMAIL","correlationID":"p-1"}',
  );
  assert.is(res.status, 400, res.text);
  assert.equal(res.body.details, [{ field: 'body.value', message: MESSAGE }]);
  const free = await post(
    '/api/v1/payment',
    '{"type":"PIX_KEY","value":700,"destinationAlias":"fornecedor@tecidosbrasil.com.br","destinationAliasType":"EMAIL","correlationID":"p-2","metadata":{"rate":1.5,"round":100.0}}',
  );
  assert.is(free.status, 200, free.text);
  assert.equal(free.body.payment.metadata, { rate: 1.5, round: 100 });
});

test('credentials come first: an unauthenticated request with an inexact value is a 401', async () => {
  const res = await post('/api/v1/charge', '{"correlationID":"sem-credencial","value":1.0}', '');
  assert.is(res.status, 401, res.text);
});

test('a field that is not money but an integer is held to the same rule; strings keep their dots', async () => {
  const res = await post(
    '/api/v1/charge',
    '{"correlationID":"expira","value":100,"expiresIn":3600.0,"comment":"R$ 1.00"}',
  );
  assert.is(res.status, 400, res.text);
  assert.equal(res.body.details, [{ field: 'body.expiresIn', message: MESSAGE }]);
  const ok = await post(
    '/api/v1/charge',
    '{"correlationID":"expira","value":100,"expiresIn":3600,"comment":"R$ 1.00"}',
  );
  assert.is(ok.status, 200, ok.text);
});

test.run();
