// Batches of due-date charges (lotecobv). A batch's set of txids is fixed when it is created:
// PUT must send exactly that set again, PATCH a subset. Each item is then processed as a
// PUT (or PATCH) of its cobv and ends CRIADA, or NEGADA with the problem that refused it.
import type { Kysely } from 'kysely';
import type { CobvBatchItem, Database } from '../../db/schema';
import { DomainError, errors, type FieldIssue } from '../../errors/errors';
import type { operations } from '../../../generated/pix.types';
import { pixListQuery, parametros } from '../../lib/paging';
import type { Principal } from '../../identity/principal.types';
import type { Clock } from '../../db/clock';
import { findChargeByTxid } from '../charges.repository';
import type { StandardChargesService } from '../standard/standard-charges.service';
import type { BatchItemProblem, BatchItemRequest, PixSchemas } from '../../db/documents/charge-body';
import * as repo from './lotecobv.repository';

const NOT_FOUND = 'Batch of due-date charges not found';
const PIX_ERROR_BASE = 'https://pix.bcb.gov.br/api/v2/error/';
const PROBLEM_TITLES: Record<string, string> = {
  CobVOperacaoInvalida: 'Invalid due-date charge',
  CobVNaoEncontrada: 'Due-date charge not found',
  ErroInternoDoServidor: 'Internal server error',
};

type S = PixSchemas;
// An item of PUT (create) or PATCH (revise) of a batch: a cobv request with its txid.
type BatchItemInput = BatchItemRequest | NonNullable<S['LoteCobVRevisado']['cobsv']>[number];

function batchIdOf(s: string): number | undefined {
  return /^[0-9]{1,15}$/.test(s) ? Number(s) : undefined;
}

const invalid = (issues: FieldIssue[], message = 'The batch request is not valid') =>
  errors.validation(issues, issues.length === 1 ? `${message}: ${issues[0]!.message}` : message);

// The standard's problem object of a refused item.
function problemOf(error: unknown): BatchItemProblem {
  const e = error instanceof DomainError ? error : errors.internal();
  const type =
    e.options.pixType ??
    (e.status === 404 ? 'CobVNaoEncontrada' : e.status >= 500 ? 'ErroInternoDoServidor' : 'CobVOperacaoInvalida');
  return {
    type: PIX_ERROR_BASE + type,
    title: PROBLEM_TITLES[type] ?? type,
    status: e.status,
    detail: e.message,
    ...(e.options.details?.length
      ? {
          violacoes: e.options.details.map((d) => ({
            razao: d.message,
            propriedade: d.field,
            ...(d.value !== undefined ? { valor: d.value } : {}),
          })),
        }
      : {}),
  };
}

