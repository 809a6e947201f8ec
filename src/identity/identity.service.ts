// Identity rules: who a credential is, what it may do, and the application lifecycle.
import { defaultOpenAccount, findOpenAccountOfCompany, openDefaultAccount } from '../accounts/default-account.service';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { Application, Database, Db } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from './principal.types';
import type { Clock } from '../db/clock';
import type { ChangeFeed } from '../db/change-feed';
import { ReadCache } from '../db/read-cache';
import { writeTogether } from '../db/together';
import type { CompanyDirectory } from './companies.service';
import { decodeAppId, newCredentials, secretMatches } from './credentials';
import { BoundedMap } from '../lib/bounded-map';
import * as repo from './identity.repository';
import type { ApplicationWithCompany } from './identity.repository';

export const FEATURES = {
  applicationScopesRequired: 'APPLICATION_SCOPES_REQUIRED',
  baas: 'BAAS',
  bankAccount: 'BANK_ACCOUNT',
  medApi: 'MED_API',
  subaccount: 'SUBACCOUNT',
  split: 'SPLIT',
} as const;

// What a new sandbox company may do unless the request says otherwise.
export const DEFAULT_SANDBOX_FEATURES = [
  FEATURES.baas,
  FEATURES.bankAccount,
  FEATURES.medApi,
  FEATURES.subaccount,
  FEATURES.split,
];

type ApplicationAnswer = components['schemas']['Application'];
type Secrets = 'clientSecret' | 'appID';

// The spec's Application as this server keeps it (an API or the MASTER application), without
// its secrets, which only the answer that made it carries (NewApplicationView).
export type ApplicationView = Required<Omit<ApplicationAnswer, Secrets | 'type' | 'scopes' | 'removedAt'>> &
  Pick<ApplicationAnswer, 'scopes' | 'removedAt'> &
  Partial<Pick<ApplicationAnswer, Secrets>> & { type: Extract<ApplicationAnswer['type'], 'API' | 'MASTER'> };

// As made: the only answer that carries the secret and the appID.
export type NewApplicationView = ApplicationView & Pick<ApplicationAnswer, Secrets>;

type CreateApplicationInput = components['schemas']['ApplicationPayload'];

export interface CreateCompanyInput {
  name: string;
  taxID: string;
  features: string[];
}

// A new company with its open default account, in the caller's transaction: the one way a
// company is made (the sandbox's createCompany, a partner's first application).
export async function openCompany(trx: Db, input: CreateCompanyInput & { now: Date }) {
  const company = await repo.insertCompany(trx, {
    id: randomUUID(),
    name: input.name,
    tax_id: input.taxID,
    official_name: input.name,
    trade_name: input.name,
    features: JSON.stringify(input.features),
    created_at: input.now,
  });
  const account = await openDefaultAccount(trx, { companyId: company.id, name: input.name, now: input.now });
  return { company, account };
}

type FeaturesChangeInput = components['schemas']['CompanyFeaturesPayload'];

// Who changes features: a platform operator, or (sandbox mode) the company's own application.
export type FeaturesActor =
  { kind: 'OPERATOR'; requestId: string } | { kind: 'SANDBOX'; applicationId: string; requestId: string };

// The caller of operator operations: no company of its own (they name the company in the
// path) and no scope; it never reaches an operation secured by AppID.
export const OPERATOR: Principal = {
  applicationId: 'operator',
  companyId: '',
  accountId: '',
  applicationType: 'API',
  scopes: [],
  features: [],
};

export function principalOf(app: ApplicationWithCompany): Principal {
  return {
    applicationId: app.id,
    clientId: app.client_id,
    companyId: app.company_id,
    accountId: app.account_id,
    applicationType: app.type,
    scopes: app.scopes,
    features: app.features,
  };
}

// MASTER applications and legacy ones (no scopes) may call every operation.
export function requireScope(principal: Principal, scope: string | null): void {
  if (!scope || principal.applicationType === 'MASTER' || principal.scopes === null) return;
  if (!principal.scopes.includes(scope)) throw errors.missingScope(scope);
}

