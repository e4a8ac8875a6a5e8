import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { checkMessage, fromAddress, type Mailer, type MailMessage } from './mailer.js';

export interface OutboxMailerOptions {
  /** DATA_DIR; messages go to `<dataDir>/outbox/`. */
  readonly dataDir: string;
  /** PUBLIC_URL; its host names the sender `Toolgate <no-reply@host>`. */
  readonly publicUrl: string;
  readonly now?: () => Date;
  /**
   * Called with the path of each file written, e.g. to log where the mail is. The message itself is not
   * passed on purpose: it may carry an activation link, which must not reach a log.
   */
  readonly onWritten?: (file: string) => void;
}

/**
 * The embedded profile's mailer when no SMTP_URL is set: each message becomes one RFC 822 `.eml` file (CRLF
 * line ends, MIME-encoded exactly as it would go over SMTP) that any mail client opens. Written to a temporary
 * name, flushed and renamed, so a reader of the directory sees whole messages or nothing; `send` resolves only
 * after the rename is durable. Names sort by time.
 */
export class OutboxMailer implements Mailer {
  readonly dir: string;
  private readonly from: string;
  private readonly now: () => Date;
  private readonly composer = createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });
  private ready: Promise<unknown> | null = null;

  constructor(private readonly options: OutboxMailerOptions) {
    this.dir = join(options.dataDir, 'outbox');
    this.from = fromAddress(options.publicUrl);
    this.now = options.now ?? (() => new Date());
  }

  async send(message: MailMessage): Promise<void> {
    checkMessage(message);
    const info = await this.composer.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
      date: this.now(),
    });
    this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.ready;

    const stamp = this.now().toISOString().replace(/[-:.]/g, '');
    const name = `${stamp}-${randomBytes(6).toString('hex')}.eml`;
    const file = join(this.dir, name);
    const temp = join(this.dir, `.${name}.tmp`);
    try {
      // 0600: the file may hold a secret link, readable by the operator only.
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(info.message as Buffer);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    await syncDir(this.dir);
    this.options.onWritten?.(file);
  }

  async close(): Promise<void> {
    this.composer.close();
  }
}

/** Makes the rename itself durable (the directory entry), not only the file's bytes. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the file's own fsync already happened.
  } finally {
    await handle.close();
  }
}
