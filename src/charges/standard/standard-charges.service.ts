// The standard's immediate (cob) and due-date (cobv) charges: create with or without txid,
// revise, read at any revision, list. Platform charges are the same records.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Charge, ChargeKind, Company, Database, PixDevolution, PixReceived } from '../../db/schema';
import { isUniqueViolation } from '../../db/errors';
import { errors, type FieldIssue } from '../../errors/errors';
import type { operations } from '../../../generated/pix.types';
import { pixListQuery, parametros } from '../../lib/paging';
import type { Principal } from '../../identity/principal.types';
import { findCompanyKey, type ReceivingKey } from '../../keys/keys.public';
import type { CompanyDirectory } from '../../identity/companies.service';
import { brasiliaDate } from '../../lib/brasilia';
import type { Clock } from '../../db/clock';
import { newTxid } from '../../lib/ids';
import { cents, parseDecimalAmount } from '../../lib/money';
import { pixView, paymentsOfCharges } from '../../pixin/pixin.public';
import {
  claimLocation,
  createChargeRecord,
  type NewChargeRecord,
  relocateCharge,
  reviseChargeRecord,
} from '../charge-records';
import {
  type ChargeInContext,
  findChargeInContextByTxid,
  findChargeRevision,
  lockChargeByTxid,
  lockChargeInContextByTxid,
} from '../charges.repository';
import { listCharges } from '../charge-lists.repository';
import { findBatchItemByTxid } from '../lotecobv/lotecobv.repository';
import { chargeViewContext, type ChargeViewContext } from '../platform/platform.view';
import { cobBodyOf, cobvBodyOf, inputOfBody, mergeRevision, recebedorOf, sameJson } from './standard-bodies';
import { checkStandardBody, checkTxid, cobTotal, type StandardInput } from './standard.rules';
import { isCobvBody, type PixSchemas, type StoredChargeBody } from '../../db/documents/charge-body';
import { standardChargeView, type StandardChargeView } from './standard.view';

type S = PixSchemas;
// A charge as a read answers it: with the Pix that paid it, once CONCLUIDA.
type StandardChargeRead = S['CobCompleta'] | S['CobVCompleta'];

const INVALID = { cob: 'The immediate charge request is not valid', cobv: 'The due-date charge request is not valid' };
const NOT_FOUND = { cob: 'Immediate charge not found', cobv: 'Due-date charge not found' };

// The filters of GET /cob and GET /cobv (the cobv list's has loteCobVId besides).
export type StandardListQuery = operations['listCobvs']['parameters']['query'];

