// Customers: create, read by correlationID or tax id, list, update, validation, tenancy,
// URI-encoded correlationIDs, and the find-or-create used by charges.
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { upsertChargeCustomer } from '../../src/customers/customers.service';
import { DomainError } from '../../src/errors/errors';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;
let other: TestCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client);
  other = await createCompany(server.client);
});
test.after(async () => server.close());

const post = (body: unknown, company = acme) => server.client.post('/api/v1/customer', body, { auth: company.appID });
const get = (id: string, company = acme) =>
  server.client.get(`/api/v1/customer/${encodeURIComponent(id)}`, { auth: company.appID });
const patch = (id: string, body: unknown, company = acme) =>
  server.client.patch(`/api/v1/customer/${encodeURIComponent(id)}`, body, { auth: company.appID });

const mariana = {
  name: 'Mariana Alves Costa',
  email: 'mariana.costa@email.com.br',
  phone: '+5511987654321',
  taxID: { taxID: '52998224725', type: 'BR:CPF' },
  correlationID: 'cliente-52998224725',
  address: {
    zipcode: '01310100',
    street: 'Avenida Paulista',
    number: '1578',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    complement: 'Apto 82',
    country: 'BR',
  },
};

test('create answers the customer; it is found by correlationID and by tax id (bare or masked)', async () => {
  const res = await post({
    ...mariana,
    taxID: '529.982.247-25',
    address: { ...mariana.address, zipcode: '01310-100', state: 'sp', country: undefined },
  });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { customer: mariana });
  for (const id of ['cliente-52998224725', '52998224725', '529.982.247-25']) {
    const found = await get(id);
    assert.is(found.status, 200, `${id}: ${found.text}`);
    assert.equal(found.body, { customer: mariana });
  }
});

test('without correlationID one is generated; without address none is shown', async () => {
  const res = await post({ name: '  Rafael Souza Lima ', taxID: '39053344705' });
  assert.is(res.status, 200, res.text);
  const { correlationID, ...rest } = res.body.customer;
  assert.equal(rest, { name: 'Rafael Souza Lima', taxID: { taxID: '39053344705', type: 'BR:CPF' } });
  assert.match(correlationID, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal((await get(correlationID)).body.customer, res.body.customer);
});

test('CNPJ, numeric and alphanumeric (masked, any case), are accepted and typed BR:CNPJ', async () => {
  const numeric = await post({ name: 'Aurora Moda Ltda', taxID: '11.222.333/0001-81', correlationID: 'aurora' });
  assert.is(numeric.status, 200, numeric.text);
  assert.equal(numeric.body.customer.taxID, { taxID: '11222333000181', type: 'BR:CNPJ' });
  const alnum = await post({ name: 'Nova Era SA', taxID: '12.abc.345/01de-35', correlationID: 'nova-era' });
  assert.is(alnum.status, 200, alnum.text);
  assert.equal(alnum.body.customer.taxID, { taxID: '12ABC34501DE35', type: 'BR:CNPJ' });
  assert.is((await get('12ABC34501DE35')).body.customer.correlationID, 'nova-era');
});

test('invalid tax id, e-mail, phone and address: 400 naming the field', async () => {
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ taxID: '52998224724' }, 'Invalid taxID', 'body.taxID'],
    [{ taxID: '11222333000180' }, 'Invalid taxID', 'body.taxID'],
    [{ taxID: '11111111111' }, 'Invalid taxID', 'body.taxID'],
    [{ taxID: '12ABC34501DE36' }, 'Invalid taxID', 'body.taxID'],
    [{ phone: '+12025550123' }, 'Invalid phone', 'body.phone'],
    [{ phone: '5505987654321' }, 'Invalid phone', 'body.phone'],
    [{ address: { zipcode: '0131010' } }, 'Invalid address', 'body.address.zipcode'],
    [{ address: { state: 'XX' } }, 'Invalid address', 'body.address.state'],
    [{ name: '   ' }, 'Invalid name', 'body.name'],
  ];
  for (const [change, error, field] of cases) {
    const res = await post({ name: 'Teste', taxID: '52998224725', correlationID: 'never-created', ...change });
    assert.is(res.status, 400, `${JSON.stringify(change)}: ${res.text}`);
    assert.is(res.body.error, error, res.text);
    assert.equal(
      res.body.details.map((d: { field: string }) => d.field),
      [field],
      res.text,
    );
  }
  // Refused by the contract before the service: wrong shapes, missing name or taxID.
  for (const [body, field] of [
    [{ name: 'x', taxID: '123' }, 'body.taxID'],
    [{ taxID: '52998224725' }, 'body.name'],
    [{ name: 'x' }, 'body.taxID'],
    [{ name: 'x', taxID: '52998224725', phone: 'abc' }, 'body.phone'],
    [{ name: 'x', taxID: '52998224725', email: 'mariana@localhost' }, 'body.email'],
    [{ name: 'x', taxID: '52998224725', nickname: 'm' }, 'body.nickname'],
  ] as const) {
    const res = await post(body);
    assert.is(res.status, 400, res.text);
    assert.equal(
      res.body.details.map((d: { field: string }) => d.field),
      [field],
      res.text,
    );
  }
  assert.is((await get('never-created')).status, 404);
});

