// Brazilian boleto parsing and validation (FEBRABAN layouts):
// - bank boletos ("cobrança"): 44-digit barcode or 47-digit digitable line;
// - utility/tax boletos ("arrecadação", first digit 8): 44-digit barcode or 48-digit line.
// Also builds bank barcodes and their digitable lines (the sandbox uses this to issue boletos).
import { type Cents, type Result, cents, fail, ok } from './money';
import { addCalendarDays, daysBetween, isValidDate, todayUtc } from './business-days';
import { participantByCompe } from './psp';

export interface BoletoBeneficiary {
  bankCode?: string;
  bankName?: string;
  /** utility boletos: company/agency id (4 digits, or the 8-digit CNPJ base for segment 6) */
  companyId?: string;
}

export interface BoletoInfo {
  kind: 'bank' | 'utility';
  /** the 44-digit barcode */
  barcode: string;
  /** the digitable line, digits only: 47 (bank) or 48 (utility) digits */
  digitableLine: string;
  /** amount in cents; 0 when the boleto carries no amount or only a reference value */
  amount: Cents;
  dueDate: string | null;
  bankCode?: string;
  /** utility boletos: the segment digit (1..9) and its name when known */
  segment?: string;
  segmentName?: string;
  /** utility boletos: whether positions 5-15 hold the amount or a reference value (value id 7/9) */
  valueKind?: 'amount' | 'reference';
  referenceValue?: string;
  beneficiary?: BoletoBeneficiary;
}

const UTILITY_SEGMENTS: Readonly<Record<string, string>> = {
  '1': 'Prefeituras',
  '2': 'Saneamento',
  '3': 'Energia elétrica e gás',
  '4': 'Telecomunicações',
  '5': 'Órgãos governamentais',
  '6': 'Carnês e assemelhados (identificados pelo CNPJ)',
  '7': 'Multas de trânsito',
  '9': 'Uso exclusivo do banco',
};

// Due-date factor (FEBRABAN): days since 1997-10-07; it reached 9999 on 2025-02-21 and restarted
// at 1000 on 2025-02-22. A factor is therefore ambiguous; we take the pre-reset date unless it lies
// more than RESET_WINDOW_DAYS (~10 years) before `today`, in which case the post-reset date is used.
const FACTOR_BASE = '1997-10-07';
const FACTOR_RESET = '2025-02-22';
const RESET_WINDOW_DAYS = 3650;

// Mod 10 check digit: weights 2,1,2,... from the right, digits of each product summed, (10 - sum%10)%10.
function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const p = Number(digits[i]) * weight;
    sum += p > 9 ? p - 9 : p; // p <= 18, so p - 9 is the sum of its two digits
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

// Remainder mod 11 of the digits weighted 2..9 (cycling) from the right.
function mod11Rest(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  return sum % 11;
}

