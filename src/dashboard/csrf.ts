// CSRF tokens (synchronizer pattern, OWASP): a session's token is an HMAC of its random id, so
// it is not stored and cannot be made without the cookie; the sign-in form, before any session,
// uses the same construction over a random pre-session cookie. Every POST must carry the token
// of the cookie it comes with. The session cookie is also SameSite=Strict: the token is the
// defence that does not depend on the browser.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SESSION_PURPOSE = 'pixgate dashboard csrf';
const LOGIN_PURPOSE = 'pixgate dashboard sign-in csrf';

export const csrfOfSession = (sessionId: string) =>
  createHmac('sha256', sessionId).update(SESSION_PURPOSE).digest('base64url');

export const csrfOfLogin = (preSession: string) =>
  createHmac('sha256', preSession).update(LOGIN_PURPOSE).digest('base64url');

export const newPreSession = () => randomBytes(32).toString('base64url');

export function tokensMatch(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}
