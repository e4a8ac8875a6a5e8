import type { Mailer } from './mailer.js';
import { OutboxMailer } from './outbox-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

export interface MailSettings {
  readonly SMTP_URL?: string;
  readonly PUBLIC_URL: string;
  /** DATA_DIR made absolute (Config.dataDir). */
  readonly dataDir: string;
}

/**
 * DESIGN.md section 7, Activation: SMTP when SMTP_URL is set, otherwise `.eml` files in `<dataDir>/outbox/`.
 * `onOutboxFile` hears the path of each file written (to log where it is; never the content, which may hold a
 * secret link).
 */
export function createMailer(settings: MailSettings, onOutboxFile?: (file: string) => void): Mailer {
  if (settings.SMTP_URL) return new SmtpMailer({ url: settings.SMTP_URL, publicUrl: settings.PUBLIC_URL });
  return new OutboxMailer({
    dataDir: settings.dataDir,
    publicUrl: settings.PUBLIC_URL,
    ...(onOutboxFile ? { onWritten: onOutboxFile } : {}),
  });
}
