/** One outgoing message. `text` is required so every mail reads in any client; `html` is an alternative. */
export interface MailMessage {
  /** One recipient address (`user@example.com`). */
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

/**
 * The mail port (DESIGN.md section 7, Activation). Adapters: SMTP when SMTP_URL is set, else an outbox directory.
 * `send` resolves once the message is accepted (by the SMTP server, or durably on disk) and rejects otherwise;
 * it never hangs, and never logs the message, which may carry a secret link.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Releases connections; optional so that a test double needs only `send`. */
  close?(): Promise<void>;
}

/** `Toolgate <no-reply@host-of-PUBLIC_URL>`. */
export function fromAddress(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  // An IP address needs the bracketed literal form of RFC 5321 to be a valid domain part.
  const domain = /^\d+\.\d+\.\d+\.\d+$/.test(host)
    ? `[${host}]`
    : host.startsWith('[')
      ? `[IPv6:${host.slice(1, -1)}]`
      : host;
  return `Toolgate <no-reply@${domain}>`;
}

/** Sanity checks both adapters apply, so they refuse the same messages. */
export function checkMessage(message: MailMessage): void {
  const { to, subject, text, html } = message;
  if (typeof to !== 'string' || !/^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(to)) {
    throw new TypeError('mail: `to` must be exactly one plain e-mail address');
  }
  // A line break in a header would let a value start headers of its own (Bcc: …).
  if (typeof subject !== 'string' || /[\r\n]/.test(subject)) {
    throw new TypeError('mail: `subject` must be one line of text');
  }
  if (typeof text !== 'string') throw new TypeError('mail: `text` must be a string');
  if (html !== undefined && typeof html !== 'string') throw new TypeError('mail: `html` must be a string');
}
