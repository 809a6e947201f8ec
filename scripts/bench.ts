// `make bench`: pixgate beside a bare Koa + pg route doing the least the same SQL needs
// (scripts/bench-bare.ts), in one process tree and one run, alternating runs of the two on
// each workload, on the embedded database and (when DATABASE_URL is set) on Postgres. Prints
// req/s, p99 and the ratio pixgate/bare for charge creation, charge read, PUT /pix/v2/cob and
// GET /qr/v2/{token}; then the start-up time on a new embedded data folder and the resident
// memory of the pixgate process after the load. pixgate runs as `make run` runs it: the
// bundle scripts/build.ts makes, built first.
// Settings: BENCH_SECONDS (per run, default 10), BENCH_WARMUP_SECONDS (per server and
// workload before its runs, default 3), BENCH_CONNECTIONS (50), BENCH_PAIRS (3),
// BENCH_ONLY (a regular expression: the workloads whose names match; default all),
// BENCH_SKIP (start-up,embedded: parts left out, e.g. for a quick Postgres-only run),
// BENCH_VERBOSE=1 (print each pair's figures too, and each run's CPU time per request of the
// server, of Postgres and of the load generator), BENCH_BUILD=0 (run dist/ as it is: an
// experiment edited into the bundle), BENCH_MODES (cold,steady: which tables to print;
// default both), BENCH_COLD_ANALYZE=0 (the cold runs without the early ANALYZE, see below), BENCH_TLS=1 or PIXGATE_MTLS=required (then
// pixgate runs each workload again over HTTPS with mutual TLS required, a client certificate
// and a bound token, on keep-alive connections as clients hold them, and the TLS figures are
// printed beside the plain ones).
// BENCH_MODE=webhooks: only the webhook figures (scripts/bench-webhooks.ts: latency from a
// payment to its webhook, p50/p99, order per charge, and the drain rate of a backlog), which
// the full run prints too unless BENCH_SKIP names `webhooks`.
// Targets (checked here by eye, never by a timed test): on Postgres, cold and steady, charge
// creation at 0.9x or more of the bare route with p99 at most 1.5x the bare route's; reads at
// 0.9x or more; GET /qr/v2/{token} at 0.8x or more of the bare route, which signs the same
// payload PS256 with a key of the same size; start-up under 2 s; RSS under 300 MB.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpsRequest } from 'node:https';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { adminQuery, cpuSeconds, createDatabase, dropDatabase, median, postgresCpuSeconds } from './bench-support';
import { webhookFigures } from './bench-webhooks';

const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const ONLY = new RegExp(process.env.BENCH_ONLY ?? '');
const SKIP = (process.env.BENCH_SKIP ?? '').split(',');
const VERBOSE = process.env.BENCH_VERBOSE === '1';
const MODES = (process.env.BENCH_MODES ?? 'cold,steady').split(',');
const COLD_ANALYZE = process.env.BENCH_COLD_ANALYZE !== '0';
const TLS = process.env.BENCH_TLS === '1' || process.env.PIXGATE_MTLS === 'required';
const WEBHOOKS_ONLY = process.env.BENCH_MODE === 'webhooks';
// The plain runs and the start-up measure pixgate as `make run` starts it: without TLS.
const PLAIN_ENV = { PIXGATE_TLS: 'off', PIXGATE_MTLS: 'off' };

interface Child {
  process: ChildProcess;
  url: string;
  output: () => string;
  // where its stdout goes (startChild's logToFile), removed by stopChild
  logFile?: string;
}

// pixgate as `make run` starts it: the bundle of scripts/build.ts, with SERVER_NODE_OPTIONS.
const PIXGATE = ['dist/main.js'];
// The bare route runs its TypeScript under tsx.
const BARE = ['--import', 'tsx', 'scripts/bench-bare.ts'];

// The Node.js options both servers run with: the Makefile's SERVER_NODE_OPTIONS (exported to
// `make bench`), else the same default.
const NODE_FLAGS = (process.env.SERVER_NODE_OPTIONS ?? '--max-semi-space-size=16 --v8-pool-size=1')
  .split(/\s+/)
  .filter(Boolean);

