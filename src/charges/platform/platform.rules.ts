// The platform API's charge create payload: its rules (what the schema cannot check) and its
// mapping onto the standard's cob / cobv object. Pure: no database.
import type { components } from '../../../generated/platform.types';
import { errors, type FieldIssue } from '../../errors/errors';
import { FEATURES, hasFeature } from '../../identity/identity.service';
import type { Principal } from '../../identity/principal.types';
import { brasiliaDate } from '../../lib/brasilia';
import { addCalendarDays, endsAfterLastDate } from '../../lib/business-days';
import { platformDiscountToCobv, type PlatformDiscount } from '../../lib/due-charge';
import { validatePixKey } from '../../lib/pix-key';
import type { CobvValor, PlatformSettings } from '../../db/documents/charge-body';
import { DEFAULT_EXPIRACAO, DEFAULT_VALIDADE } from '../standard/standard-bodies';
import type { StandardInput } from '../standard/standard.rules';

export type ChargeCreatePayload = components['schemas']['ChargeCreatePayload'];

export const MIN_EXPIRES_IN = 300;
// The standard's limits: valor.original is at most 10 integer digits (9999999999.99, also the
// 13 characters of the BR Code's amount field) and calendario.expiracao an int32.
export const MAX_VALUE = 999_999_999_999;
export const MAX_EXPIRES_IN = 2_147_483_647;
const BASIS_POINTS_100_PERCENT = 10000;

