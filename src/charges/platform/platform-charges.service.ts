// The platform API's charges (/api/v1/charge): create, read, list, delete, change expiry.
// A DYNAMIC charge is a cob and an OVERDUE/BOLETO charge a cobv of the standard: the same
// record the Pix API reads and revises.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { operations } from '../../../generated/platform.types';
import type { Charge, Company, Database, Location } from '../../db/schema';
import { upsertChargeCustomer } from '../../customers/customers.service';
import { findCustomerByCorrelationId } from '../../customers/customers.public';
import { isUniqueViolation } from '../../db/errors';
import { errors } from '../../errors/errors';
import type { Page } from '../../lib/paging';
import type { Principal } from '../../identity/principal.types';
import type { CompanyDirectory } from '../../identity/companies.service';
import { brasiliaDate } from '../../lib/brasilia';
import { daysBetween } from '../../lib/business-days';
import type { Clock } from '../../db/clock';
import { newTxid } from '../../lib/ids';
import { findStaticQrByPaymentLinkId } from '../../qrcodes/qrcodes.public';
import { platformStatusOf } from '../charge-model';
import {
  CHARGE_DELETED,
  chargeEventPayloadOf,
  claimLocation,
  createChargeRecord,
  relocateCharge,
  reviseChargeRecord,
} from '../charge-records';
import { recordEventsPart } from '../../events/events.service';
import {
  type ChargeInContext,
  findChargeByPaymentLinkId,
  findChargeInContextByAnyId,
  lockChargeById,
  lockChargeWithAccount,
  updateCharge,
} from '../charges.repository';
import { listCharges, listChargesNewestFirst } from '../charge-lists.repository';
import { findCompanyCharge, findCompanyChargeInContext } from '../payable';
import { recebedorOf, cobBodyOf, cobvBodyOf } from '../standard/standard-bodies';
import {
  MAX_EXPIRES_IN,
  civilDateOf,
  devedorOfCustomer,
  planCharge,
  type ChargeCreatePayload,
  type PlatformPlan,
} from './platform.rules';
import { checkStandardBody, type StandardInput } from '../standard/standard.rules';
import {
  expectCobBody,
  expectCobvBody,
  type PlatformSettings,
  type StoredChargeBody,
} from '../../db/documents/charge-body';
import { buildPlatformChargeView, platformChargeView } from './platform.view';

const NOT_FOUND = 'Charge not found';
const DUPLICATE = 'Charge with this correlationID already exists';

// The filters of GET /api/v1/charge (its paging is read by the handler).
export type ChargeListQuery = Omit<NonNullable<operations['listCharges']['parameters']['query']>, 'skip' | 'limit'>;

// The platform's charge as the standard's object, checked and built by the same functions as
// a cob or cobv of the Pix API (one model: both APIs then revise and price this body).
export function standardBodyOf(
  plan: PlatformPlan,
  from: {
    devedor?: StandardInput['devedor'];
    chave: string;
    payload: ChargeCreatePayload;
    now: Date;
    company: Company;
  },
): StoredChargeBody {
  const { payload, now } = from;
  const input: StandardInput = {
    calendario:
      plan.kind === 'cob'
        ? { expiracao: plan.expiracao! }
        : { dataDeVencimento: plan.dueDate!, validadeAposVencimento: plan.validity! },
    ...(from.devedor ? { devedor: from.devedor } : {}),
    valor: plan.valor,
    chave: from.chave,
    ...(payload.comment !== undefined ? { solicitacaoPagador: payload.comment } : {}),
    ...(payload.additionalInfo?.length
      ? { infoAdicionais: payload.additionalInfo.map((i) => ({ nome: i.key, valor: i.value })) }
      : {}),
  };
  const checked = checkStandardBody(plan.kind, input, brasiliaDate(now));
  // The standard's rules name the cob's fields, which this payload carries in its body.
  const issues = checked.map((i) => ({ ...i, in: 'body' as const }));
  if (issues.length) {
    throw errors.validation(
      issues,
      issues.length === 1 ? `body.${issues[0]!.field} ${issues[0]!.message}` : 'Validation error',
    );
  }
  return plan.kind === 'cob' ? cobBodyOf(input, now) : cobvBodyOf(input, now, recebedorOf(from.company));
}

