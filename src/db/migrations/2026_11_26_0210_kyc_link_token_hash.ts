// An onboarding's link token opens its merchant page: it is kept sealed (AES-256-GCM under
// PIXGATE_SECRETS_KEY, sealed at the next start for the rows written before), and found by
// its SHA-256 (link_token_hash), so a reader of the database gets no working link. The
// unique constraint moves from the token to its hash.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('kyc_onboardings').addColumn('link_token_hash', 'text').execute();
  await sql`update kyc_onboardings set link_token_hash = encode(sha256(convert_to(link_token, 'UTF8')), 'hex')`.execute(
    db,
  );
  await sql`alter table kyc_onboardings alter column link_token_hash set not null`.execute(db);
  await sql`alter table kyc_onboardings drop constraint kyc_onboardings_link_token_key`.execute(db);
  await sql`create unique index kyc_onboardings_link_token_hash on kyc_onboardings (link_token_hash)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // (tokens sealed since cannot be unsealed here: down is for a database that did not serve)
  await sql`drop index kyc_onboardings_link_token_hash`.execute(db);
  await sql`alter table kyc_onboardings add constraint kyc_onboardings_link_token_key unique (link_token)`.execute(db);
  await db.schema.alterTable('kyc_onboardings').dropColumn('link_token_hash').execute();
}
