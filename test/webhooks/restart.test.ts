// A server killed (SIGKILL) right after committing an event, before delivering it: the next
// server on the same database delivers it, once. Embedded database (its folder) and Postgres.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropSchema } from '../../src/db/database';
import { verifyHmacSignature } from '../../src/webhooks/signature';
import { startTestServer, type TestServer } from '../support/server';
import { drain, startReceiver, type Receiver } from './receiver';

const url = process.env.DATABASE_URL;
let receiver: Receiver;
let server: TestServer | undefined;
const schema = `t_${randomBytes(6).toString('hex')}`;
const dataDir = url ? undefined : mkdtempSync(join(tmpdir(), 'pixgate-restart-'));

test.before(async () => {
  receiver = await startReceiver();
});
test.after(async () => {
  await server?.close();
  await receiver.close();
  if (url) await dropSchema(url, schema);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// Starts the child, waits for its report of the committed event, then kills it hard.
async function commitThenDie(): Promise<{ companyId: string; webhookId: string; secret: string; eventId: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'restart-child.ts')], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      WEBHOOK_URL: `${receiver.url}/after-restart`,
      TEST_SCHEMA: schema,
      TEST_DATA_DIR: dataDir ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<NodeJS.Signals | null>((ok) => child.on('exit', (_code, signal) => ok(signal)));
  const report = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`child reported nothing in time: ${err}`)), 120_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        ok(out.split('\n')[0]!);
      }
    });
    child.on('exit', () => fail(new Error(`child exited early: ${err}`)));
  });
  child.kill('SIGKILL');
  assert.is(await exited, 'SIGKILL');
  return JSON.parse(report);
}

test('the event committed before the process died is delivered after restart, once', async () => {
  const committed = await commitThenDie();
  assert.is(receiver.requests.length, 0);
  server = await startTestServer({}, { ...(url ? { schema } : { dataDir: dataDir! }), backgroundJobs: false });
  await drain(server, 3);
  assert.is(receiver.requests.length, 1);
  const [req] = receiver.requests;
  assert.is(req!.path, '/after-restart');
  assert.is(req!.headers['x-pixgate-event-id'], committed.eventId);
  assert.equal(req!.json, {
    event: 'OPENPIX:CHARGE_COMPLETED',
    eventId: committed.eventId,
    charge: { value: 4590, status: 'COMPLETED' },
  });
  assert.equal(verifyHmacSignature(committed.secret, req!.body, req!.headers['x-pixgate-signature'] as string), {
    ok: true,
  });
  const row = await server.database.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempt_count'])
    .where('event_id', '=', committed.eventId)
    .execute();
  assert.equal(row, [{ status: 'SUCCEEDED', attempt_count: 1 }]);
});

test.run();
