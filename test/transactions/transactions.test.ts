// The transaction list: rows written by the money areas (insertTransaction), shown in the
// spec's Transaction shape, filtered by time and type, paged, read by id or endToEndId, and
// never across companies.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { insertTransaction, type TransactionType } from '../../src/transactions/transactions.repository';
import { OWN_ISPB, OWN_PSP_NAME } from '../../src/lib/psp';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;
let other: TestCompany;
let ownParty: Record<string, unknown>;
const ids: Record<string, string> = {};

const E2E_IN = 'E18236120202603151441k7Ht2QwN9xZ';
const E2E_WITHDRAW = 'E99999999202603161005Wd4Lm8Rq2Tp';
const E2E_OTHER = 'E60701190202603181200OtHeRcOmPaN';

async function insert(
  company: TestCompany,
  name: string,
  type: TransactionType,
  value: number,
  at: string,
  endToEndId: string | null,
  details: Record<string, unknown> = {},
) {
  const row = await server.database.db.transaction().execute((trx) =>
    insertTransaction(trx, {
      company_id: company.companyId,
      account_id: company.accountId,
      type,
      value,
      end_to_end_id: endToEndId,
      charge_id: null,
      payment_id: null,
      details,
      created_at: new Date(at),
    }),
  );
  ids[name] = row.id;
}

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client, { name: 'Aurora Moda' });
  other = await createCompany(server.client);
  const company = (await server.client.get('/api/v1/company', { auth: acme.appID })).body.company;
  const account = (await server.client.get(`/api/v1/account/${acme.accountId}`, { auth: acme.appID })).body.account;
  ownParty = {
    account: { branch: account.branch, account: account.account, accountType: 'TRAN' },
    psp: { id: OWN_ISPB, name: OWN_PSP_NAME },
    holder: {
      name: company.officialName,
      nameFriendly: company.tradeName,
      taxID: { taxID: company.taxID, type: 'BR:CNPJ' },
    },
  };

  await insert(acme, 'payment', 'PIX_IN', 15990, '2026-03-15T14:41:53.088Z', E2E_IN, {
    txid: '9d4e2c7a1b3f4e8d9c0a6b5e4d3c2b1a',
    infoPagador: 'Pedido 184',
    charge: {
      status: 'COMPLETED',
      value: 15990,
      correlationID: 'pedido-2026-000184',
      transactionID: '9d4e2c7a1b3f4e8d9c0a6b5e4d3c2b1a',
      createdAt: '2026-03-15T14:32:07.412Z',
    },
    customer: {
      name: 'Mariana Alves Costa',
      email: 'mariana.costa@email.com.br',
      phone: '+5511987654321',
      taxID: { taxID: '52998224725', type: 'BR:CPF' },
      correlationID: 'cliente-52998224725',
    },
    payer: {
      name: 'Mariana Alves Costa',
      taxId: '52998224725',
      ispb: '18236120',
      bank: 'NU PAGAMENTOS - IP',
      branch: '0001',
      account: '8826451-3',
      accountType: 'TRAN',
    },
  });
  await insert(acme, 'fee', 'FEE', 80, '2026-03-15T14:41:53.089Z', E2E_IN, { comment: 'Tarifa de recebimento' });
  await insert(acme, 'withdraw', 'WITHDRAW', 500000, '2026-03-16T10:05:12.000Z', E2E_WITHDRAW, {
    destination: {
      name: 'Aurora Moda Comercio de Roupas Ltda',
      taxID: '11222333000181',
      ispb: '60701190',
      bank: 'ITAÚ UNIBANCO S.A.',
      branch: '1234',
      account: '56789-0',
      accountType: 'CACC',
    },
  });
  await insert(acme, 'pixOut', 'PIX_OUT', 2000, '2026-03-20T09:00:00.000Z', 'E99999999202603200900PaGaMeNtO01', {
    comment: 'Nota 77',
    destination: {
      name: 'Fornecedor Ltda',
      taxID: '11.444.777/0001-61',
      pixKey: 'fornecedor@example.com',
      pixKeyType: 'EMAIL',
      ispb: '60701190',
    },
  });
  await insert(acme, 'refundOut', 'REFUND_OUT', 500, '2026-03-21T09:00:00.000Z', 'D99999999202603210900DeVoLuCaO1', {
    destination: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  await insert(acme, 'refundIn', 'REFUND_IN', 700, '2026-03-22T09:00:00.000Z', 'D60701190202603220900DeVoLvIdO1', {
    payer: { name: 'Fornecedor Ltda', taxID: '11444777000161' },
  });
  // Details of the wrong types are left out, never a broken answer.
  await insert(acme, 'junk', 'PIX_IN', 1, '2026-03-23T09:00:00.000Z', 'E60701190202603230900JuNkJuNk01', {
    payer: 'someone',
    charge: { status: 'PAID', value: '12', correlationID: 7, createdAt: 'yesterday' },
    customer: { name: 3, taxID: '123' },
    pixQrCode: { name: 'Balcao', identifier: 'CAFEBALCAO01', extra: { deep: true } },
    debitParty: 5,
    creditParty: { holder: { name: 'Nome', taxID: 'x' }, psp: { id: 1 } },
    txid: '***',
  });
  await insert(other, 'otherIn', 'PIX_IN', 999, '2026-03-18T12:00:00.000Z', E2E_OTHER, {
    payer: { name: 'Alguem', taxID: '52998224725' },
  });
});
test.after(async () => server.close());

