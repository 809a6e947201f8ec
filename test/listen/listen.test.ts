// `pixgate listen` end to end: the command (the package's bin, a child process) forwards a real
// sandbox payment's OPENPIX:CHARGE_COMPLETED to a local receiver, which verifies it with the
// recipe of docs/webhooks.md (linked from the README) and the secret the command printed; --events filters; a bad appID is
// said in words. And the stream it reads (GET /api/v1/events/stream): only the company's own
// events, in commit order, resumed after Last-Event-ID, scope-checked, bounded per company,
// ended by the server's close.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { STREAMS_PER_COMPANY } from '../../src/webhooks/event-stream.service';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { startReceiver, type Received, type Receiver } from '../webhooks/receiver';
import { type Command, openStream, pixgate, ROOT } from './cli';
import { onceOnEmbeddedRun } from '../support/skip';

const noDatabase = onceOnEmbeddedRun('no database');

type Verify = (secret: string, rawBody: string, header: string | undefined) => boolean;

let server: TestServer;
let receiver: Receiver;
let company: TestCompany;
let verifyPixgateSignature: Verify;
let dir: string;
const commands: Command[] = [];

test.before(async () => {
  // The verification recipe exactly as the guide the README links shows it, run as a module.
  const guide = readFileSync(resolve(ROOT, 'docs/webhooks.md'), 'utf8');
  const recipe = /```js\n(\/\/ verify-pixgate-signature\.mjs[\s\S]*?)```/.exec(guide)?.[1];
  assert.ok(recipe, 'docs/webhooks.md has the verification recipe');
  dir = mkdtempSync(join(tmpdir(), 'pixgate-listen-'));
  writeFileSync(join(dir, 'verify.mjs'), recipe!);
  ({ verifyPixgateSignature } = await import(pathToFileURL(join(dir, 'verify.mjs')).href));
  server = await startTestServer();
  // The local answer's status is what the command prints: not a fixed 200.
  receiver = await startReceiver(() => 201);
  company = await createCompany(server.client);
});
test.after(async () => {
  rmSync(dir, { recursive: true, force: true });
  // The server closes with the streams of the commands still open (it must not hang on them).
  await server.close();
  await Promise.all(commands.map((c) => c.stop()));
  await receiver.close();
});

function listen(args: string[], appId = company.appID): Command {
  const command = pixgate(['listen', ...args], { PIXGATE_URL: server.url, PIXGATE_APP_ID: appId });
  commands.push(command);
  return command;
}

