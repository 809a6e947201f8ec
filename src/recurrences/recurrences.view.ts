// The standard's objects of the recurrence family, built from the stored rows, in the
// generated types of the Pix API (generated/pix.types.ts).
import type { components } from '../../generated/pix.types';
import type { RecLocation, RecRequest, Recurrence, RecurringCharge } from '../db/schema';
import { OWN_ISPB } from '../lib/psp';
import { OPEN_REQUEST } from './rec.rules';
import type { RecState } from './recurrences.repository';

type S = components['schemas'];
export type DadosQR = NonNullable<S['RecCompleta']['dadosQR']>;

function hostOf(publicUrl: string): string {
  return publicUrl.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
}

export function recLocationUrl(publicUrl: string, token: string): string {
  return `${hostOf(publicUrl)}/qr/v2/rec/${token}`;
}

// PayloadLocationRecCompleta (idRec only while it serves a recurrence).
export function locRecView(loc: RecLocation, publicUrl: string): S['PayloadLocationRecCompleta'] {
  return {
    id: Number(loc.id),
    location: recLocationUrl(publicUrl, loc.token),
    tipo: 'rec',
    criacao: loc.created_at.toISOString(),
    ...(loc.id_rec ? { idRec: loc.id_rec } : {}),
  };
}

// RecPayload: what the payer PSP reads (and what a confirmation request carries).
export function recPayloadView(rec: Recurrence): S['RecPayload'] {
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

export function ativacaoView(rec: RecState): NonNullable<S['RecAtivacao']['ativacao']> {
  const txid = rec.body.ativacao?.dadosJornada?.txid;
  return { tipoJornada: rec.journey, ...(txid ? { dadosJornada: { txid } } : {}) };
}

// RecGerada (created or revised).
export function recView(rec: Recurrence, loc: RecLocation | undefined, publicUrl: string): S['RecGerada'] {
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
  };
}

// The payer's PSP as far as it is known: the approval's, else an open confirmation request's.
function payerIspbOf(rec: Recurrence, requests: RecRequest[]): string | undefined {
  return (
    rec.pagador?.ispbParticipante ??
    requests.find((r) => OPEN_REQUEST.includes(r.status))?.body.destinatario.ispbParticipante
  );
}

// RecCompletaPesquisada (listed): RecGerada with the payer and the confirmation requests.
export function listedRecView(
  rec: Recurrence,
  loc: RecLocation | undefined,
  publicUrl: string,
  requests: RecRequest[],
): S['RecCompletaPesquisada'] {
  const ispb = payerIspbOf(rec, requests);
  return {
    ...recView(rec, loc, publicUrl),
    status: rec.status,
    ...(ispb ? { ispbParticipante: ispb } : {}),
    ...(rec.pagador ? { pagador: rec.pagador } : {}),
    ...(requests.length ? { solicitacao: requests.map((r) => solicRecView(r, rec)) } : {}),
  };
}

// RecCompleta (read): the same with the composite QR code of the journey asked.
export function fullRecView(
  rec: Recurrence,
  loc: RecLocation | undefined,
  publicUrl: string,
  requests: RecRequest[],
  dadosQR: DadosQR | undefined,
): S['RecCompleta'] {
  return { ...listedRecView(rec, loc, publicUrl, requests), ...(dadosQR ? { dadosQR } : {}) };
}

// SolicRecCompleta: the request, the payer it is addressed to, the recurrence as it is now.
export function solicRecView(r: RecRequest, rec: RecState): S['SolicRecCompleta'] {
  const { destinatario } = r.body;
  const party = 'cpf' in destinatario ? { cpf: destinatario.cpf } : { cnpj: destinatario.cnpj };
  return {
    idSolicRec: r.id,
    idRec: r.id_rec,
    calendario: r.body.calendario,
    destinatario,
    pagador: { ...party, ispbParticipante: destinatario.ispbParticipante },
    rec: { idRec: rec.id_rec, status: rec.status, ativacao: ativacaoView(rec) },
    status: r.status,
    atualizacao: r.history,
    recPayload: r.body.recPayload,
  };
}

// CobRGerada: what a creation or a cancellation answers, with the attempts the GET shows (a
// creation schedules the first at once).
export function cobrView(
  c: RecurringCharge,
  politicaRetentativa: S['RecConfiguracao']['politicaRetentativa'],
): S['CobRGerada'] {
  const b = c.body;
  const view: S['CobRGerada'] = {
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
    ...(c.attempts.length ? { tentativas: c.attempts } : {}),
  };
  return view;
}

// CobRCompleta: the same with its settlement attempts and the Pix received.
export function fullCobrView(
  c: RecurringCharge,
  politicaRetentativa: S['RecConfiguracao']['politicaRetentativa'],
): S['CobRCompleta'] {
  return {
    ...cobrView(c, politicaRetentativa),
    ...(c.pix?.length ? { pix: c.pix } : {}),
  };
}
