// The standard's objects of a charge (CobGerada / CobVGerada, with the Pix that paid it for
// reads) and of a location (PayloadLocation, PayloadLocationCompleta).
import type { Charge, ChargeRevision, Location } from '../../db/schema';
import type { ChargeViewContext } from '../platform/platform.view';
import { isCobvBody, type PixSchemas } from '../../db/documents/charge-body';
import { brCodeOf, locationUrlOf } from '../charge-model';

export type StandardChargeView = PixSchemas['CobGerada'] | PixSchemas['CobVGerada'];

export function locView(location: Location, publicUrl: string): PixSchemas['PayloadLocation'] {
  return {
    id: Number(location.id),
    location: locationUrlOf(publicUrl, location),
    tipoCob: location.kind,
    criacao: location.created_at.toISOString(),
  };
}

export function locCompletaView(
  location: Location,
  publicUrl: string,
  txid: string | undefined,
): PixSchemas['PayloadLocationCompleta'] {
  return { ...locView(location, publicUrl), ...(txid ? { txid } : {}) };
}

// The charge as the standard shows it; `revision` picks a past revision of the object (its
// status as of then); location and BR Code are always the current ones.
export function standardChargeView(
  charge: Charge,
  ctx: ChargeViewContext,
  publicUrl: string,
  revision?: Pick<ChargeRevision, 'revision' | 'status' | 'body'>,
): StandardChargeView {
  const body = revision?.body ?? charge.body;
  const loc = ctx.location ? locCompletaView(ctx.location, publicUrl, charge.txid) : undefined;
  // The fields in the order the answer has always had them.
  const shown = {
    txid: charge.txid,
    revisao: revision?.revision ?? charge.revision,
    ...(loc ? { loc, location: loc.location } : {}),
    status: revision?.status ?? charge.status,
    ...(body.devedor !== undefined ? { devedor: body.devedor } : {}),
  };
  const texts = {
    ...(body.solicitacaoPagador !== undefined ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
    ...(body.infoAdicionais !== undefined ? { infoAdicionais: body.infoAdicionais } : {}),
    ...(ctx.location ? { pixCopiaECola: brCodeOf(publicUrl, charge, ctx.location, ctx.company) } : {}),
  };
  if (!isCobvBody(body))
    return { calendario: body.calendario, ...shown, valor: body.valor, chave: body.chave, ...texts };
  const { calendario, recebedor, valor, chave } = body;
  return { calendario, ...shown, recebedor, valor, chave, ...texts };
}
