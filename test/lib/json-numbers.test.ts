// The scanner that finds number literals JSON.parse reads inexactly (a fraction, an exponent,
// an integer beyond 2^53 - 1), with their place in the document.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inexactNumberLiterals, isExactIntegerText } from '../../src/lib/json-numbers';

test('exact integer text', () => {
  for (const t of ['0', '-0', '100', '-5', '9007199254740991', '-9007199254740991'])
    assert.ok(isExactIntegerText(t), t);
  for (const t of ['100.0', '1e2', '1E2', '100.000000000000001', '9007199254740992', '99999999999999999999', '0.5'])
    assert.not.ok(isExactIntegerText(t), t);
});

test('literals are found with their paths, inside objects and arrays, past strings that look like numbers', () => {
  const text = `{"value": 100.000000000000001, "ok": 100, "name": "a \\"1.5\\" b", "items": [1, 2.0, {"v": 1e2}],
    "nested": {"k\\u0031": [[3, 99999999999.99999999]]}, "big": 9007199254740993, "t": true, "n": null, "f": false,
    "date": "2026-01-01T00:00:00.000Z", "neg": -0.0}`;
  assert.equal(inexactNumberLiterals(text), [
    { path: ['value'], text: '100.000000000000001' },
    { path: ['items', 1], text: '2.0' },
    { path: ['items', 2, 'v'], text: '1e2' },
    { path: ['nested', 'k1', 0, 1], text: '99999999999.99999999' },
    { path: ['big'], text: '9007199254740993' },
    { path: ['neg'], text: '-0.0' },
  ]);
  // as JSON.parse reads them: the spelling is lost
  const parsed = JSON.parse(text);
  assert.is(parsed.value, 100);
  assert.is(parsed.nested.k1[0][1], 100000000000);
});

test('a document of exact integers has nothing to find; a top-level number is found at the root', () => {
  assert.equal(inexactNumberLiterals('{"value": 1234, "list": [1, -2, 0], "s": "1.5e3"}'), []);
  assert.equal(inexactNumberLiterals('[{"a": "x"}, 12345678901234567]'), [{ path: [1], text: '12345678901234567' }]);
  assert.equal(inexactNumberLiterals('1.5'), [{ path: [], text: '1.5' }]);
});

test('text that is not JSON does not stop the scan', () => {
  assert.equal(inexactNumberLiterals('{"a": -x, "b": 1.5}'), [{ path: ['b'], text: '1.5' }]);
});

test.run();
