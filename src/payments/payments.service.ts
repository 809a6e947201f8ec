// Outgoing payments. Creating one resolves its destination and stores it CREATED (nothing
// debited); approving it (POST /payment/approve, or autoApprove on create) runs in one
// transaction under the payer's balance lock: limits, a hold of the amount, the rail, then
// the hold settled (CONFIRMED, a PIX_OUT transaction) or released (FAILED, reason kept), and
// the movement event. A refusal before sending (balance, limits) changes nothing: the
// payment stays CREATED, or with autoApprove is not stored at all.
import { type AccountWithCompany } from '../accounts/accounts.public';
import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, PaymentRow } from '../db/schema';
import { isUniqueViolation, retryOnConflict } from '../db/errors';
import { recordEvent, recordEventsPart } from '../events/events.service';
import { errors, isDomainError } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { newEndToEndId } from '../lib/ids';
import { OWN_ISPB } from '../lib/psp';
import { boletoOutPart } from '../boletos/boletos.service';
import {
  applyMoves,
  counterLeg,
  type LockedBalances,
  lockAccounts,
  type Move,
  OUTSIDE,
} from '../ledger/ledger.service';
import type { LimitsService } from '../limits/limits.service';
import { localDate } from '../limits/limits.public';
import { type Destination, type Rail } from '../rail/rail.public';
import { insertTransactionPart } from '../transactions/transactions.public';
import { writeTogether } from '../db/together';
import type { CompanyDirectory } from '../identity/companies.service';
import { cents, type Cents } from '../lib/money';
import { describeBoleto } from './boletos';
import {
  type CreatePaymentBody,
  type PaymentCreateRequest,
  type PaymentDestinations,
  withPaymentType,
} from './destinations';
import * as repo from './payments.repository';
import {
  partyView,
  payerOf,
  paymentResult,
  paymentTransactionView,
  paymentView,
  type PaymentResult,
} from './payments.view';

export const INSUFFICIENT_BALANCE = 'Account does not have enough balance to complete the operation';
// CREATED payments not approved within this time are removed (status DENIED).
export const APPROVAL_WINDOW_MS = 7 * 24 * 3600 * 1000;
// Why a payment not approved within the window is removed (OPENPIX:MOVEMENT_REMOVED's error).
export const NOT_APPROVED_IN_TIME = 'Not approved within 7 days';

// The canonical JSON of a create body (keys sorted; autoApprove absent is false).
export function requestHash(body: CreatePaymentBody): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, canonical(x)]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical({ ...body, autoApprove: body.autoApprove === true })))
    .digest('hex');
}

