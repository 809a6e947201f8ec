// All SQL of mutual TLS: certificate authorities, applications' client certificates and the
// companies' webhook TLS settings.
import { type RawBuilder, sql } from 'kysely';
import type {
  ApplicationCertificate,
  CompanyWebhookTls,
  Db,
  NewApplicationCertificate,
  TlsAuthority,
} from '../db/schema';
import { pagedRows } from '../db/paging';

export async function findAuthority(db: Db, name: string): Promise<TlsAuthority | undefined> {
  return db.selectFrom('tls_authorities').selectAll().where('name', '=', name).executeTakeFirst();
}

// Inserts unless another process made it first; the caller reads the winner back.
export async function insertAuthorityIfAbsent(db: Db, authority: TlsAuthority): Promise<void> {
  await db
    .insertInto('tls_authorities')
    .values(authority)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

// undefined when a certificate with the same thumbprint is already bound.
export async function insertCertificate(
  db: Db,
  row: NewApplicationCertificate,
): Promise<ApplicationCertificate | undefined> {
  return db
    .insertInto('application_certificates')
    .values(row)
    .onConflict((oc) => oc.column('thumbprint').doNothing())
    .returningAll()
    .executeTakeFirst();
}

// What a TLS connection's certificate is checked against: its record, by thumbprint.
export async function findCertificateByThumbprint(
  db: Db,
  thumbprint: string,
): Promise<ApplicationCertificate | undefined> {
  return db.selectFrom('application_certificates').selectAll().where('thumbprint', '=', thumbprint).executeTakeFirst();
}

export async function findCertificatesOfApplication(
  db: Db,
  applicationId: string,
  page: { skip: number; limit: number },
): Promise<{ rows: ApplicationCertificate[]; total: number }> {
  const list = db
    .selectFrom('application_certificates')
    .selectAll()
    .where('application_id', '=', applicationId)
    .orderBy('created_at', 'desc')
    .orderBy('id');
  return pagedRows(list, page);
}

export async function findCertificateOfApplication(
  db: Db,
  applicationId: string,
  id: string,
): Promise<ApplicationCertificate | undefined> {
  return db
    .selectFrom('application_certificates')
    .selectAll()
    .where('application_id', '=', applicationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

// Revokes a certificate (once: a revoked one keeps its first date) and announces it in the
// same statement; undefined when the application has no such certificate.
export async function revokeCertificate(
  db: Db,
  revocation: { applicationId: string; id: string; at: Date; reason: string | null },
  notify: RawBuilder<unknown>,
): Promise<ApplicationCertificate | undefined> {
  const row = await db
    .with('revoked', (q) =>
      q
        .updateTable('application_certificates')
        .set({
          revoked_at: sql`coalesce(revoked_at, ${revocation.at})`,
          revocation_reason: sql`case when revoked_at is null then ${revocation.reason} else revocation_reason end`,
        })
        .where('application_id', '=', revocation.applicationId)
        .where('id', '=', revocation.id)
        .returningAll(),
    )
    .selectFrom('revoked')
    .selectAll()
    .select(notify.as('announced'))
    .executeTakeFirst();
  if (!row) return undefined;
  const { announced: _announced, ...certificate } = row as typeof row & { announced: unknown };
  return certificate;
}

export async function findWebhookTls(db: Db, companyId: string): Promise<CompanyWebhookTls | undefined> {
  return db.selectFrom('company_webhook_tls').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

export async function upsertWebhookTls(db: Db, row: CompanyWebhookTls): Promise<CompanyWebhookTls> {
  return db
    .insertInto('company_webhook_tls')
    .values(row)
    .onConflict((oc) =>
      oc.column('company_id').doUpdateSet({
        ca_bundle_pem: row.ca_bundle_pem,
        probe_receivers: row.probe_receivers,
        updated_at: row.updated_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}