test('a duplicate correlationID or tax id is a 400 saying so', async () => {
  const dupCorrelation = await post({ name: 'Outra', taxID: '11144477735', correlationID: 'cliente-52998224725' });
  assert.is(dupCorrelation.status, 400);
  assert.equal(dupCorrelation.body, {
    error: 'Customer with this correlationID already exists',
    details: [{ field: 'body.correlationID', message: 'is already used by another customer' }],
  });
  const dupTaxId = await post({ name: 'Outra', taxID: '52998224725', correlationID: 'outra' });
  assert.is(dupTaxId.status, 400);
  assert.equal(dupTaxId.body, {
    error: 'Customer with this taxID already exists',
    details: [{ field: 'body.taxID', message: 'is already used by another customer' }],
  });
});

test('correlationIDs with %, #, / and non-ASCII characters work URI-encoded in the path', async () => {
  for (const correlationID of ['pedido%20/2026#1', 'ação/çüñ 東京', '100%', '#', 'a/b/c']) {
    const created = await post({
      name: 'Especial',
      correlationID,
      email: `x${Buffer.from(correlationID).toString('hex')}@example.com`,
      taxID: cpfFor(correlationID),
    });
    assert.is(created.status, 200, `${correlationID}: ${created.text}`);
    const found = await get(correlationID);
    assert.is(found.status, 200, `${correlationID}: ${found.text}`);
    assert.is(found.body.customer.correlationID, correlationID);
    const updated = await patch(correlationID, { name: 'Especial Atualizado' });
    assert.is(updated.status, 200, `${correlationID}: ${updated.text}`);
    assert.is(updated.body.customer.name, 'Especial Atualizado');
    assert.is(updated.body.customer.correlationID, correlationID);
  }
});

test('update changes only what is sent; the address is merged; unknown is 404', async () => {
  const res = await patch('cliente-52998224725', {
    email: 'mariana.alves@empresa.com.br',
    phone: '5511976543210',
    address: { complement: 'Apto 91' },
  });
  assert.is(res.status, 200, res.text);
  const expected = {
    ...mariana,
    email: 'mariana.alves@empresa.com.br',
    phone: '+5511976543210',
    address: { ...mariana.address, complement: 'Apto 91' },
  };
  assert.equal(res.body, { customer: expected });
  assert.equal((await get('52998224725')).body, { customer: expected });

  const renamed = await patch('aurora', { name: 'Aurora Moda Comercio', taxID: '11444777000161' });
  assert.is(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.customer, {
    name: 'Aurora Moda Comercio',
    taxID: { taxID: '11444777000161', type: 'BR:CNPJ' },
    correlationID: 'aurora',
  });
  assert.is((await get('11222333000181')).status, 404);

  const taken = await patch('aurora', { taxID: '52998224725' });
  assert.is(taken.status, 400);
  assert.is(taken.body.error, 'Customer with this taxID already exists');
  const invalid = await patch('aurora', { phone: '+5500987654321' });
  assert.is(invalid.status, 400);
  assert.equal(
    invalid.body.details.map((d: { field: string }) => d.field),
    ['body.phone'],
  );
  const empty = await patch('aurora', {});
  assert.is(empty.status, 400);
  const missing = await patch('no-such-customer', { name: 'x' });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { error: 'Customer not found' });
});

