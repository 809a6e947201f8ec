// The standard's objects of a charge (CobGerada / CobVGerada, with the Pix that paid it for
// reads) and of a location (PayloadLocation, PayloadLocationCompleta).
import type { Charge, ChargeRevision, Location } from '../../db/schema';
import type { ChargeViewContext } from '../platform/platform.view';
import { brCodeOf, locationUrlOf } from '../charge-model';

export function locView(location: Location, publicUrl: string) {
  return {
    id: Number(location.id),
    location: locationUrlOf(publicUrl, location),
    tipoCob: location.kind,
    criacao: location.created_at.toISOString(),
  };
}

export function locCompletaView(location: Location, publicUrl: string, txid: string | undefined) {
  return { ...locView(location, publicUrl), ...(txid ? { txid } : {}) };
}

// The charge as the standard shows it; `revision` picks a past revision of the object (its
// status as of then); location and BR Code are always the current ones.
export function standardChargeView(
  charge: Charge,
  ctx: ChargeViewContext,
  publicUrl: string,
  revision?: Pick<ChargeRevision, 'revision' | 'status' | 'body'>,
): Record<string, unknown> {
  const body = (revision?.body ?? charge.body) as Record<string, unknown>;
  const { calendario, devedor, recebedor, valor, chave, solicitacaoPagador, infoAdicionais } = body;
  const loc = ctx.location ? locCompletaView(ctx.location, publicUrl, charge.txid) : undefined;
  return {
    calendario,
    txid: charge.txid,
    revisao: revision?.revision ?? charge.revision,
    ...(loc ? { loc, location: loc.location } : {}),
    status: revision?.status ?? charge.status,
    ...(devedor !== undefined ? { devedor } : {}),
    ...(recebedor !== undefined ? { recebedor } : {}),
    valor,
    chave,
    ...(solicitacaoPagador !== undefined ? { solicitacaoPagador } : {}),
    ...(infoAdicionais !== undefined ? { infoAdicionais } : {}),
    ...(ctx.location ? { pixCopiaECola: brCodeOf(publicUrl, charge, ctx.location, ctx.company) } : {}),
  };
}
