// A typed client of both APIs, generated from the specs this server serves, with nothing
// written by hand but this program:
//
//   npx openapi-typescript http://localhost:8080/docs/specs/platform.yaml -o examples/types/platform.d.ts
//   npx openapi-typescript http://localhost:8080/docs/specs/pix.yaml -o examples/types/pix.d.ts
//   PIXGATE_URL=http://localhost:8080 npx tsx examples/typed-client.ts
//
// It makes a sandbox company (or uses APP_ID, CLIENT_ID and CLIENT_SECRET), creates a charge
// (platform API), reads it, gets a Pix API token, reads the same charge as a cob, pays it as an
// outside payer (sandbox), reads the Pix and refunds part of it (Pix API). A test runs it
// against a server in CI (test/clients/typed-client.test.ts), type-checked first.
import createClient from 'openapi-fetch';
import type { paths as PixPaths } from './types/pix';
import type { paths as PlatformPaths } from './types/platform';

const baseUrl = process.env.PIXGATE_URL ?? 'http://localhost:8080';
const platform = createClient<PlatformPaths>({ baseUrl });
const pix = createClient<PixPaths>({ baseUrl });

// Fails with what the server said (both APIs answer errors in their own format).
function ok<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${step}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

async function credentials(): Promise<{ appID: string; clientId: string; clientSecret: string }> {
  const { APP_ID, CLIENT_ID, CLIENT_SECRET } = process.env;
  if (APP_ID && CLIENT_ID && CLIENT_SECRET) return { appID: APP_ID, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
  const made = ok(
    'sandbox company',
    await platform.POST('/api/v1/sandbox/companies', { body: { name: 'Padaria Boa Vista' } }),
  );
  return made.application;
}

const { appID, clientId, clientSecret } = await credentials();
const correlationID = `pedido-${Date.now()}`;

// 1. A charge of R$ 12.34 (type, expiry and the rest keep their defaults).
const created = ok(
  'create charge',
  await platform.POST('/api/v1/charge', {
    headers: { Authorization: appID },
    body: {
      correlationID,
      value: 1234,
      comment: 'Pedido 1',
      customer: { name: 'Maria Silva', taxID: '529.982.247-25' },
    },
  }),
);
console.log(
  `charge ${created.charge.correlationID}: ${created.charge.status}, pay at ${created.charge.paymentLinkUrl}`,
);

// 2. Read it back.
const read = ok(
  'read charge',
  await platform.GET('/api/v1/charge/{id}', {
    headers: { Authorization: appID },
    params: { path: { id: correlationID } },
  }),
);

// 3. A Pix API token with the scopes used below (client credentials, HTTP Basic, form body).
const token = ok(
  'token',
  await pix.POST('/oauth/token', {
    headers: {
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: { grant_type: 'client_credentials', scope: 'cob.read cob.write pix.read pix.write' },
    bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
  }),
);
const bearer = { Authorization: `Bearer ${token.access_token}` };

// 4. The same charge as the standard's cob (its transactionID is the txid).
const cob = ok(
  'read cob',
  await pix.GET('/pix/v2/cob/{txid}', { headers: bearer, params: { path: { txid: read.charge.transactionID } } }),
);
console.log(`cob ${cob.txid}: ${cob.status}, R$ ${cob.valor.original}, expires in ${cob.calendario.expiracao} s`);

// 5. An outside payer pays the BR Code (sandbox).
const paid = ok(
  'pay',
  await platform.POST('/api/v1/sandbox/pay', {
    body: { brCode: read.charge.brCode, payer: { name: 'Joao Souza', taxID: '268.015.731-10' } },
  }),
);

// 6. The Pix received, as the Pix API shows it.
const received = ok(
  'read pix',
  await pix.GET('/pix/v2/pix/{e2eid}', { headers: bearer, params: { path: { e2eid: paid.endToEndId } } }),
);
console.log(`pix ${received.endToEndId}: R$ ${received.valor} for txid ${received.txid}`);

// 7. Refund R$ 5.00 of it.
const refund = ok(
  'refund',
  await pix.PUT('/pix/v2/pix/{e2eid}/devolucao/{id}', {
    headers: bearer,
    params: { path: { e2eid: paid.endToEndId, id: `estorno${Date.now()}` } },
    body: { valor: '5.00' },
  }),
);
console.log(`refund ${refund.id}: R$ ${refund.valor}, ${refund.status}`);

// A cob of the Pix API with calendario {} (expiracao keeps its default of one day).
const other = ok(
  'create cob',
  await pix.POST('/pix/v2/cob', {
    headers: bearer,
    body: { calendario: {}, valor: { original: '1.00' }, chave: cob.chave },
  }),
);
console.log(`cob ${other.txid}: ${other.status}, expires in ${other.calendario.expiracao} s`);
