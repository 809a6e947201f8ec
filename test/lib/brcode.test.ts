import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  buildCompositeBrCode,
  buildDynamicBrCode,
  buildStaticBrCode,
  emvField,
  parseBrCode,
  parseCompositeBrCode,
  parseTlv,
  type ParsedBrCode,
} from '../../src/lib/brcode';
import { crc16CcittFalse } from '../../src/lib/crc16';
import { cents } from '../../src/lib/money';
import { toEmvText } from '../../src/lib/text';

const MANUAL_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

function parsedOrThrow(code: string): ParsedBrCode {
  const result = parseBrCode(code);
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}

// Recomputes field 63 after editing a code, so only the edit (not the CRC) is under test.
function withFreshCrc(code: string): string {
  const covered = code.slice(0, -4);
  return covered + crc16CcittFalse(covered);
}

test('toEmvText strips accents and non-ASCII, collapses spaces, truncates', () => {
  assert.is(toEmvText('São João do Paraíso', 99), 'Sao Joao do Paraiso');
  assert.is(toEmvText('  Açaí   da\tEsquina\n', 99), 'Acai da Esquina');
  assert.is(toEmvText('CONCEIÇÃO DAS ALAGOAS', 15), 'CONCEICAO DAS A');
  assert.is(toEmvText('Padaria Müller & Straße', 99), 'Padaria Muller & Strasse');
  assert.is(toEmvText('Loja 😀 Feliz', 99), 'Loja Feliz');
  assert.is(toEmvText('Abc defgh', 4), 'Abc'); // no trailing space after truncation
  assert.is(toEmvText('日本', 10), '');
  assert.throws(() => toEmvText('x', -1), /maxLen/);
});

test('emvField encodes id, length and value', () => {
  assert.is(emvField('00', '01'), '000201');
  assert.is(emvField('59', 'Fulano de Tal'), '5913Fulano de Tal');
  assert.is(emvField('26', 'x'.repeat(99)), `2699${'x'.repeat(99)}`);
  assert.throws(() => emvField('26', 'x'.repeat(100)), /1 to 99/);
  assert.throws(() => emvField('26', ''), /1 to 99/);
  assert.throws(() => emvField('5', 'x'), /2 digits/);
  assert.throws(() => emvField('59', 'São'), /ASCII/);
});

test('parseTlv splits fields and rejects truncated input', () => {
  assert.equal(parseTlv('000201010212'), {
    ok: true,
    value: [
      { id: '00', value: '01' },
      { id: '01', value: '12' },
    ],
  });
  assert.equal(parseTlv(''), { ok: true, value: [] });
  assert.equal(parseTlv('0005abc'), { ok: false, reason: 'field 00 declares 5 characters but only 3 remain' });
  assert.equal(parseTlv('0002010'), { ok: false, reason: 'expected a 2-digit id and 2-digit length at position 6' });
  assert.equal(parseTlv('AB02xy'), { ok: false, reason: 'expected a 2-digit id and 2-digit length at position 0' });
});

test('the BR Code manual example parses and its CRC verifies', () => {
  assert.is(crc16CcittFalse(MANUAL_EXAMPLE.slice(0, -4)), '1D3D');
  assert.equal(parsedOrThrow(MANUAL_EXAMPLE), {
    kind: 'static',
    pixKey: '123e4567-e12b-12d1-a456-426655440000',
    merchantName: 'Fulano de Tal',
    merchantCity: 'BRASILIA',
    txid: '***',
    raw: MANUAL_EXAMPLE,
  });
});

test('buildStaticBrCode reproduces the manual example byte for byte', () => {
  const code = buildStaticBrCode({
    pixKey: '123e4567-e12b-12d1-a456-426655440000',
    merchantName: 'Fulano de Tal',
    merchantCity: 'BRASILIA',
  });
  assert.is(code, MANUAL_EXAMPLE);
});

test('static code round trip with amount, txid and description', () => {
  const code = buildStaticBrCode({
    pixKey: 'fulano@example.com',
    merchantName: 'Padaria São José',
    merchantCity: 'Ribeirão Preto',
    amount: cents(1050),
    txid: 'PEDIDO123',
    description: 'Pão de queijo',
  });
  assert.is(
    code.slice(0, -4),
    '00020126570014br.gov.bcb.pix0118fulano@example.com0213Pao de queijo' +
      '520400005303986540510.505802BR5916Padaria Sao Jose6014Ribeirao Preto' +
      '62130509PEDIDO1236304',
  );
  assert.equal(parsedOrThrow(code), {
    kind: 'static',
    pixKey: 'fulano@example.com',
    description: 'Pao de queijo',
    amount: 1050,
    merchantName: 'Padaria Sao Jose',
    merchantCity: 'Ribeirao Preto',
    txid: 'PEDIDO123',
    raw: code,
  });
});