export class StandardChargesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly companies: CompanyDirectory,
    private readonly publicUrl: string,
  ) {}

  // PUT /cob/{txid}, /cobv/{txid}: creates the charge, or changes it while it is ATIVA.
  // The overloads of put, revise, get and list say what each kind answers: the view follows
  // the stored body's kind, which the compiler cannot tie to the `kind` argument.
  put(principal: Principal, kind: 'cob', txid: string, input: StandardInput): Promise<S['CobGerada']>;
  put(principal: Principal, kind: 'cobv', txid: string, input: StandardInput): Promise<S['CobVGerada']>;
  async put(principal: Principal, kind: ChargeKind, txid: string, input: StandardInput): Promise<StandardChargeView> {
    const created = await this.tryCreate(principal.companyId, kind, txid, input);
    if (created) return this.view(this.db, created.charge, undefined, created);
    return this.db.transaction().execute(async (trx) => {
      const charge = await this.putIn(trx, principal.companyId, kind, txid, input, {});
      return this.view(trx, charge.charge, undefined, charge);
    });
  }

  // POST /cob: a cob whose txid the server chooses.
  async create(principal: Principal, input: StandardInput): Promise<S['CobGerada']> {
    return this.put(principal, 'cob', newTxid(), input);
  }

  // PUT's two paths run the same rules (checkTxid, then accept: the txid's use, the body, the
  // receiving key), each written once. A PUT that creates a charge on an unused txid, without
  // a location of its choosing, writes one statement (charge, location, revision and event,
  // atomic on its own): tried first without BEGIN, the lock of the txid and COMMIT, four of
  // its six round trips. Undefined when the full path has to answer: a refused request (its
  // errors come in the full path's order), a txid already taken (the unique index says so).
  private async tryCreate(
    companyId: string,
    kind: ChargeKind,
    txid: string,
    input: StandardInput,
  ): Promise<ChargeInContext | undefined> {
    if (input.loc !== undefined || checkTxid(txid).length) return undefined;
    const now = await this.clock.now(companyId);
    const accepted = await this.accept(
      this.db,
      companyId,
      kind,
      txid,
      input,
      { existing: undefined, from: {}, now },
      'any',
    );
    if (!accepted.ok) return undefined;
    try {
      return await createChargeRecord(this.db, accepted.record, this.publicUrl);
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  // The body of PUT inside a transaction (also used by lotecobv, which passes its batch).
  async putIn(
    trx: Kysely<Database>,
    companyId: string,
    kind: ChargeKind,
    txid: string,
    input: StandardInput,
    from: { loteId?: number },
  ): Promise<ChargeInContext> {
    const txidIssues = checkTxid(txid);
    if (txidIssues.length) throw invalid(kind, txidIssues);
    const found = await lockChargeInContextByTxid(trx, companyId, txid);
    const existing = found?.charge;
    const now = await this.clock.now(companyId, trx);
    const accepted = await this.accept(trx, companyId, kind, txid, input, { existing, from, now }, 'first');
    if (!accepted.ok) throw invalid(kind, accepted.issues);
    const { record } = accepted;
    const location = input.loc ? await this.claim(trx, companyId, kind, input.loc.id, existing?.id) : undefined;
    if (found && existing) {
      const { body, value, key, expiresAt, dueDate, validityAfterDue } = record;
      const revised = { body, value, pixKey: key.key, expiresAt, dueDate, validityAfterDue };
      return reviseExisting(trx, kind, { ...found, charge: existing }, location, revised, now);
    }
    const placed = { ...(location ? { location } : {}), ...(from.loteId !== undefined ? { loteId: from.loteId } : {}) };
    return createChargeRecord(trx, { ...record, ...placed }, this.publicUrl);
  }

  // The rules of PUT past its txid, for both paths, in the order their refusals come: the
  // txid's use (checkPutTarget), the body on the charge's creation day (checkStandardBody,
  // pure), the receiving key. Accepted, the charge as PUT writes it (`existing` keeps its
  // creation). A new rule of PUT goes here, or into those checks, and holds on both paths.
  // `refusal`: 'first' answers the refusal a client gets; 'any' (the fast path, which leaves
  // the answer to the full path) only says whether one comes, a refused body before any read.
  private async accept(
    db: Kysely<Database>,
    companyId: string,
    kind: ChargeKind,
    txid: string,
    input: StandardInput,
    on: { existing: Charge | undefined; from: { loteId?: number }; now: Date },
    refusal: 'first' | 'any',
  ): Promise<{ ok: true; record: NewChargeRecord } | { ok: false; issues: FieldIssue[] }> {
    const { existing, from, now } = on;
    const creation = existing?.created_at ?? now;
    const bodyIssues = checkStandardBody(kind, input, brasiliaDate(creation));
    if (bodyIssues.length && refusal === 'any') return { ok: false, issues: bodyIssues };
    const targetIssues = await checkPutTarget(db, companyId, kind, txid, existing, from);
    if (targetIssues.length) return { ok: false, issues: targetIssues };
    if (bodyIssues.length) return { ok: false, issues: bodyIssues };
    const key = await this.companies.receivingKey(companyId, input.chave!, db);
    if (!key)
      return {
        ok: false,
        issues: [{ field: 'chave', message: 'chave is not a Pix key of the receiving user', value: input.chave! }],
      };
    const company = await this.companies.get(companyId, db);
    return { ok: true, record: newStandardCharge({ companyId, kind, txid, input, key, company, creation, now }) };
  }

  // PATCH /cob/{txid}, /cobv/{txid}.
  revise(principal: Principal, kind: 'cob', txid: string, input: StandardInput): Promise<S['CobGerada']>;
  revise(principal: Principal, kind: 'cobv', txid: string, input: StandardInput): Promise<S['CobVGerada']>;
  async revise(
    principal: Principal,
    kind: ChargeKind,
    txid: string,
    input: StandardInput,
  ): Promise<StandardChargeView> {
    return this.db.transaction().execute(async (trx) => {
      const charge = await this.reviseIn(trx, principal.companyId, kind, txid, input);
      return this.view(trx, charge);
    });
  }

  async reviseIn(
    trx: Kysely<Database>,
    companyId: string,
    kind: ChargeKind,
    txid: string,
    input: StandardInput,
  ): Promise<Charge> {
    const now = await this.clock.now(companyId, trx);
    const charge = await lockChargeByTxid(trx, companyId, txid);
    if (!charge || charge.kind !== kind) throw errors.notFound(NOT_FOUND[kind]);
    const { status, loc, ...changes } = input;
    checkRemoval(kind, input);
    if (charge.status !== 'ATIVA')
      throw invalid(kind, [
        { field: 'status', message: `the charge is ${charge.status} and cannot be changed`, value: charge.status },
      ]);
    if (status !== undefined)
      return reviseChargeRecord(trx, charge, { body: charge.body, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, now);

    const merged = mergeRevision(inputOfBody(charge.body), changes);
    const issues = checkStandardBody(kind, merged, brasiliaDate(charge.created_at));
    if (issues.length) throw invalid(kind, issues);
    let key = { key: charge.pix_key };
    if (merged.chave !== charge.pix_key) {
      const found = await findCompanyKey(trx, companyId, merged.chave!);
      if (!found)
        throw invalid(kind, [
          { field: 'chave', message: 'chave is not a Pix key of the receiving user', value: merged.chave! },
        ]);
      key = found;
    }
    let current = charge;
    if (loc !== undefined) {
      const location = await this.claim(trx, companyId, kind, loc.id, charge.id);
      if (Number(charge.location_id) !== location.id) current = await relocateCharge(trx, charge, location, now);
    }
    const body = isCobvBody(charge.body)
      ? cobvBodyOf(merged, charge.created_at, charge.body.recebedor)
      : cobBodyOf(merged, charge.created_at);
    if (sameJson(body, charge.body)) return current;
    const { expiresAt, dueDate, validityAfterDue } = timingOf(body, charge.created_at);
    const timing = kind === 'cob' ? { expiresAt } : { dueDate, validityAfterDue };
    return reviseChargeRecord(trx, current, { body, value: valueOf(body), pixKey: key.key, ...timing }, now);
  }

  // GET /cob/{txid}, /cobv/{txid} (revisao: that revision of the object).
  get(principal: Principal, kind: 'cob', txid: string, revisao?: number): Promise<S['CobCompleta']>;
  get(principal: Principal, kind: 'cobv', txid: string, revisao?: number): Promise<S['CobVCompleta']>;
  async get(principal: Principal, kind: ChargeKind, txid: string, revisao?: number): Promise<StandardChargeRead> {
    const found = await findChargeInContextByTxid(this.db, principal.companyId, txid);
    const charge = found?.charge;
    if (!found || !charge || charge.kind !== kind) throw errors.notFound(NOT_FOUND[kind]);
    let revision;
    if (revisao !== undefined) {
      revision = await findChargeRevision(this.db, charge.id, revisao);
      if (!revision)
        throw errors.badRequest(`The charge has no revision ${revisao}`, [
          { field: 'revisao', message: 'this revision does not exist', value: String(revisao) },
        ]);
    }
    return this.viewWithPix(this.db, charge, revision, found);
  }

  // GET /cob, /cobv.
  list(principal: Principal, kind: 'cob', query: StandardListQuery): Promise<S['CobsConsultadas']>;
  list(principal: Principal, kind: 'cobv', query: StandardListQuery): Promise<S['CobsVConsultadas']>;
  async list(
    principal: Principal,
    kind: ChargeKind,
    query: StandardListQuery,
  ): Promise<{ parametros: S['ParametrosConsultaCob']; cobs: StandardChargeRead[] }> {
    const page = pixListQuery(query);
    const { rows, total } = await listCharges(
      this.db,
      {
        companyId: principal.companyId,
        kind,
        ...(page.inicio ? { from: page.inicio } : {}),
        ...(page.fim ? { to: page.fim } : {}),
        ...(query.cpf ? { cpf: query.cpf } : {}),
        ...(query.cnpj ? { cnpj: query.cnpj } : {}),
        ...(query.locationPresente !== undefined ? { locationPresent: query.locationPresente } : {}),
        ...(query.status ? { statuses: [query.status as Charge['status']] } : {}),
        ...(query.loteCobVId !== undefined ? { loteId: query.loteCobVId } : {}),
      },
      page.offset,
      page.itensPorPagina,
    );
    const paid = rows.filter((r) => r.charge.status === 'CONCLUIDA').map((r) => r.charge.id);
    const payments = await paymentsOfCharges(this.db, principal.companyId, paid);
    const cobs = rows.map((r) => this.viewWithPayment(r, payments.get(r.charge.id)));
    const extra = {
      ...(query.cpf ? { cpf: query.cpf } : {}),
      ...(query.cnpj ? { cnpj: query.cnpj } : {}),
      ...(query.locationPresente !== undefined ? { locationPresente: query.locationPresente } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.loteCobVId !== undefined ? { loteCobVId: query.loteCobVId } : {}),
    };
    return { parametros: { inicio: query.inicio, fim: query.fim, ...parametros(query, page, total, extra) }, cobs };
  }

  private async claim(
    trx: Kysely<Database>,
    companyId: string,
    kind: ChargeKind,
    locationId: number,
    chargeId?: string,
  ) {
    const claimed = await claimLocation(trx, companyId, locationId, kind, chargeId);
    if (!claimed.ok) throw invalid(kind, [claimed.issue]);
    return claimed.location;
  }

  // The standard's object as a write answers it.
  async view(
    db: Kysely<Database>,
    charge: Charge,
    revision?: Awaited<ReturnType<typeof findChargeRevision>>,
    context?: ChargeViewContext,
  ): Promise<StandardChargeView> {
    return standardChargeView(charge, context ?? (await chargeViewContext(db, charge)), this.publicUrl, revision);
  }

  // The standard's object as a read answers it: with the Pix that paid it, once CONCLUIDA.
  async viewWithPix(
    db: Kysely<Database>,
    charge: Charge,
    revision: Awaited<ReturnType<typeof findChargeRevision>> | undefined,
    context: ChargeViewContext,
  ): Promise<StandardChargeRead> {
    if (charge.status !== 'CONCLUIDA') return this.view(db, charge, revision, context);
    const payments = await paymentsOfCharges(db, charge.company_id, [charge.id]);
    return this.viewWithPayment({ charge, ...context }, payments.get(charge.id), revision);
  }

  private viewWithPayment(
    found: ChargeViewContext & { charge: Charge },
    payment: { pix: PixReceived; devolutions: PixDevolution[] } | undefined,
    revision?: Awaited<ReturnType<typeof findChargeRevision>>,
  ): StandardChargeRead {
    const view = standardChargeView(found.charge, found, this.publicUrl, revision);
    return payment ? { ...view, pix: [pixView(payment.pix, payment.devolutions)] } : view;
  }
}

function invalid(kind: ChargeKind, issues: FieldIssue[]) {
  return errors.validation(issues, issues.length === 1 ? `${INVALID[kind]}: ${issues[0]!.message}` : INVALID[kind]);
}

function parseAmount(s: string) {
  const parsed = parseDecimalAmount(s);
  return parsed.ok ? parsed.value : cents(0);
}

// The txid PUT may use: not a charge of the other kind, not a batch item past CRIADA (a
// batch's own items come with from.loteId).
async function checkPutTarget(
  db: Kysely<Database>,
  companyId: string,
  kind: ChargeKind,
  txid: string,
  existing: Charge | undefined,
  from: { loteId?: number },
): Promise<FieldIssue[]> {
  if (existing && existing.kind !== kind)
    return [{ field: 'txid', message: `txid is in use by a ${existing.kind}`, value: txid }];
  // A batch item whose charge exists (a revision of it was refused) may be revised again.
  if (kind !== 'cobv' || from.loteId !== undefined || existing) return [];
  const item = await findBatchItemByTxid(db, companyId, txid);
  if (item && item.status !== 'CRIADA')
    return [{ field: 'txid', message: `txid belongs to a batch where its request is ${item.status}`, value: txid }];
  return [];
}

// A charge of the standard as PUT writes it, `creation` being when it was first created (the
// body's calendario.criacao, kept by a revision).
function newStandardCharge(from: {
  companyId: string;
  kind: ChargeKind;
  txid: string;
  input: StandardInput;
  key: ReceivingKey;
  company: Company;
  creation: Date;
  now: Date;
}): NewChargeRecord {
  const { kind, input, company, creation } = from;
  const body = kind === 'cob' ? cobBodyOf(input, creation) : cobvBodyOf(input, creation, recebedorOf(company));
  return {
    companyId: from.companyId,
    key: from.key,
    company,
    kind,
    platformType: kind === 'cob' ? 'DYNAMIC' : 'OVERDUE',
    txid: from.txid,
    correlationId: null,
    body,
    platform: {},
    value: valueOf(body),
    customerId: null,
    ...timingOf(body, creation),
    paymentLinkId: randomUUID(),
    now: from.now,
  };
}

// When a charge stops being payable, as its columns hold it: a cob's expiry instant, a cobv's
// due date and validity.
function timingOf(body: StoredChargeBody, creation: Date) {
  if (!isCobvBody(body)) {
    const expiresAt = new Date(creation.getTime() + body.calendario.expiracao * 1000);
    return { expiresAt, dueDate: null, validityAfterDue: null };
  }
  const { dataDeVencimento, validadeAposVencimento } = body.calendario;
  return { expiresAt: null, dueDate: dataDeVencimento, validityAfterDue: validadeAposVencimento };
}

// The charge's value: a cob's original plus its withdrawal, a cobv's original.
function valueOf(body: StoredChargeBody) {
  return isCobvBody(body) ? parseAmount(body.valor.original) : cobTotal(body.valor);
}

// PUT on a txid that has a charge: the same body changes nothing; another one revises an ATIVA
// charge (moved to the location PUT names, if another).
async function reviseExisting(
  trx: Kysely<Database>,
  kind: ChargeKind,
  found: ChargeInContext,
  location: Awaited<ReturnType<StandardChargesService['claim']>> | undefined,
  revised: Parameters<typeof reviseChargeRecord>[2],
  now: Date,
): Promise<ChargeInContext> {
  const existing = found.charge;
  let charge = existing;
  if (location && Number(existing.location_id) !== location.id)
    charge = await relocateCharge(trx, charge, location, now);
  const inContext = (c: Charge): ChargeInContext => ({ ...found, charge: c, location: location ?? found.location });
  if (sameJson(revised.body, existing.body)) return inContext(charge);
  if (existing.status !== 'ATIVA')
    throw invalid(kind, [
      { field: 'status', message: `the charge is ${existing.status} and cannot be changed`, value: existing.status },
    ]);
  return inContext(await reviseChargeRecord(trx, charge, revised, now));
}

// PATCH with status: only REMOVIDA_PELO_USUARIO_RECEBEDOR, and nothing else beside it.
function checkRemoval(kind: ChargeKind, { status, loc, ...changes }: StandardInput): void {
  if (status === undefined) return;
  if (Object.values(changes).some((v) => v !== undefined) || loc !== undefined) {
    throw invalid(kind, [
      {
        field: 'status',
        message: 'status REMOVIDA_PELO_USUARIO_RECEBEDOR cannot be combined with other changes',
        value: status,
      },
    ]);
  }
  if (status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
    throw invalid(kind, [
      { field: 'status', message: 'status can only be REMOVIDA_PELO_USUARIO_RECEBEDOR', value: status },
    ]);
}
