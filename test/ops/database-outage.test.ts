// Two server processes (the bundle, as `make run` starts it) on one Postgres, under load,
// while the database goes away the three ways production loses it: a restart (every
// connection reset, new ones refused for a while), a network partition (every byte swallowed,
// no FIN, no reset) and Postgres ending the sessions (pg_terminate_backend). The network
// breaks in a TCP proxy of this test between the processes and the machine's Postgres, which
// is shared and never restarted; only this file's own database's sessions are terminated.
// Afterwards: both processes still run, both are ready again within 30 s, every charge,
// payment and cob they acknowledged is stored, every other answer was a 503 in its API's
// format (never a 500, never a 2xx for what was not stored), and the ledger adds up.
// Needs Postgres (DATABASE_URL): the embedded database lives in one process.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../src/db/database';
import { spawnServer } from '../support/bundle';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startPgProxy, type PgProxy } from '../support/pg-proxy';
import { freePort, TestClient, type TestResponse } from '../support/server';
import { postgresOnly } from '../support/skip';

const url = process.env.DATABASE_URL;
const database = `pixgate_outage_${randomBytes(4).toString('hex')}`;

interface Process {
  name: string;
  child: ChildProcess;
  client: TestClient;
  output: string[];
}

let proxy: PgProxy;
let a: Process;
let b: Process;
let company: TestCompany;
let token: string;

