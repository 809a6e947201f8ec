// The recurrences job: settles the attempts of recurring charges due today (server clock),
// expires stale charges and confirmation requests. Rows are claimed with FOR UPDATE SKIP
// LOCKED, so several processes share the work. Settlement is simulated (the payer's PSP and
// the SPI are out of reach): the sandbox payer pays every attempt up to its limit
// (SANDBOX_PAYER_LIMIT_CENTS) and rejects larger ones (AM02).
import type { Kysely } from 'kysely';
import type { CobRAttempt, Database, RecurringCharge } from '../db/schema';
import type { Clock } from '../db/clock';
import { applyMove, counterLeg, OUTSIDE } from '../ledger/ledger.service';
import { cents, formatDecimalAmount } from '../lib/money';
import { insertTransaction } from '../transactions/transactions.public';
import * as cobrRepo from './cobr.repository';
import { RETRY_WINDOW_DAYS, SANDBOX_PAYER_LIMIT_CENTS } from './cobr.rules';
import { changeCobrStatus, changeRecStatus, recordCobrEvent } from './rec-state';
import { taxIdOf } from './rec.rules';
import * as repo from './recurrences.repository';
import type { SolicRecService } from './solicrec.service';

export const RECURRENCES_JOB = 'recurrences';
const BATCH = 50;

export class RecurrencesJob {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly solicrecs: SolicRecService,
  ) {}

  async run(): Promise<void> {
    while ((await this.solicrecs.expireDue()) === 100);
    while ((await this.expireStaleRecurrences()) === BATCH);
    while ((await this.settleDue()) === BATCH);
    while ((await this.expireStale()) === BATCH);
  }

  // A recurrence nobody approved by its first date (dataInicial) ends EXPIRADA: its first
  // charge could not be made, and a payer cannot approve it any more.
  private async expireStaleRecurrences(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const stale = await repo.claimStaleRecurrences(trx, BATCH);
      for (const rec of stale) await changeRecStatus(trx, rec, 'EXPIRADA', await this.clock.now(rec.company_id, trx));
      return stale.length;
    });
  }

  private async settleDue(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const due = await cobrRepo.claimDueCobrs(trx, BATCH);
      for (const cobr of due) await this.settle(trx, cobr, await this.clock.now(cobr.company_id, trx));
      return due.length;
    });
  }

  private async settle(trx: Kysely<Database>, cobr: RecurringCharge, now: Date): Promise<void> {
    const rec = (await repo.findRecurrence(trx, cobr.company_id, cobr.id_rec))!;
    const politica = rec.body.politicaRetentativa;
    const index = cobr.attempts.findIndex((a) => a.status === 'SOLICITADA' || a.status === 'AGENDADA');
    if (index < 0) {
      await cobrRepo.updateCobr(trx, cobr.id, { next_attempt_date: null });
      return;
    }
    const attempt = cobr.attempts[index]!;
    const at = now.toISOString();
    const update = (a: CobRAttempt, status: CobRAttempt['status'], extra: Partial<CobRAttempt> = {}): CobRAttempt[] =>
      cobr.attempts.map((x, i) =>
        i === index ? { ...a, ...extra, status, atualizacao: [...a.atualizacao, { status, data: at }] } : x,
      );

    if (cobr.value > SANDBOX_PAYER_LIMIT_CENTS) {
      const rejeicao = { codigo: 'AM02' as const, descricao: 'Valor acima do limite definido pelo pagador' };
      const saved = await cobrRepo.updateCobr(trx, cobr.id, {
        attempts: JSON.stringify(update(attempt, 'REJEITADA', { rejeicao })),
        next_attempt_date: null,
        updated_at: now,
      });
      if (politica === 'PERMITE_3R_7D') await recordCobrEvent(trx, saved, politica, now);
      else await changeCobrStatus(trx, saved, 'REJEITADA', politica, now, { rejeicao });
      return;
    }

    const tx = await insertTransaction(trx, {
      company_id: cobr.company_id,
      account_id: cobr.account_id,
      type: 'PIX_IN',
      value: cobr.value,
      end_to_end_id: attempt.endToEndId,
      charge_id: null,
      payment_id: null,
      created_at: now,
      details: {
        txid: cobr.txid,
        infoPagador: cobr.body.infoAdicional,
        payer: {
          name: rec.body.vinculo.devedor.nome,
          taxID: taxIdOf(rec.body.vinculo.devedor),
          ispb: rec.pagador?.ispbParticipante,
        },
        idRec: cobr.id_rec,
      },
    });
    const move = await applyMove(trx, {
      moveId: `cobr:${attempt.endToEndId}`,
      legs: [
        { accountId: cobr.account_id, kind: 'CREDIT', amount: cents(cobr.value) },
        counterLeg(OUTSIDE, -Number(cobr.value)),
      ],
      at: now,
      transactionId: tx.id,
      description: `Pix Automatico ${cobr.txid} of recurrence ${cobr.id_rec}`,
    });
    if (!move.ok) throw new Error(`crediting recurring charge ${cobr.txid} failed: ${move.code}`);
    const pix = [
      { endToEndId: attempt.endToEndId, txid: cobr.txid, valor: formatDecimalAmount(cents(cobr.value)), horario: at },
    ];
    const paid = await cobrRepo.updateCobr(trx, cobr.id, {
      attempts: JSON.stringify(update(attempt, 'PAGA')),
      pix: JSON.stringify(pix),
      updated_at: now,
    });
    await changeCobrStatus(trx, paid, 'CONCLUIDA', politica, now);
  }

  // ATIVA charges without a pending attempt past the retry window end EXPIRADA.
  private async expireStale(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const stale = await cobrRepo.claimStaleCobrs(trx, RETRY_WINDOW_DAYS, BATCH);
      for (const cobr of stale) {
        const now = await this.clock.now(cobr.company_id, trx);
        const rec = (await repo.findRecurrence(trx, cobr.company_id, cobr.id_rec))!;
        await changeCobrStatus(trx, cobr, 'EXPIRADA', rec.body.politicaRetentativa, now);
      }
      return stale.length;
    });
  }
}
