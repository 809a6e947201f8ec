// The simulated rail settling devolutions: each one waiting (EM_PROCESSAMENTO) is claimed by
// one process (FOR UPDATE SKIP LOCKED) and, in one transaction, either returned to the payer
// (DEVOLVIDO: the held money leaves the account; a local payer is credited and notified) or refused
// (NAO_REALIZADO: the hold is released), with its transaction rows and events.
import { type AccountParty, findAccountParty } from '../accounts/accounts.public';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findCompanyCharge, platformChargeView } from '../charges/charges.public';
import type { Database, PixDevolution, PixReceived } from '../db/schema';
import { recordEvent } from '../events/events.service';
import { applyMove, applyMoves, counterLeg, type Move, OUTSIDE } from '../ledger/ledger.service';
import type { Clock } from '../db/clock';
import { cents } from '../lib/money';
import { OWN_ISPB } from '../lib/psp';
import { insertTransaction } from '../transactions/transactions.public';
import * as repo from './pixin.repository';
import { accountEventView, companyView, pixView, platformPixView, refundEventView } from './pixin.view';

export const SETTLEMENT_JOB = 'pixin.devolutions';
const MAX_PER_RUN = 200;

// Outside payers whose account the sandbox rail treats as closed: devolutions to them are
// NAO_REALIZADO (a way to see the refusal in the sandbox).
export const SANDBOX_CLOSED_ACCOUNT_TAX_IDS = new Set(['00000000191']);
export const CLOSED_ACCOUNT_REASON = 'Conta do pagador encerrada';

export class DevolutionSettlement {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  // Settles every devolution waiting now; answers how many it settled.
  async settlePending(): Promise<number> {
    let settled = 0;
    while (settled < MAX_PER_RUN && (await this.settleNext())) settled++;
    return settled;
  }