export class PaymentsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly rail: Rail,
    private readonly limits: LimitsService,
    private readonly destinations: PaymentDestinations,
    private readonly companies: CompanyDirectory,
  ) {}

  // A correlationID already used answers that payment (the same body) or a refusal: the unique
  // index says so when this one is inserted, so a new payment reads nothing before it.
  async create(principal: Principal, request: PaymentCreateRequest): Promise<PaymentResult> {
    const body = withPaymentType(request);
    const hash = requestHash(body);
    const prepared = await this.prepare(principal, body, hash);
    if (prepared.kind === 'existing') return prepared.result;
    const { source, resolved } = prepared;
    const id = `pay_${randomUUID().replace(/-/g, '')}`;
    try {
      return await retryOnConflict(() =>
        this.db.transaction().execute(async (trx) => {
          const at = await this.clock.now(principal.companyId, trx);
          const inserted = await repo.insertPayment(trx, {
            id,
            company_id: principal.companyId,
            account_id: source.id,
            correlation_id: body.correlationID,
            type: body.type,
            status: 'CREATED',
            value: resolved.value,
            request_hash: hash,
            request: JSON.stringify(resolved.echo),
            destination: JSON.stringify(resolved.destination),
            comment: body.comment?.trim() || null,
            metadata: body.metadata && Object.keys(body.metadata).length ? JSON.stringify(body.metadata) : null,
            end_to_end_id: resolved.endToEndId ?? null,
            transaction_id: null,
            failure_code: null,
            failure_reason: null,
            created_at: at,
            updated_at: at,
            settled_at: null,
          });
          const row = withPayer(inserted, source);
          return paymentResult(body.autoApprove ? await this.execute(trx, row, at) : row);
        }),
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const raced = await repo.findByCorrelation(this.db, principal.companyId, body.correlationID);
      if (raced) return this.sameOrRefuse(raced, hash);
      throw errors.badRequest('pixKeyEndToEndId was already used by another payment');
    }
  }

  // The source account and the destination of a new payment. When either is refused (the
  // charge paid since, the key deleted, the account closed), a payment already made with this
  // correlationID is the answer: a repeat of a request that succeeded answers what it did, with
  // no second debit, whatever happened to the destination since. The lookup costs a statement
  // only on that refusal path.
  private async prepare(principal: Principal, body: CreatePaymentBody, hash: string) {
    try {
      const source = await this.sourceAccount(principal, body.sourceAccountId);
      const today = localDate(await this.clock.now(principal.companyId));
      const resolved = await this.destinations.resolve(principal, body, today);
      return { kind: 'new' as const, source, resolved };
    } catch (err) {
      if (!isDomainError(err)) throw err;
      const existing = await repo.findByCorrelation(this.db, principal.companyId, body.correlationID);
      if (!existing) throw err;
      return { kind: 'existing' as const, result: this.sameOrRefuse(existing, hash) };
    }
  }

  async approve(principal: Principal, correlationID: string): Promise<PaymentResult> {
    return retryOnConflict(() =>
      this.db.transaction().execute(async (trx) => {
        const row = await repo.lockByCorrelation(trx, principal.companyId, correlationID);
        if (!row) throw errors.missing('payment');
        if (row.status !== 'CREATED')
          throw errors.conflict(`Payment is not awaiting approval: its status is ${row.status}`);
        return paymentResult(await this.execute(trx, row, await this.clock.now(principal.companyId, trx)));
      }),
    );
  }

  // POST /boleto/validate: the boleto as of today (Brasília), or 400 naming the failing check.
  async validateBoleto(principal: Principal, barcode: string) {
    const described = describeBoleto(barcode, localDate(await this.clock.now(principal.companyId)));
    if (!described.ok) throw errors.badRequest(described.reason);
    return described.value.view;
  }

  async get(principal: Principal, id: string): Promise<PaymentResult> {
    const row = await repo.findPayment(this.db, principal.companyId, id);
    if (!row) throw errors.missing('payment');
    return paymentResult(row);
  }

  async list(principal: Principal, page: Page) {
    const { rows, total } = await repo.listPayments(this.db, principal.companyId, page.skip, page.limit);
    return { payments: rows.map(paymentResult), total };
  }

  // Removes CREATED payments left unapproved past the approval window (DENIED, MOVEMENT_REMOVED).
  async expireStale(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const stale = await repo.claimStale(trx, APPROVAL_WINDOW_MS, 100);
      for (const row of stale) {
        const now = await this.clock.now(row.company_id, trx);
        const reason = NOT_APPROVED_IN_TIME;
        await repo.updatePayment(trx, row.id, {
          status: 'DENIED',
          failure_code: 'EXPIRED',
          failure_reason: reason,
          updated_at: now,
        });
        const removed = {
          ...row,
          status: 'DENIED' as const,
          failure_code: 'EXPIRED',
          failure_reason: reason,
          updated_at: now,
        };
        await recordEvent(trx, {
          companyId: row.company_id,
          type: 'OPENPIX:MOVEMENT_REMOVED',
          payload: { payment: paymentView(removed), error: reason },
          at: now,
        });
      }
      return stale.length;
    });
  }

  private sameOrRefuse(existing: repo.PaymentWithPayer, hash: string): PaymentResult {
    if (existing.request_hash !== hash)
      throw errors.badRequest('Payment with this correlationID already exists with a different body');
    return paymentResult(existing);
  }

  private async sourceAccount(principal: Principal, sourceAccountId: string | undefined) {
    const accounts = await this.companies.accounts(principal.companyId);
    const account = sourceAccountId
      ? accounts.find((a) => a.id === sourceAccountId)
      : accounts.find((a) => a.is_default && a.status === 'OPEN');
    if (!account)
      throw errors.badRequest(sourceAccountId ? 'Source account not found' : 'The company has no open default account');
    if (account.status !== 'OPEN') throw errors.badRequest('The source account is closed');
    return account;
  }

  // Sends a CREATED payment (locked by the caller) and answers it CONFIRMED or FAILED: the
  // balances locked, the limits read, then the outcome written in two statements (the ledger's
  // hold and its settlement or release; the transaction, the payment and its event).
  private async execute(trx: Kysely<Database>, row: repo.PaymentWithPayer, at: Date): Promise<repo.PaymentWithPayer> {
    if (row.payer_account_status !== 'OPEN') throw errors.badRequest('The source account is closed');
    const destination = row.destination;
    // Both balances of a local payment are locked up front in id order, so payments crossing
    // between two companies never wait on each other in opposite orders.
    const locked = await lockAccounts(
      trx,
      [row.account_id, ...(destination.where === 'local' && destination.accountId ? [destination.accountId] : [])],
      at,
    );
    const refusal = this.rail.payerRefusal(destination);
    if (refusal === 'LIMIT_EXCEEDED')
      throw errors.badRequest('Value exceeds the Pix limits of the account (sandbox destination limit-exceeded)');
    // The limits are Pix limits: a boleto is not a Pix.
    if (row.type !== 'BOLETO') await this.limits.check(trx, row.account_id, row.value, at);
    if (refusal === 'NOT_ENOUGH_BALANCE') throw errors.badRequest(INSUFFICIENT_BALANCE);
    const available = locked.get(row.account_id)?.available ?? 0;
    if (available < row.value) throw errors.badRequest(INSUFFICIENT_BALANCE);
    const endToEndId = row.end_to_end_id ?? newEndToEndId(OWN_ISPB, at);
    const payer = payerOf(row);
    const outcome = await this.rail.send(trx, {
      endToEndId,
      value: cents(row.value),
      at,
      payer,
      destination,
      ...(row.comment ? { comment: row.comment } : {}),
    });
    return outcome.ok
      ? this.confirm(trx, { row, destination, endToEndId, at }, locked)
      : this.fail(trx, { row, destination, endToEndId, at }, locked, outcome);
  }

  private async confirm(trx: Kysely<Database>, sent: Sent, locked: LockedBalances): Promise<repo.PaymentWithPayer> {
    const { row, destination, endToEndId, at } = sent;
    const amount = row.value as Cents;
    const transactionId = randomUUID();
    const moved = await applyMoves(
      trx,
      [
        holdOf(row, at),
        {
          moveId: `payment:${row.id}:settle`,
          legs: [{ accountId: row.account_id, kind: 'DEBIT', bucket: 'blocked', amount }, counterLeg(OUTSIDE, amount)],
          at,
          transactionId,
          description: `Payment ${row.correlation_id}`,
        },
      ],
      locked,
    );
    if (!moved.ok) throw errors.badRequest(INSUFFICIENT_BALANCE);
    const set = {
      status: 'CONFIRMED' as const,
      end_to_end_id: endToEndId,
      transaction_id: transactionId,
      settled_at: at,
      updated_at: at,
    };
    const done = { ...row, ...set };
    await writeTogether(trx, [
      insertTransactionPart({
        id: transactionId,
        company_id: row.company_id,
        account_id: row.account_id,
        type: row.type === 'BOLETO' ? 'BILL_PAYMENT' : 'PIX_OUT',
        value: row.value,
        end_to_end_id: endToEndId,
        charge_id: null,
        payment_id: row.id,
        created_at: at,
        details: transactionDetailsOf(row, destination),
      }),
      repo.updatePaymentPart(row.id, set),
      // A boleto paid is a BOLETO_OUT of the company's boleto transactions too.
      ...(row.type === 'BOLETO' && row.request.boletoBarcode
        ? [
            boletoOutPart({
              companyId: row.company_id,
              accountId: row.account_id,
              paymentId: row.id,
              value: row.value,
              boleto: row.request.boletoBarcode,
              at,
            }),
          ]
        : []),
      recordEventsPart([
        {
          companyId: row.company_id,
          type: 'OPENPIX:MOVEMENT_CONFIRMED',
          payload: { payment: paymentView(done), transaction: paymentTransactionView(done)! },
          at,
        },
      ]),
    ]);
    return done;
  }

  private async fail(
    trx: Kysely<Database>,
    sent: Sent,
    locked: LockedBalances,
    outcome: { code: string; reason: string },
  ): Promise<repo.PaymentWithPayer> {
    const { row, endToEndId, at } = sent;
    const amount = row.value as Cents;
    const moved = await applyMoves(
      trx,
      [
        holdOf(row, at),
        {
          moveId: `payment:${row.id}:release`,
          legs: [{ accountId: row.account_id, kind: 'RELEASE', bucket: 'blocked', amount }],
          at,
          description: `Payment ${row.correlation_id} failed: ${outcome.code}`,
        },
      ],
      locked,
    );
    if (!moved.ok) throw errors.badRequest(INSUFFICIENT_BALANCE);
    const set = {
      status: 'FAILED' as const,
      end_to_end_id: endToEndId,
      failure_code: outcome.code,
      failure_reason: outcome.reason,
      settled_at: at,
      updated_at: at,
    };
    const done = { ...row, ...set };
    const error = `${outcome.code}: ${outcome.reason}`;
    await writeTogether(trx, [
      repo.updatePaymentPart(row.id, set),
      recordEventsPart([
        {
          companyId: row.company_id,
          type: 'OPENPIX:MOVEMENT_FAILED',
          payload: { payment: paymentView(done), transaction: paymentTransactionView(done)!, error },
          at,
        },
      ]),
    ]);
    return done;
  }
}

