// A webhook's signing secret (whsec_...) and the Authorization value it sends are kept sealed
// (AES-256-GCM under PIXGATE_SECRETS_KEY, src/lib/secret-box.ts, bound to the webhook's id
// and the column): the server reads them back to sign and send each delivery, a reader of
// the database or of its files gets neither. Rows are sealed before they are written and
// opened where a secret is used (a delivery's headers, the answer that shows it).
import type { Kysely } from 'kysely';
import type { Database, Webhook } from '../db/schema';
import { openStored, resealed, type SecretBox } from '../lib/secret-box';
import * as repo from './webhooks.repository';

type WithSecrets = { id: string; secret: string; authorization: string | null };

const secretPlace = (id: string) => `webhooks.secret:${id}`;
const authorizationPlace = (id: string) => `webhooks.authorization:${id}`;

// The row as it is stored: its secret and authorization sealed.
export function sealedWebhook<T extends WithSecrets>(box: SecretBox, row: T): T {
  return {
    ...row,
    secret: box.seal(row.secret, secretPlace(row.id)),
    authorization: row.authorization === null ? null : box.seal(row.authorization, authorizationPlace(row.id)),
  };
}

// The row as its secrets read in clear.
export function openedWebhook<T extends WithSecrets>(box: SecretBox, row: T): T {
  return {
    ...row,
    secret: openStored(box, row.secret, secretPlace(row.id)),
    authorization: row.authorization === null ? null : openStored(box, row.authorization, authorizationPlace(row.id)),
  };
}

// Seals what is not sealed under the current key (rows written in clear before sealing
// existed, or under PIXGATE_SECRETS_KEY_PREVIOUS); run at start-up.
export async function sealWebhooksAtRest(db: Kysely<Database>, box: SecretBox): Promise<number> {
  const rows: Array<Pick<Webhook, 'id' | 'secret' | 'authorization'>> = await repo.findWebhooksNotSealedWith(
    db,
    box.sealedPrefix,
  );
  for (const row of rows) {
    await repo.replaceWebhookSecrets(db, row, {
      secret: resealed(box, row.secret, secretPlace(row.id)),
      authorization: row.authorization === null ? null : resealed(box, row.authorization, authorizationPlace(row.id)),
    });
  }
  return rows.length;
}
