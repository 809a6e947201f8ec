// Mutual TLS: the sandbox certificate authority (its private key sealed, src/lib/sealed.ts),
// the client certificates bound to applications (never their private keys), and each
// company's TLS settings for its webhook receivers.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tls_authorities')
    // One row per authority: 'sandbox' (made once, on the first start that needs it).
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('certificate_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('application_certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id'))
    // RFC 8705 x5t#S256: base64url SHA-256 of the DER; what a TLS connection is matched by.
    .addColumn('thumbprint', 'text', (c) => c.notNull().unique())
    .addColumn('serial_number', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('certificate_pem', 'text', (c) => c.notNull())
    // CSR (the client kept its key), GENERATED (sandbox: key returned once), UPLOADED (issued
    // by the operator's CA, PIXGATE_MTLS_CA).
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('not_before', 'timestamptz', (c) => c.notNull())
    .addColumn('not_after', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revocation_reason', 'text')
    .execute();
  await db.schema
    .createIndex('application_certificates_application')
    .on('application_certificates')
    .columns(['application_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('company_webhook_tls')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    // PEM certificates the company's receivers chain to, trusted beside the system store.
    .addColumn('ca_bundle_pem', 'text')
    // Connect first without a client certificate and record whether the receiver accepted it.
    .addColumn('probe_receivers', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('company_webhook_tls').execute();
  await db.schema.dropTable('application_certificates').execute();
  await db.schema.dropTable('tls_authorities').execute();
}
