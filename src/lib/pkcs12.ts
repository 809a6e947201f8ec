// PKCS#12 (`.p12`, `.pfx`) files as PSP sandboxes hand them out: one private key and its
// certificate chain, protected by a password. Written with node-forge, whose PKCS#12 writer
// is small and long used; the key bag is encrypted with PBES2 (PBKDF2, AES-256-CBC) and the
// file carries a SHA-1 MAC, the form OpenSSL 3 (and so Node's `pfx` option) loads without its
// legacy provider. RSA keys only (node-forge's limit; src/lib/x509.ts makes RSA client keys).
import forge from 'node-forge';

export interface Pkcs12Input {
  privateKeyPem: string;
  // The certificate first, then the chain above it.
  certificatePems: string[];
  password: string;
  // A name clients show for the key (e.g. the application's clientId).
  friendlyName?: string;
}

// The DER bytes of a password-protected PKCS#12 file.
export function buildPkcs12(input: Pkcs12Input): Buffer {
  const key = forge.pki.privateKeyFromPem(input.privateKeyPem);
  const chain = input.certificatePems.map((pem) => forge.pki.certificateFromPem(pem));
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, chain, input.password, {
    algorithm: 'aes256',
    count: 2048,
    saltSize: 16,
    ...(input.friendlyName ? { friendlyName: input.friendlyName } : {}),
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
