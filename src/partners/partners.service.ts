// Partner rules: pre-registrations (idempotent by tax id per partner), and applications for a
// pre-registered company. The first application makes the company itself (default account,
// EVP key), affiliated to the partner; its credential works like any other (hashed secret).
import { defaultOpenAccount } from '../accounts/default-account.service';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { Database, PreRegistrationUser } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { insertApplication, newCredentials } from '../identity/identity.public';
import { applicationView, hasFeature, openCompany, requireGrantable } from '../identity/identity.service';
import { insertPixKey } from '../keys/keys.public';
import type { Clock } from '../db/clock';
import { newEvpKey } from '../lib/ids';
import { isValidEmail, normalizePhone, normalizeTaxId } from '../lib/taxid';
import * as repo from './partners.repository';

export const PARTNER_FEATURE = 'PARTNER';

type TaxIdInput = components['schemas']['TaxIDInput'];
type TaxIdType = TaxIdInput['type'];
type PreRegistrationInput = components['schemas']['PreRegistrationCreatePayload'];
type PartnerApplicationInput = components['schemas']['PartnerApplicationPayload'];

function requirePartner(principal: Principal): void {
  if (!hasFeature(principal, PARTNER_FEATURE)) throw errors.forbidden('You are not a partner');
}

// The tax id without mask, checked against its declared type (and the kinds allowed).
function cleanTaxId(input: TaxIdInput, field: string, issues: FieldIssue[], allowed: TaxIdType[]): string {
  const n = normalizeTaxId(input.taxID);
  if (!n.ok) issues.push({ field: `${field}.taxID`, in: 'body', message: n.reason });
  else if ((n.value.type === 'BR_CPF' ? 'BR:CPF' : 'BR:CNPJ') !== input.type)
    issues.push({
      field: `${field}.type`,
      in: 'body',
      message: `does not match the tax id (a ${n.value.type === 'BR_CPF' ? 'CPF' : 'CNPJ'})`,
    });
  else if (!allowed.includes(input.type))
    issues.push({ field: `${field}.type`, in: 'body', message: `must be ${allowed.join(' or ')}` });
  return n.ok ? n.value.taxId : '';
}

export function preRegistrationView(p: repo.PreRegistrationWithCompany): components['schemas']['PreRegistration'] {
  return {
    preRegistration: {
      name: p.name,
      ...(p.website !== null ? { website: p.website } : {}),
      taxID: { taxID: p.tax_id, type: p.tax_id_type },
    },
    user: p.user,
    ...(p.company_id !== null
      ? {
          company: {
            id: p.company_id,
            name: p.company_name ?? p.name,
            taxID: { taxID: p.tax_id, type: p.tax_id_type },
          },
        }
      : {}),
    ...(p.first_client_id !== null ? { account: { clientId: p.first_client_id } } : {}),
  };
}

