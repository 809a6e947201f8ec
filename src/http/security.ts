// Security schemes of both specs: resolve the caller, then check the operation's scope.
import type { SecurityResolver } from './dispatch';
import { errors } from '../errors/errors';
import { requireScope } from '../identity/identity.service';

export const platformSecurity: Record<string, SecurityResolver> = {
  AppID: async (koa, operation) => {
    const { services, ip } = koa.state.requestContext;
    if (!koa.get('authorization') && operation.missingAuthorizationStatus === 400)
      throw errors.badRequest('Invalid Authorization header');
    const principal = await services.identity.authenticateAppId(koa.get('authorization') || undefined, ip);
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
  OAuth2: async (koa, operation) => {
    const { services, ip } = koa.state.requestContext;
    const principal = await services.oauth.authenticateBearer(koa.get('authorization') || undefined, ip);
    if (operation.scope && !principal.scopes?.includes(operation.scope)) {
      throw errors.forbidden(`The token does not carry the scope ${operation.scope}`);
    }
    return principal;
  },
  BasicClient: async (koa) => {
    const { services, ip } = koa.state.requestContext;
    return services.oauth.authenticateClient(koa.get('authorization') || undefined, ip);
  },
};
