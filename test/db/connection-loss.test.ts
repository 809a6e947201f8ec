// The server's connections to Postgres really lost, under a running server: Postgres ending
// its sessions (pg_terminate_backend, "terminating connection due to administrator command"),
// every connection reset and new ones refused for a while (a restart, as a proxy in the test
// makes it), and a partition that swallows every byte without a FIN or reset. The process
// must live through each (an unheard connection error would end this test's process), answer
// 503 meanwhile, never hang, and serve again on new connections once Postgres is back, with
// its caches dropped (a change may have been missed meanwhile). Postgres only: the embedded
// database has no connection to lose. The machine's Postgres is shared: only this file's own
// sessions are terminated, and the restart and partition happen in the proxy.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { channelOf } from '../../src/db/change-feed';
import { basic, createCompany, type TestCompany } from '../support/fixtures';
import { startPgProxy, type PgProxy } from '../support/pg-proxy';
import { startTestServer, type TestResponse, type TestServer } from '../support/server';
import { postgresOnly } from '../support/skip';

const url = process.env.DATABASE_URL;
let proxy: PgProxy;
let server: TestServer;
let company: TestCompany;

test.before(async () => {
  if (!url) return;
  proxy = await startPgProxy(url);
  // The proxy shares this process's event loop, which the server's start keeps busy for
  // seconds (compiling validators while it connects): a connect timeout shorter than that
  // would expire before the proxy could pass the handshake.
  server = await startTestServer(
    {
      PIXGATE_DB_CONNECT_TIMEOUT_MS: '10000',
      PIXGATE_DB_STATEMENT_TIMEOUT_MS: '2000',
      PIXGATE_DB_KEEPALIVE_MS: '1000',
      PIXGATE_REQUEST_TIMEOUT_MS: '5000',
      PIXGATE_WEBHOOK_TIMEOUT_MS: '1000',
    },
    { databaseUrl: proxy.url, backgroundJobs: false },
  );
  company = await createCompany(server.client);
  await sql`
    create function slow_charges() returns trigger language plpgsql as $$
    begin
      if new.correlation_id like 'slow%' then perform pg_sleep(3); end if;
      return new;
    end $$`.execute(server.database.db);
  await sql`create trigger slow_charges before insert on charges
    for each row execute function slow_charges()`.execute(server.database.db);
});

let restarting: Promise<void> | undefined;

test.after(async () => {
  if (!url) return;
  // A test that failed midway leaves Postgres reachable again before the server's close.
  proxy.heal();
  await restarting;
  await server.close();
  await proxy.close();
});

const alnum = (n: number) => randomBytes(n).toString('hex').slice(0, n);
const charge = (correlationID: string) =>
  server.client.post('/api/v1/charge', { correlationID, value: 500, comment: 'x' }, { auth: company.appID });
// Needs the application (cached) and one statement of its own.
const probe = () => server.client.get('/api/v1/charge/not-a-charge', { auth: company.appID });

function assertUnavailable(res: TestResponse, what: string): void {
  assert.is(res.status, 503, `${what}: ${res.status} ${res.text}`);
  assert.equal(res.body, { error: 'The service is temporarily unavailable; try again shortly' }, what);
  assert.is(res.headers.get('retry-after'), '5', what);
}

// Until the server answers `expected` again; every answer meanwhile must be a proper 503 (the
// readiness probe's own 503 for /readyz).
async function untilServed(send: () => Promise<TestResponse>, expected: number, what: string): Promise<number> {
  let unavailable = 0;
  for (const until = Date.now() + 30_000; ;) {
    const res = await send();
    if (res.status === expected) return unavailable;
    if (what === 'readiness') assert.is(res.status, 503, `${what}: ${res.text}`);
    else assertUnavailable(res, what);
    unavailable++;
    if (Date.now() > until) assert.unreachable(`${what}: not served again within 30 s`);
    await sleep(100);
  }
}

async function untilLive(live: boolean): Promise<void> {
  for (const until = Date.now() + 30_000; server.database.changes.live !== live;) {
    if (Date.now() > until) assert.unreachable(`the change feed did not turn ${live ? 'live' : 'down'} within 30 s`);
    await sleep(50);
  }
}

