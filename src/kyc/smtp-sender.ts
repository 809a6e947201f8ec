// Delivery of one-time code messages: the interface each channel's sender implements, and the
// SMTP sender of e-mails (nodemailer), configured by the PIXGATE_SMTP_* variables (README).
// The messaging-app channel (phone) has no provider here: its messages wait in the outbox
// (and show in the sandbox inbox) until a sender for it is plugged in.
import nodemailer from 'nodemailer';
import type { KycChannel } from '../db/schema';

export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MessageSender {
  // Resolves once the receiving server accepted the message; rejects otherwise.
  send(message: OutgoingMessage): Promise<void>;
}

export type MessageSenders = Partial<Record<KycChannel, MessageSender>>;

export interface SmtpConfig {
  host: string;
  port: number;
  // true: TLS from the first byte (port 465); false: STARTTLS when the server offers it.
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
  timeoutMs: number;
}

// The SMTP settings from the environment; undefined when PIXGATE_SMTP_HOST is not set.
export function smtpConfigOf(env: NodeJS.ProcessEnv): SmtpConfig | undefined {
  const host = env.PIXGATE_SMTP_HOST?.trim();
  if (!host) return undefined;
  const secure = ['true', '1', 'yes', 'on'].includes((env.PIXGATE_SMTP_SECURE ?? '').toLowerCase());
  const port = Number(env.PIXGATE_SMTP_PORT || (secure ? 465 : 587));
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`PIXGATE_SMTP_PORT must be a TCP port, got ${env.PIXGATE_SMTP_PORT}`);
  const from = env.PIXGATE_SMTP_FROM?.trim();
  if (!from) throw new Error('PIXGATE_SMTP_FROM is required when PIXGATE_SMTP_HOST is set (the sender address)');
  const user = env.PIXGATE_SMTP_USER || undefined;
  const password = env.PIXGATE_SMTP_PASSWORD || undefined;
  if ((user === undefined) !== (password === undefined))
    throw new Error('PIXGATE_SMTP_USER and PIXGATE_SMTP_PASSWORD are set together or not at all');
  const timeoutMs = Number(env.PIXGATE_SMTP_TIMEOUT_MS || 10_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000)
    throw new Error(`PIXGATE_SMTP_TIMEOUT_MS must be 100 to 120000 milliseconds, got ${env.PIXGATE_SMTP_TIMEOUT_MS}`);
  return { host, port, secure, user, password, from, timeoutMs };
}

export class SmtpSender implements MessageSender {
  private readonly transport: nodemailer.Transporter;

  constructor(private readonly config: SmtpConfig) {
    this.transport = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure,
      ...(config.user !== undefined ? { auth: { user: config.user, pass: config.password ?? '' } } : {}),
      connectionTimeout: config.timeoutMs,
      greetingTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
    });
  }

  async send(message: OutgoingMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.config.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }

  close(): void {
    this.transport.close();
  }
}
