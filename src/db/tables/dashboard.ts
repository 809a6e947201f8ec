// Tables of the dashboard area: its sessions (src/dashboard/sessions.repository.ts).
import type { ColumnType, Selectable } from 'kysely';

export interface DashboardSessionsTable {
  // SHA-256 (hex) of the random session id the cookie carries; the id itself is never stored.
  id_hash: string;
  company_id: string;
  application_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
}

export type DashboardSession = Selectable<DashboardSessionsTable>;

export interface DashboardTables {
  dashboard_sessions: DashboardSessionsTable;
}
