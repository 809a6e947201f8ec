// The request log's settings: PIXGATE_REQUEST_LOG_LIMIT (0 turns it off),
// PIXGATE_REQUEST_LOG_MAX_AGE_DAYS and PIXGATE_REQUEST_LOG_BUFFER, refused when unusable.
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import type { Database } from '../../src/db/schema';
import { RequestLogService } from '../../src/request-logs/request-logs.service';
import type { Kysely } from 'kysely';

test('defaults: the last 10,000 calls per company, 30 days at most, 10,000 waiting in memory', () => {
  assert.equal(loadConfig({}).requestLog, { limit: 10_000, maxAgeDays: 30, bufferEntries: 10_000 });
  assert.equal(
    loadConfig({
      PIXGATE_REQUEST_LOG_LIMIT: '500',
      PIXGATE_REQUEST_LOG_MAX_AGE_DAYS: '0',
      PIXGATE_REQUEST_LOG_BUFFER: '2000',
    }).requestLog,
    { limit: 500, maxAgeDays: 0, bufferEntries: 2000 },
  );
});

test('values that cannot be used are refused with the variable named', () => {
  assert.throws(
    () => loadConfig({ PIXGATE_REQUEST_LOG_LIMIT: '-1' }),
    /PIXGATE_REQUEST_LOG_LIMIT must be a whole number/,
  );
  assert.throws(() => loadConfig({ PIXGATE_REQUEST_LOG_LIMIT: '1e3' }), /PIXGATE_REQUEST_LOG_LIMIT/);
  assert.throws(() => loadConfig({ PIXGATE_REQUEST_LOG_LIMIT: 'lots' }), /PIXGATE_REQUEST_LOG_LIMIT/);
  assert.throws(() => loadConfig({ PIXGATE_REQUEST_LOG_MAX_AGE_DAYS: '2.5' }), /PIXGATE_REQUEST_LOG_MAX_AGE_DAYS/);
  assert.throws(
    () => loadConfig({ PIXGATE_REQUEST_LOG_BUFFER: '0' }),
    /PIXGATE_REQUEST_LOG_BUFFER must be a whole number from 1/,
  );
});

test('limit 0: the log is off; recording keeps nothing and touches no database', async () => {
  const noDatabase = new Proxy({}, { get: () => assert.unreachable('the database was used') }) as Kysely<Database>;
  const service = new RequestLogService(
    noDatabase,
    { limit: 0, maxAgeDays: 30, bufferEntries: 10 },
    pino({ level: 'silent' }),
  );
  assert.not.ok(service.enabled);
  service.record(
    {
      companyId: 'c',
      clientId: 'Client_Id_x',
      at: Date.now(),
      requestId: 'r',
      api: 'PIX_API',
      method: 'GET',
      path: '/pix/v2/cob',
      query: '',
      operationId: 'listCob',
      status: 500,
      latencyMs: 1,
      idempotencyKey: undefined,
      ip: '127.0.0.1',
      userAgent: undefined,
      contentType: undefined,
      errorCode: 'INTERNAL',
      errorMessage: 'Internal server error',
    },
    { requestBody: { a: 1 }, responseBody: { error: 'x' } },
  );
  await service.flush();
  assert.equal(await service.prune(), { beyondLimit: 0, tooOld: 0 });
  await service.close();
  assert.equal(service.status(), {
    enabled: false,
    buffered: 0,
    written: 0,
    dropped: { bufferFull: 0, writeFailed: 0, shutdown: 0 },
  });
});

test.run();
