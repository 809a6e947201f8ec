// An EMV (BR Code) reader of its own for the recurrence tests, written from the EMV QRCPS
// rules rather than imported from src/lib: TLV fields (2-digit id, 2-digit length, value)
// and the CRC-16/CCITT-FALSE of field 63 over everything before its value.
import * as assert from 'uvu/assert';

function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function tlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i < text.length;) {
    const id = text.slice(i, i + 2);
    const length = Number(text.slice(i + 2, i + 4));
    assert.ok(/^\d{2}$/.test(id) && Number.isInteger(length), `bad TLV header at ${i} of ${text}`);
    fields.set(id, text.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return fields;
}

// The top-level fields of a code whose CRC checks, with 26 and 80 opened as templates.
export function decodeComposite(code: string): {
  fields: Map<string, string>;
  f26: Map<string, string>;
  f80: Map<string, string>;
} {
  const fields = tlv(code);
  assert.is(code.slice(-8, -4), '6304', 'the code ends with the CRC field');
  assert.is(fields.get('63'), crc16(code.slice(0, -4)), 'CRC');
  assert.is(fields.get('00'), '01');
  return { fields, f26: tlv(fields.get('26') ?? ''), f80: tlv(fields.get('80') ?? '') };
}

export function withWrongCrc(code: string): string {
  const crc = code.slice(-4);
  return code.slice(0, -4) + (crc === '0000' ? '0001' : '0000');
}
