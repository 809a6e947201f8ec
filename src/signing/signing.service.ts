// Key material the server creates on first use and keeps in the database, so that every
// process signs with the same keys and a restart keeps them. The private key is stored
// sealed (AES-256-GCM under PIXGATE_SECRETS_KEY, src/lib/secret-box.ts): a reader of the
// database or of its files gets no key that signs; the public parts (JWK, certificate) stay
// in clear for the JWKS. This service opens it: its callers get the key as they made it.
import type { Kysely } from 'kysely';
import type { Database, SigningKey } from '../db/schema';
import type { StoredPublicJwk } from '../lib/jws';
import { openStored, resealed, type SecretBox } from '../lib/secret-box';
import * as repo from './signing.repository';

export interface NewKeyMaterial {
  kid: string;
  algorithm: string;
  privateKey: string;
  publicJwk: StoredPublicJwk | null;
  certificate: string | null;
}

// Where a sealed private key belongs: it opens only as the private key of its own kid.
const placeOf = (kid: string) => `signing_keys.private_key:${kid}`;

export class SigningKeyService {
  private readonly cache = new Map<string, Promise<SigningKey>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
  ) {}

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

  // Seals what is not sealed under the current key (keys stored in clear before sealing
  // existed, or under PIXGATE_SECRETS_KEY_PREVIOUS); run at start-up. Throws
  // SealedWithAnotherKey when a key was sealed under a key this server does not have.
  async sealAtRest(): Promise<number> {
    const rows = await repo.findKeysNotSealedWith(this.db, this.secrets.sealedPrefix);
    for (const row of rows) {
      await repo.replacePrivateKey(
        this.db,
        row.kid,
        row.private_key,
        resealed(this.secrets, row.private_key, placeOf(row.kid)),
      );
    }
    return rows.length;
  }

  private async loadOrCreate(purpose: string, create: () => Promise<NewKeyMaterial>): Promise<SigningKey> {
    const existing = await repo.findActiveKey(this.db, purpose);
    if (existing) return this.opened(existing);
    const material = await create();
    await repo.insertKeyIfNoneActive(this.db, {
      kid: material.kid,
      purpose,
      algorithm: material.algorithm,
      private_key: this.secrets.seal(material.privateKey, placeOf(material.kid)),
      public_jwk: material.publicJwk ? JSON.stringify(material.publicJwk) : null,
      certificate: material.certificate,
      created_at: new Date(),
    });
    const winner = await repo.findActiveKey(this.db, purpose);
    if (!winner) throw new Error(`signing key for ${purpose} could not be stored`);
    return this.opened(winner);
  }

  private opened(row: SigningKey): SigningKey {
    return { ...row, private_key: openStored(this.secrets, row.private_key, placeOf(row.kid)) };
  }
}