export class LoteCobvService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly standard: StandardChargesService,
  ) {}

  // PUT /lotecobv/{id}: creates the batch, or resends it with exactly its original set.
  async put(principal: Principal, id: string, input: S['LoteCobVSolicitado']): Promise<void> {
    const { companyId } = principal;
    const batchId = batchIdOf(id);
    if (batchId === undefined) throw invalid([{ field: 'id', message: 'the batch id must be an integer', value: id }]);
    const items = input.cobsv ?? [];
    const issues: FieldIssue[] = [];
    if (!input.descricao?.trim()) issues.push({ field: 'descricao', message: 'descricao must not be empty' });
    if (items.length === 0) issues.push({ field: 'cobsv', message: 'cobsv must have at least one charge' });
    const txids = items.map((i) => i.txid);
    if (new Set(txids).size !== txids.length)
      issues.push({ field: 'cobsv', message: 'each txid may appear once in a batch' });
    if (issues.length) throw invalid(issues);

    await this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(principal.companyId, trx);
      const existing = await repo.lockBatch(trx, companyId, batchId);
      if (existing) {
        const original = (await repo.itemsOfBatch(trx, companyId, batchId)).map((i) => i.txid);
        const same = original.length === txids.length && original.every((t) => txids.includes(t));
        if (!same)
          throw invalid([
            { field: 'cobsv', message: 'a batch must be resent with exactly its original set of charges' },
          ]);
        await repo.updateBatch(trx, companyId, batchId, { description: input.descricao!, updated_at: now });
        for (const item of items)
          await repo.setItemState(trx, companyId, item.txid, {
            status: 'EM_PROCESSAMENTO',
            problem: null,
            request: item,
          });
        return;
      }
      const taken: string[] = [];
      for (const txid of txids) if (await findChargeByTxid(trx, companyId, txid)) taken.push(txid);
      taken.push(...(await repo.txidsInBatches(trx, companyId, txids)));
      if (taken.length) {
        throw invalid(
          taken.map((t) => ({ field: 'cobsv.txid', message: 'a charge with this txid already exists', value: t })),
        );
      }
      await repo.insertBatch(trx, {
        company_id: companyId,
        id: batchId,
        description: input.descricao!,
        created_at: now,
        updated_at: now,
      });
      await repo.insertItems(
        trx,
        items.map((item, position) => ({
          company_id: companyId,
          batch_id: batchId,
          position,
          txid: item.txid,
          status: 'EM_PROCESSAMENTO' as const,
          request: item,
          created_at: now,
        })),
      );
    });
    for (const item of items) await this.process(companyId, batchId, item, 'put');
  }

  // PATCH /lotecobv/{id}: revises some charges of the batch (never adds or removes).
  async revise(principal: Principal, id: string, input: S['LoteCobVRevisado']): Promise<void> {
    const { companyId } = principal;
    const batchId = batchIdOf(id);
    const items = input.cobsv ?? [];
    await this.db.transaction().execute(async (trx) => {
      const batch = batchId === undefined ? undefined : await repo.lockBatch(trx, companyId, batchId);
      if (!batch) throw errors.notFound(NOT_FOUND);
      if (input.descricao !== undefined && !input.descricao.trim())
        throw invalid([{ field: 'descricao', message: 'descricao must not be empty' }]);
      const original = new Set((await repo.itemsOfBatch(trx, companyId, batch.id)).map((i) => i.txid));
      const outside = items.filter((i) => !original.has(i.txid));
      if (outside.length)
        throw invalid(
          outside.map((i) => ({ field: 'cobsv.txid', message: 'this charge is not in the batch', value: i.txid })),
        );
      const txids = items.map((i) => i.txid);
      if (new Set(txids).size !== txids.length)
        throw invalid([{ field: 'cobsv', message: 'each txid may appear once' }]);
      await repo.updateBatch(trx, companyId, batch.id, {
        ...(input.descricao !== undefined ? { description: input.descricao } : {}),
        updated_at: await this.clock.now(principal.companyId, trx),
      });
    });
    for (const item of items) await this.process(companyId, batchId!, item, 'patch');
  }

  // One item, in its own transaction: its cobv is created or changed, or the item is refused.
  private async process(
    companyId: string,
    batchId: number,
    item: BatchItemInput,
    mode: 'put' | 'patch',
  ): Promise<void> {
    const { txid, ...body } = item;
    try {
      await this.db.transaction().execute(async (trx) => {
        if (mode === 'put') await this.standard.putIn(trx, companyId, 'cobv', txid, body, { loteId: batchId });
        else await this.standard.reviseIn(trx, companyId, 'cobv', txid, body);
        await repo.setItemState(trx, companyId, txid, { status: 'CRIADA', problem: null });
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // The item's request was refused: NEGADA with its problem, whether it asked to create the
      // charge or to revise one that exists (which stays as it was).
      await this.db.transaction().execute(async (trx) => {
        await repo.setItemState(trx, companyId, txid, { status: 'NEGADA', problem: problemOf(error) });
      });
    }
  }

  async get(principal: Principal, id: string) {
    const batchId = batchIdOf(id);
    const batch = batchId === undefined ? undefined : await repo.findBatch(this.db, principal.companyId, batchId);
    if (!batch) throw errors.notFound(NOT_FOUND);
    const items = await repo.itemsOfBatch(this.db, principal.companyId, batch.id);
    return this.view(batch, items);
  }

  async list(principal: Principal, query: operations['listLoteCobvs']['parameters']['query']) {
    const page = pixListQuery(query);
    const { rows, total } = await repo.listBatches(
      this.db,
      principal.companyId,
      page.inicio,
      page.fim,
      page.offset,
      page.itensPorPagina,
    );
    const items = await repo.itemsOfBatches(
      this.db,
      principal.companyId,
      rows.map((r) => Number(r.id)),
    );
    const lotes = [];
    for (const batch of rows) lotes.push(await this.view(batch, items.get(Number(batch.id)) ?? []));
    return { parametros: { inicio: query.inicio, fim: query.fim, ...parametros(query, page, total) }, lotes };
  }

  private async view(batch: { id: number; description: string; created_at: Date }, items: CobvBatchItem[]) {
    const created = new Map<string, Date>();
    for (const item of items) {
      if (item.status !== 'CRIADA') continue;
      const charge = await findChargeByTxid(this.db, item.company_id, item.txid);
      if (charge) created.set(item.txid, charge.created_at);
    }
    return {
      id: Number(batch.id),
      descricao: batch.description,
      criacao: batch.created_at.toISOString(),
      cobsv: items.map((i) => ({
        txid: i.txid,
        status: i.status,
        ...(i.problem ? { problema: i.problem } : {}),
        ...(created.has(i.txid) ? { criacao: created.get(i.txid)!.toISOString() } : {}),
      })),
    };
  }
}