test('static code shortens the description to keep field 26 within 99 characters', () => {
  const pixKey = 'a'.repeat(60) + '@example.com'; // 72 characters
  const code = buildStaticBrCode({
    pixKey,
    merchantName: 'Fulano',
    merchantCity: 'Brasilia',
    description: 'a description that cannot possibly fit',
  });
  const parsed = parsedOrThrow(code);
  assert.is(parsed.description, 'a');
  assert.ok(code.startsWith('00020126990014br.gov.bcb.pix0172'));
  const noRoom = buildStaticBrCode({
    pixKey: 'b'.repeat(65) + '@example.com',
    merchantName: 'F',
    merchantCity: 'B',
    description: 'x',
  });
  assert.is(parsedOrThrow(noRoom).description, undefined);
});

test('static code rejects an invalid txid and a non-positive amount', () => {
  const base = { pixKey: '12345678909', merchantName: 'Fulano', merchantCity: 'Brasilia' };
  assert.throws(() => buildStaticBrCode({ ...base, txid: 'with-dash' }), /txid/);
  assert.throws(() => buildStaticBrCode({ ...base, txid: 'a'.repeat(26) }), /txid/);
  assert.throws(() => buildStaticBrCode({ ...base, amount: cents(0) }), /positive/);
  assert.is(parsedOrThrow(buildStaticBrCode({ ...base, txid: '' })).txid, '***');
});

test('dynamic code layout and round trip', () => {
  const code = buildDynamicBrCode({
    locationUrl: 'https://pix.example.com/qr/v2/9d36b84f-c70b-478f-b95c-12729b90ca25',
    merchantName: 'Fulano de Tal',
    merchantCity: 'São Paulo',
    postalCode: '01310-100',
  });
  assert.is(
    code.slice(0, -4),
    '000201010212' +
      '26800014br.gov.bcb.pix2558pix.example.com/qr/v2/9d36b84f-c70b-478f-b95c-12729b90ca25' +
      '52040000' +
      '5303986' +
      '5802BR5913Fulano de Tal6009Sao Paulo' +
      '610801310100' +
      '62070503***6304',
  );
  assert.equal(parsedOrThrow(code), {
    kind: 'dynamic',
    locationUrl: 'pix.example.com/qr/v2/9d36b84f-c70b-478f-b95c-12729b90ca25',
    merchantName: 'Fulano de Tal',
    merchantCity: 'Sao Paulo',
    postalCode: '01310100',
    txid: '***',
    pointOfInitiation: '12',
    raw: code,
  });
});

test('dynamic code with an amount and an http location', () => {
  const code = buildDynamicBrCode({
    locationUrl: 'http://pix.example.com/qr/abc',
    merchantName: 'Fulano',
    merchantCity: 'Brasilia',
    amount: cents(5),
  });
  const parsed = parsedOrThrow(code);
  assert.is(parsed.locationUrl, 'pix.example.com/qr/abc');
  assert.is(parsed.amount, 5);
  assert.ok(code.includes('54040.05'));
  assert.is(parsed.postalCode, undefined);
});

test('names with accents and long names are cleaned and truncated', () => {
  const code = buildDynamicBrCode({
    locationUrl: 'pix.example.com/qr/abc',
    merchantName: 'Associação dos Produtores Orgânicos do Vale',
    merchantCity: 'São José dos Campos',
  });
  const parsed = parsedOrThrow(code);
  assert.is(parsed.merchantName, 'Associacao dos Produtores');
  assert.is(parsed.merchantCity, 'Sao Jose dos Ca');
  assert.throws(
    () => buildDynamicBrCode({ locationUrl: 'pix.example.com/qr/abc', merchantName: '😀', merchantCity: 'X' }),
    /merchantName/,
  );
});

test('parseBrCode rejects a tampered code', () => {
  const tampered = MANUAL_EXAMPLE.replace('Fulano de Tal', 'Fulano de Tax');
  assert.equal(parseBrCode(tampered), { ok: false, reason: 'CRC does not match' });
  assert.equal(parseBrCode(MANUAL_EXAMPLE.slice(0, -4) + '1D3E'), { ok: false, reason: 'CRC does not match' });
});

test('parseBrCode accepts a lowercase CRC, a GUI in capitals and surrounding whitespace', () => {
  assert.is(parsedOrThrow(MANUAL_EXAMPLE.slice(0, -4) + '1d3d').pixKey, '123e4567-e12b-12d1-a456-426655440000');
  const upperGui = withFreshCrc(MANUAL_EXAMPLE.replace('br.gov.bcb.pix', 'BR.GOV.BCB.PIX'));
  assert.is(parsedOrThrow(upperGui).kind, 'static');
  assert.is(parsedOrThrow(`  ${MANUAL_EXAMPLE}\n`).raw, MANUAL_EXAMPLE);
});

