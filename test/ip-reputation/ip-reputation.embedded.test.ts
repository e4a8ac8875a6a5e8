import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFeedsImport } from '../../cli/feeds-import.js';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { ProjectionRunner } from '../../core/projections/runner.js';
import { buildApp } from '../../gateway/app.js';
import { ReputationReader } from '../../projections/ip-reputation/reader.js';
import { GeoLookup } from '../../services/ip-geolocation/geo-lookup.js';
import { reputationStreamId } from '../../services/ip-reputation/events.js';
import { feedFetcher } from '../../services/ip-reputation/feed-fetch.js';
import { startFeedRefresh } from '../../services/ip-reputation/feed-import.js';
import { FeedMatcher } from '../../services/ip-reputation/feed-matcher.js';
import { FeedStore } from '../../services/ip-reputation/feed-store.js';
import { createIpReputationService } from '../../services/ip-reputation/service.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';
import {
  AWS,
  CLEAN_V6,
  DROP,
  DROP_HIT,
  NETSET,
  NETSET_HIT,
  PROXIES,
  PROXY,
  RESIDENTIAL,
  TOR_EXIT,
  TOR_LIST,
  writeGeoDbs,
} from './fixtures.js';

let tp: TestPlatform;
let app: FastifyInstance;
let runner: ProjectionRunner;
let dir: string;
let matcher: FeedMatcher;
let keyA: string;
let keyB: string;
let freeKey: string;
let tokenA: string;

const sink = () => {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
};
const noFetch = async () => {
  throw new Error('no network in this test');
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-iprep-'));
  tp = await openTestPlatform();
  // The platform's runtime runs every projection, this one included.
  runner = tp.rt.projections;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const out = sink();
  const err = sink();
  const code = await runFeedsImport(
    [
      `tor-exits=${file('tor.txt', TOR_LIST)}`,
      `firehol-level1=${file('level1.netset', NETSET)}`,
      `spamhaus-drop=${file('drop.txt', DROP)}`,
      `open-proxies=${file('proxies.txt', PROXIES)}`,
    ],
    { db: tp.rt.readModels, feeds: [], fetchText: noFetch, stdout: out.stream, stderr: err.stream },
  );
  expect(err.text()).toBe('');
  expect(code).toBe(0);
  expect(out.text()).toContain('tor-exits: 3 ranges imported');
  matcher = new FeedMatcher(new FeedStore(tp.rt.readModels), { recheckMs: 0 });
  const service = createIpReputationService({
    geo: new GeoLookup(writeGeoDbs(dir)),
    feeds: matcher,
    store: tp.rt.store,
    reader: new ReputationReader(tp.rt.readModels),
  });
  app = await buildApp({
    config: tp.config,
    health: async () => ({ status: 'UP', components: {} }),
    services: [...tp.platform.services.filter((s) => s.slug !== 'ip-reputation'), service],
    ports: tp.platform.ports,
    logger: false,
  });
  const a = await tp.createAccount({ plan: 'PRO' });
  tokenA = a.token;
  const b = await tp.createAccount({ plan: 'PRO' });
  const free = await tp.createAccount();
  const scopes = ['ip-reputation', 'disposable-email'];
  keyA = (await tp.createApiKey(a.token, { scopes })).key;
  keyB = (await tp.createApiKey(b.token, { scopes })).key;
  freeKey = (await tp.createApiKey(free.token, { scopes })).key;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await runner?.stop();
  await tp?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (url: string, key: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload });
