// What the HTTP layer reads of a request's connection for mutual TLS (src/http/client-connection.ts)
// and the TLS services judge.
export type ClientConnection =
  { tls: false } | { tls: true; certificate: undefined } | { tls: true; certificate: PresentedCertificate };

export interface PresentedCertificate {
  // RFC 8705 x5t#S256 of the certificate the client presented.
  thumbprint: string;
  // Whether it chains to a CA the server trusts, and if not OpenSSL's code (CERT_HAS_EXPIRED...).
  authorized: boolean;
  verifyError: string | undefined;
}
