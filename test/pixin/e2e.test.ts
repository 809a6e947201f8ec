// The whole way of money in, through the public APIs only: a charge made on the platform API,
// read as a cob, its payload fetched from the BR Code's location and its JWS verified with the
// published keys, paid in the sandbox, seen COMPLETED/CONCLUIDA in both APIs, the Pix and the
// transaction listed, part of it refunded, the refund settled, the balance moved.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { parseBrCode } from '../../src/lib/brcode';
import { SETTLEMENT_JOB } from '../../src/pixin/devolution-settlement';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let aurora: TestCompany;
let bearer: string;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  aurora = await createCompany(server.client, { name: 'Aurora Moda' });
  bearer = await pixToken(server.client, aurora);
});
test.after(async () => {
  await auditLedger(server.services.db);
  await server.close();
});

const balanceOf = async () => {
  const res = await server.client.get(`/api/v1/account/${aurora.accountId}`, { auth: aurora.appID });
  assert.is(res.status, 200, res.text);
  return res.body.account.balance;
};

test('charge -> cob -> signed payload -> sandbox payment -> both APIs -> refund -> settlement -> balance', async () => {
  const { client } = server;
  assert.equal(await balanceOf(), {
    total: 0,
    blocked: 0,
    available: 0,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });

  // 1. A charge on the platform API.
  const created = await client.post(
    '/api/v1/charge',
    { correlationID: 'pedido-2026-000184', value: 15990, comment: 'Pedido 184' },
    { auth: aurora.appID },
  );
  assert.is(created.status, 200, created.text);
  const charge = created.body.charge;
  assert.is(charge.status, 'ACTIVE');
  assert.is(charge.value, 15990);
  const txid: string = charge.identifier;

  // 2. The same charge as a cob of the Pix API.
  const cob = await client.get(`/pix/v2/cob/${txid}`, { auth: bearer });
  assert.is(cob.status, 200, cob.text);
  assert.is(cob.body.status, 'ATIVA');
  assert.is(cob.body.valor.original, '159.90');
  assert.is(cob.body.chave, aurora.pixKey);
  assert.is(cob.body.pixCopiaECola, charge.brCode);

  // 3. The BR Code: dynamic, its amount, its location (26.25) = the cob's location.
  const code = parseBrCode(charge.brCode);
  assert.ok(code.ok, code.ok ? '' : code.reason);
  assert.is(code.value.kind, 'dynamic');
  assert.is(code.value.amount, 15990);
  assert.is(code.value.locationUrl, cob.body.location);

  // 4. The payload at the location is a JWS verified by the published keys.
  const payload = await fetch(`http://${code.value.locationUrl}`);
  assert.is(payload.status, 200);
  assert.match(payload.headers.get('content-type') ?? '', /application\/jose/);
  const jws = await payload.text();
  const jwks = await client.get('/.well-known/jwks.json');
  assert.is(jwks.status, 200);
  const header = decodeProtectedHeader(jws);
  assert.is(header.alg, 'PS256');
  assert.is(header.jku, `${server.services.config.publicUrl}/.well-known/jwks.json`);
  const key = (jwks.body as JSONWebKeySet).keys.find((k) => k.kid === header.kid);
  assert.ok(key, 'the JWS kid is published');
  assert.is(header.x5t, (key as { x5t?: string }).x5t);
  const verified = await compactVerify(jws, createLocalJWKSet(jwks.body as JSONWebKeySet));
  const signed = JSON.parse(new TextDecoder().decode(verified.payload));
  assert.is(signed.txid, txid);
  assert.is(signed.status, 'ATIVA');
  assert.is(signed.valor.original, '159.90');
  assert.is(signed.chave, aurora.pixKey);

  // 5. An outside payer pays the code in the sandbox.
  const paid = await client.post('/api/v1/sandbox/pay', {
    brCode: charge.brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '529.982.247-25' },
  });
  assert.is(paid.status, 200, paid.text);
  const e2eid: string = paid.body.endToEndId;
  assert.equal(paid.body, {
    endToEndId: e2eid,
    value: 15990,
    time: paid.body.time,
    status: 'CONFIRMED',
    chargeCorrelationID: 'pedido-2026-000184',
    pixKey: aurora.pixKey,
  });

  // 6. COMPLETED on the platform API, CONCLUIDA on the Pix API (with its Pix).
  const platformCharge = await client.get('/api/v1/charge/pedido-2026-000184', { auth: aurora.appID });
  assert.is(platformCharge.body.charge.status, 'COMPLETED');
  assert.is(platformCharge.body.charge.paidAt, paid.body.time);
  const concluded = await client.get(`/pix/v2/cob/${txid}`, { auth: bearer });
  assert.is(concluded.body.status, 'CONCLUIDA');
  const pixOfCharge = {
    endToEndId: e2eid,
    txid,
    valor: '159.90',
    chave: aurora.pixKey,
    horario: paid.body.time,
    devolucoes: [],
  };
  assert.equal(concluded.body.pix, [pixOfCharge]);

  // 7. The Pix in /pix/v2/pix, the transaction in /api/v1/transaction.
  const range = `inicio=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}&fim=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`;
  const listed = await client.get(`/pix/v2/pix?${range}&txid=${txid}`, { auth: bearer });
  assert.is(listed.status, 200, listed.text);
  assert.equal(listed.body.pix, [pixOfCharge]);
  assert.equal((await client.get(`/pix/v2/pix/${e2eid}`, { auth: bearer })).body, pixOfCharge);
  const transactions = await client.get('/api/v1/transaction', { auth: aurora.appID });
  assert.is(transactions.status, 200, transactions.text);
  const received = transactions.body.transactions.find((t: { endToEndId: string }) => t.endToEndId === e2eid);
  assert.ok(received, transactions.text);
  assert.is(received.value, 15990);
  assert.is(received.transactionID, txid);
  assert.is(received.charge.correlationID, 'pedido-2026-000184');
  assert.equal(await balanceOf(), {
    total: 15990,
    blocked: 0,
    available: 15990,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });

  // 8. Part of it refunded: the money is held while the rail works.
  const refund = await client.post(
    '/api/v1/charge/pedido-2026-000184/refund',
    { correlationID: 'estorno184a', value: 5990, comment: 'Troca de tamanho' },
    { auth: aurora.appID },
  );
  assert.is(refund.status, 200, refund.text);
  assert.is(refund.body.refund.status, 'IN_PROCESSING');
  assert.equal(await balanceOf(), {
    total: 15990,
    blocked: 5990,
    available: 10000,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });
  const inProgress = await client.get(`/pix/v2/pix/${e2eid}/devolucao/estorno184a`, { auth: bearer });
  assert.is(inProgress.body.status, 'EM_PROCESSAMENTO');

  // 9. The settlement job returns it: DEVOLVIDO / CONFIRMED, the balance drops.
  await server.services.jobs.runNow(SETTLEMENT_JOB);
  const devolvido = await client.get(`/pix/v2/pix/${e2eid}/devolucao/estorno184a`, { auth: bearer });
  assert.is(devolvido.body.status, 'DEVOLVIDO');
  assert.is(devolvido.body.rtrId, refund.body.refund.endToEndId);
  assert.is(devolvido.body.valor, '59.90');
  const refunds = await client.get('/api/v1/charge/pedido-2026-000184/refund', { auth: aurora.appID });
  assert.equal(refunds.body.refunds, [{ ...refund.body.refund, status: 'CONFIRMED' }]);
  const withDevolution = await client.get(`/pix/v2/pix/${e2eid}`, { auth: bearer });
  assert.equal(withDevolution.body.devolucoes, [devolvido.body]);
  assert.equal(await balanceOf(), {
    total: 10000,
    blocked: 0,
    available: 10000,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });
  const after = await client.get('/api/v1/transaction', { auth: aurora.appID });
  const refundTx = after.body.transactions.find(
    (t: { endToEndId: string }) => t.endToEndId === refund.body.refund.endToEndId,
  );
  assert.ok(refundTx, after.text);
  assert.is(refundTx.value, 5990);
});

test.run();