// Decimal string with 2 decimals of a non-negative integer of hundredths (150 -> "1.50").
export function hundredths(n: number): string {
  return `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}

export interface PlatformPlan {
  kind: 'cob' | 'cobv';
  // cob: seconds from creation; cobv: due date and validity.
  expiracao?: number;
  // cob with expiresDate: the instant asked for (expiracao is its whole seconds from creation).
  expiresAt?: Date;
  dueDate?: string;
  validity?: number;
  valor: NonNullable<StandardInput['valor']>;
  platform: PlatformSettings;
}

type Refuse = (field: string, message: string) => void;

// Checks the payload and decides the standard's fields that follow from it (not the debtor:
// that needs the customer). Throws 400 (403 for a missing feature).
export function planCharge(principal: Principal, p: ChargeCreatePayload, now: Date): PlatformPlan {
  const issues: FieldIssue[] = [];
  const refuse: Refuse = (field, message) => issues.push({ field, in: 'body', message });
  const type = p.type ?? 'DYNAMIC';
  checkFeatures(principal, p);
  checkCustomer(p, type, refuse);
  checkSplits(p, refuse);
  if (p.value > MAX_VALUE) refuse('value', `value must be at most ${MAX_VALUE} (${hundredths(MAX_VALUE)})`);
  const plan = type === 'DYNAMIC' ? planCob(p, now, refuse) : planCobv(p, type, now, refuse, () => issues.length > 0);
  if (issues.length) throw errors.validation(issues, issues.length === 1 ? issues[0]!.message : 'Validation error');
  return { ...plan, platform: platformOptionsOf(p, plan) };
}

function checkFeatures(principal: Principal, p: ChargeCreatePayload): void {
  if (p.splits !== undefined && !hasFeature(principal, FEATURES.split))
    throw errors.featureRequired('You need feature SPLIT to access this endpoint');
  if (p.subaccount !== undefined && !hasFeature(principal, FEATURES.subaccount))
    throw errors.featureRequired('You need feature SUBACCOUNT to access this endpoint');
}

// Customer: name with taxID, email or phone; a due-date charge's customer by CPF or CNPJ.
function checkCustomer(p: ChargeCreatePayload, type: string, refuse: Refuse): void {
  const c = p.customer;
  if (c && !c.name?.trim())
    refuse('customer.name', 'customer.name is missing: a customer needs a name and a taxID, email or phone');
  else if (c && c.taxID === undefined && c.email === undefined && c.phone === undefined) {
    refuse(
      'customer.taxID',
      'customer.taxID, customer.email or customer.phone is missing: a customer needs a name and a taxID, email or phone',
    );
  }
  if (p.ensureSameTaxID === true && c?.taxID === undefined)
    refuse('ensureSameTaxID', 'ensureSameTaxID needs a customer with taxID');
  // A due-date charge is a cobv, whose debtor (devedor) the standard requires by CPF or CNPJ.
  if (type !== 'DYNAMIC' && c?.taxID === undefined) {
    refuse(
      'customer.taxID',
      `customer.taxID is missing: an ${type} charge names its customer by CPF or CNPJ (the debtor of its due-date charge)`,
    );
  }
}

// Splits: valid Pix keys adding up to no more than the value; a subaccount by a valid key.
function checkSplits(p: ChargeCreatePayload, refuse: Refuse): void {
  if (p.splits) {
    p.splits.forEach((s, i) => {
      if (!validatePixKey(s.pixKey).ok) refuse(`splits[${i}].pixKey`, 'pixKey is not a valid Pix key');
    });
    const total = p.splits.reduce((sum, s) => sum + s.value, 0);
    if (total > p.value) refuse('splits', `the splits add up to ${total}, more than the charge value ${p.value}`);
  }
  if (p.subaccount !== undefined && !validatePixKey(p.subaccount).ok)
    refuse('subaccount', 'subaccount is not a valid Pix key');
}

type Plan = Omit<PlatformPlan, 'platform'>;

// A DYNAMIC charge: a cob expiring expiresIn seconds (or at expiresDate) after creation.
function planCob(p: ChargeCreatePayload, now: Date, refuse: Refuse): Plan {
  for (const f of ['dueDate', 'daysForDueDate', 'daysAfterDueDate', 'interests', 'fines', 'discount'] as const) {
    if (p[f] !== undefined) refuse(f, `${f} applies to OVERDUE and BOLETO charges only`);
  }
  let expiracao = p.expiresIn ?? DEFAULT_EXPIRACAO;
  if (p.expiresIn !== undefined && p.expiresDate !== undefined)
    refuse('expiresDate', 'send expiresIn or expiresDate, not both');
  if (p.expiresIn !== undefined && p.expiresIn < MIN_EXPIRES_IN)
    refuse('expiresIn', `expiresIn must be >= ${MIN_EXPIRES_IN}`);
  if (p.expiresIn !== undefined && p.expiresIn > MAX_EXPIRES_IN)
    refuse('expiresIn', `expiresIn must be <= ${MAX_EXPIRES_IN}`);
  if (p.expiresDate !== undefined) {
    expiracao = Math.floor((Date.parse(p.expiresDate) - now.getTime()) / 1000);
    if (expiracao < MIN_EXPIRES_IN) refuse('expiresDate', 'expiresDate must be at least 5 minutes in the future');
    else if (expiracao > MAX_EXPIRES_IN)
      refuse('expiresDate', `expiresDate must be at most ${MAX_EXPIRES_IN} seconds ahead`);
  }
  const expiresAt = p.expiresDate !== undefined ? new Date(Date.parse(p.expiresDate)) : undefined;
  const valor = { original: hundredths(p.value), modalidadeAlteracao: 0 };
  return { kind: 'cob', expiracao, ...(expiresAt ? { expiresAt } : {}), valor };
}

// An OVERDUE or BOLETO charge: a cobv due on dueDate (or daysForDueDate from today), payable
// daysAfterDueDate more, with its fine, interest and discount. `failed` says whether anything
// was refused so far (the discount is translated only from a valid payload).
function planCobv(p: ChargeCreatePayload, type: string, now: Date, refuse: Refuse, failed: () => boolean): Plan {
  if (p.expiresIn !== undefined || p.expiresDate !== undefined) {
    refuse(
      p.expiresIn !== undefined ? 'expiresIn' : 'expiresDate',
      `${type} charges expire after their due date: use dueDate or daysForDueDate and daysAfterDueDate`,
    );
  }
  const dueDate = dueDateOf(p, type, now, refuse);
  const validity = p.daysAfterDueDate ?? DEFAULT_VALIDADE;
  if (/^\d{4}-/.test(dueDate) && endsAfterLastDate(dueDate, validity)) {
    refuse(
      p.daysAfterDueDate !== undefined ? 'daysAfterDueDate' : 'dueDate',
      'the charge would stay payable after 9999-12-31',
    );
  }
  const valor: CobvValor = { original: hundredths(p.value) };
  if (p.fines) {
    if (p.fines.value >= BASIS_POINTS_100_PERCENT)
      refuse('fines.value', 'the fine must be below 100% (10000 basis points)');
    else if (p.fines.value > 0) valor.multa = { modalidade: 2, valorPerc: hundredths(p.fines.value) };
  }
  if (p.interests && p.interests.value > 0) valor.juros = { modalidade: 2, valorPerc: hundredths(p.interests.value) };
  if (p.discount) {
    const d: PlatformDiscount = p.discount;
    checkDiscount(d, p.value, refuse);
    if (!failed()) {
      const mapped = platformDiscountToCobv(d, dueDate);
      if (!mapped.ok) refuse('discount', mapped.reason);
      else valor.desconto = mapped.value;
    }
  }
  return { kind: 'cobv', dueDate, validity, valor };
}

// The calendar date of a date-time as its sender wrote it ("2026-12-15T00:00:00Z" and
// "2026-12-15T23:59:59-03:00" both name 15 December): a due date is a civil date, not an
// instant, and the date written is the one meant, whatever the offset.
export function civilDateOf(dateTime: string): string {
  return dateTime.slice(0, 10);
}

function dueDateOf(p: ChargeCreatePayload, type: string, now: Date, refuse: Refuse): string {
  const today = brasiliaDate(now);
  let dueDate = today;
  if (p.dueDate !== undefined && p.daysForDueDate !== undefined)
    refuse('daysForDueDate', 'send dueDate or daysForDueDate, not both');
  else if (p.dueDate !== undefined) dueDate = civilDateOf(p.dueDate);
  else if (p.daysForDueDate !== undefined) {
    if (endsAfterLastDate(today, p.daysForDueDate))
      refuse('daysForDueDate', 'daysForDueDate puts the due date after 9999-12-31');
    else dueDate = addCalendarDays(today, p.daysForDueDate);
  } else refuse('dueDate', `dueDate or daysForDueDate is required for ${type} charges`);
  if (dueDate < today) refuse('dueDate', 'dueDate cannot be in the past');
  return dueDate;
}

// A discount below the value (or 100%): fixed-date modalities by discountFixedDate (at most 3
// dates, each daysActive once), the others by value.
function checkDiscount(d: PlatformDiscount, value: number, refuse: Refuse): void {
  const fixed = d.modality === 'FIXED_VALUE_UNTIL_SPECIFIED_DATE' || d.modality === 'PERCENTAGE_UNTIL_SPECIFIED_DATE';
  const percent = d.modality.startsWith('PERCENTAGE');
  const limit = percent ? BASIS_POINTS_100_PERCENT : value;
  const below = `the discount must be below ${percent ? '100%' : 'the charge value'}`;
  if (!fixed) {
    if (d.value === undefined) refuse('discount.value', `value is required for ${d.modality}`);
    else if (d.value >= limit) refuse('discount.value', below);
    if (d.discountFixedDate !== undefined)
      refuse('discount.discountFixedDate', `${d.modality} takes value, not discountFixedDate`);
    return;
  }
  if (!d.discountFixedDate?.length)
    refuse('discount.discountFixedDate', `discountFixedDate is required for ${d.modality}`);
  if (d.value !== undefined) refuse('discount.value', `${d.modality} takes discountFixedDate, not value`);
  const items = d.discountFixedDate ?? [];
  if (items.length > 3) refuse('discount.discountFixedDate', 'at most 3 discount dates');
  if (new Set(items.map((i) => i.daysActive)).size !== items.length)
    refuse('discount.discountFixedDate', 'each daysActive may appear once');
  items.forEach((item, i) => {
    if (item.value >= limit) refuse(`discount.discountFixedDate[${i}].value`, below);
  });
}

// What the platform keeps beside the standard's body: options the standard has no field for.
function platformOptionsOf(p: ChargeCreatePayload, plan: Plan): PlatformSettings {
  const dueCharge = plan.kind === 'cobv';
  return {
    ...(p.comment !== undefined ? { comment: p.comment } : {}),
    ...(p.ensureSameTaxID !== undefined ? { ensureSameTaxID: p.ensureSameTaxID } : {}),
    ...(p.fixedLocation !== undefined ? { fixedLocation: p.fixedLocation } : {}),
    ...(p.paymentLinkID !== undefined ? { paymentLinkID: p.paymentLinkID } : {}),
    ...(dueCharge && p.daysForDueDate !== undefined ? { daysForDueDate: p.daysForDueDate } : {}),
    ...(dueCharge ? { daysAfterDueDate: plan.validity! } : {}),
    ...(p.enableCashbackPercentage !== undefined ? { enableCashbackPercentage: p.enableCashbackPercentage } : {}),
    ...(p.enableCashbackExclusivePercentage !== undefined
      ? { enableCashbackExclusivePercentage: p.enableCashbackExclusivePercentage }
      : {}),
    ...(p.subaccount !== undefined ? { subaccount: dictKey(p.subaccount) } : {}),
    ...(p.splits
      ? {
          splits: p.splits.map((s) => ({
            pixKey: dictKey(s.pixKey),
            value: s.value,
            splitType: s.splitType ?? 'SPLIT_INTERNAL_TRANSFER',
          })),
        }
      : {}),
  };
}

// A valid Pix key in its DICT form (lowercase e-mail or EVP).
function dictKey(key: string): string {
  const checked = validatePixKey(key);
  return checked.ok ? checked.value.key : key;
}

// The standard's debtor of a customer with a tax id (cob: cpf/cnpj and nome; cobv adds the
// contact and address the standard carries).
export function devedorOfCustomer(
  customer: Pick<components['schemas']['Customer'], 'name' | 'email' | 'taxID' | 'address'>,
  kind: 'cob' | 'cobv',
): NonNullable<StandardInput['devedor']> | undefined {
  const taxId = customer.taxID?.taxID;
  if (!taxId || !customer.name) return undefined;
  const nome = customer.name.slice(0, 200);
  const person = taxId.length === 11 ? { cpf: taxId, nome } : { cnpj: taxId, nome };
  if (kind === 'cob') return person;
  const a = customer.address;
  const street = [a?.street, a?.number].filter(Boolean).join(', ');
  return {
    ...person,
    ...(street ? { logradouro: street.slice(0, 200) } : {}),
    ...(a?.city ? { cidade: a.city.slice(0, 200) } : {}),
    ...(a?.state ? { uf: a.state.slice(0, 2) } : {}),
    ...(a?.zipcode ? { cep: a.zipcode.slice(0, 8) } : {}),
    ...(customer.email ? { email: customer.email } : {}),
  };
}
