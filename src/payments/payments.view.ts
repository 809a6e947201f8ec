// The spec's PaymentResult (payment, transaction, destination) from a stored payment, and
// the parties of its Pix. Pure.
import type { components } from '../../generated/platform.types';
import { OWN_ISPB, OWN_PSP_NAME } from '../lib/psp';
import { type Destination, type Party, type Payer, maskCpf } from '../rail/rail.public';
import type { PaymentWithPayer } from './payments.repository';

export type PaymentResult = components['schemas']['PaymentResult'];
type PartyView = components['schemas']['Party'];

// A person's CPF learnt from the DICT is shown masked; what the payer typed is shown as typed.
function shownTaxId(d: Destination): string {
  return d.taxIdType === 'BR:CPF' && d.declaredTaxId === undefined && d.taxId.length === 11
    ? maskCpf(d.taxId)
    : d.taxId;
}

export function payerOf(row: PaymentWithPayer): Payer {
  return {
    companyId: row.company_id,
    accountId: row.account_id,
    name: row.payer_official_name,
    tradeName: row.payer_trade_name,
    taxId: row.payer_tax_id,
    taxIdType: row.payer_tax_id.length === 11 ? 'BR:CPF' : 'BR:CNPJ',
    ispb: OWN_ISPB,
    bank: OWN_PSP_NAME,
    branch: row.payer_branch,
    account: row.payer_account_number,
    accountType: 'TRAN',
  };
}

export function partyView(p: Party & { pixKey?: string; pixKeyType?: string }, taxId = p.taxId): PartyView {
  return {
    ...(p.pixKey ? { pixKey: { pixKey: p.pixKey, ...(p.pixKeyType ? { type: p.pixKeyType } : {}) } } : {}),
    account: { branch: p.branch, account: p.account, accountType: p.accountType },
    psp: { id: p.ispb, name: p.bank },
    holder: {
      name: p.name,
      ...(p.tradeName ? { nameFriendly: p.tradeName } : {}),
      taxID: { taxID: taxId, type: p.taxIdType },
    },
  };
}

export function destinationView(d: Destination): components['schemas']['PaymentDestination'] {
  return {
    name: d.name,
    taxID: shownTaxId(d),
    ...(d.pixKey ? { pixKey: d.pixKey } : {}),
    bank: d.bank,
    branch: d.branch,
    account: d.account,
  };
}

export function paymentView(row: PaymentWithPayer): components['schemas']['Payment'] {
  const echo = row.request;
  return {
    id: row.id,
    type: row.type,
    value: row.value,
    status: row.status,
    ...echo,
    correlationID: row.correlation_id,
    ...(row.comment ? { comment: row.comment } : {}),
    sourceAccountId: row.account_id,
    ...(row.metadata ? { metadata: row.metadata } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function paymentTransactionView(row: PaymentWithPayer): components['schemas']['PaymentTransaction'] | undefined {
  if (!row.settled_at || !row.end_to_end_id) return undefined;
  const d = row.destination;
  return {
    value: row.value,
    endToEndId: row.end_to_end_id,
    time: row.settled_at.toISOString(),
    ...(row.status === 'FAILED' && row.failure_code
      ? { providerRejectedReason: `${row.failure_code}: ${row.failure_reason ?? ''}`.trim() }
      : {}),
    debitParty: partyView(payerOf(row)),
    creditParty: partyView(d, shownTaxId(d)),
  };
}

export function paymentResult(row: PaymentWithPayer): PaymentResult {
  const transaction = paymentTransactionView(row);
  return {
    payment: paymentView(row),
    ...(transaction ? { transaction } : {}),
    destination: destinationView(row.destination),
  };
}