function databaseUrl(base: string, name: string): string {
  const parsed = new URL(base);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin(statement: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
}

async function start(name: string): Promise<Process> {
  const port = await freePort();
  const child = spawnServer({
    PORT: String(port),
    DATABASE_URL: databaseUrl(proxy.url, database),
    LOG_LEVEL: 'warn',
    // Short bounds, so the partition is found in seconds; the connect timeout stays long
    // enough for a start on a busy machine (the validators compile while it connects).
    PIXGATE_DB_CONNECT_TIMEOUT_MS: '10000',
    PIXGATE_DB_STATEMENT_TIMEOUT_MS: '3000',
    PIXGATE_DB_KEEPALIVE_MS: '1000',
    PIXGATE_REQUEST_TIMEOUT_MS: '6000',
    PIXGATE_WEBHOOK_TIMEOUT_MS: '2000',
  });
  const output: string[] = [];
  let text = '';
  const keep = (d: Buffer) => {
    text += d;
    if (output.length < 2000) output.push(String(d));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(text)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server ${name} did not start: ${text}`);
    await sleep(50);
  }
  return { name, child, client: new TestClient(`http://127.0.0.1:${port}`), output };
}

async function stop(p: Process | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  const exited = new Promise((ok) => p.child.once('exit', ok));
  p.child.kill('SIGTERM');
  await exited;
}

test.before(async () => {
  if (!url) return;
  proxy = await startPgProxy(url);
  await admin(`create database "${database}"`);
  a = await start('a');
  b = await start('b');
  company = await createCompany(a.client);
  token = await pixToken(a.client, company, 'cob.read cob.write');
});

test.after(async () => {
  if (!url) return;
  proxy?.heal();
  await Promise.all([stop(a), stop(b)]);
  await proxy?.close();
  await admin(`drop database if exists "${database}" with (force)`);
});

// What the load was told.
interface Outcomes {
  charges: string[];
  payments: { correlationID: string; endToEndId: string }[];
  cobs: string[];
  unavailable: number;
  wrong: string[];
}

const PLATFORM_503 = { error: 'The service is temporarily unavailable; try again shortly' };

// Anything but success must be a 503 in the API's own format, with Retry-After.
function check(res: TestResponse, api: 'platform' | 'pix', what: string, outcomes: Outcomes): boolean {
  if (res.status >= 200 && res.status < 300) return true;
  const problem = api === 'pix' && res.body?.type === 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel';
  const platform = api === 'platform' && JSON.stringify(res.body) === JSON.stringify(PLATFORM_503);
  if (res.status === 503 && (problem || platform) && res.headers.get('retry-after') === '5') outcomes.unavailable++;
  else outcomes.wrong.push(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return false;
}

// A request that could not be sent or answered at all (the process died) is wrong too.
async function send(p: Process, run: (c: TestClient) => Promise<TestResponse>): Promise<TestResponse> {
  try {
    return await run(p.client);
  } catch (error) {
    return { status: 0, headers: new Headers(), body: undefined, text: `${p.name}: ${(error as Error).message}` };
  }
}

const payer = { name: 'Joao Souza', taxID: '268.015.731-10' };

// One worker: a charge through one process, paid through the other, and a cob; until stopped.
async function load(from: Process, to: Process, outcomes: Outcomes, running: () => boolean): Promise<void> {
  for (let n = 0; running(); n++) {
    const correlationID = `${from.name}-${n}-${randomBytes(3).toString('hex')}`;
    const body = { correlationID, value: 100 + n, comment: 'carga' };
    const created = await send(from, (c) => c.post('/api/v1/charge', body, { auth: company.appID }));
    if (check(created, 'platform', `charge ${correlationID}`, outcomes)) {
      outcomes.charges.push(correlationID);
      const brCode = created.body.charge.brCode;
      const paid = await send(to, (c) => c.post('/api/v1/sandbox/pay', { brCode, payer }));
      if (check(paid, 'platform', `payment of ${correlationID}`, outcomes))
        outcomes.payments.push({ correlationID, endToEndId: paid.body.endToEndId });
    }
    const txid = `${from.name}${n}x${randomBytes(12).toString('hex')}`.slice(0, 35);
    const cob = { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: company.pixKey };
    const put = await send(to, (c) => c.put(`/pix/v2/cob/${txid}`, cob, { auth: token }));
    if (check(put, 'pix', `cob ${txid}`, outcomes)) outcomes.cobs.push(txid);
    await sleep(20);
  }
}

// Both processes ready again (a 503 meanwhile), within 30 s.
async function untilBothReady(what: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (const p of [a, b]) {
    for (;;) {
      const res = await send(p, (c) => c.get('/readyz'));
      if (res.status === 200) break;
      assert.is(res.status, 503, `${p.name} readiness after ${what}: ${res.text}`);
      if (Date.now() > until) assert.unreachable(`${p.name} not ready within 30 s of ${what}`);
      await sleep(200);
    }
  }
}

async function terminateOwnSessions(): Promise<number> {
  const { rows } = await admin(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [database],
  );
  return rows.length;
}

postgresOnly(
  'two processes under load ride out a restart, a partition and terminated sessions; nothing acknowledged is lost',
  async () => {
    const outcomes: Outcomes = { charges: [], payments: [], cobs: [], unavailable: 0, wrong: [] };
    let running = true;
    const workers = [load(a, b, outcomes, () => running), load(b, a, outcomes, () => running)];
    try {
      await sleep(1500);
      // A restart: every connection reset, nothing accepted for 3 s.
      await proxy.restart(3000);
      await untilBothReady('a restart');
      await sleep(1000);
      // A partition of 8 s: longer than a request may wait.
      proxy.partition();
      await sleep(8000);
      proxy.heal();
      await untilBothReady('a partition');
      await sleep(1000);
      // Postgres ends the sessions ("terminating connection due to administrator command").
      assert.ok((await terminateOwnSessions()) >= 2, 'the processes had sessions');
      await untilBothReady('terminated sessions');
      await sleep(1000);
    } finally {
      // Stopped also when an outage failed the test, so that the file ends.
      running = false;
      await Promise.all(workers);
    }

    console.log(
      `note: acknowledged ${outcomes.charges.length} charges, ${outcomes.payments.length} payments, ${outcomes.cobs.length} cobs; ${outcomes.unavailable} answers were 503`,
    );
    assert.equal(outcomes.wrong, [], 'every answer was a success or a 503 in its format');
    for (const p of [a, b]) assert.is(p.child.exitCode, null, `${p.name} exited: ${p.output.join('').slice(-3000)}`);
    assert.ok(outcomes.unavailable > 0, 'the outages were met by the load');
    assert.ok(outcomes.payments.length > 0 && outcomes.cobs.length > 0, JSON.stringify(outcomes).slice(0, 500));

    const direct = await openDatabase({ url: databaseUrl(url!, database) });
    try {
      const charges = await direct.db
        .selectFrom('charges')
        .select(['correlation_id', 'txid', 'status'])
        .where('company_id', '=', company.companyId)
        .execute();
      const byCorrelation = new Map(charges.map((c) => [c.correlation_id, c.status]));
      const txids = new Set(charges.map((c) => c.txid));
      for (const id of outcomes.charges) assert.ok(byCorrelation.has(id), `acknowledged charge ${id} is stored`);
      for (const { correlationID } of outcomes.payments)
        assert.is(byCorrelation.get(correlationID), 'CONCLUIDA', `the paid charge ${correlationID} is completed`);
      for (const txid of outcomes.cobs) assert.ok(txids.has(txid), `acknowledged cob ${txid} is stored`);
      const pix = await direct.db
        .selectFrom('pix_received')
        .select('end_to_end_id')
        .where(
          'end_to_end_id',
          'in',
          outcomes.payments.map((p) => p.endToEndId),
        )
        .execute();
      assert.is(pix.length, outcomes.payments.length, 'every acknowledged payment is stored');
      await auditLedger(direct.db);
    } finally {
      await direct.close();
    }
    // And they serve as before.
    for (const p of [a, b]) {
      const res = await p.client.post(
        '/api/v1/charge',
        { correlationID: `after-${p.name}`, value: 100, comment: 'x' },
        { auth: company.appID },
      );
      assert.is(res.status, 200, `${p.name}: ${res.text}`);
    }
  },
);

test.run();
