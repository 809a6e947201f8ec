// The "BR Code" of the Pix arrangement: EMV QRCPS merchant-presented QR code payloads,
// built as TLV fields (2-digit id, 2-digit length, value) and closed by a CRC-16 in field 63.

import { crc16CcittFalse } from './crc16';
import { cents, fail, formatDecimalAmount, ok, type Cents, type Result } from './money';
import { toEmvText } from './text';

export const PIX_GUI = 'br.gov.bcb.pix';

const MAX_FIELD_LENGTH = 99;
const MERCHANT_NAME_MAX = 25;
const MERCHANT_CITY_MAX = 15;
const DEFAULT_REFERENCE_LABEL = '***';
const REFERENCE_LABEL = /^[a-zA-Z0-9]{1,25}$/;
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
const EMV_AMOUNT = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** One TLV field of an EMV payload. */
export type TlvField = { id: string; value: string };

export type DynamicBrCodeInput = {
  /** The payload location, with or without https://; the code carries it without the scheme. */
  locationUrl: string;
  merchantName: string;
  merchantCity: string;
  amount?: Cents;
  postalCode?: string;
};

export type StaticBrCodeInput = {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  amount?: Cents;
  /** Up to 25 letters or digits; "***" when absent. */
  txid?: string;
  /** Shortened to fit field 26 (at most 99 characters). */
  description?: string;
};

export type ParsedBrCode = {
  kind: 'dynamic' | 'static';
  pixKey?: string;
  /** As carried in the code, that is without the https:// scheme. */
  locationUrl?: string;
  description?: string;
  amount?: Cents;
  merchantName: string;
  merchantCity: string;
  postalCode?: string;
  txid?: string;
  pointOfInitiation?: '11' | '12';
  raw: string;
};

