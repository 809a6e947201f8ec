// The bounds on waiting for the database and on a request: defaults, what may be set, and
// the refusals (one clear message naming the variable).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';

test('defaults: connect 5 s, statement 10 s, idle in transaction 10 s, keep-alive 10 s, request 15 s', () => {
  const config = loadConfig({});
  assert.equal(config.databaseTimeouts, {
    connectMs: 5000,
    statementMs: 10_000,
    idleInTransactionMs: 10_000,
    keepAliveMs: 10_000,
  });
  assert.is(config.requestTimeoutMs, 15_000);
});

test('each bound is read from its variable', () => {
  const config = loadConfig({
    PIXGATE_DB_CONNECT_TIMEOUT_MS: '2000',
    PIXGATE_DB_STATEMENT_TIMEOUT_MS: '0',
    PIXGATE_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '60000',
    PIXGATE_DB_KEEPALIVE_MS: '30000',
    PIXGATE_REQUEST_TIMEOUT_MS: '20000',
  });
  assert.equal(config.databaseTimeouts, {
    connectMs: 2000,
    statementMs: 0,
    idleInTransactionMs: 60_000,
    keepAliveMs: 30_000,
  });
  assert.is(config.requestTimeoutMs, 20_000);
});

test('a bound that cannot be used is refused, naming its variable', () => {
  for (const [name, value] of [
    ['PIXGATE_DB_CONNECT_TIMEOUT_MS', '0'],
    ['PIXGATE_DB_STATEMENT_TIMEOUT_MS', '-1'],
    ['PIXGATE_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', '1.5'],
    ['PIXGATE_DB_KEEPALIVE_MS', 'soon'],
    ['PIXGATE_REQUEST_TIMEOUT_MS', '99'],
  ] as const) {
    assert.throws(() => loadConfig({ [name]: value }), new RegExp(`${name} must be a whole number of milliseconds`));
  }
});

test('the request deadline must leave a manual redelivery its receiver timeout', () => {
  assert.throws(
    () => loadConfig({ PIXGATE_REQUEST_TIMEOUT_MS: '5000', PIXGATE_WEBHOOK_TIMEOUT_MS: '5000' }),
    /PIXGATE_REQUEST_TIMEOUT_MS \(5000\) must be longer than PIXGATE_WEBHOOK_TIMEOUT_MS \(5000\)/,
  );
  assert.is(
    loadConfig({ PIXGATE_REQUEST_TIMEOUT_MS: '5001', PIXGATE_WEBHOOK_TIMEOUT_MS: '5000' }).requestTimeoutMs,
    5001,
  );
});

test.run();
