import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crc16CcittFalse } from '../../src/lib/crc16';

test('crc of the check string', () => {
  assert.is(crc16CcittFalse('123456789'), '29B1');
});

test('crc of the empty string is the initial value', () => {
  assert.is(crc16CcittFalse(''), 'FFFF');
});

test('crc is 4 uppercase hex digits, zero padded', () => {
  assert.is(crc16CcittFalse('A'), 'B915');
  for (const s of ['a', 'pix', 'x'.repeat(500)]) assert.match(crc16CcittFalse(s), /^[0-9A-F]{4}$/);
});

test('crc closes the BR Code manual example', () => {
  const code =
    '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304';
  assert.is(crc16CcittFalse(code), '1D3D');
});

test('crc runs over UTF-8 bytes', () => {
  // Reference values from Python's binascii.crc_hqx(s.encode('utf8'), 0xFFFF).
  assert.is(crc16CcittFalse('é'), '7ACB');
  assert.is(crc16CcittFalse('São Paulo'), 'E390');
});

test.run();
