// Recurring charges (cobr) of approved recurrences: create (PUT with the txid, POST with a
// txid of ours), read, list, cancel before the first settlement attempt, and retry a failed
// attempt (PERMITE_3R_7D). The payer's PSP is simulated: a charge is scheduled at once
// (CRIADA, then ATIVA with an AGENDADA attempt); cobr-settlement.ts settles attempts on their date.
import { txidUsedByCharge } from '../charges/charges.public';
import { findCompanyAccount } from '../accounts/accounts.public';
import type { Kysely } from 'kysely';
import type { components, operations } from '../../generated/pix.types';
import type { CobRAttempt, CobRBody, Database, Recurrence, RecurringCharge } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import { parametros, pixListQuery } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { addCalendarDays, isValidDate, todayUtc } from '../lib/business-days';
import type { Clock } from '../db/clock';
import { newEndToEndId, newPublicId, newTxid } from '../lib/ids';
import { parseDecimalAmount } from '../lib/money';
import * as cobrRepo from './cobr.repository';
import { cycleOf, MAX_RETRIES, RETRY_WINDOW_DAYS, settlementDateOf } from './cobr.rules';
import { changeCobrStatus, companyOf, recordCobrEvent } from './rec-state';
import * as repo from './recurrences.repository';
import { SANDBOX_PAYER_ISPB } from './sandbox-rec.service';
import { cobrView, fullCobrView } from './recurrences.view';

type S = components['schemas'];
export type CobRSolicitada = S['CobRSolicitada'];
export type CobRListQuery = operations['listCobrs']['parameters']['query'];

const NOT_FOUND = (txid: string) => errors.notFound(`No recurring charge has txid ${txid}.`);

function invalid(
  issues: FieldIssue[],
  message = 'The recurring charge breaks the schema or is semantically wrong.',
): never {
  throw errors.validation(issues, message);
}

