// Money in: a Pix arriving at a company of this server, from the sandbox's outside payer
// (POST /api/v1/sandbox/pay, /pix-in) or from another company here paying through the rail.
// One function, called inside the caller's database transaction, so the payer's debit (when
// the payer is local) and this credit commit together: one money move, no money created.
import { type AccountParty, findAccountParty } from '../accounts/accounts.public';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Charge, Database, PixReceived } from '../db/schema';
import { type NewEvent, recordEvents } from '../events/events.service';
import { findPixKeyOwner } from '../keys/keys.public';
import { applyMove, counterLeg, OUTSIDE } from '../ledger/ledger.service';
import { isValidEndToEndId } from '../lib/ids';
import type { Cents } from '../lib/money';
import { onlyDigitsAndLetters } from '../lib/taxid';
import { chargePaymentParts, type PaymentParts } from './charge-payment';
import * as repo from './pixin.repository';
import { accountEventView, companyView, platformPixView, pixView } from './pixin.view';
import { findStaticQrByKeyAndIdentifier } from '../qrcodes/qrcodes.public';
import type { StoredTransactionDetails } from '../db/documents/transaction-details';
import { insertTransaction } from '../transactions/transactions.public';
import {
  chargeEventView,
  type ChargeEventView,
  completeCharge,
  findCompanyCharge,
  lockChargeForPayment,
  type PaymentTarget,
  type ChargeWithAccount,
} from '../charges/charges.public';
import { executeSplits, type PlannedPart, planSplits, splitsDetail } from '../splits/splits.service';