// This file's sessions only: the pool's (named after the schema) and the change feed's (named
// after its channel).
async function terminateOwnSessions(): Promise<number> {
  const schema = server.database.schema!;
  const feed = `pxl:${createHash('sha1').update(channelOf(schema)).digest('hex').slice(0, 8)}/%`;
  const admin = new pg.Client({ connectionString: url });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const { rows } = await admin.query(
      `select pg_terminate_backend(pid) as ok from pg_stat_activity
        where pid <> pg_backend_pid() and (application_name = $1 or application_name like $2)`,
      [`pixgate-${schema}`, feed],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

// The credentials are cached while the change feed listens: a second probe sends one statement.
async function assertCredentialsCached(): Promise<void> {
  assert.is((await probe()).status, 404);
  assert.is((await probe()).headers.get('x-db-statements'), '1', 'the credentials come from the cache');
}

postgresOnly(
  'Postgres ending the sessions: 503 for the request it cut, then served again on new connections',
  async () => {
    // Several connections in the pool, one of them busy with a statement when it is cut.
    await Promise.all([probe(), probe(), probe(), probe()]);
    await assertCredentialsCached();
    const cut = charge(`slow-${alnum(8)}`);
    await sleep(500);
    assert.ok((await terminateOwnSessions()) >= 2, 'the pool and the change feed had sessions');
    assertUnavailable(await cut, 'the request whose statement was cut');
    await untilServed(() => charge(`after-${alnum(8)}`), 200, 'a new charge');
    assert.is((await server.client.get('/readyz')).status, 200);
    // The feed came back, and what was cached before it went is not trusted: read again.
    await untilLive(true);
    const first = await probe();
    assert.is(first.status, 404);
    assert.is(first.headers.get('x-db-statements'), '2', 'the credentials are read again after the feed came back');
    await assertCredentialsCached();
  },
);

postgresOnly('a restart (every connection reset, new ones refused for 2 s): 503 meanwhile, then served', async () => {
  await Promise.all([probe(), probe(), probe()]);
  restarting = proxy.restart(2000);
  const during = await charge(`down-${alnum(8)}`);
  assertUnavailable(during, 'a charge while Postgres restarts');
  assert.is((await server.client.get('/readyz')).status, 503);
  assert.is((await server.client.get('/healthz')).status, 200);
  await restarting;
  await untilServed(() => server.client.get('/readyz'), 200, 'readiness');
  await untilServed(() => charge(`back-${alnum(8)}`), 200, 'a new charge');
  await untilLive(true);
});

postgresOnly('a partition (no FIN, no reset): every request ends with 503 before it heals, then served', async () => {
  await Promise.all([probe(), probe(), probe()]);
  let partitioned = true;
  proxy.partition();
  // A partition that never heals on its own: the test heals it once everything answered, or
  // after 60 s, so that a hung request fails the test instead of hanging it.
  const safety = setTimeout(() => ((partitioned = false), proxy.heal()), 60_000);
  const answers = await Promise.all(
    [
      charge(`cut-${alnum(8)}`),
      probe(),
      server.client.get('/readyz'),
      charge(`cut-${alnum(8)}`),
      server.client.request('POST', '/oauth/token', {
        form: { grant_type: 'client_credentials' },
        auth: basic(company.clientId, company.clientSecret),
      }),
    ].map((p) => p.then((res) => ({ res, whilePartitioned: partitioned }))),
  );
  await untilLive(false);
  clearTimeout(safety);
  partitioned = false;
  proxy.heal();
  for (const [i, { res, whilePartitioned }] of answers.entries()) {
    assert.ok(whilePartitioned, `request ${i} answered only after the partition healed`);
    assert.is(res.status, 503, `request ${i}: ${res.text}`);
  }
  assertUnavailable(answers[0]!.res, 'a charge during the partition');
  assert.equal(answers[4]!.res.body.error, 'temporarily_unavailable', 'the token endpoint answers as OAuth2 does');
  await untilServed(() => server.client.get('/readyz'), 200, 'readiness');
  await untilServed(() => charge(`healed-${alnum(8)}`), 200, 'a new charge');
  await untilLive(true);
  const stored = await server.database.db
    .selectFrom('charges')
    .select('correlation_id')
    .where('correlation_id', 'like', 'cut-%')
    .execute();
  assert.equal(stored, [], 'nothing of the requests answered 503 was stored');
});

test.run();
