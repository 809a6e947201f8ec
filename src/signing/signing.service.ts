// Key material the server creates on first use and keeps in the database, so that every
// process signs with the same keys and a restart keeps them.
import type { Kysely } from 'kysely';
import type { Database, SigningKey } from '../db/schema';
import type { StoredPublicJwk } from '../lib/jws';
import * as repo from './signing.repository';

export interface NewKeyMaterial {
  kid: string;
  algorithm: string;
  privateKey: string;
  publicJwk: StoredPublicJwk | null;
  certificate: string | null;
}

export class SigningKeyService {
  private readonly cache = new Map<string, Promise<SigningKey>>();

  constructor(private readonly db: Kysely<Database>) {}

  // The active key of a purpose, created (once across all processes) when there is none.
  key(purpose: string, create: () => Promise<NewKeyMaterial>): Promise<SigningKey> {
    let key = this.cache.get(purpose);
    if (!key) {
      key = this.loadOrCreate(purpose, create);
      key.catch(() => this.cache.delete(purpose));
      this.cache.set(purpose, key);
    }
    return key;
  }

  private async loadOrCreate(purpose: string, create: () => Promise<NewKeyMaterial>): Promise<SigningKey> {
    const existing = await repo.findActiveKey(this.db, purpose);
    if (existing) return existing;
    const material = await create();
    await repo.insertKeyIfNoneActive(this.db, {
      kid: material.kid,
      purpose,
      algorithm: material.algorithm,
      private_key: material.privateKey,
      public_jwk: material.publicJwk ? JSON.stringify(material.publicJwk) : null,
      certificate: material.certificate,
      created_at: new Date(),
    });
    const winner = await repo.findActiveKey(this.db, purpose);
    if (!winner) throw new Error(`signing key for ${purpose} could not be stored`);
    return winner;
  }
}
