// Secrets written before they were sealed are sealed when the server starts, and still work;
// idempotency records written before are converted by their migration and still replay;
// PIXGATE_SECRETS_KEY can be replaced (the old one as PIXGATE_SECRETS_KEY_PREVIOUS: the start
// seals everything again under the new one); a database sealed under a key the server does
// not have stops the start with the keys' ids.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropSchema } from '../../src/db/database';
import { down, up } from '../../src/db/migrations/2026_11_26_0200_idempotency_sealed';
import { fingerprintOf, keyHashOf } from '../../src/idempotency/idempotency.service';
import { SealedWithAnotherKey } from '../../src/lib/secret-box';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from '../webhooks/receiver';

const url = process.env.DATABASE_URL;
const schema = `t_${randomBytes(6).toString('hex')}`;
const dataDir = url ? undefined : mkdtempSync(join(tmpdir(), 'pixgate-rotation-'));
const place = url ? { schema } : { dataDir: dataDir! };
let server: TestServer | undefined;
let receiver: Receiver;
let acme: TestCompany;

const KEY_1 = 'first-secrets-key:0123456789abcdefghijklmnopqrstu';
const KEY_2 = 'second-secrets-key:0123456789abcdefghijklmnopqrst';

async function restart(env: Record<string, string> = {}): Promise<TestServer> {
  await server?.close();
  server = undefined;
  server = await startTestServer(env, { ...place, backgroundJobs: false });
  return server;
}

