// OAuth2 client credentials for the Pix API: short-lived HS256 bearer tokens whose scopes
// are the application's Pix scopes intersected with the requested ones.
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { components } from '../../generated/pix.types';
import { DomainError, errors } from '../errors/errors';
import type { Principal } from './principal.types';
import type { SigningKeyService } from '../signing/signing.service';
import type { IdentityService } from './identity.service';
import { IP_REFUSED, ipAllowed, principalOf } from './identity.service';
import { BoundedMap } from '../lib/bounded-map';

export const TOKEN_LIFETIME_SECONDS = 3600;
const ISSUER = 'pixgate';
const AUDIENCE = 'pix-api';

function oauthError(status: number, error: string, description: string): DomainError {
  return new DomainError('OAUTH', status, description, {
    oauthError: error,
    ...(status === 401 ? { headers: { 'WWW-Authenticate': 'Basic realm="pixgate"' } } : {}),
  });
}

export type TokenAnswer = components['schemas']['TokenResponse'];

interface TokenClaims {
  sub: string | undefined;
  scope: unknown;
  // RFC 8705: the x5t#S256 of the client certificate the token is bound to.
  boundTo?: string | undefined;
  // seconds since the epoch
  exp: number;
}

export class OAuthService {
  constructor(
    private readonly identity: IdentityService,
    private readonly keys: SigningKeyService,
    private readonly pixScopes: readonly string[],
  ) {}

  private async secret(): Promise<Uint8Array> {
    const key = await this.keys.key('oauth-hs256', async () => ({
      kid: randomUUID(),
      algorithm: 'HS256',
      privateKey: randomBytes(32).toString('base64'),
      publicJwk: null,
      certificate: null,
    }));
    return Buffer.from(key.private_key, 'base64');
  }

  // Verifies HTTP Basic client credentials (the security of POST /oauth/token), from an
  // address the application's allowlist admits.
  async authenticateClient(authorization: string | undefined, ip: string): Promise<Principal> {
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
    if (!basic)
      throw oauthError(401, 'invalid_client', 'Send the clientId and clientSecret with HTTP Basic authentication');
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const app =
      colon > 0
        ? await this.identity.verifyClient(safeDecode(decoded.slice(0, colon)), safeDecode(decoded.slice(colon + 1)))
        : undefined;
    if (!app) throw oauthError(401, 'invalid_client', 'Unknown client or wrong secret');
    if (!ipAllowed(app, ip)) throw oauthError(401, 'invalid_client', IP_REFUSED);
    return principalOf(app);
  }

  // `certificate`: the thumbprint of the client certificate that admitted the client (mutual
  // TLS); the token is then bound to it (RFC 8705 section 3: `cnf.x5t#S256`).
  async issueToken(
    client: Principal,
    grantType: string | undefined,
    requestedScope: string | undefined,
    certificate?: string,
  ): Promise<TokenAnswer> {
    if (grantType !== 'client_credentials')
      throw oauthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported');
    const granted =
      client.applicationType === 'MASTER' || client.scopes === null
        ? [...this.pixScopes]
        : client.scopes.filter((s) => this.pixScopes.includes(s));
    const requested = requestedScope?.trim() ? [...new Set(requestedScope.trim().split(/\s+/))] : granted;
    const refused = requested.filter((s) => !granted.includes(s));
    if (refused.length > 0)
      throw oauthError(400, 'invalid_scope', `Scopes not granted to this application: ${refused.join(' ')}`);
    const scope = requested.join(' ');
    const token = await new SignJWT({
      scope,
      cid: client.companyId,
      ...(certificate ? { cnf: { 'x5t#S256': certificate } } : {}),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(client.applicationId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
      .sign(await this.secret());
    return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope };
  }

  private readonly verified = new VerifiedTokens();

  // The claims of a valid token of this server: signature, issuer, audience and expiry checked
  // (once per token while it lives).
  private async verifiedClaims(token: string): Promise<TokenClaims> {
    const known = this.verified.get(token);
    if (known) return known;
    let payload: { sub?: string; scope?: unknown; exp?: number; cnf?: unknown };
    // Read outside the try: a database away is no answer about the token.
    const secret = await this.secret();
    try {
      ({ payload } = await jwtVerify(token, secret, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
      }));
    } catch {
      throw errors.unauthorized('Invalid or expired bearer token');
    }
    const cnf = payload.cnf as { 'x5t#S256'?: unknown } | undefined;
    const boundTo = typeof cnf?.['x5t#S256'] === 'string' ? cnf['x5t#S256'] : undefined;
    const claims = { sub: payload.sub, scope: payload.scope, exp: payload.exp!, boundTo };
    this.verified.add(token, claims);
    return claims;
  }

  // Resolves a Pix API bearer token, used from an address its application's allowlist admits
  // (checked on every call: the list may change while a token lives); the principal carries
  // the token's scopes. A token bound to a client certificate (RFC 8705) is refused unless
  // `presented`, the thumbprint of the certificate of the request's connection, is that one.
  async authenticateBearer(
    authorization: string | undefined,
    { ip, presented }: { ip: string; presented?: string | undefined },
  ): Promise<Principal> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!bearer) throw errors.unauthorized('Missing bearer token: get one from POST /oauth/token');
    const claims = await this.verifiedClaims(bearer[1]!);
    if (claims.boundTo && claims.boundTo !== presented)
      throw errors.boundTokenRefused(
        presented
          ? 'this connection presents another client certificate'
          : 'this connection presents no client certificate',
      );
    const app = claims.sub ? await this.identity.findActiveApplication(claims.sub) : undefined;
    if (!app) throw errors.unauthorized('The application of this token is no longer active');
    if (!ipAllowed(app, ip)) throw errors.forbidden(IP_REFUSED);
    const scopes = typeof claims.scope === 'string' && claims.scope ? claims.scope.split(' ') : [];
    return { ...principalOf(app), applicationType: 'API', scopes };
  }
}

// Bearer tokens whose signature and claims were verified, kept until they expire: verifying
// an HS256 JWT through WebCrypto took a tenth of a Pix API request's CPU. Only what the token
// itself says is kept; whether its application is still active is asked on every request.
const VERIFIED_TOKENS_MAX = 10_000;

export class VerifiedTokens {
  private readonly claims = new BoundedMap<string, TokenClaims>(VERIFIED_TOKENS_MAX);

  // The claims of a token verified before, while it has not expired (as jose counts: valid
  // while now < exp, in whole seconds).
  get(token: string, nowMs = Date.now()): TokenClaims | undefined {
    const found = this.claims.get(token);
    if (found && found.exp > Math.floor(nowMs / 1000)) return found;
    if (found) this.claims.delete(token);
    return undefined;
  }

  add(token: string, claims: TokenClaims): void {
    this.claims.set(token, claims);
  }

  get size(): number {
    return this.claims.size;
  }
}

// Basic credentials may be form-encoded (RFC 6749 2.3.1); a stray % is taken literally.
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
