// The server as `make run` starts it (the bundle, test/support/bundle.ts): a new embedded
// database prints the demo credentials once; a restart keeps the data (the credentials still
// work) and prints none; SIGTERM stops it cleanly (exit code 0). The bundle serves both APIs,
// the references and the guides (files it finds from the project folder).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer } from '../support/bundle';
import { freePort } from '../support/server';
import { runsOnlyIf, onceOnEmbeddedRun } from '../support/skip';

const embeddedAnyway = onceOnEmbeddedRun('own embedded database');

const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-run-'));
let port = 0;

interface Running {
  child: ChildProcess;
  // Everything printed, and stdout alone (the JSON log stream).
  output: () => string;
  stdout: () => string;
}

async function run(): Promise<Running> {
  const child = spawnServer({
    PORT: String(port),
    PIXGATE_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    PIXGATE_HOST: '',
  });
  let out = '';
  let stdout = '';
  child.stdout!.on('data', (d) => ((out += d), (stdout += d)));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out, stdout: () => stdout };
}

async function stop(r: Running): Promise<number | null> {
  const exited = new Promise<number | null>((ok) => r.child.once('exit', (code) => ok(code)));
  r.child.kill('SIGTERM');
  return exited;
}

test.before(async () => {
  port = await freePort();
});
test.after(() => rmSync(dataDir, { recursive: true, force: true }));

embeddedAnyway(
  'new database: demo credentials printed; restart keeps them working and prints none; SIGTERM exits 0',
  async () => {
    const first = await run();
    const appID = /appID \(platform API, Authorization header\): (\S+)/.exec(first.output())?.[1];
    assert.ok(appID, first.output());
    assert.match(first.output(), new RegExp(`listening on http://localhost:${port}`));
    assert.match(first.output(), /reference: http:\/\/localhost:\d+\/docs/);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.is(health.status, 200);
    assert.is(await stop(first), 0);
    // The banner (and its secret) went to stderr: stdout holds JSON log lines only, flushed by the stop.
    const lines = first.stdout().split('\n').filter(Boolean);
    assert.ok(lines.length > 0, 'no log line on stdout');
    for (const line of lines) assert.type(JSON.parse(line), 'object', line);
    assert.ok(
      lines.some((l) => JSON.parse(l).msg === 'shutting down'),
      first.stdout(),
    );
    assert.not.ok(first.stdout().includes(appID!), 'the demo appID reached the JSON stream');

    const second = await run();
    assert.not.match(second.output(), /demo company/);
    const company = await fetch(`http://127.0.0.1:${port}/api/v1/company`, { headers: { authorization: appID! } });
    assert.is(company.status, 200);
    assert.is(((await company.json()) as { company: { name: string } }).company.name, 'Demo Company');
    assert.is(await stop(second), 0);
  },
);

embeddedAnyway('the bundle serves both APIs, the references and the guides on a new embedded database', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-bundle-'));
  const port = await freePort();
  const child = spawnServer({ PORT: String(port), DATABASE_URL: '', PIXGATE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    const deadline = Date.now() + 30_000;
    while (!/listening on/.test(stderr)) {
      assert.ok(Date.now() < deadline && child.exitCode === null, `did not start: ${stderr}`);
      await new Promise((ok) => setTimeout(ok, 50));
    }
    const base = `http://127.0.0.1:${port}`;
    const appID = /appID \(platform API, Authorization header\): (\S+)/.exec(stderr)?.[1];
    assert.ok(appID, stderr);
    const company = await fetch(`${base}/api/v1/company`, { headers: { authorization: appID } });
    assert.is(company.status, 200, await company.text());
    const problem = await fetch(`${base}/pix/v2/cob/no-such-charge-anywhere-0000000`);
    assert.is(problem.status, 401);
    assert.match(problem.headers.get('content-type') ?? '', /problem\+json/);
    for (const path of ['/docs', '/docs/specs/pix.yaml', '/docs/specs/platform.yaml', '/guides/charges', '/'])
      assert.is((await fetch(`${base}${path}`)).status, 200, path);
  } finally {
    child.kill('SIGTERM');
    await new Promise((ok) => child.once('exit', ok));
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// An address of this machine that is not the loopback: where another machine would connect.
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

// Answers the status of GET /healthz at `host`, or the connection error's code.
async function healthAt(host: string, port: number): Promise<number | string> {
  try {
    return (await fetch(`http://${host}:${port}/healthz`)).status;
  } catch (error) {
    return String(((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? error);
  }
}

(process.env.DATABASE_URL
  ? embeddedAnyway
  : runsOnlyIf(outside !== undefined, 'the machine has no non-loopback IPv4 address to connect to'))(
  'PIXGATE_HOST: the default listens on 127.0.0.1 only; 0.0.0.0 on every interface',
  async () => {
    const first = await run();
    try {
      assert.match(first.output(), /on 127\.0\.0\.1 only \(PIXGATE_HOST=0\.0\.0\.0 listens on every interface\)/);
      assert.is(await healthAt('127.0.0.1', port), 200);
      assert.is(await healthAt(outside!, port), 'ECONNREFUSED', 'another interface is not listened on');
    } finally {
      await stop(first);
    }
    const everywhere = spawnServer({
      PORT: String(port),
      PIXGATE_DATA_DIR: dataDir,
      DATABASE_URL: '',
      PIXGATE_HOST: '0.0.0.0',
    });
    let stderr = '';
    everywhere.stderr.on('data', (d) => (stderr += d));
    try {
      const deadline = Date.now() + 60_000;
      while (!/listening on/.test(stderr)) {
        assert.ok(Date.now() < deadline && everywhere.exitCode === null, `did not start: ${stderr}`);
        await new Promise((ok) => setTimeout(ok, 50));
      }
      assert.match(stderr, /on every interface \(PIXGATE_HOST=0\.0\.0\.0\)/);
      assert.is(await healthAt(outside!, port), 200);
    } finally {
      everywhere.kill('SIGTERM');
      await new Promise((ok) => everywhere.once('exit', ok));
    }
  },
);

test.run();
