// A server process for restart.test.ts: on the database it is given, it registers a webhook,
// commits one event and reports it on stdout, then waits to be killed before any delivery
// (its background jobs are off).
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { recordEvent } from '../../src/events/events.repository';
import { startServer } from '../../src/server';

const { WEBHOOK_URL, DATABASE_URL, TEST_SCHEMA, TEST_DATA_DIR } = process.env;
const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent' });
const server = await startServer({
  config,
  logger: pino({ level: 'silent' }),
  database: DATABASE_URL ? { url: DATABASE_URL, schema: TEST_SCHEMA! } : { dataDir: TEST_DATA_DIR! },
  backgroundJobs: false,
});
const made = await server.services.sandbox.createCompany({ name: 'Morre Depois Ltda' });
const res = await fetch(`${server.url}/api/v1/webhook`, {
  method: 'POST',
  headers: { authorization: made.application.appID, 'content-type': 'application/json' },
  body: JSON.stringify({ webhook: { name: 'paid', event: 'OPENPIX:CHARGE_COMPLETED', url: WEBHOOK_URL } }),
});
const { webhook } = (await res.json()) as { webhook: { id: string; secret: string } };
const eventId = await server.database.db.transaction().execute((trx) =>
  recordEvent(trx, {
    companyId: made.company.id,
    type: 'OPENPIX:CHARGE_COMPLETED',
    payload: { charge: { value: 4590, status: 'COMPLETED' } },
    at: new Date(),
  }),
);
// Committed: from here on the event must reach the receiver, whatever happens to this process.
process.stdout.write(
  JSON.stringify({ companyId: made.company.id, webhookId: webhook.id, secret: webhook.secret, eventId }) + '\n',
);
setInterval(() => {}, 60_000);