// Bank barcode general DV: 11 - rest, with results 0, 10 and 11 replaced by 1.
function bankMod11(digits: string): number {
  const dv = 11 - mod11Rest(digits);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

// Arrecadação mod 11 (FEBRABAN "Layout Padrão de Arrecadação/Recebimento com Código de Barras"):
// rest 0 or 1 -> DV 0; rest 10 -> DV 1; otherwise DV = 11 - rest (so rest 10 also equals 11 - rest).
function utilityMod11(digits: string): number {
  const rest = mod11Rest(digits);
  if (rest === 0 || rest === 1) return 0;
  if (rest === 10) return 1;
  return 11 - rest;
}

// Utility check digit for a value id: 6/7 use mod 10, 8/9 use mod 11.
function utilityDv(valueId: string, digits: string): number {
  return valueId === '6' || valueId === '7' ? mod10(digits) : utilityMod11(digits);
}

// The due date a factor stands for, relative to `today` (see the reset rule above); null for 0000.
export function dueDateFromFactor(factor: number, today: string = todayUtc()): string | null {
  if (!Number.isInteger(factor) || factor < 0 || factor > 9999) throw new Error(`bad factor ${factor}`);
  if (!isValidDate(today)) throw new Error(`bad today ${today}`);
  if (factor === 0) return null;
  const preReset = addCalendarDays(FACTOR_BASE, factor);
  if (factor >= 1000 && daysBetween(preReset, today) > RESET_WINDOW_DAYS) {
    return addCalendarDays(FACTOR_RESET, factor - 1000);
  }
  return preReset;
}

// The due-date factor for a date in the current cycle (2000-07-03 .. 2049-...); null gives 0000.
export function factorForDueDate(dueDate: string | null): number {
  if (dueDate === null) return 0;
  if (dueDate >= FACTOR_RESET) {
    const factor = 1000 + daysBetween(FACTOR_RESET, dueDate);
    if (factor > 9999) throw new Error(`due date ${dueDate} is beyond the factor range`);
    return factor;
  }
  const factor = daysBetween(FACTOR_BASE, dueDate);
  if (factor < 1000) throw new Error(`due date ${dueDate} is before the factor range`);
  return factor;
}

// Builds a valid 44-digit bank barcode (computes the general check digit).
export function buildBankBarcode(input: {
  bankCode: string;
  amount: Cents;
  dueDate: string | null;
  freeField: string;
}): string {
  const { bankCode, amount, dueDate, freeField } = input;
  if (!/^\d{3}$/.test(bankCode)) throw new Error('bankCode must have 3 digits');
  if (!/^\d{25}$/.test(freeField)) throw new Error('freeField must have 25 digits');
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > 9_999_999_999) {
    throw new Error('amount must be an integer number of cents with at most 10 digits');
  }
  const factor = String(factorForDueDate(dueDate)).padStart(4, '0');
  const withoutDv = `${bankCode}9${factor}${String(amount).padStart(10, '0')}${freeField}`;
  const dv = bankMod11(withoutDv);
  return `${withoutDv.slice(0, 4)}${dv}${withoutDv.slice(4)}`;
}

