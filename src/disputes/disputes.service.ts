// Disputes: the payer of a Pix the company received contests it (MED, dispute, chargeback).
// A dispute is addressed by that Pix's endToEndId (one dispute per Pix).
//
// Money: while the dispute is open (CREATED, IN_REVIEW) the disputed value is held in the
// `security` bucket of the receiving account (blockedBySecurity), as much of it as the
// available balance allows at opening (never below zero; `held` keeps the amount). Accepted:
// the held amount goes back to the payer through the Pix rail, as a devolution of the Pix
// (natureza MED_FRAUDE for a MED dispute, else ORIGINAL; REFUND_OUT once the rail settles it).
// Rejected or cancelled by the payer: the held amount is released to the available balance.
//
// States: CREATED -> IN_REVIEW (first evidence uploaded) -> ACCEPTED | REJECTED | CANCELED.
// The payer's bank is not reachable: the sandbox opens and resolves disputes
// (POST /api/v1/sandbox/disputes, POST /api/v1/sandbox/disputes/{id}/resolve). Each change
// records its event (DISPUTE_CREATE, DISPUTE_ACCEPTED, DISPUTE_REJECTED, DISPUTE_CANCELED)
// with payload {dispute, pix} in the same transaction.
import { findReceivedPix, findTransactionById } from '../transactions/transactions.public';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components, operations } from '../../generated/platform.types';
import type { Database, Dispute, DisputeStatus, StoredEvidence } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { recordEvent } from '../events/events.service';
import { type EventSamples, SAMPLE_PREFIX, type SampleContext } from '../events/events.service';
import { errors } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { applyMove, lockAccounts } from '../ledger/ledger.service';
import { lockReceived, refundableTotal, requestPlatformReturn } from '../pixin/pixin.public';
import type { Clock } from '../db/clock';
import type { Cents } from '../lib/money';
import * as repo from './disputes.repository';

const NOT_FOUND = 'Dispute not found';
const ALREADY_EXISTS = 'A dispute already exists for this Pix';
const OPEN: DisputeStatus[] = ['CREATED', 'IN_REVIEW'];
export type DisputeOutcome = 'ACCEPTED' | 'REJECTED' | 'CANCELED';
const EVENT_OF: Record<DisputeOutcome, string> = {
  ACCEPTED: 'DISPUTE_ACCEPTED',
  REJECTED: 'DISPUTE_REJECTED',
  CANCELED: 'DISPUTE_CANCELED',
};

type SandboxDisputeInput = operations['sandboxOpenDispute']['requestBody']['content']['application/json'];
type EvidenceInput = components['schemas']['DisputeEvidencePayload']['documents'][number];

export function disputeView(d: Dispute): components['schemas']['Dispute'] {
  return {
    status: d.status,
    type: d.type as 'MED' | 'DISPUTE' | 'CHARGEBACK',
    ...(d.name !== null ? { name: d.name } : {}),
    ...(d.email !== null ? { email: d.email } : {}),
    ...(d.phone_number !== null ? { phoneNumber: d.phone_number } : {}),
    value: Number(d.value),
    disputeReason: d.reason,
    endToEndId: d.end_to_end_id,
    evidences: d.evidences,
    createdAt: d.created_at.toISOString(),
    updatedAt: d.updated_at.toISOString(),
  };
}

function pixOf(tx: { end_to_end_id: string | null; value: number; created_at: Date }) {
  return { endToEndId: tx.end_to_end_id, value: Number(tx.value), time: tx.created_at.toISOString() };
}

