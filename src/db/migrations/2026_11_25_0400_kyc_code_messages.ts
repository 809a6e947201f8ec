// The outbox of one-time code messages: every code sent (in every mode) writes its message
// here in the send's transaction; a background job hands each one to the sender of its
// channel (SMTP for e-mail when configured) and the sandbox inbox page reads them. A channel
// without a sender keeps its messages PENDING until one is configured.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('kyc_code_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('code_id', 'text', (c) => c.notNull().unique().references('kyc_codes.id'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('EMAIL', 'PHONE')`))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    // The text with the code; cleared once delivered outside sandbox mode.
    .addColumn('body', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'SENT', 'FAILED')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz')
    .execute();
  // The delivery job's search: pending messages of a channel by when they are due.
  await sql`create index kyc_code_messages_due on kyc_code_messages (channel, next_attempt_at) where status = 'PENDING'`.execute(
    db,
  );
  // The sandbox inbox: the messages sent to one address, newest first.
  await db.schema
    .createIndex('kyc_code_messages_address')
    .on('kyc_code_messages')
    .columns(['address', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('kyc_code_messages').execute();
}
