// The change feed's settle: requests handled in one turn of the event loop share one wait
// (one setImmediate, not one each), and a request that asks after it ran waits for the next.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PostgresChangeFeed } from '../../src/db/change-feed';

test('settled(): one wait per turn of the event loop, shared by every caller of that turn', async () => {
  // never started: settled() needs no connection
  const feed = new PostgresChangeFeed('postgres://unused.invalid/none', 'pixgate_settle_test');
  const first = feed.settled();
  assert.is(feed.settled(), first, 'a second caller in the same turn shares the wait');
  let ranBefore = false;
  setImmediate(() => (ranBefore = true));
  await first;
  // the wait was queued before that immediate, so it ran first and that one has not yet
  assert.is(ranBefore, false);
  const next = feed.settled();
  assert.is.not(next, first, 'a caller after the wait ended waits for the next turn');
  await next;
  assert.is(ranBefore, true);
});

test.run();