// Encodes one EMV TLV field; throws if the id is not 2 digits or the value is not 1-99 printable ASCII characters.
export function emvField(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`EMV field id must be 2 digits, got ${JSON.stringify(id)}`);
  if (value.length === 0 || value.length > MAX_FIELD_LENGTH) {
    throw new RangeError(`EMV field ${id} must have 1 to ${MAX_FIELD_LENGTH} characters, got ${value.length}`);
  }
  if (!PRINTABLE_ASCII.test(value)) throw new RangeError(`EMV field ${id} must be printable ASCII`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

// Splits an EMV payload (or a template's value) into its TLV fields.
export function parseTlv(s: string): Result<TlvField[]> {
  const fields: TlvField[] = [];
  let position = 0;
  while (position < s.length) {
    const header = s.slice(position, position + 4);
    if (!/^\d{4}$/.test(header)) {
      return fail(`expected a 2-digit id and 2-digit length at position ${position}`);
    }
    const id = header.slice(0, 2);
    const length = Number(header.slice(2));
    const value = s.slice(position + 4, position + 4 + length);
    if (value.length !== length) {
      return fail(`field ${id} declares ${length} characters but only ${value.length} remain`);
    }
    fields.push({ id, value });
    position += 4 + length;
  }
  return ok(fields);
}

// Appends field 63 (CRC over everything up to and including "6304") to a payload.
function withCrc(payloadWithoutCrc: string): string {
  const covered = `${payloadWithoutCrc}6304`;
  return covered + crc16CcittFalse(covered);
}

function amountField(amount: Cents | undefined): string {
  if (amount === undefined) return '';
  if (cents(amount) <= 0) throw new RangeError(`BR Code amount must be positive, got ${amount} cents`);
  return emvField('54', formatDecimalAmount(amount));
}

function merchantFields(merchantName: string, merchantCity: string): string {
  const name = toEmvText(merchantName, MERCHANT_NAME_MAX);
  const city = toEmvText(merchantCity, MERCHANT_CITY_MAX);
  if (!name) throw new RangeError('merchantName has no printable characters');
  if (!city) throw new RangeError('merchantCity has no printable characters');
  return '5802BR' + emvField('59', name) + emvField('60', city);
}

// Builds the BR Code of a dynamic charge, whose payload is fetched from locationUrl.
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  const location = input.locationUrl.replace(/^https?:\/\//i, '');
  const postalCode = (input.postalCode ?? '').replace(/\D/g, '');
  const payload =
    '000201' +
    '010212' +
    emvField('26', emvField('00', PIX_GUI) + emvField('25', location)) +
    '52040000' +
    '5303986' +
    amountField(input.amount) +
    merchantFields(input.merchantName, input.merchantCity) +
    (postalCode ? emvField('61', postalCode) : '') +
    emvField('62', emvField('05', DEFAULT_REFERENCE_LABEL));
  return withCrc(payload);
}

// Builds the BR Code of a static charge that pays straight to a Pix key.
export function buildStaticBrCode(input: StaticBrCodeInput): string {
  const txid = input.txid ? input.txid : DEFAULT_REFERENCE_LABEL;
  if (txid !== DEFAULT_REFERENCE_LABEL && !REFERENCE_LABEL.test(txid)) {
    throw new RangeError('static BR Code txid must be 1 to 25 letters or digits');
  }
  let accountInfo = emvField('00', PIX_GUI) + emvField('01', input.pixKey);
  const descriptionRoom = MAX_FIELD_LENGTH - accountInfo.length - 4;
  const description = toEmvText(input.description ?? '', Math.max(0, descriptionRoom));
  if (description) accountInfo += emvField('02', description);
  const payload =
    '000201' +
    emvField('26', accountInfo) +
    '52040000' +
    '5303986' +
    amountField(input.amount) +
    merchantFields(input.merchantName, input.merchantCity) +
    emvField('62', emvField('05', txid));
  return withCrc(payload);
}

export type CompositeBrCodeInput = {
  /** The recurrence's payload location (locrec), carried in field 80. */
  recurrenceLocationUrl: string;
  /** The payload location of the charge paid with the approval (journeys 3 and 4), field 26. */
  chargeLocationUrl?: string;
  merchantName: string;
  merchantCity: string;
};

export type ParsedCompositeBrCode = {
  recurrenceLocationUrl: string;
  chargeLocationUrl?: string;
  merchantName: string;
  merchantCity: string;
};

function withoutScheme(url: string): string {
  return url.replace(/^https?:\/\//i, '');
}

// Builds the composite QR code of Pix Automatico (standard 2.7.0+): field 80 carries the
// recurrence's location; field 26 the location of the charge paid with the approval
// (journeys 3 and 4), or the Pix GUI alone (journey 2: nothing to pay, the code stays a
// well-formed Pix code for readers that only know field 26).
export function buildCompositeBrCode(input: CompositeBrCodeInput): string {
  const charge = input.chargeLocationUrl === undefined ? '' : emvField('25', withoutScheme(input.chargeLocationUrl));
  const payload =
    '000201' +
    '010212' +
    emvField('26', emvField('00', PIX_GUI) + charge) +
    '52040000' +
    '5303986' +
    merchantFields(input.merchantName, input.merchantCity) +
    emvField('62', emvField('05', DEFAULT_REFERENCE_LABEL)) +
    emvField('80', emvField('00', PIX_GUI) + emvField('25', withoutScheme(input.recurrenceLocationUrl)));
  return withCrc(payload);
}

// Reads a composite QR code of Pix Automatico: CRC, field 80 with the Pix GUI and a
// recurrence location, and the charge location of field 26 when it has one.
export function parseCompositeBrCode(s: string): Result<ParsedCompositeBrCode> {
  const raw = s.trim();
  const parsed = parseTlv(raw);
  if (!parsed.ok) return fail(`BR Code is not a valid EMV payload: ${parsed.reason}`);
  const fields = parsed.value;
  const last = fields[fields.length - 1];
  if (fields[0]?.id !== '00' || last?.id !== '63') return fail('BR Code must start with 000201 and end with a CRC');
  if (crc16CcittFalse(raw.slice(0, -4)) !== last.value.toUpperCase()) return fail('CRC does not match');
  const template = (id: string): TlvField[] | undefined => {
    const value = findField(fields, id);
    const sub = value === undefined ? undefined : parseTlv(value);
    return sub?.ok && findField(sub.value, '00')?.toLowerCase() === PIX_GUI ? sub.value : undefined;
  };
  const recurrenceLocationUrl = findField(template('80') ?? [], '25');
  if (recurrenceLocationUrl === undefined) return fail('BR Code has no recurrence location (field 80)');
  const chargeLocationUrl = findField(template('26') ?? [], '25');
  return ok({
    recurrenceLocationUrl,
    ...(chargeLocationUrl !== undefined ? { chargeLocationUrl } : {}),
    merchantName: findField(fields, '59') ?? '',
    merchantCity: findField(fields, '60') ?? '',
  });
}

function findField(fields: TlvField[], id: string): string | undefined {
  return fields.find((field) => field.id === id)?.value;
}

function parseEmvAmount(value: string): Result<Cents> {
  const match = EMV_AMOUNT.exec(value);
  if (!match) return fail('amount (54) is not a decimal amount');
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  return ok(cents(whole * 100 + fraction));
}

// Finds the merchant account information template (ids 26 to 51) whose GUI is the Pix one.
function findPixAccountInfo(fields: TlvField[]): TlvField[] | undefined {
  for (const field of fields) {
    const id = Number(field.id);
    if (id < 26 || id > 51) continue;
    const subfields = parseTlv(field.value);
    if (!subfields.ok) continue;
    if (findField(subfields.value, '00')?.toLowerCase() === PIX_GUI) return subfields.value;
  }
  return undefined;
}

// Reads a BR Code copied by a payer: checks its format, CRC and Pix GUI and extracts its data.
export function parseBrCode(s: string): Result<ParsedBrCode> {
  if (typeof s !== 'string') return fail('BR Code must be a string');
  const raw = s.trim();
  const parsed = parseTlv(raw);
  if (!parsed.ok) return fail(`BR Code is not a valid EMV payload: ${parsed.reason}`);
  const fields = parsed.value;
  if (fields[0]?.id !== '00' || fields[0].value !== '01') {
    return fail('BR Code must start with payload format indicator 01 (000201)');
  }
  const last = fields[fields.length - 1];
  if (last?.id !== '63' || !/^[0-9A-Fa-f]{4}$/.test(last.value)) {
    return fail('BR Code must end with a CRC field (6304 and 4 hex digits)');
  }
  if (crc16CcittFalse(raw.slice(0, -4)) !== last.value.toUpperCase()) return fail('CRC does not match');

  const pointOfInitiation = findField(fields, '01');
  if (pointOfInitiation !== undefined && pointOfInitiation !== '11' && pointOfInitiation !== '12') {
    return fail('point of initiation method (01) must be 11 or 12');
  }
  const accountInfo = findPixAccountInfo(fields);
  if (!accountInfo) return fail(`BR Code has no merchant account information with GUI ${PIX_GUI}`);
  const locationUrl = findField(accountInfo, '25');
  const pixKey = findField(accountInfo, '01');
  if (locationUrl === undefined && pixKey === undefined) {
    return fail('merchant account information has neither a Pix key (01) nor a location URL (25)');
  }
  const currency = findField(fields, '53');
  if (currency !== undefined && currency !== '986') return fail('transaction currency (53) must be 986 (BRL)');

  const merchantName = findField(fields, '59');
  if (!merchantName) return fail('merchant name (59) is missing');
  const merchantCity = findField(fields, '60');
  if (!merchantCity) return fail('merchant city (60) is missing');

  const result: ParsedBrCode = {
    kind: locationUrl !== undefined ? 'dynamic' : 'static',
    merchantName,
    merchantCity,
    raw,
  };
  if (locationUrl !== undefined) result.locationUrl = locationUrl;
  if (pixKey !== undefined) result.pixKey = pixKey;
  const description = findField(accountInfo, '02');
  if (description !== undefined) result.description = description;
  if (pointOfInitiation !== undefined) result.pointOfInitiation = pointOfInitiation;

  const amount = findField(fields, '54');
  if (amount !== undefined) {
    const parsedAmount = parseEmvAmount(amount);
    if (!parsedAmount.ok) return parsedAmount;
    result.amount = parsedAmount.value;
  }
  const postalCode = findField(fields, '61');
  if (postalCode !== undefined) result.postalCode = postalCode;

  const additionalData = findField(fields, '62');
  if (additionalData !== undefined) {
    const subfields = parseTlv(additionalData);
    if (!subfields.ok) return fail(`additional data field (62) is not valid: ${subfields.reason}`);
    const txid = findField(subfields.value, '05');
    if (txid !== undefined) result.txid = txid;
  }
  return ok(result);
}
