// Webhooks over mutual TLS: an attempt to an https receiver keeps what the handshake said
// (protocol, whether pixgate presented its client certificate, whether the receiver asked for
// one) and, when the company asks that receivers be probed (company_webhook_tls), what the
// probe without a client certificate found. Null on plain http attempts and older rows.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('tls', 'jsonb').addColumn('probe', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').dropColumn('probe').dropColumn('tls').execute();
}
