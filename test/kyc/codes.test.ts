// One-time codes for the administrators: outcomes, limits on the server clock, the block after
// three wrong codes, confirmation lost on a changed address, submit gated by the features,
// and the sandbox read-out (codes are stored hashed).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { advance, codes, lastCode, register, wrong } from './support';

let server: TestServer;
let c: TestCompany;
let other: TestCompany;
let api: ReturnType<typeof codes>;

test.before(async () => {
  server = await startTestServer();
  c = await createCompany(server.client, {
    features: ['BAAS', 'KYC_REPRESENTATIVE_EMAIL_OTP', 'KYC_REPRESENTATIVE_PHONE_OTP'],
  });
  other = await createCompany(server.client);
  api = codes(server, c);
});
test.after(async () => server.close());

test('submit waits for the target administrators: e-mail, then phone; others need nothing', async () => {
  const r = await register(server, c, ['ana@flow.com.br', 'bia@flow.com.br'], { targets: [0] });
  const blocked = await api.submit(r);
  assert.equal(
    [blocked.status, blocked.body],
    [
      409,
      {
        error: 'MISSING_REPRESENTATIVE_EMAIL_VERIFICATION',
        details: [
          { field: `representatives[${r.reps[0]!.id}].email`, message: 'e-mail not confirmed by a one-time code' },
        ],
      },
    ],
  );
  assert.is(await api.verifyEmail(r, '000000'), 'NO_ACTIVE_CODE');
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  const code = await lastCode(server, r.reps[0]!.id, 'EMAIL');
  assert.match(code, /^\d{6}$/);
  assert.is(await api.verifyEmail(r, wrong(code)), 'WRONG_CODE');
  assert.is(await api.verifyEmail(r, code), 'VERIFIED');
  assert.is(await api.verifyEmail(r, code), 'ALREADY_VERIFIED');
  assert.is(await api.sendEmail(r), 'ALREADY_VERIFIED');
  assert.equal((await api.submit(r)).body, {
    error: 'MISSING_REPRESENTATIVE_PHONE_VERIFICATION',
    details: [{ field: `representatives[${r.reps[0]!.id}].phone`, message: 'phone not confirmed by a one-time code' }],
  });
  assert.is(await api.sendPhone(r), 'CODE_SENT');
  assert.is(await api.verifyPhone(r, await lastCode(server, r.reps[0]!.id, 'PHONE')), 'VERIFIED');
  const done = await api.submit(r);
  assert.is(done.status, 200, done.text);
  assert.equal(
    done.body.onboarding.representatives.map((x: any) => [x.emailVerified, x.phoneVerified]),
    [
      [true, true],
      [false, false],
    ],
  );
  // Stored hashed; the plain code only in the sandbox column.
  const row = await server.database.db
    .selectFrom('kyc_codes')
    .selectAll()
    .where('representative_id', '=', r.reps[0]!.id)
    .where('channel', '=', 'EMAIL')
    .executeTakeFirstOrThrow();
  assert.is(row.sandbox_code, code);
  assert.match(row.code_hash, /^[0-9a-f]{64}$/);
  assert.is.not(row.code_hash, code);
});

test('without target administrators every representative confirms', async () => {
  const r = await register(server, c, ['caio@every.com.br', 'duda@every.com.br']);
  for (const i of [0, 1]) {
    await api.sendEmail(r, i);
    await api.verifyEmail(r, await lastCode(server, r.reps[i]!.id, 'EMAIL'), i);
    await api.sendPhone(r, i);
    if (i === 0) await api.verifyPhone(r, await lastCode(server, r.reps[i]!.id, 'PHONE'), i);
  }
  assert.equal((await api.submit(r)).body.error, 'MISSING_REPRESENTATIVE_PHONE_VERIFICATION');
  assert.is(await api.verifyPhone(r, await lastCode(server, r.reps[1]!.id, 'PHONE'), 1), 'VERIFIED');
  assert.is((await api.submit(r)).status, 200);
});