const list = (query = '', company = acme) => server.client.get(`/api/v1/transaction${query}`, { auth: company.appID });
const get = (id: string, company = acme) =>
  server.client.get(`/api/v1/transaction/${encodeURIComponent(id)}`, { auth: company.appID });

test('a received Pix with its charge, customer, payer and both parties', async () => {
  const res = await get(ids.payment!);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, {
    transaction: {
      value: 15990,
      time: '2026-03-15T14:41:53.088Z',
      endToEndId: E2E_IN,
      transactionID: '9d4e2c7a1b3f4e8d9c0a6b5e4d3c2b1a',
      infoPagador: 'Pedido 184',
      type: 'PAYMENT',
      globalID: ids.payment,
      charge: {
        status: 'COMPLETED',
        value: 15990,
        correlationID: 'pedido-2026-000184',
        transactionID: '9d4e2c7a1b3f4e8d9c0a6b5e4d3c2b1a',
        createdAt: '2026-03-15T14:32:07.412Z',
      },
      customer: {
        name: 'Mariana Alves Costa',
        email: 'mariana.costa@email.com.br',
        phone: '+5511987654321',
        taxID: { taxID: '52998224725', type: 'BR:CPF' },
        correlationID: 'cliente-52998224725',
      },
      payer: { name: 'Mariana Alves Costa', taxID: { taxID: '52998224725', type: 'BR:CPF' } },
      debitParty: {
        account: { branch: '0001', account: '8826451-3', accountType: 'TRAN' },
        psp: { id: '18236120', name: 'NU PAGAMENTOS - IP' },
        holder: { name: 'Mariana Alves Costa', taxID: { taxID: '52998224725', type: 'BR:CPF' } },
      },
      creditParty: ownParty,
    },
  });
  // By endToEndId: the movement, not the fee recorded under the same id.
  const byE2e = await get(E2E_IN);
  assert.equal(byE2e.body, res.body);
});

