// Migration 2026_11_26_0300: due-date charges written while payable_until was the end of the
// last day in UTC move to the end of that day in Brasília (what payableUntilOf computes now);
// a charge whose expiry was already announced keeps its instant, and a cob is left alone.
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { up } from '../../src/db/migrations/2026_11_26_0300_cobv_payable_until_brasilia';
import { chargesCompany, type ChargesCompany } from '../charges/support';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: ChargesCompany;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await chargesCompany(server);
});
test.after(async () => server.close());

async function cobv(txid: string, dataDeVencimento: string, validadeAposVencimento: number) {
  const res = await server.client.put(
    `/pix/v2/cobv/${txid}`,
    {
      calendario: { dataDeVencimento, validadeAposVencimento },
      devedor: { cpf: '52998224725', nome: 'Ana Souza' },
      valor: { original: '10.00' },
      chave: acme.key,
    },
    { auth: acme.bearer },
  );
  assert.is(res.status, 201, res.text);
}

const payableUntil = async (txid: string) =>
  (
    await server.database.db
      .selectFrom('charges')
      .select('payable_until')
      .where('txid', '=', txid)
      .executeTakeFirstOrThrow()
  ).payable_until.toISOString();

test('up: cobvs not announced expired end their last day at midnight in Brasília', async () => {
  await cobv('migrationCobv0000000000000000001', '2027-03-10', 5);
  await cobv('migrationCobv0000000000000000002', '2027-03-10', 0);
  const cob = await server.client.put(
    '/pix/v2/cob/migrationCob00000000000000000001',
    { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: acme.key },
    { auth: acme.bearer },
  );
  assert.is(cob.status, 201, cob.text);
  const cobUntil = await payableUntil('migrationCob00000000000000000001');
  // As the old rule wrote them: the end of the last day in UTC; the second one announced.
  await sql`update charges set payable_until = ((due_date + validity_after_due + 1)::timestamp at time zone 'UTC')
    where kind = 'cobv'`.execute(server.database.db);
  await sql`update charges set expired_event_at = now() where txid = 'migrationCobv0000000000000000002'`.execute(
    server.database.db,
  );

  await up(server.database.db);
  assert.is(await payableUntil('migrationCobv0000000000000000001'), '2027-03-16T03:00:00.000Z');
  assert.is(await payableUntil('migrationCobv0000000000000000002'), '2027-03-11T00:00:00.000Z', 'announced: kept');
  assert.is(await payableUntil('migrationCob00000000000000000001'), cobUntil, 'a cob is left alone');
});

test.run();
