// KYC onboarding rules: create (idempotent by correlationID per company, one per CNPJ),
// representatives (upserted by CPF), submit (gated by one-time code confirmations when the
// company has the OTP features; opens the company's account register) and the sandbox
// analysis (approve or reject, settling the register).
import { openAccountRegister, settleAccountRegister, accountUserEmails } from '../accounts/accounts.public';
import { randomBytes, randomUUID } from 'node:crypto';
import type { components } from '../../generated/platform.types';
import type { Db, KycOnboardingRow } from '../db/schema';
import {
  type EventSamples,
  type NewEvent,
  recordEventsPart,
  recordEventWhenPart,
  SAMPLE_PREFIX,
  type SampleContext,
} from '../events/events.service';
import { DomainError, errors, type FieldIssue } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { hasFeature } from '../identity/identity.service';
import type { Clock } from '../db/clock';
import { isValidEmail, normalizePhone, normalizeTaxId, onlyDigitsAndLetters } from '../lib/taxid';
import * as repo from './kyc.repository';
import type { SecretBox } from '../lib/secret-box';
import { linkTokenHashOf, linkTokenPlace, openedLinkToken, sealKycAtRest } from './kyc-secrets';
import {
  emailConfirmed,
  enrichedCompanyNames,
  enrichedPersonName,
  onboardingView,
  phoneConfirmed,
  representativeView,
} from './kyc.view';
import { renderOnboardingPage, safeRedirect } from './pages.view';

export const KYC_FEATURES = {
  emailOtp: 'KYC_REPRESENTATIVE_EMAIL_OTP',
  phoneOtp: 'KYC_REPRESENTATIVE_PHONE_OTP',
} as const;

// The token of an onboarding's link (randomBytes(16) in hex).
const LINK_TOKEN = /^[0-9a-f]{32}$/;

type RepresentativeInput = components['schemas']['KycOnboardingRepresentative'];
type OnboardingInput = components['schemas']['KycOnboardingCreatePayload'];

interface CleanRepresentative {
  taxId: string;
  name: string | undefined;
  email: string | null;
  phone: string | null;
  targetAdministrator: boolean | undefined;
}

// Checks a representative's CPF, e-mail and phone; field is the prefix of the issue paths.
export function cleanRepresentative(r: RepresentativeInput, field: string, issues: FieldIssue[]): CleanRepresentative {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  const cpf = normalizeTaxId(r.taxID);
  if (!cpf.ok || cpf.value.type !== 'BR_CPF')
    issues.push({ field: at('taxID'), in: 'body', message: cpf.ok ? 'must be a CPF' : cpf.reason });
  let email: string | null = null;
  if (r.email !== undefined) {
    email = r.email.trim().toLowerCase();
    if (!isValidEmail(email))
      issues.push({ field: at('email'), in: 'body', message: 'must be a valid e-mail address' });
  }
  let phone: string | null = null;
  if (r.phone !== undefined) {
    const p = normalizePhone(r.phone);
    if (p.ok) phone = p.value;
    else issues.push({ field: at('phone'), in: 'body', message: p.reason });
  }
  const name = r.name?.trim();
  return {
    taxId: cpf.ok ? cpf.value.taxId : '',
    name: name ? name : undefined,
    email,
    phone,
    targetAdministrator: r.targetAdministrator,
  };
}

type OnboardingEvent =
  | 'PIXGATE:KYC_ONBOARDING_CREATED'
  | 'PIXGATE:KYC_ONBOARDING_SUBMITTED'
  | 'PIXGATE:KYC_ONBOARDING_APPROVED'
  | 'PIXGATE:KYC_ONBOARDING_REJECTED';

const DECISION_EVENTS = {
  APPROVED: 'PIXGATE:KYC_ONBOARDING_APPROVED',
  REJECTED: 'PIXGATE:KYC_ONBOARDING_REJECTED',
} as const;

// The onboarding as its events carry it: the company onboarded and where it stands (its
// representatives are read with GET /api/v1/kyc/representatives).
export function onboardingEventView(o: KycOnboardingRow) {
  return {
    id: o.id,
    correlationID: o.correlation_id,
    taxID: o.tax_id,
    officialName: o.official_name,
    tradeName: o.trade_name,
    status: o.status,
    createdAt: o.created_at.toISOString(),
    updatedAt: o.updated_at.toISOString(),
  };
}

function onboardingEvent(type: OnboardingEvent, o: KycOnboardingRow, at: Date): NewEvent {
  return { companyId: o.company_id, type, payload: { onboarding: onboardingEventView(o) }, at };
}

