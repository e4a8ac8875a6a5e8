import { describe, expect, it } from 'vitest';
import { createMailer } from './create-mailer.js';
import { checkMessage, fromAddress } from './mailer.js';
import { OutboxMailer } from './outbox-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

describe('mail', () => {
  it('names the sender after the host of PUBLIC_URL', () => {
    expect(fromAddress('https://toolgate.example:8443/base/')).toBe('Toolgate <no-reply@toolgate.example>');
    expect(fromAddress('http://localhost:8080')).toBe('Toolgate <no-reply@localhost>');
    expect(fromAddress('http://127.0.0.1:8080')).toBe('Toolgate <no-reply@[127.0.0.1]>');
    expect(fromAddress('http://[::1]:8080')).toBe('Toolgate <no-reply@[IPv6:::1]>');
  });

  it('accepts one plain recipient and a one-line subject only', () => {
    expect(() => checkMessage({ to: 'ada@example.com', subject: 'Grüße 👋', text: 'x' })).not.toThrow();
    for (const to of ['', 'ada', 'a@b, c@d', 'Ada <ada@example.com>', 'ada@example.com\nBcc: e@x']) {
      expect(() => checkMessage({ to, subject: 's', text: 't' })).toThrow(TypeError);
    }
    expect(() => checkMessage({ to: 'a@b.c', subject: 'a\r\nb', text: 't' })).toThrow(TypeError);
    expect(() => checkMessage({ to: 'a@b.c', subject: 's', text: 1 as unknown as string })).toThrow(
      TypeError,
    );
  });

  it('picks SMTP when SMTP_URL is set, the outbox otherwise', () => {
    const base = { PUBLIC_URL: 'http://localhost:8080', dataDir: '/tmp/toolgate-data' };
    expect(createMailer({ ...base, SMTP_URL: 'smtp://127.0.0.1:2525' })).toBeInstanceOf(SmtpMailer);
    const outbox = createMailer(base);
    expect(outbox).toBeInstanceOf(OutboxMailer);
    expect((outbox as OutboxMailer).dir).toBe('/tmp/toolgate-data/outbox');
  });
});
