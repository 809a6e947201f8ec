// The request log's writer on its own, with writes the test controls: batches of at most
// batchSize, a bounded buffer that drops and counts, one retry of a failed batch, a hung
// database that costs entries but never a caller, the last flush on close, the drop report.
import pino from 'pino';
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RequestLogWriter, type RequestLogWriterOptions } from '../../src/request-logs/request-log-writer';
import type { RequestLogEntry } from '../../src/request-logs/request-logs.types';

function entry(n: number, extra: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    companyId: `company-${n % 2}`,
    clientId: 'Client_Id_test',
    at: 1_700_000_000_000 + n,
    requestId: `r-${n}`,
    api: 'PLATFORM_API',
    method: 'GET',
    path: '/api/v1/charge',
    query: '',
    operationId: 'listCharges',
    status: 200,
    latencyMs: 1.5,
    idempotencyKey: undefined,
    ip: '127.0.0.1',
    userAgent: 'test',
    contentType: undefined,
    errorCode: undefined,
    errorMessage: undefined,
    ...extra,
  };
}

// Log lines as parsed objects.
function capturedLog() {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

function writerWith(options: Partial<RequestLogWriterOptions> & Pick<RequestLogWriterOptions, 'write'>) {
  const { log, lines } = capturedLog();
  const writer = new RequestLogWriter({
    capacity: 10,
    maxBodyChars: 1_000_000,
    batchSize: 4,
    log,
    reportEveryMs: 60_000,
    ...options,
  });
  return { writer, lines };
}

// A write that waits until the test lets it go.
function heldWrites() {
  const batches: RequestLogEntry[][] = [];
  let release: () => void = () => undefined;
  let held = new Promise<void>((ok) => (release = ok));
  return {
    batches,
    write: async (batch: RequestLogEntry[]) => {
      batches.push(batch);
      await held;
    },
    release() {
      release();
      held = Promise.resolve();
    },
  };
}

test('flush writes what waits in batches of at most batchSize, in arrival order', async () => {
  const batches: string[][] = [];
  const written: string[] = [];
  const { writer } = writerWith({
    write: async (batch) => void batches.push(batch.map((e) => e.requestId)),
    written: (batch) => written.push(...batch.map((e) => e.requestId)),
    batchSize: 100,
  });
  for (let n = 0; n < 10; n++) writer.push(entry(n));
  assert.is(batches.length, 0, 'nothing is written on push');
  await writer.flush();
  assert.equal(batches, [Array.from({ length: 10 }, (_, n) => `r-${n}`)]);
  assert.equal(written, batches[0]);
  assert.equal(writer.status(), {
    enabled: true,
    buffered: 0,
    written: 10,
    dropped: { bufferFull: 0, writeFailed: 0, shutdown: 0 },
  });
});

test('a full batch starts a flush by itself; a flush writes one batch at a time', async () => {
  const batches: number[] = [];
  const { writer } = writerWith({ write: async (batch) => void batches.push(batch.length), capacity: 100 });
  for (let n = 0; n < 4; n++) writer.push(entry(n));
  // the flush started by the fourth push
  await writer.flush();
  assert.equal(batches, [4]);
  for (let n = 0; n < 10; n++) writer.push(entry(n));
  await writer.flush();
  assert.equal(batches, [4, 4, 4, 2]);
});

test('a full buffer drops the new entries and counts them; the ones it holds are written', async () => {
  const hold = heldWrites();
  const { writer } = writerWith({ write: hold.write, capacity: 10, batchSize: 4 });
  // the first batch is taken by a write that hangs; 10 more fill the buffer; 3 are dropped
  for (let n = 0; n < 17; n++) writer.push(entry(n));
  assert.is(hold.batches.length, 1);
  assert.equal(writer.status().dropped, { bufferFull: 3, writeFailed: 0, shutdown: 0 });
  assert.is(writer.status().buffered, 14, '10 waiting, 4 being written');
  hold.release();
  await writer.flush();
  assert.is(writer.status().written, 14);
  assert.equal(
    hold.batches.flat().map((e) => e.requestId),
    Array.from({ length: 14 }, (_, n) => `r-${n}`),
  );
});

test('the bodies waiting are bounded too', async () => {
  const hold = heldWrites();
  const { writer } = writerWith({ write: hold.write, capacity: 100, batchSize: 100, maxBodyChars: 250 });
  writer.push(entry(1, { status: 400, requestBody: 'x'.repeat(100), responseBody: 'y'.repeat(100) }));
  writer.push(entry(2, { status: 400, requestBody: 'x'.repeat(100) }));
  writer.push(entry(3));
  assert.equal(writer.status().dropped.bufferFull, 1);
  assert.is(writer.status().buffered, 2);
  hold.release();
  await writer.flush();
});

test('a failed batch is retried once at the next flush, then dropped and counted', async () => {
  let failures = 0;
  const attempts: string[][] = [];
  const { writer } = writerWith({
    write: async (batch) => {
      attempts.push(batch.map((e) => e.requestId));
      if (failures-- > 0) throw new Error('connection terminated');
    },
  });
  // fails once: written by the retry
  failures = 1;
  writer.push(entry(1));
  await writer.flush();
  assert.is(writer.status().buffered, 1, 'waits for its retry');
  await writer.flush();
  assert.equal(attempts, [['r-1'], ['r-1']]);
  assert.is(writer.status().written, 1);
  // fails twice: dropped as writeFailed; the entries behind it go on
  failures = 2;
  writer.push(entry(2));
  await writer.flush();
  writer.push(entry(3));
  await writer.flush();
  assert.equal(writer.status().dropped, { bufferFull: 0, writeFailed: 1, shutdown: 0 });
  assert.equal(attempts.slice(2), [['r-2'], ['r-2'], ['r-3']]);
  assert.is(writer.status().written, 2);
});

test('with the database hung, pushes return at once, flushes do not pile up, drops are counted', async () => {
  const hold = heldWrites();
  const { writer } = writerWith({ write: hold.write, capacity: 8, batchSize: 4 });
  for (let n = 0; n < 4; n++) writer.push(entry(n));
  const pending = [writer.flush(), writer.flush(), writer.flush()];
  for (let tick = 0; tick < 50; tick++) writer.tick();
  for (let n = 4; n < 100; n++) writer.push(entry(n));
  assert.is(hold.batches.length, 1, 'one write in flight, no other started');
  assert.is(writer.status().dropped.bufferFull, 100 - 4 - 8);
  hold.release();
  await Promise.all(pending);
  await writer.flush();
  assert.is(writer.status().written, 12);
});

test('close writes what is buffered, retrying a failed batch at once', async () => {
  let failures = 1;
  const written: string[] = [];
  const { writer } = writerWith({
    write: async (batch) => {
      if (failures-- > 0) throw new Error('database restarting');
      written.push(...batch.map((e) => e.requestId));
    },
  });
  writer.push(entry(1));
  writer.push(entry(2));
  await writer.close(5_000);
  assert.equal(written, ['r-1', 'r-2']);
  writer.push(entry(3));
  assert.equal(writer.status().dropped, { bufferFull: 0, writeFailed: 0, shutdown: 1 }, 'closed: counted, not kept');
});

test('close gives up on a hung database after its wait and counts what is left', async () => {
  const hold = heldWrites();
  const { writer, lines } = writerWith({ write: hold.write });
  writer.push(entry(1));
  writer.push(entry(2));
  await writer.close(20);
  assert.equal(writer.status().dropped.shutdown, 2);
  assert.is(writer.status().buffered, 0);
  const report = lines.find((l) => l.msg === 'request log entries dropped');
  assert.ok(report, 'the close reports its drops');
  assert.is(report.requestLog.dropped.shutdown, 2);
  // the write that hung ends after all: its entries count as written, not lost
  hold.release();
  await new Promise((ok) => setImmediate(ok));
  assert.equal(writer.status().dropped.shutdown, 0);
  assert.is(writer.status().written, 2);
});

test('drops are reported in a warn line at most once per period, with the counts', async () => {
  let now = 1_000_000;
  const { writer, lines } = writerWith({
    write: async () => {
      throw new Error('relation "request_logs" does not exist');
    },
    capacity: 2,
    batchSize: 100,
    now: () => now,
  });
  const reports = () => lines.filter((l) => l.msg === 'request log entries dropped');
  writer.tick();
  assert.is(reports().length, 0, 'nothing dropped, nothing said');
  for (let n = 0; n < 5; n++) writer.push(entry(n));
  writer.tick();
  assert.is(reports().length, 1);
  assert.is(reports()[0]!.level, 40);
  assert.equal(reports()[0]!.requestLog.dropped, { bufferFull: 3, writeFailed: 0, shutdown: 0 });
  assert.is(reports()[0]!.droppedSinceLastReport, 3);
  writer.push(entry(9));
  now += 1_000;
  writer.tick();
  assert.is(reports().length, 1, 'not again within the period');
  await writer.flush();
  await writer.flush();
  now += 60_000;
  writer.tick();
  assert.is(reports().length, 2);
  assert.equal(reports()[1]!.requestLog.dropped, { bufferFull: 4, writeFailed: 2, shutdown: 0 });
  assert.is(reports()[1]!.droppedSinceLastReport, 3);
  assert.match(reports()[1]!.lastWriteError, /request_logs/);
});

test('a throwing growth note neither loses the batch nor rejects', async () => {
  const { writer, lines } = writerWith({
    write: async () => undefined,
    written: () => {
      throw new Error('boom');
    },
  });
  writer.push(entry(1));
  await writer.flush();
  assert.is(writer.status().written, 1);
  assert.ok(lines.some((l) => l.level === 50));
});

test.run();
