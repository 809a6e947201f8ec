// Money in, as the two APIs see it: received Pix and their devolutions (Pix API), refunds of
// a charge (platform API), the settlement job. One devolution model behind both.
import type { Kysely } from 'kysely';
import type { components as pixSchemas, operations } from '../../generated/pix.types';
import type { components as platformSchemas, operations as platformOperations } from '../../generated/platform.types';
import { findCompanyCharge } from '../charges/charges.public';
import type { Config } from '../config';
import type { Database, PixDevolution, PixReceived } from '../db/schema';
import { errors } from '../errors/errors';
import { type Page, parametros, pixListQuery } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { randomAlphanumeric } from '../lib/ids';
import { parseDecimalAmount } from '../lib/money';
import { DevolutionSettlement } from './devolution-settlement';
import { type DevolutionInput, type DevolutionRefusalCode, refundableOf, requestDevolution } from './devolution.rules';
import * as repo from './pixin.repository';
import { devolucaoView, pixRefundView, pixView, refundView } from './pixin.view';
import { MAX_PIX_CENTS, SandboxPayService } from './sandbox-pay.service';

const DEVOLUTION_ID = /^[a-zA-Z0-9]{1,35}$/;

type PixListInput = operations['listPix']['parameters']['query'];
type DevolucaoBody = pixSchemas['schemas']['DevolucaoSolicitada'];
type ChargeRefundInput = platformSchemas['schemas']['ChargeRefundPayload'];
type RefundInput = platformSchemas['schemas']['RefundPayload'];
type RefundListQuery = NonNullable<platformOperations['listRefunds']['parameters']['query']>;