const checkD = (key: string, ipAddress: string) => post('/api/v1/check', key, { ipAddress });
const getRep = (key: string, ip: string) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/reputation/${encodeURIComponent(ip)}`,
    headers: { 'x-api-key': key },
  });

describe('POST /api/v1/check {ipAddress}', () => {
  it('flags a Tor exit from the imported bulk exit list, naming the list and its age', async () => {
    const res = await checkD(keyA, TOR_EXIT);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      ipAddress: TOR_EXIT,
      isTor: true,
      isProxy: false,
      isVpn: false,
      isDatacenter: false,
      isKnownAttacker: false,
      riskScore: 60,
      riskLevel: 'HIGH',
      country: 'DE',
      isp: 'Stiftung Erneuerbare Freiheit',
      threatCategories: ['TOR_EXIT'],
      lastReportedAt: null,
    });
    expect(body.lists).toEqual([
      { name: 'tor-exits', kind: 'tor', importedAt: expect.any(String), ageSeconds: expect.any(Number) },
    ]);
    expect(body.lists[0].ageSeconds).toBeLessThan(120);
    expect(typeof body.processingTimeMs).toBe('number');
    expect((await checkD(keyA, '2001:67c:e60:c0c:192:42:116:16')).json().isTor).toBe(true);
  });

  it('matches netset CIDR ranges but not commented-out lines, and Spamhaus DROP ranges', async () => {
    const hit = (await checkD(keyA, NETSET_HIT)).json();
    expect(hit).toMatchObject({ isKnownAttacker: true, riskScore: 75, riskLevel: 'CRITICAL' });
    expect(hit.threatCategories).toEqual(['KNOWN_ATTACKER']);
    expect(hit.lists.map((l: { name: string }) => l.name)).toEqual(['firehol-level1']);
    expect((await checkD(keyA, DROP_HIT)).json().lists.map((l: { name: string }) => l.name)).toEqual([
      'spamhaus-drop',
    ]);
    const clean = (await checkD(keyA, RESIDENTIAL)).json();
    expect(clean).toMatchObject({ riskScore: 0, riskLevel: 'LOW', lists: [], isKnownAttacker: false });
    expect(clean).toMatchObject({ country: 'GB', isp: 'Andrews & Arnold Ltd' });
  });

  it('flags proxies (plain list) and cloud networks (curated ASNs)', async () => {
    expect((await checkD(keyA, PROXY)).json()).toMatchObject({
      isProxy: true,
      threatCategories: ['ANONYMIZER'],
      riskScore: 50,
    });
    expect((await checkD(keyA, AWS)).json()).toMatchObject({
      isDatacenter: true,
      riskScore: 20,
      riskLevel: 'LOW',
      isp: 'AMAZON-02',
      country: 'US',
    });
    expect((await checkD(keyA, CLEAN_V6)).json()).toMatchObject({ ipAddress: CLEAN_V6, isDatacenter: false });
  });

  it.each([
    ['10.0.0.1', 'must be a public IP address'],
    ['192.168.1.10', 'must be a public IP address'],
    ['172.16.0.1', 'must be a public IP address'],
    ['127.0.0.1', 'must be a public IP address'],
    ['::1', 'must be a public IP address'],
    ['::ffff:10.0.0.1', 'must be a public IP address'],
    ['100.64.0.1', 'must be a public IP address'],
    ['not-an-ip', 'must be a valid IPv4 or IPv6 address'],
    ['256.1.1.1', 'must be a valid IPv4 or IPv6 address'],
    ['127.1', 'must be a valid IPv4 or IPv6 address'],
    ['1.2.3.4/32', 'must be a valid IPv4 or IPv6 address'],
    ['', 'must not be blank'],
  ])('refuses %j with 400 VALIDATION_ERROR "%s"', async (input, constraint) => {
    const res = await checkD(keyA, input);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: `ipAddress: ${constraint}`,
      status: 400,
    });
  });

  it('shares the path with the e-mail check: the body picks the operation and the scope', async () => {
    const email = await post('/api/v1/check', keyA, { email: 'someone@example.com' });
    expect(email.statusCode).toBe(200);
    expect(email.json()).toHaveProperty('disposable');
    const emailOnly = (await tp.createApiKey(tokenA, { scopes: ['disposable-email'] })).key;
    const refused = await checkD(emailOnly, TOR_EXIT);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'INSUFFICIENT_SCOPE' });
    const ipOnly = (await tp.createApiKey(tokenA, { scopes: ['ip-reputation'] })).key;
    expect((await checkD(ipOnly, TOR_EXIT)).statusCode).toBe(200);
    expect((await post('/api/v1/check', ipOnly, { email: 'someone@example.com' })).statusCode).toBe(403);
  });
});

describe('GET /api/v1/reputation/{ip}', () => {
  it('answers a bare 404 for an address this account never checked', async () => {
    const res = await getRep(keyB, '9.9.9.9');
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
  });

  it("returns the account's last verdict, and nothing for another account", async () => {
    const checked = (await checkD(keyA, '9.9.9.9')).json();
    const res = await getRep(keyA, '9.9.9.9');
    expect(res.statusCode).toBe(200);
    const { processingTimeMs: _p, ...verdict } = checked;
    expect(res.json()).toMatchObject({ ...verdict, ipAddress: '9.9.9.9' });
    expect(res.json().checkedAt).toBe(checked.checkedAt);
    expect((await getRep(keyB, '9.9.9.9')).statusCode).toBe(404);
  });

  it('refuses private and malformed addresses like the check does', async () => {
    const res = await getRep(keyA, '192.168.0.1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: 'ip: must be a public IP address',
    });
    expect((await getRep(keyA, 'x.y')).json().message).toBe('ip: must be a valid IPv4 or IPv6 address');
  });
});

describe('reports', () => {
  const TARGET = '45.155.205.1';

  it('aggregates reports from distinct accounts into abuseConfidenceScore, categories and lastReportedAt', async () => {
    const first = await post('/api/v1/ip/report', keyA, {
      ip: TARGET,
      categories: ['BRUTE_FORCE'],
      comment: 'ssh',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ ip: TARGET, categories: ['BRUTE_FORCE'], abuseConfidenceScore: 25 });
    // The same account again counts once.
    const again = await post('/api/v1/ip/report', keyA, { ip: TARGET, categories: ['SPAM'] });
    expect(again.json().abuseConfidenceScore).toBe(25);
    const second = await post('/api/v1/ip/report', keyB, { ip: TARGET, categories: ['SPAM', 'PHISHING'] });
    expect(second.json().abuseConfidenceScore).toBe(50);

    const res = (await checkD(keyB, TARGET)).json();
    expect(res).toMatchObject({
      abuseConfidenceScore: 50,
      riskScore: 50,
      riskLevel: 'HIGH',
      threatCategories: ['BRUTE_FORCE', 'PHISHING', 'SPAM'],
      lastReportedAt: second.json().reportedAt,
    });
  });

  it('refuses unknown categories and private addresses', async () => {
    const bad = await post('/api/v1/ip/report', keyA, { ip: TARGET, categories: ['NOPE'] });
    expect(bad.statusCode).toBe(400);
    const priv = await post('/api/v1/ip/report', keyA, { ip: '10.1.1.1', categories: ['SPAM'] });
    expect(priv.statusCode).toBe(400);
    expect(priv.headers['content-type']).toMatch(/problem\+json/);
    expect(priv.json()).toMatchObject({ status: 400, detail: 'ip: must be a public IP address' });
  });

  it('keeps the history: every check and report is an event in the address stream', async () => {
    const events = await tp.rt.store.readStream(reputationStreamId(TARGET));
    expect(events.map((e) => e.type)).toEqual(['IpReported', 'IpReported', 'IpReported', 'IpChecked']);
    expect(events[0]!.data).toMatchObject({ ip: TARGET, categories: ['BRUTE_FORCE'], comment: 'ssh' });
    expect(events[3]!.data).toMatchObject({ ip: TARGET, abuseConfidenceScore: 50 });
  });
});

describe('the read model', () => {
  it('rebuilds from the event history to the same answers', async () => {
    const before = (await getRep(keyA, '9.9.9.9')).json();
    const reportBefore = (await checkD(keyB, '45.155.205.1')).json().abuseConfidenceScore;
    await runner.rebuild('ip-reputation');
    const after = (await getRep(keyA, '9.9.9.9')).json();
    expect({ ...after, processingTimeMs: 0 }).toEqual({ ...before, processingTimeMs: 0 });
    expect((await checkD(keyB, '45.155.205.1')).json().abuseConfidenceScore).toBe(reportBefore);
  });
});

describe('convention R', () => {
  it('POST /api/v1/ip/check answers the short form', async () => {
    const res = await post('/api/v1/ip/check', keyA, { ip: TOR_EXIT });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ip: TOR_EXIT, riskScore: 0.6, isTor: true, isProxy: false, isVpn: false });
    expect(body.threats).toEqual(['TOR_EXIT']);
    expect(body.lastSeen).toBe(body.lists[0].importedAt);
    expect(body).not.toHaveProperty('processingTimeMs');
    const clean = (await post('/api/v1/ip/check', keyA, { ip: RESIDENTIAL })).json();
    expect(clean).toMatchObject({ riskScore: 0, threats: [], lastSeen: null });
  });

  it('errors are RFC 7807 problems', async () => {
    const res = await post('/api/v1/ip/check', keyA, { ip: '1.2.3' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      type: '/problems/validation-error',
      status: 400,
      detail: 'ip: must be a valid IPv4 or IPv6 address',
      instance: '/api/v1/ip/check',
    });
  });

  it('the batch answers each item in order, with an error in place of a refused one', async () => {
    const res = await post('/api/v1/ip/check/batch', keyA, { ips: [TOR_EXIT, '10.0.0.1', 'bad', AWS] });
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(results.map((r: { ip: string }) => r.ip)).toEqual([TOR_EXIT, '10.0.0.1', 'bad', AWS]);
    expect(results[0]).toMatchObject({ isTor: true, riskScore: 0.6 });
    expect(results[1]).toEqual({
      ip: '10.0.0.1',
      error: { code: 'VALIDATION_ERROR', message: 'ip: must be a public IP address' },
    });
    expect(results[2].error.message).toBe('ip: must be a valid IPv4 or IPv6 address');
    expect(results[3]).toMatchObject({ isDatacenter: true, riskScore: 0.2 });
  });

  it('the batch is bound by the plan (FREE: 10) and by 100', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `8.8.4.${i + 1}`);
    const free = await post('/api/v1/ip/check/batch', freeKey, { ips: eleven });
    expect(free.statusCode).toBe(400);
    expect(free.json().detail).toBe('ips: must contain at most 10 items');
    const big = await post('/api/v1/ip/check/batch', keyA, {
      ips: Array.from({ length: 101 }, () => '8.8.8.8'),
    });
    expect(big.statusCode).toBe(400);
  });
});

describe('feeds', () => {
  let server: Server;
  let body = '';
  let status = 200;
  let url = '';

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/list.txt?token=secret`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const fetchText = feedFetcher(createOutboundClient({ allowCidrs: ['127.0.0.1/32'], userAgent: 'test' }));
  const run = async (args: string[], feeds = [{ name: 'remote-vpn', kind: 'vpn' as const, source: url }]) => {
    const out = sink();
    const err = sink();
    const code = await runFeedsImport(args, {
      db: tp.rt.readModels,
      feeds,
      fetchText,
      stdout: out.stream,
      stderr: err.stream,
    });
    return { code, out: out.text(), err: err.text() };
  };

  it('imports a configured URL through the outbound client; running matchers pick it up', async () => {
    body = '146.70.0.0/16\n';
    const r = await run([]);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain('remote-vpn: 1 ranges imported');
    expect((await checkD(keyA, '146.70.1.2')).json()).toMatchObject({
      isVpn: true,
      threatCategories: ['ANONYMIZER'],
    });
    const stored = (await new FeedStore(tp.rt.readModels).lists()).find((l) => l.name === 'remote-vpn');
    expect(stored?.source).not.toContain('secret');
  });

  it('keeps the previous list when a refresh fails, and says so', async () => {
    status = 500;
    const r = await run(['remote-vpn']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('remote-vpn: HTTP 500; the previous list is kept');
    status = 200;
    body = '# nothing here\n';
    expect((await run([])).code).toBe(1);
    expect((await checkD(keyA, '146.70.1.2')).json().isVpn).toBe(true);
  });

  it('refuses a feed URL on a non-public address unless allowed', async () => {
    const guarded = feedFetcher(createOutboundClient({ allowCidrs: [], userAgent: 'test' }));
    await expect(guarded(url)).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
  });

  it('the scheduled refresh imports at once and reports each round', async () => {
    status = 200;
    body = '146.71.0.0/16\n';
    const rounds: unknown[] = [];
    const stop = startFeedRefresh({
      feeds: [{ name: 'refreshed-proxies', kind: 'proxy', source: url }],
      store: new FeedStore(tp.rt.readModels),
      fetchText,
      intervalMs: 3_600_000,
      onImported: async (outcomes) => {
        rounds.push(outcomes);
        await matcher.reload();
      },
    });
    await stop();
    expect(rounds).toEqual([[{ name: 'refreshed-proxies', ok: true, entries: 1, skippedLines: 0 }]]);
    expect((await checkD(keyA, '146.71.9.9')).json().isProxy).toBe(true);
  });

  it('bad usage exits 2', async () => {
    expect((await run(['unknown-name'])).code).toBe(2);
    expect((await run([], [])).code).toBe(2);
    expect((await run(['x:bogus=/y'])).code).toBe(2);
  });
});
