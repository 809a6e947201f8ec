// The standard's immediate (cob) and due-date (cobv) charges: create with or without txid,
// revise, read at any revision, list. Platform charges are the same records.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Charge, ChargeKind, Database } from '../../db/schema';
import { errors, type FieldIssue } from '../../http/errors';
import { pixListQuery, parametros, type PixListQuery } from '../../http/paging';
import type { Principal } from '../../http/principal';
import { findCompanyKey } from '../../keys/keys.repository';
import { todayUtc } from '../../lib/business-days';
import type { Clock } from '../../lib/clock';
import { isValidTxid, newTxid } from '../../lib/ids';
import { cents, parseDecimalAmount } from '../../lib/money';
import { devolutionsOf, findReceivedOfCharge } from '../../pixin/pixin.repository';
import { pixView } from '../../pixin/pixin.views';
import { claimLocation, createChargeRecord, relocateCharge, reviseChargeRecord } from '../charge-records';
import * as repo from '../charges.repository';
import { findBatchItemByTxid } from '../lotecobv/lotecobv.repository';
import { chargeViewContext, chargeViewContexts, type ChargeViewContext } from '../platform/platform-view';
import { cobBodyOf, cobvBodyOf, inputOfBody, mergeRevision, recebedorOf, sameJson } from './standard-bodies';
import { checkCobCreate, checkCobvCreate, cobTotal, type StandardInput } from './standard-rules';
import { standardChargeView } from './standard-view';

const INVALID = { cob: 'The immediate charge request is not valid', cobv: 'The due-date charge request is not valid' };
const NOT_FOUND = { cob: 'Immediate charge not found', cobv: 'Due-date charge not found' };

export interface StandardListQuery extends PixListQuery {
  locationPresente?: boolean;
  status?: string;
  loteCobVId?: number;
}

