// CRC-16/CCITT-FALSE, the checksum that closes every EMV QR code (field 63 of a BR Code).

const POLYNOMIAL = 0x1021;
const INITIAL = 0xffff;

// Computes CRC-16/CCITT-FALSE over the UTF-8 bytes of s as 4 uppercase hex digits.
export function crc16CcittFalse(s: string): string {
  let crc = INITIAL;
  for (const byte of Buffer.from(s, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ POLYNOMIAL) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
