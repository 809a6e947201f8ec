import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  isValidEndToEndId,
  isValidIdRec,
  isValidPublicId,
  isValidTxid,
  newAccessToken,
  newEndToEndId,
  newEvpKey,
  newIdRec,
  newPublicId,
  newReturnId,
  newTxid,
  randomAlphanumeric,
} from '../../src/lib/ids';

const AT = new Date('2025-03-07T09:05:59.999Z');
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('randomAlphanumeric has the requested length and alphabet', () => {
  assert.is(randomAlphanumeric(0), '');
  for (const n of [1, 11, 32, 300]) {
    const s = randomAlphanumeric(n);
    assert.is(s.length, n);
    assert.match(s, /^[a-zA-Z0-9]*$/);
  }
  assert.throws(() => randomAlphanumeric(-1), /non-negative/);
  assert.throws(() => randomAlphanumeric(1.5), /non-negative/);
});

test('randomAlphanumeric uses the whole alphabet and does not repeat', () => {
  const sample = randomAlphanumeric(20000);
  assert.is(new Set(sample).size, 62);
  assert.is.not(randomAlphanumeric(32), randomAlphanumeric(32));
});

test('newTxid makes valid 32-character txids', () => {
  const txid = newTxid();
  assert.is(txid.length, 32);
  assert.is(isValidTxid(txid), true);
  assert.is.not(newTxid(), txid);
});

test('isValidTxid accepts 26 to 35 alphanumerics only', () => {
  assert.is(isValidTxid('a'.repeat(26)), true);
  assert.is(isValidTxid('Z9'.repeat(17) + 'x'), true); // 35
  assert.is(isValidTxid('a'.repeat(25)), false);
  assert.is(isValidTxid('a'.repeat(36)), false);
  assert.is(isValidTxid('a'.repeat(25) + '-'), false);
  assert.is(isValidTxid('***'), false);
});

test('newEndToEndId is E + ISPB + UTC yyyyMMddHHmm + 11 alphanumerics', () => {
  const id = newEndToEndId('12345678', AT);
  assert.is(id.length, 32);
  assert.is(id.slice(0, 21), 'E12345678202503070905');
  assert.match(id.slice(21), /^[a-zA-Z0-9]{11}$/);
  assert.is(isValidEndToEndId(id), true);
  assert.throws(() => newEndToEndId('1234567', AT), /ISPB/);
  assert.throws(() => newEndToEndId('1234abcd', AT), /ISPB/, 'an ISPB has capital letters only');
  assert.throws(() => newEndToEndId('12345678', new Date('nope')), /invalid/);
});

test('an alphanumeric ISPB (2.9.0) makes EndToEndIds, return ids and idRecs', () => {
  const e2e = newEndToEndId('1234ABCD', AT);
  assert.is(e2e.slice(0, 21), 'E1234ABCD202503070905');
  assert.is(isValidEndToEndId(e2e), true);
  assert.is(newReturnId('1234ABCD', AT).slice(0, 9), 'D1234ABCD');
  const idRec = newIdRec('1234ABCD', AT, true);
  assert.is(idRec.slice(0, 18), 'RR1234ABCD20250307');
  assert.is(isValidIdRec(idRec), true);
  assert.is(isValidIdRec('RR1234abcd20250307' + 'a'.repeat(11)), false);
});

test('newReturnId has the same shape starting with D', () => {
  const id = newReturnId('00000000', AT);
  assert.is(id.length, 32);
  assert.is(id.slice(0, 21), 'D00000000202503070905');
  assert.is(isValidEndToEndId(id), true);
});

test('isValidEndToEndId checks length, alphabet and prefix', () => {
  assert.is(isValidEndToEndId('E' + 'a'.repeat(31)), true);
  assert.is(isValidEndToEndId('D' + '1'.repeat(31)), true);
  assert.is(isValidEndToEndId('X' + 'a'.repeat(31)), false);
  assert.is(isValidEndToEndId('e' + 'a'.repeat(31)), false);
  assert.is(isValidEndToEndId('E' + 'a'.repeat(30)), false);
  assert.is(isValidEndToEndId('E' + 'a'.repeat(32)), false);
  assert.is(isValidEndToEndId('E' + 'a'.repeat(30) + '_'), false);
});

test('newEvpKey and newAccessToken are lowercase UUID v4s', () => {
  assert.match(newEvpKey(), UUID_V4);
  assert.match(newAccessToken(), UUID_V4);
  assert.is.not(newAccessToken(), newAccessToken());
});

test('newIdRec is R + R|N + the ISPB + UTC yyyyMMdd + 11 alphanumerics', () => {
  const withRetry = newIdRec('12345678', AT, true);
  assert.is(withRetry.length, 29);
  assert.is(withRetry.slice(0, 18), 'RR1234567820250307');
  assert.match(withRetry.slice(18), /^[a-zA-Z0-9]{11}$/);
  assert.is(isValidIdRec(withRetry), true);
  const noRetry = newIdRec('12345678', new Date('2025-12-31T23:59:59Z'), false);
  assert.is(noRetry.slice(0, 18), 'RN1234567820251231');
  assert.is(isValidIdRec(noRetry), true);
  assert.is(isValidIdRec('RX1234567820251231' + 'a'.repeat(11)), false);
  assert.is(isValidIdRec('RR1234567820251231' + 'a'.repeat(10)), false);
  assert.throws(() => newIdRec('1234567a', AT, true), /ISPB/);
  assert.throws(() => newIdRec('1234567', AT, true), /ISPB/);
});

test('newPublicId is prefix_ + 24 alphanumerics', () => {
  const id = newPublicId('ch');
  assert.is(id.length, 27);
  assert.match(id, /^ch_[a-zA-Z0-9]{24}$/);
  assert.is(isValidPublicId(id, 'ch'), true);
  assert.is(isValidPublicId(id, 'rf'), false);
  assert.is(isValidPublicId(id + 'a', 'ch'), false);
  assert.is(isValidPublicId('ch_' + 'a'.repeat(23) + '-', 'ch'), false);
  assert.throws(() => newPublicId('Ch'), /prefix/);
  assert.throws(() => newPublicId('ch_'), /prefix/);
  assert.throws(() => newPublicId(''), /prefix/);
});

test.run();