// `logToFile`: the child's stdout (pixgate's JSON log stream) goes to a file of its own, as a
// deployment sends it to a file or a collector, removed when the child is stopped; not read by
// this process, which also runs the load (a read run writes about 1 MB of log lines a second).
async function startChild(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  { logToFile = false } = {},
): Promise<Child> {
  const logFile = logToFile ? join(tmpdir(), `pixgate-bench-${randomBytes(6).toString('hex')}.log`) : undefined;
  const stdout = logFile ? openSync(logFile, 'a') : 'pipe';
  const child = spawn(process.execPath, [...NODE_FLAGS, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  if (typeof stdout === 'number') closeSync(stdout);
  let out = '';
  // Only the first lines are kept (the request log of a run would fill memory).
  const keep = (d: Buffer) => {
    if (out.length < 20_000) out += d;
  };
  child.stdout?.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 60_000;
  let port: string | undefined;
  while (!(port = ready.exec(out)?.[1])) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${args.join(' ')} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { process: child, url: `http://127.0.0.1:${port}`, output: () => out, ...(logFile ? { logFile } : {}) };
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode === null) {
    const exited = new Promise((ok) => child.process.once('exit', ok));
    child.process.kill('SIGTERM');
    await exited;
  }
  if (child.logFile) rmSync(child.logFile, { force: true });
}

function rssMiB(child: Child): number {
  const status = readFileSync(`/proc/${child.process.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function call(base: string, method: string, path: string, body?: unknown, auth?: string): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

interface Fixture {
  appID: string;
  clientId: string;
  clientSecret: string;
  bearer: string;
  key: string;
  chargeId: string;
  token: string;
}

// A company on pixgate, its credentials, one charge to read and one payload location.
async function fixture(pixgate: string): Promise<Fixture & { companyId: string; accountId: string }> {
  const made = await call(pixgate, 'POST', '/api/v1/sandbox/companies', { name: 'Bench' });
  const basic = Buffer.from(`${made.application.clientId}:${made.application.clientSecret}`).toString('base64');
  const token = await fetch(`${pixgate}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const charge = await call(
    pixgate,
    'POST',
    '/api/v1/charge',
    { correlationID: 'read-me', value: 1234 },
    made.application.appID,
  );
  const location = /\/qr\/v2\/([0-9a-f-]{36})/.exec(charge.brCode)?.[1];
  if (!location) throw new Error(`no payload location in ${charge.brCode}`);
  return {
    companyId: made.company.id,
    accountId: made.account.accountId,
    appID: made.application.appID,
    clientId: made.application.clientId,
    clientSecret: made.application.clientSecret,
    bearer: `Bearer ${token.access_token}`,
    key: made.pixKey.key,
    chargeId: charge.charge.correlationID,
    token: location,
  };
}

interface Workload {
  name: string;
  options: (base: string, f: Fixture, bare?: { charge: string; token: string }) => autocannon.Options;
}

let sequence = 0;
const unique = (prefix: string) =>
  `${prefix}${process.pid}x${(++sequence).toString(36)}${randomBytes(4).toString('hex')}`;

const WORKLOADS: Workload[] = [
  {
    name: 'POST /api/v1/charge',
    options: (base, f) => ({
      url: `${base}/api/v1/charge`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: f.appID },
      requests: [
        {
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ correlationID: unique('c'), value: 1234 }) }),
        },
      ],
    }),
  },
  {
    name: 'GET /api/v1/charge/{id}',
    options: (base, f, bare) => ({
      url: `${base}/api/v1/charge/${bare?.charge ?? f.chargeId}`,
      headers: { authorization: f.appID },
    }),
  },
  {
    name: 'PUT /pix/v2/cob/{txid}',
    options: (base, f) => ({
      url: base,
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: f.bearer },
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: `/pix/v2/cob/${unique('bench').slice(0, 35).padEnd(26, '0')}`,
            body: JSON.stringify({ calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: f.key }),
          }),
        },
      ],
    }),
  },
  {
    name: 'GET /qr/v2/{token}',
    options: (base, f, bare) => ({ url: `${base}/qr/v2/${bare?.token ?? f.token}` }),
  },
];

