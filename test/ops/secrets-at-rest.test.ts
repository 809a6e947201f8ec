// Nothing secret is readable in any table or in the raw files of an embedded data folder,
// after the flows that make secrets: client secrets and appIDs (a company's, an application
// made with an Idempotency-Key, a partner's application for an affiliate), the
// Idempotency-Keys themselves, a webhook's signing secret and the Authorization it sends, a
// Pix webhook's secret, an access token, a KYC onboarding's link token, and the private keys that sign tokens, payload JWS
// and webhooks. Meanwhile an Idempotency-Key still replays its answer byte for byte, the
// secret included, and the sealed keys and secrets still sign.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basic, createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { runsOnlyIf } from '../support/skip';
import { verifyHmacSignature } from '../../src/webhooks/signature';
import { drain, record, startReceiver, type Receiver } from '../webhooks/receiver';

const embedded = !process.env.DATABASE_URL;
const dataDir = embedded ? mkdtempSync(join(tmpdir(), 'pixgate-secrets-')) : undefined;
let server: TestServer;
let closed = false;
let receiver: Receiver;
let acme: TestCompany;
// name -> the secret as it was given out
const secrets = new Map<string, string>();

test.before(async () => {
  server = await startTestServer({}, { ...(dataDir ? { dataDir } : {}), backgroundJobs: false });
  receiver = await startReceiver();
  acme = await createCompany(server.client, { name: 'Acme', features: ['BAAS', 'PARTNER'] });
  secrets.set('company clientSecret', acme.clientSecret);
  secrets.set('company appID', acme.appID);
});
test.after(async () => {
  await receiver.close();
  if (!closed) await server.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function keep(name: string, value: unknown): string {
  assert.type(value, 'string', name);
  assert.ok((value as string).length >= 16, `${name} is long enough to search for`);
  secrets.set(name, value as string);
  return value as string;
}

const idempotent = (path: string, body: unknown, key: string, auth = acme.appID) =>
  server.client.post(path, body, { auth, headers: { 'Idempotency-Key': key } });

test('an application made with an Idempotency-Key: its answer replays byte for byte, secret included', async () => {
  const key = keep('Idempotency-Key (application)', `app-${randomUUID()}`);
  const body = { accountId: acme.accountId, application: { name: 'erp', type: 'API', scopes: ['CHARGE_GET'] } };
  const first = await idempotent('/api/v1/application', body, key);
  assert.is(first.status, 201, first.text);
  keep('application clientSecret', first.body.application.clientSecret);
  keep('application appID', first.body.application.appID);
  const again = await idempotent('/api/v1/application', body, key);
  assert.is(again.status, 201);
  assert.is(again.text, first.text, 'the replay is the first answer, byte for byte');
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  const other = await idempotent(
    '/api/v1/application',
    { ...body, application: { ...body.application, name: 'x' } },
    key,
  );
  assert.is(other.status, 422, other.text);
  // the secret works
  assert.is((await server.client.get('/api/v1/charge/none', { auth: first.body.application.appID })).status, 404);
});

test("a partner's application for an affiliate, made with an Idempotency-Key", async () => {
  const pre = await server.client.post(
    '/api/v1/partner/company',
    {
      preRegistration: { name: 'Padaria Estrela Ltda', taxID: { taxID: '19.382.956/0001-23', type: 'BR:CNPJ' } },
      user: { firstName: 'Ana', lastName: 'Ferreira', email: 'ana@padariaestrela.com.br', phone: '+5519987651234' },
    },
    { auth: acme.appID },
  );
  assert.is(pre.status, 201, pre.text);
  const key = keep('Idempotency-Key (partner)', `partner-${randomUUID()}`);
  const body = {
    application: { name: 'pdv', type: 'API', scopes: ['CHARGE_GET'] },
    taxID: { taxID: '19382956000123', type: 'BR:CNPJ' },
  };
  const first = await idempotent('/api/v1/partner/application', body, key);
  assert.is(first.status, 201, first.text);
  keep('partner clientSecret', first.body.application.clientSecret);
  keep('partner appID', first.body.application.appID);
  assert.is((await idempotent('/api/v1/partner/application', body, key)).text, first.text);
});

test('webhooks: the signing secrets and the Authorization they send still sign and reach the receiver', async () => {
  const authorization = keep('webhook authorization', `Bearer receiver-token-${randomUUID()}`);
  const made = await idempotent(
    '/api/v1/webhook',
    { webhook: { name: 'erp', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/hooks`, authorization } },
    keep('Idempotency-Key (webhook)', `hook-${randomUUID()}`),
  );
  assert.is(made.status, 200, made.text);
  const secret = keep('webhook secret', made.body.webhook.secret);
  const listed = await server.client.get('/api/v1/webhook', { auth: acme.appID });
  assert.is(listed.body.webhooks[0].authorization, authorization, 'the list shows the authorization in clear');
  const bearer = await pixToken(server.client, acme);
  keep('access token', bearer.replace(/^Bearer /, ''));
  const pix = await server.client.put(
    `/pix/v2/webhook/${acme.pixKey}`,
    { webhookUrl: `${receiver.url}/pix` },
    {
      auth: bearer,
    },
  );
  assert.is(pix.status, 200, pix.text);
  keep('pix webhook secret', pix.headers.get('x-pixgate-webhook-secret'));
  const again = await server.client.put(
    `/pix/v2/webhook/${acme.pixKey}`,
    { webhookUrl: `${receiver.url}/pix2` },
    {
      auth: bearer,
    },
  );
  assert.is(again.headers.get('x-pixgate-webhook-secret'), secrets.get('pix webhook secret'), 'the same secret');
  await record(server, acme.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { value: 1 } });
  await drain(server);
  const delivered = receiver.requests.find((r) => r.path === '/hooks');
  assert.ok(delivered, 'the webhook was delivered');
  assert.is(delivered!.headers.authorization, authorization);
  assert.equal(
    verifyHmacSignature(secret, delivered!.body, String(delivered!.headers['x-pixgate-signature'])),
    { ok: true },
    'signed with the secret it was given',
  );
});

test("a KYC onboarding's link opens its page; the link is shown again", async () => {
  const onboard = () =>
    server.client.post(
      '/api/v1/kyc/onboarding',
      {
        taxID: '11222333000181',
        correlationID: 'kyc-secrets',
        representatives: [{ taxID: '07149875300', name: 'Carla Ribeiro', email: 'carla@tecidos.com.br' }],
      },
      { auth: acme.appID },
    );
  const made = await onboard();
  assert.is(made.status, 201, made.text);
  const link = made.body.onboarding.link as string;
  keep('KYC link token', /\/kyc\/onboarding\/([0-9a-f]{32})$/.exec(link)?.[1]);
  assert.is((await server.client.get(new URL(link).pathname)).status, 200);
  // the same correlationID answers the onboarding as it is, its link included
  const again = await onboard();
  assert.is(again.body.onboarding?.link, link, again.text);
});

test('the private keys sign: a token, a payload JWS, a webhook', async () => {
  const token = await server.client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', scope: 'cob.write cob.read' },
    auth: basic(acme.clientId, acme.clientSecret),
  });
  assert.is(token.status, 200, token.text);
  const cob = await server.client.post(
    '/pix/v2/cob',
    { calendario: {}, valor: { original: '1.00' }, chave: acme.pixKey },
    { auth: `Bearer ${token.body.access_token}` },
  );
  assert.is(cob.status, 201, cob.text);
  const payload = await server.client.get(`/qr/v2/${cob.body.location.split('/qr/v2/')[1]}`);
  assert.is(payload.status, 200, payload.text);
  for (const purpose of ['oauth-hs256', 'payload-jws', 'webhook-rsa']) {
    const key = await server.services.signingKeys.key(purpose, () => Promise.reject(new Error(`${purpose} not made`)));
    const material = key.private_key;
    // the longest line of a PEM's base64, or the whole secret
    const needle = material.includes('PRIVATE KEY')
      ? material.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '')
      : material;
    keep(`${purpose} private key`, needle);
  }
  secrets.set('a PEM private key header', 'PRIVATE KEY-----');
});

function findings(text: string): string[] {
  return [...secrets].filter(([, value]) => text.includes(value)).map(([name]) => name);
}

test('no table holds any of them in clear', async () => {
  assert.ok(secrets.size >= 15, `${secrets.size} secrets`);
  const db = server.database.db;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  assert.ok(tables.rows.length > 30, 'every table of the schema is read');
  const found: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(table_name)} t`.execute(
      db,
    );
    for (const { row } of rows.rows) for (const name of findings(row)) found.push(`${table_name}: ${name}`);
  }
  assert.equal(found, []);
  const sealed = await db.selectFrom('idempotency_records').select(['key_hash', 'response_body']).execute();
  assert.ok(sealed.length >= 3);
  for (const r of sealed) assert.match(r.response_body ?? '', /^sealed:v1:[0-9a-f]{8}:/);
});

const filesIn = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesIn(path) : [path];
  });

runsOnlyIf(embedded, 'needs the embedded database: its data folder is on this machine')(
  'no file of the data folder holds any of them, write-ahead log included',
  async () => {
    closed = true;
    await server.close();
    const files = filesIn(dataDir!);
    assert.ok(
      files.some((f) => f.includes('pg_wal')),
      'the write-ahead log is read too',
    );
    const found: string[] = [];
    const needles = [...secrets].map(([name, value]) => [name, Buffer.from(value)] as const);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const [name, needle] of needles) if (bytes.includes(needle)) found.push(`${file}: ${name}`);
    }
    assert.equal(found, []);
  },
);

test.run();
