// Recurring charges (cobr) of approved recurrences: create (PUT with the txid, POST with a
// txid of ours), read, list, cancel before the first settlement attempt, and retry a failed
// attempt (PERMITE_3R_7D). The payer's PSP is simulated: a charge is scheduled at once
// (CRIADA, then ATIVA with an AGENDADA attempt); cobr-settlement.ts settles attempts on their date.
import type { Kysely } from 'kysely';
import type { CobRAttempt, Database, Recurrence, RecurringCharge } from '../db/schema';
import { errors, type FieldIssue } from '../http/errors';
import { parametros, pixListQuery, type PixListQuery } from '../http/paging';
import type { Principal } from '../http/principal';
import { addCalendarDays, isValidDate, todayUtc } from '../lib/business-days';
import type { Clock } from '../lib/clock';
import { newEndToEndId, newPublicId, newTxid } from '../lib/ids';
import { parseDecimalAmount } from '../lib/money';
import * as cobrRepo from './cobr.repository';
import { cycleOf, MAX_RETRIES, RETRY_WINDOW_DAYS, settlementDateOf } from './cobr-rules';
import { changeCobrStatus, companyOf, recordCobrEvent } from './rec-state';
import * as repo from './recurrences.repository';
import { SANDBOX_PAYER_ISPB } from './sandbox-rec.service';
import { cobrView } from './views';

export interface CobRInput {
  idRec: string;
  infoAdicional?: string;
  calendario: { dataDeVencimento: string };
  valor: { original: string };
  ajusteDiaUtil?: boolean;
  recebedor: { conta: string; tipoConta: string; agencia?: string };
  devedor?: Record<string, unknown>;
}

export interface CobRListQuery extends PixListQuery {
  idRec?: string;
  status?: string;
  convenio?: string;
}

const NOT_FOUND = (txid: string) => errors.notFound(`No recurring charge has txid ${txid}.`);

function invalid(
  issues: FieldIssue[],
  message = 'The recurring charge breaks the schema or is semantically wrong.',
): never {
  throw errors.validation(issues, message);
}

// The endToEndId of an attempt: the payer PSP's ISPB and the settlement date (noon UTC).
export function attemptEndToEndId(rec: Recurrence, date: string): string {
  const ispb = (rec.pagador?.ispbParticipante as string | undefined) ?? SANDBOX_PAYER_ISPB;
  return newEndToEndId(ispb, new Date(`${date}T12:00:00Z`));
}

export function newAttempt(
  rec: Recurrence,
  date: string,
  tipo: CobRAttempt['tipo'],
  status: 'SOLICITADA' | 'AGENDADA',
  at: Date,
): CobRAttempt {
  const data = at.toISOString();
  const atualizacao =
    status === 'AGENDADA'
      ? [
          { status: 'SOLICITADA', data },
          { status: 'AGENDADA', data },
        ]
      : [{ status: 'SOLICITADA', data }];
  return { dataLiquidacao: date, tipo, endToEndId: attemptEndToEndId(rec, date), status, atualizacao };
}

