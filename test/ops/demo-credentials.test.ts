// make demo-credentials: new credentials of the demo company on the database make run uses.
// Embedded: refused with what to do while make run holds the data folder (PGlite takes no lock
// of its own: a second process would corrupt it), and before make run made the database;
// issued once it stops, working at the next start beside the first ones, the secret stored
// hashed. Postgres: issued while the server runs, and accepted by it at once.
import { spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT as ROOT } from '../../src/lib/root';
import { spawnServer } from '../support/bundle';
import { basic } from '../support/fixtures';
import { freePort } from '../support/server';
import { postgresOnly, onceOnEmbeddedRun } from '../support/skip';

const embeddedAnyway = onceOnEmbeddedRun('own embedded database');

interface Credentials {
  appID: string;
  clientId: string;
  clientSecret: string;
}

function credentialsIn(text: string): Credentials | undefined {
  const appID = /appID \(platform API, Authorization header\): (\S+)/.exec(text)?.[1];
  const clientId = /clientId \(Pix API, POST \/oauth\/token\): +(\S+)/.exec(text)?.[1];
  const clientSecret = /clientSecret: +(\S+)/.exec(text)?.[1];
  return appID && clientId && clientSecret ? { appID, clientId, clientSecret } : undefined;
}

// The script the Makefile target runs, as it runs it (from the project folder).
function demoCredentials(env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/demo-credentials.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function start(
  env: Record<string, string>,
): Promise<{ child: ChildProcessWithoutNullStreams; base: string; out: () => string }> {
  const port = await freePort();
  const child = spawnServer({ PORT: String(port), LOG_LEVEL: 'warn', PIXGATE_HOST: '', ...env });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base: `http://127.0.0.1:${port}`, out: () => out };
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  await exited;
}

// The credentials work on both APIs: the company is the demo company, a token is issued.
async function assertWork(base: string, c: Credentials): Promise<void> {
  const company = await fetch(`${base}/api/v1/company`, { headers: { authorization: c.appID } });
  assert.is(company.status, 200, await company.clone().text());
  assert.is(((await company.json()) as { company: { name: string } }).company.name, 'Demo Company');
  const token = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic(c.clientId, c.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  assert.is(token.status, 200, await token.text());
}

test('the Makefile target runs the script', () => {
  assert.match(
    readFileSync(join(ROOT, 'Makefile'), 'utf8'),
    /^demo-credentials: install\n\ttsx scripts\/demo-credentials\.ts$/m,
  );
});

embeddedAnyway(
  'embedded: refused before make run made the database and while it runs; issued once it stops',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-demo-'));
    const env = { PIXGATE_DATA_DIR: dataDir, DATABASE_URL: '' };
    try {
      const none = demoCredentials(env);
      assert.is(none.status, 2, none.stderr);
      assert.match(none.stderr, /^pixgate: no database in .* yet: make run creates it/);

      const server = await start(env);
      const first = credentialsIn(server.out())!;
      assert.ok(first, server.out());
      const busy = demoCredentials(env);
      assert.is(busy.status, 2, busy.stderr + busy.stdout);
      assert.match(busy.stderr, new RegExp(`in use by another pixgate process \\(pid ${server.child.pid}\\)`));
      assert.match(busy.stderr, /stop it \(Ctrl-C\) and run make demo-credentials again/);
      assert.match(busy.stderr, /\/api\/v1\/sandbox\/companies/);
      assert.is(credentialsIn(busy.stdout), undefined);
      // A second make run on the folder is refused the same way, with one line and exit code 2.
      const second = spawnServer({ ...env, PORT: String(await freePort()) });
      let said = '';
      second.stderr.on('data', (d) => (said += d));
      const code = await new Promise((ok) => second.once('exit', ok));
      assert.is(code, 2, said);
      assert.match(
        said,
        /^pixgate: the embedded database in .* is in use by another pixgate process \(pid \d+\): stop it first/,
      );
      await assertWork(server.base, first);
      await stop(server.child);

      const issued = demoCredentials(env);
      assert.is(issued.status, 0, issued.stderr);
      const fresh = credentialsIn(issued.stdout)!;
      assert.ok(fresh, issued.stdout);
      assert.is.not(fresh.appID, first.appID);
      const again = await start(env);
      try {
        assert.not.match(again.out(), /New database/);
        await assertWork(again.base, fresh);
        await assertWork(again.base, first);
      } finally {
        await stop(again.child);
      }
      // Stored hashed, as every secret: no file of the database holds it.
      const files = spawnSync('grep', ['-rl', fresh.clientSecret, dataDir], { encoding: 'utf8' });
      assert.is(files.stdout, '', 'the client secret is in the data folder');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);

postgresOnly('Postgres: issued while the server runs, and accepted by it at once', async () => {
  const url = new URL(process.env.DATABASE_URL!);
  const name = `pixgate_demo_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 30_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const env = { DATABASE_URL: own.toString() };
  try {
    const server = await start(env);
    try {
      const first = credentialsIn(server.out())!;
      assert.ok(first, server.out());
      const issued = demoCredentials(env);
      assert.is(issued.status, 0, issued.stderr);
      const fresh = credentialsIn(issued.stdout)!;
      assert.ok(fresh, issued.stdout);
      await assertWork(server.base, fresh);
      await assertWork(server.base, first);
      const client = new pg.Client({ connectionString: own.toString(), connectionTimeoutMillis: 30_000 });
      client.on('error', () => undefined);
      await client.connect();
      try {
        const { rows } = await client.query('select client_secret_hash from applications where client_id = $1', [
          fresh.clientId,
        ]);
        assert.is(rows.length, 1);
        assert.is.not(rows[0].client_secret_hash, fresh.clientSecret, 'stored hashed');
      } finally {
        await client.end();
      }
    } finally {
      await stop(server.child);
    }
  } finally {
    await admin(`drop database if exists "${name}" with (force)`);
  }
});

test.run();
