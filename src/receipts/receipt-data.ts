// What a Pix receipt says, from the transaction row and the Pix rows joined to it (pure).
// Details are JSON written by several areas: every value is checked before it is used.
import { isJsonObject, type JsonObject } from '../lib/json';
import { classifyPixKey, type PixKeyType } from '../lib/pix-key';
import { institutionName, OWN_ISPB } from '../lib/psp';
import type { ReceiptSource } from '../transactions/transactions.service';

export type ReceiptType = 'pix-in' | 'pix-out' | 'pix-refund';

export interface ReceiptParty {
  name: string;
  // Digits (a CNPJ may hold letters); empty when unknown.
  taxId: string;
  ispb: string;
  institution: string;
  branch?: string;
  account?: string;
}

export interface ReceiptData {
  type: ReceiptType;
  // A refund: whether the company returned the money (sent) or got it back (received).
  direction: 'sent' | 'received';
  value: number;
  at: Date;
  endToEndId: string;
  txid?: string;
  payer: ReceiptParty;
  receiver: ReceiptParty;
  // The receiver's key the Pix was sent to.
  key?: { key: string; type: PixKeyType };
  description?: string;
  refund?: { originalEndToEndId?: string; reason: string };
}

// The stored transaction types each receipt type is made from.
export const RECEIPT_TRANSACTION_TYPES = {
  'pix-in': ['PIX_IN'],
  'pix-out': ['PIX_OUT'],
  'pix-refund': ['REFUND_OUT', 'REFUND_IN'],
} as const satisfies Record<ReceiptType, readonly string[]>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function obj(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

// The company's own side: its account on this server.
function ownParty(row: ReceiptSource): ReceiptParty {
  return {
    name: row.company_official_name,
    taxId: row.company_tax_id,
    ispb: OWN_ISPB,
    institution: institutionName(OWN_ISPB),
    branch: row.branch,
    account: row.account_number,
  };
}

// The other side, as the transaction recorded it (a payer or a destination).
function otherParty(details: JsonObject, extra: { branch?: string | null; account?: string | null } = {}) {
  const ispb = str(details.ispb) ?? '';
  const branch = str(details.branch) ?? str(extra.branch);
  const account = str(details.account) ?? str(extra.account);
  const party: ReceiptParty = {
    name: str(details.name) ?? '',
    taxId: (str(details.taxID) ?? str(details.taxId) ?? '').replace(/[.\-/\s]/g, '').toUpperCase(),
    ispb,
    institution: ispb ? institutionName(ispb) : '',
    ...(branch ? { branch } : {}),
    ...(account ? { account } : {}),
  };
  return party;
}

function keyOf(key: string | undefined, declared: unknown): ReceiptData['key'] {
  if (!key) return undefined;
  const type = (['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const).find((t) => t === declared) ?? classifyPixKey(key);
  return type ? { key, type } : undefined;
}

const NATUREZAS: Record<string, string> = {
  ORIGINAL: 'Devolução do Pix',
  RETIRADA: 'Devolução de Pix Saque ou Pix Troco',
  MED_OPERACIONAL: 'Devolução especial (MED): falha operacional',
  MED_FRAUDE: 'Devolução especial (MED): fundada suspeita de fraude',
};

function refundReason(row: ReceiptSource, d: JsonObject): string {
  const natureza = str(row.devolution_natureza) ?? str(d.natureza) ?? 'ORIGINAL';
  const described = str(row.devolution_descricao) ?? str(d.comment);
  const nature = NATUREZAS[natureza] ?? NATUREZAS.ORIGINAL!;
  return described ? `${nature}: ${described}` : nature;
}

export function receiptDataOf(type: ReceiptType, row: ReceiptSource): ReceiptData {
  const d = obj(row.details);
  const own = ownParty(row);
  const txid = str(row.pix_txid) ?? str(d.txid);
  const common = {
    type,
    value: row.value,
    at: row.created_at,
    endToEndId: row.end_to_end_id!,
    ...(txid && txid !== '***' ? { txid } : {}),
  };
  const description = str(d.infoPagador) ?? str(d.comment);
  if (row.type === 'PIX_IN') {
    const payer = otherParty(obj(d.payer), { branch: row.other_branch, account: row.other_account_number });
    const key = keyOf(str(row.pix_key) ?? str(d.pixKey), undefined);
    return { ...common, direction: 'received', payer, receiver: own, ...(key ? { key } : {}), ...opt(description) };
  }
  if (row.type === 'PIX_OUT') {
    const destination = obj(d.destination);
    const key = keyOf(str(destination.pixKey), destination.pixKeyType);
    const receiver = otherParty(destination);
    return { ...common, direction: 'sent', payer: own, receiver, ...(key ? { key } : {}), ...opt(description) };
  }
  const sent = row.type === 'REFUND_OUT';
  const other = otherParty(obj(sent ? d.destination : d.payer), {
    branch: row.other_branch,
    account: row.other_account_number,
  });
  const originalEndToEndId = str(d.originalEndToEndId);
  return {
    ...common,
    direction: sent ? 'sent' : 'received',
    payer: sent ? own : other,
    receiver: sent ? other : own,
    refund: { ...(originalEndToEndId ? { originalEndToEndId } : {}), reason: refundReason(row, d) },
  };
}

function opt(description: string | undefined): { description?: string } {
  return description ? { description } : {};
}