export class PartnersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly knownScopes: ReadonlySet<string>,
  ) {}

  async createPreRegistration(principal: Principal, input: PreRegistrationInput) {
    requirePartner(principal);
    const issues: FieldIssue[] = [];
    const taxId = cleanTaxId(input.preRegistration.taxID, 'preRegistration.taxID', issues, ['BR:CPF', 'BR:CNPJ']);
    const u = input.user;
    const userTaxId = u.taxID ? cleanTaxId(u.taxID, 'user.taxID', issues, ['BR:CPF']) : undefined;
    const email = u.email.trim().toLowerCase();
    if (!isValidEmail(email))
      issues.push({ field: 'user.email', in: 'body', message: 'must be a valid e-mail address' });
    let phone = u.phone;
    if (phone.startsWith('+55')) {
      const p = normalizePhone(phone);
      if (p.ok) phone = p.value;
      else issues.push({ field: 'user.phone', in: 'body', message: p.reason });
    }
    const name = input.preRegistration.name.trim();
    if (!name) issues.push({ field: 'preRegistration.name', in: 'body', message: 'must not be blank' });
    if (issues.length) throw errors.validation(issues);
    const user: PreRegistrationUser = {
      firstName: u.firstName.trim(),
      lastName: u.lastName.trim(),
      email,
      phone,
      ...(userTaxId !== undefined ? { taxID: { taxID: userTaxId, type: 'BR:CPF' as const } } : {}),
    };
    return this.db.transaction().execute(async (trx) => {
      const existing = await repo.findPreRegistration(trx, principal.companyId, taxId);
      if (existing) return { created: false, preRegistration: preRegistrationView(existing) };
      const created = await repo.insertPreRegistrationIfFree(trx, {
        id: randomUUID(),
        partner_company_id: principal.companyId,
        tax_id: taxId,
        tax_id_type: input.preRegistration.taxID.type,
        name,
        website: input.preRegistration.website?.trim() || null,
        user: JSON.stringify(user),
        company_id: null,
        affiliated_at: null,
        created_at: await this.clock.now(principal.companyId, trx),
      });
      const row = await repo.findPreRegistration(trx, principal.companyId, taxId);
      return { created, preRegistration: preRegistrationView(row!) };
    });
  }

  async listPreRegistrations(principal: Principal, page: Page) {
    const { rows, total } = await repo.listPreRegistrations(this.db, principal.companyId, page);
    return { preRegistrations: rows.map(preRegistrationView), total };
  }

  async getPreRegistration(principal: Principal, taxId: string) {
    // Stored uppercase (normalizeTaxId): an alphanumeric CNPJ may be asked in any case.
    const row = await repo.findPreRegistration(this.db, principal.companyId, taxId.toUpperCase());
    if (!row) throw errors.missing('preRegistration');
    return preRegistrationView(row);
  }

  async listAffiliates(principal: Principal, page: Page) {
    const { rows, total } = await repo.listAffiliates(this.db, principal.companyId, page);
    return {
      affiliates: rows.map((r) => ({
        name: r.name,
        taxID: { taxID: r.tax_id, type: r.tax_id_type },
        correlationID: r.id,
        createdAt: r.affiliated_at!.toISOString(),
      })),
      total,
    };
  }

  async createApplication(principal: Principal, input: PartnerApplicationInput) {
    requirePartner(principal);
    const issues: FieldIssue[] = [];
    const taxId = cleanTaxId(input.taxID, 'taxID', issues, ['BR:CPF', 'BR:CNPJ']);
    const name = input.application.name.trim();
    if (!name) issues.push({ field: 'application.name', in: 'body', message: 'must not be blank' });
    if (issues.length) throw errors.validation(issues);
    const scopes = input.application.scopes;
    const invalid = (scopes ?? []).filter((s) => !this.knownScopes.has(s));
    if (invalid.length > 0) throw errors.badRequest(`Invalid scopes: ${invalid.join(', ')}`);
    requireGrantable(principal, scopes);
    return this.db.transaction().execute(async (trx) => {
      const pre = await repo.lockPreRegistration(trx, principal.companyId, taxId);
      if (!pre) throw errors.missing('preRegistration');
      const existing = await repo.findPartnerApplication(trx, pre.id, name);
      if (existing) {
        return {
          created: false,
          application: {
            name: existing.name,
            isActive: existing.is_active,
            type: existing.type,
            clientId: existing.client_id,
            ...(existing.scopes ? { scopes: existing.scopes } : {}),
          },
        };
      }
      const now = await this.clock.now(principal.companyId, trx);
      const { companyId, accountId } = await affiliatedCompanyOf(trx, pre, now);
      const credentials = newCredentials();
      const app = await insertApplication(trx, {
        id: randomUUID(),
        company_id: companyId,
        account_id: accountId,
        name,
        type: 'API',
        is_active: true,
        client_id: credentials.clientId,
        client_secret_hash: credentials.clientSecretHash,
        scopes: scopes && scopes.length > 0 ? JSON.stringify([...new Set(scopes)]) : null,
        allowed_ips: null,
        created_at: now,
      });
      await repo.insertPartnerApplication(trx, {
        application_id: app.id,
        pre_registration_id: pre.id,
        name,
        type: input.application.type,
        created_at: now,
      });
      const view = applicationView(app);
      return {
        created: true,
        application: {
          name: view.name,
          isActive: view.isActive,
          type: input.application.type,
          clientId: view.clientId,
          clientSecret: credentials.clientSecret,
          appID: credentials.appID,
          ...(view.scopes ? { scopes: view.scopes } : {}),
        },
      };
    });
  }
}

// The company of a pre-registration: made on its first application (with a default account and
// an EVP key), the one already affiliated after that.
async function affiliatedCompanyOf(
  trx: Kysely<Database>,
  pre: { id: string; company_id: string | null; name: string; tax_id: string },
  now: Date,
): Promise<{ companyId: string; accountId: string }> {
  if (pre.company_id !== null) {
    const account = await defaultOpenAccount(trx, pre.company_id);
    if (!account) throw errors.badRequest('The company has no open default account');
    return { companyId: pre.company_id, accountId: account };
  }
  const { company, account } = await openCompany(trx, { name: pre.name, taxID: pre.tax_id, features: [], now });
  await insertPixKey(trx, {
    key: newEvpKey(),
    company_id: company.id,
    account_id: account.id,
    type: 'EVP',
    is_default: true,
    created_at: now,
  });
  await repo.setAffiliate(trx, pre.id, company.id, now);
  return { companyId: company.id, accountId: account.id };
}
