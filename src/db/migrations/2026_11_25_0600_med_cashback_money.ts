// Money behind funds recoveries (MED) and cashbacks.
// - pix_devolutions: the natures of a devolution made under the MED (MED_OPERACIONAL, BE08;
//   MED_FRAUDE, FR01), as the standard names them; they share the Pix value's cap with ORIGINAL.
// - funds_recoveries: the receiving account when it is on this server, the value that was
//   left to recover at opening, what the analysis blocked and what came back, the analysis
//   result (AGREED: in favour of the payer; DISAGREED) and the return's id (rtrId).
// - cashbacks: what was paid and the return that paid it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pix_devolutions drop constraint pix_devolutions_natureza_check`.execute(db);
  await sql`alter table pix_devolutions add constraint pix_devolutions_natureza_check
    check (natureza in ('ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE'))`.execute(db);
  await db.schema
    .alterTable('funds_recoveries')
    .addColumn('receiver_company_id', 'text', (c) => c.references('companies.id'))
    .addColumn('receiver_account_id', 'text', (c) => c.references('bank_accounts.id'))
    .addColumn('value', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`value >= 0`),
    )
    .addColumn('blocked', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`blocked >= 0`),
    )
    .addColumn('recovered', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`recovered >= 0`),
    )
    .addColumn('analysis_result', 'text', (c) => c.check(sql`analysis_result in ('AGREED', 'DISAGREED')`))
    .addColumn('return_id', 'text')
    .execute();
  await db.schema
    .alterTable('cashbacks')
    .addColumn('paid_value', 'int8', (c) => c.check(sql`paid_value >= 0`))
    .addColumn('return_id', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cashbacks').dropColumn('paid_value').dropColumn('return_id').execute();
  await db.schema
    .alterTable('funds_recoveries')
    .dropColumn('receiver_company_id')
    .dropColumn('receiver_account_id')
    .dropColumn('value')
    .dropColumn('blocked')
    .dropColumn('recovered')
    .dropColumn('analysis_result')
    .dropColumn('return_id')
    .execute();
  await sql`alter table pix_devolutions drop constraint pix_devolutions_natureza_check`.execute(db);
  await sql`alter table pix_devolutions add constraint pix_devolutions_natureza_check
    check (natureza in ('ORIGINAL', 'RETIRADA'))`.execute(db);
}
