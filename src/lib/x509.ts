// X.509 for mutual TLS, on @peculiar/x509 over Node's WebCrypto: a certificate authority, the
// certificates it signs (a server's, a client's from a key pair or from a CSR), and the facts a
// TLS check needs (the RFC 8705 thumbprint, validity, subject). Pure: callers store the PEM.
//
// Keys are RSA-2048 with PKCS#1 v1.5 SHA-256 signatures, the one kind every client of this
// sandbox can read: a PKCS#12 file (src/lib/pkcs12.ts) holds RSA keys only, and Efí, Inter and
// ICP-Brasil certificates are RSA. A server's own leaf is ECDSA P-256 (fast to make at start,
// cheap handshakes); it never leaves the process.
import { createHash, randomBytes, webcrypto, X509Certificate as NodeCertificate } from 'node:crypto';
import type * as X509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
const subtle = webcrypto.subtle;
const RSA: webcrypto.RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};
const DAY_MS = 86_400_000;
// Leeway for clocks a little behind ours: a certificate is valid from a minute ago.
const BACKDATE_MS = 60_000;

let x509Module: Promise<typeof X509> | undefined;

// Loads @peculiar/x509 once; its dependency tsyringe needs the Reflect metadata polyfill first.
export function loadX509(): Promise<typeof X509> {
  if (!x509Module) x509Module = import('reflect-metadata').then(() => import('@peculiar/x509'));
  return x509Module;
}

// PEM armour for DER bytes, 64 characters per line.
export function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const b64 = Buffer.from(der as Uint8Array)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

// PEM text ending in a newline, so that certificates concatenate into a chain.
function withNewline(pem: string): string {
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}

// RFC 8705 section 3.1: base64url SHA-256 of the certificate's DER (the `x5t#S256` of `cnf`).
export function thumbprintS256(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('base64url');
}

// The certificates of a PEM bundle (everything else in it ignored), each as its own PEM.
export function splitPemBundle(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)?.map((p) => `${p}\n`) ?? [];
}

// One attribute of a distinguished name, by short name or OID.
export type NameParts = Array<Record<string, string[]>>;

export interface KeyPairPem {
  privateKeyPem: string;
  publicKey: CryptoKey;
  privateKey: CryptoKey;
}

