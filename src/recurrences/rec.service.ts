// Recurrences (rec): create, read (with the composite QR code of a journey), list and
// revise. A recurrence starts CRIADA with its journey AGUARDANDO_DEFINICAO, or JORNADA_3 when
// it names the immediate charge of journey 3 (ativacao.dadosJornada.txid), as the standard's
// example of a new recurrence shows; the payer's side (approval by one of the four journeys,
// rejection) is simulated by the sandbox (sandbox-rec.service.ts), which sets the journey the
// payer used and drops dadosJornada when that is journey 1, 2 or 4.
import type { Kysely } from 'kysely';
import type { components, operations } from '../../generated/pix.types';
import { locationUrlOf, MERCHANT_CITY, merchantNameOf, findChargeInContextByTxid } from '../charges/charges.public';
import type { Company, Database, RecBody, RecEnd, RecJourney, RecLocation, RecStatus, Recurrence } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import { parametros, pixListQuery } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { buildCompositeBrCode } from '../lib/brcode';
import { isValidDate, todayUtc } from '../lib/business-days';
import type { Clock } from '../db/clock';
import { newAccessToken, newIdRec } from '../lib/ids';
import { parseDecimalAmount } from '../lib/money';
import { OWN_ISPB } from '../lib/psp';
import { isValidCnpj, isValidCpf } from '../lib/taxid';
import * as repo from './recurrences.repository';
import { changeRecStatus, companyOf } from './rec-state';
import { ENDED_REC, taxIdOf } from './rec.rules';
import { type DadosQR, fullRecView, listedRecView, recLocationUrl, recView } from './recurrences.view';

type S = components['schemas'];
export type RecSolicitada = S['RecSolicitada'];
export type RecRevisada = S['RecRevisada'];
export type RecListQuery = operations['listRecs']['parameters']['query'];

export interface RecSummary {
  status: RecStatus;
  emv?: string;
}

const NOT_FOUND = (idRec: string) => errors.notFound(`No recurrence has idRec ${idRec}.`);
const CANCELLED_BY_RECEIVER: RecEnd = {
  cancelamento: {
    solicitante: 'USUARIO_RECEBEDOR',
    codigo: 'SLCR',
    descricao: 'Cancelada pelo usuario recebedor',
  },
};
const CONVENIO = /^[A-Za-z0-9 ._/-]{1,60}$/;

function invalid(issues: FieldIssue[]): never {
  throw errors.validation(issues, 'The recurrence breaks the schema or is semantically wrong.');
}

