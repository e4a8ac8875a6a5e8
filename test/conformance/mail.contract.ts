import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../../core/mail/mailer.js';
import { type ParsedMail, parseMail } from './mail-message.js';

export interface ReceivedMail {
  readonly raw: Buffer;
  /** SMTP envelope recipients (RCPT TO), where the adapter has an envelope. */
  readonly envelopeTo?: readonly string[];
}

export interface MailFixture {
  readonly mailer: Mailer;
  /** Every message the adapter delivered so far. */
  received(): Promise<ReceivedMail[]>;
  cleanup(): Promise<void>;
}

export const PUBLIC_URL = 'https://toolgate.example:8443/base';

/** What every Mailer adapter must do; `factory` gets the PUBLIC_URL the adapter names its sender after. */
export function describeMailer(name: string, factory: (publicUrl: string) => Promise<MailFixture>): void {
  describe(`mailer contract: ${name}`, () => {
    let fx: MailFixture;

    beforeEach(async () => {
      fx = await factory(PUBLIC_URL);
    });
    afterEach(async () => {
      await fx.mailer.close?.();
      await fx.cleanup();
    });

    const all = async (): Promise<ParsedMail[]> => (await fx.received()).map((m) => parseMail(m.raw));
    const lf = (s: string | null) => s?.replace(/\r\n/g, '\n') ?? null;

    it('delivers sender, recipient, subject and text intact, unicode included', async () => {
      const subject = `Willkommen — Grüße 👋 你好, "quoted" & <angle> ${'long '.repeat(30)}end`;
      const text = [
        'Hallo Jürgen, привет, 你好 👋',
        '',
        '.a line that starts with a dot',
        '..two dots',
        '.',
        'From the start of a line',
        'x'.repeat(1500),
        'tabs\tand  double  spaces',
        'https://toolgate.example/activate?key=Ab-_09xyz',
        'end',
      ].join('\n');
      await fx.mailer.send({ to: 'ada@example.com', subject, text });

      const received = await fx.received();
      expect(received).toHaveLength(1);
      if (received[0]!.envelopeTo) expect(received[0]!.envelopeTo).toEqual(['ada@example.com']);
      const [mail] = await all();
      expect(mail!.headers.get('from')).toBe('Toolgate <no-reply@toolgate.example>');
      expect(mail!.headers.get('to')).toBe('ada@example.com');
      expect(mail!.headers.get('subject')).toBe(subject);
      expect(mail!.headers.get('date')).toBeTruthy();
      expect(mail!.headers.get('message-id')).toMatch(/^<.+@.+>$/);
      expect(lf(mail!.text)).toBe(text);
      expect(mail!.html).toBeNull();
      // The wire format is 7-bit safe and uses CRLF, whatever the content.
      const raw = received[0]!.raw.toString('latin1');
      expect([...raw].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
      expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    });

    it('carries an HTML alternative next to the text', async () => {
      await fx.mailer.send({
        to: 'grace@example.com',
        subject: 'Both parts',
        text: 'Plain: é',
        html: '<p>Rich: <b>é</b> 👋</p>',
      });
      const [mail] = await all();
      expect(mail!.headers.get('content-type')).toMatch(/^multipart\/alternative/);
      expect(lf(mail!.text)).toBe('Plain: é');
      expect(lf(mail!.html)).toBe('<p>Rich: <b>é</b> 👋</p>');
    });

    it('delivers concurrent sends, each whole and separate', async () => {
      const n = 15;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          fx.mailer.send({
            to: `user${i}@example.com`,
            subject: `Message ${i} ✓`,
            text: `Body of message ${i}\n${'ü'.repeat(200 + i)}`,
          }),
        ),
      );
      const mails = await all();
      expect(mails).toHaveLength(n);
      const bySubject = new Map(mails.map((m) => [m.headers.get('subject'), m]));
      for (let i = 0; i < n; i++) {
        const m = bySubject.get(`Message ${i} ✓`);
        expect(m?.headers.get('to')).toBe(`user${i}@example.com`);
        expect(lf(m!.text)).toBe(`Body of message ${i}\n${'ü'.repeat(200 + i)}`);
      }
    });

    it('refuses header injection and anything but one plain recipient, sending nothing', async () => {
      const bad = [
        { to: 'ada@example.com', subject: 'Hi\r\nBcc: eve@example.com', text: 't' },
        { to: 'ada@example.com', subject: 'Hi\nX-Injected: 1', text: 't' },
        { to: 'ada@example.com, eve@example.com', subject: 'Hi', text: 't' },
        { to: 'ada@example.com\r\nBcc: eve@example.com', subject: 'Hi', text: 't' },
        { to: 'Eve <eve@example.com>', subject: 'Hi', text: 't' },
        { to: 'not-an-address', subject: 'Hi', text: 't' },
      ];
      for (const message of bad) {
        await expect(fx.mailer.send(message)).rejects.toThrow(TypeError);
      }
      expect(await fx.received()).toHaveLength(0);
    });
  });
}
