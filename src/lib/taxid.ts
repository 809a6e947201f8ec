// Brazilian tax ids (CPF for people, CNPJ for companies, including the 2026 alphanumeric CNPJ),
// and the contact data that goes with them: e-mail addresses and phone numbers.

import { randomInt } from 'node:crypto';
import { fail, ok, type Result } from './money';

export type TaxIdKind = 'CPF' | 'CNPJ';

const MASK_CHARACTERS = /[.\-/\s]/g;
const CPF_SHAPE = /^\d{11}$/;
const CNPJ_SHAPE = /^[0-9A-Z]{12}\d{2}$/;
const CPF_FIRST_WEIGHTS = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_SECOND_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

// Removes the mask characters (".", "-", "/", whitespace) from a tax id or similar identifier.
export function onlyDigitsAndLetters(s: string): string {
  return s.replace(MASK_CHARACTERS, '');
}

function isOneRepeatedCharacter(s: string): boolean {
  return s.split('').every((ch) => ch === s[0]);
}

// Sum of (ASCII code - 48) * weight, the basis of both CPF and CNPJ check digits.
function weightedSum(s: string, weights: number[]): number {
  return weights.reduce((sum, weight, i) => sum + (s.charCodeAt(i) - 48) * weight, 0);
}

function cpfCheckDigit(s: string, weights: number[]): number {
  const remainder = (weightedSum(s, weights) * 10) % 11;
  return remainder === 10 ? 0 : remainder;
}

