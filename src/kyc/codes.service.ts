// One-time codes confirming a representative's e-mail or phone. Every answer is an outcome
// (HTTP 200). All timing reads the company's clock. Sends and checks of one register run under
// its row lock, so two calls at once for the same administrator cannot both spend a code.
import { accountUserEmails } from '../accounts/accounts.public';
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db, KycChannel, KycOnboardingRow } from '../db/schema';
import { isRetryableConflict, isUniqueViolation } from '../db/errors';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import * as repo from './kyc.repository';
import { codeMessage } from './kyc.view';
import { insertMessagePart, listMessagesTo } from './messages.repository';
import type { SecretBox } from '../lib/secret-box';
import { messageBodyPlace, openedMessageBody } from './kyc-secrets';
import { writeTogether } from '../db/together';
import { renderInboxPage } from './pages.view';
import { isValidEmail, normalizePhone } from '../lib/taxid';
import { lockRegister } from './onboarding.service';

export const CODE_RULES = {
  lifeMs: 10 * 60_000,
  resendGapMs: 30_000,
  perAdministratorPerHour: 3,
  perRegisterPerHour: 10,
  perAddressPerDay: 6,
  wrongCodesToBlock: 3,
  blockMs: 24 * 3600_000,
} as const;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export type SendOutcome =
  | 'CODE_SENT'
  | 'ALREADY_SENT'
  | 'ALREADY_VERIFIED'
  | 'SAME_AS_ACCOUNT_USER'
  | 'COOLDOWN'
  | 'SEND_LIMIT_REACHED'
  | 'BLOCKED'
  | 'TRY_AGAIN';
export type VerifyOutcome =
  | 'VERIFIED'
  | 'ALREADY_VERIFIED'
  | 'SAME_AS_ACCOUNT_USER'
  | 'WRONG_CODE'
  | 'CODE_EXPIRED'
  | 'NO_ACTIVE_CODE'
  | 'BLOCKED'
  | 'TRY_AGAIN';

export interface CodeTarget {
  correlationID: string;
  representativeId: string;
}

const INBOX_SIZE = 50;

// An address as representatives store it: e-mails in lower case, phones as +55 and digits.
function normalizeAddress(address: string): string | undefined {
  const trimmed = address.trim();
  if (trimmed.includes('@')) return isValidEmail(trimmed.toLowerCase()) ? trimmed.toLowerCase() : undefined;
  const phone = normalizePhone(trimmed);
  return phone.ok ? phone.value : undefined;
}

