// The sandbox certificate authority and the certificates this process serves and presents.
// The authority is made once (across every process sharing the database) and kept with its
// private key sealed (src/lib/secret-box.ts, PIXGATE_SECRETS_KEY; in sandbox mode a default key
// written in src/config.ts, so a sandbox's CA is a test authority, not a secret one). The
// server's certificate and the webhook client certificate are issued by each process at start
// with keys that never leave its memory.
import type { Kysely } from 'kysely';
import { type CertificateAndKey, type Config, secretsBoxOf } from '../config';
import type { Database } from '../db/schema';
import {
  type Authority,
  createAuthority,
  issueClientCertificate,
  issueServerCertificate,
  type LeafWithKey,
} from '../lib/x509';
import { isIP } from 'node:net';
import * as repo from './tls.repository';

const SANDBOX = 'sandbox';
const SEAL_CONTEXT = `tls-authority:${SANDBOX}`;
const WEBHOOK_CLIENT_DAYS = 397;

export class TlsAuthorityService {
  private sandbox: Promise<Authority> | undefined;
  private server: Promise<CertificateAndKey> | undefined;
  private webhookClient: Promise<LeafWithKey> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Config,
  ) {}

  // Whether this server can issue certificates: it can always seal its authority's key
  // (PIXGATE_SECRETS_KEY is required outside sandbox mode).
  get canIssue(): boolean {
    return true;
  }

  // The sandbox authority with its private key, made on first use.
  authority(): Promise<Authority> {
    if (!this.sandbox) {
      this.sandbox = this.loadOrCreate();
      this.sandbox.catch(() => (this.sandbox = undefined));
    }
    return this.sandbox;
  }

  async caCertificatePem(): Promise<string> {
    return (await this.authority()).certificatePem;
  }

  private async loadOrCreate(): Promise<Authority> {
    const box = secretsBoxOf(this.config);
    let row = await repo.findAuthority(this.db, SANDBOX);
    if (!row) {
      const made = await createAuthority('pixgate sandbox CA', new Date());
      await repo.insertAuthorityIfAbsent(this.db, {
        name: SANDBOX,
        certificate_pem: made.certificatePem,
        private_key_sealed: box.seal(made.privateKeyPem, SEAL_CONTEXT),
        created_at: new Date(),
      });
      row = await repo.findAuthority(this.db, SANDBOX);
      if (!row) throw new Error('the sandbox certificate authority could not be stored');
    }
    // A key sealed under another PIXGATE_SECRETS_KEY throws SealedWithAnotherKey (main.ts names it).
    return { certificatePem: row.certificate_pem, privateKeyPem: box.open(row.private_key_sealed, SEAL_CONTEXT) };
  }

  // The certificate this process serves HTTPS with: the operator's, or one the sandbox
  // authority issues for localhost, its loopback addresses and the host of PIXGATE_PUBLIC_URL.
  serverCredentials(): Promise<CertificateAndKey> {
    if (this.config.tls.certificate) return Promise.resolve(this.config.tls.certificate);
    this.server ??= this.authority().then(async (authority) => {
      const leaf = await issueServerCertificate(authority, serverNames(this.config.publicUrl), new Date());
      return { certificatePem: leaf.certificatePem + authority.certificatePem, privateKeyPem: leaf.privateKeyPem };
    });
    return this.server;
  }

  // The CAs a client certificate may chain to: the sandbox authority's (when this server
  // keeps one) and the operator's (PIXGATE_MTLS_CA).
  async trustedClientCas(): Promise<string[]> {
    const own = this.canIssue ? [await this.caCertificatePem()] : [];
    return [...own, ...this.config.mtls.trustedCaPems];
  }

  // The client certificate this process presents to webhook receivers: the operator's
  // (PIXGATE_WEBHOOK_CLIENT_CERT/_KEY), or one the sandbox authority issues, chain included.
  webhookClientCredentials(): Promise<CertificateAndKey> {
    if (this.config.webhookClientCertificate) return Promise.resolve(this.config.webhookClientCertificate);
    if (!this.webhookClient) {
      this.webhookClient = this.authority().then(async (authority) => {
        const now = new Date();
        const leaf = await issueClientCertificate(
          authority,
          [{ CN: [`pixgate webhooks (${new URL(this.config.publicUrl).hostname})`] }, { O: ['pixgate'] }],
          now,
          new Date(now.getTime() + WEBHOOK_CLIENT_DAYS * 86_400_000),
        );
        return { certificatePem: leaf.certificatePem + authority.certificatePem, privateKeyPem: leaf.privateKeyPem };
      });
      this.webhookClient.catch(() => (this.webhookClient = undefined));
    }
    return this.webhookClient;
  }
}

// localhost, 127.0.0.1, ::1 and the host of the public URL (a name or an address).
export function serverNames(publicUrl: string): { dnsNames: string[]; ipAddresses: string[] } {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  const dnsNames = ['localhost'];
  const ipAddresses = ['127.0.0.1', '::1'];
  if (isIP(host)) {
    if (!ipAddresses.includes(host)) ipAddresses.push(host);
  } else if (!dnsNames.includes(host.toLowerCase())) dnsNames.push(host.toLowerCase());
  return { dnsNames, ipAddresses };
}
