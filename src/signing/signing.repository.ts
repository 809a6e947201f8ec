// All SQL of signing keys. One active key per purpose (a partial unique index).
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, SigningKey } from '../db/schema';

export async function findActiveKey(db: Kysely<Database>, purpose: string): Promise<SigningKey | undefined> {
  return db
    .selectFrom('signing_keys')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

// Inserts unless another process won the race; the caller reads the winner back.
export async function insertKeyIfNoneActive(
  db: Kysely<Database>,
  key: {
    kid: string;
    purpose: string;
    algorithm: string;
    private_key: string;
    public_jwk: string | null;
    certificate: string | null;
    created_at: Date;
  },
): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values(key)
    .onConflict((oc) => oc.column('purpose').where(sql.ref('retired_at'), 'is', null).doNothing())
    .execute();
}

// Keys whose private key is not stored sealed under the key with this prefix (in clear, or
// sealed under another key).
export async function findKeysNotSealedWith(
  db: Kysely<Database>,
  sealedPrefix: string,
): Promise<Array<Pick<SigningKey, 'kid' | 'private_key'>>> {
  return db
    .selectFrom('signing_keys')
    .select(['kid', 'private_key'])
    .where('private_key', 'not like', `${sealedPrefix}%`)
    .execute();
}

// Replaces a private key by its sealed form, unless another process did meanwhile.
export async function replacePrivateKey(db: Kysely<Database>, kid: string, from: string, to: string): Promise<void> {
  await db
    .updateTable('signing_keys')
    .set({ private_key: to })
    .where('kid', '=', kid)
    .where('private_key', '=', from)
    .execute();
}