// Sample payloads of the dispute events for test events: a made-up dispute of a made-up Pix
// received, through the views the real events use.
function sampleDisputePayload(ctx: SampleContext, status: DisputeStatus) {
  const stamp = ctx.now.toISOString().replace(/\D/g, '').slice(0, 12);
  const endToEndId = `E99999999${stamp}TEST${ctx.suffix.slice(0, 7).toUpperCase()}`;
  const row: Dispute = {
    id: `${SAMPLE_PREFIX}${ctx.suffix}`,
    company_id: ctx.party.company_id,
    account_id: ctx.party.account_id,
    transaction_id: `${SAMPLE_PREFIX}transaction-${ctx.suffix}`,
    end_to_end_id: endToEndId,
    status,
    type: 'DISPUTE',
    name: 'Pagador de Teste',
    email: 'pagador.teste@example.com',
    phone_number: null,
    value: 1000,
    held: 1000,
    reason: 'Test event: this dispute does not exist',
    evidences: [],
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  return { dispute: disputeView(row), pix: pixOf({ end_to_end_id: endToEndId, value: 1000, created_at: ctx.now }) };
}

export const disputeEventSamples: EventSamples = {
  DISPUTE_CREATE: (ctx) => sampleDisputePayload(ctx, 'CREATED'),
  DISPUTE_ACCEPTED: (ctx) => sampleDisputePayload(ctx, 'ACCEPTED'),
  DISPUTE_REJECTED: (ctx) => sampleDisputePayload(ctx, 'REJECTED'),
  DISPUTE_CANCELED: (ctx) => sampleDisputePayload(ctx, 'CANCELED'),
};

export class DisputesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async get(principal: Principal, endToEndId: string) {
    const row = await repo.findDispute(this.db, endToEndId, principal.companyId);
    if (!row) throw errors.notFound(NOT_FOUND);
    return disputeView(row);
  }

  async list(principal: Principal, query: { start?: string; end?: string }, page: Page) {
    const start = query.start ? new Date(query.start) : undefined;
    const end = query.end ? new Date(query.end) : undefined;
    if (start && end && end < start)
      throw errors.validation(
        [{ field: 'end', in: 'query', message: 'is earlier than start', value: query.end! }],
        'Invalid end',
      );
    const { rows, total } = await repo.listDisputes(
      this.db,
      principal.companyId,
      { ...(start ? { start } : {}), ...(end ? { end } : {}) },
      page.skip,
      page.limit,
    );
    return { disputes: rows.map(disputeView), total };
  }

  // Attaches documents (a document with the correlationID of an earlier one replaces it); the
  // first upload puts a CREATED dispute IN_REVIEW. Answers the documents of this upload.
  async addEvidence(principal: Principal, endToEndId: string, documents: EvidenceInput[]) {
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockDispute(trx, endToEndId, principal.companyId);
      if (!row) throw errors.notFound(NOT_FOUND);
      if (!OPEN.includes(row.status))
        throw errors.badRequest(`You cannot send a evidence for a ${row.status.toLowerCase()} dispute`);
      const added: StoredEvidence[] = documents.map((d) => ({
        url: d.url,
        ...(d.correlationID !== undefined ? { correlationID: d.correlationID } : {}),
        ...(d.description !== undefined ? { description: d.description } : {}),
      }));
      const replaced = new Set(added.map((d) => d.correlationID).filter((c) => c !== undefined));
      const evidences = [
        ...row.evidences.filter((e) => e.correlationID === undefined || !replaced.has(e.correlationID)),
        ...added,
      ];
      await repo.updateDispute(trx, row.id, {
        status: 'IN_REVIEW',
        evidences,
        updated_at: await this.clock.now(principal.companyId, trx),
      });
      return added;
    });
  }

  // Sandbox: the payer of a received Pix opens a dispute about it.
  async open(input: SandboxDisputeInput) {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const pix = await findReceivedPix(trx, input.endToEndId);
        if (!pix) throw errors.missing('pix');
        const now = await this.clock.now(pix.company_id, trx);
        if (await repo.findDispute(trx, input.endToEndId, undefined)) throw errors.conflict(ALREADY_EXISTS);
        const value = input.value ?? Number(pix.value);
        if (value > Number(pix.value)) {
          throw errors.validation(
            [{ field: 'value', in: 'body', message: 'is more than the Pix value', value: String(value) }],
            'The disputed value cannot be more than the Pix value',
          );
        }
        const id = randomUUID();
        const balance = (await lockAccounts(trx, [pix.account_id], now)).get(pix.account_id)!;
        const held = Math.max(0, Math.min(value, balance.available));
        if (held > 0) {
          const hold = await applyMove(trx, {
            moveId: `dispute:${id}:hold`,
            legs: [{ accountId: pix.account_id, kind: 'HOLD', bucket: 'security', amount: held as Cents }],
            at: now,
            transactionId: pix.id,
            description: `Dispute of ${input.endToEndId} held`,
          });
          if (!hold.ok) throw new Error(`holding dispute ${id} failed: ${hold.code}`);
        }
        const payer = ((pix.details as { payer?: { name?: unknown } }).payer ?? {}) as { name?: unknown };
        const name = input.name ?? (typeof payer.name === 'string' ? payer.name : null);
        const row = await repo.insertDispute(trx, {
          id,
          company_id: pix.company_id,
          account_id: pix.account_id,
          transaction_id: pix.id,
          end_to_end_id: input.endToEndId,
          status: 'CREATED',
          type: input.type ?? 'DISPUTE',
          name,
          email: input.email ?? null,
          phone_number: input.phoneNumber ?? null,
          value,
          held,
          reason: input.reason,
          evidences: [],
          created_at: now,
          updated_at: now,
        });
        const dispute = disputeView(row);
        await recordEvent(trx, {
          companyId: row.company_id,
          type: 'DISPUTE_CREATE',
          payload: { dispute, pix: pixOf(pix) },
          at: now,
        });
        return dispute;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.conflict(ALREADY_EXISTS);
      throw error;
    }
  }

  // Sandbox: the dispute ends (see the money rules above).
  async resolve(endToEndId: string, outcome: DisputeOutcome) {
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockDispute(trx, endToEndId, undefined);
      if (!row) throw errors.notFound(NOT_FOUND);
      const now = await this.clock.now(row.company_id, trx);
      if (!OPEN.includes(row.status)) throw errors.conflict(`Dispute is already ${row.status}`);
      const held = Number(row.held);
      if (outcome === 'ACCEPTED') await this.returnHeld(trx, row, held, now);
      else await this.release(trx, row, held, outcome, now);
      const dispute = disputeView(await repo.updateDispute(trx, row.id, { status: outcome, updated_at: now }));
      const pix = await findTransactionById(trx, row.transaction_id);
      await recordEvent(trx, {
        companyId: row.company_id,
        type: EVENT_OF[outcome],
        payload: { dispute, pix: pixOf(pix) },
        at: now,
      });
      return dispute;
    });
  }

  // Accepted: the held money goes back to the payer through the rail, as a devolution of the
  // Pix (natureza MED_FRAUDE for a MED dispute, ORIGINAL otherwise) that the rail settles like
  // any other (REFUND_OUT, the refund events). A part of the Pix refunded meanwhile is counted:
  // at most what is still refundable is returned, the rest of the hold released.
  private async returnHeld(trx: Kysely<Database>, row: Dispute, held: number, now: Date): Promise<void> {
    if (held === 0) return;
    const pix = (await lockReceived(trx, row.end_to_end_id))!;
    const amount = Math.min(held, await refundableTotal(trx, pix));
    await this.release(trx, row, held - amount, 'ACCEPTED', now);
    if (amount === 0) return;
    const devolution = await requestPlatformReturn(
      trx,
      pix,
      {
        id: `DSP${row.id.replace(/-/g, '')}`,
        value: amount,
        natureza: row.type === 'MED' ? 'MED_FRAUDE' : 'ORIGINAL',
        descricao: `Dispute ${row.end_to_end_id}`,
        from: 'security',
      },
      now,
    );
    if (!devolution) throw new Error(`returning dispute ${row.id} failed`);
  }

  private async release(
    trx: Kysely<Database>,
    row: Dispute,
    amount: number,
    outcome: DisputeOutcome,
    now: Date,
  ): Promise<void> {
    if (amount <= 0) return;
    const move = await applyMove(trx, {
      moveId: `dispute:${row.id}:release`,
      legs: [{ accountId: row.account_id, kind: 'RELEASE', bucket: 'security', amount: amount as Cents }],
      at: now,
      transactionId: row.transaction_id,
      description: `Dispute of ${row.end_to_end_id} ${outcome.toLowerCase()}`,
    });
    if (!move.ok) throw new Error(`releasing dispute ${row.id} failed: ${move.code}`);
  }
}
