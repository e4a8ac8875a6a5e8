import { createTransport } from 'nodemailer';
import { checkMessage, fromAddress, type Mailer, type MailMessage } from './mailer.js';

export interface SmtpMailerOptions {
  /** SMTP_URL: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://host:465`. */
  readonly url: string;
  /** PUBLIC_URL; its host names the sender `Toolgate <no-reply@host>`. */
  readonly publicUrl: string;
  readonly connectionTimeoutMs?: number;
  readonly greetingTimeoutMs?: number;
  /** Longest silence of the server in the middle of a conversation. */
  readonly socketTimeoutMs?: number;
  /** Upper bound of one whole send, whatever the server does (a trickle of bytes defeats the idle timeout). */
  readonly sendTimeoutMs?: number;
}

/**
 * Sends through an SMTP relay with nodemailer. One connection per message (no pool): mail here is rare
 * (registrations, resends), and a fresh connection cannot inherit a broken one's state. Every phase has a
 * deadline, so an unreachable or stalled server makes `send` reject instead of hang.
 */
export class SmtpMailer implements Mailer {
  private readonly transport;
  private readonly from: string;
  private readonly sendTimeoutMs: number;

  constructor(options: SmtpMailerOptions) {
    this.from = fromAddress(options.publicUrl);
    this.sendTimeoutMs = options.sendTimeoutMs ?? 60_000;
    this.transport = createTransport({
      url: options.url,
      connectionTimeout: options.connectionTimeoutMs ?? 10_000,
      greetingTimeout: options.greetingTimeoutMs ?? 10_000,
      socketTimeout: options.socketTimeoutMs ?? 30_000,
      dnsTimeout: options.connectionTimeoutMs ?? 10_000,
      // Messages are ours, but a future caller must never make the mailer read files or fetch URLs.
      disableFileAccess: true,
      disableUrlAccess: true,
      // nodemailer's own logger would print envelopes and, at debug level, message bodies (secret links).
      logger: false,
      debug: false,
    });
  }

  async send(message: MailMessage): Promise<void> {
    checkMessage(message);
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
      signal: AbortSignal.timeout(this.sendTimeoutMs),
    });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