export class CobRService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  // PUT /cobr/{txid} (txid given; an unknown idRec answers 404) or POST /cobr (txid ours).
  async create(principal: Principal, txid: string | undefined, input: CobRInput) {
    return this.db.transaction().execute(async (trx) => {
      const rec = await repo.findRecurrence(trx, principal.companyId, input.idRec, true);
      if (!rec) {
        if (txid !== undefined) throw errors.notFound(`No recurrence has idRec ${input.idRec}.`, 'RecNaoEncontrada');
        invalid([{ field: 'cobr.idRec', message: 'No recurrence has this idRec', value: input.idRec }]);
      }
      const now = await this.clock.now(trx);
      const today = todayUtc(now);
      const issues: FieldIssue[] = [];
      const chosenTxid = txid ?? newTxid();
      if (
        txid !== undefined &&
        ((await cobrRepo.findCobr(trx, principal.companyId, txid)) ||
          (await cobrRepo.txidUsedByCharge(trx, principal.companyId, txid)))
      ) {
        issues.push({ field: 'cobr.txid', message: 'The txid is already in use', value: txid });
      }
      if (rec.status !== 'APROVADA')
        issues.push({
          field: 'cobr.idRec',
          message: `The recurrence is ${rec.status}; charges need an APROVADA recurrence`,
          value: rec.id_rec,
        });
      const due = input.calendario.dataDeVencimento;
      const cal = rec.body.calendario as { dataInicial: string; dataFinal?: string; periodicidade: string };
      if (!isValidDate(due))
        issues.push({
          field: 'cobr.calendario.dataDeVencimento',
          message: 'calendario.dataDeVencimento is not a date',
          value: due,
        });
      else if (due < today)
        issues.push({
          field: 'cobr.calendario.dataDeVencimento',
          message: 'calendario.dataDeVencimento cannot be before the creation date',
          value: due,
        });
      else if (due < cal.dataInicial || (cal.dataFinal !== undefined && due > cal.dataFinal)) {
        issues.push({
          field: 'cobr.calendario.dataDeVencimento',
          message: 'calendario.dataDeVencimento is outside the period of the recurrence',
          value: due,
        });
      }
      const value = parseDecimalAmount(input.valor.original);
      if (!value.ok || value.value <= 0)
        issues.push({
          field: 'cobr.valor.original',
          message: 'valor.original must be greater than zero',
          value: input.valor.original,
        });
      else if (rec.body.valor?.valorRec !== undefined && rec.body.valor.valorRec !== input.valor.original) {
        issues.push({
          field: 'cobr.valor.original',
          message: `valor.original must be the fixed amount of the recurrence (${rec.body.valor.valorRec})`,
          value: input.valor.original,
        });
      }
      const account = await cobrRepo.findCompanyAccount(
        trx,
        principal.companyId,
        input.recebedor.conta,
        input.recebedor.agencia,
      );
      if (!account)
        issues.push({
          field: 'cobr.recebedor.conta',
          message: 'conta and agencia are not an account of the receiving user',
          value: input.recebedor.conta,
        });
      if (issues.length) invalid(issues);
      const cycle = cycleOf(cal.periodicidade, cal.dataInicial, due);
      if ((await cobrRepo.liveCobrsInCycle(trx, rec.id_rec, cycle)).length) {
        invalid([
          {
            field: 'cobr.idRec',
            message: 'A recurring charge of this recurrence already exists for the same cycle',
            value: rec.id_rec,
          },
        ]);
      }
      const company = await companyOf(trx, principal.companyId);
      const ajusteDiaUtil = input.ajusteDiaUtil ?? true;
      const settlement = settlementDateOf(due, ajusteDiaUtil);
      const body = {
        ...(input.infoAdicional !== undefined ? { infoAdicional: input.infoAdicional } : {}),
        calendario: { criacao: today, dataDeVencimento: due },
        valor: { original: input.valor.original },
        ajusteDiaUtil,
        ...(input.devedor !== undefined ? { devedor: input.devedor } : {}),
        recebedor: {
          ...(input.recebedor.agencia !== undefined
            ? { agencia: input.recebedor.agencia }
            : { agencia: account!.branch }),
          conta: input.recebedor.conta,
          tipoConta: input.recebedor.tipoConta,
          cnpj: company.tax_id,
          nome: company.official_name,
        },
      };
      const at = now.toISOString();
      const created = await cobrRepo.insertCobr(trx, {
        id: newPublicId('cobr'),
        company_id: principal.companyId,
        account_id: account!.id,
        id_rec: rec.id_rec,
        txid: chosenTxid,
        status: 'CRIADA',
        value: value.ok ? value.value : 0,
        cycle,
        due_date: due,
        settlement_date: settlement,
        next_attempt_date: null,
        body: JSON.stringify(body),
        history: JSON.stringify([{ status: 'CRIADA', data: at }]),
        attempts: JSON.stringify([]),
        created_at: now,
        updated_at: now,
      });
      // The payer's PSP accepts and schedules the settlement at once (simulated).
      const active = await cobrRepo.updateCobr(trx, created.id, {
        status: 'ATIVA',
        history: JSON.stringify([...created.history, { status: 'ATIVA', data: at }]),
        attempts: JSON.stringify([newAttempt(rec, settlement, 'AGND', 'AGENDADA', now)]),
        next_attempt_date: settlement,
      });
      await recordCobrEvent(trx, active, rec.body.politicaRetentativa, now);
      return cobrView(active, rec.body.politicaRetentativa, false);
    });
  }

  private async withRec(
    db: Kysely<Database>,
    principal: Principal,
    txid: string,
    forUpdate = false,
  ): Promise<{ cobr: RecurringCharge; rec: Recurrence }> {
    const cobr = await cobrRepo.findCobr(db, principal.companyId, txid, forUpdate);
    if (!cobr) throw NOT_FOUND(txid);
    const rec = (await repo.findRecurrence(db, principal.companyId, cobr.id_rec))!;
    return { cobr, rec };
  }

  async get(principal: Principal, txid: string) {
    const { cobr, rec } = await this.withRec(this.db, principal, txid);
    return cobrView(cobr, rec.body.politicaRetentativa, true);
  }

  async list(principal: Principal, query: CobRListQuery) {
    const page = pixListQuery(query);
    const { rows, total } = await cobrRepo.listCobrs(
      this.db,
      {
        companyId: principal.companyId,
        ...(page.inicio ? { from: page.inicio } : {}),
        ...(page.fim ? { to: page.fim } : {}),
        ...(query.idRec ? { idRec: query.idRec } : {}),
        ...(query.cpf || query.cnpj ? { debtorTaxId: (query.cpf ?? query.cnpj)! } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.convenio !== undefined ? { convenio: query.convenio } : {}),
      },
      page.offset,
      page.itensPorPagina,
    );
    const extra = {
      ...(query.idRec ? { idRec: query.idRec } : {}),
      ...(query.cpf ? { cpf: query.cpf } : {}),
      ...(query.cnpj ? { cnpj: query.cnpj } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.convenio !== undefined ? { recebedor: { convenio: query.convenio } } : {}),
    };
    return {
      parametros: parametros(query, page, total, extra),
      cobsr: rows.map(({ rec_body, ...cobr }) =>
        cobrView(cobr as RecurringCharge, (rec_body as Record<string, any>).politicaRetentativa, true),
      ),
    };
  }

  // PATCH: only cancellation, before the date of the first settlement attempt.
  async cancel(principal: Principal, txid: string, status: string | undefined) {
    return this.db.transaction().execute(async (trx) => {
      const { cobr, rec } = await this.withRec(trx, principal, txid, true);
      if (status !== 'CANCELADA')
        invalid([{ field: 'cobr.status', message: 'Only status CANCELADA can be set', value: String(status ?? '') }]);
      if (cobr.status !== 'CRIADA' && cobr.status !== 'ATIVA') {
        invalid([{ field: 'cobr.status', message: `The recurring charge is ${cobr.status}`, value: 'CANCELADA' }]);
      }
      const now = await this.clock.now(trx);
      if (todayUtc(now) >= cobr.settlement_date) {
        invalid(
          [
            {
              field: 'cobr.status',
              message: `The first settlement attempt is on ${cobr.settlement_date}`,
              value: 'CANCELADA',
            },
          ],
          'A recurring charge cannot be cancelled on or after the date of its first settlement attempt.',
        );
      }
      const cancelled = await changeCobrStatus(trx, cobr, 'CANCELADA', rec.body.politicaRetentativa, now, {
        cancelamento: {
          solicitante: 'USUARIO_RECEBEDOR',
          codigo: 'SLCR',
          descricao: 'Cancelada pelo usuario recebedor',
        },
      });
      return cobrView(cancelled, rec.body.politicaRetentativa, false);
    });
  }

  // POST /cobr/{txid}/retentativa/{data}: a new attempt (RIFL) after a failed one.
  async retry(principal: Principal, txid: string, data: string) {
    return this.db.transaction().execute(async (trx) => {
      const { cobr, rec } = await this.withRec(trx, principal, txid, true);
      const now = await this.clock.now(trx);
      const today = todayUtc(now);
      const politica = rec.body.politicaRetentativa as string;
      if (!isValidDate(data) || data <= today)
        invalid([{ field: 'data', message: 'data must be a future date', value: data }]);
      if (politica !== 'PERMITE_3R_7D') {
        invalid(
          [{ field: 'politicaRetentativa', message: `The recurrence policy is ${politica}`, value: politica }],
          'The retry policy of the recurrence does not allow retries.',
        );
      }
      if (cobr.status !== 'ATIVA')
        invalid([{ field: 'cobr.status', message: `The recurring charge is ${cobr.status}`, value: cobr.status }]);
      const pending = cobr.attempts.find((a) => a.status === 'SOLICITADA' || a.status === 'AGENDADA');
      if (pending)
        invalid([{ field: 'data', message: `An attempt is pending for ${pending.dataLiquidacao}`, value: data }]);
      const retries = cobr.attempts.filter((a) => a.tipo === 'RIFL').length;
      if (retries >= MAX_RETRIES)
        invalid([{ field: 'data', message: `The recurring charge had ${MAX_RETRIES} retries already`, value: data }]);
      const last = addCalendarDays(cobr.settlement_date, RETRY_WINDOW_DAYS);
      if (data > last) invalid([{ field: 'data', message: `Retries end on ${last}`, value: data }]);
      const saved = await cobrRepo.updateCobr(trx, cobr.id, {
        attempts: JSON.stringify([...cobr.attempts, newAttempt(rec, data, 'RIFL', 'SOLICITADA', now)]),
        next_attempt_date: data,
        updated_at: now,
      });
      await recordCobrEvent(trx, saved, politica, now);
      return cobrView(saved, politica, true);
    });
  }
}
