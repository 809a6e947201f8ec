// The simulated world outside this server: institutions (real ones, from the directory of
// participants), made-up (but stable) owners of keys,
// accounts and boletos, the keys the DICT does not know, and the sandbox failure table.
// Pure: every answer is derived from its input by hashing, so the same key always has the
// same owner.
import { createHash } from 'node:crypto';
import type { PixKeyType } from '../lib/pix-key';
import { participantByCompe, participantByIspb } from '../lib/psp';
import { cnpjCharacter, cnpjWithCheckDigits, cpfWithCheckDigits } from '../lib/taxid';
import type { AccountType, Party } from '../db/documents/party';

export interface Institution {
  ispb: string;
  code: string;
  name: string;
}

// The institutions the simulated outside world banks at, by ISPB; their names and COMPE codes
// come from the directory of participants (src/lib/psp.ts), never made up. The order is part of
// every made-up owner (a hash picks one), so it stays.
const OUTSIDE_ISPBS = ['00000000', '60701190', '60746948', '00360305', '90400888', '18236120'] as const;

let institutions: readonly Institution[] | undefined;

export function outsideInstitutions(): readonly Institution[] {
  institutions ??= OUTSIDE_ISPBS.map((ispb) => {
    const p = participantByIspb(ispb);
    if (!p?.compe) throw new Error(`the directory of participants has no ISPB ${ispb} with a COMPE code`);
    return { ispb, code: p.compe, name: p.name };
  });
  return institutions;
}

// Any institution of the directory, not only those above (a payment may name any ISPB).
export function institutionByIspb(ispb: string): Institution | undefined {
  const p = participantByIspb(ispb);
  return p ? { ispb: p.ispb, code: p.compe ?? '', name: p.name } : undefined;
}

export function institutionByCode(code: string): Institution | undefined {
  const p = participantByCompe(code);
  return p ? { ispb: p.ispb, code, name: p.name } : undefined;
}

const FIRST_NAMES = [
  'Mariana',
  'Rafael',
  'Joao Pedro',
  'Ana Luiza',
  'Carlos',
  'Fernanda',
  'Lucas',
  'Beatriz',
  'Gustavo',
  'Patricia',
  'Thiago',
  'Camila',
];
const SURNAMES = [
  'Alves Costa',
  'Souza Lima',
  'Martins',
  'Oliveira Santos',
  'Pereira',
  'Rodrigues Silva',
  'Ferreira',
  'Gomes Ribeiro',
  'Carvalho',
  'Almeida Rocha',
];
const COMPANIES = [
  'Tecidos Brasil Industria Ltda',
  'Padaria Estrela Ltda',
  'Imobiliaria Central Ltda',
  'Energia Paulista Distribuidora S.A.',
  'Distribuidora Norte Sul Ltda',
  'Grafica Horizonte Ltda',
  'Transportes Rapido Azul Ltda',
  'Clinica Bem Estar Ltda',
  'Mercado Bom Preco Ltda',
  'Oficina Mecanica Duas Rodas Ltda',
];