test('list: newest first, skip/limit and pageInfo', async () => {
  const all = await server.client.get('/api/v1/customer?limit=100', { auth: acme.appID });
  assert.is(all.status, 200, all.text);
  const total = all.body.pageInfo.totalCount;
  assert.is(all.body.customers.length, total);
  assert.ok(total >= 9, String(total));
  assert.is(all.body.customers[total - 1].correlationID, 'cliente-52998224725');
  const page = await server.client.get('/api/v1/customer?skip=1&limit=2', { auth: acme.appID });
  assert.is(page.status, 200, page.text);
  assert.equal(page.body.customers, all.body.customers.slice(1, 3));
  assert.equal(page.body.pageInfo, { skip: 1, limit: 2, totalCount: total, hasPreviousPage: true, hasNextPage: true });
});

test('another company never sees, updates or collides with these customers', async () => {
  assert.equal((await get('cliente-52998224725', other)).body, { error: 'Customer not found' });
  assert.is((await get('cliente-52998224725', other)).status, 404);
  assert.is((await get('52998224725', other)).status, 404);
  assert.is((await patch('cliente-52998224725', { name: 'x' }, other)).status, 404);
  const list = await server.client.get('/api/v1/customer', { auth: other.appID });
  assert.equal(list.body.customers, []);
  assert.is(list.body.pageInfo.totalCount, 0);
  // The same correlationID and tax id are free in another company.
  const res = await post(
    { name: 'Mariana de Outra Empresa', taxID: '52998224725', correlationID: 'cliente-52998224725' },
    other,
  );
  assert.is(res.status, 200, res.text);
  assert.is((await get('cliente-52998224725')).body.customer.name, 'Mariana Alves Costa');
});

