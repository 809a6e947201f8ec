// The dashboard's sign-in, sessions and sign-out. A session is a row of the database (any
// process resumes it) named by the SHA-256 of a random id that only the browser's cookie
// holds; it acts as the application that signed in, whose credential is checked by identity
// exactly as the API checks it and never kept. Resuming costs no statement while the session
// is in this process's cache (at most SEEN_EVERY_MS old, evicted on every process when it is
// signed out), and one statement (which also restarts its idle time) otherwise.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../db/change-feed';
import { notifySql } from '../db/change-feed';
import { ReadCache } from '../db/read-cache';
import type { DashboardSession, Database } from '../db/schema';
import { errors } from '../errors/errors';
import { type IdentityService, normalizeIp, principalOf } from '../identity/identity.service';
import * as repo from './sessions.repository';
import type { SessionLimits } from './sessions.repository';

// (named through identity's service: src/http/types.ts would close a cycle through services.ts)
export type Principal = ReturnType<typeof principalOf>;

export type Credential = { appId: string } | { clientId: string; clientSecret: string };

// How stale a cached session may be: its idle time is restarted at most this often.
const SEEN_EVERY_MS = 60_000;
const TOPIC = 'dashboard-session';

export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

export class DashboardSessionService {
  private readonly cache: ReadCache<DashboardSession>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly feed: ChangeFeed,
    private readonly identity: IdentityService,
    private readonly limits: SessionLimits,
  ) {
    this.cache = new ReadCache(feed, TOPIC, SEEN_EVERY_MS);
  }

  // Checks the credential as the API does; answers the new session's id (for the cookie only).
  async signIn(credential: Credential, ip: string): Promise<{ sessionId: string; principal: Principal }> {
    const principal = await this.principalOf(credential, ip);
    const sessionId = randomBytes(32).toString('base64url');
    const idHash = hashSessionId(sessionId);
    const generation = this.cache.mark();
    await repo.deleteEndedSessions(this.db, this.limits);
    const row = await repo.insertSession(this.db, {
      idHash,
      companyId: principal.companyId,
      applicationId: principal.applicationId,
    });
    this.cache.store(idHash, row, idHash, generation);
    return { sessionId, principal };
  }

  // The caller of a live session, or undefined (unknown, ended, or its application removed).
  async resume(sessionId: string, ip: string): Promise<Principal | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(sessionId)) return undefined;
    const idHash = hashSessionId(sessionId);
    let session = await this.cache.get(
      idHash,
      () => repo.touchSession(this.db, idHash, this.limits),
      () => idHash,
    );
    if (session && this.ended(session)) session = await repo.touchSession(this.db, idHash, this.limits);
    if (!session) return undefined;
    const app = await this.identity.findActiveApplication(session.application_id);
    if (!app || app.company_id !== session.company_id) return undefined;
    if (app.allowed_ips && !app.allowed_ips.includes(normalizeIp(ip))) return undefined;
    return principalOf(app);
  }

  async signOut(sessionId: string): Promise<void> {
    const idHash = hashSessionId(sessionId);
    await repo.deleteSession(this.db, idHash, notifySql(this.feed, `${TOPIC}:${idHash}`));
    this.feed.deliverLocally(`${TOPIC}:${idHash}`);
    await this.feed.propagated();
  }

  // A cached session past its limits by this process's clock (the database decides again).
  private ended(session: DashboardSession): boolean {
    const now = Date.now();
    return (
      now - new Date(session.last_seen_at).getTime() >= this.limits.idleMs ||
      now - new Date(session.created_at).getTime() >= this.limits.maxAgeMs
    );
  }

  private async principalOf(credential: Credential, ip: string): Promise<Principal> {
    if ('appId' in credential) return this.identity.authenticateAppId(credential.appId.trim(), ip);
    const app = await this.identity.verifyClient(credential.clientId.trim(), credential.clientSecret);
    if (!app) throw errors.unauthorized();
    if (app.allowed_ips && !app.allowed_ips.includes(normalizeIp(ip))) throw errors.unauthorized();
    return principalOf(app);
  }
}
