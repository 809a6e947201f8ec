// GET /sandbox/ca.pem: the certificate of the server's certificate authority (it signs the
// HTTPS certificate it makes for itself, the client certificates of applications and the one
// it presents to webhook receivers), for clients to trust. Public; 404 when the server keeps
// no authority (no PIXGATE_SECRETS_KEY outside sandbox mode).
import type Router from '@koa/router';
import type { TlsAuthorityService } from '../tls/authority.service';
import type { AppState } from './types';

export function mountSandboxCa(router: Router<AppState>, authority: TlsAuthorityService): void {
  router.get('/sandbox/ca.pem', async (koa) => {
    if (!authority.canIssue) {
      koa.status = 404;
      koa.body = { error: 'This server keeps no certificate authority (PIXGATE_SECRETS_KEY is not set)' };
      return;
    }
    koa.type = 'application/x-pem-file';
    koa.set('Cache-Control', 'public, max-age=300');
    koa.body = await authority.caCertificatePem();
  });
}
