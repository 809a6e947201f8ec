// Customer input rules (tax id check digits, e-mail, Brazilian phone, address) and the
// Customer response object. Pure: no database.
import type { components } from '../../generated/platform.types';
import type { CustomerRow, StoredAddress } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import { isValidEmail, normalizePhone, normalizeTaxId } from '../lib/taxid';

export type CustomerView = components['schemas']['Customer'];
export type AddressInput = components['schemas']['AddressInput'];

export interface CustomerFieldsInput {
  name?: string | undefined;
  taxID?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  correlationID?: string | undefined;
  address?: AddressInput | undefined;
}

// The input checked and normalized; only the fields that were sent are present.
export interface CustomerFields {
  name?: string;
  taxId?: string;
  email?: string;
  phone?: string;
  correlationId?: string;
  address?: StoredAddress;
}

const UF = new Set('AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' '));
const ADDRESS_TEXT_FIELDS = ['street', 'number', 'neighborhood', 'city', 'complement'] as const;

// Checks every sent field and throws one 400 listing each refused field (field names are
// `${prefix}taxID`, `${prefix}address.zipcode`, ...).
export function checkCustomerFields(input: CustomerFieldsInput, prefix: string): CustomerFields {
  const issues: FieldIssue[] = [];
  const out: CustomerFields = {};
  const refuse = (field: string, message: string, value?: string) =>
    issues.push({ field: prefix + field, in: 'body', message, ...(value !== undefined ? { value } : {}) });

  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) refuse('name', 'must not be blank');
    else out.name = name;
  }
  if (input.taxID !== undefined) {
    const taxId = normalizeTaxId(input.taxID);
    if (!taxId.ok) refuse('taxID', taxId.reason, input.taxID);
    else out.taxId = taxId.value.taxId;
  }
  if (input.email !== undefined) {
    const email = input.email.trim();
    if (!isValidEmail(email)) refuse('email', 'is not a valid e-mail address', input.email);
    else out.email = email;
  }
  if (input.phone !== undefined) {
    const phone = normalizePhone(input.phone);
    if (!phone.ok) refuse('phone', phone.reason, input.phone);
    else out.phone = phone.value;
  }
  if (input.correlationID !== undefined) {
    if (!input.correlationID.trim()) refuse('correlationID', 'must not be blank');
    else out.correlationId = input.correlationID;
  }
  if (input.address !== undefined)
    out.address = checkAddress(input.address, (field, message, value) => refuse(`address.${field}`, message, value));

  if (issues.length) {
    const only = issues.length === 1 ? issues[0]!.field.slice(prefix.length).split('.')[0] : undefined;
    throw errors.validation(issues, only ? `Invalid ${only}` : 'Invalid customer');
  }
  return out;
}

function checkAddress(
  input: AddressInput,
  refuse: (field: string, message: string, value?: string) => void,
): StoredAddress {
  const address: StoredAddress = {};
  for (const field of ADDRESS_TEXT_FIELDS) {
    const value = input[field]?.trim();
    if (value) address[field] = value;
  }
  if (input.zipcode !== undefined) {
    const zipcode = input.zipcode.replace(/[\s.-]/g, '');
    if (!/^\d{8}$/.test(zipcode)) refuse('zipcode', 'must be a CEP of 8 digits', input.zipcode);
    else address.zipcode = zipcode;
  }
  if (input.country !== undefined) {
    const country = input.country.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) refuse('country', 'must be a 2-letter country code', input.country);
    else address.country = country;
  }
  if (input.state !== undefined) {
    const state = input.state.trim().toUpperCase();
    const inBrazil = (address.country ?? 'BR') === 'BR';
    if (inBrazil && !UF.has(state)) refuse('state', 'must be a Brazilian state code (UF), like SP', input.state);
    else if (state) address.state = state;
  }
  return address;
}

// A stored address with a sent one merged over it (JSON merge patch: sent fields win).
export function mergeAddress(current: StoredAddress | null, sent: StoredAddress): StoredAddress {
  return withCountry({ ...(current ?? {}), ...sent });
}

// Addresses are in Brazil unless they say otherwise.
export function withCountry(address: StoredAddress): StoredAddress {
  return { ...address, country: address.country ?? 'BR' };
}

export function taxIdView(taxId: string): { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' } {
  return { taxID: taxId, type: taxId.length === 11 ? 'BR:CPF' : 'BR:CNPJ' };
}

const ADDRESS_ORDER = [
  'zipcode',
  'street',
  'number',
  'neighborhood',
  'city',
  'state',
  'complement',
  'country',
] as const;

export function customerView(row: CustomerRow): CustomerView {
  const view: CustomerView = { name: row.name };
  if (row.email !== null) view.email = row.email;
  if (row.phone !== null) view.phone = row.phone;
  if (row.tax_id !== null) view.taxID = taxIdView(row.tax_id);
  view.correlationID = row.correlation_id;
  if (row.address) {
    const address: Record<string, string> = {};
    for (const key of ADDRESS_ORDER) if (typeof row.address[key] === 'string') address[key] = row.address[key]!;
    view.address = address;
  }
  return view;
}