// What an application may grant to an application it creates (POST /application, and a
// partner's POST /partner/application for an affiliate): at most the scopes it holds. A MASTER
// application holds every scope, as does a legacy API application without scopes; only a
// MASTER application may create one without scopes (which may call every operation).
export function requireGrantable(principal: Principal, scopes: readonly string[] | undefined): void {
  if (principal.applicationType === 'MASTER') return;
  if (!scopes || scopes.length === 0)
    throw errors.forbidden('Only a MASTER application can create an application without scopes');
  if (principal.scopes === null) return;
  const held = principal.scopes;
  const refused = [...new Set(scopes)].filter((s) => !held.includes(s));
  if (refused.length > 0)
    throw errors.forbidden(`This application cannot grant scopes it does not hold: ${refused.join(', ')}`);
}

export function hasFeature(principal: Principal, feature: string): boolean {
  return principal.features.includes(feature);
}

// Applications are read on every authenticated request: cached per process, forgotten at once
// on every process when their company announces a change (src/db/read-cache), and not served
// while the feed is down; the time limit is a backstop, as companies.service.ts says.
const CREDENTIALS_TTL_MS = 10 * 60_000;

export class IdentityService {
  private readonly applications: ReadCache<ApplicationWithCompany>;
  // Authorization headers whose secret matched, with the hash it matched: a header seen again
  // skips decoding and hashing (a tenth of a charge read's CPU). The application is still
  // looked up through its invalidated cache on every request, so a removed application is
  // refused as before, and a header whose application's hash differs is refused.
  // Only headers that verified get in (10,000 at most), so nobody without valid credentials
  // can fill it.
  private readonly verifiedAppIds = new BoundedMap<string, { clientId: string; secretHash: string }>(10_000);

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly companies: CompanyDirectory,
    feed: ChangeFeed,
    private readonly knownScopes: ReadonlySet<string>,
  ) {
    this.applications = new ReadCache(feed, 'company', CREDENTIALS_TTL_MS);
  }

  // The active application (and its company) by a cache key, loading it with `load`.
  private async cachedApplication(key: string, load: () => Promise<ApplicationWithCompany | undefined>) {
    const generation = this.companies.mark();
    return this.applications.get(
      key,
      async () => {
        const app = await load();
        if (app) this.companies.remember(app.company, generation);
        return app;
      },
      (app) => app.company_id,
    );
  }

  // Resolves the platform API's Authorization header to its application; 401 otherwise.
  // `verified` hears of the caller as soon as the secret matched, before the IP check.
  async authenticateAppId(
    header: string | undefined,
    ip: string,
    { verified }: { verified?: (principal: Principal) => void } = {},
  ): Promise<Principal> {
    const known = header === undefined ? undefined : this.verifiedAppIds.get(header);
    const credentials = known ? undefined : decodeAppId(header);
    const clientId = known?.clientId ?? credentials?.clientId;
    if (!clientId) throw errors.unauthorized();
    const app = await this.cachedApplication(`client:${clientId}`, () =>
      repo.findActiveApplicationByClientId(this.db, clientId),
    );
    const matches =
      app &&
      (credentials
        ? secretMatches(credentials.clientSecret, app.client_secret_hash)
        : known!.secretHash === app.client_secret_hash);
    if (!matches) throw errors.unauthorized();
    if (credentials) this.verifiedAppIds.set(header!, { clientId, secretHash: app.client_secret_hash });
    const principal = principalOf(app);
    verified?.(principal);
    if (!ipAllowed(app, ip)) throw errors.forbidden(IP_REFUSED);
    return principal;
  }

  // Checks client credentials (OAuth2 client_credentials); undefined when they do not match.
  async verifyClient(clientId: string, clientSecret: string): Promise<ApplicationWithCompany | undefined> {
    const app = await repo.findActiveApplicationByClientId(this.db, clientId);
    return app && secretMatches(clientSecret, app.client_secret_hash) ? app : undefined;
  }

  async findActiveApplication(id: string): Promise<ApplicationWithCompany | undefined> {
    return this.cachedApplication(`id:${id}`, () => repo.findActiveApplicationById(this.db, id));
  }

  // The company's applications, newest first (removed ones included), without secrets.
  async listApplications(
    principal: Principal,
    page: { skip: number; limit: number },
  ): Promise<{ applications: ApplicationView[]; total: number }> {
    const { rows, total } = await repo.findApplicationsOfCompany(this.db, principal.companyId, page);
    return { applications: rows.map(applicationView), total };
  }

  // An application of the caller's company by clientId (active or not); 404 otherwise.
  async applicationOfCompany(principal: Principal, clientId: string): Promise<Application> {
    const app = await repo.findApplicationByClientIdOfCompany(this.db, principal.companyId, clientId);
    if (!app) throw errors.missing('application');
    return app;
  }

  async createApplication(principal: Principal, input: CreateApplicationInput): Promise<NewApplicationView> {
    if (!hasFeature(principal, FEATURES.baas))
      throw errors.featureRequired('You need feature BAAS to access this endpoint');
    const type = (input.application.type ?? 'API').toUpperCase();
    if (type !== 'API' && principal.applicationType !== 'MASTER') {
      throw errors.badRequest('Only MASTER application can create other application types');
    }
    if (type !== 'API' && type !== 'MASTER')
      throw errors.badRequest(`Invalid application type: ${input.application.type}`);
    const scopes = input.application.scopes;
    if (hasFeature(principal, FEATURES.applicationScopesRequired) && (!scopes || scopes.length === 0)) {
      throw errors.badRequest('Scopes are required');
    }
    const invalid = (scopes ?? []).filter((s) => !this.knownScopes.has(s));
    if (invalid.length > 0) throw errors.badRequest(`Invalid scopes: ${invalid.join(', ')}`);
    requireGrantable(principal, scopes);
    const credentials = newCredentials();
    return this.db.transaction().execute(async (trx) => {
      const account = await findOpenAccountOfCompany(trx, principal.companyId, input.accountId);
      if (!account) throw errors.missing('account');
      const now = await this.clock.now(principal.companyId, trx);
      const app = await repo.insertApplication(trx, {
        id: randomUUID(),
        company_id: principal.companyId,
        account_id: account.id,
        name: input.application.name,
        type: type as 'API' | 'MASTER',
        is_active: true,
        client_id: credentials.clientId,
        client_secret_hash: credentials.clientSecretHash,
        scopes: scopes && scopes.length > 0 ? JSON.stringify([...new Set(scopes)]) : null,
        allowed_ips: input.application.allowedIps?.length
          ? JSON.stringify(input.application.allowedIps.map(normalizeIp))
          : null,
        created_at: now,
      });
      return { ...applicationView(app), clientSecret: credentials.clientSecret, appID: credentials.appID };
    });
  }

  // The application stops working at once on every process: the change is announced in the
  // same transaction (delivered when it commits) and applied here right after.
  async deleteApplication(principal: Principal, clientId: string): Promise<ApplicationView> {
    return this.companies.transaction(this.db, async (trx) => {
      const app = await repo.findApplicationOfCompany(trx, principal.companyId, clientId);
      if (!app || !app.is_active) throw errors.missing('application');
      if (app.type === 'MASTER') throw errors.badRequest('You cannot delete a master application');
      await this.companies.afterWrite(trx, 'company', principal.companyId);
      return applicationView(
        await repo.deactivateApplication(trx, app.id, await this.clock.now(principal.companyId, trx)),
      );
    });
  }

  // A new MASTER application (every scope) on the default account of the first company of
  // this name, its secret answered once and stored hashed; undefined when there is none or it
  // has no open default account. For the operator's `make demo-credentials`.
  async issueMasterApplicationOfCompanyNamed(name: string): Promise<NewApplicationView | undefined> {
    const credentials = newCredentials();
    return this.db.transaction().execute(async (trx) => {
      const company = await repo.findOldestCompanyNamed(trx, name);
      const accountId = company ? await defaultOpenAccount(trx, company.id) : undefined;
      if (!company || !accountId) return undefined;
      const app = await repo.insertApplication(trx, {
        id: randomUUID(),
        company_id: company.id,
        account_id: accountId,
        name: `${name} master (make demo-credentials)`,
        type: 'MASTER',
        is_active: true,
        client_id: credentials.clientId,
        client_secret_hash: credentials.clientSecretHash,
        scopes: null,
        allowed_ips: null,
        created_at: await this.clock.now(company.id, trx),
      });
      return { ...applicationView(app), clientSecret: credentials.clientSecret, appID: credentials.appID };
    });
  }

  // A company with its default bank account and a MASTER application (sandbox, demo data).
  // `extend` runs in the same transaction (other areas add their defaults, e.g. a Pix key).
  async createCompany(
    input: CreateCompanyInput,
    extend?: (trx: Kysely<Database>, companyId: string, accountId: string) => Promise<void>,
  ) {
    const credentials = newCredentials();
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.serverNow();
      const { company, account } = await openCompany(trx, { ...input, now });
      const app = await repo.insertApplication(trx, {
        id: randomUUID(),
        company_id: company.id,
        account_id: account.id,
        name: `${input.name} master`,
        type: 'MASTER',
        is_active: true,
        client_id: credentials.clientId,
        client_secret_hash: credentials.clientSecretHash,
        scopes: null,
        allowed_ips: null,
        created_at: now,
      });
      await extend?.(trx, company.id, account.id);
      return {
        company,
        account,
        application: { ...applicationView(app), clientSecret: credentials.clientSecret, appID: credentials.appID },
      };
    });
  }

  // A company's features, replaced, audited (who, before, after, why) and announced to every
  // process in the same transaction: the next request of any of its credentials sees them.
  async changeFeatures(companyId: string, input: FeaturesChangeInput, actor: FeaturesActor) {
    const features = [...new Set(input.features)];
    const change = await this.companies.transaction(this.db, async (trx) => {
      const company = await repo.lockCompany(trx, companyId);
      if (!company) throw errors.missing('company');
      const row = {
        id: randomUUID(),
        company_id: companyId,
        actor: actor.kind,
        application_id: actor.kind === 'SANDBOX' ? actor.applicationId : null,
        request_id: actor.requestId,
        reason: input.reason ?? null,
        features_before: JSON.stringify(company.features),
        features_after: JSON.stringify(features),
        changed_at: this.clock.serverNow(),
      };
      await writeTogether(trx, repo.changeCompanyFeaturesParts(row));
      await this.companies.afterWrite(trx, 'company', companyId);
      return { ...row, before: company.features };
    });
    return {
      company: { id: companyId, features },
      change: {
        id: change.id,
        actor: change.actor,
        ...(change.reason !== null ? { reason: change.reason } : {}),
        before: change.before,
        after: features,
        changedAt: change.changed_at.toISOString(),
        requestId: change.request_id,
      },
    };
  }

  // The operator token (PIXGATE_OPERATOR_TOKEN), compared in constant time; 401 otherwise
  // (also when the server has none: operator operations are then closed).
  authenticateOperator(header: string | undefined, token: string | undefined): Principal {
    const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
    const expected = Buffer.from(token ?? '');
    if (!token || given.length !== expected.length || !timingSafeEqual(given, expected)) throw errors.unauthorized();
    return OPERATOR;
  }

  async countCompanies(): Promise<number> {
    return repo.countCompanies(this.db);
  }
}

