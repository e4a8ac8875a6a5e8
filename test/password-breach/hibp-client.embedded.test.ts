/**
 * An existing Have I Been Pwned client library (`hibp`), unchanged, pointed at our range endpoint on a
 * listening server with the bundled default corpus. The library has no option for extra headers, so the test
 * wraps the global fetch it calls to add X-API-Key, as a deployment would with a proxy or a fetch wrapper.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pwnedPassword, pwnedPasswordRange } from 'hibp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import type { BreachCorpus } from '../../services/password-breach/corpus.js';
import { sha1Hex } from '../../services/password-breach/hashes.js';
import { openBreachCorpus } from '../../services/password-breach/open-corpus.js';
import { createPasswordBreachService } from '../../services/password-breach/service.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';

let tp: TestPlatform;
let app: FastifyInstance;
let corpus: BreachCorpus;
let baseUrl: string;
let key: string;
let dataDir: string;
const realFetch = globalThis.fetch;
const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tg-pw-hibp-'));
  corpus = await openBreachCorpus({ dataDir });
  tp = await openTestPlatform();
  app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'password-breach'),
      createPasswordBreachService({ corpus }),
    ],
    ports: tp.platform.ports,
    logger: false,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `${address}/api/v1/passwords`;
  const account = await tp.createAccount({ plan: 'ENTERPRISE' });
  key = (await tp.createApiKey(account.token, { scopes: ['password-breach'] })).key;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await tp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the library sends, plus the key; every request is recorded. */
function withApiKey(): void {
  vi.stubGlobal('fetch', (input: string | URL, init: RequestInit = {}) => {
    const headers = { ...(init.headers as Record<string, string>), 'X-API-Key': key };
    sent.push({ url: String(input), headers, body: init.body });
    return realFetch(input, { ...init, headers });
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  sent.length = 0;
});

describe('the hibp client library against /api/v1/passwords/range', () => {
  it('gets the right count for a known password, with and without padding', async () => {
    withApiKey();
    const expected = await corpus.count(sha1Hex('password'));
    expect(expected, 'the default corpus holds "password"').toBeGreaterThan(0);
    expect(await pwnedPassword('password', { baseUrl })).toBe(expected);
    expect(await pwnedPassword('password', { baseUrl, addPadding: true })).toBe(expected);
    expect(await pwnedPassword('letmein', { baseUrl })).toBe(await corpus.count(sha1Hex('letmein')));
    expect(await pwnedPassword('Tg-surely-not-in-any-list-7f3a', { baseUrl })).toBe(0);
  });

  it('sends only the 5-character prefix: the password and its full hash never reach the server', async () => {
    withApiKey();
    await pwnedPassword('hunter2', { baseUrl });
    expect(sent).toHaveLength(1);
    const hash = sha1Hex('hunter2');
    expect(new URL(sent[0]!.url).pathname).toBe(`/api/v1/passwords/range/${hash.slice(0, 5)}`);
    expect(sent[0]!.body).toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain('hunter2');
    expect(JSON.stringify(sent)).not.toContain(hash.slice(5));
  });

  it('parses our range responses into suffix → count, padded to 800–1,000 entries on request', async () => {
    withApiKey();
    const plain = await pwnedPasswordRange('5baa6', { baseUrl });
    expect(plain[sha1Hex('password').slice(5)]).toBe(await corpus.count(sha1Hex('password')));
    expect(Object.keys(plain).length).toBe((await corpus.range('5BAA6')).length);
    const padded = await pwnedPasswordRange('5BAA6', { baseUrl, addPadding: true });
    const n = Object.keys(padded).length;
    expect(n).toBeGreaterThanOrEqual(800);
    expect(n).toBeLessThanOrEqual(1000);
    for (const [suffix, count] of Object.entries(padded)) {
      expect(suffix).toMatch(/^[0-9A-F]{35}$/);
      expect(count).toBe(plain[suffix] ?? 0);
    }
  });

  it('sees a refused prefix and a missing key as errors', async () => {
    withApiKey();
    await expect(pwnedPasswordRange('5BAA', { baseUrl })).rejects.toThrow(
      'hashPrefix: must be 5 hexadecimal characters',
    );
    vi.unstubAllGlobals();
    await expect(pwnedPassword('password', { baseUrl })).rejects.toThrow('Unauthorized');
  });
});
