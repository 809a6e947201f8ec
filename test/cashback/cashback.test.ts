// Exclusive (fidelity) cashback: get-or-create (one pending per customer), balance, and the
// move to USED when the customer pays the company.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { auditLedger } from '../support/ledger-auditor';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
const CPF = '52998224725';

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Loja Aurora' });
  b = await createCompany(server.client, { name: 'Loja Boreal' });
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const create = (company: TestCompany, body: Record<string, unknown>) =>
  server.client.post('/api/v1/cashback-fidelity', body, { auth: company.appID });
const balance = (company: TestCompany, taxID: string) =>
  server.client.get(`/api/v1/cashback-fidelity/balance/${taxID}`, { auth: company.appID });

test('a customer without cashback has balance 0 and status NONE', async () => {
  assert.equal(await balance(a, CPF).then((r) => [r.status, r.body]), [200, { balance: 0, status: 'NONE' }]);
});

test('creates a pending cashback; a second call returns it instead of creating another', async () => {
  const first = await create(a, { taxID: '529.982.247-25', value: 1_250 });
  assert.is(first.status, 201, first.text);
  assert.equal(
    { ...first.body, cashback: { ...first.body.cashback, createdAt: 't' } },
    {
      cashback: { value: 1_250, status: 'PENDING', taxID: CPF, createdAt: 't' },
      message: 'Exclusive cashback created',
    },
  );
  const second = await create(a, { taxID: CPF, value: 800 });
  assert.equal(
    [second.status, second.body],
    [200, { cashback: first.body.cashback, message: 'Customer already has a pending exclusive cashback' }],
  );
  assert.equal((await balance(a, CPF)).body, { balance: 1_250, status: 'PENDING' });
  // Another company's customer is another customer.
  assert.equal((await balance(b, CPF)).body, { balance: 0, status: 'NONE' });
  assert.is((await create(b, { taxID: CPF, value: 300 })).status, 201);
  assert.equal((await balance(b, CPF)).body, { balance: 300, status: 'PENDING' });
});

test('the next Pix from the customer uses it; then a new one can be created', async () => {
  // A Pix from someone else does not.
  await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: a.pixKey,
    value: 5_000,
    payer: { name: 'Joao Pedro Martins', taxID: '26801573110' },
  });
  assert.equal((await balance(a, CPF)).body, { balance: 1_250, status: 'PENDING' });
  const paid = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: a.pixKey,
    value: 9_990,
    payer: { name: 'Mariana Alves Costa', taxID: CPF },
  });
  assert.is(paid.status, 200, paid.text);
  assert.equal((await balance(a, CPF)).body, { balance: 0, status: 'USED' });
  const used = await server.database.db
    .selectFrom('cashbacks')
    .select(['status', 'used_transaction_id'])
    .where('company_id', '=', a.companyId)
    .where('tax_id', '=', CPF)
    .executeTakeFirstOrThrow();
  const tx = await server.database.db
    .selectFrom('transactions')
    .select('id')
    .where('end_to_end_id', '=', paid.body.endToEndId)
    .executeTakeFirstOrThrow();
  assert.equal(used, { status: 'USED', used_transaction_id: tx.id });
  const again = await create(a, { taxID: CPF, value: 700 });
  assert.equal(
    [again.status, again.body.message, again.body.cashback.value, again.body.cashback.status],
    [201, 'Exclusive cashback created', 700, 'PENDING'],
  );
  assert.equal((await balance(a, CPF)).body, { balance: 700, status: 'PENDING' });
  // b's cashback is untouched by a Pix to a.
  assert.equal((await balance(b, CPF)).body, { balance: 300, status: 'PENDING' });
});

test('CNPJ customers; invalid tax ids and values are 400', async () => {
  assert.is((await create(a, { taxID: '11.222.333/0001-81', value: 50 })).status, 201);
  assert.equal((await balance(a, '11222333000181')).body, { balance: 50, status: 'PENDING' });
  assert.equal(await balance(a, '52998224724').then((r) => [r.status, r.body.error]), [400, 'Invalid taxID']);
  assert.equal(await balance(a, '123').then((r) => r.status), 400);
  assert.equal(await create(a, { taxID: '11111111111', value: 10 }).then((r) => [r.status, r.body.error]), [
    400,
    'Invalid taxID',
  ]);
  assert.is((await create(a, { taxID: CPF, value: 0 })).status, 400);
  assert.is((await create(a, { taxID: CPF, value: 10.5 })).status, 400);
  assert.is((await create(a, { taxID: CPF })).status, 400);
});

test('concurrent creates for one customer make one cashback', async () => {
  const results = await Promise.all([1, 2, 3, 4].map((i) => create(a, { taxID: '39053344705', value: 100 * i })));
  assert.equal(results.map((r) => r.status).sort(), [200, 200, 200, 201]);
  const values = new Set(results.map((r) => r.body.cashback.value));
  assert.is(values.size, 1);
});

test.run();