interface Run {
  rps: number;
  p99: number;
  errors: number;
}

// With BENCH_VERBOSE=1, where a run's CPU went per request: the server measured, Postgres,
// and this process (the load generator).
async function load(options: autocannon.Options, seconds = SECONDS, server?: Child): Promise<Run> {
  const pid = server?.process.pid;
  const before = VERBOSE && pid ? ([cpuSeconds(pid), postgresCpuSeconds(), process.cpuUsage()] as const) : undefined;
  const result = await autocannon({ connections: CONNECTIONS, duration: seconds, ...options });
  if (before && pid) {
    const n = result.requests.total || 1;
    const us = (s: number) => ((s * 1e6) / n).toFixed(0).padStart(4);
    const own = process.cpuUsage(before[2]);
    const path = String(options.url)
      .replace(/^http:\/\/[^/]+/, '')
      .slice(0, 40);
    const cpu = `server ${us(cpuSeconds(pid) - before[0])}, Postgres ${us(postgresCpuSeconds() - before[1])}`;
    console.log(`  ${path}: CPU per request, µs: ${cpu}, load generator ${us((own.user + own.system) / 1e6)}`);
  }
  const errors = result.non2xx + result.errors;
  if (errors)
    console.log(
      `  ${options.method ?? 'GET'} ${String(options.url)}: statuses ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`,
    );
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, errors };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

// Steady: each workload warmed up on both servers, then the tables analyzed. Cold: the
// servers and the database as they start, measured from their first request.
type Mode = 'steady' | 'cold';

async function compare(
  label: string,
  pixgate: Child,
  bare: Child,
  f: Fixture,
  seeded: { charge: string; token: string },
  settle: () => Promise<void>,
  mode: Mode = 'steady',
): Promise<Map<string, Run>> {
  const medians = new Map<string, Run>();
  console.log(`\n${label}: ${SECONDS} s per run, ${CONNECTIONS} connections, ${PAIRS} alternating pairs`);
  console.log(
    `${'operation'.padEnd(26)} ${pad('pixgate req/s', 14)} ${pad('p99', 6)} ${pad('bare req/s', 11)} ${pad('p99', 6)} ${pad('ratio', 6)}`,
  );
  for (const workload of WORKLOADS.filter((w) => ONLY.test(w.name))) {
    // Both servers first run the workload unmeasured, then the tables are analyzed: the runs
    // measure steady state. Without it the first server measured after an ANALYZE of nearly
    // empty tables kept, in each of its database sessions, generic plans made for them: a
    // creation's foreign-key checks scanned the whole locations table (4,000 scans reading
    // 20 million rows in one 10 s run), while the second server's sessions planned on tables
    // the first had grown. Warming up also compiles both servers' code before it is measured.
    if (mode === 'steady') {
      if (WARMUP_SECONDS > 0) {
        await load(workload.options(pixgate.url, f), WARMUP_SECONDS);
        await load(workload.options(bare.url, f, seeded), WARMUP_SECONDS);
      }
      await settle();
    }
    const ours: Run[] = [];
    const theirs: Run[] = [];
    for (let i = 0; i < PAIRS; i++) {
      ours.push(await load(workload.options(pixgate.url, f), SECONDS, pixgate));
      theirs.push(await load(workload.options(bare.url, f, seeded), SECONDS, bare));
      if (VERBOSE)
        console.log(
          `  pair ${i + 1}: pixgate ${ours[i]!.rps} (p99 ${ours[i]!.p99}), bare ${theirs[i]!.rps} (p99 ${theirs[i]!.p99})`,
        );
    }
    const rps = median(ours.map((r) => r.rps));
    const bareRps = median(theirs.map((r) => r.rps));
    medians.set(workload.name, { rps, p99: median(ours.map((r) => r.p99)), errors: 0 });
    const errors = ours.reduce((n, r) => n + r.errors, 0) + theirs.reduce((n, r) => n + r.errors, 0);
    console.log(
      `${workload.name.padEnd(26)} ${pad(rps, 14)} ${pad(median(ours.map((r) => r.p99)), 6)} ${pad(bareRps, 11)} ${pad(
        median(theirs.map((r) => r.p99)),
        6,
      )} ${pad((rps / bareRps).toFixed(2) + 'x', 6)}${errors ? `  (${errors} non-2xx/errors!)` : ''}`,
    );
  }
  if (mode === 'cold') return medians;
  const atEnd = rssMiB(pixgate);
  // And once the load has been over for 10 s: V8 gives back what the last run left in its heap.
  await new Promise((ok) => setTimeout(ok, 10_000));
  console.log(
    `pixgate resident memory after the runs: ${atEnd} MiB at their end, ${rssMiB(pixgate)} MiB 10 s later (target < 300 MiB)`,
  );
  return medians;
}

