// Security schemes of both specs: resolve the caller, then check the operation's scope.
import type { SecurityResolver } from './dispatch';
import { errors } from '../errors/errors';
import { requireScope } from '../identity/identity.service';
import { connectionOf } from './client-connection';

export const platformSecurity: Record<string, SecurityResolver> = {
  AppID: async (koa, operation) => {
    const { services, ip } = koa.state.requestContext;
    if (!koa.get('authorization') && operation.missingAuthorizationStatus === 400)
      throw errors.badRequest('Invalid Authorization header');
    // The caller is known once the credentials verify, before the IP and scope checks: a
    // refused call of the company's own application is in the company's request log.
    const principal = await services.identity.authenticateAppId(koa.get('authorization') || undefined, ip, {
      verified: (caller) => (koa.state.requestContext.principal = caller),
    });
    requireScope(principal, operation.scope);
    return principal;
  },
  // Platform operators: the bearer token of PIXGATE_OPERATOR_TOKEN.
  OperatorToken: async (koa) => {
    const { services } = koa.state.requestContext;
    return services.identity.authenticateOperator(koa.get('authorization') || undefined, services.config.operatorToken);
  },
};

export const pixSecurity: Record<string, SecurityResolver> = {
  // A bearer token, bound or not to the connection's client certificate (RFC 8705), then the
  // mutual TLS check of its application (PIXGATE_MTLS).
  OAuth2: async (koa, operation) => {
    const { services, ip } = koa.state.requestContext;
    const connection = connectionOf(koa);
    const presented = connection.tls ? connection.certificate?.thumbprint : undefined;
    const principal = await services.oauth.authenticateBearer(koa.get('authorization') || undefined, { ip, presented });
    await services.certificates.admit(connection, principal.applicationId, 'api');
    // known before the scope check, as above
    koa.state.requestContext.principal = principal;
    if (operation.scope && !principal.scopes?.includes(operation.scope)) {
      throw errors.forbidden(`The token does not carry the scope ${operation.scope}`);
    }
    return principal;
  },
  // Client credentials at the token endpoint (from an address the application's allowlist
  // admits), then the mutual TLS check; the certificate that admitted the client is what the
  // token will be bound to.
  BasicClient: async (koa) => {
    const { services, ip } = koa.state.requestContext;
    const principal = await services.oauth.authenticateClient(koa.get('authorization') || undefined, ip);
    koa.state.requestContext.clientCertificate = await services.certificates.admit(
      connectionOf(koa),
      principal.applicationId,
      'token',
    );
    return principal;
  },
};
