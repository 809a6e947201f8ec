// The bounded map behind the memos of verified tokens and headers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BoundedMap } from '../../src/lib/bounded-map';

test('one entry more than it holds drops the oldest; a key set again takes no room', () => {
  const map = new BoundedMap<string, number>(3);
  for (const [k, v] of [
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ] as const)
    map.set(k, v);
  map.set('a', 10);
  assert.is(map.size, 3);
  assert.is(map.get('a'), 10);
  map.set('d', 4);
  assert.is(map.size, 3);
  assert.is(map.get('a'), undefined, 'the oldest insertion goes, even though it was set again');
  assert.is(map.get('b'), 2);
  assert.is(map.get('d'), 4);
  map.delete('b');
  assert.is(map.size, 2);
});

test.run();