function digest(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

function digits(bytes: Buffer, from: number, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(bytes[(from + i) % bytes.length]! % 10);
  return out;
}

export function cpfFrom(nineDigits: string): string {
  return cpfWithCheckDigits(nineDigits);
}

export function cnpjFrom(twelveCharacters: string): string {
  return cnpjWithCheckDigits(twelveCharacters);
}

// The root (first 8 characters) of a made-up company's CNPJ: one company in four has an
// alphanumeric CNPJ (the form issued from July 2026), the others a numeric one.
function cnpjRootOf(h: Buffer): string {
  const alphanumeric = h[28]! % 4 === 0;
  let root = '';
  for (let i = 0; i < 8; i++) root += cnpjCharacter(h[2 + i]!, { alphanumeric });
  return root;
}

// "52998224725" -> "***.982.247-**", the way the DICT shows a person's CPF.
export function maskCpf(cpf: string): string {
  return `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
}

// A stable made-up owner for a seed: a person (CPF) or a company (CNPJ), an institution, an account.
export function madeUpParty(
  seed: string,
  prefer?: 'person' | 'company',
  hints: { name?: string; taxId?: string } = {},
): Party {
  const h = digest(seed);
  const isPerson = prefer ? prefer === 'person' : h[0]! % 2 === 0;
  const outside = outsideInstitutions();
  const institution = outside[h[1]! % outside.length]!;
  const accountTypes: AccountType[] = ['CACC', 'TRAN', 'CACC', 'SVGS'];
  const taxId = hints.taxId ?? (isPerson ? cpfFrom(digits(h, 2, 9)) : cnpjFrom(cnpjRootOf(h) + '0001'));
  const name =
    hints.name ??
    (isPerson
      ? `${FIRST_NAMES[h[12]! % FIRST_NAMES.length]} ${SURNAMES[h[13]! % SURNAMES.length]}`
      : COMPANIES[h[12]! % COMPANIES.length]!);
  return {
    name,
    taxId,
    taxIdType: taxId.length === 11 ? 'BR:CPF' : 'BR:CNPJ',
    ispb: institution.ispb,
    bank: institution.name,
    branch: digits(h, 14, 4),
    account: `${digits(h, 18, 7).replace(/^0/, '1')}-${digits(h, 25, 1)}`,
    accountType: isPerson ? accountTypes[h[26]! % accountTypes.length]! : 'CACC',
  };
}

// The made-up owner of an outside key: a CPF key belongs to that person, a CNPJ key to that company.
export function outsideKeyOwner(key: string, type: PixKeyType): Party {
  if (type === 'CPF') return madeUpParty(`key:${key}`, 'person', { taxId: key });
  if (type === 'CNPJ') return madeUpParty(`key:${key}`, 'company', { taxId: key });
  return madeUpParty(`key:${key}`);
}

// Keys the outside DICT does not know (a lookup answers 404, a payment to them is refused).
export const NOT_FOUND_EMAIL_DOMAIN = 'notfound.pixgate.dev';
export const NOT_FOUND_EVP = '00000000-0000-0000-0000-000000000000';

export function isUnknownOutsideKey(key: string): boolean {
  return key.endsWith(`@${NOT_FOUND_EMAIL_DOMAIN}`) || key === NOT_FOUND_EVP;
}

// The sandbox failure table. Payer-side outcomes refuse the approval before anything is sent
// (as a real refusal would); SPI outcomes end the payment FAILED with the hold released.
export type SandboxFailure =
  | 'NOT_ENOUGH_BALANCE'
  | 'LIMIT_EXCEEDED'
  | 'ACCOUNT_NOT_FOUND'
  | 'INVALID_PIX_KEY'
  | 'AC03'
  | 'AC06'
  | 'AM04'
  | 'AM12'
  | 'BE01'
  | 'DS04'
  | 'FRAD';

export const FAILURE_DOMAIN = 'fail.pixgate.dev';

export const FAILURE_TABLE: ReadonlyArray<{
  failure: SandboxFailure;
  key: string;
  account: string;
  description: string;
}> = [
  {
    failure: 'ACCOUNT_NOT_FOUND',
    key: `account-not-found@${FAILURE_DOMAIN}`,
    account: '9000001',
    description: 'Destination account not found',
  },
  {
    failure: 'NOT_ENOUGH_BALANCE',
    key: `not-enough-balance@${FAILURE_DOMAIN}`,
    account: '9000002',
    description: 'Account does not have enough balance to complete the operation',
  },
  {
    failure: 'INVALID_PIX_KEY',
    key: `invalid-pix-key@${FAILURE_DOMAIN}`,
    account: '9000003',
    description: 'The Pix key is invalid or no longer registered',
  },
  {
    failure: 'LIMIT_EXCEEDED',
    key: `limit-exceeded@${FAILURE_DOMAIN}`,
    account: '9000004',
    description: 'The payment exceeds the Pix limits of the account',
  },
  {
    failure: 'AC03',
    key: `ac03@${FAILURE_DOMAIN}`,
    account: '9000005',
    description: 'Creditor account number invalid or missing',
  },
  { failure: 'AC06', key: `ac06@${FAILURE_DOMAIN}`, account: '9000006', description: 'Creditor account is blocked' },
  {
    failure: 'AM04',
    key: `am04@${FAILURE_DOMAIN}`,
    account: '9000007',
    description: 'Insufficient funds in the settlement account of the payer participant',
  },
  { failure: 'AM12', key: `am12@${FAILURE_DOMAIN}`, account: '9000008', description: 'Invalid amount' },
  {
    failure: 'BE01',
    key: `be01@${FAILURE_DOMAIN}`,
    account: '9000009',
    description: 'Creditor tax id is inconsistent with the account holder',
  },
  {
    failure: 'DS04',
    key: `ds04@${FAILURE_DOMAIN}`,
    account: '9000010',
    description: 'Order rejected by the receiving participant',
  },
  { failure: 'FRAD', key: `frad@${FAILURE_DOMAIN}`, account: '9000011', description: 'Fraudulent origin suspected' },
];

export const SPI_REASONS: Readonly<Record<string, string>> = Object.fromEntries(
  FAILURE_TABLE.map((f) => [f.failure, f.description]),
);

// The failure a sandbox destination is mapped to: by its key, or by its account number at an
// outside institution (separators ignored).
export function sandboxFailureOf(
  destination: { pixKey?: string; account?: string; ispb?: string },
  ownIspb: string,
): SandboxFailure | undefined {
  if (destination.pixKey) {
    const byKey = FAILURE_TABLE.find((f) => f.key === destination.pixKey);
    if (byKey) return byKey.failure;
  }
  if (destination.account && destination.ispb !== ownIspb) {
    const account = destination.account.replace(/[^0-9xX]/g, '');
    return FAILURE_TABLE.find((f) => f.account === account)?.failure;
  }
  return undefined;
}
