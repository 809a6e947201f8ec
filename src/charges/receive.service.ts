// Money in: a Pix arriving at a company of this server, from the sandbox's outside payer
// (POST /api/v1/sandbox/pay, /pix-in) or from another company here paying through the rail.
// One function, called inside the caller's database transaction, so the payer's debit (when
// the payer is local) and this credit commit together: one money move, no money created.
import type { Kysely } from 'kysely';
import type { Charge, Database, PixReceived } from '../db/schema';
import { recordEvent } from '../events/events.repository';
import { findPixKeyOwner } from '../keys/keys.repository';
import { applyMove } from '../ledger/ledger.service';
import { isValidEndToEndId } from '../lib/ids';
import type { Cents } from '../lib/money';
import { onlyDigitsAndLetters } from '../lib/taxid';
import { chargePaymentParts, type PaymentParts } from '../pixin/charge-payment';
import * as repo from '../pixin/pixin.repository';
import { accountEventView, companyView, platformPixView, pixView } from '../pixin/pixin.views';
import { findByKeyAndIdentifier } from '../qrcodes/qrcodes.repository';
import { insertTransaction } from '../transactions/transactions.repository';
import { completeCharge, findCompanyCharge, lockChargeForPayment, platformChargeView } from './payable';

export interface IncomingPix {
  // Made by the payer's side (E + payer ISPB + yyyyMMddHHmm + 11 alphanumerics).
  endToEndId: string;
  value: Cents;
  at: Date;
  payer: {
    name: string;
    taxId: string; // CPF or CNPJ, digits (alphanumeric CNPJ allowed)
    ispb: string;
    // Set when the payer is a company of this server (a local payment).
    companyId?: string;
    accountId?: string;
  };
  // How the payer addressed the money, exactly one of:
  // a dynamic BR Code's location (field 26.25, without scheme) ...
  locationUrl?: string;
  // ... or a key (a static BR Code's key, or a payment to a key), with the static code's
  // txid when it had one ('***' means none).
  pixKey?: string;
  txid?: string;
  // ... or the receiving account itself (a transfer to a branch and account number given by
  // hand, the SPI's MANU initiation): no key and no charge; stored with pix_key '' (none).
  accountId?: string;
  infoPagador?: string;
}

export type ReceiveFailure =
  'NOT_FOUND' | 'EXPIRED' | 'NOT_PAYABLE' | 'WRONG_AMOUNT' | 'PAYER_MISMATCH' | 'PAST_VALIDITY';

export type ReceiveResult =
  | {
      ok: true;
      companyId: string;
      accountId: string;
      chargeId: string | null;
      transactionId: string;
      endToEndId: string;
    }
  | { ok: false; code: ReceiveFailure; message: string };

// The settled Pix with what it paid, for callers that answer more than the result (sandbox).
export type SettledPix = Extract<ReceiveResult, { ok: true }> & {
  pix: PixReceived;
  charge: Charge | null;
  replayed: boolean;
};
export type SettleResult = SettledPix | Extract<ReceiveResult, { ok: false }>;

// The public base URL written into the charge views of webhook payloads (set at start-up).
let publicUrl = 'http://localhost:8080';
export function configureReceive(options: { publicUrl: string }): void {
  publicUrl = options.publicUrl;
}

const fail = (code: ReceiveFailure, message: string) => ({ ok: false as const, code, message });

// Settles an incoming Pix: stores it, completes its charge (if any), credits the receiving
// account through the ledger, records the events. Refuses what a payer's bank would refuse.
export async function receivePix(trx: Kysely<Database>, incoming: IncomingPix): Promise<ReceiveResult> {
  const result = await settleIncomingPix(trx, incoming);
  if (!result.ok) return result;
  const { companyId, accountId, chargeId, transactionId, endToEndId } = result;
  return { ok: true, companyId, accountId, chargeId, transactionId, endToEndId };
}

interface Target {
  companyId: string;
  accountId: string;
  pixKey: string;
  txid: string | null;
  charge: Charge | null;
  parts: PaymentParts;
  qrCode: { name: string; correlationID: string; identifier: string } | null;
}

