// A port another program holds: startServer rejects with EADDRINUSE (what `make run` reports
// and what the test server retries on) and leaves nothing open behind it, no pool
// connection nor the one listening for changes.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import { dropSchema } from '../../src/db/database';
import { startServer } from '../../src/server';
import { freePort } from '../support/server';

const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

test('a port in use: startServer rejects with EADDRINUSE and closes the database it opened', async () => {
  const port = await freePort();
  const holder: Server = createServer();
  await new Promise<void>((ok) => holder.listen(port, ok));
  const url = process.env.DATABASE_URL;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const before = sockets();
  try {
    const config = loadConfig({ PORT: String(port), LOG_LEVEL: 'silent' });
    const error = await startServer({
      config,
      logger: pino({ level: 'silent' }),
      database: url ? { url, schema, poolSize: 2 } : {},
      backgroundJobs: false,
    }).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    assert.is(error?.code, 'EADDRINUSE');
    // A closed socket leaves the list once its close event ran: wait for it, a bounded while.
    for (let i = 0; i < 50 && sockets() > before; i++) await new Promise((r) => setTimeout(r, 100));
    // (at most: a socket an earlier file of this worker left, a kept-alive client connection,
    // may close meanwhile)
    assert.ok(sockets() <= before, `no database socket left open: ${sockets()} sockets, ${before} before`);
  } finally {
    await new Promise<void>((ok) => holder.close(() => ok()));
    if (url) await dropSchema(url, schema);
  }
});

test.run();