test.before(async () => {
  receiver = await startReceiver();
  await restart({ PIXGATE_SECRETS_KEY: KEY_1 });
  acme = await createCompany(server!.client);
});
test.after(async () => {
  await receiver.close();
  await server?.close();
  if (url) await dropSchema(url, schema);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const db = () => server!.database.db;

test('idempotency records written in clear are converted by their migration and still replay', async () => {
  const body = { correlationID: 'legado-1', value: 1234 };
  const answer = '{"charge":{"note":"the first answer, kept before sealing: Client_Secret_legacy0123456789"}}';
  await down(db() as never);
  const now = await server!.services.clock.now(acme.companyId);
  await db()
    .insertInto('idempotency_records' as never)
    .values({
      company_id: acme.companyId,
      idempotency_key: 'legacy-key-0123456789',
      operation_id: 'createCharge',
      fingerprint: fingerprintOf('createCharge', '/api/v1/charge', body),
      state: 'DONE',
      response_status: 200,
      response_type: 'application/json',
      response_headers: JSON.stringify({}),
      response_body: answer,
      created_at: now,
      locked_until: now,
      expires_at: new Date(now.getTime() + 3600_000),
    } as never)
    .execute();
  await up(db() as never);
  const [row] = await db().selectFrom('idempotency_records').selectAll().execute();
  assert.is(row!.key_hash, keyHashOf(acme.companyId, 'legacy-key-0123456789'));
  assert.match(row!.response_body!, /^sealed:v1:/);
  assert.not.ok(JSON.stringify(row).includes('Client_Secret_legacy'), 'nothing in clear');
  const replay = await server!.client.post('/api/v1/charge', body, {
    auth: acme.appID,
    headers: { 'Idempotency-Key': 'legacy-key-0123456789' },
  });
  assert.equal([replay.status, replay.text, replay.headers.get('idempotent-replayed')], [200, answer, 'true']);
});

test('a webhook secret, a signing key and a KYC link token stored in clear are sealed at the next start, and still work', async () => {
  const now = new Date();
  await db()
    .insertInto('webhooks')
    .values({
      id: 'wh-legacy',
      company_id: acme.companyId,
      kind: 'platform',
      event: 'OPENPIX:CHARGE_COMPLETED',
      chave: null,
      name: 'legacy',
      url: `${receiver.url}/legacy`,
      authorization: 'Bearer legacy-receiver-token-0123',
      is_active: true,
      secret: 'whsec_legacy0123456789abcdefghijklmn',
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db()
    .insertInto('signing_keys')
    .values({
      kid: 'legacy-hs256',
      purpose: 'legacy-purpose',
      algorithm: 'HS256',
      private_key: 'bGVnYWN5LWhzMjU2LWtleS0wMTIzNDU2Nzg5YWJjZGVm',
      public_jwk: null,
      certificate: null,
      created_at: now,
    })
    .execute();
  // an onboarding whose link token was stored in clear (its hash was filled by its migration)
  const onboard = () =>
    server!.client.post(
      '/api/v1/kyc/onboarding',
      {
        taxID: '11222333000181',
        correlationID: 'kyc-legado',
        representatives: [{ taxID: '07149875300', name: 'Carla Ribeiro', email: 'carla@tecidos.com.br' }],
      },
      { auth: acme.appID },
    );
  const link = (await onboard()).body.onboarding.link as string;
  const token = link.split('/').pop()!;
  await db().updateTable('kyc_onboardings').set({ link_token: token }).execute();
  await restart({ PIXGATE_SECRETS_KEY: KEY_1 });
  const onboarding = await db().selectFrom('kyc_onboardings').select('link_token').executeTakeFirstOrThrow();
  assert.match(onboarding.link_token, /^sealed:v1:/);
  const shown = (await onboard()).body.onboarding.link as string;
  assert.is(shown.split('/').pop(), token, 'the same link (on the port of this start)');
  assert.is((await server!.client.get(new URL(shown).pathname)).status, 200);
  const hook = await db().selectFrom('webhooks').selectAll().where('id', '=', 'wh-legacy').executeTakeFirstOrThrow();
  const key = await db()
    .selectFrom('signing_keys')
    .selectAll()
    .where('kid', '=', 'legacy-hs256')
    .executeTakeFirstOrThrow();
  for (const stored of [hook.secret, hook.authorization!, key.private_key]) assert.match(stored, /^sealed:v1:/);
  // opened for its use: the delivery carries the secret's signature and the authorization
  await record(server!, acme.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { value: 1 } });
  await drain(server!);
  const delivered = receiver.requests.find((r) => r.path === '/legacy');
  assert.is(delivered?.headers.authorization, 'Bearer legacy-receiver-token-0123');
  const opened = await server!.services.signingKeys.key('legacy-purpose', () => Promise.reject(new Error('no key')));
  assert.is(opened.private_key, 'bGVnYWN5LWhzMjU2LWtleS0wMTIzNDU2Nzg5YWJjZGVm');
});

test('a new key with the old one as PIXGATE_SECRETS_KEY_PREVIOUS seals everything again; another key stops the start', async () => {
  const prefixes = async () => {
    const hooks = await db().selectFrom('webhooks').select('secret').execute();
    const keys = await db().selectFrom('signing_keys').select('private_key').execute();
    const links = await db().selectFrom('kyc_onboardings').select('link_token').execute();
    const stored = [
      ...hooks.map((h) => h.secret),
      ...keys.map((k) => k.private_key),
      ...links.map((l) => l.link_token),
    ];
    return new Set(stored.map((v) => v.split(':')[2]));
  };
  const before = await prefixes();
  assert.is(before.size, 1, 'one key sealed everything');
  await restart({ PIXGATE_SECRETS_KEY: KEY_2, PIXGATE_SECRETS_KEY_PREVIOUS: KEY_1 });
  const after = await prefixes();
  assert.is(after.size, 1);
  assert.is.not([...after][0], [...before][0], 'sealed again under the new key');
  // and still works
  const token = await server!.client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials' },
    auth: `Basic ${Buffer.from(`${acme.clientId}:${acme.clientSecret}`).toString('base64')}`,
  });
  assert.is(token.status, 200, token.text);
  await server!.close();
  server = undefined;
  try {
    server = await startTestServer({ PIXGATE_SECRETS_KEY: KEY_1 }, { ...place, backgroundJobs: false });
    assert.unreachable('a server without the key the secrets were sealed under started');
  } catch (error) {
    assert.instance(error, SealedWithAnotherKey);
    assert.is((error as SealedWithAnotherKey).sealedKeyId, [...after][0]);
  }
  await restart({ PIXGATE_SECRETS_KEY: KEY_2 });
});

test.run();
