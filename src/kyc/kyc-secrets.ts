// What of KYC opens a door is kept sealed (AES-256-GCM under PIXGATE_SECRETS_KEY,
// src/lib/secret-box.ts): an onboarding's link token (its merchant page; the row is found by
// the token's SHA-256) and a one-time code message's text (it carries the code until it is
// delivered). The codes themselves are kept as salted hashes (codes.service.ts); the sandbox
// read-out (sandbox_code) exists in sandbox mode only.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { openStored, resealed, type SecretBox } from '../lib/secret-box';
import * as repo from './kyc.repository';
import * as messages from './messages.repository';

export const linkTokenPlace = (onboardingId: string) => `kyc_onboardings.link_token:${onboardingId}`;
export const messageBodyPlace = (messageId: string) => `kyc_code_messages.body:${messageId}`;

export function linkTokenHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function openedLinkToken(box: SecretBox, row: { id: string; link_token: string }): string {
  return openStored(box, row.link_token, linkTokenPlace(row.id));
}

export function openedMessageBody(box: SecretBox, row: { id: string; body: string | null }): string | null {
  return row.body === null ? null : openStored(box, row.body, messageBodyPlace(row.id));
}

// Seals link tokens and message texts kept in clear (or under PIXGATE_SECRETS_KEY_PREVIOUS);
// run at start-up.
export async function sealKycAtRest(db: Kysely<Database>, box: SecretBox): Promise<number> {
  const onboardings = await repo.findOnboardingsNotSealedWith(db, box.sealedPrefix);
  for (const o of onboardings)
    await repo.replaceLinkToken(db, o.id, o.link_token, resealed(box, o.link_token, linkTokenPlace(o.id)));
  const bodies = await messages.findBodiesNotSealedWith(db, box.sealedPrefix);
  for (const m of bodies) await messages.replaceBody(db, m.id, m.body, resealed(box, m.body, messageBodyPlace(m.id)));
  return onboardings.length + bodies.length;
}
