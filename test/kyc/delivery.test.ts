// One-time codes are delivered: every send writes its message to the outbox (sandbox or not),
// the delivery job hands e-mails to the SMTP server configured by PIXGATE_SMTP_* (here a fake
// SMTP server on a real socket), retries a refused one on the company's clock and gives up
// within the code's life; the phone channel, without a sender, keeps its messages queued; the
// sandbox inbox page shows the messages of an address; sends count both channels together.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { smtpConfigOf } from '../../src/kyc/smtp-sender';
import { secretsBoxOf } from '../../src/config';
import { openedMessageBody } from '../../src/kyc/kyc-secrets';
import { formatBrasiliaDateTime } from '../../src/lib/brasilia';
import { startFakeSmtp, type FakeSmtp } from './fake-smtp';
import { advance, codes, lastCode, register } from './support';

let smtp: FakeSmtp;
let server: TestServer;
let c: TestCompany;
let api: ReturnType<typeof codes>;

const smtpEnv = () => ({
  PIXGATE_SMTP_HOST: '127.0.0.1',
  PIXGATE_SMTP_PORT: String(smtp.port),
  PIXGATE_SMTP_FROM: 'pixgate <codigos@pixgate.test>',
  PIXGATE_SMTP_TIMEOUT_MS: '5000',
});

test.before(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer(smtpEnv(), { backgroundJobs: false });
  c = await createCompany(server.client, { features: ['BAAS', 'KYC_REPRESENTATIVE_EMAIL_OTP'] });
  api = codes(server, c);
});
test.after(async () => {
  await server.close();
  await smtp.close();
});

const messagesTo = (s: TestServer, address: string) =>
  s.database.db
    .selectFrom('kyc_code_messages')
    .selectAll()
    .where('address', '=', address)
    .orderBy('created_at')
    .execute()
    .then((rows) =>
      rows.map((m) => ({ ...m, stored: m.body, body: openedMessageBody(secretsBoxOf(s.services.config), m) })),
    );

// The text of a received mail with quoted-printable soft line breaks joined.
const textOf = (data: string) => data.replace(/=\r\n/g, '');

test('an e-mail code goes into the outbox and out through SMTP to the representative', async () => {
  const r = await register(server, c, ['ana@entrega.com.br']);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  const code = await lastCode(server, r.reps[0]!.id, 'EMAIL');
  const [queued] = await messagesTo(server, 'ana@entrega.com.br');
  assert.is(queued!.status, 'PENDING');
  assert.ok(queued!.body!.includes(code), 'the message carries the code');
  assert.not.ok(queued!.stored!.includes(code), 'sealed: the code is not readable in the table');
  assert.is(smtp.received.length, 0, 'nothing sent inside the request');

  await server.services.jobs.runNow('kyc-messages');
  const mail = smtp.received.find((m) => m.to.includes('ana@entrega.com.br'));
  assert.ok(mail, 'the fake SMTP server received the message');
  assert.is(mail.from, 'codigos@pixgate.test');
  assert.ok(textOf(mail.data).includes(code), 'the mail carries the code');
  assert.match(mail.data, /^To: ana@entrega\.com\.br$/m);
  const [sent] = await messagesTo(server, 'ana@entrega.com.br');
  assert.equal([sent!.status, sent!.attempts], ['SENT', 1]);
  assert.ok(sent!.body, 'sandbox mode keeps the text for the inbox page');
  // The code delivered is the one that verifies.
  assert.is(await api.verifyEmail(r, code), 'VERIFIED');
});

test('the phone channel has no sender: its message waits in the outbox', async () => {
  const r = await register(server, c, ['bia@entrega.com.br']);
  assert.is(await api.sendPhone(r), 'CODE_SENT');
  await server.services.jobs.runNow('kyc-messages');
  const [queued] = await messagesTo(server, r.reps[0]!.phone);
  assert.equal([queued!.channel, queued!.status, queued!.attempts], ['PHONE', 'PENDING', 0]);
  assert.ok(queued!.body!.includes(await lastCode(server, r.reps[0]!.id, 'PHONE')));
});

test('a refused e-mail is retried on the company clock, then given up within the code life', async () => {
  const r = await register(server, c, ['recusa@entrega.com.br']);
  smtp.refuse.add('recusa@entrega.com.br');
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  await server.services.jobs.runNow('kyc-messages');
  let [m] = await messagesTo(server, 'recusa@entrega.com.br');
  assert.equal([m!.status, m!.attempts], ['PENDING', 1]);
  assert.match(m!.last_error ?? '', /550/);
  await server.services.jobs.runNow('kyc-messages');
  [m] = await messagesTo(server, 'recusa@entrega.com.br');
  assert.is(m!.attempts, 1, 'not due again before 30 s on the company clock');
  for (const seconds of [30, 120, 300]) {
    await advance(server, c, seconds);
    await server.services.jobs.runNow('kyc-messages');
  }
  [m] = await messagesTo(server, 'recusa@entrega.com.br');
  assert.equal([m!.status, m!.attempts], ['FAILED', 4]);
  smtp.refuse.delete('recusa@entrega.com.br');
});

test('3 sends per administrator per hour count e-mail and phone together', async () => {
  const r = await register(server, c, ['gui@hora.com.br']);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  assert.is(await api.sendPhone(r), 'CODE_SENT');
  await advance(server, c, 30);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  await advance(server, c, 30);
  assert.is(await api.sendPhone(r), 'SEND_LIMIT_REACHED');
  assert.is(await api.sendEmail(r), 'SEND_LIMIT_REACHED');
  await advance(server, c, 3600 - 60);
  assert.is(await api.sendPhone(r), 'CODE_SENT', 'the first sends left the hour');
});

