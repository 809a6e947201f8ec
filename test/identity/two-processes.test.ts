// Two server processes (the bundle, as `make run` starts it) on one real Postgres: each
// caches the credentials and companies it reads, and what one process changes reaches the
// other at once. An application deleted through one process is refused by the other on the
// very next request (both APIs), and a company's sandbox clock moved through one is read by
// the other, as is a new default Pix key. Needs Postgres (DATABASE_URL): the embedded
// database lives in one process.
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { spawnServer } from '../support/bundle';
import { freePort, TestClient } from '../support/server';

const url = process.env.DATABASE_URL;
const database = `pixgate_two_${randomBytes(4).toString('hex')}`;

interface Process {
  child: ChildProcess;
  client: TestClient;
}

let a: Process;
let b: Process;
let company: TestCompany;

function databaseUrl(name: string): string {
  const parsed = new URL(url!);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

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
  const port = await freePort();
  const child = spawnServer({
    PORT: String(port),
    DATABASE_URL: databaseUrl(database),
    LOG_LEVEL: 'warn',
    PIXGATE_COUNT_STATEMENTS: 'true',
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, client: new TestClient(`http://127.0.0.1:${port}`) };
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
  // Started one after the other: the second finds the database migrated.
  a = await start();
  b = await start();
  company = await createCompany(a.client);
});
test.after(async () => {
  if (!url) return;
  await Promise.all([stop(a), stop(b)]);
  await admin(`drop database if exists "${database}"`);
});

// A probe that needs credentials and one statement of its own: the statements it sends say
// whether the credentials came from the process's cache (1) or were read (2).
const probe = (p: Process, auth: string) => p.client.get('/api/v1/charge/not-a-charge', { auth });

async function newApplication(): Promise<{ appID: string; clientId: string; clientSecret: string }> {
  const res = await a.client.post(
    '/api/v1/application',
    { accountId: company.accountId, application: { name: 'erp', type: 'API', scopes: ['CHARGE_GET', 'cob.read'] } },
    { auth: company.appID },
  );
  assert.is(res.status, 201, res.text);
  return res.body.application;
}

postgresOnly('an application deleted through one process is refused at once by the other', async () => {
  for (let round = 0; round < 10; round++) {
    const app = await newApplication();
    assert.is((await probe(b, app.appID)).status, 404);
    const cached = await probe(b, app.appID);
    assert.is(cached.status, 404);
    assert.is(cached.headers.get('x-db-statements'), '1', 'the second request is served from the cache');
    const removed = await a.client.delete('/api/v1/application', {
      body: { clientId: app.clientId },
      auth: company.appID,
    });
    assert.is(removed.status, 200, removed.text);
    const refused = await probe(b, app.appID);
    assert.is(refused.status, 401, `round ${round}: the deleted application still worked on the other process`);
  }
});

postgresOnly("a deleted application's bearer token is refused at once by the other process", async () => {
  const app = await newApplication();
  const bearer = await pixToken(a.client, app, 'cob.read');
  const read = () => b.client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z', { auth: bearer });
  assert.is((await read()).status, 200);
  assert.is((await read()).status, 200);
  await a.client.delete('/api/v1/application', { body: { clientId: app.clientId }, auth: company.appID });
  assert.is((await read()).status, 401);
});

postgresOnly("a company's sandbox clock moved through one process is read by the other at once", async () => {
  const clock = (p: Process) => p.client.get('/api/v1/sandbox/clock', { auth: company.appID });
  const before = (await clock(b)).body.offsetSeconds as number;
  assert.is((await clock(b)).body.offsetSeconds, before);
  const moved = await a.client.post('/api/v1/sandbox/clock/advance', { seconds: 3600 }, { auth: company.appID });
  assert.is(moved.status, 200, moved.text);
  assert.is((await clock(b)).body.offsetSeconds, before + 3600);
  // Another company's clock did not move.
  const other = await createCompany(b.client);
  assert.is((await clock(b)).body.offsetSeconds, before + 3600);
  assert.is((await b.client.get('/api/v1/sandbox/clock', { auth: other.appID })).body.offsetSeconds, 0);
});

postgresOnly('a new default Pix key set through one process is used by the other at once', async () => {
  const create = (p: Process, correlationID: string) =>
    p.client.post('/api/v1/charge', { correlationID, value: 100 }, { auth: company.appID });
  const keyOf = (res: Awaited<ReturnType<typeof create>>) => {
    assert.is(res.status, 200, res.text);
    return res.body.charge.pixKey as string;
  };
  // b caches the default key (its second creation reads no key).
  const first = keyOf(await create(b, 'key-cache-1'));
  const cached = await create(b, 'key-cache-2');
  assert.is(keyOf(cached), first);
  assert.is(cached.headers.get('x-db-statements'), '1', 'the default key came from the cache');
  for (let round = 0; round < 5; round++) {
    const made = await a.client.post('/api/v1/pix-keys', { type: 'EVP', key: randomUUID() }, { auth: company.appID });
    assert.is(made.status, 201, made.text);
    const key = made.body.key as string;
    const set = await a.client.put(`/api/v1/pix-keys/${encodeURIComponent(key)}/default`, {}, { auth: company.appID });
    assert.is(set.status, 200, set.text);
    assert.is(keyOf(await create(b, `key-cache-next-${round}`)), key, `round ${round}: b used the old default`);
  }
});

test.run();
