// What the request log keeps of bodies, query strings and messages: each kind of secret
// taken out, card-like numbers masked, everything else untouched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  REDACTED,
  luhnValid,
  redactedRequestJson,
  redactedResponseJson,
  scrubQuery,
  scrubText,
  storableText,
} from '../../src/lib/redact';
import { newCredentials } from '../../src/identity/credentials';

const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzY29wZSI6ImNvYi5yZWFkIiwiY2lkIjoiYWJjIn0.5mQy2hYc3mB1qv6Ds3ZbqgC1Ue1ZlqgjW3mO0b1d2Yk';
const PEM = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
  '-----END PRIVATE KEY-----',
].join('\n');

const json = (value: unknown, side: 'request' | 'response' = 'request') =>
  JSON.parse((side === 'request' ? redactedRequestJson : redactedResponseJson)(value, 100_000)!.text);

test('Luhn: test card numbers pass, a changed digit fails', () => {
  for (const pan of ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '4222222222222'])
    assert.ok(luhnValid(pan), pan);
  assert.not.ok(luhnValid('4111111111111112'));
  assert.not.ok(luhnValid('1234567890123'));
});

test('card-like numbers keep their last four digits, grouped or not, in any string', () => {
  assert.is(scrubText('card 4111111111111111 ok'), 'card ************1111 ok');
  assert.is(scrubText('4111 1111 1111 1111'), '**** **** **** 1111');
  assert.is(scrubText('amex 3782-822463-10005.'), 'amex ****-******-*0005.');
  assert.is(scrubText('/api/v1/charge/5555555555554444'), '/api/v1/charge/************4444');
  // not a card: fails Luhn, too short, part of a longer token (an endToEndId), a CPF
  assert.is(scrubText('4111111111111112'), '4111111111111112');
  assert.is(scrubText('411111111111'), '411111111111');
  assert.is(scrubText('E182361202026031514414111111111111111'), 'E182361202026031514414111111111111111');
  assert.is(scrubText('cpf 529.982.247-25'), 'cpf 529.982.247-25');
});

test('credentials in any string: bearer and basic, JWTs, PEM private keys, client secrets, appIDs, webhook secrets', () => {
  const { appID, clientSecret, clientId } = newCredentials();
  assert.is(scrubText(`Bearer ${JWT}`), `Bearer ${REDACTED}`);
  assert.is(scrubText('authorization: Basic Y2xpZW50OnNlY3JldA=='), `authorization: Basic ${REDACTED}`);
  assert.is(scrubText(`token ${JWT} end`), `token ${REDACTED} end`);
  assert.is(scrubText(`key:\n${PEM}\nrest`), 'key:\n[redacted private key]\nrest');
  // a PEM cut by the clipping has no END line: the rest goes too
  assert.is(scrubText(PEM.slice(0, 60)), '[redacted private key]');
  assert.is(scrubText(`wrong ${clientSecret}!`), `wrong ${REDACTED}!`);
  assert.is(scrubText(appID), REDACTED);
  assert.is(scrubText('secret whsec_4f9a8b7c6d5e4f3a2b1c'), `secret ${REDACTED}`);
  // the client id alone is not a secret
  assert.is(scrubText(clientId), clientId);
  assert.is(scrubText('nothing to see: pedido-2026-000184'), 'nothing to see: pedido-2026-000184');
});

test('JSON: secret-named keys lose their values at any depth; other values are scrubbed', () => {
  const { appID } = newCredentials();
  const body = {
    correlationID: 'pedido-1',
    clientSecret: 'anything at all',
    client_secret: 'x',
    nested: { password: 'hunter2', Authorization: 'Bearer abc', webhook: { authorization: 'token-123' } },
    list: [{ access_token: JWT }, { appID }, { privateKey: 'k' }, { refreshToken: 'r' }],
    comment: 'paid with 4111111111111111',
    pan: 4111111111111111,
    amount: 1234,
    empty: '',
    none: null,
  };
  assert.equal(json(body), {
    correlationID: 'pedido-1',
    clientSecret: REDACTED,
    client_secret: REDACTED,
    nested: { password: REDACTED, Authorization: REDACTED, webhook: { authorization: REDACTED } },
    list: [{ access_token: REDACTED }, { appID: REDACTED }, { privateKey: REDACTED }, { refreshToken: REDACTED }],
    comment: 'paid with ************1111',
    pan: '************1111',
    amount: 1234,
    empty: '',
    none: null,
  });
});

test('JSON: one-time codes are taken out of requests; codes of answers stay', () => {
  assert.equal(json({ correlationID: 'x', representativeId: 'r', code: '123456' }), {
    correlationID: 'x',
    representativeId: 'r',
    code: REDACTED,
  });
  assert.equal(json({ error: [{ code: 'too_small', message: 'm' }] }, 'response'), {
    error: [{ code: 'too_small', message: 'm' }],
  });
});

test('JSON: a field issue naming a secret field loses the value beside it', () => {
  const answer = {
    error: 'Validation error',
    details: [
      { field: 'application.clientSecret', message: 'is invalid', value: 'Sup3r-s3cret' },
      { field: 'value', message: 'must be >= 1', value: '-5' },
    ],
  };
  assert.equal(json(answer, 'response'), {
    error: 'Validation error',
    details: [
      { field: 'application.clientSecret', message: 'is invalid', value: REDACTED },
      { field: 'value', message: 'must be >= 1', value: '-5' },
    ],
  });
});

test('JSON: clipped at the limit, never in the middle of a surrogate pair, and says so', () => {
  const long = redactedRequestJson({ comment: 'a'.repeat(100) }, 50)!;
  assert.is(long.text.length, 50);
  assert.ok(long.clipped);
  // '{"c":"' is 6 characters, each emoji 2: a cut at 7 would split the first one
  assert.equal(redactedRequestJson({ c: '😀😀😀😀' }, 7), { text: '{"c":"', clipped: true });
  assert.equal(redactedRequestJson({ c: '😀😀😀😀' }, 8), { text: '{"c":"😀', clipped: true });
  assert.equal(redactedRequestJson({ a: 1 }, 50), { text: '{"a":1}', clipped: false });
  assert.is(redactedRequestJson(undefined, 50), undefined);
});

test('query strings: secret-named parameters lose their values, the rest is scrubbed', () => {
  assert.is(
    scrubQuery('inicio=2026-01-01&access_token=abc&client_secret=Client_Secret_x&card=4111111111111111'),
    'inicio=2026-01-01&access_token=%5Bredacted%5D&client_secret=%5Bredacted%5D&card=************1111',
  );
  assert.is(scrubQuery('pass%77ord=x'), 'pass%77ord=%5Bredacted%5D');
  assert.is(scrubQuery('skip=0&limit=20'), 'skip=0&limit=20');
});

test('storable text: NUL and lone surrogates become U+FFFD, pairs stay', () => {
  assert.is(storableText('a\u0000b'), 'a\uFFFDb');
  assert.is(storableText('x\uD800y'), 'x\uFFFDy');
  assert.is(storableText('x\uDC00'), 'x\uFFFD');
  assert.is(storableText('😀'), '😀');
});

test.run();