interface Sent {
  row: repo.PaymentWithPayer;
  destination: Destination;
  endToEndId: string;
  at: Date;
}

// The payment's value set aside until the rail answers.
function holdOf(row: repo.PaymentWithPayer, at: Date): Move {
  return {
    moveId: `payment:${row.id}:hold`,
    legs: [{ accountId: row.account_id, kind: 'HOLD', bucket: 'blocked', amount: row.value as Cents }],
    at,
    description: `Payment ${row.correlation_id} held`,
  };
}

function transactionDetailsOf(row: repo.PaymentWithPayer, destination: Destination) {
  return {
    destination: {
      name: destination.name,
      taxID: destination.taxId,
      pixKey: destination.pixKey,
      pixKeyType: destination.pixKeyType,
      ispb: destination.ispb,
      bank: destination.bank,
      branch: destination.branch,
      account: destination.account,
      accountType: destination.accountType,
    },
    debitParty: partyView(payerOf(row)),
    creditParty: partyView(destination),
    ...(destination.txid ? { txid: destination.txid } : {}),
    ...(row.comment ? { comment: row.comment } : {}),
    payment: { correlationID: row.correlation_id, type: row.type },
  };
}

// A payment row with its payer's account, as the account was read.
function withPayer(row: PaymentRow, account: AccountWithCompany): repo.PaymentWithPayer {
  return {
    ...row,
    payer_branch: account.branch,
    payer_account_number: account.account_number,
    payer_account_status: account.status,
    payer_tax_id: account.tax_id,
    payer_official_name: account.official_name,
    payer_trade_name: account.trade_name,
  };
}