// The endToEndId of an attempt: the payer PSP's ISPB and the settlement date (noon UTC).
export function attemptEndToEndId(rec: Recurrence, date: string): string {
  const ispb = rec.pagador?.ispbParticipante ?? SANDBOX_PAYER_ISPB;
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
  const atualizacao: CobRAttempt['atualizacao'] =
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
  async create(principal: Principal, txid: string | undefined, input: CobRSolicitada): Promise<S['CobRGerada']> {
    return this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(principal.companyId, trx);
      const { cobr, rec } = await this.createWithin(trx, principal.companyId, txid, input, now);
      return cobrView(cobr, rec.body.politicaRetentativa);
    });
  }

  // The same in the caller's transaction (a subscription's installment makes its cobr so).
  // Refusals are thrown before anything is written.
  async createWithin(
    trx: Kysely<Database>,
    companyId: string,
    txid: string | undefined,
    input: CobRSolicitada,
    now: Date,
  ): Promise<{ cobr: RecurringCharge; rec: Recurrence }> {
    const rec = await repo.lockRecurrence(trx, companyId, input.idRec);
    if (!rec) {
      if (txid !== undefined) throw errors.notFound(`No recurrence has idRec ${input.idRec}.`, 'RecNaoEncontrada');
      invalid([{ field: 'cobr.idRec', message: 'No recurrence has this idRec', value: input.idRec }]);
    }
    const today = todayUtc(now);
    const { account, value } = await checkCobrRequest(trx, companyId, rec, txid, input, today);
    const due = input.calendario.dataDeVencimento;
    const cal = rec.body.calendario;
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
    const company = await companyOf(trx, companyId);
    const body = cobrBodyOf(input, today, account.branch, company);
    const active = await insertActiveCobr(trx, {
      companyId,
      accountId: account.id,
      rec,
      txid: txid ?? newTxid(),
      value,
      cycle,
      body,
      now,
    });
    await recordCobrEvent(trx, active, rec.body.politicaRetentativa, now);
    return { cobr: active, rec };
  }

  // The cobr (404 if none) with its recurrence.
  private async findWithRec(db: Kysely<Database>, principal: Principal, txid: string) {
    return this.withRec(db, await cobrRepo.findCobr(db, principal.companyId, txid), txid);
  }

  // The same, the cobr locked FOR UPDATE.
  private async lockWithRec(db: Kysely<Database>, principal: Principal, txid: string) {
    return this.withRec(db, await cobrRepo.lockCobr(db, principal.companyId, txid), txid);
  }

  private async withRec(
    db: Kysely<Database>,
    cobr: RecurringCharge | undefined,
    txid: string,
  ): Promise<{ cobr: RecurringCharge; rec: Recurrence }> {
    if (!cobr) throw NOT_FOUND(txid);
    const rec = (await repo.findRecurrence(db, cobr.company_id, cobr.id_rec))!;
    return { cobr, rec };
  }

  async get(principal: Principal, txid: string): Promise<S['CobRCompleta']> {
    const { cobr, rec } = await this.findWithRec(this.db, principal, txid);
    return fullCobrView(cobr, rec.body.politicaRetentativa);
  }

  async list(principal: Principal, query: CobRListQuery): Promise<S['CobsRConsultadas']> {
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
      parametros: { inicio: query.inicio, fim: query.fim, ...parametros(query, page, total, extra) },
      cobsr: rows.map(({ politica, ...cobr }) => fullCobrView(cobr, politica)),
    };
  }

  // PATCH: only cancellation, before the date of the first settlement attempt.
  async cancel(principal: Principal, txid: string, status: S['CobRRevisada']['status']): Promise<S['CobRGerada']> {
    return this.db.transaction().execute(async (trx) => {
      const { cobr, rec } = await this.lockWithRec(trx, principal, txid);
      if (status !== 'CANCELADA')
        invalid([{ field: 'cobr.status', message: 'Only status CANCELADA can be set', value: String(status ?? '') }]);
      if (cobr.status !== 'CRIADA' && cobr.status !== 'ATIVA') {
        invalid([{ field: 'cobr.status', message: `The recurring charge is ${cobr.status}`, value: 'CANCELADA' }]);
      }
      const now = await this.clock.now(principal.companyId, trx);
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
      return cobrView(cancelled, rec.body.politicaRetentativa);
    });
  }

  // POST /cobr/{txid}/retentativa/{data}: a new attempt (RIFL) after a failed one.
  async retry(principal: Principal, txid: string, data: string): Promise<S['CobRCompleta']> {
    return this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(principal.companyId, trx);
      const { cobr, politica } = await this.retryWithin(trx, principal.companyId, txid, data, now);
      return fullCobrView(cobr, politica);
    });
  }

  // The same in the caller's transaction (a subscription's installment retries so).
  async retryWithin(trx: Kysely<Database>, companyId: string, txid: string, data: string, now: Date) {
    const { cobr, rec } = await this.withRec(trx, await cobrRepo.lockCobr(trx, companyId, txid), txid);
    const today = todayUtc(now);
    const politica = rec.body.politicaRetentativa;
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
    return { cobr: saved, politica };
  }
}

// What a new cobr must satisfy beyond its schema (refused together, as the standard's
// violations list): a free txid, an APROVADA recurrence, a due date in its period, the
// recurrence's fixed amount, an account of the receiving user.
async function checkCobrRequest(
  trx: Kysely<Database>,
  companyId: string,
  rec: Recurrence,
  txid: string | undefined,
  input: CobRSolicitada,
  today: string,
): Promise<{ account: { id: string; branch: string }; value: number }> {
  const issues: FieldIssue[] = [];
  const taken =
    txid !== undefined &&
    ((await cobrRepo.findCobr(trx, companyId, txid)) || (await txidUsedByCharge(trx, companyId, txid)));
  if (taken) issues.push({ field: 'cobr.txid', message: 'The txid is already in use', value: txid });
  if (rec.status !== 'APROVADA')
    issues.push({
      field: 'cobr.idRec',
      message: `The recurrence is ${rec.status}; charges need an APROVADA recurrence`,
      value: rec.id_rec,
    });
  checkCobrDueDate(rec, input.calendario.dataDeVencimento, today, issues);
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
  const account = await findCompanyAccount(trx, companyId, input.recebedor.conta, input.recebedor.agencia);
  if (!account)
    issues.push({
      field: 'cobr.recebedor.conta',
      message: 'conta and agencia are not an account of the receiving user',
      value: input.recebedor.conta,
    });
  if (issues.length || !account || !value.ok) invalid(issues);
  return { account, value: value.value };
}