export async function generateRsaKeyPair(): Promise<KeyPairPem> {
  const keys = (await subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const pkcs8 = await subtle.exportKey('pkcs8', keys.privateKey);
  return { privateKeyPem: toPem('PRIVATE KEY', pkcs8), publicKey: keys.publicKey, privateKey: keys.privateKey };
}

async function generateEcKeyPair(): Promise<KeyPairPem> {
  const keys = (await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const pkcs8 = await subtle.exportKey('pkcs8', keys.privateKey);
  return { privateKeyPem: toPem('PRIVATE KEY', pkcs8), publicKey: keys.publicKey, privateKey: keys.privateKey };
}

function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

// The signing key of an authority (its PKCS#8 PEM).
async function importSigningKey(privateKeyPem: string): Promise<CryptoKey> {
  return subtle.importKey('pkcs8', pemBody(privateKeyPem), RSA, false, ['sign']);
}

function serialNumber(): string {
  // 128 random bits, positive (a leading byte below 0x80).
  return `01${randomBytes(16).toString('hex')}`;
}

export interface Authority {
  certificatePem: string;
  privateKeyPem: string;
}

// A certificate authority valid `years` from a minute ago: may sign end-entity certificates only.
export async function createAuthority(commonName: string, now: Date, years = 10): Promise<Authority> {
  const x509 = await loadX509();
  const keys = await generateRsaKeyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: [{ CN: [commonName] }, { O: ['pixgate'] }],
      notBefore: new Date(now.getTime() - BACKDATE_MS),
      notAfter: new Date(now.getTime() + years * 365 * DAY_MS),
      keys: { publicKey: keys.publicKey, privateKey: keys.privateKey },
      signingAlgorithm: RSA,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
  return { certificatePem: withNewline(cert.toString('pem')), privateKeyPem: keys.privateKeyPem };
}

export interface IssueOptions {
  authority: Authority;
  // The subject's public key: a CryptoKey, or the one of a CSR.
  publicKey: CryptoKey | X509.PublicKey;
  subject: NameParts;
  notBefore: Date;
  notAfter: Date;
  usage: 'client' | 'server';
  // Server certificates: the names and addresses they answer for.
  dnsNames?: string[];
  ipAddresses?: string[];
}

// A certificate signed by the authority; its PEM.
export async function issueCertificate(options: IssueOptions): Promise<string> {
  const x509 = await loadX509();
  const issuer = new x509.X509Certificate(options.authority.certificatePem);
  const signingKey = await importSigningKey(options.authority.privateKeyPem);
  const names = [
    ...(options.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(options.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: options.subject,
      issuer: issuer.subject,
      notBefore: options.notBefore,
      notAfter: options.notAfter,
      publicKey: options.publicKey,
      signingKey,
      signingAlgorithm: RSA,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(
          options.usage === 'server'
            ? x509.KeyUsageFlags.digitalSignature
            : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
          true,
        ),
        new x509.ExtendedKeyUsageExtension(
          [options.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth],
          false,
        ),
        await x509.AuthorityKeyIdentifierExtension.create(issuer, false, webcrypto),
        ...(names.length ? [new x509.SubjectAlternativeNameExtension(names, false)] : []),
      ],
    },
    webcrypto,
  );
  return withNewline(cert.toString('pem'));
}

export interface LeafWithKey {
  certificatePem: string;
  privateKeyPem: string;
}

// A server certificate (ECDSA P-256) for the given names and addresses, valid `days`.
export async function issueServerCertificate(
  authority: Authority,
  hosts: { dnsNames: string[]; ipAddresses: string[] },
  now: Date,
  days = 397,
): Promise<LeafWithKey> {
  const keys = await generateEcKeyPair();
  const certificatePem = await issueCertificate({
    authority,
    publicKey: keys.publicKey,
    subject: [{ CN: [hosts.dnsNames[0] ?? hosts.ipAddresses[0] ?? 'localhost'] }, { O: ['pixgate'] }],
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter: new Date(now.getTime() + days * DAY_MS),
    usage: 'server',
    ...hosts,
  });
  return { certificatePem, privateKeyPem: keys.privateKeyPem };
}

// A client certificate with a new RSA key pair (the key returned, never kept by the caller's
// authority), valid from a minute ago until `notAfter`.
export async function issueClientCertificate(
  authority: Authority,
  subject: NameParts,
  now: Date,
  notAfter: Date,
): Promise<LeafWithKey> {
  const keys = await generateRsaKeyPair();
  const certificatePem = await issueCertificate({
    authority,
    publicKey: keys.publicKey,
    subject,
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter,
    usage: 'client',
  });
  return { certificatePem, privateKeyPem: keys.privateKeyPem };
}

export type CsrCheck = { ok: true; publicKey: X509.PublicKey } | { ok: false; reason: string };

// A PKCS#10 request whose signature proves its sender holds the private key; its public key.
export async function readCsr(pem: string): Promise<CsrCheck> {
  const x509 = await loadX509();
  let csr: X509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem.trim());
  } catch {
    return { ok: false, reason: 'is not a PEM certificate signing request (PKCS#10)' };
  }
  let verified = false;
  try {
    verified = await csr.verify(webcrypto);
  } catch {
    verified = false;
  }
  if (!verified) return { ok: false, reason: 'is not signed by the key it carries (or uses an unsupported algorithm)' };
  const algorithm = csr.publicKey.algorithm as { name: string; modulusLength?: number; namedCurve?: string };
  if (algorithm.name === 'RSASSA-PKCS1-v1_5' || algorithm.name === 'RSA-PSS') {
    if ((algorithm.modulusLength ?? 0) < 2048) return { ok: false, reason: 'has an RSA key shorter than 2048 bits' };
  } else if (algorithm.name !== 'ECDSA' || !['P-256', 'P-384'].includes(algorithm.namedCurve ?? '')) {
    return { ok: false, reason: 'must carry an RSA (2048 bits or more) or ECDSA P-256/P-384 key' };
  }
  return { ok: true, publicKey: csr.publicKey };
}

export interface CertificateFacts {
  // The certificate alone, PEM (whatever else the given PEM text held dropped).
  pem: string;
  der: Buffer;
  thumbprint: string;
  serialNumber: string;
  subject: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
}

// What a TLS check and a certificate record need of a PEM certificate.
export function certificateFacts(pem: string): CertificateFacts {
  const cert = new NodeCertificate(pem);
  return {
    pem: cert.toString(),
    der: cert.raw,
    thumbprint: thumbprintS256(cert.raw),
    serialNumber: cert.serialNumber.toLowerCase(),
    subject: cert.subject.replace(/\n/g, ', '),
    issuer: cert.issuer.replace(/\n/g, ', '),
    notBefore: new Date(cert.validFrom),
    notAfter: new Date(cert.validTo),
  };
}

// Whether `pem` was signed by one of `authorities` (PEMs): its issuer, checked by signature.
export function issuedByOneOf(pem: string, authorities: string[]): boolean {
  const cert = new NodeCertificate(pem);
  return authorities.some((caPem) => {
    const ca = new NodeCertificate(caPem);
    return cert.checkIssued(ca) && cert.verify(ca.publicKey);
  });
}