export interface IncomingPix {
  // Made by the payer's side (E + payer ISPB + yyyyMMddHHmm + 11 alphanumerics).
  endToEndId: string;
  // What the payer sends; 'amount-due': what the charge it pays costs at the payment's time
  // (a payer's bank reading a due-date charge's payload).
  value: Cents | 'amount-due';
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

// What money in needs from its caller besides the Pix: the base URL its events' charge views
// are written with, and the clock of the receiving company (the payment's time for expiry,
// amounts due and records; without one, the incoming Pix's own time).
export interface ReceiveContext {
  publicUrl: string;
  // Pass the transaction along: on the embedded database a read outside it would wait for it.
  now?: (companyId: string, trx: Kysely<Database>) => Promise<Date>;
}

const fail = (code: ReceiveFailure, message: string) => ({ ok: false as const, code, message });

// Settles an incoming Pix: stores it, completes its charge (if any), credits the receiving
// account through the ledger, records the events. Refuses what a payer's bank would refuse.
export async function receivePix(
  trx: Kysely<Database>,
  incoming: IncomingPix,
  context: ReceiveContext,
): Promise<ReceiveResult> {
  const result = await settleIncomingPix(trx, incoming, context);
  if (!result.ok) return result;
  const { companyId, accountId, chargeId, transactionId, endToEndId } = result;
  return { ok: true, companyId, accountId, chargeId, transactionId, endToEndId };
}

interface Target {
  companyId: string;
  accountId: string;
  pixKey: string;
  txid: string | null;
  // The charge paid, as locked with its location, company and account.
  charge: ChargeWithAccount | null;
  party: AccountParty;
  parts: PaymentParts;
  qrCode: { name: string; correlationID: string; identifier: string } | null;
  // When the payment happens (the receiving company's clock) and what it pays.
  at: Date;
  value: Cents;
}

type Refusal = ReturnType<typeof fail>;

// About nine statements: the target locked (one), the Pix claimed by its end-to-end id (one),
// its transaction, the charge completed, its events (one each), the ledger move (two).
export async function settleIncomingPix(
  trx: Kysely<Database>,
  incoming: IncomingPix,
  context: ReceiveContext,
): Promise<SettleResult> {
  if (!isValidEndToEndId(incoming.endToEndId) || !incoming.endToEndId.startsWith('E')) {
    throw new RangeError(`not an end-to-end id: ${JSON.stringify(incoming.endToEndId)}`);
  }
  if (incoming.value !== 'amount-due' && (!Number.isSafeInteger(incoming.value) || incoming.value <= 0))
    return fail('WRONG_AMOUNT', 'The amount must be a positive number of cents');
  const target = await resolveTarget(trx, incoming, context);
  // A refusal may be the replay of a Pix already settled (its charge is paid now): answer that.
  if ('code' in target) return (await replayOf(trx, incoming.endToEndId)) ?? target;
  if (target.party.status !== 'OPEN') return fail('NOT_PAYABLE', 'The receiving account is closed');
  const payerTaxId = onlyDigitsAndLetters(incoming.payer.taxId).toUpperCase();
  const infoPagador = incoming.infoPagador?.trim() ? incoming.infoPagador.trim().slice(0, 140) : null;
  const transactionId = randomUUID();
  const pix = await repo.claimReceived(trx, {
    end_to_end_id: incoming.endToEndId,
    company_id: target.companyId,
    account_id: target.accountId,
    charge_id: target.charge?.charge.id ?? null,
    txid: target.txid,
    pix_key: target.pixKey,
    value: target.value,
    withdrawal_kind: target.parts.withdrawal?.kind ?? null,
    withdrawal_value: target.parts.withdrawal?.value ?? 0,
    components: target.parts.components ? JSON.stringify(target.parts.components) : null,
    payer_name: incoming.payer.name,
    payer_tax_id: payerTaxId,
    payer_ispb: incoming.payer.ispb,
    payer_company_id: incoming.payer.companyId ?? null,
    payer_account_id: incoming.payer.accountId ?? null,
    info_pagador: infoPagador,
    transaction_id: transactionId,
    settled_at: target.at,
  });
  // Settled meanwhile by another request with the same end-to-end id: that settlement stands.
  if (!pix) return (await replayOf(trx, incoming.endToEndId))!;
  const parts = await splitPlanOf(trx, target);
  await insertTransaction(trx, {
    id: transactionId,
    company_id: target.companyId,
    account_id: target.accountId,
    type: 'PIX_IN',
    value: target.value,
    end_to_end_id: incoming.endToEndId,
    charge_id: target.charge?.charge.id ?? null,
    payment_id: null,
    created_at: target.at,
    details: {
      ...transactionDetails(target, incoming, payerTaxId, infoPagador),
      ...(parts.length ? { splits: splitsDetail(parts) } : {}),
    },
  });
  const paid = target.charge ? await completeCharge(trx, target.charge, target.at) : null;
  await credit(trx, target, incoming.endToEndId, transactionId);
  if (parts.length) await splitPayment(trx, target, parts, incoming.endToEndId);
  await recordEvents(trx, settlementEvents(target, pix, paid, context.publicUrl));
  return {
    ok: true,
    companyId: target.companyId,
    accountId: target.accountId,
    chargeId: paid?.id ?? null,
    transactionId,
    endToEndId: pix.end_to_end_id,
    pix,
    charge: paid,
    replayed: false,
  };
}

function transactionDetails(
  target: Target,
  incoming: IncomingPix,
  payerTaxId: string,
  infoPagador: string | null,
): StoredTransactionDetails {
  const charge = target.charge?.charge;
  return {
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
  };
}

// Where the parts of a split charge go when it is paid (none for other Pix).
async function splitPlanOf(trx: Kysely<Database>, target: Target): Promise<PlannedPart[]> {
  const splits = target.charge?.charge.platform.splits;
  if (!splits?.length) return [];
  return planSplits(trx, splits, { companyId: target.companyId, accountId: target.accountId }, target.value);
}

// The parts leave the receiver right after its credit.
async function splitPayment(trx: Kysely<Database>, target: Target, parts: PlannedPart[], endToEndId: string) {
  const charge = target.charge!.charge;
  await executeSplits(trx, parts, {
    endToEndId,
    receiver: {
      companyId: target.companyId,
      accountId: target.accountId,
      name: target.party.company_name,
      taxId: target.party.company_tax_id,
    },
    at: target.at,
    charge: charge.correlation_id ?? charge.txid,
  });
}

// The receiving account is credited from the outside world.
async function credit(trx: Kysely<Database>, target: Target, endToEndId: string, transactionId: string) {
  const charge = target.charge?.charge;
  const move = await applyMove(trx, {
    moveId: `pix-in:${endToEndId}`,
    legs: [{ accountId: target.accountId, kind: 'CREDIT', amount: target.value }, counterLeg(OUTSIDE, -target.value)],
    at: target.at,
    transactionId,
    description: charge ? `Pix received for charge ${charge.correlation_id ?? charge.txid}` : 'Pix received',
  });
  if (!move.ok) throw new Error(`crediting a received Pix failed: ${move.code}`);
}

// The platform payloads of a Pix received: the charge completed (when it paid one) and the
// transaction. Also what test events' samples are made with (pixin-samples.ts).
export function settlementPayloads(
  pix: PixReceived,
  party: AccountParty,
  chargeView: ChargeEventView | undefined,
  qrCode: Target['qrCode'],
) {
  const common = { pix: platformPixView(pix), company: companyView(party), account: accountEventView(party) };
  return {
    completed: chargeView ? { charge: chargeView, ...common } : undefined,
    received: {
      ...common,
      ...(chargeView ? { charge: chargeView } : {}),
      ...(qrCode ? { pixQrCode: qrCode } : {}),
    },
  };
}

// The events a receiver hears of: the charge completed, the transaction, the Pix API callback.
function settlementEvents(target: Target, pix: PixReceived, paid: Charge | null, publicUrl: string): NewEvent[] {
  const at = target.at;
  const chargeView = paid && target.charge ? chargeEventView(paid, target.charge, publicUrl, at) : undefined;
  const payloads = settlementPayloads(pix, target.party, chargeView, target.qrCode);
  const events: NewEvent[] = [];
  if (payloads.completed)
    events.push({ companyId: target.companyId, type: 'OPENPIX:CHARGE_COMPLETED', payload: payloads.completed, at });
  events.push({ companyId: target.companyId, type: 'OPENPIX:TRANSACTION_RECEIVED', payload: payloads.received, at });
  if (pix.txid) {
    events.push({
      companyId: target.companyId,
      type: 'PIX_API:PIX',
      payload: { chave: pix.pix_key, pix: pixView(pix, []) },
      at,
    });
  }
  return events;
}

// Finds who receives the Pix and what it pays; refuses what the payer's bank would refuse.
async function resolveTarget(
  trx: Kysely<Database>,
  incoming: IncomingPix,
  context: ReceiveContext,
): Promise<Target | Refusal> {
  if (incoming.locationUrl) return chargeTarget(trx, incoming, context, { locationUrl: incoming.locationUrl });
  if (incoming.accountId) {
    const party = await findAccountParty(trx, incoming.accountId);
    if (!party) return fail('NOT_FOUND', 'Account not found');
    return plainTarget(trx, incoming, context, party, { pixKey: '', txid: null });
  }
  if (!incoming.pixKey) return fail('NOT_FOUND', 'The Pix has neither a location, a key nor an account');
  const owner = await findPixKeyOwner(trx, incoming.pixKey);
  if (!owner) return fail('NOT_FOUND', 'Pix key not found');
  const txid = incoming.txid && incoming.txid !== '***' ? incoming.txid : null;
  const party: AccountParty = {
    company_id: owner.company_id,
    company_name: owner.company_name,
    company_tax_id: owner.company_tax_id,
    account_id: owner.account_id,
    branch: owner.branch,
    account_number: owner.account_number,
    status: owner.account_status,
  };
  const plain = () => plainTarget(trx, incoming, context, party, { pixKey: owner.key, txid });
  if (!txid) return plain();
  // A static code's txid that names a charge of the owner pays that charge.
  const paying = await chargeTarget(trx, incoming, context, { companyId: owner.company_id, txid });
  if (!('code' in paying) || paying.code !== 'NOT_FOUND') return paying;
  const code = await findStaticQrByKeyAndIdentifier(trx, owner.key, txid);
  const target = await plain();
  if ('code' in target || !code || code.company_id !== owner.company_id) return target;
  return { ...target, qrCode: { name: code.name, correlationID: code.correlation_id, identifier: code.identifier } };
}

async function plainTarget(
  trx: Kysely<Database>,
  incoming: IncomingPix,
  context: ReceiveContext,
  party: AccountParty,
  address: { pixKey: string; txid: string | null },
): Promise<Target | Refusal> {
  if (incoming.value === 'amount-due') return fail('WRONG_AMOUNT', 'A payment without a charge needs its value');
  return {
    companyId: party.company_id,
    accountId: party.account_id,
    ...address,
    charge: null,
    party,
    parts: { components: null, withdrawal: null },
    qrCode: null,
    at: context.now ? await context.now(party.company_id, trx) : incoming.at,
    value: incoming.value,
  };
}

async function chargeTarget(
  trx: Kysely<Database>,
  incoming: IncomingPix,
  context: ReceiveContext,
  address: PaymentTarget,
): Promise<Target | Refusal> {
  const { now } = context;
  const locked = await lockChargeForPayment(trx, address, now ? (companyId) => now(companyId, trx) : incoming.at);
  if (!locked.ok) return fail(locked.code, locked.message);
  const { charge, amountDue, found, at } = locked.value;
  const value = incoming.value === 'amount-due' ? amountDue : incoming.value;
  const payerTaxId = onlyDigitsAndLetters(incoming.payer.taxId).toUpperCase();
  const parts = chargePaymentParts(charge, value, amountDue, payerTaxId, at);
  if (!parts.ok) return fail(parts.code, parts.message);
  return {
    companyId: charge.company_id,
    accountId: charge.account_id,
    pixKey: charge.pix_key,
    txid: charge.txid,
    charge: found,
    party: {
      company_id: charge.company_id,
      company_name: found.company.name,
      company_tax_id: found.company.tax_id,
      account_id: charge.account_id,
      ...found.account,
    },
    parts,
    qrCode: null,
    at,
    value,
  };
}

// The settlement already made under this end-to-end id, if any.
async function replayOf(trx: Kysely<Database>, endToEndId: string): Promise<SettledPix | undefined> {
  const pix = await repo.findReceived(trx, endToEndId);
  if (!pix) return undefined;
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
    replayed: true,
  };
}
