// The cache of verified bearer tokens: an entry answers only until its token expires, and a
// full cache lets its oldest entry go.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VerifiedTokens } from '../../src/identity/oauth.service';

const claims = (exp: number) => ({ sub: 'app-1', scope: 'cob.read', exp });

test('a verified token answers until the second it expires, then is forgotten', () => {
  const tokens = new VerifiedTokens();
  tokens.add('t1', claims(1_000));
  assert.equal(tokens.get('t1', 999_999), claims(1_000));
  assert.is(tokens.get('t1', 1_000_000), undefined);
  assert.is(tokens.size, 0);
  assert.is(tokens.get('never-added', 0), undefined);
});

test('a full cache drops its oldest token first', () => {
  const tokens = new VerifiedTokens();
  for (let i = 0; i < 10_000; i++) tokens.add(`t${i}`, claims(2_000));
  tokens.add('newest', claims(2_000));
  assert.is(tokens.size, 10_000);
  assert.is(tokens.get('t0', 0), undefined);
  assert.ok(tokens.get('t1', 0));
  assert.ok(tokens.get('newest', 0));
});

test.run();