test('ALREADY_SENT under 30 s; a changed address loses its confirmation and waits (COOLDOWN); old codes are not active', async () => {
  const r = await register(server, c, ['eva@change.com.br']);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  const first = await lastCode(server, r.reps[0]!.id, 'EMAIL');
  assert.is(await api.sendEmail(r), 'ALREADY_SENT');
  assert.is(await lastCode(server, r.reps[0]!.id, 'EMAIL'), first, 'nothing new spent');
  assert.is(await api.verifyEmail(r, first), 'VERIFIED');
  const changed = await server.client.post(
    '/api/v1/kyc/representatives',
    { correlationID: r.correlationID, taxID: '52998224725', email: 'eva.nova@change.com.br', phone: r.reps[0]!.phone },
    { auth: c.appID },
  );
  assert.is(changed.status, 200);
  assert.is(changed.body.representative.emailVerified, false);
  assert.is(await api.verifyEmail(r, first), 'NO_ACTIVE_CODE');
  assert.is(await api.sendEmail(r), 'COOLDOWN');
  await advance(server, c, 30);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  assert.is(await api.verifyEmail(r, await lastCode(server, r.reps[0]!.id, 'EMAIL')), 'VERIFIED');
});

test('codes live 10 minutes', async () => {
  const r = await register(server, c, ['fabi@expiry.com.br']);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  const code = await lastCode(server, r.reps[0]!.id, 'EMAIL');
  await advance(server, c, 599);
  assert.is(await api.verifyEmail(r, wrong(code)), 'WRONG_CODE', 'still live at 9:59');
  await advance(server, c, 1);
  assert.is(await api.verifyEmail(r, code), 'CODE_EXPIRED');
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  assert.is(await api.verifyEmail(r, await lastCode(server, r.reps[0]!.id, 'EMAIL')), 'VERIFIED');
});

test('3 sends per administrator per hour (both channels together; other administrators apart)', async () => {
  const r = await register(server, c, ['gui@hour.com.br', 'gil@hour.com.br']);
  for (let i = 0; i < 3; i++) {
    assert.is(await api.sendEmail(r), 'CODE_SENT');
    await advance(server, c, 30);
  }
  assert.is(await api.sendEmail(r), 'SEND_LIMIT_REACHED');
  assert.is(await api.sendPhone(r), 'SEND_LIMIT_REACHED', 'the phone counts with the e-mail');
  assert.is(await api.sendPhone(r, 1), 'CODE_SENT', 'another administrator has a count of its own');
  await advance(server, c, 3600 - 90);
  assert.is(await api.sendEmail(r), 'CODE_SENT', 'the first send left the hour');
});

test('10 sends per register per hour', async () => {
  const r = await register(server, c, ['h1@reg.com.br', 'h2@reg.com.br', 'h3@reg.com.br', 'h4@reg.com.br']);
  const sent: string[] = [];
  for (let n = 0; n < 3; n++) {
    for (const i of [0, 1, 2]) sent.push(await api.sendEmail(r, i));
    await advance(server, c, 30);
  }
  sent.push(await api.sendPhone(r, 3));
  assert.equal(sent, Array(10).fill('CODE_SENT'));
  assert.is(await api.sendEmail(r, 3), 'SEND_LIMIT_REACHED');
});

test('6 sends per address per day, across representatives and registers', async () => {
  const shared = 'familia@address.com.br';
  const regs = [
    await register(server, c, [shared]),
    await register(server, c, [shared]),
    await register(server, c, [shared]),
  ];
  const outcomes: string[] = [];
  for (const r of regs) {
    for (let n = 0; n < 3; n++) {
      outcomes.push(await api.sendEmail(r));
      await advance(server, c, 30);
    }
  }
  assert.equal(outcomes, [
    'CODE_SENT',
    'CODE_SENT',
    'CODE_SENT',
    'CODE_SENT',
    'CODE_SENT',
    'CODE_SENT',
    'SEND_LIMIT_REACHED',
    'SEND_LIMIT_REACHED',
    'SEND_LIMIT_REACHED',
  ]);
});

