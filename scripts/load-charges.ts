// `make load-charges`: lists at scale. Loads, through SQL, 10,000 charges for one company and
// 1,000,000 for another (spread over two years, as a busy shop's would be), rolls up the
// days, and times the first page and a page 90 % deep of GET /api/v1/charge and
// GET /pix/v2/cob for each company. The target: the same cost at 1,000,000 as at
// 10,000, within 1.5x. On Postgres when DATABASE_URL is set (a schema of its own, dropped
// afterwards), else on the embedded database. LOAD_CHARGES_SMALL and LOAD_CHARGES_LARGE change the counts.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { CHARGE_COUNTS_JOB } from '../src/charges/charges.module';
import { loadConfig } from '../src/config';
import { dropSchema } from '../src/db/database';
import { startServer } from '../src/server';
import { insertLoadCharges } from '../test/support/charge-load';
import { createCompany, pixToken } from '../test/support/fixtures';
import { TestClient, freePort } from '../test/support/server';

const SMALL = Number(process.env.LOAD_CHARGES_SMALL ?? 10_000);
const LARGE = Number(process.env.LOAD_CHARGES_LARGE ?? 1_000_000);
const RUNS = 15;
const url = process.env.DATABASE_URL;
const schema = url ? `load_${randomBytes(4).toString('hex')}` : undefined;

const port = await freePort();
const server = await startServer({
  config: loadConfig({ PORT: String(port), LOG_LEVEL: 'silent' }),
  logger: pino({ level: 'silent' }),
  database: url ? { url, schema: schema! } : {},
  backgroundJobs: false,
});
const client = new TestClient(server.url);
const db = server.database.db;

// `n` charges of the company, created over the two years before now, in batches.
async function load(companyId: string, key: string, accountId: string, n: number): Promise<void> {
  const started = Date.now();
  const batch = 100_000;
  for (let from = 0; from < n; from += batch) {
    const to = Math.min(n, from + batch);
    await insertLoadCharges(db, { companyId, accountId, pixKey: key, from: from + 1, to, n, days: 730 });
  }
  // What autovacuum does after a load this size: fresh statistics for the planner.
  await sql`analyze charges`.execute(db);
  console.log(`loaded ${n} charges in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function median(call: () => Promise<{ status: number }>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await call();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

interface Loaded {
  appID: string;
  bearer: string;
  n: number;
}

async function loaded(label: string, n: number): Promise<Loaded> {
  const company = await createCompany(client, { name: label });
  await load(company.companyId, company.pixKey, company.accountId, n);
  return { appID: company.appID, bearer: await pixToken(client, company), n };
}

async function measure({ appID, bearer, n }: Loaded) {
  const deep = Math.floor((n * 0.9) / 20) * 20;
  const period = 'inicio=2000-01-01T00:00:00Z&fim=2099-12-31T23:59:59Z';
  return {
    'platform first page': await median(() => client.get('/api/v1/charge?limit=20', { auth: appID })),
    'platform 90% deep': await median(() => client.get(`/api/v1/charge?skip=${deep}&limit=20`, { auth: appID })),
    'pix first page': await median(() =>
      client.get(`/pix/v2/cob?${period}&paginacao.itensPorPagina=20`, { auth: bearer }),
    ),
    'pix 90% deep': await median(() =>
      client.get(`/pix/v2/cob?${period}&paginacao.itensPorPagina=20&paginacao.paginaAtual=${deep / 20}`, {
        auth: bearer,
      }),
    ),
  };
}

function report(title: string, small: Record<string, number>, large: Record<string, number>) {
  console.log(`\n${title}: median of ${RUNS} requests, ms`);
  console.log(`${'list'.padEnd(22)} ${String(SMALL).padStart(10)} ${String(LARGE).padStart(10)} ratio`);
  for (const key of Object.keys(small)) {
    const a = small[key]!;
    const b = large[key]!;
    console.log(`${key.padEnd(22)} ${a.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(10)} ${(b / a).toFixed(2)}x`);
  }
}

try {
  const small = await loaded('Loja Pequena', SMALL);
  const large = await loaded('Loja Grande', LARGE);
  const where = url ? 'Postgres' : 'embedded database';
  report(`${where}, before the daily roll-up`, await measure(small), await measure(large));
  const t0 = Date.now();
  await server.services.jobs.runNow(CHARGE_COUNTS_JOB);
  console.log(`\nrolled up the days in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  report(`${where}, after the daily roll-up`, await measure(small), await measure(large));
} finally {
  await server.close();
  if (url && schema) await dropSchema(url, schema);
}