function checkCobrDueDate(rec: Recurrence, due: string, today: string, issues: FieldIssue[]): void {
  const cal = rec.body.calendario;
  const field = 'cobr.calendario.dataDeVencimento';
  if (!isValidDate(due)) issues.push({ field, message: 'calendario.dataDeVencimento is not a date', value: due });
  else if (due < today)
    issues.push({ field, message: 'calendario.dataDeVencimento cannot be before the creation date', value: due });
  else if (due < cal.dataInicial || (cal.dataFinal !== undefined && due > cal.dataFinal))
    issues.push({ field, message: 'calendario.dataDeVencimento is outside the period of the recurrence', value: due });
}

// The stored cobr body: the request's fields, the creation date, and the receiver named by the
// company (its agency from the account when the request leaves it out).
function cobrBodyOf(
  input: CobRSolicitada,
  today: string,
  branch: string,
  company: { tax_id: string; official_name: string },
): CobRBody {
  return {
    ...(input.infoAdicional !== undefined ? { infoAdicional: input.infoAdicional } : {}),
    calendario: { criacao: today, dataDeVencimento: input.calendario.dataDeVencimento },
    valor: { original: input.valor.original },
    ajusteDiaUtil: input.ajusteDiaUtil ?? true,
    ...(input.devedor !== undefined ? { devedor: input.devedor } : {}),
    recebedor: {
      agencia: input.recebedor.agencia ?? branch,
      conta: input.recebedor.conta,
      tipoConta: input.recebedor.tipoConta,
      cnpj: company.tax_id,
      nome: company.official_name,
    },
  };
}

// Inserts the cobr CRIADA and, as the payer's PSP accepts and schedules its settlement at once
// (simulated), makes it ATIVA with its first attempt AGENDADA.
async function insertActiveCobr(
  trx: Kysely<Database>,
  c: {
    companyId: string;
    accountId: string;
    rec: Recurrence;
    txid: string;
    value: number;
    cycle: number;
    body: CobRBody;
    now: Date;
  },
): Promise<RecurringCharge> {
  const at = c.now.toISOString();
  const due = c.body.calendario.dataDeVencimento;
  const settlement = settlementDateOf(due, c.body.ajusteDiaUtil);
  const created = await cobrRepo.insertCobr(trx, {
    id: newPublicId('cobr'),
    company_id: c.companyId,
    account_id: c.accountId,
    id_rec: c.rec.id_rec,
    txid: c.txid,
    status: 'CRIADA',
    value: c.value,
    cycle: c.cycle,
    due_date: due,
    settlement_date: settlement,
    next_attempt_date: null,
    body: JSON.stringify(c.body),
    history: JSON.stringify([{ status: 'CRIADA', data: at }]),
    attempts: JSON.stringify([]),
    created_at: c.now,
    updated_at: c.now,
  });
  return cobrRepo.updateCobr(trx, created.id, {
    status: 'ATIVA',
    history: JSON.stringify([...created.history, { status: 'ATIVA', data: at }]),
    attempts: JSON.stringify([newAttempt(c.rec, settlement, 'AGND', 'AGENDADA', c.now)]),
    next_attempt_date: settlement,
  });
}
