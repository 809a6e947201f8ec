// The services of the signing area: pixgate's own signing keys (sealed at rest) and the keys
// that sign Pix payloads (JWS of charges and recurrences), published as a JWKS.
import type { Kysely } from 'kysely';
import { type Config, secretsBoxOf } from '../config';
import type { Database } from '../db/schema';
import { PayloadKeyService } from './payload-keys.service';
import { SigningKeyService } from './signing.service';

export interface SigningServices {
  signingKeys: SigningKeyService;
  payloadKeys: PayloadKeyService;
}

export interface SigningDependencies {
  config: Config;
  db: Kysely<Database>;
}

export function buildSigningServices({ config, db }: SigningDependencies): SigningServices {
  const signingKeys = new SigningKeyService(db, secretsBoxOf(config));
  return { signingKeys, payloadKeys: new PayloadKeyService(signingKeys, config.publicUrl) };
}
