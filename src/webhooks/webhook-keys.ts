// The RSA key behind x-webhook-signature: created once (across processes) and kept in the
// database by SigningKeyService, published by GET /api/v1/webhook/public-keys.
import type { SigningKeyService } from '../signing/signing.service';
import { createWebhookRsaKey, keyIdentifierOf, publicPemOf } from './signature';

const PURPOSE = 'webhook-rsa';

export interface WebhookKey {
  kid: string;
  privateKeyPem: string;
  publicKeyPem: string;
  // Hex SHA-256 of the DER SubjectPublicKeyInfo: the public reference's key_identifier.
  keyIdentifier: string;
  jwk: { kty: 'RSA'; n: string; e: string; kid: string; alg: string; use: string };
  createdAt: Date;
}

export class WebhookKeys {
  private cached: { kid: string; key: WebhookKey } | undefined;

  constructor(private readonly keys: SigningKeyService) {}

  async current(): Promise<WebhookKey> {
    const row = await this.keys.key(PURPOSE, () => createWebhookRsaKey(new Date()));
    if (this.cached?.kid !== row.kid) {
      this.cached = {
        kid: row.kid,
        key: {
          kid: row.kid,
          privateKeyPem: row.private_key,
          publicKeyPem: publicPemOf(row.private_key),
          keyIdentifier: keyIdentifierOf(row.private_key),
          // Always stored for this purpose (createWebhookRsaKey).
          jwk: row.public_jwk!,
          createdAt: row.created_at,
        },
      };
    }
    return this.cached.key;
  }
}