// One database: pixgate (as `make run` starts it) and the bare route beside it.
async function benchOn(kind: 'embedded' | 'postgres'): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-bench-'));
  const database = `pixgate_bench_${randomBytes(4).toString('hex')}`;
  let dbUrl = '';
  if (kind === 'postgres') {
    dbUrl = await createDatabase(process.env.DATABASE_URL!, database);
  }
  const pixgate = await startChild(
    PIXGATE,
    {
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: dbUrl,
      PIXGATE_DATA_DIR: dataDir,
      PIXGATE_PUBLIC_URL: 'http://localhost:8080',
      ...PLAIN_ENV,
    },
    /listening on http:\/\/localhost:(\d+)/,
    { logToFile: true },
  );
  let plain = new Map<string, Run>();
  let stopped = false;
  try {
    const f = await fixture(pixgate.url);
    const label = kind === 'postgres' ? 'Postgres (DATABASE_URL)' : 'embedded database';
    // The cold figures first: only then is the database new; the webhook figures last.
    if (!WEBHOOKS_ONLY) plain = await requestFigures({ kind, dbUrl, label, pixgate, f });
    if (!SKIP.includes('webhooks'))
      await webhookFigures(label, (method, path, body, auth) => call(pixgate.url, method, path, body, auth));
    if (WEBHOOKS_ONLY) return;
    if (TLS) {
      // The same database served again with TLS and mTLS required (an embedded data folder
      // has one process at a time).
      await stopChild(pixgate);
      stopped = true;
      await tlsFigures({ DATABASE_URL: dbUrl, PIXGATE_DATA_DIR: dataDir }, f, plain, () =>
        kind === 'postgres' ? analyze(dbUrl) : Promise.resolve(),
      );
    }
  } finally {
    if (!stopped) await stopChild(pixgate);
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') await dropDatabase(process.env.DATABASE_URL!, database);
  }
}

// Cold: a new database and both servers just started, no warm-up, each workload measured from
// its first request (so the first pairs include compiling each server's code). On Postgres the
// tables are first analyzed while nearly empty (the bench company, two charges), as
// autovacuum's first pass does to a new database once 50 rows changed: plans made then
// (generic plans of prepared statements, foreign-key checks) are what a growing table meets
// until its next ANALYZE, and a server whose Postgres runs without autovacuum never analyzes
// at all. BENCH_COLD_ANALYZE=0 leaves it out.
async function coldFigures(
  kind: 'embedded' | 'postgres',
  dbUrl: string,
  label: string,
  pixgate: Child,
  bare: Child,
  f: Fixture,
  seeded: { charge: string; token: string },
): Promise<void> {
  const analyzed = kind === 'postgres' && COLD_ANALYZE;
  if (analyzed) await analyze(dbUrl);
  const how = analyzed ? 'new database analyzed nearly empty' : 'new database';
  const before = kind === 'postgres' ? await seqScans(dbUrl) : undefined;
  await compare(`${label}, cold (${how}, no warm-up)`, pixgate, bare, f, seeded, async () => undefined, 'cold');
  if (!before) return;
  // What a plan made for an empty table costs shows here: a key's check or probe that walks
  // the table (counts as Postgres has published them, within a second or so).
  const after = await seqScans(dbUrl);
  const read = [...after].map(([t, a]) => {
    const b = before.get(t) ?? { scans: 0, rows: 0 };
    return `${t} ${a.scans - b.scans} (${a.rows - b.rows} rows)`;
  });
  console.log(`sequential scans during the cold runs (both servers): ${read.join(', ')}`);
}

