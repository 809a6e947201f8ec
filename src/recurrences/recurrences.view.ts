// The standard's objects of the recurrence family, built from the stored rows.
import type { CobRAttempt, RecLocation, RecRequest, Recurrence, RecurringCharge } from '../db/schema';
import { OWN_ISPB } from '../lib/psp';

function hostOf(publicUrl: string): string {
  return publicUrl.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
}

export function recLocationUrl(publicUrl: string, token: string): string {
  return `${hostOf(publicUrl)}/qr/v2/rec/${token}`;
}

// PayloadLocationRecCompleta (idRec only while it serves a recurrence).
export function locRecView(loc: RecLocation, publicUrl: string) {
  return {
    id: Number(loc.id),
    location: recLocationUrl(publicUrl, loc.token),
    tipo: 'rec' as const,
    criacao: loc.created_at.toISOString(),
    ...(loc.id_rec ? { idRec: loc.id_rec } : {}),
  };
}

// RecPayload: what the payer PSP reads (and what a confirmation request carries).
export function recPayloadView(rec: Recurrence) {
  const b = rec.body;
  return {
    idRec: rec.id_rec,
    vinculo: b.vinculo,
    calendario: b.calendario,
    ...(b.valor ? { valor: b.valor } : {}),
    recebedor: { cnpj: b.recebedor.cnpj, nome: b.recebedor.nome, ispbParticipante: OWN_ISPB },
    politicaRetentativa: b.politicaRetentativa,
    atualizacao: rec.history,
  };
}

export function ativacaoView(rec: Recurrence) {
  const txid = rec.body.ativacao?.dadosJornada?.txid as string | undefined;
  return { tipoJornada: rec.journey, ...(txid ? { dadosJornada: { txid } } : {}) };
}

// RecGerada (created or revised); RecCompleta adds pagador and the confirmation requests.
export function recView(rec: Recurrence, loc: RecLocation | undefined, publicUrl: string, requests?: RecRequest[]) {
  const b = rec.body;
  return {
    idRec: rec.id_rec,
    vinculo: b.vinculo,
    calendario: b.calendario,
    ...(b.valor ? { valor: b.valor } : {}),
    recebedor: b.recebedor,
    politicaRetentativa: b.politicaRetentativa,
    status: rec.status,
    ...(loc ? { loc: locRecView(loc, publicUrl) } : {}),
    atualizacao: rec.history,
    ...(rec.encerramento ? { encerramento: rec.encerramento } : {}),
    ativacao: ativacaoView(rec),
    ...(requests !== undefined && rec.pagador ? { pagador: rec.pagador } : {}),
    ...(requests?.length ? { solicitacao: requests.map(solicRecView) } : {}),
  };
}

// SolicRecCompleta.
export function solicRecView(r: RecRequest) {
  return {
    idSolicRec: r.id,
    idRec: r.id_rec,
    calendario: r.body.calendario,
    destinatario: r.body.destinatario,
    status: r.status,
    atualizacao: r.history,
    recPayload: r.body.recPayload,
  };
}

// CobRGerada: what a creation or a cancellation answers.
export function cobrView(c: RecurringCharge, politicaRetentativa: string) {
  const b = c.body;
  return {
    idRec: c.id_rec,
    txid: c.txid,
    ...(b.infoAdicional !== undefined ? { infoAdicional: b.infoAdicional } : {}),
    calendario: b.calendario,
    valor: b.valor,
    ajusteDiaUtil: b.ajusteDiaUtil,
    ...(b.devedor !== undefined ? { devedor: b.devedor } : {}),
    recebedor: b.recebedor,
    status: c.status,
    politicaRetentativa,
    atualizacao: c.history,
    ...(c.encerramento ? { encerramento: c.encerramento } : {}),
  };
}

// CobRCompleta: the same with its settlement attempts and the Pix received.
export function fullCobrView(c: RecurringCharge, politicaRetentativa: string) {
  return {
    ...cobrView(c, politicaRetentativa),
    ...(c.attempts.length ? { tentativas: c.attempts.map(attemptView) } : {}),
    ...(c.pix?.length ? { pix: c.pix } : {}),
  };
}

function attemptView(a: CobRAttempt) {
  return a;
}