test('parseBrCode names what is wrong', () => {
  const reasonOf = (code: string) => {
    const result = parseBrCode(code);
    return result.ok ? 'ok' : result.reason;
  };
  assert.is(
    reasonOf(withFreshCrc(MANUAL_EXAMPLE.replace('000201', '000202'))),
    'BR Code must start with payload format indicator 01 (000201)',
  );
  assert.is(reasonOf(MANUAL_EXAMPLE.slice(0, -8)), 'BR Code must end with a CRC field (6304 and 4 hex digits)');
  assert.is(
    reasonOf(withFreshCrc(MANUAL_EXAMPLE.replace('br.gov.bcb.pix', 'br.gov.bcb.pax'))),
    'BR Code has no merchant account information with GUI br.gov.bcb.pix',
  );
  assert.is(
    reasonOf(withFreshCrc(MANUAL_EXAMPLE.replace('5303986', '5303840'))),
    'transaction currency (53) must be 986 (BRL)',
  );
  assert.is(reasonOf(withFreshCrc(MANUAL_EXAMPLE.replace('5913Fulano de Tal', ''))), 'merchant name (59) is missing');
  assert.is(reasonOf(withFreshCrc(MANUAL_EXAMPLE.replace('6008BRASILIA', ''))), 'merchant city (60) is missing');
  assert.is(
    reasonOf(withFreshCrc(MANUAL_EXAMPLE.replace('000201', '000201010213'))),
    'point of initiation method (01) must be 11 or 12',
  );
  assert.is(
    reasonOf(withFreshCrc(MANUAL_EXAMPLE.replace('5802BR', '54041,005802BR'))),
    'amount (54) is not a decimal amount',
  );
  assert.is(
    reasonOf('not a code'),
    'BR Code is not a valid EMV payload: expected a 2-digit id and 2-digit length at position 0',
  );
  const noKey = withFreshCrc(
    MANUAL_EXAMPLE.replace('26580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000', '26180014br.gov.bcb.pix'),
  );
  assert.is(reasonOf(noKey), 'merchant account information has neither a Pix key (01) nor a location URL (25)');
});

test('parseBrCode reads amounts with fewer decimals', () => {
  const withAmount = (amount: string) =>
    parsedOrThrow(withFreshCrc(MANUAL_EXAMPLE.replace('5802BR', emvField('54', amount) + '5802BR'))).amount;
  assert.is(withAmount('10'), 1000);
  assert.is(withAmount('10.5'), 1050);
  assert.is(withAmount('0.01'), 1);
  assert.is(withAmount('1234567890.12'), 123456789012);
});

// The standard's own journey-3 example (openapi 2.8.2, recResponse6): field 26 with the cob's
// location, field 80 with the recurrence's, CRC 7741.
const OFFICIAL_JOURNEY_3 =
  '00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa35319489063047741';

test('composite QR code: the official journey-3 example reads, and building it gives the same code', () => {
  const parsed = parseCompositeBrCode(OFFICIAL_JOURNEY_3);
  assert.ok(parsed.ok);
  assert.equal(parsed.value, {
    recurrenceLocationUrl: 'pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890',
    chargeLocationUrl: 'pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441',
    merchantName: 'Fulano de Tal',
    merchantCity: 'BRASILIA',
  });
  const built = buildCompositeBrCode({
    recurrenceLocationUrl: 'https://pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890',
    chargeLocationUrl: 'pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441',
    merchantName: 'Fulano de Tal',
    merchantCity: 'BRASILIA',
  });
  assert.is(built, OFFICIAL_JOURNEY_3);
});

test('composite QR code of journey 2: field 26 carries the Pix GUI alone; a bad CRC or no field 80 is refused', () => {
  const code = buildCompositeBrCode({
    recurrenceLocationUrl: 'pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002',
    merchantName: 'Fulano de Tal',
    merchantCity: 'BRASILIA',
  });
  const fields = parseTlv(code);
  assert.ok(fields.ok);
  assert.is(fields.value.find((f) => f.id === '26')!.value, '0014br.gov.bcb.pix');
  const parsed = parseCompositeBrCode(code);
  assert.ok(parsed.ok && parsed.value.chargeLocationUrl === undefined);
  assert.equal(parseCompositeBrCode(code.slice(0, -4) + '0000'), { ok: false, reason: 'CRC does not match' });
  assert.not.ok(parseCompositeBrCode(MANUAL_EXAMPLE).ok, 'a code without field 80 approves no recurrence');
});

test.run();