test("a withdrawal, a Pix sent, refunds and a fee, in the API's words", async () => {
  const withdraw = (await get(E2E_WITHDRAW)).body.transaction;
  assert.equal(withdraw, {
    value: 500000,
    time: '2026-03-16T10:05:12.000Z',
    endToEndId: E2E_WITHDRAW,
    type: 'WITHDRAW',
    globalID: ids.withdraw,
    withdraw: { value: 500000, time: '2026-03-16T10:05:12.000Z', endToEndId: E2E_WITHDRAW },
    debitParty: ownParty,
    creditParty: {
      account: { branch: '1234', account: '56789-0', accountType: 'CACC' },
      psp: { id: '60701190', name: 'ITAÚ UNIBANCO S.A.' },
      holder: { name: 'Aurora Moda Comercio de Roupas Ltda', taxID: { taxID: '11222333000181', type: 'BR:CNPJ' } },
    },
  });
  const pixOut = (await get(ids.pixOut!)).body.transaction;
  assert.equal(pixOut, {
    value: 2000,
    time: '2026-03-20T09:00:00.000Z',
    endToEndId: 'E99999999202603200900PaGaMeNtO01',
    infoPagador: 'Nota 77',
    type: 'PIX_OUT',
    globalID: ids.pixOut,
    debitParty: ownParty,
    creditParty: {
      pixKey: { pixKey: 'fornecedor@example.com', type: 'EMAIL' },
      psp: { id: '60701190' },
      holder: { name: 'Fornecedor Ltda', taxID: { taxID: '11444777000161', type: 'BR:CNPJ' } },
    },
  });
  assert.is((await get(ids.refundOut!)).body.transaction.type, 'REFUND');
  const refundIn = (await get(ids.refundIn!)).body.transaction;
  assert.is(refundIn.type, 'REVERSAL');
  assert.equal(refundIn.payer, { name: 'Fornecedor Ltda', taxID: { taxID: '11444777000161', type: 'BR:CNPJ' } });
  assert.equal(refundIn.creditParty, ownParty);
  const fee = (await get(ids.fee!)).body.transaction;
  assert.equal(fee, {
    value: 80,
    time: '2026-03-15T14:41:53.089Z',
    endToEndId: E2E_IN,
    infoPagador: 'Tarifa de recebimento',
    type: 'FEE',
    globalID: ids.fee,
    debitParty: ownParty,
  });
});

test('details of the wrong types are left out', async () => {
  const res = await get(ids.junk!);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.transaction, {
    value: 1,
    time: '2026-03-23T09:00:00.000Z',
    endToEndId: 'E60701190202603230900JuNkJuNk01',
    type: 'PAYMENT',
    globalID: ids.junk,
    pixQrCode: { name: 'Balcao', identifier: 'CAFEBALCAO01' },
    creditParty: { holder: { name: 'Nome' } },
  });
});

test('list: newest first, with pageInfo; skip and limit', async () => {
  const res = await list();
  assert.is(res.status, 200, res.text);
  assert.equal(
    res.body.transactions.map((t: { globalID: string }) => t.globalID),
    ['junk', 'refundIn', 'refundOut', 'pixOut', 'withdraw', 'fee', 'payment'].map((n) => ids[n]),
  );
  assert.equal(res.body.pageInfo, { skip: 0, limit: 20, totalCount: 7, hasPreviousPage: false, hasNextPage: false });
  assert.equal(res.body.transactions[6], (await get(ids.payment!)).body.transaction);
  const page = await list('?skip=2&limit=3');
  assert.equal(
    page.body.transactions.map((t: { globalID: string }) => t.globalID),
    ['refundOut', 'pixOut', 'withdraw'].map((n) => ids[n]),
  );
  assert.equal(page.body.pageInfo, { skip: 2, limit: 3, totalCount: 7, hasPreviousPage: true, hasNextPage: true });
});