export async function settleIncomingPix(trx: Kysely<Database>, incoming: IncomingPix): Promise<SettleResult> {
  if (!isValidEndToEndId(incoming.endToEndId) || !incoming.endToEndId.startsWith('E')) {
    throw new RangeError(`not an end-to-end id: ${JSON.stringify(incoming.endToEndId)}`);
  }
  if (!Number.isSafeInteger(incoming.value) || incoming.value <= 0)
    return fail('WRONG_AMOUNT', 'The amount must be a positive number of cents');
  await repo.lockEndToEndId(trx, incoming.endToEndId);
  const existing = await repo.findReceived(trx, incoming.endToEndId);
  if (existing) return settledFrom(trx, existing, true);

  const target = await resolveTarget(trx, incoming);
  if ('code' in target) return target;
  const party = await repo.findAccountParty(trx, target.accountId);
  if (!party || party.status !== 'OPEN') return fail('NOT_PAYABLE', 'The receiving account is closed');

  const at = incoming.at;
  const payerTaxId = onlyDigitsAndLetters(incoming.payer.taxId).toUpperCase();
  const infoPagador = incoming.infoPagador?.trim() ? incoming.infoPagador.trim().slice(0, 140) : null;
  const charge = target.charge;
  const tx = await insertTransaction(trx, {
    company_id: target.companyId,
    account_id: target.accountId,
    type: 'PIX_IN',
    value: incoming.value,
    end_to_end_id: incoming.endToEndId,
    charge_id: charge?.id ?? null,
    payment_id: null,
    created_at: at,
    details: {
      ...(target.txid ? { txid: target.txid } : {}),
      ...(infoPagador ? { infoPagador } : {}),
      ...(target.pixKey ? { pixKey: target.pixKey } : {}),
      payer: { name: incoming.payer.name, taxID: payerTaxId, ispb: incoming.payer.ispb },
      ...(charge
        ? {
            ...(charge.correlation_id ? { chargeCorrelationID: charge.correlation_id } : {}),
            charge: {
              ...(charge.correlation_id ? { correlationID: charge.correlation_id } : {}),
              status: 'COMPLETED',
              value: charge.value,
              transactionID: charge.txid,
              createdAt: charge.created_at.toISOString(),
            },
          }
        : {}),
      ...(target.qrCode ? { pixQrCode: target.qrCode } : {}),
      ...(target.parts.components ? { componentesValor: target.parts.components } : {}),
    },
  });
  const pix = await repo.insertReceived(trx, {
    end_to_end_id: incoming.endToEndId,
    company_id: target.companyId,
    account_id: target.accountId,
    charge_id: charge?.id ?? null,
    txid: target.txid,
    pix_key: target.pixKey,
    value: incoming.value,
    withdrawal_kind: target.parts.withdrawal?.kind ?? null,
    withdrawal_value: target.parts.withdrawal?.value ?? 0,
    components: target.parts.components ? JSON.stringify(target.parts.components) : null,
    payer_name: incoming.payer.name,
    payer_tax_id: payerTaxId,
    payer_ispb: incoming.payer.ispb,
    payer_company_id: incoming.payer.companyId ?? null,
    payer_account_id: incoming.payer.accountId ?? null,
    info_pagador: infoPagador,
    transaction_id: tx.id,
    settled_at: at,
  });
  if (charge) await completeCharge(trx, charge.id, at);
  const move = await applyMove(trx, {
    moveId: `pix-in:${incoming.endToEndId}`,
    legs: [{ accountId: target.accountId, kind: 'CREDIT', amount: incoming.value }],
    at,
    transactionId: tx.id,
    description: charge ? `Pix received for charge ${charge.correlation_id ?? charge.txid}` : 'Pix received',
  });
  if (!move.ok) throw new Error(`crediting a received Pix failed: ${move.code}`);

  const paid = charge ? { ...charge, status: 'CONCLUIDA' as const, paid_at: at, updated_at: at } : null;
  const chargeView = paid ? await platformChargeView(trx, paid, publicUrl, at) : undefined;
  const common = {
    pix: platformPixView(pix),
    company: companyView(party),
    account: accountEventView(party),
  };
  if (chargeView) {
    await recordEvent(trx, {
      companyId: target.companyId,
      type: 'OPENPIX:CHARGE_COMPLETED',
      payload: { charge: chargeView, ...common },
      at,
    });
  }
  await recordEvent(trx, {
    companyId: target.companyId,
    type: 'OPENPIX:TRANSACTION_RECEIVED',
    payload: {
      ...common,
      ...(chargeView ? { charge: chargeView } : {}),
      ...(target.qrCode ? { pixQrCode: target.qrCode } : {}),
    },
    at,
  });
  if (pix.txid) {
    await recordEvent(trx, {
      companyId: target.companyId,
      type: 'PIX_API:PIX',
      payload: { chave: pix.pix_key, pix: pixView(pix, []) },
      at,
    });
  }
  return {
    ok: true,
    companyId: target.companyId,
    accountId: target.accountId,
    chargeId: charge?.id ?? null,
    transactionId: tx.id,
    endToEndId: pix.end_to_end_id,
    pix,
    charge: paid,
    replayed: false,
  };
}

