// Funds recovery (MED): a company that sent a Pix it wants back (scam, account takeover,
// coercion...) opens a recovery for it. Needs the company feature MED_API.
//
// States: CREATED (opened) -> AWAITING_ANALYSIS (sent to the receiving institution, which
// blocks the money) -> COMPLETED (analysis done: AGREED, in favour of the payer, or
// DISAGREED). CREATED and AWAITING_ANALYSIS can be cancelled by the reporter (CANCELLED);
// COMPLETED and CANCELLED are terminal. The central bank's analysis is not reachable: in the
// sandbox POST /api/v1/sandbox/funds-recovery/{id}/advance makes the moves it would make.
// Every move after opening is appended to `events`. The money of each move (block, return
// through the rail, release) is in recovery-money.ts, written in the move's transaction.
// The receiving company, when it is on this server, reads the recovery too (direction RECEIVED).
import { findCompanyPayment } from '../payments/payments.public';
import { findCompanyTransactions } from '../transactions/transactions.public';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type {
  Database,
  FundsRecovery,
  FundsRecoveryAnalysisResult,
  FundsRecoveryStatus,
  FundsRecoveryUpdate,
  StoredRecoveryEvent,
} from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import type { WritePart } from '../db/together';
import { type EventSamples, recordEventsPart, SAMPLE_PREFIX, type SampleContext } from '../events/events.service';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import { FEATURES, hasFeature } from '../identity/identity.service';
import type { Clock } from '../db/clock';
import { OWN_ISPB } from '../lib/psp';
import * as repo from './funds-recovery.repository';
import { blockForAnalysis, recoveryTarget, releaseBlock, returnToPayer } from './recovery-money';

export type SituationType = 'SCAM' | 'ACCOUNT_TAKEOVER' | 'COERCION' | 'FRAUDULENT_ACCESS' | 'OTHER' | 'UNKNOWN';

export interface FundsRecoveryInput {
  transactionEndToEndId: string;
  situationType: SituationType;
  details: string;
}

const NOT_FOUND = 'Funds recovery not found';
const ALREADY_EXISTS = 'A funds recovery already exists for this transaction';
const TERMINAL: FundsRecoveryStatus[] = ['COMPLETED', 'CANCELLED'];
// The moves the sandbox's analysis can make: from -> to.
const ANALYSIS_MOVES: Record<string, { from: FundsRecoveryStatus; description: string }> = {
  AWAITING_ANALYSIS: { from: 'CREATED', description: 'Recovery sent to the receiving institution for analysis' },
  COMPLETED: { from: 'AWAITING_ANALYSIS', description: 'Analysis completed by the receiving institution' },
};
const RESULT_DESCRIPTION: Record<FundsRecoveryAnalysisResult, string> = {
  AGREED: 'in favour of the payer: the blocked value is returned',
  DISAGREED: 'against the payer: the block is released',
};
// Payments whose PIX_OUT must not be recovered (the Pix did not go through).
const REJECTED_PAYMENTS = new Set(['FAILED', 'DENIED']);

