// CRC-16/CCITT-FALSE, the checksum that closes every EMV QR code (field 63 of a BR Code).

const POLYNOMIAL = 0x1021;
const INITIAL = 0xffff;

// The CRC of each byte value, computed once: a byte then costs one lookup instead of 8 shifts
// (every charge answer builds its BR Code).
const TABLE = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ POLYNOMIAL) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});

// Computes CRC-16/CCITT-FALSE over the UTF-8 bytes of s as 4 uppercase hex digits.
export function crc16CcittFalse(s: string): string {
  let crc = INITIAL;
  for (const byte of Buffer.from(s, 'utf8')) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
