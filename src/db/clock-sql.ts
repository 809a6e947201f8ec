// Each company's clock (lib/clock.ts) inside SQL, for rows whose due time a query compares.
import { type Expression, sql } from 'kysely';

// The same clock inside a query, for rows whose due time SQL compares (webhook retries,
// expiries): database time plus the offset of the company in `companyId`, plus `ms`.
export function companyNowSql(companyId: Expression<string>, ms = 0) {
  return sql<Date>`(now() + ((select clock_offset_ms from companies where id = ${companyId}) + ${ms}::double precision) * interval '1 millisecond')`;
}

// The furthest clock of any company: a bound that an index on a due time can use before each
// row is compared with its own company's clock.
export function latestCompanyNowSql() {
  return sql<Date>`(now() + coalesce((select max(clock_offset_ms) from companies), 0) * interval '1 millisecond')`;
}

// The company's today (UTC date, as todayUtc) inside a query, plus `days`.
export function companyTodaySql(companyId: Expression<string>, days = 0) {
  return sql<string>`((${companyNowSql(companyId)} at time zone 'UTC')::date + ${days}::int)`;
}