// The digitable line (digits only) of a 44-digit barcode: 47 digits for bank, 48 for utility boletos.
export function barcodeToDigitableLine(barcode: string): string {
  if (!/^\d{44}$/.test(barcode)) throw new Error('barcode must have 44 digits');
  if (barcode[0] === '8') {
    const valueId = barcode[2]!;
    let line = '';
    for (let i = 0; i < 4; i++) {
      const block = barcode.slice(11 * i, 11 * i + 11);
      line += block + String(utilityDv(valueId, block));
    }
    return line;
  }
  const free = barcode.slice(19);
  const f1 = barcode.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode[4]}${barcode.slice(5, 19)}`;
}

// A digitable line (digits only) formatted the way it is printed on the boleto.
export function formatDigitableLine(line: string): string {
  if (/^\d{47}$/.test(line)) {
    return (
      `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ` +
      `${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`
    );
  }
  if (/^\d{48}$/.test(line)) {
    return [0, 1, 2, 3].map((i) => `${line.slice(12 * i, 12 * i + 11)}-${line[12 * i + 11]}`).join(' ');
  }
  throw new Error('digitable line must have 47 or 48 digits');
}

// Validates a boleto barcode or digitable line (spaces, dots and dashes ignored) and describes it.
export function validateBoleto(input: string, today: string = todayUtc()): Result<BoletoInfo> {
  if (!isValidDate(today)) throw new Error(`bad today ${today}`);
  const digits = input.replace(/[\s.\-]/g, '');
  if (!/^\d*$/.test(digits)) return fail('boleto must contain only digits (spaces, dots and dashes are ignored)');
  switch (digits.length) {
    case 44:
      return digits[0] === '8' ? utilityFromBarcode(digits, null) : bankFromBarcode(digits, null, today);
    case 47:
      return bankFromLine(digits, today);
    case 48:
      if (digits[0] !== '8') return fail('a 48-digit line must start with 8 (utility/tax boleto)');
      return utilityFromLine(digits);
    default:
      return fail('barcode must have 44, 47 or 48 digits');
  }
}

// Checks the three mod-10 fields of a 47-digit line, then the barcode it encodes.
function bankFromLine(line: string, today: string): Result<BoletoInfo> {
  const fields: Array<[string, string]> = [
    [line.slice(0, 9), line[9]!],
    [line.slice(10, 20), line[20]!],
    [line.slice(21, 31), line[31]!],
  ];
  for (let i = 0; i < fields.length; i++) {
    const [data, dv] = fields[i]!;
    if (String(mod10(data)) !== dv) return fail(`field ${i + 1} check digit (mod 10) does not match`);
  }
  const barcode =
    line.slice(0, 4) + line[32] + line.slice(33, 47) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);
  return bankFromBarcode(barcode, line, today);
}

// Checks a bank barcode's currency and general DV and extracts its data.
function bankFromBarcode(barcode: string, line: string | null, today: string): Result<BoletoInfo> {
  if (barcode[3] !== '9') return fail('currency code must be 9 (real)');
  const withoutDv = barcode.slice(0, 4) + barcode.slice(5);
  if (String(bankMod11(withoutDv)) !== barcode[4]) return fail('general check digit (mod 11) does not match');
  const bankCode = barcode.slice(0, 3);
  // The issuing bank, named by the directory of participants.
  const bankName = participantByCompe(bankCode)?.name;
  return ok({
    kind: 'bank',
    barcode,
    digitableLine: line ?? barcodeToDigitableLine(barcode),
    amount: cents(Number(barcode.slice(9, 19))),
    dueDate: dueDateFromFactor(Number(barcode.slice(5, 9)), today),
    bankCode,
    beneficiary: bankName ? { bankCode, bankName } : { bankCode },
  });
}

// Checks the four 11-digit blocks of a 48-digit utility line, then the barcode they form.
function utilityFromLine(line: string): Result<BoletoInfo> {
  const valueId = line[2]!;
  if (!'6789'.includes(valueId)) return fail('value identifier (third digit) must be 6, 7, 8 or 9');
  const modName = valueId === '6' || valueId === '7' ? 'mod 10' : 'mod 11';
  let barcode = '';
  for (let i = 0; i < 4; i++) {
    const block = line.slice(12 * i, 12 * i + 11);
    if (String(utilityDv(valueId, block)) !== line[12 * i + 11]) {
      return fail(`field ${i + 1} check digit (${modName}) does not match`);
    }
    barcode += block;
  }
  return utilityFromBarcode(barcode, line);
}

// Checks a utility barcode's value id and general DV (position 4) and extracts its data.
function utilityFromBarcode(barcode: string, line: string | null): Result<BoletoInfo> {
  const valueId = barcode[2]!;
  if (!'6789'.includes(valueId)) return fail('value identifier (third digit) must be 6, 7, 8 or 9');
  const modName = valueId === '6' || valueId === '7' ? 'mod 10' : 'mod 11';
  const withoutDv = barcode.slice(0, 3) + barcode.slice(4);
  if (String(utilityDv(valueId, withoutDv)) !== barcode[3]) {
    return fail(`general check digit (${modName}) does not match`);
  }
  const segment = barcode[1]!;
  const isAmount = valueId === '6' || valueId === '8';
  const valueField = barcode.slice(4, 15);
  const info: BoletoInfo = {
    kind: 'utility',
    barcode,
    digitableLine: line ?? barcodeToDigitableLine(barcode),
    amount: cents(isAmount ? Number(valueField) : 0),
    dueDate: null, // the arrecadação layout has no standard due-date field
    segment,
    valueKind: isAmount ? 'amount' : 'reference',
    beneficiary: { companyId: segment === '6' ? barcode.slice(15, 23) : barcode.slice(15, 19) },
  };
  const segmentName = UTILITY_SEGMENTS[segment];
  if (segmentName) info.segmentName = segmentName;
  if (!isAmount) info.referenceValue = valueField;
  return ok(info);
}
