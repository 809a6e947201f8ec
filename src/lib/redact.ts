// Redaction of what the request log keeps (src/request-logs): credentials, secrets, tokens
// and card-like numbers are taken out of bodies, query strings and messages before they are
// stored. Keys that name a secret lose their value whatever it is; any string loses what looks
// like a credential (a bearer or basic credential, a JWT, a PEM private key, this server's
// client secrets, appIDs and webhook secrets) or a card number (13 to 19 digits, optionally
// grouped by spaces or dashes, passing the Luhn check: all but the last four digits masked).

export const REDACTED = '[redacted]';

// Key names compared lowercased without separators (client_secret, clientSecret, Client-Secret).
const SECRET_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'appid',
  'clientsecret',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'privatekey',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'token',
  'apikey',
  'cookie',
  'cvv',
  'cvc',
  'securitycode',
  'pin',
]);

// Request bodies also carry one-time codes (the KYC code confirmations); answers use `code`
// for issue and bank codes, which stay readable.
const REQUEST_SECRET_KEYS = new Set([...SECRET_KEYS, 'code', 'otp']);

const normalizedKey = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

function namesSecret(key: string, keys: ReadonlySet<string>): boolean {
  const k = normalizedKey(key);
  return keys.has(k) || k.endsWith('secret') || k.endsWith('password') || k.endsWith('token');
}

export function isSecretKey(key: string): boolean {
  return namesSecret(key, SECRET_KEYS);
}

// Each credential shape and what replaces it.
const CREDENTIAL_PATTERNS: Array<[RegExp, string]> = [
  [/-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g, '[redacted private key]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // this server's client secrets, appIDs (base64 of "Client_Id_...:Client_Secret_...") and
  // webhook secrets
  [/Client_Secret_[A-Za-z0-9_-]+/g, REDACTED],
  [/Q2xpZW50X0lk[A-Za-z0-9+/=_-]*/g, REDACTED],
  [/whsec_[A-Za-z0-9_-]+/g, REDACTED],
];
const MAY_HOLD_CREDENTIAL = /-----BEGIN|Bearer|Basic|eyJ|Client_Secret_|Q2xpZW50X0lk|whsec_/i;

const CARD_LIKE = /(?<![A-Za-z0-9])\d(?:[ -]?\d){12,18}(?![A-Za-z0-9])/g;
const MAY_HOLD_CARD = /\d(?:[ -]?\d){12}/;

// The Luhn check of a string of digits.
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

// A card-like number with every digit but the last four masked (separators kept).
function maskedCard(match: string): string {
  const digits = match.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) return match;
  let keep = 4;
  let out = '';
  for (let i = match.length - 1; i >= 0; i--) {
    const c = match[i]!;
    if (c >= '0' && c <= '9') out = (keep-- > 0 ? c : '*') + out;
    else out = c + out;
  }
  return out;
}

// The text without credentials and card numbers.
export function scrubText(text: string): string {
  let out = text;
  if (MAY_HOLD_CREDENTIAL.test(out)) {
    for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
  }
  if (MAY_HOLD_CARD.test(out)) out = out.replace(CARD_LIKE, maskedCard);
  return out;
}

// A query string with the values of secret-named parameters replaced, then scrubbed.
export function scrubQuery(query: string): string {
  const named = query.replace(/(^|&)([^=&]*)=([^&]*)/g, (whole, lead: string, key: string) => {
    let name = key;
    try {
      name = decodeURIComponent(key.replace(/\+/g, ' '));
    } catch {
      // a stray % is taken literally
    }
    return isSecretKey(name) ? `${lead}${key}=${encodeURIComponent(REDACTED)}` : whole;
  });
  return scrubText(named);
}

export interface RedactedJson {
  text: string;
  // The JSON was longer than the limit and was cut (it is then not valid JSON).
  clipped: boolean;
}

// A JSON number that is a card-like number becomes its masked string.
function scrubNumber(value: number): number | string {
  if (!Number.isSafeInteger(value) || Math.abs(value) < 1e12) return value;
  const masked = maskedCard(String(Math.abs(value)));
  return masked === String(Math.abs(value)) ? value : masked;
}

function redactedJson(value: unknown, maxChars: number, keys: ReadonlySet<string>): RedactedJson | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    if (key && namesSecret(key, keys) && v !== null && v !== undefined && v !== '') return REDACTED;
    // a field issue naming a secret field carries its value beside it: { field, value }
    if (key === 'value' && typeof this.field === 'string' && namesSecret(this.field.split('.').pop()!, keys))
      return REDACTED;
    if (typeof v === 'string') return scrubText(v);
    if (typeof v === 'number') return scrubNumber(v);
    return v;
  }) as string | undefined;
  if (text === undefined) return undefined;
  if (text.length <= maxChars) return { text, clipped: false };
  // not in the middle of a surrogate pair: the stored text stays well-formed
  const end = /[\uD800-\uDBFF]/.test(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return { text: text.slice(0, end), clipped: true };
}

// A request body (parsed JSON or form) as redacted JSON text of at most maxChars characters.
export function redactedRequestJson(value: unknown, maxChars: number): RedactedJson | undefined {
  return redactedJson(value, maxChars, REQUEST_SECRET_KEYS);
}

// An answer's body (an error of either API) as redacted JSON text of at most maxChars characters.
export function redactedResponseJson(value: unknown, maxChars: number): RedactedJson | undefined {
  return redactedJson(value, maxChars, SECRET_KEYS);
}

// Text Postgres can store: NUL and lone surrogates (which JSON escapes but a text column
// refuses) become U+FFFD.
export function storableText(text: string): string {
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
