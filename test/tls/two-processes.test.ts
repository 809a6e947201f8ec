// Two server processes (the bundle, as `make run` starts it) on one Postgres, mutual TLS
// required: a certificate revoked through one process is refused by the other on the very next
// request, though the other had it cached, over a connection opened before the revocation. Both
// processes share the one sandbox CA made by whichever started first. Needs Postgres.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer } from '../support/bundle';
import { createCompany, type TestCompany } from '../support/fixtures';
import { freePort, TestClient } from '../support/server';
import { postgresOnly } from '../support/skip';
import { TlsClient } from './support';

const url = process.env.DATABASE_URL;
const database = `pixgate_mtls_${randomBytes(4).toString('hex')}`;

interface Process {
  child: ChildProcess;
  client: TestClient;
  tlsUrl: string;
}

let a: Process;
let b: Process;
let company: TestCompany;
const clients: TlsClient[] = [];

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function start(): Promise<Process> {
  const [port, tlsPort] = [await freePort(), await freePort()];
  const target = new URL(url!);
  target.pathname = `/${database}`;
  const child = spawnServer({
    PORT: String(port),
    DATABASE_URL: target.toString(),
    LOG_LEVEL: 'warn',
    PIXGATE_COUNT_STATEMENTS: 'true',
    PIXGATE_TLS: 'on',
    PIXGATE_TLS_PORT: String(tlsPort),
    PIXGATE_MTLS: 'required',
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, client: new TestClient(`http://127.0.0.1:${port}`), tlsUrl: `https://127.0.0.1:${tlsPort}` };
}

async function stop(p: Process | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  const exited = new Promise((ok) => p.child.once('exit', ok));
  p.child.kill('SIGTERM');
  await exited;
}

test.before(async () => {
  if (!url) return;
  await admin(`create database "${database}"`);
  [a, b] = await Promise.all([start(), start()]);
  company = await createCompany(a.client);
});
test.after(async () => {
  for (const c of clients) c.close();
  if (!url) return;
  await Promise.all([stop(a), stop(b)]);
  await admin(`drop database if exists "${database}"`);
});

postgresOnly('both processes serve the one CA', async () => {
  const [caA, caB] = await Promise.all([a.client.get('/sandbox/ca.pem'), b.client.get('/sandbox/ca.pem')]);
  assert.is(caA.text, caB.text);
});

postgresOnly('a certificate revoked through one process is refused at once by the other', async () => {
  const ca = (await b.client.get('/sandbox/ca.pem')).text;
  for (let round = 0; round < 5; round++) {
    const made = await a.client.post(
      `/api/v1/application/${company.clientId}/certificates`,
      { generateKey: true },
      { auth: company.appID },
    );
    assert.is(made.status, 201, made.text);
    const onB = new TlsClient(b.tlsUrl, ca, { cert: made.body.certificate.certificate, key: made.body.privateKey });
    clients.push(onB);
    const token = await onB.token(company.clientId, company.clientSecret);
    assert.is(token.status, 200, token.text);
    const list = () =>
      onB.request('GET', '/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z', {
        auth: `Bearer ${token.body.access_token}`,
      });
    assert.is((await list()).status, 200);
    const cached = await list();
    assert.is(cached.status, 200, cached.text);
    assert.is(cached.headers['x-db-statements'], '1', 'b serves the application and certificate from its caches');
    const revoked = await a.client.delete(
      `/api/v1/application/${company.clientId}/certificates/${made.body.certificate.id}`,
      { auth: company.appID },
    );
    assert.is(revoked.status, 200, revoked.text);
    const refused = await list();
    assert.is(refused.status, 401, `round ${round}: the revoked certificate still worked on the other process`);
    assert.match(refused.body.detail, /revoked/);
  }
});

test.run();
