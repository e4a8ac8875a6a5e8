import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../../core/mail/smtp-mailer.js';
import { describeMailer } from './mail.contract.js';
import { parseMail } from './mail-message.js';
import { startSmtpSink } from './mail-sink.js';

describeMailer('SMTP (nodemailer → smtp-server)', async (publicUrl) => {
  const sink = await startSmtpSink();
  return {
    mailer: new SmtpMailer({ url: sink.url, publicUrl }),
    received: async () => [...sink.received],
    cleanup: () => sink.close(),
  };
});

describe('SmtpMailer against failing servers', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  const message = { to: 'ada@example.com', subject: 'Hello', text: 'Hi' };

  /** A TCP server that accepts and then says nothing, like a stuck relay or a firewall black hole. */
  async function silentServer(): Promise<number> {
    const sockets = new Set<Socket>();
    const server: Server = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    });
    return (server.address() as { port: number }).port;
  }

  it('rejects at once when nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise<void>((r) => server.close(() => r()));

    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${port}`, publicUrl: 'http://localhost:8080' });
    cleanups.push(() => mailer.close());
    const started = Date.now();
    await expect(mailer.send(message)).rejects.toThrow(/ECONNREFUSED|connect/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects when the server never greets, after the greeting timeout rather than hanging', async () => {
    const port = await silentServer();
    const mailer = new SmtpMailer({
      url: `smtp://127.0.0.1:${port}`,
      publicUrl: 'http://localhost:8080',
      greetingTimeoutMs: 300,
    });
    cleanups.push(() => mailer.close());
    const started = Date.now();
    await expect(mailer.send(message)).rejects.toThrow(/greeting|timeout/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects when the whole send outlasts its deadline', async () => {
    const port = await silentServer();
    const mailer = new SmtpMailer({
      url: `smtp://127.0.0.1:${port}`,
      publicUrl: 'http://localhost:8080',
      sendTimeoutMs: 300,
    });
    cleanups.push(() => mailer.close());
    const started = Date.now();
    await expect(mailer.send(message)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects when the server refuses the recipient', async () => {
    const sink = await startSmtpSink({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('no such user here'), { responseCode: 550 }));
      },
    });
    cleanups.push(() => sink.close());
    const mailer = new SmtpMailer({ url: sink.url, publicUrl: 'http://localhost:8080' });
    cleanups.push(() => mailer.close());
    await expect(mailer.send(message)).rejects.toThrow(/550|recipient/i);
    expect(sink.received).toHaveLength(0);
  });

  it('logs in with the credentials of SMTP_URL', async () => {
    const sink = await startSmtpSink({ authOptional: false });
    cleanups.push(() => sink.close());
    const url = sink.url.replace('smtp://', 'smtp://relay%40example.com:p%C3%A4ss@');
    const mailer = new SmtpMailer({ url, publicUrl: 'http://localhost:8080' });
    cleanups.push(() => mailer.close());
    await mailer.send(message);
    expect(sink.logins).toEqual([{ username: 'relay@example.com', password: 'päss' }]);
    expect(parseMail(sink.received[0]!.raw).headers.get('from')).toBe('Toolgate <no-reply@localhost>');
  });
});