function hashCode(salt: string, code: string): string {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

function codeMatches(salt: string, hash: string, code: string): boolean {
  const a = Buffer.from(hashCode(salt, code), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export class KycCodesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    // Sandbox mode keeps the plain last code for GET /api/v1/sandbox/kyc/codes.
    private readonly sandbox: boolean,
    private readonly secrets: SecretBox,
  ) {}

  async send(principal: Principal, channel: KycChannel, target: CodeTarget): Promise<SendOutcome> {
    return this.outcome(() =>
      this.db.transaction().execute(async (trx): Promise<SendOutcome> => {
        const { onboarding, rep, address } = await this.target(trx, principal, channel, target);
        const state = await repo.codeChannel(trx, rep.id, channel);
        if (state.verified_address === address) return 'ALREADY_VERIFIED';
        if (channel === 'EMAIL' && (await accountUserEmails(trx, principal.companyId)).includes(address))
          return 'SAME_AS_ACCOUNT_USER';
        const now = await this.clock.now(principal.companyId, trx);
        if (state.blocked_until && state.blocked_until > now) return 'BLOCKED';
        const last = await repo.lastCode(trx, rep.id, channel);
        if (last && now.getTime() - last.sent_at.getTime() < CODE_RULES.resendGapMs)
          return last.address === address ? 'ALREADY_SENT' : 'COOLDOWN';
        const lastToAddress = await repo.lastCodeToAddress(trx, channel, address);
        if (lastToAddress && now.getTime() - lastToAddress.sent_at.getTime() < CODE_RULES.resendGapMs)
          return 'COOLDOWN';
        const hourAgo = new Date(now.getTime() - HOUR);
        if (
          // "3 sends per administrator per hour": e-mail and phone together.
          (await repo.countSends(trx, { representativeId: rep.id }, hourAgo)) >= CODE_RULES.perAdministratorPerHour ||
          (await repo.countSends(trx, { onboardingId: onboarding.id }, hourAgo)) >= CODE_RULES.perRegisterPerHour ||
          (await repo.countSends(trx, { channel, address }, new Date(now.getTime() - DAY))) >=
            CODE_RULES.perAddressPerDay
        ) {
          return 'SEND_LIMIT_REACHED';
        }
        await this.issue(trx, principal.companyId, onboarding, rep.id, channel, address, now);
        return 'CODE_SENT';
      }),
    );
  }

  async verify(
    principal: Principal,
    channel: KycChannel,
    target: CodeTarget & { code: string },
  ): Promise<VerifyOutcome> {
    return this.outcome(() =>
      this.db.transaction().execute(async (trx): Promise<VerifyOutcome> => {
        const { rep, address } = await this.target(trx, principal, channel, target, { requireAddress: false });
        if (address === null) return 'NO_ACTIVE_CODE';
        const state = await repo.codeChannel(trx, rep.id, channel);
        if (state.verified_address === address) return 'ALREADY_VERIFIED';
        if (channel === 'EMAIL' && (await accountUserEmails(trx, principal.companyId)).includes(address))
          return 'SAME_AS_ACCOUNT_USER';
        const now = await this.clock.now(principal.companyId, trx);
        if (state.blocked_until && state.blocked_until > now) return 'BLOCKED';
        const last = await repo.lastCode(trx, rep.id, channel);
        if (!last || last.address !== address || last.used_at) return 'NO_ACTIVE_CODE';
        if (last.expires_at <= now) return 'CODE_EXPIRED';
        if (!codeMatches(last.code_salt, last.code_hash, target.code)) {
          // Wrong codes count while each comes within 24 hours of the previous one.
          const recent =
            state.last_wrong_at !== null && now.getTime() - state.last_wrong_at.getTime() < CODE_RULES.blockMs;
          const wrong = (recent ? state.wrong_count : 0) + 1;
          const blocked = wrong >= CODE_RULES.wrongCodesToBlock;
          await repo.updateCodeChannel(trx, rep.id, channel, {
            wrong_count: blocked ? 0 : wrong,
            last_wrong_at: now,
            blocked_until: blocked ? new Date(now.getTime() + CODE_RULES.blockMs) : state.blocked_until,
          });
          return 'WRONG_CODE';
        }
        await repo.markCodeUsed(trx, last.id, now);
        await repo.updateCodeChannel(trx, rep.id, channel, {
          verified_address: address,
          wrong_count: 0,
          last_wrong_at: null,
        });
        return 'VERIFIED';
      }),
    );
  }

  // A new code: its salted hash, and its message in the outbox (in every mode; the delivery
  // job hands it to the channel's sender, the sandbox inbox page shows it), in one statement.
  private async issue(
    trx: Db,
    companyId: string,
    onboarding: KycOnboardingRow,
    representativeId: string,
    channel: KycChannel,
    address: string,
    now: Date,
  ): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('hex');
    const codeId = randomUUID();
    const messageId = randomUUID();
    const message = codeMessage(code, onboarding.trade_name || onboarding.official_name);
    await writeTogether(trx, [
      repo.insertCodePart({
        id: codeId,
        representative_id: representativeId,
        onboarding_id: onboarding.id,
        channel,
        address,
        code_salt: salt,
        code_hash: hashCode(salt, code),
        sandbox_code: this.sandbox ? code : null,
        sent_at: now,
        expires_at: new Date(now.getTime() + CODE_RULES.lifeMs),
      }),
      insertMessagePart({
        id: messageId,
        company_id: companyId,
        code_id: codeId,
        channel,
        address,
        subject: message.subject,
        body: this.secrets.seal(message.body, messageBodyPlace(messageId)),
        status: 'PENDING',
        next_attempt_at: now,
        created_at: now,
      }),
    ]);
  }

  // Sandbox read-out of the last code sent on a channel.
  async lastSandboxCode(representativeId: string, channel: KycChannel) {
    const last = await repo.lastCode(this.db, representativeId, channel);
    if (!last || last.sandbox_code === null)
      throw errors.notFound('No code was sent to this representative on this channel');
    return {
      representativeId,
      channel,
      address: last.address,
      code: last.sandbox_code,
      sentAt: last.sent_at.toISOString(),
      expiresAt: last.expires_at.toISOString(),
      used: last.used_at !== null,
    };
  }

  // The sandbox inbox page: the newest messages sent to an e-mail address or phone.
  async inbox(address: string | undefined): Promise<string> {
    if (address === undefined || address.trim() === '') return renderInboxPage(undefined, []);
    const normalized = normalizeAddress(address);
    if (normalized === undefined) {
      throw errors.validation(
        [{ field: 'address', in: 'query', message: 'must be an e-mail address or a phone (+55...)' }],
        'address must be an e-mail address or a phone (+55...)',
      );
    }
    const messages = await listMessagesTo(this.db, normalized, INBOX_SIZE);
    return renderInboxPage(
      normalized,
      messages.map((m) => ({ ...m, body: openedMessageBody(this.secrets, m) })),
    );
  }

  // The register (locked) and its representative; a send needs an address on the channel.
  private async target(
    trx: Db,
    principal: Principal,
    channel: KycChannel,
    target: CodeTarget,
    { requireAddress = true }: { requireAddress?: boolean } = {},
  ) {
    const onboarding = await lockRegister(trx, principal.companyId, target.correlationID);
    const rep = await repo.findRepresentative(trx, onboarding.id, target.representativeId);
    if (!rep) throw errors.missing('representative');
    const address = channel === 'EMAIL' ? rep.email : rep.phone;
    if (address === null && requireAddress)
      throw errors.badRequest(`Representative has no ${channel === 'EMAIL' ? 'e-mail' : 'phone'}`);
    return { onboarding, rep, address: address as string };
  }

  // A transaction aborted by a concurrent one (deadlock, serialization, a duplicate) lost the race.
  private async outcome<T extends string>(run: () => Promise<T>): Promise<T | 'TRY_AGAIN'> {
    try {
      return await run();
    } catch (error) {
      if (isRetryableConflict(error) || isUniqueViolation(error)) return 'TRY_AGAIN';
      throw error;
    }
  }
}
