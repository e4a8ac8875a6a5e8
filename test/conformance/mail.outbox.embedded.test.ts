import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxMailer } from '../../core/mail/outbox-mailer.js';
import { describeMailer } from './mail.contract.js';
import { parseMail } from './mail-message.js';

const emlFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
};

describeMailer('outbox directory', async (publicUrl) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-outbox-'));
  const mailer = new OutboxMailer({ dataDir, publicUrl });
  return {
    mailer,
    received: async () => emlFiles(mailer.dir).map((f) => ({ raw: readFileSync(join(mailer.dir, f)) })),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});

describe('OutboxMailer files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const newDataDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'tg-outbox-'));
    dirs.push(d);
    return d;
  };

  it('has each message on disk, whole and private, when send resolves, with no temporary file left', async () => {
    const dataDir = join(newDataDir(), 'nested', 'data');
    const written: string[] = [];
    const mailer = new OutboxMailer({
      dataDir,
      publicUrl: 'http://localhost:8080',
      now: () => new Date('2030-01-02T03:04:05.678Z'),
      onWritten: (f) => written.push(f),
    });
    expect(mailer.dir).toBe(join(dataDir, 'outbox'));
    await mailer.send({ to: 'ada@example.com', subject: 'One', text: 'first' });
    await mailer.send({ to: 'ada@example.com', subject: 'Two', text: 'second' });

    const files = readdirSync(mailer.dir);
    expect(files.filter((f) => !f.endsWith('.eml'))).toEqual([]);
    expect(files).toHaveLength(2);
    expect(written.map((f) => f.slice(mailer.dir.length + 1)).sort()).toEqual(files.sort());
    for (const f of files) {
      expect(f).toMatch(/^20300102T030405678Z-[0-9a-f]{12}\.eml$/);
      expect(statSync(join(mailer.dir, f)).mode & 0o777).toBe(0o600);
      const mail = parseMail(readFileSync(join(mailer.dir, f)));
      expect(mail.headers.get('date')).toBe('Wed, 02 Jan 2030 03:04:05 +0000');
    }
    expect(
      files.map((f) => parseMail(readFileSync(join(mailer.dir, f))).headers.get('subject')).sort(),
    ).toEqual(['One', 'Two']);
  });

  it('rejects when the outbox cannot be written', async () => {
    const dataDir = newDataDir();
    // A file where the outbox directory should be.
    const blocked = join(dataDir, 'blocked');
    writeFileSync(blocked, 'x');
    const mailer = new OutboxMailer({ dataDir: blocked, publicUrl: 'http://localhost:8080' });
    await expect(mailer.send({ to: 'ada@example.com', subject: 'x', text: 'x' })).rejects.toThrow();
  });
});