// `reader`: the company asking (the reporter sees SENT, the receiving company RECEIVED).
export function fundsRecoveryView(
  r: FundsRecovery,
  reader: string = r.company_id,
): components['schemas']['FundsRecovery'] {
  return {
    dictId: r.id,
    rootTransactionId: r.end_to_end_id,
    situationType: r.situation_type as SituationType,
    reportDetails: r.details,
    status: r.status,
    direction: reader === r.company_id ? r.direction : 'RECEIVED',
    reporterParticipant: r.reporter_participant,
    value: Number(r.value),
    blockedValue: Number(r.blocked),
    recoveredValue: Number(r.recovered),
    ...(r.analysis_result ? { analysisResult: r.analysis_result } : {}),
    ...(r.return_id ? { returnIdentification: r.return_id } : {}),
    creationTime: r.created_at.toISOString(),
    lastModified: r.updated_at.toISOString(),
    events: r.events,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

type RecoveryEvent = 'PIXGATE:FUNDS_RECOVERY_CREATED' | 'PIXGATE:FUNDS_RECOVERY_UPDATED';

// The event of a recovery's change, written in the change's statement: {fundsRecovery} as the
// reporter reads it after the change.
function recoveryEventPart(type: RecoveryEvent, r: FundsRecovery, at: Date): WritePart {
  return recordEventsPart([{ companyId: r.company_id, type, payload: { fundsRecovery: fundsRecoveryView(r) }, at }]);
}

// Sample payloads for test events: a made-up recovery of a made-up Pix the company sent.
function sampleRecovery(ctx: SampleContext, status: FundsRecoveryStatus): FundsRecovery {
  const stamp = ctx.now.toISOString().replace(/\D/g, '').slice(0, 12);
  return {
    id: randomUUID(),
    company_id: ctx.party.company_id,
    account_id: ctx.party.account_id,
    transaction_id: `${SAMPLE_PREFIX}transaction-${ctx.suffix}`,
    end_to_end_id: `E${OWN_ISPB}${stamp}TEST${ctx.suffix.slice(0, 7).toUpperCase()}`,
    situation_type: 'SCAM',
    details: 'Test event: this funds recovery does not exist',
    status,
    direction: 'SENT',
    reporter_participant: OWN_ISPB,
    events:
      status === 'CREATED'
        ? []
        : [
            {
              type: 'STATUS_CHANGED',
              status,
              description: ANALYSIS_MOVES.AWAITING_ANALYSIS!.description,
              createdAt: ctx.now.toISOString(),
            },
          ],
    receiver_company_id: null,
    receiver_account_id: null,
    value: 1000,
    blocked: status === 'CREATED' ? 0 : 1000,
    recovered: 0,
    analysis_result: null,
    return_id: null,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

export const recoveryEventSamples: EventSamples = {
  'PIXGATE:FUNDS_RECOVERY_CREATED': (ctx) => ({ fundsRecovery: fundsRecoveryView(sampleRecovery(ctx, 'CREATED')) }),
  'PIXGATE:FUNDS_RECOVERY_UPDATED': (ctx) => ({
    fundsRecovery: fundsRecoveryView(sampleRecovery(ctx, 'AWAITING_ANALYSIS')),
  }),
};

export class FundsRecoveryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  private guard(principal: Principal): void {
    if (!hasFeature(principal, FEATURES.medApi))
      throw errors.featureRequired('You need feature MED_API to access this endpoint');
  }

  async open(principal: Principal, input: FundsRecoveryInput) {
    this.guard(principal);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const now = await this.clock.now(principal.companyId, trx);
        const sent = await this.sentTransaction(trx, principal.companyId, input.transactionEndToEndId);
        if (await repo.findByTransaction(trx, sent.id)) throw errors.conflict(ALREADY_EXISTS);
        const target = await recoveryTarget(trx, input.transactionEndToEndId, Number(sent.value));
        if (target.value <= 0) throw errors.badRequest('Transaction was already refunded in full');
        const values = {
          id: randomUUID(),
          company_id: principal.companyId,
          account_id: sent.account_id,
          transaction_id: sent.id,
          end_to_end_id: input.transactionEndToEndId,
          situation_type: input.situationType,
          details: input.details,
          status: 'CREATED' as const,
          direction: 'SENT',
          reporter_participant: OWN_ISPB,
          events: JSON.stringify([]),
          receiver_company_id: target.receiver?.company_id ?? null,
          receiver_account_id: target.receiver?.account_id ?? null,
          value: target.value,
          analysis_result: null,
          return_id: null,
          created_at: now,
          updated_at: now,
        };
        const opened: FundsRecovery = { ...values, events: [], blocked: 0, recovered: 0 };
        const row = await repo.insertRecovery(trx, values, [
          recoveryEventPart('PIXGATE:FUNDS_RECOVERY_CREATED', opened, now),
        ]);
        return fundsRecoveryView(row);
      });
    } catch (error) {
      // A concurrent open for the same transaction won the unique index.
      if (isUniqueViolation(error)) throw errors.conflict(ALREADY_EXISTS);
      throw error;
    }
  }

  // The caller's PIX_OUT with this endToEndId that went through.
  private async sentTransaction(trx: Kysely<Database>, companyId: string, endToEndId: string) {
    const rows = await findCompanyTransactions(trx, companyId, endToEndId);
    if (rows.length === 0) {
      // A payment that failed (or was removed) writes no transaction, only its endToEndId.
      const payment = await findCompanyPayment(trx, companyId, endToEndId);
      if (payment && REJECTED_PAYMENTS.has(payment.status)) throw errors.badRequest('Transaction was rejected');
      throw errors.missing('transaction');
    }
    const sent = rows.find((r) => r.type === 'PIX_OUT');
    if (!sent) throw errors.badRequest('Transaction was not sent from your account');
    const detailStatus = (sent.details as { status?: unknown }).status;
    if (
      (sent.payment_status && REJECTED_PAYMENTS.has(sent.payment_status)) ||
      detailStatus === 'REJECTED' ||
      detailStatus === 'FAILED'
    ) {
      throw errors.badRequest('Transaction was rejected');
    }
    return sent;
  }

  async get(principal: Principal, id: string) {
    this.guard(principal);
    const row = await repo.findRecoveryOfParty(this.db, id, principal.companyId);
    if (!row) throw errors.notFound(NOT_FOUND);
    return fundsRecoveryView(row, principal.companyId);
  }

  // Only the reporter cancels; a block placed by the analysis is released.
  async cancel(principal: Principal, id: string) {
    this.guard(principal);
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockRecovery(trx, id, principal.companyId);
      if (!row) throw errors.notFound(NOT_FOUND);
      if (TERMINAL.includes(row.status)) throw errors.conflict('Funds recovery is already COMPLETED or CANCELLED');
      const now = await this.clock.now(row.company_id, trx);
      await releaseBlock(trx, row, Number(row.blocked), 'cancelled', now);
      return fundsRecoveryView(await this.move(trx, row, 'CANCELLED', 'Cancelled by the reporter', now, {}));
    });
  }

  // Sandbox: the analysis of the receiving institution (CREATED -> AWAITING_ANALYSIS ->
  // COMPLETED with its result, AGREED when not given).
  async advance(id: string, status: 'AWAITING_ANALYSIS' | 'COMPLETED', result?: FundsRecoveryAnalysisResult) {
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockRecovery(trx, id, undefined);
      if (!row) throw errors.notFound(NOT_FOUND);
      const step = ANALYSIS_MOVES[status]!;
      if (row.status !== step.from)
        throw errors.conflict(`Funds recovery is ${row.status}: only a ${step.from} recovery can move to ${status}`);
      if (status === 'AWAITING_ANALYSIS' && result)
        throw errors.validation(
          [{ field: 'analysisResult', in: 'body', message: 'is only given with status COMPLETED', value: result }],
          'analysisResult is only given with status COMPLETED',
        );
      const now = await this.clock.now(row.company_id, trx);
      if (status === 'AWAITING_ANALYSIS') {
        const blocked = await blockForAnalysis(trx, row, now);
        return fundsRecoveryView(await this.move(trx, row, status, step.description, now, { blocked }));
      }
      const analysis = result ?? 'AGREED';
      const description = `${step.description}: ${RESULT_DESCRIPTION[analysis]}`;
      if (analysis === 'DISAGREED') {
        await releaseBlock(trx, row, Number(row.blocked), 'analysis disagreed', now);
        return fundsRecoveryView(await this.move(trx, row, status, description, now, { analysis_result: analysis }));
      }
      const { recovered, returnId } = await returnToPayer(trx, row, now);
      return fundsRecoveryView(
        await this.move(trx, row, status, description, now, {
          analysis_result: analysis,
          recovered,
          return_id: returnId,
        }),
      );
    });
  }

  private async move(
    trx: Kysely<Database>,
    row: FundsRecovery,
    status: FundsRecoveryStatus,
    description: string,
    now: Date,
    set: Omit<FundsRecoveryUpdate, 'events' | 'status' | 'updated_at'>,
  ): Promise<FundsRecovery> {
    const event: StoredRecoveryEvent = { type: 'STATUS_CHANGED', status, description, createdAt: now.toISOString() };
    const change = { ...set, status, events: [...row.events, event], updated_at: now };
    const moved: FundsRecovery = { ...row, ...change };
    return repo.updateRecovery(trx, row.id, change, [recoveryEventPart('PIXGATE:FUNDS_RECOVERY_UPDATED', moved, now)]);
  }
}