export class RecService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async create(principal: Principal, input: RecSolicitada): Promise<S['RecGerada']> {
    return this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(principal.companyId, trx);
      const { rec, loc } = await this.insert(trx, principal.companyId, input, now);
      return recView(rec, loc, this.publicUrl);
    });
  }

  // The recurrence of a PIX_RECURRING subscription, in the subscription's transaction: a new
  // payload location (the payer approves by its QR code) and the recurrence on it, by the same
  // rules as POST /rec. Answers it with what the subscription shows of it.
  async createWithLocation(
    trx: Kysely<Database>,
    companyId: string,
    input: Omit<RecSolicitada, 'loc'>,
    now: Date,
  ): Promise<{ rec: Recurrence; summary: RecSummary }> {
    const fresh = await repo.insertRecLocation(trx, {
      company_id: companyId,
      token: newAccessToken(),
      created_at: now,
    });
    const { rec, loc, company } = await this.insert(trx, companyId, { ...input, loc: Number(fresh.id) }, now, fresh);
    return { rec, summary: this.summaryOf(rec.status, loc?.token ?? null, company) };
  }

  // `fresh`: the location of input.loc when the caller has just made it (nothing to check).
  private async insert(
    trx: Kysely<Database>,
    companyId: string,
    input: RecSolicitada,
    now: Date,
    fresh?: RecLocation,
  ): Promise<{ rec: Recurrence; loc: RecLocation | undefined; company: Pick<Company, 'name' | 'trade_name'> }> {
    const issues = checkRecRequest(input, todayUtc(now));
    const convenio = input.recebedor?.convenio;
    let loc: RecLocation | undefined = fresh;
    if (input.loc !== undefined && !fresh) {
      loc = await repo.lockRecLocation(trx, companyId, input.loc);
      if (!loc) issues.push({ field: 'rec.loc', message: 'The location does not exist', value: String(input.loc) });
      else if (loc.id_rec)
        issues.push({
          field: 'rec.loc',
          message: 'The location is used by another recurrence',
          value: String(input.loc),
        });
    }
    if (issues.length) invalid(issues);

    const company = await companyOf(trx, companyId);
    const idRec = newIdRec(OWN_ISPB, now, input.politicaRetentativa === 'PERMITE_3R_7D');
    const txid = input.ativacao?.dadosJornada?.txid;
    const body = recBodyOf(input, company, txid);
    const rec = await repo.insertRecurrence(trx, {
      id_rec: idRec,
      company_id: companyId,
      status: 'CRIADA',
      // The payer decides the journey by the way it approves (sandbox-rec.service.ts); a
      // recurrence that names its immediate charge is on journey 3 until then.
      journey: journeyBeforeApproval(txid),
      location_id: loc ? Number(loc.id) : null,
      convenio: convenio ?? null,
      debtor_tax_id: taxIdOf(input.vinculo.devedor),
      body: JSON.stringify(body),
      history: JSON.stringify([{ status: 'CRIADA', data: now.toISOString() }]),
      created_at: now,
      updated_at: now,
    });
    if (loc) await repo.setRecLocationRec(trx, Number(loc.id), idRec);
    return { rec, loc: loc ? { ...loc, id_rec: idRec } : undefined, company };
  }

  private summaryOf(
    status: RecStatus,
    locToken: string | null,
    company: Pick<Company, 'name' | 'trade_name'>,
  ): RecSummary {
    if (locToken === null) return { status };
    const emv = buildCompositeBrCode({
      recurrenceLocationUrl: recLocationUrl(this.publicUrl, locToken),
      merchantName: merchantNameOf(company),
      merchantCity: MERCHANT_CITY,
    });
    return { status, emv };
  }

  // What a subscription shows of its recurrences (one statement, on `db`: the caller's
  // transaction or not): the status and, while the recurrence has its location, the QR code
  // the payer approves it with (journey 2).
  async summaries(db: Kysely<Database>, companyId: string, idRecs: string[]): Promise<Map<string, RecSummary>> {
    const rows = await repo.recurrencesWithLocationTokens(db, companyId, idRecs);
    return new Map(
      rows.map((r) => [
        r.id_rec,
        this.summaryOf(r.status, r.loc_token, { name: r.co_name, trade_name: r.co_trade_name }),
      ]),
    );
  }

  // A subscription's cancellation cancels its recurrence (as PATCH status CANCELADA does), in
  // the subscription's transaction; an ended recurrence stays as it is.
  async cancelOfSubscription(trx: Kysely<Database>, companyId: string, idRec: string, now: Date): Promise<void> {
    const rec = await repo.lockRecurrence(trx, companyId, idRec);
    if (!rec || ENDED_REC.includes(rec.status)) return;
    await changeRecStatus(trx, rec, 'CANCELADA', now, { encerramento: CANCELLED_BY_RECEIVER });
  }

  async get(principal: Principal, idRec: string, txid?: string): Promise<S['RecCompleta']> {
    const found = await repo.findRecurrenceInContext(this.db, principal.companyId, idRec);
    if (!found) throw NOT_FOUND(idRec);
    const { rec, loc } = found;
    const dadosQR = await this.dadosQROf(found, txid);
    return fullRecView(rec, loc, this.publicUrl, await repo.requestsOfRecurrence(this.db, rec.id_rec), dadosQR);
  }

  // The composite QR code of the journey the query asks (see the spec of getRec): without a
  // txid the recurrence's own (journey 2); with the txid of a cob (journey 3, the cob of
  // ativacao.dadosJornada) or of a cobv (journey 4), that charge's location in field 26.
  // Left out when a location it needs is missing.
  private async dadosQROf(
    { rec, loc, company }: repo.RecurrenceInContext,
    txid: string | undefined,
  ): Promise<DadosQR | undefined> {
    const composite = (chargeLocationUrl?: string) =>
      buildCompositeBrCode({
        recurrenceLocationUrl: recLocationUrl(this.publicUrl, loc!.token),
        ...(chargeLocationUrl !== undefined ? { chargeLocationUrl } : {}),
        merchantName: merchantNameOf(company),
        merchantCity: MERCHANT_CITY,
      });
    if (txid === undefined) return loc ? { jornada: 'JORNADA_2', pixCopiaECola: composite() } : undefined;
    const found = await findChargeInContextByTxid(this.db, rec.company_id, txid);
    const kind = found?.charge.kind;
    const issue = (message: string) =>
      errors.validation([{ field: 'txid', message, value: txid }], 'The txid does not fit an activation journey.');
    if (!found) throw issue('No immediate or due-date charge has this txid');
    if (kind === 'cob' && txid !== rec.body.ativacao?.dadosJornada?.txid)
      throw issue('The immediate charge is not ativacao.dadosJornada.txid of the recurrence');
    if ((kind === 'cob' && rec.journey === 'JORNADA_4') || (kind === 'cobv' && rec.journey === 'JORNADA_3'))
      throw issue(`A ${kind} does not fit the recurrence's journey (${rec.journey})`);
    if (!loc || !found.location) return undefined;
    return {
      jornada: kind === 'cob' ? 'JORNADA_3' : 'JORNADA_4',
      pixCopiaECola: composite(locationUrlOf(this.publicUrl, found.location)),
    };
  }

  async list(principal: Principal, query: RecListQuery): Promise<S['RecsConsultadas']> {
    const page = pixListQuery(query);
    const { rows, total } = await repo.listRecurrences(
      this.db,
      {
        companyId: principal.companyId,
        ...(page.inicio ? { from: page.inicio } : {}),
        ...(page.fim ? { to: page.fim } : {}),
        ...(query.cpf || query.cnpj ? { debtorTaxId: (query.cpf ?? query.cnpj)! } : {}),
        ...(query.locationPresente !== undefined ? { locationPresent: query.locationPresente } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.convenio !== undefined ? { convenio: query.convenio } : {}),
      },
      page.offset,
      page.itensPorPagina,
    );
    const locs = await repo.recLocationsById(
      this.db,
      rows.flatMap((r) => (r.location_id !== null ? [Number(r.location_id)] : [])),
    );
    const requests = await repo.requestsOfRecurrences(
      this.db,
      rows.map((r) => r.id_rec),
    );
    const extra = {
      ...(query.cpf ? { cpf: query.cpf } : {}),
      ...(query.cnpj ? { cnpj: query.cnpj } : {}),
      ...(query.locationPresente !== undefined ? { locationPresente: query.locationPresente } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.convenio !== undefined ? { recebedor: { convenio: query.convenio } } : {}),
    };
    return {
      parametros: { inicio: query.inicio, fim: query.fim, ...parametros(query, page, total, extra) },
      recs: rows.map((r) =>
        listedRecView(
          r,
          r.location_id !== null ? locs.get(Number(r.location_id)) : undefined,
          this.publicUrl,
          requests.get(r.id_rec) ?? [],
        ),
      ),
    };
  }

  async revise(principal: Principal, idRec: string, input: RecRevisada): Promise<S['RecGerada']> {
    return this.db.transaction().execute(async (trx) => {
      const rec = await repo.lockRecurrence(trx, principal.companyId, idRec);
      if (!rec) throw NOT_FOUND(idRec);
      const now = await this.clock.now(principal.companyId, trx);
      if (ENDED_REC.includes(rec.status)) {
        invalid([
          { field: 'rec.status', message: `The recurrence is ${rec.status} and cannot be changed`, value: rec.status },
        ]);
      }
      if (input.status === 'CANCELADA') return this.cancel(trx, principal.companyId, rec, input, now);

      const body = structuredClone(rec.body);
      let locationId = rec.location_id === null ? null : Number(rec.location_id);
      const newLoc = await checkRecRevision(trx, principal.companyId, rec, input, body, now);
      if (input.vinculo?.devedor?.nome !== undefined) body.vinculo.devedor.nome = input.vinculo.devedor.nome;
      // The journey data names the charge of journey 3; once approved, the journey is the one
      // the payer used, so only a recurrence not yet approved moves to journey 3 with it.
      const txid = input.ativacao?.dadosJornada?.txid;
      if (txid !== undefined) body.ativacao = { dadosJornada: { txid } };
      const journey = txid !== undefined && rec.status === 'CRIADA' ? journeyBeforeApproval(txid) : rec.journey;
      if (newLoc) {
        if (locationId !== null) await repo.setRecLocationRec(trx, locationId, null);
        await repo.setRecLocationRec(trx, Number(newLoc.id), rec.id_rec);
        locationId = Number(newLoc.id);
      }
      const saved = await repo.updateRecurrence(trx, rec.id_rec, {
        body: JSON.stringify(body),
        journey,
        location_id: locationId,
        updated_at: now,
      });
      const loc = locationId !== null ? await repo.findRecLocation(trx, principal.companyId, locationId) : undefined;
      return recView(saved, loc, this.publicUrl);
    });
  }

  // PATCH with status CANCELADA: alone, by the receiving user.
  private async cancel(
    trx: Kysely<Database>,
    companyId: string,
    rec: Recurrence,
    input: RecRevisada,
    now: Date,
  ): Promise<S['RecGerada']> {
    if ([input.vinculo, input.loc, input.calendario, input.ativacao].some((change) => change !== undefined))
      invalid([
        { field: 'rec.status', message: 'status CANCELADA cannot be combined with other changes', value: 'CANCELADA' },
      ]);
    const cancelled = await changeRecStatus(trx, rec, 'CANCELADA', now, { encerramento: CANCELLED_BY_RECEIVER });
    const loc =
      cancelled.location_id !== null
        ? await repo.findRecLocation(trx, companyId, Number(cancelled.location_id))
        : undefined;
    return recView(cancelled, loc, this.publicUrl);
  }
}