  private async settleNext(): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const devolution = await repo.claimPendingDevolution(trx);
      if (!devolution) return false;
      const now = await this.clock.now(devolution.company_id, trx);
      const pix = (await repo.findReceivedOfCompany(trx, devolution.company_id, devolution.end_to_end_id))!;
      const refusal = await this.refusalOf(trx, pix);
      if (refusal) await this.refuse(trx, devolution, pix, refusal, now);
      else await this.settle(trx, devolution, pix, now);
      return true;
    });
  }

  // Why the payer's bank would refuse the return, if it would.
  private async refusalOf(trx: Kysely<Database>, pix: PixReceived): Promise<string | undefined> {
    if (pix.payer_account_id) {
      const payer = await findAccountParty(trx, pix.payer_account_id);
      return !payer || payer.status !== 'OPEN' ? CLOSED_ACCOUNT_REASON : undefined;
    }
    return SANDBOX_CLOSED_ACCOUNT_TAX_IDS.has(pix.payer_tax_id) ? CLOSED_ACCOUNT_REASON : undefined;
  }

  private async settle(trx: Kysely<Database>, d: PixDevolution, pix: PixReceived, now: Date): Promise<void> {
    const party = (await findAccountParty(trx, d.account_id))!;
    const tx = await insertTransaction(trx, {
      company_id: d.company_id,
      account_id: d.account_id,
      type: 'REFUND_OUT',
      value: d.value,
      end_to_end_id: d.rtr_id,
      charge_id: d.charge_id,
      payment_id: null,
      created_at: now,
      details: {
        ...(pix.txid ? { txid: pix.txid } : {}),
        ...(d.descricao ? { comment: d.descricao } : {}),
        destination: { name: pix.payer_name, taxID: pix.payer_tax_id, ispb: pix.payer_ispb },
        originalEndToEndId: pix.end_to_end_id,
        devolutionId: d.id,
        natureza: d.natureza,
        ...(d.correlation_id ? { refundCorrelationID: d.correlation_id } : {}),
      },
    });
    const amount = cents(d.value);
    // Out through the rail; a payer here receives it from the rail in a move of its own, so
    // each side's statement line carries its own transaction (REFUND_OUT / REFUND_IN).
    const local = pix.payer_account_id && pix.payer_company_id ? { refundInId: randomUUID() } : undefined;
    const moves: Move[] = [
      {
        moveId: `devolucao:${d.rtr_id}`,
        legs: [{ accountId: d.account_id, kind: 'DEBIT', bucket: 'blocked', amount }, counterLeg(OUTSIDE, amount)],
        at: now,
        transactionId: tx.id,
        description: `Devolution ${d.id} of Pix ${pix.end_to_end_id}`,
      },
    ];
    if (local)
      moves.push({
        moveId: `devolucao-in:${d.rtr_id}`,
        legs: [{ accountId: pix.payer_account_id!, kind: 'CREDIT', amount }, counterLeg(OUTSIDE, -amount)],
        at: now,
        transactionId: local.refundInId,
        description: `Return ${d.rtr_id} of Pix ${pix.end_to_end_id}`,
      });
    const move = await applyMoves(trx, moves);
    if (!move.ok) throw new Error(`settling devolution ${d.rtr_id} failed: ${move.code}`);
    const settled = await repo.updateDevolution(trx, d.end_to_end_id, d.id, {
      status: 'DEVOLVIDO',
      settled_at: now,
      transaction_id: tx.id,
    });
    if (local) await this.creditLocalPayer(trx, settled, pix, { party, transactionId: local.refundInId }, now);
    const payload = await this.eventPayload(trx, settled, pix, now);
    await recordEvent(trx, {
      companyId: d.company_id,
      type: 'PIX_TRANSACTION_REFUND_SENT_CONFIRMED',
      payload: { ...payload, company: companyView(party), account: accountEventView(party) },
      at: now,
    });
    await recordEvent(trx, { companyId: d.company_id, type: 'OPENPIX:TRANSACTION_REFUND_RECEIVED', payload, at: now });
    await this.notifyPixApi(trx, pix, now);
  }

  // A payer on this server gets the return as a REFUND_IN and hears of it
  // (PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED), like a Pix it receives.
  private async creditLocalPayer(
    trx: Kysely<Database>,
    d: PixDevolution,
    pix: PixReceived,
    receiver: { party: AccountParty; transactionId: string },
    now: Date,
  ): Promise<void> {
    const tx = await insertTransaction(trx, {
      id: receiver.transactionId,
      company_id: pix.payer_company_id!,
      account_id: pix.payer_account_id!,
      type: 'REFUND_IN',
      value: d.value,
      end_to_end_id: d.rtr_id,
      charge_id: null,
      payment_id: null,
      created_at: now,
      details: {
        ...(d.descricao ? { comment: d.descricao } : {}),
        payer: { name: receiver.party.company_name, taxID: receiver.party.company_tax_id, ispb: OWN_ISPB },
        originalEndToEndId: pix.end_to_end_id,
        natureza: d.natureza,
      },
    });
    const payer = (await findAccountParty(trx, pix.payer_account_id!))!;
    await recordEvent(trx, {
      companyId: payer.company_id,
      type: 'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED',
      payload: {
        refund: { ...refundEventView(d), natureza: d.natureza, transactionID: tx.id },
        company: companyView(payer),
        account: accountEventView(payer),
      },
      at: now,
    });
  }

  private async refuse(
    trx: Kysely<Database>,
    d: PixDevolution,
    pix: PixReceived,
    motivo: string,
    now: Date,
  ): Promise<void> {
    const move = await applyMove(trx, {
      moveId: `devolucao-release:${d.rtr_id}`,
      legs: [{ accountId: d.account_id, kind: 'RELEASE', bucket: 'blocked', amount: cents(d.value) }],
      at: now,
      description: `Devolution ${d.id} of Pix ${pix.end_to_end_id} not made: ${motivo}`,
    });
    if (!move.ok) throw new Error(`releasing devolution ${d.rtr_id} failed: ${move.code}`);
    const refused = await repo.updateDevolution(trx, d.end_to_end_id, d.id, {
      status: 'NAO_REALIZADO',
      motivo,
      settled_at: now,
    });
    const party = (await findAccountParty(trx, d.account_id))!;
    const payload = await this.eventPayload(trx, refused, pix, now);
    await recordEvent(trx, {
      companyId: d.company_id,
      type: 'PIX_TRANSACTION_REFUND_SENT_REJECTED',
      payload: { ...payload, company: companyView(party), account: accountEventView(party) },
      at: now,
    });
    await this.notifyPixApi(trx, pix, now);
  }

  private async eventPayload(trx: Kysely<Database>, d: PixDevolution, pix: PixReceived, now: Date) {
    const charge = pix.charge_id ? await findCompanyCharge(trx, pix.company_id, pix.charge_id) : undefined;
    return {
      refund: refundEventView(d),
      ...(charge ? { charge: await platformChargeView(trx, charge, this.publicUrl, now) } : {}),
      pix: platformPixView(pix),
    };
  }

  // The standard notifies devolutions through the /pix callback: the Pix with its devolutions.
  private async notifyPixApi(trx: Kysely<Database>, pix: PixReceived, now: Date): Promise<void> {
    if (!pix.txid) return;
    const devolutions = (await repo.devolutionsOf(trx, [pix.end_to_end_id])).get(pix.end_to_end_id)!;
    await recordEvent(trx, {
      companyId: pix.company_id,
      type: 'PIX_API:PIX',
      payload: { chave: pix.pix_key, pix: pixView(pix, devolutions) },
      at: now,
    });
  }
}
