// What a payer's bank checks before paying a charge, and how the amount paid splits into the
// standard's componentesValor. Pure functions over the charge row.
import { expectCobBody, withdrawalOf } from '../db/documents/charge-body';
import { type Devedor, cobvAmountsOn } from '../charges/charges.public';
import type { Charge, WithdrawalKind } from '../db/schema';
import { brasiliaDate } from '../lib/brasilia';
import { type Cents, cents, parseDecimalAmount } from '../lib/money';
import { onlyDigitsAndLetters } from '../lib/taxid';
import { money, type PixView } from './pixin.view';

type Components = NonNullable<PixView['componentesValor']>;

export interface PaymentParts {
  components: Components | null;
  withdrawal: { kind: WithdrawalKind; value: number } | null;
}

export type PartsResult =
  ({ ok: true } & PaymentParts) | { ok: false; code: 'WRONG_AMOUNT' | 'PAYER_MISMATCH'; message: string };

const wrong = (message: string): PartsResult => ({ ok: false, code: 'WRONG_AMOUNT', message });
const amountOf = (s: string | undefined): number => {
  const parsed = s === undefined ? undefined : parseDecimalAmount(s);
  return parsed?.ok ? parsed.value : 0;
};

// The charge's saque or troco as paid (the spec requires both of its agent's fields).
function withdrawalComponent<A extends string>(
  part: { modalidadeAgente: A; prestadorDoServicoDeSaque: string },
  value: number,
) {
  return {
    valor: money(value),
    modalidadeAgente: part.modalidadeAgente,
    prestadorDoServicoDeSaque: part.prestadorDoServicoDeSaque,
  };
}

// The tax id the payer must have (ensureSameTaxID): the debtor's CPF/CNPJ, else the platform
// customer's.
function requiredPayerTaxId(charge: Charge): string | undefined {
  const { platform } = charge;
  if (platform.ensureSameTaxID !== true) return undefined;
  const devedor: Devedor | undefined = charge.body.devedor;
  const fromDevedor = devedor?.cpf ?? devedor?.cnpj;
  if (fromDevedor) return fromDevedor;
  return platform.customer?.taxID?.taxID;
}

function sameTaxId(a: string, b: string): boolean {
  return onlyDigitsAndLetters(a).toUpperCase() === onlyDigitsAndLetters(b).toUpperCase();
}

// Checks a payment of `value` for the charge (amountDue as the charges area computed it at
// `at`) and splits it into parts.
export function chargePaymentParts(
  charge: Charge,
  value: number,
  amountDue: Cents,
  payerTaxId: string,
  at: Date,
): PartsResult {
  const required = requiredPayerTaxId(charge);
  if (required && !sameTaxId(required, payerTaxId)) {
    return { ok: false, code: 'PAYER_MISMATCH', message: "The payer's tax id is not the one the charge requires" };
  }
  if (charge.kind === 'cobv') {
    if (value !== amountDue) return wrong(`The charge must be paid with exactly ${money(amountDue)} today`);
    const amounts = cobvAmountsOn(charge, brasiliaDate(at));
    if (!amounts.ok) return { ok: true, components: null, withdrawal: null };
    const a = amounts.value;
    const parts: Components = { original: { valor: money(a.original) } };
    for (const [name, amount] of [
      ['juros', a.juros],
      ['multa', a.multa],
      ['desconto', a.desconto],
      ['abatimento', a.abatimento],
    ] as const) {
      if (amount > 0) parts[name] = { valor: money(amount) };
    }
    return { ok: true, components: Object.keys(parts).length > 1 ? parts : null, withdrawal: null };
  }
  const { valor } = expectCobBody(charge.body);
  const { saque, troco } = withdrawalOf(valor);
  if (saque) {
    const fixed = amountOf(saque.valor);
    if ((saque.modalidadeAlteracao ?? 0) === 0 && value !== fixed)
      return wrong(`The withdrawal must be paid with exactly ${money(cents(fixed))}`);
    return { ok: true, components: { saque: withdrawalComponent(saque, value) }, withdrawal: { kind: 'SAQUE', value } };
  }
  if (troco) {
    const purchase = amountOf(valor.original);
    const change = amountOf(troco.valor);
    if ((troco.modalidadeAlteracao ?? 0) === 0 && value !== purchase + change) {
      return wrong(`The purchase with change must be paid with exactly ${money(cents(purchase + change))}`);
    }
    if (value <= purchase) return wrong(`A purchase with change must be paid with more than ${money(cents(purchase))}`);
    return {
      ok: true,
      components: { original: { valor: money(purchase) }, troco: withdrawalComponent(troco, value - purchase) },
      withdrawal: { kind: 'TROCO', value: value - purchase },
    };
  }
  if (valor.modalidadeAlteracao === 1) return { ok: true, components: null, withdrawal: null };
  if (value !== amountDue) return wrong(`The charge must be paid with exactly ${money(amountDue)}`);
  return { ok: true, components: null, withdrawal: null };
}
