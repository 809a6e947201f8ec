// The recurring charge (cobr) of a PIX_RECURRING installment, made through the Pix API's own
// rules (CobRService.createWithin) in the caller's transaction: due on the installment's date
// (today when that has passed but its cycle of the recurrence has not), for the installment's
// value, credited to the company's default account, with the subscription's comment for the
// payer.
import type { Kysely } from 'kysely';
import type { components } from '../../generated/pix.types';
import { findDefaultOpenAccount } from '../accounts/accounts.public';
import type { Database, RecStatus, Recurrence, Subscription } from '../db/schema';
import { errors, isDomainError } from '../errors/errors';
import { todayUtc } from '../lib/business-days';
import { cents, formatDecimalAmount } from '../lib/money';
import type { CobRService } from '../recurrences/cobr.service';
import { findRecurrence, cycleOf } from '../recurrences/recurrences.public';

type CobRSolicitada = components['schemas']['CobRSolicitada'];

export function dateOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

// The due date of an installment scheduled for `date`: that date, or today once it has passed,
// as long as today is still in the same cycle of the recurrence (else undefined: missed).
export function dueDateOf(
  { periodicidade, dataInicial }: Pick<Recurrence['body']['calendario'], 'periodicidade' | 'dataInicial'>,
  date: string,
  today: string,
): string | undefined {
  if (date >= today) return date;
  return cycleOf(periodicidade, dataInicial, today) === cycleOf(periodicidade, dataInicial, date) ? today : undefined;
}

export async function cobrRequestOf(
  trx: Kysely<Database>,
  sub: Subscription,
  due: string,
  value: number,
): Promise<CobRSolicitada> {
  const account = await findDefaultOpenAccount(trx, sub.company_id);
  if (!account) throw errors.badRequest('The company has no open account to receive the recurring charge');
  return {
    idRec: sub.id_rec!,
    calendario: { dataDeVencimento: due },
    valor: { original: formatDecimalAmount(cents(value)) },
    ajusteDiaUtil: true,
    recebedor: { conta: account.account_number, agencia: account.branch, tipoConta: 'CORRENTE' },
    ...(sub.comment ? { infoAdicional: sub.comment } : {}),
  };
}

// The job's cobr of the subscription's next installment: the recurrence's status, and the txid
// of the cobr when one could be made (the recurrence APROVADA and the date's cycle not over).
export async function generateInstallmentCobr(
  trx: Kysely<Database>,
  cobrs: CobRService,
  sub: Subscription,
  now: Date,
): Promise<{ recStatus: RecStatus; txid?: string }> {
  const rec = await findRecurrence(trx, sub.company_id, sub.id_rec!);
  if (!rec) throw new Error(`subscription ${sub.id} has no recurrence ${sub.id_rec}`);
  if (rec.status !== 'APROVADA') return { recStatus: rec.status };
  const due = dueDateOf(rec.body.calendario, dateOf(sub.next_charge_at!), todayUtc(now));
  if (due === undefined) return { recStatus: rec.status };
  try {
    const request = await cobrRequestOf(trx, sub, due, Number(sub.value));
    const { cobr } = await cobrs.createWithin(trx, sub.company_id, undefined, request, now);
    return { recStatus: rec.status, txid: cobr.txid };
  } catch (error) {
    // Refused by the standard's rules (thrown before anything was written): the installment
    // is recorded without a charge, to be made again by POST /installments/{id}/cobr.
    if (isDomainError(error)) return { recStatus: rec.status };
    throw error;
  }
}