async function seqScans(url: string): Promise<Map<string, { scans: number; rows: number }>> {
  const rows = await adminQuery<{ relname: string; scans: string; rows: string }>(
    url,
    `select relname, seq_scan as scans, seq_tup_read as rows from pg_stat_user_tables
      where relname in ('charges', 'locations', 'charge_revisions', 'events') order by relname`,
  );
  return new Map(rows.map((r) => [r.relname, { scans: Number(r.scans), rows: Number(r.rows) }]));
}

// Each workload starts from fresh table statistics, as pgbench vacuums before a run: the
// previous workload grew the tables from empty, and until autovacuum's next pass (up to a
// minute) a server with cached generic plans keeps the plans made for the empty tables. The
// bare route plans every statement anew, so it is not measured in that window either.
async function analyze(url: string): Promise<void> {
  await adminQuery(url, 'vacuum analyze');
}

// Start-up on a new embedded data folder: as `make run` reports it (from its imports done to
// listening, migrations included) and from the spawn of the process (Node's own start and
// the imports too), which the target is checked on: the median of five starts (one start
// moves by half from one to the next on these machines).
async function startup(): Promise<void> {
  const reported: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < 5; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-start-'));
    const spawned = performance.now();
    const child = await startChild(
      PIXGATE,
      { PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', PIXGATE_DATA_DIR: dataDir, ...PLAIN_ENV },
      /listening on http:\/\/localhost:(\d+)/,
    );
    whole.push(Math.round(performance.now() - spawned));
    reported.push(Number(/started in (\d+) ms/.exec(child.output())?.[1]));
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const ms = median(whole);
  console.log(
    `start-up on a new embedded data folder: ${ms} ms from the spawn, median of ${whole.join(', ')}; ` +
      `reported "started in" ${median(reported)} ms (target < 2000 ms from the spawn: ${ms < 2000 ? 'ok' : 'MISSED'})`,
  );
}

// A request over HTTPS with the given TLS options (the platform API, to set the TLS run up).
function callTls(
  url: string,
  tls: TlsOptions,
  init: { method: string; body?: string; headers: Record<string, string> },
) {
  return new Promise<any>((ok, fail) => {
    const req = httpsRequest(url, { method: init.method, headers: init.headers, ...tls }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        res.statusCode! < 300 ? ok(JSON.parse(text)) : fail(new Error(`${url}: ${res.statusCode} ${text}`)),
      );
    });
    req.on('error', fail);
    req.end(init.body);
  });
}

interface TlsOptions {
  ca: string;
  cert?: string;
  key?: string;
}

// The sandbox CA, read over the connection it will then verify (its own certificate is checked
// next, by the calls that trust it).
function sandboxCaOf(base: string): Promise<string> {
  return new Promise<string>((ok, fail) =>
    httpsRequest(`${base}/sandbox/ca.pem`, { rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => ok(text));
    })
      .on('error', fail)
      .end(),
  );
}

