// The merchant page behind an onboarding's link: the register's data and its representatives
// with their confirmation state, in Portuguese and script-free; after a terminal state it
// sends the merchant to redirectUrl after 5 seconds (a meta refresh), never to a non-http one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { codes, lastCode, nextCnpj } from './support';

let server: TestServer;
let c: TestCompany;

test.before(async () => {
  server = await startTestServer();
  c = await createCompany(server.client);
});
test.after(async () => server.close());

const REDIRECT = 'https://www.tecidosbrasil.com.br/cadastro/fim?origem=pixgate&x=1';

async function onboard(body: Record<string, unknown> = {}) {
  const taxID = nextCnpj();
  const res = await server.client.post(
    '/api/v1/kyc/onboarding',
    {
      taxID,
      correlationID: `page-${taxID}`,
      representatives: [
        { taxID: '07149875300', name: 'Carla <b>Ribeiro</b>', email: 'carla@tecidos.com.br', phone: '+5511965432187' },
      ],
      ...body,
    },
    { auth: c.appID },
  );
  assert.is(res.status, 201, res.text);
  return { taxID, o: res.body.onboarding };
}

const page = (link: string) => server.client.get(new URL(link).pathname);
const REFRESH = /<meta http-equiv="refresh" content="5;url=([^"]*)">/;

test('the link answers the merchant page: register data, representatives and their confirmation', async () => {
  const { taxID, o } = await onboard({ redirectUrl: REDIRECT });
  const res = await page(o.link);
  assert.is(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  assert.match(res.headers.get('content-security-policy') ?? '', /^default-src 'none'/);
  assert.is(res.headers.get('referrer-policy'), 'no-referrer');
  const html = res.text;
  assert.match(html, /<html lang="pt-BR">/);
  assert.ok(html.includes(`Cadastro de ${o.tradeName}`));
  assert.ok(html.includes(o.officialName));
  const cnpj = `${taxID.slice(0, 2)}.${taxID.slice(2, 5)}.${taxID.slice(5, 8)}/${taxID.slice(8, 12)}-${taxID.slice(12)}`;
  assert.ok(html.includes(cnpj), 'the CNPJ, formatted');
  assert.match(html, /Em preenchimento/);
  assert.ok(html.includes('Carla &lt;b&gt;Ribeiro&lt;/b&gt;'), 'names are escaped');
  assert.ok(html.includes('c***@tecidos.com.br') && html.includes('+55 (11) *****-2187'), 'addresses masked');
  assert.not.ok(html.includes('carla@tecidos.com.br'), 'the full address is not on the page');
  assert.is((html.match(/não confirmado/g) ?? []).length, 2);
  assert.not.match(html, REFRESH, 'no redirect before a terminal state');
  assert.not.match(html, /<script|<link|<img|src=/i, 'script-free, nothing loaded from elsewhere');

  // A confirmed e-mail shows as confirmed.
  const api = codes(server, c);
  const r = { correlationID: o.correlationID, reps: o.representatives };
  assert.is(await api.sendEmail(r), 'CODE_SENT');
  assert.is(await api.verifyEmail(r, await lastCode(server, o.representatives[0].id, 'EMAIL')), 'VERIFIED');
  const after = (await page(o.link)).text;
  assert.match(after, /c\*\*\*@tecidos\.com\.br<br><span class="ok">confirmado<\/span>/);
  assert.is((after.match(/não confirmado/g) ?? []).length, 1);
});

test('after each terminal state the page redirects to redirectUrl after 5 seconds', async () => {
  const { o } = await onboard({ redirectUrl: REDIRECT });
  const submitted = await server.client.post(
    `/api/v1/kyc/onboarding/${encodeURIComponent(o.correlationID)}/submit`,
    undefined,
    { auth: c.appID },
  );
  assert.is(submitted.status, 200, submitted.text);
  let html = (await page(o.link)).text;
  assert.is(REFRESH.exec(html)?.[1], REDIRECT.replace(/&/g, '&amp;'));
  assert.match(html, /Cadastro enviado para análise/);
  assert.match(html, /redirecionado em 5 segundos/);
  assert.ok(html.includes(`href="${REDIRECT.replace(/&/g, '&amp;')}"`), 'a link for when the refresh does not run');
  for (const [decision, text] of [
    ['REJECTED', /Cadastro reprovado/],
    ['APPROVED', /Cadastro aprovado/],
  ] as const) {
    const other = decision === 'APPROVED' ? await onboard({ redirectUrl: REDIRECT }) : { o };
    if (decision === 'APPROVED') {
      const s = await server.client.post(
        `/api/v1/kyc/onboarding/${encodeURIComponent(other.o.correlationID)}/submit`,
        undefined,
        { auth: c.appID },
      );
      assert.is(s.status, 200, s.text);
    }
    const reviewed = await server.client.post('/api/v1/sandbox/kyc/review', { link: other.o.link, decision });
    assert.is(reviewed.status, 200, reviewed.text);
    html = (await page(other.o.link)).text;
    assert.match(html, text);
    assert.match(html, REFRESH, `${decision} redirects`);
  }
});

test('a terminal onboarding without redirectUrl stays; only http(s) redirects are accepted', async () => {
  const { o } = await onboard();
  await server.client.post(`/api/v1/kyc/onboarding/${encodeURIComponent(o.correlationID)}/submit`, undefined, {
    auth: c.appID,
  });
  const html = (await page(o.link)).text;
  assert.match(html, /Cadastro enviado para análise/);
  assert.not.match(html, /http-equiv="refresh"/);
  for (const redirectUrl of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://files.example.com/x']) {
    const res = await server.client.post(
      '/api/v1/kyc/onboarding',
      { taxID: nextCnpj(), redirectUrl },
      { auth: c.appID },
    );
    assert.is(res.status, 400, `${redirectUrl}: ${res.text}`);
    assert.equal(res.body.details, [{ field: 'body.redirectUrl', message: 'must be an http or https URL' }]);
  }
});

test('an unknown link answers 404 in the API error format', async () => {
  for (const token of ['0123456789abcdef0123456789abcdef', 'not-a-token']) {
    const res = await server.client.get(`/kyc/onboarding/${token}`);
    assert.equal([res.status, res.body], [404, { error: 'Onboarding not found' }], token);
  }
});

test.run();
