// Lists of charges by period at any size: the period's charges counted per day from the
// daily roll-up (charge_day_counts) where a whole rolled-up day lies in the period, and from
// the charges themselves elsewhere (the partial first and last days, the days not rolled up
// yet). A count then reads a few rows per day instead of one per charge, and a skip deep into
// the list starts reading at the day it lands on.
import { sql } from 'kysely';
import type { ChargeKind, Db } from '../db/schema';
import { companyTodaySql } from '../db/clock-sql';

// The earliest and latest instants a list without bounds covers.
export const BEGINNING = new Date('1970-01-01T00:00:00.000Z');
export const END_OF_TIME = new Date('9999-12-31T23:59:59.999Z');

// Where a skip of `offset` rows lands in the list of a period: the total, the instant to start
// reading from (none when the skip passes the end) and how many charges from there to skip
// still (at most one day's).
export interface Landing {
  total: number;
  from?: Date;
  skip: number;
}

// The company's charges of `kinds` created in [from, to]: counted per day, then where `offset`
// lands, in one statement.
export async function landingInPeriod(
  db: Db,
  companyId: string,
  kinds: ChargeKind[],
  period: { from: Date; to: Date },
  offset: number,
): Promise<Landing> {
  const { from, to } = period;
  const { rows } = await sql<{ total: number | string; day: string | null; before: number | string | null }>`
    with p as (
      select ${from}::timestamptz as a, ${to}::timestamptz as b,
        coalesce((select rolled_through from charge_count_marks where company_id = ${companyId}), date '1969-12-31') as rt
    ), span as (
      -- whole days inside [a, b] that are rolled up, as an interval of time [rs, re)
      select a, b,
        ((a at time zone 'UTC') + interval '1 day' - interval '1 microsecond')::date as fd,
        least(((b at time zone 'UTC') + interval '1 microsecond')::date - 1, rt) as ld
      from p
    ), r as (
      select a, b, fd, ld, (fd::timestamp at time zone 'UTC') as rs,
        (case when ld >= fd then (ld + 1)::timestamp at time zone 'UTC' else fd::timestamp at time zone 'UTC' end) as re
      from span
    ), days as (
      select day, sum(n)::int8 as n from (
        select c.day, c.n from charge_day_counts c
        where c.company_id = ${companyId} and c.kind = any(${kinds})
          and c.day >= (select fd from r) and c.day <= (select ld from r)
        union all
        -- before the rolled-up days, and after them: two ranges of the index on created_at
        -- (bounds as scalar subqueries, known when the scan starts)
        select (ch.created_at at time zone 'UTC')::date, count(*) from charges ch
        where ch.company_id = ${companyId} and ch.kind = any(${kinds})
          and ch.created_at >= ${from}::timestamptz and ch.created_at < (select least(rs, b) from r)
        group by 1
        union all
        select (ch.created_at at time zone 'UTC')::date, count(*) from charges ch
        where ch.company_id = ${companyId} and ch.kind = any(${kinds})
          and ch.created_at >= (select greatest(re, a) from r) and ch.created_at <= ${to}::timestamptz
        group by 1
      ) parts
      group by day
    ), running as (
      select day, n, sum(n) over (order by day) as upto from days
    ), landing as (
      select day, upto - n as before from running where upto > ${offset} order by day limit 1
    )
    select (select coalesce(sum(n), 0) from days) as total,
      (select day::text from landing) as day, (select before from landing) as before`.execute(db);
  const row = rows[0]!;
  const total = Number(row.total);
  if (row.day === null) return { total, skip: 0 };
  const midnight = new Date(`${row.day}T00:00:00.000Z`);
  return { total, from: midnight < from ? from : midnight, skip: offset - Number(row.before) };
}

// Rolls up, for up to `limit` companies, the days their clock has left behind since the last
// roll-up. Several processes share the work (FOR UPDATE SKIP LOCKED on the marks).
export async function rollUpChargeDays(db: Db, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Every company has a mark; those whose clock left a day behind since are rolled up.
    await sql`
      insert into charge_count_marks (company_id, rolled_through)
      select c.id, date '1969-12-31' from companies c
      where not exists (select 1 from charge_count_marks m where m.company_id = c.id)
      on conflict do nothing`.execute(trx);
    const { rows } = await sql<{ company_id: string; through: string }>`
      select m.company_id, (${companyTodaySql(sql.ref('m.company_id'))} - 1)::text as through
      from charge_count_marks m
      where m.rolled_through < ${companyTodaySql(sql.ref('m.company_id'))} - 1
      order by m.company_id
      limit ${limit}
      for update of m skip locked`.execute(trx);
    for (const { company_id: companyId, through } of rows) {
      await sql`
        with counted as (
          insert into charge_day_counts (company_id, kind, day, n)
          select company_id, kind, (created_at at time zone 'UTC')::date, count(*)
          from charges
          where company_id = ${companyId}
            and created_at >= ((select rolled_through from charge_count_marks where company_id = ${companyId}) + 1)::timestamp at time zone 'UTC'
            and created_at < (${through}::date + 1)::timestamp at time zone 'UTC'
          group by 1, 2, 3
          returning 1
        )
        update charge_count_marks set rolled_through = ${through}::date where company_id = ${companyId}`.execute(trx);
    }
    return rows.length;
  });
}
