// The services of HTTPS and mutual TLS: the sandbox certificate authority, the client
// certificates of applications, and the TLS side of webhook deliveries.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { ChangeFeed } from '../db/change-feed';
import type { Database } from '../db/schema';
import type { CompanyDirectory } from '../identity/companies.service';
import type { IdentityService } from '../identity/identity.service';
import type { Clock } from '../db/clock';
import { TlsAuthorityService } from './authority.service';
import { CertificatesService } from './certificates.service';
import { WebhookTlsService } from './webhook-tls.service';

export interface TlsServices {
  tlsAuthority: TlsAuthorityService;
  certificates: CertificatesService;
  webhookTls: WebhookTlsService;
}

export interface TlsDependencies {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  changes: ChangeFeed;
  identity: IdentityService;
  companies: CompanyDirectory;
}

export function buildTlsServices({ config, db, clock, changes, identity, companies }: TlsDependencies): TlsServices {
  const tlsAuthority = new TlsAuthorityService(db, config);
  return {
    tlsAuthority,
    certificates: new CertificatesService(db, clock, changes, identity, companies, tlsAuthority, config),
    webhookTls: new WebhookTlsService(db, clock, changes, tlsAuthority),
  };
}
