// How a received Pix and its devolutions are shown: in the standard's format (Pix API, its
// callbacks) and in the platform's (refunds of a charge, webhook payloads).
import { type AccountParty } from '../accounts/accounts.public';
import type { components as pixSchemas } from '../../generated/pix.types';
import type { components as platformSchemas } from '../../generated/platform.types';
import type { PixDevolution, PixReceived } from '../db/schema';
import { cents, formatDecimalAmount } from '../lib/money';

export function money(value: number): string {
  return formatDecimalAmount(cents(value));
}

type Devolucao = pixSchemas['schemas']['Devolucao'];
type Refund = platformSchemas['schemas']['Refund'];

export function devolucaoView(d: PixDevolution): Devolucao {
  return {
    id: d.id,
    rtrId: d.rtr_id,
    valor: money(d.value),
    natureza: d.natureza,
    ...(d.descricao !== null ? { descricao: d.descricao } : {}),
    horario: {
      solicitacao: d.requested_at.toISOString(),
      ...(d.status === 'DEVOLVIDO' && d.settled_at ? { liquidacao: d.settled_at.toISOString() } : {}),
    },
    status: d.status,
    ...(d.motivo !== null ? { motivo: d.motivo } : {}),
  };
}

export type PixView = pixSchemas['schemas']['Pix'];

// A received Pix as GET /pix/v2/pix/{e2eid} answers it (and the /pix callback carries it).
export function pixView(p: PixReceived, devolutions: PixDevolution[]): PixView {
  return {
    endToEndId: p.end_to_end_id,
    ...(p.txid !== null ? { txid: p.txid } : {}),
    valor: money(p.value),
    ...(p.components ? { componentesValor: p.components } : {}),
    // '' when the Pix was addressed to the account by hand (no key).
    ...(p.pix_key ? { chave: p.pix_key } : {}),
    horario: p.settled_at.toISOString(),
    ...(p.info_pagador !== null ? { infoPagador: p.info_pagador } : {}),
    devolucoes: devolutions.map(devolucaoView),
  };
}

export function taxIdView(taxId: string): platformSchemas['schemas']['TaxID'] {
  return { taxID: taxId, type: taxId.length === 11 ? ('BR:CPF' as const) : ('BR:CNPJ' as const) };
}

// The platform's view of a received Pix (the `pix` of webhook payloads; the shape of a
// transaction of GET /api/v1/transaction).
export function platformPixView(p: PixReceived) {
  return {
    value: p.value,
    time: p.settled_at.toISOString(),
    endToEndId: p.end_to_end_id,
    ...(p.txid !== null ? { transactionID: p.txid } : {}),
    ...(p.info_pagador !== null ? { infoPagador: p.info_pagador } : {}),
    ...(p.pix_key ? { pixKey: p.pix_key } : {}),
    type: 'PAYMENT' as const,
    status: 'CONFIRMED' as const,
    payer: { name: p.payer_name, taxID: taxIdView(p.payer_tax_id) },
    createdAt: p.settled_at.toISOString(),
  };
}

const REFUND_STATUS = { EM_PROCESSAMENTO: 'IN_PROCESSING', DEVOLVIDO: 'CONFIRMED', NAO_REALIZADO: 'REJECTED' } as const;

// A devolution as the platform API shows a charge refund (ChargeRefund): the fields it shares
// with a Refund, each of them present.
export function refundView(
  d: PixDevolution,
): Omit<Refund, 'refundId' | 'returnIdentification' | 'transactionEndToEndId' | 'reason'> {
  return {
    status: REFUND_STATUS[d.status],
    value: d.value,
    correlationID: d.correlation_id ?? d.id,
    endToEndId: d.rtr_id,
    time: d.requested_at.toISOString(),
    ...(d.descricao !== null ? { comment: d.descricao } : {}),
  };
}

// A refund as /api/v1/refund shows it: the charge refund's fields plus the ids that tie it to
// the Pix API (refundId is the devolution id, returnIdentification its rtrId).
export function pixRefundView(d: PixDevolution): Refund {
  return {
    ...refundView(d),
    refundId: d.id,
    returnIdentification: d.rtr_id,
    transactionEndToEndId: d.end_to_end_id,
    ...(d.motivo !== null ? { reason: d.motivo } : {}),
  };
}

// The refund of webhook payloads: the platform view plus the devolution's own ids.
export function refundEventView(d: PixDevolution) {
  return {
    ...refundView(d),
    refundId: d.id,
    originalEndToEndId: d.end_to_end_id,
    ...(d.settled_at ? { settledAt: d.settled_at.toISOString() } : {}),
    ...(d.motivo !== null ? { reason: d.motivo } : {}),
  };
}

export function companyView(a: AccountParty): platformSchemas['schemas']['Company'] {
  return { id: a.company_id, name: a.company_name, taxID: a.company_tax_id };
}

export function accountEventView(a: AccountParty) {
  return { accountId: a.account_id, branch: a.branch, account: a.account_number, taxID: a.company_tax_id };
}
