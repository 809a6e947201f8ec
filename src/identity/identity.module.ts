// The services of the identity area: the company directory and each company's clock, the
// applications and their credentials, and OAuth2 tokens of the Pix API.
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../db/change-feed';
import type { Database } from '../db/schema';
import type { SigningKeyService } from '../signing/signing.service';
import { CompanyClock, CompanyDirectory } from './companies.service';
import { IdentityService } from './identity.service';
import { OAuthService } from './oauth.service';

export interface IdentityServices {
  companies: CompanyDirectory;
  clock: CompanyClock;
  identity: IdentityService;
  oauth: OAuthService;
}

export interface IdentityDependencies {
  db: Kysely<Database>;
  changes: ChangeFeed;
  signingKeys: SigningKeyService;
  // Every scope of both APIs, and the Pix API's (what an OAuth2 token may carry).
  scopes: ReadonlySet<string>;
  pixScopes: readonly string[];
}

export function buildIdentityServices(deps: IdentityDependencies): IdentityServices {
  const { db, changes, signingKeys, scopes, pixScopes } = deps;
  const companies = new CompanyDirectory(db, changes);
  const clock = new CompanyClock(companies);
  const identity = new IdentityService(db, clock, companies, changes, scopes);
  return { companies, clock, identity, oauth: new OAuthService(identity, signingKeys, pixScopes) };
}
