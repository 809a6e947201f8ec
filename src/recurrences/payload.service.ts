// The open recurrence payload location (GET /qr/v2/rec/{token}): the recurrence a location
// serves, as a compact JWS (RecPayload) signed with the server's payload key.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { PayloadKeyService } from '../signing/payload-keys.service';
import { ENDED_REC } from './rec.rules';
import * as repo from './recurrences.repository';
import { recPayloadView } from './recurrences.view';

export class RecPayloadService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly keys: PayloadKeyService,
  ) {}

  // 404 when the location serves no recurrence and never did; 410 when it did and no longer
  // does; 400 when its recurrence expired, was rejected or cancelled.
  async recPayload(token: string): Promise<string> {
    const loc = await repo.findRecLocationByToken(this.db, token);
    if (!loc) throw errors.notFound('The location does not serve a recurrence');
    if (!loc.id_rec) {
      if (loc.linked_once) throw errors.gone('The recurrence of this location was permanently removed');
      throw errors.notFound('The location does not serve a recurrence');
    }
    const rec = await repo.findRecurrenceAnyCompany(this.db, loc.id_rec);
    if (!rec) throw errors.notFound('The location does not serve a recurrence');
    if (ENDED_REC.includes(rec.status)) {
      throw errors.validation(
        [{ field: 'recUrlAccessToken', message: `The recurrence is ${rec.status}`, value: rec.status }],
        `The recurrence of this location is ${rec.status}.`,
      );
    }
    return this.keys.sign(recPayloadView(rec));
  }
}