export class PixInService {
  readonly settlement: DevolutionSettlement;
  readonly sandbox: SandboxPayService;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    config: Pick<Config, 'publicUrl'>,
  ) {
    this.settlement = new DevolutionSettlement(db, clock, config.publicUrl);
    this.sandbox = new SandboxPayService(db, {
      publicUrl: config.publicUrl,
      now: (companyId, trx) => clock.now(companyId, trx),
    });
  }

  // Pix API: received Pix --------------------------------------------------------------------

  async getPix(principal: Principal, e2eid: string) {
    const pix = await repo.findReceivedOfCompany(this.db, principal.companyId, e2eid);
    if (!pix) throw errors.missing('pix');
    const devolutions = await repo.devolutionsOf(this.db, [pix.end_to_end_id]);
    return pixView(pix, devolutions.get(pix.end_to_end_id)!);
  }

  async listPix(principal: Principal, query: PixListInput) {
    const page = pixListQuery(query);
    const filter: repo.ReceivedListFilter = {
      companyId: principal.companyId,
      ...(page.inicio ? { from: page.inicio } : {}),
      ...(page.fim ? { to: page.fim } : {}),
      ...(query.txid !== undefined ? { txid: query.txid } : {}),
      ...(query.txIdPresente !== undefined ? { txidPresent: query.txIdPresente } : {}),
      ...(query.devolucaoPresente !== undefined ? { devolutionPresent: query.devolucaoPresente } : {}),
      ...(query.cpf ? { payerTaxId: query.cpf } : query.cnpj ? { payerTaxId: query.cnpj } : {}),
    };
    const { rows, total } = await repo.listReceived(this.db, filter, page.offset, page.itensPorPagina);
    const devolutions = await repo.devolutionsOf(
      this.db,
      rows.map((r) => r.end_to_end_id),
    );
    const extra = {
      ...(query.txid !== undefined ? { txid: query.txid } : {}),
      ...(query.txIdPresente !== undefined ? { txIdPresente: query.txIdPresente } : {}),
      ...(query.devolucaoPresente !== undefined ? { devolucaoPresente: query.devolucaoPresente } : {}),
      ...(query.cpf ? { cpf: query.cpf } : {}),
      ...(query.cnpj ? { cnpj: query.cnpj } : {}),
    };
    return {
      parametros: { inicio: query.inicio, fim: query.fim, ...parametros(query, page, total, extra) },
      pix: rows.map((r) => pixView(r, devolutions.get(r.end_to_end_id)!)),
    };
  }

  // Pix API: devolutions ---------------------------------------------------------------------

  async putDevolucao(principal: Principal, e2eid: string, id: string, body: DevolucaoBody) {
    const parsed = parseDecimalAmount(body.valor);
    if (!parsed.ok || parsed.value <= 0) {
      throw errors.badRequest('The devolution amount is not valid', [
        { field: 'valor', message: 'must be a positive amount like "12.34"', value: String(body.valor) },
      ]);
    }
    const input: DevolutionInput = {
      value: parsed.value,
      natureza: body.natureza ?? 'ORIGINAL',
      descricao: body.descricao ? body.descricao : null,
    };
    return this.db.transaction().execute(async (trx) => {
      const pix = await repo.lockReceivedOfCompany(trx, principal.companyId, e2eid);
      if (!pix) throw errors.missing('pix');
      const result = await requestDevolution(trx, pix, id, input, await this.clock.now(principal.companyId, trx));
      if (!result.ok)
        throw errors.badRequest(result.message, [
          { field: result.field, message: result.message, value: result.value },
        ]);
      return devolucaoView(result.devolution);
    });
  }

  async getDevolucao(principal: Principal, e2eid: string, id: string) {
    const devolution = await repo.findDevolution(this.db, principal.companyId, e2eid, id);
    if (!devolution) {
      const pix = await repo.findReceivedOfCompany(this.db, principal.companyId, e2eid);
      throw pix
        ? errors.notFound(`The Pix has no devolution ${id}`, 'PixDevolucaoNaoEncontrada')
        : errors.missing('pix', 'PixNaoEncontrado');
    }
    return devolucaoView(devolution);
  }

  // The Pix that paid a charge (by its transactionID), each with its refunds, in one
  // statement (the dashboard's charge page).
  async receivedOfCharge(principal: Principal, transactionId: string) {
    const rows = await repo.findReceivedOfTxidWithDevolutions(this.db, principal.companyId, transactionId);
    return rows.map(({ pix, devolutions }) => ({
      endToEndId: pix.end_to_end_id,
      value: pix.value,
      payerName: pix.payer_name,
      payerTaxId: pix.payer_tax_id,
      infoPagador: pix.info_pagador,
      settledAt: pix.settled_at.toISOString(),
      refunds: devolutions.map(pixRefundView),
    }));
  }

  // Platform API: refunds of a charge --------------------------------------------------------

  async listChargeRefunds(principal: Principal, chargeId: string, page: Page) {
    const charge = await findCompanyCharge(this.db, principal.companyId, chargeId);
    if (!charge) throw errors.missing('charge');
    const { rows, total } = await repo.listChargeDevolutions(
      this.db,
      principal.companyId,
      charge.id,
      page.skip,
      page.limit,
    );
    return { refunds: rows.map(refundView), total };
  }

  // Refunds the Pix that paid the charge (natureza ORIGINAL).
  async createChargeRefund(principal: Principal, chargeId: string, input: ChargeRefundInput) {
    const devolution = await this.refundOnce(principal, input, CHARGE_REFUSALS, async (trx) => {
      const charge = await findCompanyCharge(trx, principal.companyId, chargeId);
      if (!charge) throw errors.missing('charge');
      const pix = await repo.lockReceivedOfCharge(trx, principal.companyId, charge.id);
      if (!pix)
        return {
          pix: undefined,
          owns: (d) => d.charge_id === charge.id,
          missing: 'Only completed charges can be refunded',
        };
      return { pix, owns: (d) => d.charge_id === charge.id };
    });
    return refundView(devolution);
  }

  // Platform API: refunds of any received Pix -------------------------------------------------

  async createRefund(principal: Principal, input: RefundInput) {
    const devolution = await this.refundOnce(principal, input, TRANSACTION_REFUSALS, async (trx) => {
      const pix = await repo.lockReceivedOfCompany(trx, principal.companyId, input.transactionEndToEndId);
      if (!pix) throw errors.missing('transaction');
      return { pix, owns: (d) => d.end_to_end_id === pix.end_to_end_id };
    });
    return pixRefundView(devolution);
  }

  async getRefund(principal: Principal, id: string) {
    const devolution = await repo.findDevolutionByAnyId(this.db, principal.companyId, id);
    if (!devolution) throw errors.missing('refund');
    return pixRefundView(devolution);
  }

  async listRefunds(principal: Principal, query: RefundListQuery, page: Page) {
    const range = {
      from: query.start ? new Date(query.start) : undefined,
      to: query.end ? new Date(query.end) : undefined,
    };
    if (range.from && range.to && range.from > range.to)
      throw errors.validation([{ field: 'end', in: 'query', message: 'must not be before start' }]);
    const { rows, total } = await repo.listCompanyDevolutions(
      this.db,
      principal.companyId,
      range,
      page.skip,
      page.limit,
    );
    return { refunds: rows.map(pixRefundView), total };
  }

  // A platform refund (natureza ORIGINAL) of the Pix `locate` finds, once per correlationID:
  // the same request again answers the existing refund, another one with that id is refused.
  // Its devolution id is the correlationID when it fits the standard's id, else a generated one.
  private async refundOnce(
    principal: Principal,
    input: ChargeRefundInput,
    refusals: Refusals,
    locate: (trx: Kysely<Database>) => Promise<RefundTarget>,
  ): Promise<PixDevolution> {
    if (input.value !== undefined && (!Number.isSafeInteger(input.value) || input.value > MAX_PIX_CENTS)) {
      throw errors.validation([{ field: 'value', message: `must be an integer from 1 to ${MAX_PIX_CENTS} (cents)` }]);
    }
    return this.db.transaction().execute(async (trx) => {
      await repo.advisoryLock(trx, `refund:${principal.companyId}:${input.correlationID}`);
      const target = await locate(trx);
      const existing = await repo.findDevolutionByCorrelationId(trx, principal.companyId, input.correlationID);
      if (existing) {
        const same =
          target.owns(existing) &&
          (input.value === undefined || input.value === existing.value) &&
          (existing.descricao ?? null) === (input.comment || null);
        if (same) return existing;
        throw errors.badRequest('A refund with this correlationID already exists');
      }
      const pix = target.pix;
      if (!pix) throw errors.badRequest(target.missing ?? 'Nothing to refund');
      const value = input.value ?? (await refundableOf(trx, pix)).ORIGINAL;
      if (value <= 0) throw errors.badRequest(refusals.NOTHING_LEFT);
      const fits =
        DEVOLUTION_ID.test(input.correlationID) &&
        !(await repo.findDevolution(trx, principal.companyId, pix.end_to_end_id, input.correlationID));
      const id = fits ? input.correlationID : randomAlphanumeric(32);
      const result = await requestDevolution(
        trx,
        pix,
        id,
        { value, natureza: 'ORIGINAL', descricao: input.comment || null, correlationId: input.correlationID },
        await this.clock.now(principal.companyId, trx),
      );
      if (!result.ok) throw errors.badRequest(refusals[result.code] ?? result.message);
      return result.devolution;
    });
  }
}

// What a platform refund refunds: the Pix (absent when there is none yet, with the message
// saying why) and which earlier refunds belong to the same thing.
interface RefundTarget {
  pix: PixReceived | undefined;
  owns: (d: PixDevolution) => boolean;
  missing?: string;
}

type Refusals = Partial<Record<DevolutionRefusalCode, string>> & { NOTHING_LEFT: string };

const CHARGE_REFUSALS: Refusals = {
  ABOVE_REFUNDABLE: 'Refund value exceeds the refundable value of the charge',
  OUTSIDE_WINDOW: 'The refund window of 90 days from the payment has ended',
  INSUFFICIENT_BALANCE: 'The available balance of the account does not cover the refund',
  NOTHING_LEFT: 'The charge has no refundable value left',
};

const TRANSACTION_REFUSALS: Refusals = {
  ABOVE_REFUNDABLE: 'Refund value exceeds the refundable value of the transaction',
  OUTSIDE_WINDOW: CHARGE_REFUSALS.OUTSIDE_WINDOW,
  INSUFFICIENT_BALANCE: CHARGE_REFUSALS.INSUFFICIENT_BALANCE,
  NOTHING_LEFT: 'The transaction has no refundable value left',
};
