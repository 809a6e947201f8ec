// The directory of Pix participants (GET /api/v1/psp) and what reads it, and the webhook
// events and source addresses: every answer checked against the bancos-brasileiros file itself
// and the spec, not against a copy of either.
import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { loadDereferencedSpec } from '../support/spec';

interface Entry {
  ISPB: string;
  COMPE: string;
  ShortName: string;
  PixType: string | null;
}
const register = createRequire(import.meta.url)('bancos-brasileiros') as Entry[];

let server: TestServer;
let company: TestCompany;
const SOURCES = '203.0.113.10, 198.51.100.0/24,2001:db8::1';

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_SOURCE_IPS: SOURCES });
  company = await createCompany(server.client);
});
test.after(async () => {
  await server.close();
});

const psps = async (query = '') => {
  const res = await server.client.get(`/api/v1/psp${query}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.success, true);
  return res.body.psps as Array<{ name: string; ispb: string; code: string; compe: string | null }>;
};

test('every Pix participant of the register is listed, with this server first', async () => {
  const all = await psps();
  const participants = register.filter((e) => e.PixType);
  assert.is(all.length, participants.length + 1);
  assert.equal(all[0], { name: 'pixgate sandbox PSP', ispb: '99999999', code: '99999999', compe: null });
  for (const e of participants.slice(0, 50)) {
    const p = all.find((x) => x.ispb === e.ISPB);
    assert.ok(p, `ISPB ${e.ISPB} listed`);
    assert.equal(p, { name: e.ShortName.trim(), ispb: e.ISPB, code: e.ISPB, compe: e.COMPE });
  }
  assert.not.ok(
    all.some((p) => register.find((e) => e.ISPB === p.ispb && !e.PixType)),
    'institutions outside the Pix are not listed',
  );
});

test('filters: ISPB and COMPE with or without leading zeros, a part of the name without accents', async () => {
  assert.equal(await psps('?ispb=00000000'), await psps('?ispb=0'));
  assert.equal(
    (await psps('?ispb=18236120')).map((p) => p.name),
    ['NU PAGAMENTOS - IP'],
  );
  assert.equal(
    (await psps('?compe=1')).map((p) => p.ispb),
    ['00000000'],
  );
  const itau = await psps('?name=itau%20unibanco');
  assert.ok(
    itau.some((p) => p.ispb === '60701190' && p.name === 'ITAÚ UNIBANCO S.A.'),
    JSON.stringify(itau),
  );
  assert.ok(itau.every((p) => /ITA[UÚ]/i.test(p.name) || p.name.length > 0));
  assert.equal(await psps('?name=brasil&compe=001'), [
    { name: 'BCO DO BRASIL S.A.', ispb: '00000000', code: '00000000', compe: '001' },
  ]);
  assert.equal(await psps('?ispb=12345678'), []);
  const bad = await server.client.get('/api/v1/psp?compe=abc', { auth: company.appID });
  assert.is(bad.status, 400);
});

test('the outside world banks at real institutions: a key lookup names one of the register', async () => {
  const res = await server.client.get('/api/v1/pix-keys/fornecedor@tecidosbrasil.com.br/check', {
    auth: company.appID,
  });
  assert.is(res.status, 200, res.text);
  const psp = res.body.owner.psp as string;
  assert.ok(
    register.some((e) => e.PixType && e.ShortName.trim() === psp),
    `${psp} is a Pix participant of the register`,
  );
});

test("webhook events are the spec's WebhookEvent, all of them; the IPs are the configured ones", async () => {
  const spec = await loadDereferencedSpec('platform');
  const res = await server.client.get('/api/v1/webhook/events', { auth: company.appID });
  assert.is(res.status, 200, res.text);
  assert.equal(
    res.body.events.map((e: { name: string }) => e.name).sort(),
    [...spec.components.schemas.WebhookEvent.enum].sort(),
  );
  const ips = await server.client.get('/api/v1/webhook/ips', { auth: company.appID });
  assert.equal(ips.body, { ips: ['203.0.113.10', '198.51.100.0/24', '2001:db8::1'] });
});

test('PIXGATE_WEBHOOK_SOURCE_IPS: empty by default; a value that is no address stops the server', () => {
  assert.equal(loadConfig({}).webhooks.sourceIps, []);
  for (const bad of ['localhost', '10.0.0.0/33', '1.2.3.4/8/9', '::g'])
    assert.throws(() => loadConfig({ PIXGATE_WEBHOOK_SOURCE_IPS: bad }), /PIXGATE_WEBHOOK_SOURCE_IPS/);
});

test.run();