export class StandardChargesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  // PUT /cob/{txid}, /cobv/{txid}: creates the charge, or changes it while it is ATIVA.
  async put(principal: Principal, kind: ChargeKind, txid: string, input: StandardInput) {
    return this.db.transaction().execute(async (trx) => {
      const charge = await this.putIn(trx, principal.companyId, kind, txid, input, {});
      return this.view(trx, charge);
    });
  }

  // POST /cob: a cob whose txid the server chooses.
  async create(principal: Principal, input: StandardInput) {
    return this.put(principal, 'cob', newTxid(), input);
  }

  // The body of PUT inside a transaction (also used by lotecobv, which passes its batch).
  async putIn(
    trx: Kysely<Database>,
    companyId: string,
    kind: ChargeKind,
    txid: string,
    input: StandardInput,
    from: { loteId?: number },
  ): Promise<Charge> {
    if (!isValidTxid(txid))
      throw invalid(kind, [{ field: 'txid', message: 'txid must have 26 to 35 letters and digits', value: txid }]);
    const now = await this.clock.now(trx);
    const existing = await repo.findChargeByTxid(trx, companyId, txid, true);
    if (existing && existing.kind !== kind)
      throw invalid(kind, [{ field: 'txid', message: `txid is in use by a ${existing.kind}`, value: txid }]);
    if (kind === 'cobv' && from.loteId === undefined) {
      const item = await findBatchItemByTxid(trx, companyId, txid);
      if (item && item.status !== 'CRIADA') {
        throw invalid(kind, [
          { field: 'txid', message: `txid belongs to a batch where its request is ${item.status}`, value: txid },
        ]);
      }
    }
    const creation = existing?.created_at ?? now;
    const issues = kind === 'cob' ? checkCobCreate(input) : checkCobvCreate(input, todayUtc(creation));
    if (issues.length) throw invalid(kind, issues);
    const key = await findCompanyKey(trx, companyId, input.chave!);
    if (!key)
      throw invalid(kind, [
        { field: 'chave', message: 'chave is not a Pix key of the receiving user', value: input.chave! },
      ]);
    const company = (await repo.findCompanyRow(trx, companyId))!;
    const body = kind === 'cob' ? cobBodyOf(input, creation) : cobvBodyOf(input, creation, recebedorOf(company));
    const value =
      kind === 'cob' ? cobTotal((body as ReturnType<typeof cobBodyOf>).valor) : parseAmount(input.valor!.original!);
    const location = input.loc ? await this.claim(trx, companyId, kind, input.loc.id, existing?.id) : undefined;
    const timing =
      kind === 'cob'
        ? {
            expiresAt: new Date(creation.getTime() + (body.calendario as { expiracao: number }).expiracao * 1000),
            dueDate: null,
            validityAfterDue: null,
          }
        : {
            expiresAt: null,
            dueDate: input.calendario!.dataDeVencimento!,
            validityAfterDue: (body.calendario as { validadeAposVencimento: number }).validadeAposVencimento,
          };

    if (existing) {
      let charge = existing;
      if (location && Number(existing.location_id) !== location.id)
        charge = await relocateCharge(trx, charge, location, now);
      if (sameJson(body, existing.body)) return charge;
      if (existing.status !== 'ATIVA')
        throw invalid(kind, [
          {
            field: 'status',
            message: `the charge is ${existing.status} and cannot be changed`,
            value: existing.status,
          },
        ]);
      return reviseChargeRecord(
        trx,
        charge,
        { body: body as unknown as Record<string, unknown>, value, pixKey: key.key, ...timing },
        now,
      );
    }
    return createChargeRecord(
      trx,
      {
        companyId,
        accountId: key.account_id,
        kind,
        platformType: kind === 'cob' ? 'DYNAMIC' : 'OVERDUE',
        txid,
        correlationId: null,
        body: body as unknown as Record<string, unknown>,
        platform: {},
        value,
        pixKey: key.key,
        customerId: null,
        ...timing,
        paymentLinkId: randomUUID(),
        ...(location ? { location } : {}),
        ...(from.loteId !== undefined ? { loteId: from.loteId } : {}),
        now,
      },
      this.publicUrl,
    );
  }

  // PATCH /cob/{txid}, /cobv/{txid}.
  async revise(principal: Principal, kind: ChargeKind, txid: string, input: StandardInput) {
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
    const now = await this.clock.now(trx);
    const charge = await repo.findChargeByTxid(trx, companyId, txid, true);
    if (!charge || charge.kind !== kind) throw errors.notFound(NOT_FOUND[kind]);
    const { status, loc, ...changes } = input;
    const changesSomething = Object.values(changes).some((v) => v !== undefined);
    if (status !== undefined) {
      if (changesSomething || loc !== undefined) {
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
    if (charge.status !== 'ATIVA')
      throw invalid(kind, [
        { field: 'status', message: `the charge is ${charge.status} and cannot be changed`, value: charge.status },
      ]);
    if (status !== undefined)
      return reviseChargeRecord(trx, charge, { body: charge.body, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, now);

    const merged = mergeRevision(inputOfBody(charge.body), changes);
    const issues = kind === 'cob' ? checkCobCreate(merged) : checkCobvCreate(merged, todayUtc(charge.created_at));
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
    const body =
      kind === 'cob'
        ? cobBodyOf(merged, charge.created_at)
        : cobvBodyOf(merged, charge.created_at, (charge.body as { recebedor: Record<string, string> }).recebedor);
    if (sameJson(body, charge.body)) return current;
    const timing =
      kind === 'cob'
        ? {
            expiresAt: new Date(
              charge.created_at.getTime() + (body.calendario as { expiracao: number }).expiracao * 1000,
            ),
          }
        : {
            dueDate: merged.calendario!.dataDeVencimento!,
            validityAfterDue: (body.calendario as { validadeAposVencimento: number }).validadeAposVencimento,
          };
    const value =
      kind === 'cob' ? cobTotal((body as ReturnType<typeof cobBodyOf>).valor) : parseAmount(merged.valor!.original!);
    return reviseChargeRecord(
      trx,
      current,
      { body: body as unknown as Record<string, unknown>, value, pixKey: key.key, ...timing },
      now,
    );
  }

  // GET /cob/{txid}, /cobv/{txid} (revisao: that revision of the object).
  async get(principal: Principal, kind: ChargeKind, txid: string, revisao?: number) {
    const charge = await repo.findChargeByTxid(this.db, principal.companyId, txid);
    if (!charge || charge.kind !== kind) throw errors.notFound(NOT_FOUND[kind]);
    let revision;
    if (revisao !== undefined) {
      revision = await repo.findRevision(this.db, charge.id, revisao);
      if (!revision)
        throw errors.badRequest(`The charge has no revision ${revisao}`, [
          { field: 'revisao', message: 'this revision does not exist', value: String(revisao) },
        ]);
    }
    return this.view(this.db, charge, revision, true);
  }

  // GET /cob, /cobv.
  async list(principal: Principal, kind: ChargeKind, query: StandardListQuery) {
    const page = pixListQuery(query);
    const { rows, total } = await repo.listCharges(
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
    const contextOf = await chargeViewContexts(this.db, rows);
    const cobs = [];
    for (const charge of rows) cobs.push(await this.view(this.db, charge, undefined, true, contextOf(charge)));
    const extra = {
      ...(query.cpf ? { cpf: query.cpf } : {}),
      ...(query.cnpj ? { cnpj: query.cnpj } : {}),
      ...(query.locationPresente !== undefined ? { locationPresente: query.locationPresente } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.loteCobVId !== undefined ? { loteCobVId: query.loteCobVId } : {}),
    };
    return { parametros: parametros(query, page, total, extra), cobs };
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

  // The standard's object; reads add the Pix that paid the charge.
  async view(
    db: Kysely<Database>,
    charge: Charge,
    revision?: Awaited<ReturnType<typeof repo.findRevision>>,
    withPix = false,
    context?: ChargeViewContext,
  ) {
    const ctx = context ?? (await chargeViewContext(db, charge));
    const view = standardChargeView(charge, ctx, this.publicUrl, revision);
    if (!withPix || charge.status !== 'CONCLUIDA') return view;
    const received = await findReceivedOfCharge(db, charge.company_id, charge.id);
    if (!received) return view;
    const devolutions = await devolutionsOf(db, [received.end_to_end_id]);
    return { ...view, pix: [pixView(received, devolutions.get(received.end_to_end_id) ?? [])] };
  }
}

function invalid(kind: ChargeKind, issues: FieldIssue[]) {
  return errors.validation(issues, issues.length === 1 ? `${INVALID[kind]}: ${issues[0]!.message}` : INVALID[kind]);
}

function parseAmount(s: string) {
  const parsed = parseDecimalAmount(s);
  return parsed.ok ? parsed.value : cents(0);
}