export function applicationView(app: {
  name: string;
  type: 'API' | 'MASTER';
  is_active: boolean;
  client_id: string;
  scopes: string[] | null;
  removed_at: Date | null;
  created_at: Date;
  account_id: string;
}): ApplicationView {
  return {
    name: app.name,
    type: app.type,
    isActive: app.is_active,
    clientId: app.client_id,
    ...(app.scopes ? { scopes: app.scopes } : {}),
    ...(app.removed_at ? { removedAt: app.removed_at.toISOString() } : {}),
    createdAt: app.created_at.toISOString(),
    companyBankAccount: app.account_id,
  };
}

export const IP_REFUSED = 'Your IP address is not allowed to use this application';

// Whether an application's IP allowlist (allowedIps) admits a caller: every use of its
// credentials checks it, the platform API's Authorization header, the Pix API's token
// endpoint and each of its bearer calls. `ip` is the socket's address (Koa with proxy off: a
// forwarding header cannot choose it).
export function ipAllowed(app: { allowed_ips: string[] | null }, ip: string): boolean {
  return !app.allowed_ips || app.allowed_ips.includes(normalizeIp(ip));
}

// "::ffff:127.0.0.1" and "127.0.0.1" are the same caller.
export function normalizeIp(ip: string): string {
  return ip.replace(/^::ffff:/, '');
}
