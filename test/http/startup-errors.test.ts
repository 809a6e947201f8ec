// A database the server cannot use stops `make run` (the bundle, test/support/bundle.ts) with
// one line on stderr saying why and a non-zero exit code, never a stack trace: a malformed
// URL, an unknown host, a refused connection, and (with a reachable Postgres) a missing
// database or an unknown role.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer } from '../support/bundle';
import { freePort } from '../support/server';
import { runsOnlyIf, onceOnEmbeddedRun } from '../support/skip';

const ownDatabaseUrl = onceOnEmbeddedRun('own DATABASE_URL');

async function start(databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnServer({ PORT: String(await freePort()), DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

// One line, beginning "pixgate: ", matching `why`; exit code 2; nothing on the log stream.
async function refuses(databaseUrl: string, why: RegExp): Promise<string> {
  const { code, stdout, stderr } = await start(databaseUrl);
  const lines = stderr
    .split('\n')
    .filter((l) => l.trim() && !/^\(node:\d+\) Warning|^\s*(In the next|To prepare)/.test(l));
  assert.is(code, 2, stderr);
  assert.is(lines.length, 1, `one line, got:\n${stderr}`);
  assert.match(lines[0]!, /^pixgate: /);
  assert.match(lines[0]!, why);
  assert.not.match(stderr, /^\s+at /m, 'no stack trace');
  assert.is(stdout, '');
  return lines[0]!;
}

ownDatabaseUrl('a malformed DATABASE_URL, or another scheme, is named as such (its password masked)', async () => {
  const line = await refuses('postgres://user:s3cret@:5432 x/db', /DATABASE_URL must be a URL like postgres:\/\//);
  assert.not.match(line, /s3cret/);
  await refuses('mysql://root@localhost/db', /must be a postgres:\/\/ URL/);
});

ownDatabaseUrl('an unknown host and a refused connection say which', async () => {
  await refuses('postgres://postgres@no-such-host.invalid:5432/db', /host of DATABASE_URL .*(unknown|resolved)/);
  const port = await freePort(); // free: nothing listens there
  await refuses(`postgres://postgres@127.0.0.1:${port}/db`, /nothing accepts connections .*ECONNREFUSED/);
});

// The machine's Postgres answers for the missing database and role.
const base = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : undefined;
const withPostgres = runsOnlyIf(
  Boolean(base),
  'needs a reachable Postgres (DATABASE_URL) to refuse the database and role',
);

withPostgres('a missing database and an unknown role are named by Postgres in the one line', async () => {
  const missing = new URL(base!);
  missing.pathname = '/pixgate_no_such_database';
  await refuses(missing.href, /database named in DATABASE_URL does not exist.*pixgate_no_such_database/);
  const role = new URL(base!);
  role.username = 'pixgate_no_such_role';
  role.password = 'hunter2';
  const line = await refuses(role.href, /refused the (role|password)/);
  assert.not.match(line, /hunter2/);
});

test.run();
