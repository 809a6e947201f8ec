// The dashboard area's service: its sign-in sessions, with the session limits of the config.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { ChangeFeed } from '../db/change-feed';
import type { Database } from '../db/schema';
import type { IdentityService } from '../identity/identity.service';
import { DashboardSessionService } from './sessions.service';

export interface DashboardDependencies {
  config: Pick<Config, 'dashboard'>;
  db: Kysely<Database>;
  changes: ChangeFeed;
  identity: IdentityService;
}

export function buildDashboardSessionService({
  config,
  db,
  changes,
  identity,
}: DashboardDependencies): DashboardSessionService {
  return new DashboardSessionService(db, changes, identity, config.dashboard);
}
