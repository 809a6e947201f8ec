// The key that signs payload-location JWS (created on first start, kept in the database)
// and the JWKS that publishes it.
import type { components } from '../../generated/pix.types';
import type { SigningKey } from '../db/schema';
import { createSigningMaterial, jwksOf, signCompactJws, type PublicSigningJwk, type SigningMaterial } from '../lib/jws';
import type { SigningKeyService } from './signing.service';

const PURPOSE = 'payload-jws';

export class PayloadKeyService {
  constructor(
    private readonly keys: SigningKeyService,
    private readonly publicUrl: string,
  ) {}

  private async material(): Promise<SigningMaterial> {
    const row = await this.keys.key(PURPOSE, async () => {
      const m = await createSigningMaterial(new URL(this.publicUrl).hostname, new Date());
      return {
        kid: m.kid,
        algorithm: m.alg,
        privateKey: m.privateKeyPkcs8Pem,
        publicJwk: { ...m.publicJwk },
        certificate: m.certificatePem,
      };
    });
    return materialOf(row);
  }

  get jwksUrl(): string {
    return `${this.publicUrl}/.well-known/jwks.json`;
  }

  async jwks(): Promise<components['schemas']['JwkSet']> {
    return jwksOf([await this.material()]);
  }

  async sign(payload: object): Promise<string> {
    return signCompactJws(payload, await this.material(), this.jwksUrl);
  }

  // Creates the key at start-up, so the first payment does not pay for it.
  async ensure(): Promise<void> {
    await this.material();
  }
}

function materialOf(row: SigningKey): SigningMaterial {
  // This purpose's key is always stored with its certificate and one of SigningAlg.
  const publicJwk = row.public_jwk as PublicSigningJwk;
  return {
    kid: row.kid,
    alg: row.algorithm as SigningMaterial['alg'],
    privateKeyPkcs8Pem: row.private_key,
    publicJwk,
    certificatePem: row.certificate ?? '',
    x5t: publicJwk.x5t,
  };
}
