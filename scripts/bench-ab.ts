// An A/B comparison of two pixgate bundles, or of one bundle under two environments, on one
// new Postgres database: both run at once, and the same read is measured on each in turn.
// It gives the CPU time each server spends per request (from /proc), which on this shared
// 2-core machine moves far less between runs than req/s does. Use it to weigh one change.
//
//   make build && cp -r dist .tmp/dist-before    (then change the code and `make build` again)
//   DATABASE_URL=... AB_A=.tmp/dist-before/main.js npx tsx scripts/bench-ab.ts
//
// Settings: AB_A and AB_B (bundles, default dist/main.js; keep them inside the repository,
// where their packages resolve), AB_ENV_A and AB_ENV_B (space-separated NAME=value pairs for
// each server), AB_PATH (what is read: default the fixture's charge, by correlationID),
// AB_PAIRS (alternating runs, default 5), AB_SECONDS (per run, default 6), AB_CONNECTIONS (50).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { cpuSeconds, createDatabase, dropDatabase, median } from './bench-support';

const base = process.env.DATABASE_URL;
if (!base) throw new Error('DATABASE_URL: the Postgres server to create the A/B database on');
const settings = {
  a: process.env.AB_A ?? 'dist/main.js',
  b: process.env.AB_B ?? 'dist/main.js',
  envA: envOf(process.env.AB_ENV_A),
  envB: envOf(process.env.AB_ENV_B),
  path: process.env.AB_PATH ?? '/api/v1/charge/read-me',
  pairs: Number(process.env.AB_PAIRS ?? 5),
  seconds: Number(process.env.AB_SECONDS ?? 6),
  connections: Number(process.env.AB_CONNECTIONS ?? 50),
};

function envOf(text: string | undefined): Record<string, string> {
  const pairs = (text ?? '').split(/\s+/).filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

interface Server {
  child: ChildProcess;
  url: string;
}

// A server as `make run` starts it (SERVER_NODE_OPTIONS' defaults), on its own port.
async function start(bundle: string, env: Record<string, string>, databaseUrl: string): Promise<Server> {
  const child = spawn(process.execPath, ['--max-semi-space-size=16', '--v8-pool-size=1', bundle], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, PIXGATE_TLS: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (said.length < 20_000) said += d;
  });
  for (;;) {
    const port = /listening on http:\/\/[^:]+:(\d+)/.exec(said)?.[1];
    if (port) return { child, url: `http://127.0.0.1:${port}` };
    if (child.exitCode !== null) throw new Error(`${bundle} did not start: ${said}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

async function measure(server: Server, appID: string, seconds: number): Promise<{ rps: number; us: number }> {
  const before = cpuSeconds(server.child.pid!);
  const result = await autocannon({
    url: server.url + settings.path,
    headers: { authorization: appID },
    connections: settings.connections,
    duration: seconds,
  });
  if (result.non2xx || result.errors) throw new Error(`${server.url}${settings.path}: ${result.non2xx} non-2xx`);
  const us = ((cpuSeconds(server.child.pid!) - before) * 1e6) / result.requests.total;
  return { rps: Math.round(result.requests.average), us: Math.round(us) };
}

// A company and the charge the default path reads, made through server A.
async function fixture(server: Server): Promise<string> {
  const post = (path: string, body: object, auth?: string) =>
    fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>);
  const made = await post('/api/v1/sandbox/companies', { name: 'A/B' });
  await post('/api/v1/charge', { correlationID: 'read-me', value: 1234 }, made.application.appID);
  return made.application.appID as string;
}

async function main(): Promise<void> {
  const name = `pixgate_ab_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(base!, name);
  const servers: Server[] = [];
  try {
    // A first: it migrates the new database; B finds it migrated (or adds its own migrations).
    servers.push(await start(settings.a, settings.envA, url));
    servers.push(await start(settings.b, settings.envB, url));
    const [a, b] = servers as [Server, Server];
    const appID = await fixture(a);
    await measure(a, appID, 3);
    await measure(b, appID, 3);
    const cpu: { a: number[]; b: number[] } = { a: [], b: [] };
    for (let i = 0; i < settings.pairs; i++) {
      const x = await measure(a, appID, settings.seconds);
      const y = await measure(b, appID, settings.seconds);
      cpu.a.push(x.us);
      cpu.b.push(y.us);
      console.log(
        `A ${x.rps} req/s, ${x.us} µs CPU/request | B ${y.rps} req/s, ${y.us} µs | B/A ${(y.us / x.us).toFixed(2)}`,
      );
    }
    const [ma, mb] = [median(cpu.a), median(cpu.b)];
    console.log(`median CPU per request: A ${ma} µs, B ${mb} µs, B/A ${(mb / ma).toFixed(2)}`);
  } finally {
    for (const server of servers) {
      const exited = new Promise((ok) => server.child.once('exit', ok));
      server.child.kill('SIGTERM');
      await exited;
    }
    await dropDatabase(base!, name);
  }
}

await main();
