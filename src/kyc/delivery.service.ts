// The delivery job of one-time code messages: claims due messages of the channels that have a
// sender, hands each to its sender outside any transaction (a slow mail server holds no
// database session) and records the outcome. A code lives 10 minutes, so a message is tried
// a few times within that life and then given up (FAILED); the administrator asks again.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, KycChannel, KycCodeMessageRow } from '../db/schema';
import * as repo from './messages.repository';
import type { MessageSenders } from './smtp-sender';
import type { SecretBox } from '../lib/secret-box';
import { openedMessageBody } from './kyc-secrets';

export const KYC_MESSAGES_JOB = 'kyc-messages';
// Delays before the 2nd, 3rd and 4th attempts; after the 4th the message has failed.
export const RETRY_SCHEDULE_MS = [30_000, 120_000, 300_000] as const;
const BATCH = 16;
// Longer than an attempt can last (the SMTP timeouts are at most 2 minutes each).
const LEASE_MS = 10 * 60_000;

export class KycMessageDelivery {
  private readonly channels: KycChannel[];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly senders: MessageSenders,
    // Sandbox mode keeps each message's text after delivery (the inbox page shows it).
    private readonly sandbox: boolean,
    private readonly log: Logger,
    private readonly secrets: SecretBox,
  ) {
    this.channels = (Object.keys(senders) as KycChannel[]).filter((c) => senders[c] !== undefined);
  }

  // One run: sends what is due, batch after batch; answers how many were delivered.
  async runOnce(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const token = randomUUID();
      const claimed = await repo.claimDueMessages(this.db, this.channels, BATCH, LEASE_MS, token);
      const results = await Promise.all(claimed.map((m) => this.attempt(m, token)));
      delivered += results.filter(Boolean).length;
      if (claimed.length < BATCH) return delivered;
    }
  }

  private async attempt(message: KycCodeMessageRow, token: string): Promise<boolean> {
    const sender = this.senders[message.channel]!;
    try {
      const text = openedMessageBody(this.secrets, message) ?? '';
      await sender.send({ to: message.address, subject: message.subject, text });
      await repo.markSent(this.db, message.id, token, { keepBody: this.sandbox });
      return true;
    } catch (error) {
      const reason = (error as Error).message?.slice(0, 500) || 'delivery failed';
      const retryInMs = RETRY_SCHEDULE_MS[message.attempts] ?? null;
      this.log.warn({ messageId: message.id, channel: message.channel, err: reason }, 'one-time code not delivered');
      await repo.markAttemptFailed(this.db, message.id, token, reason, retryInMs, { keepBody: this.sandbox });
      return false;
    }
  }
}
