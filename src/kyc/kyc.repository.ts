// All SQL of KYC onboardings, representatives and one-time codes. Every query of the API's
// use cases is scoped to one company; the sandbox helpers look rows up by their global ids.
import type {
  Db,
  KycChannel,
  KycCodeChannelRow,
  KycCodeRow,
  KycOnboardingRow,
  KycRepresentativeRow,
  KycStatus,
  NewKycCode,
  NewKycOnboarding,
  NewKycRepresentative,
} from '../db/schema';
import { type PagedRows, pagedRows } from '../db/paging';
import { type WritePart, withParts } from '../db/together';

export interface RepresentativeWithChannels extends KycRepresentativeRow {
  email_verified_address: string | null;
  phone_verified_address: string | null;
}

// Inserts unless the correlationID or the CNPJ is taken (then undefined, the transaction stays usable).
// The name of the CTE in which insertOnboardingIfFree inserts: a part given to it may read it
// (its event, written only when the onboarding was).
export const INSERTED_ONBOARDING = 'inserted_onboarding';

export async function insertOnboardingIfFree(
  db: Db,
  row: NewKycOnboarding,
  also: WritePart[] = [],
): Promise<KycOnboardingRow | undefined> {
  const inserting = db.with(INSERTED_ONBOARDING, (qc) =>
    qc
      .insertInto('kyc_onboardings')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll(),
  );
  return withParts(inserting, also, { prefix: 'also' }).selectFrom(INSERTED_ONBOARDING).selectAll().executeTakeFirst();
}

function selectOnboardingByCorrelationId(db: Db, companyId: string, correlationId: string) {
  return db
    .selectFrom('kyc_onboardings')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId);
}