test('upsertChargeCustomer: finds by taxID, email or phone, fills what is missing, or creates', async () => {
  const db = server.database.db;
  const upsert = (input: Parameters<typeof upsertChargeCustomer>[2], companyId = acme.companyId) =>
    db.transaction().execute((trx) => upsertChargeCustomer(trx, companyId, input, new Date()));

  // By tax id: the existing customer, with its own fields kept (not overwritten).
  const byTaxId = await upsert({ name: 'M. Costa', taxID: '52998224725', email: 'other@example.com' });
  assert.is(byTaxId.view.correlationID, 'cliente-52998224725');
  assert.is(byTaxId.view.name, 'Mariana Alves Costa');
  assert.is(byTaxId.view.email, 'mariana.alves@empresa.com.br');
  assert.equal((await upsert({ name: 'x', taxID: '529.982.247-25' })).id, byTaxId.id);

  // name+email creates; then name+phone+email finds it by e-mail (any case) and fills the phone.
  const created = await upsert({ name: 'Joana Dias', email: 'joana.dias@example.com', correlationID: 'joana' });
  assert.equal(created.view, { name: 'Joana Dias', email: 'joana.dias@example.com', correlationID: 'joana' });
  const byEmail = await upsert({ name: 'Joana', email: 'JOANA.DIAS@example.com', phone: '+5521998765432' });
  assert.is(byEmail.id, created.id);
  assert.equal(byEmail.view, {
    name: 'Joana Dias',
    email: 'joana.dias@example.com',
    phone: '+5521998765432',
    correlationID: 'joana',
  });
  // By phone, filling the tax id and the address.
  const byPhone = await upsert({
    name: 'Joana',
    phone: '+5521998765432',
    taxID: '11144477735',
    address: { zipcode: '20040-020', city: 'Rio de Janeiro', state: 'RJ' },
  });
  assert.is(byPhone.id, created.id);
  assert.equal(byPhone.view.taxID, { taxID: '11144477735', type: 'BR:CPF' });
  assert.equal(byPhone.view.address, { zipcode: '20040020', city: 'Rio de Janeiro', state: 'RJ', country: 'BR' });
  assert.equal((await get('11144477735')).body.customer, byPhone.view);

  // An e-mail match with a different tax id is another person: a new customer.
  const someoneElse = await upsert({ name: 'Joana Homonima', email: 'joana.dias@example.com', taxID: '86288366757' });
  assert.is.not(someoneElse.id, created.id);
  assert.is(someoneElse.view.name, 'Joana Homonima');

  // Shapes and fields are checked, naming customer.<field> (the platform renders body.customer.<field>).
  for (const [input, field] of [
    [{ name: 'Sem contato' }, 'customer'],
    [{ name: 'x', taxID: '12345678900' }, 'customer.taxID'],
    [{ name: 'x', email: 'nope' }, 'customer.email'],
    [{ name: ' ', phone: '+5511987654321' }, 'customer.name'],
  ] as const) {
    const error = await upsert(input).catch((e: unknown) => e);
    assert.instance(error, DomainError);
    assert.is((error as DomainError).status, 400);
    assert.equal(
      (error as DomainError).options.details?.map((d) => d.field),
      [field],
    );
  }
  // A correlationID used by someone else (with another tax id) cannot be taken.
  const clash = await upsert({ name: 'x', taxID: '87748248800', correlationID: 'aurora' }).catch((e: unknown) => e);
  assert.is((clash as DomainError).message, 'Customer with this correlationID already exists');
  // Scoped to the company.
  const elsewhere = await upsert({ name: 'Joana Dias', email: 'joana.dias@example.com' }, other.companyId);
  assert.is.not(elsewhere.id, created.id);
});

postgresOnly('concurrent creates and charge upserts of one customer: one row, no 500 (Postgres)', async () => {
  const racer = await createCompany(server.client);
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      post({ name: `Corrida ${i}`, taxID: '52998224725', correlationID: `corrida-${i % 2}` }, racer),
    ),
  );
  assert.equal(answers.map((r) => r.status).sort(), [200, 400, 400, 400, 400, 400, 400, 400]);
  for (const r of answers.filter((r) => r.status === 400))
    assert.match(r.body.error, /^Customer with this (correlationID|taxID) already exists$/);

  const db = server.database.db;
  const upserts = await Promise.all(
    Array.from({ length: 8 }, () =>
      db.transaction().execute((trx) =>
        upsertChargeCustomer(
          trx,
          racer.companyId,
          {
            name: 'Paralelo',
            taxID: '39053344705',
            email: 'paralelo@example.com',
          },
          new Date(),
        ),
      ),
    ),
  );
  assert.is(new Set(upserts.map((u) => u.id)).size, 1);
  const listed = await server.client.get('/api/v1/customer?limit=100', { auth: racer.appID });
  assert.is(listed.body.pageInfo.totalCount, 2);
});

// A valid CPF derived from a string (distinct per string).
function cpfFor(seed: string): string {
  let n = 0;
  for (const ch of seed) n = (n * 31 + ch.codePointAt(0)!) % 1_000_000_000;
  const base = String(n).padStart(9, '0');
  const digit = (s: string) => {
    const sum = [...s].reduce((acc, c, i) => acc + Number(c) * (s.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = digit(base);
  return base + d1 + digit(base + d1);
}

test.run();
