import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { ReceivedMail } from './mail.contract.js';

/** A real SMTP server on 127.0.0.1, port 0, keeping what it receives. */
export interface SmtpSink {
  readonly url: string;
  readonly received: ReceivedMail[];
  readonly logins: { username: string; password: string }[];
  close(): Promise<void>;
}

export async function startSmtpSink(options: Partial<SMTPServerOptions> = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const logins: { username: string; password: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          raw: Buffer.concat(chunks),
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