// Sample payloads for test events: a made-up onboarding of a made-up company.
function sampleOnboarding(ctx: SampleContext, status: KycOnboardingRow['status']) {
  const taxId = '11222333000181';
  const o: KycOnboardingRow = {
    id: randomUUID(),
    company_id: ctx.party.company_id,
    correlation_id: `${SAMPLE_PREFIX}onboarding-${ctx.suffix}`,
    tax_id: taxId,
    ...((n) => ({ official_name: n.officialName, trade_name: n.tradeName }))(enrichedCompanyNames(taxId)),
    status,
    // never stored: the event view shows no link
    link_token: '',
    link_token_hash: '',
    redirect_url: null,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  return { onboarding: onboardingEventView(o) };
}

export const onboardingEventSamples: EventSamples = {
  'PIXGATE:KYC_ONBOARDING_CREATED': (ctx) => sampleOnboarding(ctx, 'PENDING'),
  'PIXGATE:KYC_ONBOARDING_SUBMITTED': (ctx) => sampleOnboarding(ctx, 'SUBMITTED'),
  'PIXGATE:KYC_ONBOARDING_APPROVED': (ctx) => sampleOnboarding(ctx, 'APPROVED'),
  'PIXGATE:KYC_ONBOARDING_REJECTED': (ctx) => sampleOnboarding(ctx, 'REJECTED'),
};

export class KycOnboardingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    private readonly secrets: SecretBox,
  ) {}

  // Seals link tokens and code messages kept in clear (at start-up; src/kyc/kyc-secrets.ts).
  async sealAtRest(): Promise<number> {
    return sealKycAtRest(this.db, this.secrets);
  }

  async create(
    principal: Principal,
    input: OnboardingInput,
  ): Promise<{ created: boolean; onboarding: ReturnType<typeof onboardingView> }> {
    const cnpj = normalizeTaxId(input.taxID);
    if (!cnpj.ok || cnpj.value.type !== 'BR_CNPJ') {
      throw errors.badRequest('Invalid CNPJ', [
        { field: 'taxID', in: 'body', message: cnpj.ok ? 'must be a CNPJ' : cnpj.reason },
      ]);
    }
    const taxId = cnpj.value.taxId;
    const correlationId = input.correlationID === undefined ? taxId : input.correlationID.trim();
    const issues: FieldIssue[] = [];
    if (correlationId.length === 0) issues.push({ field: 'correlationID', in: 'body', message: 'must not be blank' });
    // The merchant page follows only http(s) addresses.
    if (input.redirectUrl !== undefined && safeRedirect(input.redirectUrl) === undefined)
      issues.push({ field: 'redirectUrl', in: 'body', message: 'must be an http or https URL' });
    const reps = (input.representatives ?? []).map((r, i) => cleanRepresentative(r, `representatives[${i}]`, issues));
    const seen = new Set<string>();
    reps.forEach((r, i) => {
      if (r.taxId && seen.has(r.taxId))
        issues.push({ field: `representatives[${i}].taxID`, in: 'body', message: 'the same CPF appears twice' });
      seen.add(r.taxId);
    });
    if (issues.length) throw errors.validation(issues);

    return this.db.transaction().execute(async (trx) => {
      const existing = await repo.findOnboardingByCorrelationId(trx, principal.companyId, correlationId);
      if (existing) return { created: false, onboarding: await this.view(trx, principal.companyId, existing) };
      const now = await this.clock.now(principal.companyId, trx);
      const row = this.newOnboardingRow({ companyId: principal.companyId, correlationId, taxId, now, input });
      // Its event is written only when the onboarding is (not on a conflict).
      const inserted = await repo.insertOnboardingIfFree(trx, row, [
        recordEventWhenPart(onboardingEvent('PIXGATE:KYC_ONBOARDING_CREATED', row, now), repo.INSERTED_ONBOARDING),
      ]);
      if (!inserted) {
        // Taken meanwhile (a concurrent create) or the CNPJ is onboarded under another correlationID.
        const same = await repo.findOnboardingByCorrelationId(trx, principal.companyId, correlationId);
        if (same) return { created: false, onboarding: await this.view(trx, principal.companyId, same) };
        const other = await repo.findOnboardingByTaxId(trx, principal.companyId, taxId);
        throw errors.conflict(
          `An onboarding of this CNPJ already exists with correlationID ${other?.correlation_id ?? '(unknown)'}`,
        );
      }
      for (const r of reps) {
        await repo.insertRepresentative(trx, {
          id: newRepresentativeId(),
          onboarding_id: inserted.id,
          company_id: principal.companyId,
          tax_id: r.taxId,
          name: r.name ?? enrichedPersonName(r.taxId),
          email: r.email,
          phone: r.phone,
          target_administrator: r.targetAdministrator ?? false,
          created_at: now,
          updated_at: now,
        });
      }
      return { created: true, onboarding: await this.view(trx, principal.companyId, inserted) };
    });
  }

  // A new onboarding's row: its link token kept sealed, and found by its hash.
  private newOnboardingRow(o: {
    companyId: string;
    correlationId: string;
    taxId: string;
    now: Date;
    input: OnboardingInput;
  }): KycOnboardingRow {
    const id = randomUUID();
    const linkToken = randomBytes(16).toString('hex');
    return {
      id,
      company_id: o.companyId,
      correlation_id: o.correlationId,
      tax_id: o.taxId,
      ...((n) => ({ official_name: n.officialName, trade_name: n.tradeName }))(enrichedCompanyNames(o.taxId)),
      status: 'PENDING',
      link_token: this.secrets.seal(linkToken, linkTokenPlace(id)),
      link_token_hash: linkTokenHashOf(linkToken),
      redirect_url: o.input.redirectUrl ?? null,
      created_at: o.now,
      updated_at: o.now,
    };
  }

  async listRepresentatives(principal: Principal, correlationId: string, page: Page) {
    return this.db.transaction().execute(async (trx) => {
      const onboarding = await findRegister(trx, principal.companyId, correlationId);
      const [{ rows, total }, emails] = [
        await repo.pageRepresentatives(trx, onboarding.id, page),
        await accountUserEmails(trx, principal.companyId),
      ];
      return { representatives: rows.map((r) => representativeView(r, emails)), total };
    });
  }

  // Adds a representative, or updates the one with this CPF (a changed e-mail or phone
  // loses its confirmation).
  async upsertRepresentative(principal: Principal, input: RepresentativeInput & { correlationID: string }) {
    const issues: FieldIssue[] = [];
    const r = cleanRepresentative(input, '', issues);
    if (issues.length) throw errors.validation(issues);
    return this.db.transaction().execute(async (trx) => {
      const onboarding = await lockRegister(trx, principal.companyId, input.correlationID);
      if (onboarding.status !== 'PENDING') throw errors.badRequest(`Onboarding is already ${onboarding.status}`);
      const now = await this.clock.now(principal.companyId, trx);
      const existing = await repo.findRepresentativeByTaxId(trx, onboarding.id, r.taxId);
      let id: string;
      if (existing) {
        id = existing.id;
        await repo.updateRepresentative(trx, id, {
          name: r.name ?? existing.name,
          email: r.email,
          phone: r.phone,
          target_administrator: r.targetAdministrator ?? existing.target_administrator,
          updated_at: now,
        });
        if (existing.email !== r.email) await repo.forgetVerification(trx, id, 'EMAIL');
        if (existing.phone !== r.phone) await repo.forgetVerification(trx, id, 'PHONE');
      } else {
        id = newRepresentativeId();
        await repo.insertRepresentative(trx, {
          id,
          onboarding_id: onboarding.id,
          company_id: principal.companyId,
          tax_id: r.taxId,
          name: r.name ?? enrichedPersonName(r.taxId),
          email: r.email,
          phone: r.phone,
          target_administrator: r.targetAdministrator ?? false,
          created_at: now,
          updated_at: now,
        });
      }
      await repo.touchOnboarding(trx, onboarding.id, now);
      const row = await repo.findRepresentative(trx, onboarding.id, id);
      return {
        created: !existing,
        representative: representativeView(row!, await accountUserEmails(trx, principal.companyId)),
      };
    });
  }

  async submit(principal: Principal, correlationId: string) {
    return this.db.transaction().execute(async (trx) => {
      const onboarding = await lockRegister(trx, principal.companyId, correlationId);
      if (onboarding.status === 'SUBMITTED') return this.view(trx, principal.companyId, onboarding);
      if (onboarding.status !== 'PENDING') throw errors.badRequest(`Onboarding is already ${onboarding.status}`);
      const reps = await repo.listRepresentatives(trx, onboarding.id);
      if (reps.length === 0) throw errors.badRequest('Onboarding has no representatives');
      const targets = reps.some((r) => r.target_administrator) ? reps.filter((r) => r.target_administrator) : reps;
      const emails = await accountUserEmails(trx, principal.companyId);
      if (hasFeature(principal, KYC_FEATURES.emailOtp)) {
        const missing = targets.filter((r) => !emailConfirmed(r, emails));
        if (missing.length) throw missingVerification('MISSING_REPRESENTATIVE_EMAIL_VERIFICATION', missing, 'email');
      }
      if (hasFeature(principal, KYC_FEATURES.phoneOtp)) {
        const missing = targets.filter((r) => !phoneConfirmed(r));
        if (missing.length) throw missingVerification('MISSING_REPRESENTATIVE_PHONE_VERIFICATION', missing, 'phone');
      }
      const now = await this.clock.now(principal.companyId, trx);
      const after = { ...onboarding, status: 'SUBMITTED' as const, updated_at: now };
      const submitted = await repo.setOnboardingStatus(trx, onboarding.id, 'SUBMITTED', now, [
        recordEventsPart([onboardingEvent('PIXGATE:KYC_ONBOARDING_SUBMITTED', after, now)]),
      ]);
      // The register the analysis settles (GET /api/v1/account-register), in the same transaction.
      await openAccountRegister(trx, {
        id: randomUUID(),
        company_id: principal.companyId,
        correlation_id: onboarding.correlation_id,
        type: 'BAAS',
        official_name: onboarding.official_name,
        trade_name: onboarding.trade_name,
        tax_id: onboarding.tax_id,
        tax_id_type: 'BR_CNPJ',
        status: 'PENDING',
        created_at: now,
        updated_at: now,
      });
      return this.view(trx, principal.companyId, submitted);
    });
  }

  // Sandbox: the analysis of a SUBMITTED onboarding, named by its merchant link.
  async review(link: string, decision: 'APPROVED' | 'REJECTED') {
    const token = /\/kyc\/onboarding\/([0-9a-f]{32})\/?$/.exec(link)?.[1];
    return this.db.transaction().execute(async (trx) => {
      const onboarding = token ? await repo.lockOnboardingByLinkTokenHash(trx, linkTokenHashOf(token)) : undefined;
      if (!onboarding) throw errors.missing('onboarding');
      if (onboarding.status !== 'SUBMITTED')
        throw errors.badRequest(`Only a SUBMITTED onboarding can be reviewed (it is ${onboarding.status})`);
      const now = await this.clock.now(onboarding.company_id, trx);
      const after = { ...onboarding, status: decision, updated_at: now };
      const reviewed = await repo.setOnboardingStatus(trx, onboarding.id, decision, now, [
        recordEventsPart([onboardingEvent(DECISION_EVENTS[decision], after, now)]),
      ]);
      await settleAccountRegister(trx, onboarding.company_id, onboarding.correlation_id, decision, now);
      return this.view(trx, onboarding.company_id, reviewed);
    });
  }

  // The merchant page behind the onboarding's link (GET /kyc/onboarding/{token}).
  async page(token: string): Promise<string> {
    const onboarding = LINK_TOKEN.test(token)
      ? await repo.findOnboardingByLinkTokenHash(this.db, linkTokenHashOf(token))
      : undefined;
    if (!onboarding) throw errors.missing('onboarding');
    const [reps, emails] = [
      await repo.listRepresentatives(this.db, onboarding.id),
      await accountUserEmails(this.db, onboarding.company_id),
    ];
    return renderOnboardingPage(onboarding, reps, emails);
  }

  private async view(trx: Db, companyId: string, onboarding: KycOnboardingRow) {
    const reps = await repo.listRepresentatives(trx, onboarding.id);
    const opened = { ...onboarding, link_token: openedLinkToken(this.secrets, onboarding) };
    return onboardingView(opened, this.publicUrl, reps, await accountUserEmails(trx, companyId));
  }
}