export async function findOnboardingByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<KycOnboardingRow | undefined> {
  return selectOnboardingByCorrelationId(db, companyId, correlationId).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockOnboardingByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<KycOnboardingRow | undefined> {
  return selectOnboardingByCorrelationId(db, companyId, correlationId).forUpdate().executeTakeFirst();
}

function selectOnboardingByTaxId(db: Db, companyId: string, taxId: string) {
  return db.selectFrom('kyc_onboardings').selectAll().where('company_id', '=', companyId).where('tax_id', '=', taxId);
}

export async function findOnboardingByTaxId(
  db: Db,
  companyId: string,
  taxId: string,
): Promise<KycOnboardingRow | undefined> {
  return selectOnboardingByTaxId(db, companyId, taxId).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockOnboardingByTaxId(
  db: Db,
  companyId: string,
  taxId: string,
): Promise<KycOnboardingRow | undefined> {
  return selectOnboardingByTaxId(db, companyId, taxId).forUpdate().executeTakeFirst();
}

function selectOnboardingByLinkTokenHash(db: Db, hash: string) {
  return db.selectFrom('kyc_onboardings').selectAll().where('link_token_hash', '=', hash);
}

export async function findOnboardingByLinkTokenHash(db: Db, hash: string): Promise<KycOnboardingRow | undefined> {
  return selectOnboardingByLinkTokenHash(db, hash).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockOnboardingByLinkTokenHash(db: Db, hash: string): Promise<KycOnboardingRow | undefined> {
  return selectOnboardingByLinkTokenHash(db, hash).forUpdate().executeTakeFirst();
}

// Onboardings whose link token is not stored sealed under the key with this prefix.
export async function findOnboardingsNotSealedWith(
  db: Db,
  sealedPrefix: string,
): Promise<Array<{ id: string; link_token: string }>> {
  return db
    .selectFrom('kyc_onboardings')
    .select(['id', 'link_token'])
    .where('link_token', 'not like', `${sealedPrefix}%`)
    .execute();
}

// Replaces a link token by its sealed form, unless another process did meanwhile.
export async function replaceLinkToken(db: Db, id: string, from: string, to: string): Promise<void> {
  await db
    .updateTable('kyc_onboardings')
    .set({ link_token: to })
    .where('id', '=', id)
    .where('link_token', '=', from)
    .execute();
}

export async function setOnboardingStatus(
  db: Db,
  id: string,
  status: KycStatus,
  at: Date,
  also: WritePart[] = [],
): Promise<KycOnboardingRow> {
  return withParts(db, also)
    .updateTable('kyc_onboardings')
    .set({ status, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function touchOnboarding(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('kyc_onboardings').set({ updated_at: at }).where('id', '=', id).execute();
}

export async function insertRepresentative(db: Db, row: NewKycRepresentative): Promise<void> {
  await db.insertInto('kyc_representatives').values(row).execute();
  await db
    .insertInto('kyc_code_channels')
    .values([
      { representative_id: row.id, channel: 'EMAIL' },
      { representative_id: row.id, channel: 'PHONE' },
    ])
    .execute();
}

export async function updateRepresentative(
  db: Db,
  id: string,
  set: { name: string; email: string | null; phone: string | null; target_administrator: boolean; updated_at: Date },
): Promise<void> {
  await db.updateTable('kyc_representatives').set(set).where('id', '=', id).execute();
}

// A changed address needs a new confirmation.
export async function forgetVerification(db: Db, representativeId: string, channel: KycChannel): Promise<void> {
  await db
    .updateTable('kyc_code_channels')
    .set({ verified_address: null })
    .where('representative_id', '=', representativeId)
    .where('channel', '=', channel)
    .execute();
}

function representativesQuery(db: Db) {
  return db
    .selectFrom('kyc_representatives as r')
    .innerJoin('kyc_code_channels as e', (j) =>
      j.onRef('e.representative_id', '=', 'r.id').on('e.channel', '=', 'EMAIL'),
    )
    .innerJoin('kyc_code_channels as p', (j) =>
      j.onRef('p.representative_id', '=', 'r.id').on('p.channel', '=', 'PHONE'),
    )
    .selectAll('r')
    .select(['e.verified_address as email_verified_address', 'p.verified_address as phone_verified_address']);
}

export async function listRepresentatives(db: Db, onboardingId: string): Promise<RepresentativeWithChannels[]> {
  return representativesOf(db, onboardingId).execute();
}

// A page of the onboarding's representatives and how many it has, in one statement.
export async function pageRepresentatives(
  db: Db,
  onboardingId: string,
  page: { skip: number; limit: number },
): Promise<PagedRows<RepresentativeWithChannels>> {
  return pagedRows(representativesOf(db, onboardingId), page, {
    countPastEnd: () => countRepresentatives(db, onboardingId),
  });
}

function representativesOf(db: Db, onboardingId: string) {
  return representativesQuery(db).where('r.onboarding_id', '=', onboardingId).orderBy('r.seq');
}

async function countRepresentatives(db: Db, onboardingId: string): Promise<number> {
  const row = await db
    .selectFrom('kyc_representatives')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('onboarding_id', '=', onboardingId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findRepresentative(
  db: Db,
  onboardingId: string,
  id: string,
): Promise<RepresentativeWithChannels | undefined> {
  return representativesQuery(db).where('r.onboarding_id', '=', onboardingId).where('r.id', '=', id).executeTakeFirst();
}

export async function findRepresentativeByTaxId(
  db: Db,
  onboardingId: string,
  taxId: string,
): Promise<RepresentativeWithChannels | undefined> {
  return representativesQuery(db)
    .where('r.onboarding_id', '=', onboardingId)
    .where('r.tax_id', '=', taxId)
    .executeTakeFirst();
}

export async function codeChannel(db: Db, representativeId: string, channel: KycChannel): Promise<KycCodeChannelRow> {
  return db
    .selectFrom('kyc_code_channels')
    .selectAll()
    .where('representative_id', '=', representativeId)
    .where('channel', '=', channel)
    .executeTakeFirstOrThrow();
}

export async function updateCodeChannel(
  db: Db,
  representativeId: string,
  channel: KycChannel,
  set: Partial<Pick<KycCodeChannelRow, 'verified_address' | 'wrong_count' | 'last_wrong_at' | 'blocked_until'>>,
): Promise<void> {
  await db
    .updateTable('kyc_code_channels')
    .set(set)
    .where('representative_id', '=', representativeId)
    .where('channel', '=', channel)
    .execute();
}

export async function lastCode(db: Db, representativeId: string, channel: KycChannel): Promise<KycCodeRow | undefined> {
  return db
    .selectFrom('kyc_codes')
    .selectAll()
    .where('representative_id', '=', representativeId)
    .where('channel', '=', channel)
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function lastCodeToAddress(db: Db, channel: KycChannel, address: string): Promise<KycCodeRow | undefined> {
  return db
    .selectFrom('kyc_codes')
    .selectAll()
    .where('channel', '=', channel)
    .where('address', '=', address)
    .orderBy('sent_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function countSends(
  db: Db,
  where: { representativeId?: string; channel?: KycChannel; onboardingId?: string; address?: string },
  since: Date,
): Promise<number> {
  let q = db
    .selectFrom('kyc_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('sent_at', '>', since);
  if (where.representativeId) q = q.where('representative_id', '=', where.representativeId);
  if (where.channel) q = q.where('channel', '=', where.channel);
  if (where.onboardingId) q = q.where('onboarding_id', '=', where.onboardingId);
  if (where.address) q = q.where('address', '=', where.address);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

// The code's row as a part of a statement that writes several tables (src/db/together.ts).
export function insertCodePart(row: NewKycCode): WritePart {
  return (qc) => qc.insertInto('kyc_codes').values(row);
}

export async function markCodeUsed(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('kyc_codes').set({ used_at: at }).where('id', '=', id).execute();
}
