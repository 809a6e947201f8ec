// The dashboard's cookies, written by hand so that each is HttpOnly, SameSite=Strict, limited
// to /dashboard, and Secure when the server is reached over https (Koa's cookie helper refuses
// Secure on a request it sees as plain http, which is what a TLS-terminating proxy sends).
import type { KoaContext } from '../http/types';

export const SESSION_COOKIE = 'pixgate_dash';
export const PRE_SESSION_COOKIE = 'pixgate_dash_pre';
export const LANG_COOKIE = 'pixgate_dash_lang';

export function readCookie(koa: KoaContext, name: string): string | undefined {
  const value = koa.cookies.get(name);
  return value && /^[A-Za-z0-9_.-]{1,200}$/.test(value) ? value : undefined;
}

export function setCookie(
  koa: KoaContext,
  name: string,
  value: string,
  options: { secure: boolean; maxAgeSeconds?: number },
): void {
  const parts = [`${name}=${value}`, 'Path=/dashboard', 'HttpOnly', 'SameSite=Strict'];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  koa.append('Set-Cookie', parts.join('; '));
}
