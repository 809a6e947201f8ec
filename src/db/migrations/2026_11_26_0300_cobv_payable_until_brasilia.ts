// A due-date charge (cobv) is payable through the end of its last day in Brasília
// (America/Sao_Paulo), the standard's dates being civil dates there; payable_until was the end
// of that day in UTC, three hours early. Rows written since compute it in
// src/charges/charge-model.ts (payableUntilOf); this moves the rows written before. A charge
// whose expiry was already announced (expired_event_at) keeps the instant it was announced by.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update charges
    set payable_until = ((due_date + coalesce(validity_after_due, 0) + 1)::timestamp at time zone 'America/Sao_Paulo')
    where kind <> 'cob' and expired_event_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update charges
    set payable_until = ((due_date + coalesce(validity_after_due, 0) + 1)::timestamp at time zone 'UTC')
    where kind <> 'cob' and expired_event_at is null`.execute(db);
}