type Devedor = RecSolicitada['vinculo']['devedor'];

// The journey of a recurrence the payer has not approved: JORNADA_3 when it names the immediate
// charge of journey 3 (the standard's example of a recurrence CRIADA with dadosJornada.txid),
// else AGUARDANDO_DEFINICAO.
function journeyBeforeApproval(txid: string | undefined): RecJourney {
  return txid ? 'JORNADA_3' : 'AGUARDANDO_DEFINICAO';
}

function devedorOf(p: Devedor): Devedor {
  return 'cpf' in p ? { cpf: p.cpf, nome: p.nome } : { cnpj: p.cnpj, nome: p.nome };
}

export type { RecStatus, Recurrence };

// What a new recurrence must satisfy beyond its schema (refused together): a valid debtor,
// dates from today in order, one kind of amount above zero, an accepted convenio.
function checkRecRequest(input: RecSolicitada, today: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const devedor = input.vinculo.devedor;
  if ('cpf' in devedor && !isValidCpf(devedor.cpf))
    issues.push({ field: 'rec.vinculo.devedor.cpf', message: 'cpf is not a valid CPF', value: devedor.cpf });
  if ('cnpj' in devedor && !isValidCnpj(devedor.cnpj))
    issues.push({ field: 'rec.vinculo.devedor.cnpj', message: 'cnpj is not a valid CNPJ', value: devedor.cnpj });
  const { dataInicial, dataFinal } = input.calendario;
  if (!isValidDate(dataInicial))
    issues.push({
      field: 'rec.calendario.dataInicial',
      message: 'calendario.dataInicial is not a date',
      value: dataInicial,
    });
  else if (dataInicial < today)
    issues.push({
      field: 'rec.calendario.dataInicial',
      message: 'calendario.dataInicial cannot be before the creation date',
      value: dataInicial,
    });
  if (dataFinal !== undefined) {
    if (!isValidDate(dataFinal))
      issues.push({
        field: 'rec.calendario.dataFinal',
        message: 'calendario.dataFinal is not a date',
        value: dataFinal,
      });
    else if (dataFinal < dataInicial)
      issues.push({
        field: 'rec.calendario.dataFinal',
        message: 'calendario.dataFinal cannot be before calendario.dataInicial',
        value: dataFinal,
      });
  }
  const valor = input.valor ?? {};
  if (valor.valorRec !== undefined && valor.valorMinimoRecebedor !== undefined) {
    issues.push({
      field: 'rec.valor',
      message: 'valorRec and valorMinimoRecebedor cannot be used together',
      value: valor.valorRec,
    });
  }
  for (const key of ['valorRec', 'valorMinimoRecebedor'] as const) {
    const v = valor[key];
    if (v === undefined) continue;
    const parsed = parseDecimalAmount(v);
    if (!parsed.ok || parsed.value <= 0)
      issues.push({ field: `rec.valor.${key}`, message: `valor.${key} must be greater than zero`, value: v });
  }
  const convenio = input.recebedor?.convenio;
  if (convenio !== undefined && !CONVENIO.test(convenio)) {
    issues.push({
      field: 'rec.recebedor.convenio',
      message: 'convenio is not accepted: use letters, digits, space, dot, slash, hyphen or underscore',
      value: convenio,
    });
  }
  return issues;
}