// Whether creating this charge writes one statement only (charge, location, revision and
// event in one CTE, atomic on its own): then BEGIN and COMMIT, two of its four round trips,
// are left out. A customer upsert or a payment link taken over writes more and needs them.
function writesOnce(payload: ChargeCreatePayload): boolean {
  return payload.customer === undefined && payload.paymentLinkID === undefined;
}

export class PlatformChargesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly companies: CompanyDirectory,
    private readonly publicUrl: string,
  ) {}

  // `origin` is for other services that create charges (subscriptions): what they link the
  // charge to is stored with it, in the same transaction.
  async create(
    principal: Principal,
    payload: ChargeCreatePayload,
    returnExisting: boolean,
    origin: { subscription?: string } = {},
  ) {
    const work = async (trx: Kysely<Database>) => {
      const now = await this.clock.now(principal.companyId, trx);
      const created = await this.createIn(trx, principal, payload, now, origin);
      return this.createdView(created, now);
    };
    try {
      return await (writesOnce(payload) ? work(this.db) : this.db.transaction().execute(work));
    } catch (error) {
      // The correlationID is taken (the unique index said so, whether by an earlier charge or
      // a concurrent create): the charge that has it, or the refusal.
      if (!isUniqueViolation(error)) throw error;
      const existing = await findChargeInContextByAnyId(this.db, principal.companyId, payload.correlationID);
      if (!existing || existing.charge.correlation_id !== payload.correlationID) throw error;
      if (!returnExisting)
        throw errors.badRequest(DUPLICATE, [
          { field: 'correlationID', in: 'body', message: 'is already used by another charge' },
        ]);
      return this.createdView(existing, await this.clock.now(principal.companyId));
    }
  }

  private createdView(charge: ChargeInContext, now: Date) {
    const view = buildPlatformChargeView(charge.charge, charge, this.publicUrl, now);
    return { charge: view, correlationID: view.correlationID, brCode: view.brCode };
  }

  private async createIn(
    trx: Kysely<Database>,
    principal: Principal,
    payload: ChargeCreatePayload,
    now: Date,
    origin: { subscription?: string },
  ): Promise<ChargeInContext> {
    const { companyId } = principal;
    const plan = planCharge(principal, payload, now);
    // The receiving key: the subaccount's key when sent, else the company's default key.
    const key = await this.companies.receivingKey(companyId, plan.platform.subaccount, trx);
    if (!key) {
      throw payload.subaccount !== undefined
        ? errors.validation(
            [{ field: 'subaccount', in: 'body', message: 'is not a Pix key of your company' }],
            'subaccount is not a Pix key of your company',
          )
        : errors.badRequest('Your company has no default Pix key to receive charges');
    }
    const customer = payload.customer ? await upsertChargeCustomer(trx, companyId, payload.customer, now) : undefined;
    const devedor = customer ? devedorOfCustomer(customer.view, plan.kind) : undefined;
    const { paymentLinkId, location } = await this.paymentLink(trx, companyId, plan.kind, payload, now);
    const company = await this.companies.get(companyId, trx);
    const body = standardBodyOf(plan, { ...(devedor ? { devedor } : {}), chave: key.key, payload, now, company });
    const platform: PlatformSettings = {
      ...plan.platform,
      ...(customer ? { customer: customer.view } : {}),
      ...(origin.subscription !== undefined ? { subscription: origin.subscription } : {}),
    };
    return createChargeRecord(
      trx,
      {
        companyId,
        key,
        company,
        kind: plan.kind,
        platformType: payload.type ?? 'DYNAMIC',
        txid: newTxid(),
        correlationId: payload.correlationID,
        body,
        platform,
        value: payload.value,
        customerId: customer?.id ?? null,
        expiresAt: plan.kind === 'cob' ? (plan.expiresAt ?? new Date(now.getTime() + plan.expiracao! * 1000)) : null,
        dueDate: plan.dueDate ?? null,
        validityAfterDue: plan.validity ?? null,
        paymentLinkId,
        ...(location ? { location } : {}),
        now,
      },
      this.publicUrl,
    );
  }

  // The payment link (and, with fixedLocation, the QR location) of a new charge. A
  // paymentLinkID already used by an earlier charge of the company moves to the new charge
  // (the earlier one gets a new id) unless that charge is still payable.
  private async paymentLink(
    trx: Kysely<Database>,
    companyId: string,
    kind: 'cob' | 'cobv',
    payload: ChargeCreatePayload,
    now: Date,
  ) {
    const requested = payload.paymentLinkID;
    if (requested === undefined) return { paymentLinkId: randomUUID(), location: undefined as Location | undefined };
    const refuse = (message: string) => errors.validation([{ field: 'paymentLinkID', in: 'body', message }], message);
    if (await findStaticQrByPaymentLinkId(trx, requested)) throw refuse('paymentLinkID is in use by a static QR code');
    const holder = await findChargeByPaymentLinkId(trx, requested);
    if (!holder) return { paymentLinkId: requested, location: undefined };
    if (holder.company_id !== companyId) throw refuse('paymentLinkID is in use');
    const previous = (await lockChargeById(trx, holder.id))!;
    if (platformStatusOf(previous, now) === 'ACTIVE') throw refuse('paymentLinkID is in use by an active charge');
    let location: Location | undefined;
    if (payload.fixedLocation && previous.location_id !== null) {
      const claimed = await claimLocation(trx, companyId, Number(previous.location_id), kind, previous.id);
      if (claimed.ok) {
        await relocateCharge(trx, previous, null, now);
        location = { ...claimed.location, charge_id: null };
      }
    }
    await updateCharge(trx, previous.id, { payment_link_id: randomUUID(), updated_at: now });
    return { paymentLinkId: requested, location };
  }

  async get(principal: Principal, id: string) {
    const found = await findCompanyChargeInContext(this.db, principal.companyId, id);
    if (!found) throw errors.notFound(NOT_FOUND);
    return buildPlatformChargeView(found.charge, found, this.publicUrl, await this.clock.now(principal.companyId));
  }

  async list(principal: Principal, query: ChargeListQuery, page: Page) {
    const now = await this.clock.now(principal.companyId);
    let customerId: string | null | undefined;
    if (query.customer !== undefined)
      customerId = (await findCustomerByCorrelationId(this.db, principal.companyId, query.customer))?.id ?? null;
    const { rows, total } = await listCharges(
      this.db,
      {
        companyId: principal.companyId,
        ...(query.start ? { from: new Date(query.start) } : {}),
        ...(query.end ? { to: new Date(query.end) } : {}),
        ...(query.status ? { platformStatus: query.status, now } : {}),
        ...(customerId !== undefined ? { customerId } : {}),
        ...(query.subscription !== undefined ? { subscription: query.subscription } : {}),
      },
      page.skip,
      page.limit,
    );
    return { charges: rows.map((r) => buildPlatformChargeView(r.charge, r, this.publicUrl, now)), total };
  }

  // Newest first, `limit` after the charge `before` (the id of the last of the previous page),
  // filtered by platform status and period and searched by id, correlationID, txid or payer:
  // one statement at any depth (the dashboard's list). `next`: the cursor of the next page.
  async listNewestFirst(
    principal: Principal,
    query: { status?: 'ACTIVE' | 'COMPLETED' | 'EXPIRED'; from?: Date; to?: Date; search?: string },
    page: { before?: string; limit: number },
  ) {
    const now = await this.clock.now(principal.companyId);
    const rows = await listChargesNewestFirst(
      this.db,
      {
        companyId: principal.companyId,
        ...(query.from ? { from: query.from } : {}),
        ...(query.to ? { to: query.to } : {}),
        ...(query.status ? { platformStatus: query.status, now } : {}),
        ...(query.search ? { search: query.search } : {}),
      },
      page.before !== undefined && page.before.length <= 100 ? page.before : undefined,
      page.limit + 1,
    );
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1)?.charge;
    return {
      charges: shown.map((r) => buildPlatformChargeView(r.charge, r, this.publicUrl, now)),
      next: rows.length > page.limit && last ? last.id : undefined,
    };
  }

  // DELETE: an ATIVA charge is removed by the receiver (as the standard's removal); a paid one
  // cannot be deleted; deleting a removed one again is answered the same.
  // The removal records PIXGATE:CHARGE_DELETED in the revision's statement (the charge is
  // locked with what its payload names: location, company, account).
  async delete(principal: Principal, id: string) {
    await this.db.transaction().execute(async (trx) => {
      const found = await findCompanyCharge(trx, principal.companyId, id);
      if (!found) throw errors.notFound(NOT_FOUND);
      const locked = (await lockChargeWithAccount(trx, { companyId: principal.companyId, txid: found.txid }))!;
      const charge = locked.charge;
      if (charge.status === 'CONCLUIDA') throw errors.badRequest('Cannot delete a completed charge');
      if (charge.status !== 'ATIVA') return;
      const now = await this.clock.now(principal.companyId, trx);
      const status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR' as const;
      const removed = { ...locked, charge: { ...charge, status, revision: charge.revision + 1, updated_at: now } };
      const party = {
        company_id: charge.company_id,
        company_name: locked.company.name,
        company_tax_id: locked.company.tax_id,
        account_id: charge.account_id,
        branch: locked.account.branch,
        account_number: locked.account.account_number,
        status: locked.account.status,
      };
      const payload = chargeEventPayloadOf(removed, party, this.publicUrl, now);
      const event = { companyId: charge.company_id, type: CHARGE_DELETED, payload, at: now };
      await reviseChargeRecord(trx, charge, { body: charge.body, status }, now, [recordEventsPart([event])]);
    });
    return { status: 'OK', id };
  }

  // PATCH: a new expiry (cob: expiracao from creation; cobv: the last payable day).
  async updateExpiry(principal: Principal, id: string, expiresDate: string) {
    return this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(principal.companyId, trx);
      const found = await findCompanyCharge(trx, principal.companyId, id);
      if (!found) throw errors.notFound(NOT_FOUND);
      const charge = (await lockChargeById(trx, found.id))!;
      if (platformStatusOf(charge, now) !== 'ACTIVE') throw errors.badRequest('Only active charges can be changed');
      const at = new Date(expiresDate);
      if (at.getTime() <= now.getTime()) {
        throw errors.validation(
          [{ field: 'expiresDate', in: 'body', message: 'must be in the future' }],
          'expiresDate must be in the future',
        );
      }
      let revised: Charge;
      if (charge.kind === 'cob') {
        // The standard's expiracao is whole seconds (never past the instant asked for); the
        // platform keeps the instant itself.
        const expiracao = Math.floor((at.getTime() - charge.created_at.getTime()) / 1000);
        if (expiracao > MAX_EXPIRES_IN) {
          throw errors.validation(
            [
              {
                field: 'expiresDate',
                in: 'body',
                message: `must be at most ${MAX_EXPIRES_IN} seconds after the charge's creation`,
              },
            ],
            'expiresDate is too far ahead',
          );
        }
        revised = await reviseChargeRecord(
          trx,
          charge,
          { body: withExpiracao(charge.body, expiracao), expiresAt: at },
          now,
        );
      } else {
        // The last payable day is the calendar date as written (civilDateOf).
        const lastDay = civilDateOf(expiresDate);
        if (lastDay < charge.due_date!) {
          throw errors.validation(
            [{ field: 'expiresDate', in: 'body', message: 'cannot be before the due date' }],
            'expiresDate cannot be before the due date',
          );
        }
        const validity = daysBetween(charge.due_date!, lastDay);
        const platform = { ...charge.platform, daysAfterDueDate: validity };
        revised = await reviseChargeRecord(
          trx,
          charge,
          {
            body: withValidity(charge.body, validity),
            validityAfterDue: validity,
            platform,
          },
          now,
        );
      }
      return platformChargeView(trx, revised, this.publicUrl, now);
    });
  }
}

// A cob's body with a new expiracao.
function withExpiracao(body: StoredChargeBody, expiracao: number): StoredChargeBody {
  const cob = expectCobBody(body);
  return { ...cob, calendario: { ...cob.calendario, expiracao } };
}

// A cobv's body with a new validadeAposVencimento.
function withValidity(body: StoredChargeBody, validadeAposVencimento: number): StoredChargeBody {
  const cobv = expectCobvBody(body);
  return { ...cobv, calendario: { ...cobv.calendario, validadeAposVencimento } };
}
