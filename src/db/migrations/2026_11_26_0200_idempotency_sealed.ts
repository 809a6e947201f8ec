// Idempotency records keep neither the Idempotency-Key nor the answer in clear (the answer of
// POST /application carries a clientSecret and an appID): a record is found by key_hash, the
// SHA-256 of "<company id>\n<Idempotency-Key>", and its answer is sealed (AES-256-GCM) under a
// key derived (HKDF-SHA256) from the Idempotency-Key, which only the caller holds
// (src/idempotency/idempotency.service.ts, src/lib/secret-box.ts; the format is repeated here
// because a migration is frozen once landed).
//
// The records written before are moved to a new table, converted, and the old table dropped:
// dropping it removes its files, where an update in place would leave the old row versions
// (and the secrets in them) in the table's pages until they happened to be overwritten. (The
// write-ahead log keeps them until it is recycled.)
import { createCipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

const BATCH = 500;

interface OldRecord {
  company_id: string;
  idempotency_key: string;
  operation_id: string;
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_type: string | null;
  response_headers: unknown;
  response_body: string | null;
  created_at: Date;
  locked_until: Date;
  expires_at: Date;
}

function keyHashOf(companyId: string, key: string): string {
  return createHash('sha256').update(`${companyId}\n${key}`).digest('hex');
}

function sealAnswer(companyId: string, key: string, keyHash: string, body: string): string {
  const boxKey = Buffer.from(hkdfSync('sha256', key, companyId, 'pixgate idempotency answer v1', 32));
  const keyId = createHash('sha256').update('pixgate key id\n').update(boxKey).digest('hex').slice(0, 8);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', boxKey, nonce);
  cipher.setAAD(Buffer.from(`idempotency_records.response_body:${keyHash}`));
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return `sealed:v1:${keyId}:${Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url')}`;
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table idempotency_records rename to idempotency_records_clear`.execute(db);
  await sql`alter table idempotency_records_clear rename constraint idempotency_records_pk to idempotency_records_clear_pk`.execute(
    db,
  );
  await sql`alter index idempotency_records_expiry rename to idempotency_records_clear_expiry`.execute(db);
  await db.schema
    .createTable('idempotency_records')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('RUNNING', 'DONE')`))
    .addColumn('response_status', 'integer')
    .addColumn('response_type', 'text')
    .addColumn('response_headers', 'jsonb')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    // A RUNNING record past this time belongs to a request that died: it may be taken over.
    .addColumn('locked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['company_id', 'key_hash'])
    .execute();
  await db.schema.createIndex('idempotency_records_expiry').on('idempotency_records').column('expires_at').execute();
  await moveRecords(db);
  await db.schema.dropTable('idempotency_records_clear').execute();
}

async function moveRecords(db: Kysely<any>): Promise<void> {
  let after: { company_id: string; idempotency_key: string } | undefined;
  for (;;) {
    const rows = (await db
      .selectFrom('idempotency_records_clear')
      .selectAll()
      .$if(after !== undefined, (q) =>
        q.where(sql<boolean>`(company_id, idempotency_key) > (${after!.company_id}, ${after!.idempotency_key})`),
      )
      .orderBy('company_id')
      .orderBy('idempotency_key')
      .limit(BATCH)
      .execute()) as OldRecord[];
    if (rows.length === 0) return;
    await db
      .insertInto('idempotency_records')
      .values(
        rows.map((r) => {
          const keyHash = keyHashOf(r.company_id, r.idempotency_key);
          return {
            company_id: r.company_id,
            key_hash: keyHash,
            operation_id: r.operation_id,
            fingerprint: r.fingerprint,
            state: r.state,
            response_status: r.response_status,
            response_type: r.response_type,
            response_headers: r.response_headers === null ? null : JSON.stringify(r.response_headers),
            response_body:
              r.response_body === null ? null : sealAnswer(r.company_id, r.idempotency_key, keyHash, r.response_body),
            created_at: r.created_at,
            locked_until: r.locked_until,
            expires_at: r.expires_at,
          };
        }),
      )
      .execute();
    after = rows[rows.length - 1];
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  // The keys cannot be recovered from their hashes: the records are dropped (they are kept
  // 24 hours only), and the table takes its former shape.
  await db.schema.dropTable('idempotency_records').execute();
  await db.schema
    .createTable('idempotency_records')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('RUNNING', 'DONE')`))
    .addColumn('response_status', 'integer')
    .addColumn('response_type', 'text')
    .addColumn('response_headers', 'jsonb')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('locked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['company_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_records_expiry').on('idempotency_records').column('expires_at').execute();
}
