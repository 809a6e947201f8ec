// The sandbox: companies on demand and a clock that moves forward. Present only in
// sandbox mode (the routes are not mounted otherwise).
import { errors } from '../errors/errors';
import { DEFAULT_SANDBOX_FEATURES, type IdentityService } from '../identity/identity.service';
import type { Clock } from '../db/clock';
import { normalizeTaxId, randomCnpj } from '../lib/taxid';
import { newEvpKey } from '../lib/ids';
import { insertPixKey } from '../keys/keys.public';

const MAX_CLOCK_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

// The company a new database is given (make run prints its credentials once).
export const DEMO_COMPANY_NAME = 'Demo Company';

export interface SandboxCompanyInput {
  name?: string;
  taxID?: string;
  features?: string[];
}

export class SandboxService {
  constructor(
    private readonly identity: IdentityService,
    private readonly clock: Clock,
    private readonly clockAdvanced: (companyId: string) => Promise<void>,
  ) {}

  async createCompany(input: SandboxCompanyInput) {
    let taxID = randomCnpj();
    if (input.taxID !== undefined) {
      const normalized = normalizeTaxId(input.taxID);
      if (!normalized.ok || normalized.value.type !== 'BR_CNPJ') {
        throw errors.validation([
          { field: 'taxID', in: 'body', message: normalized.ok ? 'must be a CNPJ' : normalized.reason },
        ]);
      }
      taxID = normalized.value.taxId;
    }
    const name = input.name?.trim() || `Sandbox company ${taxID.slice(0, 8)}`;
    // A random (EVP) key on the default account: the receiving key of the company's charges.
    let evp = '';
    const created = await this.identity.createCompany(
      { name, taxID, features: input.features ?? DEFAULT_SANDBOX_FEATURES },
      async (trx, companyId, accountId) => {
        evp = newEvpKey();
        await insertPixKey(trx, {
          key: evp,
          company_id: companyId,
          account_id: accountId,
          type: 'EVP',
          is_default: true,
          created_at: this.clock.serverNow(),
        });
      },
    );
    return { ...created, pixKey: { key: evp, type: 'EVP' as const, isDefault: true } };
  }

  async createDemoCompany() {
    return this.createCompany({ name: DEMO_COMPANY_NAME });
  }

  // Fresh credentials of the demo company (a new MASTER application), or undefined without one.
  async issueDemoCredentials() {
    return this.identity.issueMasterApplicationOfCompanyNamed(DEMO_COMPANY_NAME);
  }

  // The company's clock; the server's own time (offset 0) for an operator without a company.
  async clockNow(companyId: string | undefined) {
    if (companyId === undefined) return { now: this.clock.serverNow().toISOString(), offsetSeconds: 0 };
    const offset = await this.clock.offsetMs(companyId);
    return { now: new Date(Date.now() + offset).toISOString(), offsetSeconds: Math.floor(offset / 1000) };
  }

  async advanceClock(companyId: string, seconds: number) {
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_CLOCK_ADVANCE_SECONDS) {
      throw errors.validation([
        { field: 'seconds', in: 'body', message: `must be an integer from 1 to ${MAX_CLOCK_ADVANCE_SECONDS}` },
      ]);
    }
    await this.clock.advance(companyId, seconds);
    // What came due with the new time (expiries, due dates, retries) is done now, not at the
    // jobs' next ticks (up to a minute): the caller moved the clock to see it happen.
    await this.clockAdvanced(companyId);
    return this.clockNow(companyId);
  }
}

// How the demo company's credentials are printed (make run on a new database, make
// demo-credentials): one line each, what to do with it in front.
export function credentialLines(application: { appID: string; clientId: string; clientSecret: string }): string {
  return [
    `  appID (platform API, Authorization header): ${application.appID}`,
    `  clientId (Pix API, POST /oauth/token):       ${application.clientId}`,
    `  clientSecret:                                ${application.clientSecret}`,
    '',
  ].join('\n');
}