test('another representative sent to the same address under 30 s ago: COOLDOWN', async () => {
  const r = await register(server, c, ['casal@cool.com.br', 'casal@cool.com.br']);
  assert.is(await api.sendEmail(r, 0), 'CODE_SENT');
  assert.is(await api.sendEmail(r, 1), 'COOLDOWN');
});

test('3 wrong codes block codes and checks for 24 hours after the last', async () => {
  const r = await register(server, c, ['ivo@block.com.br']);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  const code = await lastCode(server, r.reps[0]!.id, 'EMAIL');
  assert.is(await api.verifyEmail(r, wrong(code)), 'WRONG_CODE');
  assert.is(await api.verifyEmail(r, wrong(code)), 'WRONG_CODE');
  await advance(server, c, 60);
  assert.is(await api.verifyEmail(r, wrong(code)), 'WRONG_CODE');
  assert.is(await api.verifyEmail(r, code), 'BLOCKED');
  assert.is(await api.sendEmail(r), 'BLOCKED');
  assert.is(await api.sendPhone(r), 'CODE_SENT', 'the phone is not blocked');
  await advance(server, c, 24 * 3600 - 1);
  assert.is(await api.sendEmail(r), 'BLOCKED');
  await advance(server, c, 1);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  assert.is(await api.verifyEmail(r, await lastCode(server, r.reps[0]!.id, 'EMAIL')), 'VERIFIED');
});

test('the e-mail of an account user is already confirmed: SAME_AS_ACCOUNT_USER', async () => {
  await server.database.db
    .updateTable('bank_accounts')
    .set({ holder_email: 'Dona@Loja.com.br' })
    .where('id', '=', c.accountId)
    .execute();
  const r = await register(server, c, ['dona@loja.com.br'], { targets: [0] });
  assert.is(await api.sendEmail(r), 'SAME_AS_ACCOUNT_USER');
  assert.is(await api.verifyEmail(r, '123456'), 'SAME_AS_ACCOUNT_USER');
  assert.is(await api.sendPhone(r), 'CODE_SENT');
  assert.is(await api.verifyPhone(r, await lastCode(server, r.reps[0]!.id, 'PHONE')), 'VERIFIED');
  const done = await api.submit(r);
  assert.is(done.status, 200, done.text);
  assert.is(done.body.onboarding.representatives[0].emailVerified, true);
});

test("not found: an unknown representative, another company's register; the sandbox read-out without a code", async () => {
  const r = await register(server, c, ['jo@nf.com.br']);
  const body = { correlationID: r.correlationID, representativeId: r.reps[0]!.id };
  assert.equal(
    (await server.client.post('/api/v1/kyc/representatives/email-code/send', body, { auth: other.appID })).body,
    { error: 'Onboarding not found' },
  );
  assert.equal(
    (
      await server.client.post(
        '/api/v1/kyc/representatives/email-code/send',
        { ...body, representativeId: 'ffffffffffffffffffffffff' },
        { auth: c.appID },
      )
    ).body,
    { error: 'Representative not found' },
  );
  assert.equal(
    (
      await server.client.post(
        '/api/v1/kyc/representatives/phone-code/verify',
        { ...body, code: '12345' },
        { auth: c.appID },
      )
    ).status,
    400,
  );
  const none = await server.client.get(`/api/v1/sandbox/kyc/codes?representativeId=${r.reps[0]!.id}&channel=PHONE`);
  assert.equal([none.status, none.body], [404, { error: 'No code was sent to this representative on this channel' }]);
});

test('without the features, submit needs no codes', async () => {
  const plain = codes(server, other);
  const r = await register(server, other, ['kid@plain.com.br']);
  assert.is((await plain.submit(r)).status, 200);
});

test('outside sandbox mode the code read-out does not exist', async () => {
  const prod = await startTestServer({ PIXGATE_SANDBOX: 'false' });
  try {
    const res = await prod.client.get('/api/v1/sandbox/kyc/codes?representativeId=x&channel=EMAIL');
    assert.is(res.status, 404);
  } finally {
    await prod.close();
  }
});

test.run();
