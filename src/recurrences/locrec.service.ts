// Recurrence payload locations (locrec): create (no body), list, read, unlink from their
// recurrence. A location serves one recurrence at a time and keeps its URL for life.
import type { Kysely } from 'kysely';
import type { components, operations } from '../../generated/pix.types';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import { parametros, pixListQuery } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { newAccessToken } from '../lib/ids';
import * as repo from './recurrences.repository';
import { locRecView } from './recurrences.view';

const NOT_FOUND = 'Recurrence payload location not found';

type S = components['schemas'];
export type LocRecListQuery = operations['listLocRecs']['parameters']['query'];

// The id of a location as the path carries it (digits), or undefined.
export function recLocationIdOf(s: string | number): number | undefined {
  const str = String(s);
  if (!/^[0-9]{1,15}$/.test(str)) return undefined;
  return Number(str);
}

export class LocRecService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async create(principal: Principal) {
    return this.db.transaction().execute(async (trx) => {
      const loc = await repo.insertRecLocation(trx, {
        company_id: principal.companyId,
        token: newAccessToken(),
        created_at: await this.clock.now(principal.companyId, trx),
      });
      return locRecView(loc, this.publicUrl);
    });
  }

  async get(principal: Principal, id: string) {
    const locationId = recLocationIdOf(id);
    const loc =
      locationId === undefined ? undefined : await repo.findRecLocation(this.db, principal.companyId, locationId);
    if (!loc) throw errors.notFound(NOT_FOUND);
    return locRecView(loc, this.publicUrl);
  }

  async list(principal: Principal, query: LocRecListQuery): Promise<S['PayloadLocationRecConsultadas']> {
    const page = pixListQuery(query);
    const { rows, total } = await repo.listRecLocations(
      this.db,
      {
        companyId: principal.companyId,
        ...(page.inicio ? { from: page.inicio } : {}),
        ...(page.fim ? { to: page.fim } : {}),
        ...(query.idRecPresente !== undefined ? { idRecPresent: query.idRecPresente } : {}),
        ...(query.convenio !== undefined ? { convenio: query.convenio } : {}),
      },
      page.offset,
      page.itensPorPagina,
    );
    const extra = {
      ...(query.idRecPresente !== undefined ? { idRecPresente: query.idRecPresente } : {}),
      ...(query.convenio !== undefined ? { recebedor: { convenio: query.convenio } } : {}),
    };
    return {
      parametros: { inicio: query.inicio, fim: query.fim, ...parametros(query, page, total, extra) },
      loc: rows.map((r) => locRecView(r, this.publicUrl)),
    };
  }

  // DELETE /locrec/{id}/idRec: the location stops serving its recurrence (which loses its
  // location); the recurrence keeps its status.
  async unlink(principal: Principal, id: string) {
    const locationId = recLocationIdOf(id);
    return this.db.transaction().execute(async (trx) => {
      const loc =
        locationId === undefined ? undefined : await repo.lockRecLocation(trx, principal.companyId, locationId);
      if (!loc) throw errors.notFound(NOT_FOUND);
      if (loc.id_rec) {
        const rec = await repo.lockRecurrence(trx, principal.companyId, loc.id_rec);
        if (rec && rec.location_id !== null && Number(rec.location_id) === Number(loc.id)) {
          await repo.updateRecurrence(trx, rec.id_rec, {
            location_id: null,
            updated_at: await this.clock.now(principal.companyId, trx),
          });
        }
        await repo.setRecLocationRec(trx, Number(loc.id), null);
      }
      return locRecView({ ...loc, id_rec: null }, this.publicUrl);
    });
  }
}
