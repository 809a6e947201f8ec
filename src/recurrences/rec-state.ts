// Status changes of recurrences and recurring charges: history, end reason, the cascade of a
// recurrence that ends, and the Pix API events ('PIX_API:REC' {rec}, 'PIX_API:COBR' {cobr}).
import type { Kysely } from 'kysely';
import type {
  CobRStatus,
  Company,
  Database,
  RecRequest,
  RecStatus,
  Recurrence,
  RecurringCharge,
  SolicRecStatus,
} from '../db/schema';
import { recordEvent } from '../events/events.repository';
import * as cobrRepo from './cobr.repository';
import * as repo from './recurrences.repository';
import { ativacaoView, fullCobrView } from './recurrences.view';

export const ENDED_REC: RecStatus[] = ['EXPIRADA', 'CANCELADA', 'REJEITADA'];
export const OPEN_REQUEST: SolicRecStatus[] = ['CRIADA', 'ENVIADA', 'RECEBIDA'];

export async function companyOf(db: Kysely<Database>, companyId: string): Promise<Company> {
  return cobrRepo.findCompany(db, companyId);
}

export async function recordRecEvent(trx: Kysely<Database>, rec: Recurrence, at: Date): Promise<void> {
  const payload = {
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
  politica: string,
  at: Date,
): Promise<void> {
  const { idRec, txid, status, atualizacao, encerramento, tentativas, pix } = fullCobrView(cobr, politica) as Record<
    string,
    any
  >;
  const payload = {
    idRec,
    txid,
    status,
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
  encerramento?: Record<string, unknown>,
  pagador?: Record<string, unknown>,
): Promise<Recurrence> {
  const saved = await repo.updateRecurrence(trx, rec.id_rec, {
    status,
    history: JSON.stringify([...rec.history, { status, data: at.toISOString() }]),
    ...(encerramento ? { encerramento: JSON.stringify(encerramento) } : {}),
    ...(pagador ? { pagador: JSON.stringify(pagador) } : {}),
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

// Moves a recurring charge (locked by the caller) to a new status; a cancelled charge's
// pending attempt is cancelled too.
export async function changeCobrStatus(
  trx: Kysely<Database>,
  cobr: RecurringCharge,
  status: CobRStatus,
  politica: string,
  at: Date,
  encerramento?: Record<string, unknown>,
): Promise<RecurringCharge> {
  const attempts = cobr.attempts.map((a) =>
    status === 'CANCELADA' && (a.status === 'SOLICITADA' || a.status === 'AGENDADA')
      ? {
          ...a,
          status: 'CANCELADA' as const,
          atualizacao: [...a.atualizacao, { status: 'CANCELADA', data: at.toISOString() }],
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