test('the sandbox inbox page shows the messages sent to an address, in Portuguese, script-free', async () => {
  const r = await register(server, c, ['caixa@entrega.com.br']);
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  assert.is(await api.sendPhone(r), 'CODE_SENT');
  const emailCode = await lastCode(server, r.reps[0]!.id, 'EMAIL');
  const phoneCode = await lastCode(server, r.reps[0]!.id, 'PHONE');
  const page = await server.client.get('/api/v1/sandbox/kyc/inbox?address=CAIXA@entrega.com.br');
  assert.is(page.status, 200, page.text);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  assert.match(page.text, /<html lang="pt-BR">/);
  assert.match(page.text, /Caixa de entrada do sandbox/);
  assert.ok(page.text.includes(emailCode), 'the e-mail code shows');
  assert.not.ok(page.text.includes(phoneCode), 'the phone message is not for this address');
  assert.not.match(page.text, /<script|https?:\/\/(?!.*pixgate)/i);
  // When it was sent, on the Brasília clock (as every page shows time), not UTC.
  const sent = await server.database.db
    .selectFrom('kyc_code_messages')
    .select('created_at')
    .where('address', '=', 'caixa@entrega.com.br')
    .executeTakeFirstOrThrow();
  assert.ok(page.text.includes(`${formatBrasiliaDateTime(sent.created_at)} (horário de Brasília)`), page.text);
  assert.not.match(page.text, / UTC/);
  const phone = await server.client.get(`/api/v1/sandbox/kyc/inbox?address=${encodeURIComponent(r.reps[0]!.phone)}`);
  assert.ok(phone.text.includes(phoneCode), 'the phone code shows on the phone inbox');
  const empty = await server.client.get('/api/v1/sandbox/kyc/inbox?address=ninguem@entrega.com.br');
  assert.match(empty.text, /Nenhuma mensagem para este endereço/);
  const form = await server.client.get('/api/v1/sandbox/kyc/inbox');
  assert.is(form.status, 200);
  assert.match(form.text, /<form method="get" action="\/api\/v1\/sandbox\/kyc\/inbox">/);
  const bad = await server.client.get('/api/v1/sandbox/kyc/inbox?address=not-an-address');
  assert.equal([bad.status, bad.body.error], [400, 'address must be an e-mail address or a phone (+55...)']);
  // Text sent by a client is escaped: the page stays script-free.
  const escaped = await server.client.get('/api/v1/sandbox/kyc/inbox?address=%3Cscript%3E@x.com.br');
  assert.not.match(escaped.text, /<script>/);
});

test('outside sandbox mode the outbox is written too, and the text is dropped once delivered', async () => {
  const live = await startTestServer({ ...smtpEnv(), PIXGATE_SANDBOX: 'false' }, { backgroundJobs: false });
  try {
    const made = await live.services.sandbox.createCompany({ name: 'Loja Real' });
    const company = { appID: made.application.appID } as TestCompany;
    const r = await register(live, company, ['real@entrega.com.br']);
    assert.is(await codes(live, company).sendEmail(r), 'CODE_SENT');
    const [queued] = await messagesTo(live, 'real@entrega.com.br');
    assert.is(queued!.status, 'PENDING');
    const code = /\b(\d{6})\b/.exec(queued!.body!)![1]!;
    const codeRow = await live.database.db
      .selectFrom('kyc_codes')
      .selectAll()
      .where('id', '=', queued!.code_id)
      .executeTakeFirstOrThrow();
    assert.is(codeRow.sandbox_code, null, 'no plain code kept beside the hash');
    await live.services.jobs.runNow('kyc-messages');
    const mail = smtp.received.find((m) => m.to.includes('real@entrega.com.br'));
    assert.ok(mail && textOf(mail.data).includes(code), 'delivered through SMTP');
    const [sent] = await messagesTo(live, 'real@entrega.com.br');
    assert.equal([sent!.status, sent!.body], ['SENT', null]);
    assert.is((await live.client.get('/api/v1/sandbox/kyc/inbox')).status, 404, 'no inbox outside the sandbox');
  } finally {
    await live.close();
  }
});

test('SMTP settings: none without a host; the sender address and both credentials required', () => {
  assert.is(smtpConfigOf({}), undefined);
  const base = { PIXGATE_SMTP_HOST: 'smtp.example.com.br', PIXGATE_SMTP_FROM: 'codigos@example.com.br' };
  assert.equal(smtpConfigOf(base), {
    host: 'smtp.example.com.br',
    port: 587,
    secure: false,
    user: undefined,
    password: undefined,
    from: 'codigos@example.com.br',
    timeoutMs: 10_000,
  });
  assert.is(smtpConfigOf({ ...base, PIXGATE_SMTP_SECURE: 'true' })!.port, 465);
  assert.throws(() => smtpConfigOf({ PIXGATE_SMTP_HOST: 'smtp.example.com.br' }), /PIXGATE_SMTP_FROM is required/);
  assert.throws(() => smtpConfigOf({ ...base, PIXGATE_SMTP_USER: 'u' }), /set together/);
  assert.throws(() => smtpConfigOf({ ...base, PIXGATE_SMTP_PORT: '70000' }), /PIXGATE_SMTP_PORT/);
  assert.throws(() => smtpConfigOf({ ...base, PIXGATE_SMTP_TIMEOUT_MS: '5' }), /PIXGATE_SMTP_TIMEOUT_MS/);
});

test.run();
