// Status changes of recurrences and recurring charges: history, end reason, the cascade of a
// recurrence that ends, and the Pix API events ('PIX_API:REC' {rec}, 'PIX_API:COBR' {cobr}).
import type { Kysely } from 'kysely';
import type { components } from '../../generated/pix.types';
import type {
  CobREnd,
  CobRStatus,
  Company,
  Database,
  RecBody,
  RecEnd,
  RecJourney,
  RecPayer,
  RecRequest,
  RecStatus,
  Recurrence,
  RecurringCharge,
  SolicRecStatus,
} from '../db/schema';
import { recordEvent } from '../events/events.service';
import { findCompany } from '../identity/identity.public';
import * as cobrRepo from './cobr.repository';
import { ENDED_REC, OPEN_REQUEST } from './rec.rules';
import * as repo from './recurrences.repository';
import { ativacaoView, fullCobrView } from './recurrences.view';

type Politica = components['schemas']['RecConfiguracao']['politicaRetentativa'];

// What else changes with a recurrence's status: why it ended, or who approved it and how.
export interface RecStatusChange {
  encerramento?: RecEnd;
  pagador?: RecPayer;
  journey?: RecJourney;
  body?: RecBody;
}

export async function companyOf(db: Kysely<Database>, companyId: string): Promise<Company> {
  const company = await findCompany(db, companyId);
  if (!company) throw new Error(`company ${companyId} of a recurrence does not exist`);
  return company;
}

export async function recordRecEvent(trx: Kysely<Database>, rec: Recurrence, at: Date): Promise<void> {
  const payload: components['schemas']['RecNotification'] = {
    idRec: rec.id_rec,
    status: rec.status,
    atualizacao: rec.history,
    ...(rec.encerramento ? { encerramento: rec.encerramento } : {}),
    ativacao: ativacaoView(rec),
  };
  await recordEvent(trx, { companyId: rec.company_id, type: 'PIX_API:REC', payload: { rec: payload }, at });
}

export async function recordCobrEvent(
  trx: Kysely<Database>,
  cobr: RecurringCharge,
  politica: Politica,
  at: Date,
): Promise<void> {
  const { idRec, txid, status, atualizacao, encerramento, tentativas, pix } = fullCobrView(cobr, politica);
  const payload: components['schemas']['CobRNotification'] = {
    idRec,
    txid,
    status: status!,
    atualizacao,
    ...(encerramento ? { encerramento } : {}),
    ...(tentativas ? { tentativas } : {}),
    ...(pix ? { pix } : {}),
  };
  await recordEvent(trx, { companyId: cobr.company_id, type: 'PIX_API:COBR', payload: { cobr: payload }, at });
}

// Moves a recurrence (locked by the caller) to a new status. An ended recurrence takes its
// open confirmation requests and its unsettled charges with it.
export async function changeRecStatus(
  trx: Kysely<Database>,
  rec: Recurrence,
  status: RecStatus,
  at: Date,
  change: RecStatusChange = {},
): Promise<Recurrence> {
  const saved = await repo.updateRecurrence(trx, rec.id_rec, {
    status,
    history: JSON.stringify([...rec.history, { status, data: at.toISOString() }]),
    ...(change.encerramento ? { encerramento: JSON.stringify(change.encerramento) } : {}),
    ...(change.pagador ? { pagador: JSON.stringify(change.pagador) } : {}),
    ...(change.journey ? { journey: change.journey } : {}),
    ...(change.body ? { body: JSON.stringify(change.body) } : {}),
    updated_at: at,
  });
  await recordRecEvent(trx, saved, at);
  if (ENDED_REC.includes(status)) {
    for (const request of await repo.lockRequestsOfRecurrence(trx, rec.id_rec)) {
      if (OPEN_REQUEST.includes(request.status)) await changeRequestStatus(trx, request, 'CANCELADA', at);
    }
    for (const cobr of await cobrRepo.openCobrsOfRec(trx, rec.id_rec)) {
      await changeCobrStatus(trx, cobr, 'CANCELADA', saved.body.politicaRetentativa, at, {
        cancelamento: {
          solicitante: 'PSP_RECEBEDOR',
          codigo: 'CCLD',
          descricao: `A recorrencia foi encerrada (${status})`,
        },
      });
    }
  }
  return saved;
}

export async function changeRequestStatus(
  trx: Kysely<Database>,
  request: RecRequest,
  status: SolicRecStatus,
  at: Date,
): Promise<RecRequest> {
  return repo.updateRecRequest(trx, request.id, {
    status,
    history: JSON.stringify([...request.history, { status, data: at.toISOString() }]),
  });
}

// The payer's PSP answers a request (locked by the caller): RECEBIDA, if it was not yet, and
// the answer, in one update.
export async function answerRequest(
  trx: Kysely<Database>,
  request: RecRequest,
  answer: 'ACEITA' | 'REJEITADA',
  at: Date,
): Promise<RecRequest> {
  const data = at.toISOString();
  const received = request.status === 'RECEBIDA' ? [] : [{ status: 'RECEBIDA' as const, data }];
  return repo.updateRecRequest(trx, request.id, {
    status: answer,
    history: JSON.stringify([...request.history, ...received, { status: answer, data }]),
  });
}

// Moves a recurring charge (locked by the caller) to a new status; a cancelled charge's
// pending attempt is cancelled too.
export async function changeCobrStatus(
  trx: Kysely<Database>,
  cobr: RecurringCharge,
  status: CobRStatus,
  politica: Politica,
  at: Date,
  encerramento?: CobREnd,
): Promise<RecurringCharge> {
  const attempts = cobr.attempts.map((a) =>
    status === 'CANCELADA' && (a.status === 'SOLICITADA' || a.status === 'AGENDADA')
      ? {
          ...a,
          status: 'CANCELADA' as const,
          atualizacao: [...a.atualizacao, { status: 'CANCELADA' as const, data: at.toISOString() }],
        }
      : a,
  );
  const saved = await cobrRepo.updateCobr(trx, cobr.id, {
    status,
    history: JSON.stringify([...cobr.history, { status, data: at.toISOString() }]),
    attempts: JSON.stringify(attempts),
    ...(encerramento ? { encerramento: JSON.stringify(encerramento) } : {}),
    ...(status !== 'ATIVA' ? { next_attempt_date: null } : {}),
    updated_at: at,
  });
  await recordCobrEvent(trx, saved, politica, at);
  return saved;
}
