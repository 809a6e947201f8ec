// The number literals of a JSON text that JSON.parse does not read exactly as the integer
// they spell: a fraction or an exponent (100.0, 1e2, 100.000000000000001, which parses to
// 100), or an integer beyond 2^53 - 1 (rounded to the nearest double). JSON.parse drops the
// spelling and Node 20 has no reviver `context.source`, so the text is scanned once more, by
// a scanner that trusts it to be JSON (it runs after JSON.parse accepted it).
export type JsonPath = Array<string | number>;

export interface NumberLiteral {
  path: JsonPath;
  text: string;
}

const EXACT_INTEGER = /^-?(0|[1-9][0-9]*)$/;
// Nothing to find in a text without a digit followed by a fraction or exponent, or without a
// run of 16 digits (2^53 has 16).
const MAYBE_INEXACT = /[0-9][.eE]|[0-9]{16}/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const MAX_FOUND = 100;

export function isExactIntegerText(text: string): boolean {
  return EXACT_INTEGER.test(text) && Number.isSafeInteger(Number(text));
}

interface Frame {
  kind: 'object' | 'array';
  key: string | number;
  expectingKey: boolean;
}

// The literals of `text` (valid JSON) that are not exact integers, with where they are.
export function inexactNumberLiterals(text: string): NumberLiteral[] {
  if (!MAYBE_INEXACT.test(text)) return [];
  const found: NumberLiteral[] = [];
  const stack: Frame[] = [];
  for (let i = 0; i < text.length && found.length < MAX_FOUND;) {
    const ch = text[i]!;
    const top = stack[stack.length - 1];
    if (ch === '{' || ch === '[') {
      stack.push({ kind: ch === '{' ? 'object' : 'array', key: ch === '{' ? '' : 0, expectingKey: ch === '{' });
      i++;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      i++;
    } else if (ch === ',') {
      if (top?.kind === 'array') top.key = (top.key as number) + 1;
      else if (top) top.expectingKey = true;
      i++;
    } else if (ch === '"') {
      const end = endOfString(text, i);
      if (top?.expectingKey) {
        top.key = JSON.parse(text.slice(i, end)) as string;
        top.expectingKey = false;
      }
      i = end;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(text)?.[0];
      if (literal === undefined)
        i++; // (not JSON: nothing JSON.parse accepted)
      else {
        if (!isExactIntegerText(literal)) found.push({ path: stack.map((f) => f.key), text: literal });
        i += literal.length;
      }
    } else i++; // whitespace, ':', and the letters of true, false and null
  }
  return found;
}

// The index just past the string that starts (with its quote) at `start`.
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}
