// Two sends (or checks) at once for the same administrator: one wins under the register's row
// lock, the other answers ALREADY_SENT or TRY_AGAIN; one code is spent. Real Postgres only.
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { codes, lastCode, register, wrong } from './support';

const onPostgres = Boolean(process.env.DATABASE_URL);
let server: TestServer;
let c: TestCompany;

test.before(async () => {
  if (!onPostgres) return;
  server = await startTestServer();
  c = await createCompany(server.client, { features: ['KYC_REPRESENTATIVE_EMAIL_OTP'] });
});
test.after(async () => server?.close());

postgresOnly('concurrent sends for one administrator: one CODE_SENT, one code stored', async () => {
  const api = codes(server, c);
  for (let round = 0; round < 5; round++) {
    const r = await register(server, c, [`par${round}@race.com.br`]);
    const outcomes = await Promise.all([api.sendEmail(r), api.sendEmail(r), api.sendEmail(r)]);
    assert.is(outcomes.filter((o) => o === 'CODE_SENT').length, 1, outcomes.join());
    assert.ok(
      outcomes.every((o) => ['CODE_SENT', 'ALREADY_SENT', 'TRY_AGAIN'].includes(o)),
      outcomes.join(),
    );
    const rows = await server.database.db
      .selectFrom('kyc_codes')
      .select('id')
      .where('representative_id', '=', r.reps[0]!.id)
      .execute();
    assert.is(rows.length, 1);
  }
});

postgresOnly('concurrent checks: one VERIFIED; concurrent wrong codes count each', async () => {
  const api = codes(server, c);
  const r = await register(server, c, ['check@race.com.br', 'wrong@race.com.br']);
  await api.sendEmail(r, 0);
  const code = await lastCode(server, r.reps[0]!.id, 'EMAIL');
  const outcomes = await Promise.all([api.verifyEmail(r, code), api.verifyEmail(r, code)]);
  assert.equal(outcomes.sort(), ['ALREADY_VERIFIED', 'VERIFIED']);
  await api.sendEmail(r, 1);
  const other = wrong(await lastCode(server, r.reps[1]!.id, 'EMAIL'));
  const wrongs = await Promise.all([1, 2, 3, 4].map(() => api.verifyEmail(r, other, 1)));
  assert.equal(wrongs.sort(), ['BLOCKED', 'WRONG_CODE', 'WRONG_CODE', 'WRONG_CODE']);
});

test.run();
