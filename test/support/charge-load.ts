// Charges loaded through SQL, many at once, for lists at scale: `make load-charges`
// (scripts/load-charges.ts) and the dashboard's statement budgets. Charge i of n is created
// at an even step over the `days` before now; ids, txids and correlationIDs are load-i.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/schema';

export interface ChargeLoad {
  companyId: string;
  accountId: string;
  pixKey: string;
  // The charges i in [from, to] of n (a batch of a larger load).
  from: number;
  to: number;
  n: number;
  days: number;
}

export async function insertLoadCharges(db: Kysely<Database>, load: ChargeLoad): Promise<void> {
  const { companyId, accountId, pixKey: key, from, to, n, days } = load;
  await sql`
    insert into charges (id, company_id, account_id, kind, platform_type, txid, correlation_id, status, revision,
      value, pix_key, location_id, payment_link_id, body, platform, created_at, updated_at, expires_at,
      payable_until)
    select 'ch_load_' || ${companyId} || '_' || i, ${companyId}, ${accountId}, 'cob', 'DYNAMIC',
      'load' || substr(md5(${companyId} || i), 1, 28), 'load-' || i, 'ATIVA', 0, 1000 + i % 1000, ${key}, null,
      md5('link' || ${companyId} || i),
      jsonb_build_object('calendario', jsonb_build_object('criacao', to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'expiracao', 3600),
        'valor', jsonb_build_object('original', '10.00'), 'chave', ${key}::text),
      '{}', t, t, t + interval '1 hour', t + interval '1 hour'
    from (select i, now() - ${days}::int * interval '1 day' + (i::float8 / ${n}) * ${days}::int * interval '1 day' as t
          from generate_series(${from}::int, ${to}::int) as i) s`.execute(db);
}
