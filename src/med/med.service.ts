// Funds recovery (MED): a company that sent a Pix it wants back (scam, account takeover,
// coercion...) opens a recovery for it. Needs the company feature MED_API.
//
// States: CREATED (opened) -> AWAITING_ANALYSIS (sent to the receiving institution) ->
// COMPLETED (analysis done). CREATED and AWAITING_ANALYSIS can be cancelled by the reporter
// (CANCELLED); COMPLETED and CANCELLED are terminal. The central bank's analysis is not
// reachable: in the sandbox POST /api/v1/sandbox/funds-recovery/{id}/advance makes the moves
// it would make. Every move after opening is appended to `events`. No money moves here: a
// recovered amount would come back as a devolution of the original Pix (the money-in area).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, FundsRecovery, FundsRecoveryStatus, StoredRecoveryEvent } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal';
import { FEATURES, hasFeature } from '../identity/identity.service';
import type { Clock } from '../lib/clock';
import { OWN_ISPB } from '../lib/psp';
import * as repo from './med.repository';

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
// Payments whose PIX_OUT must not be recovered (the Pix did not go through).
const REJECTED_PAYMENTS = new Set(['FAILED', 'DENIED']);

export function fundsRecoveryView(r: FundsRecovery) {
  return {
    dictId: r.id,
    rootTransactionId: r.end_to_end_id,
    situationType: r.situation_type as SituationType,
    reportDetails: r.details,
    status: r.status,
    direction: r.direction,
    reporterParticipant: r.reporter_participant,
    creationTime: r.created_at.toISOString(),
    lastModified: r.updated_at.toISOString(),
    events: r.events,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export class MedService {
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
        const rows = await repo.findCompanyTransactions(trx, principal.companyId, input.transactionEndToEndId);
        if (rows.length === 0) {
          // A payment that failed (or was removed) writes no transaction, only its endToEndId.
          const payment = await repo.findCompanyPayment(trx, principal.companyId, input.transactionEndToEndId);
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
        if (await repo.findByTransaction(trx, sent.id)) throw errors.conflict(ALREADY_EXISTS);
        const row = await repo.insertRecovery(trx, {
          id: randomUUID(),
          company_id: principal.companyId,
          account_id: sent.account_id,
          transaction_id: sent.id,
          end_to_end_id: input.transactionEndToEndId,
          situation_type: input.situationType,
          details: input.details,
          status: 'CREATED',
          direction: 'SENT',
          reporter_participant: OWN_ISPB,
          events: JSON.stringify([]),
          created_at: now,
          updated_at: now,
        });
        return fundsRecoveryView(row);
      });
    } catch (error) {
      // A concurrent open for the same transaction won the unique index.
      if (isUniqueViolation(error)) throw errors.conflict(ALREADY_EXISTS);
      throw error;
    }
  }

  async get(principal: Principal, id: string) {
    this.guard(principal);
    const row = await repo.findRecovery(this.db, id, principal.companyId);
    if (!row) throw errors.notFound(NOT_FOUND);
    return fundsRecoveryView(row);
  }

  async cancel(principal: Principal, id: string) {
    this.guard(principal);
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockRecovery(trx, id, principal.companyId);
      if (!row) throw errors.notFound(NOT_FOUND);
      if (TERMINAL.includes(row.status)) throw errors.conflict('Funds recovery is already COMPLETED or CANCELLED');
      return fundsRecoveryView(await this.move(trx, row, 'CANCELLED', 'Cancelled by the reporter'));
    });
  }

  // Sandbox: the analysis of the receiving institution (CREATED -> AWAITING_ANALYSIS -> COMPLETED).
  async advance(id: string, status: 'AWAITING_ANALYSIS' | 'COMPLETED') {
    return this.db.transaction().execute(async (trx) => {
      const row = await repo.lockRecovery(trx, id, undefined);
      if (!row) throw errors.notFound(NOT_FOUND);
      const step = ANALYSIS_MOVES[status]!;
      if (row.status !== step.from)
        throw errors.conflict(`Funds recovery is ${row.status}: only a ${step.from} recovery can move to ${status}`);
      return fundsRecoveryView(await this.move(trx, row, status, step.description));
    });
  }

  private async move(
    trx: Kysely<Database>,
    row: FundsRecovery,
    status: FundsRecoveryStatus,
    description: string,
  ): Promise<FundsRecovery> {
    const now = await this.clock.now(row.company_id, trx);
    const event: StoredRecoveryEvent = { type: 'STATUS_CHANGED', status, description, createdAt: now.toISOString() };
    return repo.updateStatus(trx, row.id, status, [...row.events, event], now);
  }
}