// Finds who receives the Pix and what it pays; refuses what the payer's bank would refuse.
async function resolveTarget(trx: Kysely<Database>, incoming: IncomingPix): Promise<Target | ReturnType<typeof fail>> {
  const payerTaxId = onlyDigitsAndLetters(incoming.payer.taxId).toUpperCase();
  if (incoming.locationUrl) {
    const locked = await lockChargeForPayment(trx, { locationUrl: incoming.locationUrl }, incoming.at);
    if (!locked.ok) return fail(locked.code, locked.message);
    const { charge, amountDue } = locked.value;
    const parts = chargePaymentParts(charge, incoming.value, amountDue, payerTaxId, incoming.at);
    if (!parts.ok) return fail(parts.code, parts.message);
    return {
      companyId: charge.company_id,
      accountId: charge.account_id,
      pixKey: charge.pix_key,
      txid: charge.txid,
      charge,
      parts,
      qrCode: null,
    };
  }
  if (incoming.accountId) {
    const account = await repo.findAccountParty(trx, incoming.accountId);
    if (!account) return fail('NOT_FOUND', 'Account not found');
    return {
      companyId: account.company_id,
      accountId: account.account_id,
      pixKey: '',
      txid: null,
      charge: null,
      parts: { components: null, withdrawal: null },
      qrCode: null,
    };
  }
  if (!incoming.pixKey) return fail('NOT_FOUND', 'The Pix has neither a location, a key nor an account');
  const owner = await findPixKeyOwner(trx, incoming.pixKey);
  if (!owner) return fail('NOT_FOUND', 'Pix key not found');
  const txid = incoming.txid && incoming.txid !== '***' ? incoming.txid : null;
  const plain = {
    companyId: owner.company_id,
    accountId: owner.account_id,
    pixKey: owner.key,
    txid,
    charge: null,
    parts: { components: null, withdrawal: null },
    qrCode: null,
  };
  if (!txid) return plain;
  const locked = await lockChargeForPayment(trx, { companyId: owner.company_id, txid }, incoming.at);
  if (!locked.ok && locked.code !== 'NOT_FOUND') return fail(locked.code, locked.message);
  if (locked.ok) {
    const { charge, amountDue } = locked.value;
    const parts = chargePaymentParts(charge, incoming.value, amountDue, payerTaxId, incoming.at);
    if (!parts.ok) return fail(parts.code, parts.message);
    return { ...plain, charge, parts };
  }
  const code = await findByKeyAndIdentifier(trx, owner.key, txid);
  return code && code.company_id === owner.company_id
    ? { ...plain, qrCode: { name: code.name, correlationID: code.correlation_id, identifier: code.identifier } }
    : plain;
}

async function settledFrom(trx: Kysely<Database>, pix: PixReceived, replayed: boolean): Promise<SettledPix> {
  const charge = pix.charge_id ? ((await findCompanyCharge(trx, pix.company_id, pix.charge_id)) ?? null) : null;
  return {
    ok: true,
    companyId: pix.company_id,
    accountId: pix.account_id,
    chargeId: pix.charge_id,
    transactionId: pix.transaction_id,
    endToEndId: pix.end_to_end_id,
    pix,
    charge,
    replayed,
  };
}
