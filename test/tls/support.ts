// Real TLS clients for the mutual TLS tests: Node's https with a certificate and key, or with a
// PKCS#12 file and its password, each on its own keep-alive agent (as clients reuse
// handshakes); and the machine's curl and openssl.
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:https';
import { webcrypto } from 'node:crypto';
import { loadX509, toPem } from '../../src/lib/x509';

export interface Identity {
  cert?: string;
  key?: string;
  pfx?: Buffer;
  passphrase?: string;
}

export interface TlsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

export class TlsClient {
  private readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    ca: string,
    identity: Identity = {},
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 1, ca, ...identity });
  }

  request(
    method: string,
    path: string,
    options: { auth?: string; form?: Record<string, string>; body?: unknown } = {},
  ): Promise<TlsResponse> {
    const headers: Record<string, string> = {};
    if (options.auth) headers.authorization = options.auth;
    let payload: string | undefined;
    if (options.form) {
      payload = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.baseUrl), { method, headers, agent: this.agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          const json = /json/.test(String(res.headers['content-type'] ?? '')) && text;
          resolve({ status: res.statusCode!, headers: res.headers, body: json ? JSON.parse(text) : text, text });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  token(clientId: string, clientSecret: string, scope = 'cob.read cob.write'): Promise<TlsResponse> {
    return this.request('POST', '/oauth/token', {
      auth: 'Basic ' + Buffer.from(`${clientId}:${clientSecret}`).toString('base64'),
      form: { grant_type: 'client_credentials', scope },
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

// The claims of a JWT (no verification: the server verified it).
export function claimsOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

export function run(
  command: string,
  args: string[],
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

export async function hasTool(command: string): Promise<boolean> {
  return (await run('sh', ['-c', `command -v ${command}`])).code === 0;
}

// A key pair and a PKCS#10 request for it, made the way a client makes them (its key stays here).
export async function keyAndCsr(): Promise<{ key: string; csr: string }> {
  const x509 = await loadX509();
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create(
    { name: 'CN=erp', keys, signingAlgorithm: alg },
    webcrypto,
  );
  return {
    key: toPem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    csr: csr.toString('pem'),
  };
}
