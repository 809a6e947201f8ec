// Client certificates bound to applications, and the mutual TLS check of the Pix API: whether
// the certificate of a request's connection admits the application whose credentials (or
// token) it presents. Certificates are read by thumbprint through a per-process cache that a
// revocation empties on every process at once (`certificates:<companyId>` on the change feed),
// so the check sends no statement once a certificate was seen.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { Config } from '../config';
import { type ChangeFeed, notifySql } from '../db/change-feed';
import { ReadCache } from '../db/read-cache';
import type { ApplicationCertificate, CertificateOrigin, Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { IdentityService } from '../identity/identity.service';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import type { Page } from '../lib/paging';
import { buildPkcs12 } from '../lib/pkcs12';
import {
  certificateFacts,
  issueCertificate,
  issueClientCertificate,
  issuedByOneOf,
  type NameParts,
  readCsr,
} from '../lib/x509';
import type { CompanyDirectory } from '../identity/companies.service';
import type { TlsAuthorityService } from './authority.service';
import type { ClientConnection } from './tls.types';
import * as repo from './tls.repository';
import { describeVerifyCode } from './verify-errors';

type CertificateAnswer = components['schemas']['ApplicationCertificate'];
type NewCertificateAnswer = components['schemas']['NewApplicationCertificate'];
type CertificateInput = components['schemas']['ApplicationCertificatePayload'];

const CACHE_TTL_MS = 60_000;
const DAY_MS = 86_400_000;
const DEFAULT_VALIDITY_DAYS = 365;
const BACKDATE_MS = 60_000;

export const certificatesChange = (companyId: string) => `certificates:${companyId}`;

export class CertificatesService {
  private readonly byThumbprint: ReadCache<ApplicationCertificate>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
    private readonly identity: IdentityService,
    private readonly companies: CompanyDirectory,
    private readonly authority: TlsAuthorityService,
    private readonly config: Pick<Config, 'sandbox' | 'mtls' | 'tls'>,
  ) {
    this.byThumbprint = new ReadCache(feed, 'certificates', CACHE_TTL_MS);
  }

  async issue(principal: Principal, clientId: string, input: CertificateInput): Promise<NewCertificateAnswer> {
    const ways = [input.csr !== undefined, input.generateKey === true, input.certificate !== undefined];
    if (ways.filter(Boolean).length !== 1 || input.generateKey === false)
      throw errors.badRequest('Send exactly one of csr, generateKey and certificate');
    if (input.password !== undefined && !input.generateKey)
      throw errors.badRequest('password goes with generateKey (it protects the .p12 file)');
    if (input.validityDays !== undefined && input.certificate !== undefined)
      throw errors.badRequest('validityDays goes with csr or generateKey: an uploaded certificate keeps its own');
    const app = await this.identity.applicationOfCompany(principal, clientId);
    if (!app.is_active) throw errors.badRequest('The application was deleted: it takes no certificate');
    if (input.certificate !== undefined) return this.register(principal, app.id, clientId, input.certificate);
    if (input.generateKey && !this.config.sandbox)
      throw errors.badRequest(
        'generateKey is a sandbox convenience: outside sandbox mode send a csr (the private key never leaves the client)',
      );
    if (!this.authority.canIssue)
      throw errors.badRequest(
        'This server keeps no certificate authority (set PIXGATE_SECRETS_KEY); register a certificate of your CA instead',
      );
    const now = await this.clock.now(principal.companyId);
    const notAfter = new Date(now.getTime() + (input.validityDays ?? DEFAULT_VALIDITY_DAYS) * DAY_MS);
    const subject = await this.subjectOf(principal.companyId, clientId);
    const authority = await this.authority.authority();
    if (input.csr !== undefined) {
      const csr = await readCsr(input.csr);
      if (!csr.ok) throw errors.badRequest(`csr ${csr.reason}`);
      const pem = await issueCertificate({
        authority,
        publicKey: csr.publicKey,
        subject,
        notBefore: new Date(now.getTime() - BACKDATE_MS),
        notAfter,
        usage: 'client',
      });
      const stored = await this.store(principal, app.id, pem, 'CSR', now);
      return { certificate: answerOf(stored, clientId, now), caCertificate: authority.certificatePem };
    }
    const leaf = await issueClientCertificate(authority, subject, now, notAfter);
    const stored = await this.store(principal, app.id, leaf.certificatePem, 'GENERATED', now);
    const password = input.password ?? randomBytes(12).toString('base64url');
    const pkcs12 = buildPkcs12({
      privateKeyPem: leaf.privateKeyPem,
      certificatePems: [leaf.certificatePem, authority.certificatePem],
      password,
      friendlyName: clientId,
    });
    return {
      certificate: answerOf(stored, clientId, now),
      caCertificate: authority.certificatePem,
      privateKey: leaf.privateKeyPem,
      pkcs12: pkcs12.toString('base64'),
      ...(input.password === undefined ? { pkcs12Password: password } : {}),
    };
  }

  // A certificate of the operator's CA (PIXGATE_MTLS_CA), bound as it is.
  private async register(principal: Principal, applicationId: string, clientId: string, pem: string) {
    let facts: ReturnType<typeof certificateFacts>;
    try {
      facts = certificateFacts(pem);
    } catch {
      throw errors.badRequest('certificate is not a PEM X.509 certificate');
    }
    const trusted = this.config.mtls.trustedCaPems;
    if (trusted.length === 0 || !issuedByOneOf(pem, trusted))
      throw errors.badRequest('certificate was not issued by a CA this server trusts (PIXGATE_MTLS_CA)');
    const now = await this.clock.now(principal.companyId);
    if (facts.notAfter <= now) throw errors.badRequest('certificate has expired');
    const stored = await this.store(principal, applicationId, pem, 'UPLOADED', now);
    return { certificate: answerOf(stored, clientId, now), caCertificate: trusted.join('') };
  }

  private async store(
    principal: Principal,
    applicationId: string,
    pem: string,
    origin: CertificateOrigin,
    now: Date,
  ): Promise<ApplicationCertificate> {
    const facts = certificateFacts(pem);
    const stored = await repo.insertCertificate(this.db, {
      id: randomUUID(),
      company_id: principal.companyId,
      application_id: applicationId,
      thumbprint: facts.thumbprint,
      serial_number: facts.serialNumber,
      subject: facts.subject,
      issuer: facts.issuer,
      certificate_pem: facts.pem,
      origin,
      not_before: facts.notBefore,
      not_after: facts.notAfter,
      created_at: now,
      revoked_at: null,
      revocation_reason: null,
    });
    if (!stored) throw errors.badRequest('This certificate is already bound to an application');
    return stored;
  }

  // The company in the subject, as ICP-Brasil certificates name it: `<name>:<CNPJ>`.
  private async subjectOf(companyId: string, clientId: string): Promise<NameParts> {
    const company = await this.companies.get(companyId);
    const taxId = company.tax_id.replace(/\D/g, '') || company.tax_id;
    const name = company.official_name.slice(0, 40);
    return [{ CN: [`${name}:${taxId}`] }, { OU: [clientId] }, { O: [name] }, { '2.5.4.5': [taxId] }];
  }

  async list(principal: Principal, clientId: string, page: Page) {
    const app = await this.identity.applicationOfCompany(principal, clientId);
    const { rows, total } = await repo.findCertificatesOfApplication(this.db, app.id, page);
    const now = await this.clock.now(principal.companyId);
    return { certificates: rows.map((row) => answerOf(row, clientId, now)), total };
  }

  async get(principal: Principal, clientId: string, id: string): Promise<CertificateAnswer> {
    const app = await this.identity.applicationOfCompany(principal, clientId);
    const row = await repo.findCertificateOfApplication(this.db, app.id, id);
    if (!row) throw errors.missing('certificate');
    return answerOf(row, clientId, await this.clock.now(principal.companyId));
  }

  // Revoked in the statement that announces it; answered once every process heard it, so the
  // next request with the certificate is refused wherever it lands.
  async revoke(principal: Principal, clientId: string, id: string, reason: string | undefined) {
    const app = await this.identity.applicationOfCompany(principal, clientId);
    const now = await this.clock.now(principal.companyId);
    const row = await repo.revokeCertificate(
      this.db,
      { applicationId: app.id, id, at: now, reason: reason ?? null },
      notifySql(this.feed, certificatesChange(principal.companyId)),
    );
    if (!row) throw errors.missing('certificate');
    this.feed.deliverLocally(certificatesChange(principal.companyId));
    await this.feed.propagated();
    return answerOf(row, clientId, now);
  }

  private async record(thumbprint: string): Promise<ApplicationCertificate | undefined> {
    return this.byThumbprint.get(
      thumbprint,
      () => repo.findCertificateByThumbprint(this.db, thumbprint),
      (row) => row.company_id,
    );
  }

  // The mutual TLS check (PIXGATE_MTLS) of a request whose credentials name `applicationId`:
  // throws the refusal in words, else answers the thumbprint of the certificate that admitted
  // it (what a token issued now is bound to), or undefined when none is needed nor presented.
  async admit(connection: ClientConnection, applicationId: string, at: 'token' | 'api'): Promise<string | undefined> {
    const { mode } = this.config.mtls;
    if (mode === 'off') return undefined;
    const refuse = (reason: string) => errors.clientCertificateRefused(reason, at);
    if (!connection.tls) {
      if (mode === 'optional') return undefined;
      throw refuse(
        `this request came over plain HTTP; the Pix API takes a client certificate over HTTPS (port ${this.config.tls.port})`,
      );
    }
    const presented = connection.certificate;
    if (!presented) {
      if (mode === 'optional') return undefined;
      throw refuse('no client certificate was presented on this connection');
    }
    if (!presented.authorized)
      throw refuse(
        describeVerifyCode(
          presented.verifyError,
          'the certificate',
          'the sandbox CA (GET /sandbox/ca.pem) nor a CA of PIXGATE_MTLS_CA',
        ) ?? `the certificate did not verify (${presented.verifyError ?? 'unknown reason'})`,
      );
    const record = await this.record(presented.thumbprint);
    if (!record)
      throw refuse(
        'the certificate is bound to no application (bind it with POST /api/v1/application/{clientId}/certificates)',
      );
    if (record.revoked_at) throw refuse(`the certificate was revoked on ${record.revoked_at.toISOString()}`);
    if (record.not_after.getTime() <= Date.now())
      throw refuse(`the certificate has expired (on ${record.not_after.toISOString()})`);
    if (record.application_id !== applicationId)
      throw refuse('the certificate belongs to another application than the credentials presented');
    return presented.thumbprint;
  }
}

function answerOf(row: ApplicationCertificate, clientId: string, now: Date): CertificateAnswer {
  const status = row.revoked_at ? 'REVOKED' : row.not_after <= now ? 'EXPIRED' : 'ACTIVE';
  return {
    id: row.id,
    clientId,
    status,
    origin: row.origin,
    thumbprint: row.thumbprint,
    serialNumber: row.serial_number,
    subject: row.subject,
    issuer: row.issuer,
    notBefore: row.not_before.toISOString(),
    notAfter: row.not_after.toISOString(),
    createdAt: row.created_at.toISOString(),
    ...(row.revoked_at ? { revokedAt: row.revoked_at.toISOString() } : {}),
    ...(row.revocation_reason ? { revocationReason: row.revocation_reason } : {}),
    certificate: row.certificate_pem,
  };
}
