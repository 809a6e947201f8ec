// Benchmark: start-up time (migrations included) on a fresh embedded database, then GET and
// POST throughput of pixgate beside a bare Koa route, in the same run on the same machine.
// Targets (checked here, not by timed tests): start-up under 2 s; per-request overhead of the
// dispatch independent of the spec size. Usage: make bench [BENCH_SECONDS=5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Koa from 'koa';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function load(title: string, opts: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: 32, duration: SECONDS, ...opts });
  const rps = Math.round(result.requests.average);
  const non2xx = result.non2xx + result.errors;
  console.log(
    `${title.padEnd(44)} ${String(rps).padStart(7)} req/s  p99 ${result.latency.p99} ms${non2xx ? `  (${non2xx} non-2xx/errors!)` : ''}`,
  );
  return rps;
}

const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-bench-'));
const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', PIXGATE_DATA_DIR: dataDir });
const t0 = performance.now();
const server = await startServer({ config, logger: pino({ level: 'silent' }), database: { dataDir } });
const startupMs = Math.round(performance.now() - t0);
console.log(
  `start-up on a new embedded database (migrations included): ${startupMs} ms ${startupMs < 2000 ? '(target < 2000 ms: ok)' : '(target < 2000 ms: MISSED)'}`,
);
await server.close();
const t1 = performance.now();
const reopened = await startServer({ config, logger: pino({ level: 'silent' }), database: { dataDir } });
console.log(`start-up reopening that database: ${Math.round(performance.now() - t1)} ms`);

const company = await reopened.services.sandbox.createCompany({ name: 'Bench' });
await reopened.services.payloadKeys.ensure();

const bare = new Koa();
bare.use(async (ctx) => {
  ctx.body = { ok: true };
});
const bareServer = bare.listen(0);
const barePort = (bareServer.address() as { port: number }).port;

console.log(`\n${SECONDS} s per run, 32 connections`);
await load('bare Koa GET', { url: `http://127.0.0.1:${barePort}/` });
await load('pixgate GET /.well-known/jwks.json', { url: `${reopened.url}/.well-known/jwks.json` });
await load('pixgate GET /api/v1/sandbox/clock (1 query)', { url: `${reopened.url}/api/v1/sandbox/clock` });
await load('bare Koa POST', {
  url: `http://127.0.0.1:${barePort}/`,
  method: 'POST',
  body: '{"a":1}',
  headers: { 'content-type': 'application/json' },
});
await load('pixgate POST /oauth/token (auth + sign)', {
  url: `${reopened.url}/oauth/token`,
  method: 'POST',
  body: 'grant_type=client_credentials',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization:
      'Basic ' + Buffer.from(`${company.application.clientId}:${company.application.clientSecret}`).toString('base64'),
  },
});

bareServer.close();
await reopened.close();
rmSync(dataDir, { recursive: true, force: true });
console.log(`\nmemory: rss ${Math.round(process.memoryUsage().rss / 1048576)} MiB`);