// The register named by its onboarding correlationID or its CNPJ (masked or not); 404 otherwise.
export async function findRegister(db: Db, companyId: string, correlationId: string): Promise<KycOnboardingRow> {
  const id = correlationId.trim();
  const bare = onlyDigitsAndLetters(id).toUpperCase();
  return (
    (await repo.findOnboardingByCorrelationId(db, companyId, id)) ??
    (bare.length === 14 ? await repo.findOnboardingByTaxId(db, companyId, bare) : undefined) ??
    notFoundRegister()
  );
}

// The same register, locked FOR UPDATE.
export async function lockRegister(db: Db, companyId: string, correlationId: string): Promise<KycOnboardingRow> {
  const id = correlationId.trim();
  const bare = onlyDigitsAndLetters(id).toUpperCase();
  return (
    (await repo.lockOnboardingByCorrelationId(db, companyId, id)) ??
    (bare.length === 14 ? await repo.lockOnboardingByTaxId(db, companyId, bare) : undefined) ??
    notFoundRegister()
  );
}

function notFoundRegister(): never {
  throw errors.missing('onboarding');
}

function missingVerification(
  code: string,
  reps: repo.RepresentativeWithChannels[],
  channel: 'email' | 'phone',
): DomainError {
  return new DomainError('CONFLICT', 409, code, {
    details: reps.map((r) => ({
      field: `representatives[${r.id}].${channel}`,
      message: `${channel === 'email' ? 'e-mail' : 'phone'} not confirmed by a one-time code`,
    })),
  });
}

export function newRepresentativeId(): string {
  return randomBytes(12).toString('hex');
}
