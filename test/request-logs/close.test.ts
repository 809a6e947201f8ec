// Closing the server (SIGTERM's path) writes what the request log still buffers: the next
// server on the same database lists the calls the closed one answered last.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropSchema } from '../../src/db/database';
import { createCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

const url = process.env.DATABASE_URL;
const schema = `t_${randomBytes(6).toString('hex')}`;
const dataDir = url ? undefined : mkdtempSync(join(tmpdir(), 'pixgate-request-log-'));
const place = url ? { schema } : { dataDir: dataDir! };
let next: TestServer | undefined;

test.after(async () => {
  await next?.close();
  if (url) await dropSchema(url, schema);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('the calls still buffered when the server closes are written by the close', async () => {
  // no timers: only the close can write them
  const first = await startTestServer({}, { ...place, backgroundJobs: false });
  const company = await createCompany(first.client);
  const ids = [`c-${randomUUID()}`, `c-${randomUUID()}`];
  for (const requestId of ids) {
    const res = await first.client.get('/api/v1/account', {
      auth: company.appID,
      headers: { 'x-request-id': requestId },
    });
    assert.is(res.status, 200);
  }
  assert.is(first.services.requestLogs.status().written, 0);
  assert.is(first.services.requestLogs.status().buffered, 2);
  await first.close();
  assert.is(first.services.requestLogs.status().written, 2);

  next = await startTestServer({}, { ...place, backgroundJobs: false });
  const listed = await next.client.get('/api/v1/request-logs', { auth: company.appID });
  assert.is(listed.status, 200, listed.text);
  assert.equal(
    listed.body.requestLogs.map((e: { requestId: string }) => e.requestId),
    [...ids].reverse(),
  );
});

test.run();
