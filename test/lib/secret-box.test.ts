// Sealed values: AES-256-GCM, a new nonce each time, bound to their place, naming the key
// that sealed them; values kept in clear before are sealed again by resealed().
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStored, resealed, SealedWithAnotherKey, SecretBox } from '../../src/lib/secret-box';

const box = SecretBox.derived('a key of at least thirty-two characters', 'salt', 'test');
const other = SecretBox.derived('another key of at least thirty-two chars', 'salt', 'test');

test('a sealed value opens in its place only, under its key only, and never repeats', () => {
  const a = box.seal('Client_Secret_abc', 'table.column:1');
  const b = box.seal('Client_Secret_abc', 'table.column:1');
  assert.is.not(a, b, 'a new nonce each time');
  assert.match(a, new RegExp(`^sealed:v1:${box.keyId}:[A-Za-z0-9_-]+$`));
  assert.not.ok(a.includes('Client_Secret'));
  assert.is(box.open(a, 'table.column:1'), 'Client_Secret_abc');
  assert.throws(() => box.open(a, 'table.column:2'), /unable to authenticate|Unsupported state/);
  assert.throws(
    () => other.open(a, 'table.column:1'),
    (e: unknown) => e instanceof SealedWithAnotherKey,
  );
  const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'BB' : 'AA');
  assert.throws(() => box.open(tampered, 'table.column:1'));
});

test('resealed: clear values sealed, the previous key moved to the current one, current ones kept', () => {
  const rotated = SecretBox.derived('a third key of at least thirty-two chars', 'salt', 'test', box);
  const old = box.seal('whsec_1', 'p');
  const moved = resealed(rotated, old, 'p');
  assert.ok(moved.startsWith(rotated.sealedPrefix));
  assert.is(rotated.open(moved, 'p'), 'whsec_1');
  assert.is(rotated.open(old, 'p'), 'whsec_1', 'the previous key still opens');
  assert.is(resealed(rotated, moved, 'p'), moved);
  const fromClear = resealed(rotated, 'whsec_2', 'p');
  assert.is(openStored(rotated, fromClear, 'p'), 'whsec_2');
  assert.is(openStored(rotated, 'whsec_plain', 'p'), 'whsec_plain');
  assert.throws(
    () => resealed(rotated, other.seal('x', 'p'), 'p'),
    (e: unknown) => e instanceof SealedWithAnotherKey,
  );
});

test.run();