// The stored recurrence: the request's fields, the receiver named by the company.
function recBodyOf(
  input: RecSolicitada,
  company: { tax_id: string; official_name: string },
  txid: string | undefined,
): RecBody {
  const { dataInicial, dataFinal } = input.calendario;
  const convenio = input.recebedor?.convenio;
  return {
    vinculo: {
      ...(input.vinculo.objeto !== undefined ? { objeto: input.vinculo.objeto } : {}),
      devedor: devedorOf(input.vinculo.devedor),
      contrato: input.vinculo.contrato,
    },
    calendario: {
      dataInicial,
      ...(dataFinal !== undefined ? { dataFinal } : {}),
      periodicidade: input.calendario.periodicidade,
    },
    ...(input.valor && Object.keys(input.valor).length ? { valor: input.valor } : {}),
    recebedor: {
      cnpj: company.tax_id,
      nome: company.official_name,
      ...(convenio !== undefined ? { convenio } : {}),
    },
    politicaRetentativa: input.politicaRetentativa,
    ...(txid ? { ativacao: { dadosJornada: { txid } } } : {}),
  };
}

// Checks a revision's dataInicial and loc (both only while CRIADA), setting the new dataInicial
// in `body`; answers the new location to move to, if any. Refuses everything wrong together.
async function checkRecRevision(
  trx: Kysely<Database>,
  companyId: string,
  rec: Recurrence,
  input: RecRevisada,
  body: RecBody,
  now: Date,
): Promise<RecLocation | undefined> {
  const issues: FieldIssue[] = [];
  const locationId = rec.location_id === null ? null : Number(rec.location_id);
  let newLoc: RecLocation | undefined;
  const dataInicial = input.calendario?.dataInicial;
  if (dataInicial !== undefined && dataInicial !== body.calendario.dataInicial) {
    if (rec.status !== 'CRIADA')
      issues.push({
        field: 'rec.calendario.dataInicial',
        message: 'calendario.dataInicial changes only while the recurrence is CRIADA',
        value: dataInicial,
      });
    else if (dataInicial < todayUtc(now))
      issues.push({
        field: 'rec.calendario.dataInicial',
        message: 'calendario.dataInicial cannot be before the creation date',
        value: dataInicial,
      });
    else if (body.calendario.dataFinal !== undefined && body.calendario.dataFinal < dataInicial) {
      issues.push({
        field: 'rec.calendario.dataInicial',
        message: 'calendario.dataInicial cannot be after calendario.dataFinal',
        value: dataInicial,
      });
    } else body.calendario.dataInicial = dataInicial;
  }
  if (input.loc !== undefined && input.loc !== locationId) {
    if (rec.status !== 'CRIADA')
      issues.push({
        field: 'rec.loc',
        message: 'loc changes only while the recurrence is CRIADA',
        value: String(input.loc),
      });
    else {
      newLoc = await repo.lockRecLocation(trx, companyId, input.loc);
      if (!newLoc) issues.push({ field: 'rec.loc', message: 'The location does not exist', value: String(input.loc) });
      else if (newLoc.id_rec && newLoc.id_rec !== rec.id_rec)
        issues.push({
          field: 'rec.loc',
          message: 'The location is used by another recurrence',
          value: String(input.loc),
        });
    }
  }
  if (issues.length) invalid(issues);
  return newLoc;
}