test("filters: start inclusive, end exclusive, type in the API's words", async () => {
  const names = async (query: string) => {
    const res = await list(query);
    assert.is(res.status, 200, res.text);
    return res.body.transactions.map((t: { globalID: string }) => Object.keys(ids).find((k) => ids[k] === t.globalID));
  };
  assert.equal(await names('?start=2026-03-16T10:05:12Z'), ['junk', 'refundIn', 'refundOut', 'pixOut', 'withdraw']);
  assert.equal(await names('?end=2026-03-16T10:05:12Z'), ['fee', 'payment']);
  assert.equal(await names('?start=2026-03-16T00:00:00-03:00&end=2026-03-21T00:00:00Z'), ['pixOut', 'withdraw']);
  assert.equal(await names('?type=PAYMENT'), ['junk', 'payment']);
  assert.equal(await names('?type=PIX_OUT'), ['pixOut']);
  assert.equal(await names('?type=REFUND'), ['refundOut']);
  assert.equal(await names('?type=REVERSAL'), ['refundIn']);
  assert.equal(await names('?type=FEE'), ['fee']);
  assert.equal(await names('?type=WITHDRAW'), ['withdraw']);
  assert.equal(await names('?type=INTERNAL_TRANSFER'), []);
  assert.equal(await names('?type=PAYMENT&start=2026-03-20T00:00:00Z'), ['junk']);
  const counted = await list('?type=PAYMENT&limit=1');
  assert.equal(counted.body.pageInfo, { skip: 0, limit: 1, totalCount: 2, hasPreviousPage: false, hasNextPage: true });

  const backwards = await list('?start=2026-03-20T00:00:00Z&end=2026-03-19T00:00:00Z');
  assert.is(backwards.status, 400);
  assert.equal(backwards.body, {
    error: 'Invalid end',
    details: [{ field: 'query.end', message: 'is earlier than start' }],
  });
  for (const query of ['?start=yesterday', '?type=PIX_IN', '?limit=0', '?limit=101', '?skip=-1']) {
    const res = await list(query);
    assert.is(res.status, 400, `${query}: ${res.text}`);
  }
});

test("a company never sees another company's transactions, by list, id or endToEndId", async () => {
  for (const id of [ids.otherIn!, E2E_OTHER, 'no-such-transaction']) {
    const res = await get(id);
    assert.is(res.status, 404, `${id}: ${res.text}`);
    assert.equal(res.body, { error: 'Transaction not found' });
  }
  assert.not.ok(
    (await list('?limit=100')).body.transactions.some((t: { globalID: string }) => t.globalID === ids.otherIn),
  );
  const theirs = await list('', other);
  assert.equal(
    theirs.body.transactions.map((t: { globalID: string }) => t.globalID),
    [ids.otherIn],
  );
  assert.is(theirs.body.pageInfo.totalCount, 1);
  for (const id of [ids.payment!, E2E_IN]) assert.is((await get(id, other)).status, 404);
  assert.is((await get(E2E_OTHER, other)).body.transaction.globalID, ids.otherIn);
});

test('end to end: a static QR code paid through the sandbox is listed and found by endToEndId', async () => {
  const shop = await createCompany(server.client);
  const qr = (
    await server.client.post(
      '/api/v1/qrcode-static',
      { name: 'Balcao', correlationID: 'balcao', value: 1500 },
      { auth: shop.appID },
    )
  ).body.pixQrCode;
  const paid = await server.client.post('/api/v1/sandbox/pay', {
    brCode: qr.brCode,
    payer: { name: 'Rafael Souza Lima', taxID: '390.533.447-05' },
  });
  assert.is(paid.status, 200, paid.text);
  const res = await get(paid.body.endToEndId, shop);
  assert.is(res.status, 200, res.text);
  const tx = res.body.transaction;
  assert.equal(
    {
      value: tx.value,
      time: tx.time,
      endToEndId: tx.endToEndId,
      transactionID: tx.transactionID,
      type: tx.type,
      pixQrCode: tx.pixQrCode,
      payer: tx.payer,
    },
    {
      value: 1500,
      time: paid.body.time,
      endToEndId: paid.body.endToEndId,
      transactionID: qr.identifier,
      type: 'PAYMENT',
      pixQrCode: { name: 'Balcao', correlationID: 'balcao', identifier: qr.identifier },
      payer: { name: 'Rafael Souza Lima', taxID: { taxID: '39053344705', type: 'BR:CPF' } },
    },
  );
  assert.equal((await list('?type=PAYMENT', shop)).body.transactions, [tx]);
  assert.is((await get(paid.body.endToEndId)).status, 404);
});

test.run();