function cnpjCheckDigit(s: string, weights: number[]): number {
  const remainder = weightedSum(s, weights) % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

function cpfCheckDigitsMatch(cpf: string): boolean {
  return (
    cpfCheckDigit(cpf, CPF_FIRST_WEIGHTS) === Number(cpf[9]) &&
    cpfCheckDigit(cpf, CPF_SECOND_WEIGHTS) === Number(cpf[10])
  );
}

function cnpjCheckDigitsMatch(cnpj: string): boolean {
  return (
    cnpjCheckDigit(cnpj, CNPJ_FIRST_WEIGHTS) === Number(cnpj[12]) &&
    cnpjCheckDigit(cnpj, CNPJ_SECOND_WEIGHTS) === Number(cnpj[13])
  );
}

const CPF_BASE = /^\d{9}$/;
const CNPJ_BASE = /^[0-9A-Z]{12}$/;
const CNPJ_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

// A CPF from its first 9 digits: those digits and their two check digits.
export function cpfWithCheckDigits(base: string): string {
  if (!CPF_BASE.test(base)) throw new RangeError(`a CPF base is 9 digits, got ${JSON.stringify(base)}`);
  const first = cpfCheckDigit(base, CPF_FIRST_WEIGHTS);
  return base + first + cpfCheckDigit(base + first, CPF_SECOND_WEIGHTS);
}

// A CNPJ from its first 12 characters (digits or capital letters: the alphanumeric CNPJ the
// Receita Federal issues from July 2026): those and their two check digits, always digits.
export function cnpjWithCheckDigits(base: string): string {
  if (!CNPJ_BASE.test(base))
    throw new RangeError(`a CNPJ base is 12 digits or capital letters, got ${JSON.stringify(base)}`);
  const first = cnpjCheckDigit(base, CNPJ_FIRST_WEIGHTS);
  return base + first + cnpjCheckDigit(base + first, CNPJ_SECOND_WEIGHTS);
}

// The characters a CNPJ's root may have: digits only (the CNPJs issued so far) or digits and
// capital letters (the alphanumeric ones).
export function cnpjCharacter(n: number, { alphanumeric }: { alphanumeric: boolean }): string {
  return CNPJ_CHARACTERS[n % (alphanumeric ? CNPJ_CHARACTERS.length : 10)]!;
}

// A random valid CNPJ of a head office (branch 0001); one in three alphanumeric, so that
// what is made from it (sandbox companies) meets both forms.
export function randomCnpj(): string {
  const alphanumeric = randomInt(3) === 0;
  let root = '';
  while (root.length < 8) root += cnpjCharacter(randomInt(alphanumeric ? 36 : 10), { alphanumeric });
  return cnpjWithCheckDigits(root + '0001');
}

// Tells whether s is exactly 11 digits (no mask) forming a CPF with valid check digits.
export function isValidCpf(s: string): boolean {
  return CPF_SHAPE.test(s) && !isOneRepeatedCharacter(s) && cpfCheckDigitsMatch(s);
}

// Tells whether s is exactly 14 characters (no mask, uppercase) forming a CNPJ with valid check digits.
export function isValidCnpj(s: string): boolean {
  return CNPJ_SHAPE.test(s) && !isOneRepeatedCharacter(s) && cnpjCheckDigitsMatch(s);
}

// Says whether a (possibly masked, any case) string is a valid CPF or CNPJ, or null if it is neither.
export function classifyTaxId(s: string): TaxIdKind | null {
  const bare = onlyDigitsAndLetters(s).toUpperCase();
  if (isValidCpf(bare)) return 'CPF';
  if (isValidCnpj(bare)) return 'CNPJ';
  return null;
}

// Validates a user-supplied tax id and returns it without mask, uppercase, with its type.
export function normalizeTaxId(s: string): Result<{ taxId: string; type: 'BR_CPF' | 'BR_CNPJ' }> {
  if (typeof s !== 'string') return fail('tax id must be a string');
  const bare = onlyDigitsAndLetters(s).toUpperCase();
  if (bare.length === 11) {
    if (!CPF_SHAPE.test(bare)) return fail('CPF must have only digits');
    if (isOneRepeatedCharacter(bare)) return fail('CPF must not be one digit repeated');
    if (!cpfCheckDigitsMatch(bare)) return fail('CPF check digits do not match');
    return ok({ taxId: bare, type: 'BR_CPF' });
  }
  if (bare.length === 14) {
    if (!CNPJ_SHAPE.test(bare)) {
      return fail('CNPJ must have 12 letters or digits followed by 2 check digits');
    }
    if (isOneRepeatedCharacter(bare)) return fail('CNPJ must not be one character repeated');
    if (!cnpjCheckDigitsMatch(bare)) return fail('CNPJ check digits do not match');
    return ok({ taxId: bare, type: 'BR_CNPJ' });
  }
  return fail('tax id must have 11 (CPF) or 14 (CNPJ) characters');
}

// Pragmatic e-mail check: one "@", non-empty local part, dotted domain, no spaces, at most 254 characters.
export function isValidEmail(s: string): boolean {
  if (typeof s !== 'string' || s.length > 254 || /\s/.test(s)) return false;
  const parts = s.split('@');
  if (parts.length !== 2) return false;
  const [local, domain] = parts as [string, string];
  if (local.length === 0 || local.length > 64) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((label) => label.length > 0);
}

const PHONE_MASK_CHARACTERS = /[\s().-]/g;
const BRAZILIAN_PHONE = /^\+?55(\d{2})(\d{8,9})$/;

// Validates a Brazilian phone number (+55, DDD, 8 or 9 digits; masks allowed) and returns "+55DDNNNNNNNNN".
export function normalizePhone(s: string): Result<string> {
  if (typeof s !== 'string') return fail('phone must be a string');
  const match = BRAZILIAN_PHONE.exec(s.replace(PHONE_MASK_CHARACTERS, ''));
  if (!match) return fail('phone must be +55 followed by a 2-digit area code and an 8 or 9-digit number');
  const [, areaCode, number] = match;
  if (Number(areaCode) < 11) return fail('phone area code (DDD) must be between 11 and 99');
  if (number.length === 9 && !number.startsWith('9')) return fail('a 9-digit phone number must start with 9');
  return ok(`+55${areaCode}${number}`);
}
