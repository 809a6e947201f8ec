// Text clean-up for fields that must be plain printable ASCII, such as the names in a BR Code.

// Letters that Unicode does not decompose into an ASCII base letter plus marks.
const NON_DECOMPOSING: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
};

// Turns any text into printable ASCII of at most maxLen characters (accents stripped, spaces collapsed).
export function toEmvText(s: string, maxLen: number): string {
  if (!Number.isSafeInteger(maxLen) || maxLen < 0) {
    throw new RangeError(`maxLen must be a non-negative integer, got ${maxLen}`);
  }
  const ascii = s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]/g, (ch) => NON_DECOMPOSING[ch] ?? (/\s/.test(ch) ? ' ' : ''))
    .replace(/ +/g, ' ')
    .trim();
  return ascii.slice(0, maxLen).trimEnd();
}
