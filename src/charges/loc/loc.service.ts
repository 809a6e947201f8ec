// Payload locations of the standard (loc): create, list, read, unlink from their charge. A
// location serves one charge at a time and keeps its URL (and token) for life.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { errors } from '../../errors/errors';
import type { operations } from '../../../generated/pix.types';
import { pixListQuery, parametros } from '../../lib/paging';
import type { Principal } from '../../identity/principal.types';
import type { Clock } from '../../db/clock';
import { newLocation, relocateCharge } from '../charge-records';
import { findTxidsOfCharges, lockChargeById } from '../charges.repository';
import { findLocation, listLocations, lockLocation, setLocationCharge } from '../locations.repository';
import { locCompletaView, locView } from '../standard/standard.view';

const NOT_FOUND = 'Payload location not found';

export type LocListQuery = operations['listLocs']['parameters']['query'];

// The id of a location as the path carries it (digits), or undefined.
function locationIdOf(s: string): number | undefined {
  if (!/^[0-9]{1,15}$/.test(s)) return undefined;
  return Number(s);
}

export class LocService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async create(principal: Principal, tipoCob: string) {
    if (tipoCob !== 'cob' && tipoCob !== 'cobv') {
      throw errors.validation(
        [{ field: 'tipoCob', message: 'tipoCob must be cob or cobv', value: tipoCob }],
        'tipoCob must be cob or cobv',
      );
    }
    return this.db.transaction().execute(async (trx) => {
      const location = await newLocation(
        trx,
        principal.companyId,
        tipoCob,
        await this.clock.now(principal.companyId, trx),
      );
      return locView(location, this.publicUrl);
    });
  }

  async get(principal: Principal, id: string) {
    const locationId = locationIdOf(id);
    const location =
      locationId === undefined ? undefined : await findLocation(this.db, principal.companyId, locationId);
    if (!location) throw errors.notFound(NOT_FOUND);
    const txids = await findTxidsOfCharges(this.db, location.charge_id ? [location.charge_id] : []);
    return locCompletaView(location, this.publicUrl, location.charge_id ? txids.get(location.charge_id) : undefined);
  }

  async list(principal: Principal, query: LocListQuery) {
    const page = pixListQuery(query);
    const { rows, total } = await listLocations(
      this.db,
      {
        companyId: principal.companyId,
        ...(page.inicio ? { from: page.inicio } : {}),
        ...(page.fim ? { to: page.fim } : {}),
        ...(query.txIdPresente !== undefined ? { txidPresent: query.txIdPresente } : {}),
        ...(query.tipoCob ? { kind: query.tipoCob } : {}),
      },
      page.offset,
      page.itensPorPagina,
    );
    const txids = await findTxidsOfCharges(
      this.db,
      rows.flatMap((r) => (r.charge_id ? [r.charge_id] : [])),
    );
    const extra = {
      ...(query.txIdPresente !== undefined ? { txIdPresente: query.txIdPresente } : {}),
      ...(query.tipoCob ? { tipoCob: query.tipoCob } : {}),
    };
    return {
      parametros: { inicio: query.inicio, fim: query.fim, ...parametros(query, page, total, extra) },
      loc: rows.map((r) => locCompletaView(r, this.publicUrl, r.charge_id ? txids.get(r.charge_id) : undefined)),
    };
  }

  // DELETE /loc/{id}/txid: the location stops serving its charge; the charge keeps its status.
  async unlink(principal: Principal, id: string) {
    const locationId = locationIdOf(id);
    return this.db.transaction().execute(async (trx) => {
      const location = locationId === undefined ? undefined : await lockLocation(trx, principal.companyId, locationId);
      if (!location) throw errors.notFound(NOT_FOUND);
      if (location.charge_id) {
        const charge = await lockChargeById(trx, location.charge_id);
        if (charge) await relocateCharge(trx, charge, null, await this.clock.now(principal.companyId, trx));
        else await setLocationCharge(trx, location.id, null);
      }
      return locView({ ...location, charge_id: null }, this.publicUrl);
    });
  }
}