async function paidCharge(correlationID: string, appID = company.appID): Promise<void> {
  const charge = await server.client.post('/api/v1/charge', { correlationID, value: 4590 }, { auth: appID });
  assert.is(charge.status, 200, charge.text);
  const pay = await server.client.post('/api/v1/sandbox/pay', {
    brCode: charge.body.brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  assert.is(pay.status, 200, pay.text);
}

async function received(path: string, type: string, correlationID: string): Promise<Received> {
  const until = Date.now() + 20_000;
  for (;;) {
    const found = receiver.requests.find(
      (r) => r.path === path && r.headers['x-pixgate-event'] === type && r.body.includes(correlationID),
    );
    if (found) return found;
    if (Date.now() > until) throw new Error(`no ${type} of ${correlationID} at ${path}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

test('a paid charge reaches the local receiver, signed with the printed secret, verified by the recipe of docs/webhooks.md', async () => {
  const command = listen(['--forward-to', `${receiver.url}/hooks`]);
  const secret = (await command.line(/signing secret is (whsec_\S+)/))[1]!;
  // Another company's charge, paid before ours: never forwarded (it committed first, so it
  // would have arrived first).
  const other = await createCompany(server.client);
  await paidCharge('pedido-de-outra', other.appID);
  await paidCharge('pedido-listen-1');

  const delivery = await received('/hooks', 'OPENPIX:CHARGE_COMPLETED', 'pedido-listen-1');
  const signature = delivery.headers['x-pixgate-signature'] as string;
  assert.ok(verifyPixgateSignature(secret, delivery.body, signature), 'verifies with the printed secret');
  assert.not.ok(verifyPixgateSignature('whsec_another', delivery.body, signature), 'and with no other secret');
  assert.is(delivery.json.event, 'OPENPIX:CHARGE_COMPLETED');
  assert.is(delivery.json.charge.status, 'COMPLETED');
  // The body is the one a registered webhook gets: the event's payload, byte for byte.
  const eventId = delivery.headers['x-pixgate-event-id'] as string;
  const event = await server.client.get(`/api/v1/events/${eventId}`, { auth: company.appID });
  assert.is(event.status, 200, event.text);
  assert.is(delivery.body, JSON.stringify(event.body.event.payload));
  assert.ok(delivery.headers['x-webhook-signature'], 'the RSA signature of registered webhooks too');
  assert.ok(delivery.headers['x-pixgate-delivery-id']);
  assert.not.ok(
    receiver.requests.some((r) => r.body.includes('pedido-de-outra')),
    "another company's events never come",
  );
  // One line per event with the local answer's status.
  const line = await command.line(new RegExp(`OPENPIX:CHARGE_COMPLETED \\[${eventId}\\].*\\[201\\]`));
  assert.ok(line.input.includes(`POST ${receiver.url}/hooks`), line.input);
});

test('--events forwards only the types asked for', async () => {
  const command = listen(['--forward-to', `${receiver.url}/only-completed`, '--events', 'OPENPIX:CHARGE_COMPLETED']);
  await command.line(/signing secret is whsec_/);
  await paidCharge('pedido-listen-2');
  await received('/only-completed', 'OPENPIX:CHARGE_COMPLETED', 'pedido-listen-2');
  // The charge's creation committed before its completion, so it would have come first.
  const types = receiver.requests.filter((r) => r.path === '/only-completed').map((r) => r.headers['x-pixgate-event']);
  assert.equal([...new Set(types)], ['OPENPIX:CHARGE_COMPLETED']);
});

test('a bad appID is refused in words, and the command ends with status 1', async () => {
  const command = listen(['--forward-to', `${receiver.url}/never`], 'Q2xpZW50X0lkX25vcGU6c2VjcmV0');
  assert.is(await command.exited, 1);
  assert.match(command.err.join('\n'), /refused the appID \(401.*PIXGATE_APP_ID/);
  const missing = pixgate(['listen', '--forward-to', `${receiver.url}/never`], { PIXGATE_URL: server.url });
  assert.is(await missing.exited, 2);
  assert.match(missing.err.join('\n'), /no appID: set PIXGATE_APP_ID/);
});

noDatabase('npx pixgate listen --help works from a clone (the package bin)', async () => {
  const { stdout } = await promisify(execFile)('npx', ['--no-install', 'pixgate', 'listen', '--help'], {
    cwd: ROOT,
    timeout: 60_000,
  });
  assert.match(stdout, /Usage: pixgate listen --forward-to <url>/);
});

const streamUrl = (query = '') => `${server.url}/api/v1/events/stream${query}`;

test('the stream resumes after Last-Event-ID without repeating or skipping', async () => {
  const auth = { authorization: company.appID };
  const first = await openStream(streamUrl('?type=OPENPIX:CHARGE_CREATED'), auth);
  assert.is(first.status, 200, first.text);
  assert.match(first.headers.get('content-type') ?? '', /^text\/event-stream/);
  await first.next('pixgate.ready');
  const one = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'resume-1', value: 100 },
    { auth: company.appID },
  );
  assert.is(one.status, 200, one.text);
  const m1 = await first.next('pixgate.event');
  assert.match(JSON.parse(m1.data).body, /resume-1/);
  first.close();
  for (const id of ['resume-2', 'resume-3'])
    await server.client.post('/api/v1/charge', { correlationID: id, value: 100 }, { auth: company.appID });
  const again = await openStream(streamUrl('?type=OPENPIX:CHARGE_CREATED'), { ...auth, 'last-event-id': m1.id! });
  assert.is(again.status, 200, again.text);
  assert.match(JSON.parse((await again.next('pixgate.event')).data).body, /resume-2/);
  assert.match(JSON.parse((await again.next('pixgate.event')).data).body, /resume-3/);
  again.close();
  const bad = await openStream(streamUrl(), { ...auth, 'last-event-id': 'not-an-id' });
  assert.is(bad.status, 400, bad.text);
});

test('the stream needs the scope EVENT_GET_LIST and is bounded per company', async () => {
  const app = await server.client.post(
    '/api/v1/application',
    { accountId: company.accountId, application: { name: 'no-events', type: 'API', scopes: ['CHARGE_GET'] } },
    { auth: company.appID },
  );
  assert.is(app.status, 201, app.text);
  const refused = await openStream(streamUrl(), { authorization: app.body.application.appID });
  assert.is(refused.status, 403, refused.text);

  const fresh = await createCompany(server.client);
  const open = [];
  for (let n = 0; n < STREAMS_PER_COMPANY; n++) {
    const s = await openStream(streamUrl(), { authorization: fresh.appID });
    assert.is(s.status, 200, s.text);
    await s.next('pixgate.ready');
    open.push(s);
  }
  const over = await openStream(streamUrl(), { authorization: fresh.appID });
  assert.is(over.status, 429, over.text);
  // Another company is not held back by this one's streams.
  const other = await openStream(streamUrl(), { authorization: company.appID });
  assert.is(other.status, 200, other.text);
  other.close();
  open.pop()!.close();
  // A stream the client left frees its place once the server noticed.
  const until = Date.now() + 10_000;
  let again = await openStream(streamUrl(), { authorization: fresh.appID });
  while (again.status === 429 && Date.now() < until) {
    await new Promise((ok) => setTimeout(ok, 50));
    again = await openStream(streamUrl(), { authorization: fresh.appID });
  }
  assert.is(again.status, 200, again.text);
  for (const s of [...open, again]) s.close();
});

test.run();