// pixgate over HTTPS with PIXGATE_MTLS=required: the fixture's MASTER application gets a client
// certificate, a token bound to it over mTLS, and every workload runs over keep-alive TLS
// connections (handshakes reused, as clients do), beside the plain figures.
async function tlsFigures(
  env: Record<string, string>,
  f: Fixture,
  plain: Map<string, Run>,
  settle: () => Promise<void>,
): Promise<void> {
  const pixgate = await startChild(
    PIXGATE,
    {
      PORT: '0',
      LOG_LEVEL: 'info',
      PIXGATE_PUBLIC_URL: 'http://localhost:8080',
      PIXGATE_TLS: 'on',
      PIXGATE_TLS_PORT: '0',
      PIXGATE_MTLS: 'required',
      ...env,
    },
    /https:\/\/localhost:(\d+) \(TLS/,
    { logToFile: true },
  );
  try {
    const base = pixgate.url.replace('http:', 'https:');
    const caPem = await sandboxCaOf(base);
    const issued = await callTls(
      `${base}/api/v1/application/${encodeURIComponent(f.clientId)}/certificates`,
      { ca: caPem },
      {
        method: 'POST',
        headers: { authorization: f.appID, 'content-type': 'application/json' },
        body: JSON.stringify({ generateKey: true }),
      },
    );
    const tls = { ca: caPem, cert: issued.certificate.certificate as string, key: issued.privateKey as string };
    const token = await callTls(`${base}/oauth/token`, tls, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${f.clientId}:${f.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const bound: Fixture = { ...f, bearer: `Bearer ${token.access_token}` };
    console.log(`\nthe same over HTTPS, mTLS required (client certificate, bound token), keep-alive connections`);
    console.log(
      `${'operation'.padEnd(26)} ${pad('plain req/s', 12)} ${pad('p99', 6)} ${pad('TLS req/s', 10)} ${pad('p99', 6)} ${pad('TLS/plain', 10)}`,
    );
    for (const workload of WORKLOADS.filter((w) => ONLY.test(w.name))) {
      const options = { ...workload.options(base, bound), tlsOptions: tls };
      if (WARMUP_SECONDS > 0) await load(options, WARMUP_SECONDS);
      await settle();
      const runs: Run[] = [];
      for (let i = 0; i < PAIRS; i++) runs.push(await load(options));
      const rps = median(runs.map((r) => r.rps));
      const before = plain.get(workload.name);
      const errors = runs.reduce((n, r) => n + r.errors, 0);
      console.log(
        `${workload.name.padEnd(26)} ${pad(before?.rps ?? '-', 12)} ${pad(before?.p99 ?? '-', 6)} ${pad(rps, 10)} ${pad(median(runs.map((r) => r.p99)), 6)} ${pad(before ? (rps / before.rps).toFixed(2) + 'x' : '-', 10)}${errors ? `  (${errors} non-2xx/errors!)` : ''}`,
      );
    }
  } finally {
    await stopChild(pixgate);
  }
}

// The request figures against the bare route: cold (a new database) and steady.
async function requestFigures(o: {
  kind: 'embedded' | 'postgres';
  dbUrl: string;
  label: string;
  pixgate: Child;
  f: Fixture & { companyId: string; accountId: string };
}): Promise<Map<string, Run>> {
  const { kind, dbUrl, label, pixgate, f } = o;
  const bare = await startChild(
    BARE,
    {
      PORT: '0',
      BENCH_DB: kind === 'postgres' ? dbUrl : 'embedded',
      BENCH_COMPANY: f.companyId,
      BENCH_ACCOUNT: f.accountId,
    },
    /listening (\d+)/,
  );
  try {
    const seeded = await call(bare.url, 'POST', '/api/v1/charge', { correlationID: 'bare-read-me', value: 1234 });
    const seededIds = { charge: seeded.charge.id, token: seeded.token };
    if (MODES.includes('cold')) await coldFigures(kind, dbUrl, label, pixgate, bare, f, seededIds);
    if (MODES.includes('steady'))
      return await compare(`${label}, steady (warmed up, analyzed)`, pixgate, bare, f, seededIds, () =>
        kind === 'postgres' ? analyze(dbUrl) : Promise.resolve(),
      );
  } finally {
    await stopChild(bare);
  }
  return new Map();
}

if (process.env.BENCH_BUILD !== '0')
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: ROOT, stdio: 'inherit' });
if (!SKIP.includes('start-up') && !WEBHOOKS_ONLY) await startup();
if (!SKIP.includes('embedded')) await benchOn('embedded');
if (process.env.DATABASE_URL) await benchOn('postgres');
else console.log('\nDATABASE_URL is not set: the Postgres comparison was skipped');
