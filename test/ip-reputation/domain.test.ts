import { describe, expect, it } from 'vitest';
import { parseIpInput } from '../../services/ip-reputation/address.js';
import { reputationStreamId } from '../../services/ip-reputation/events.js';
import { parseFeed } from '../../services/ip-reputation/feed-format.js';
import { kindFromName, parseFeedsSetting } from '../../services/ip-reputation/feed-spec.js';
import { cidrToRange, ipToNumber } from '../../services/ip-reputation/ip-number.js';
import { RangeSet } from '../../services/ip-reputation/range-set.js';
import { abuseConfidence, riskLevel, riskScore } from '../../services/ip-reputation/scoring.js';
import { shortBody, verdictOf } from '../../services/ip-reputation/verdict.js';

const ip = (text: string) => ipToNumber(text)!;
const set = (text: string) => new RangeSet(parseFeed(text).ranges);

describe('feed formats', () => {
  it('reads the Tor bulk exit list (one address a line)', () => {
    const s = set('185.220.101.1\n185.220.101.7\r\n2001:67c:e60:c0c:192:42:116:16\n');
    expect(s.has(ip('185.220.101.7'))).toBe(true);
    expect(s.has(ip('185.220.101.2'))).toBe(false);
    expect(s.has(ip('2001:67c:e60:c0c:192:42:116:16'))).toBe(true);
  });

  it("reads Tor's exit-addresses document, ignoring its other keywords", () => {
    const doc =
      'ExitNode 0011BD2485AD45D984EC4159C88FC066E5E3300E\nPublished 2024-01-01 10:00:00\n' +
      'LastStatus 2024-01-01 11:00:00\nExitAddress 162.247.74.201 2024-01-01 11:03:05\n';
    const parsed = parseFeed(doc);
    expect(parsed.skipped).toBe(0);
    expect(new RangeSet(parsed.ranges).has(ip('162.247.74.201'))).toBe(true);
  });

  it('reads FireHOL netsets: CIDR ranges, addresses, # comments', () => {
    const parsed = parseFeed(
      '#\n# firehol_level1\n# Maintainer: FireHOL\n#\n5.188.10.0/23\n31.184.196.0/22 # inline\n' +
        '45.155.205.233\n# 9.9.9.0/24 commented out\nnot-an-address\n',
    );
    const s = new RangeSet(parsed.ranges);
    expect(parsed.skipped).toBe(1);
    expect(s.has(ip('5.188.11.255'))).toBe(true);
    expect(s.has(ip('5.188.12.0'))).toBe(false);
    expect(s.has(ip('31.184.199.1'))).toBe(true);
    expect(s.has(ip('9.9.9.9'))).toBe(false);
  });

  it('reads Spamhaus DROP: `cidr ; SBL` lines and ; comments', () => {
    const s = set(
      '; Spamhaus DROP List 2024/01/01\n; Expires: ...\n1.10.16.0/20 ; SBL256894\n2.56.192.0/22 ; SBL459831\n',
    );
    expect(s.has(ip('1.10.31.255'))).toBe(true);
    expect(s.has(ip('1.10.32.0'))).toBe(false);
    expect(s.has(ip('2.56.195.1'))).toBe(true);
  });

  it('masks host bits and refuses malformed ranges', () => {
    expect(cidrToRange('10.1.2.3/8')).toEqual({ family: 4, start: 0x0a000000n, end: 0x0affffffn });
    expect(cidrToRange('2001:db8::1/32')?.start).toBe(0x20010db8n << 96n);
    for (const bad of ['1.2.3.4/33', '1.2.3/24', '1.2.3.4/8/1', '::/129', '300.1.1.1', '1.2.3.4/x']) {
      expect(cidrToRange(bad), bad).toBeNull();
    }
  });
});

describe('RangeSet', () => {
  it('merges overlapping and adjacent ranges and keeps families apart', () => {
    const s = new RangeSet(
      ['10.0.0.0/24', '10.0.1.0/24', '10.0.0.128/25', '10.0.3.0/24', '::a00:0/120'].map(
        (c) => cidrToRange(c)!,
      ),
    );
    expect(s.size).toBe(3);
    expect(s.has(ip('10.0.1.255'))).toBe(true);
    expect(s.has(ip('10.0.2.0'))).toBe(false);
    expect(s.has(ip('10.0.3.9'))).toBe(true);
    expect(s.has(ip('::a00:5'))).toBe(true);
    expect(s.has(ip('::a00:105'))).toBe(false);
    expect(new RangeSet([]).has(ip('1.1.1.1'))).toBe(false);
  });
});

describe('address input', () => {
  it('accepts public addresses in canonical form', () => {
    expect(parseIpInput('8.8.8.8')).toEqual({ kind: 'public', ip: '8.8.8.8', family: 4 });
    expect(parseIpInput('2001:4860:4860:0:0:0:0:8888')).toEqual({
      kind: 'public',
      ip: '2001:4860:4860::8888',
      family: 6,
    });
    expect(parseIpInput('::ffff:8.8.4.4')).toEqual({ kind: 'public', ip: '8.8.4.4', family: 4 });
  });

  it('tells special-purpose addresses from malformed ones', () => {
    for (const s of [
      '10.0.0.1',
      '192.168.1.1',
      '172.16.5.4',
      '127.0.0.1',
      '::1',
      'fe80::1',
      '100.64.0.1',
      '192.0.2.1',
      '::ffff:10.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
    ]) {
      expect(parseIpInput(s).kind, s).toBe('special');
    }
    for (const s of [
      '',
      'abc',
      '1.2.3',
      '127.1',
      '0x7f.0.0.1',
      '01.2.3.4',
      '1.2.3.256',
      '[::1]',
      'fe80::1%eth0',
      '8.8.8.8/32',
      '1:2:3',
    ]) {
      expect(parseIpInput(s).kind, s).toBe('invalid');
    }
  });

  it('names one stream per address whatever its spelling', () => {
    expect(reputationStreamId('1.2.3.4')).toBe('reputation-01020304');
    expect(reputationStreamId('2001:db8::1')).toBe(`reputation-20010db8${'0'.repeat(23)}1`);
  });
});

describe('scores', () => {
  const now = new Date('2026-01-31T00:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();

  it('counts distinct reporters, fading with age', () => {
    expect(abuseConfidence([], now)).toBe(0);
    expect(abuseConfidence([{ reportedAt: daysAgo(0) }], now)).toBe(25);
    expect(abuseConfidence([{ reportedAt: daysAgo(0) }, { reportedAt: daysAgo(1) }], now)).toBe(50);
    expect(abuseConfidence([{ reportedAt: daysAgo(45) }], now)).toBe(13);
    expect(abuseConfidence([{ reportedAt: daysAgo(90) }], now)).toBe(0);
    expect(
      abuseConfidence(
        Array.from({ length: 9 }, () => ({ reportedAt: daysAgo(0) })),
        now,
      ),
    ).toBe(100);
  });

  it('combines signals: strongest first, 10 per extra signal', () => {
    const none = {
      isTor: false,
      isProxy: false,
      isVpn: false,
      isDatacenter: false,
      isKnownAttacker: false,
      abuseConfidenceScore: 0,
    };
    expect(riskScore(none)).toBe(0);
    expect(riskScore({ ...none, isDatacenter: true })).toBe(20);
    expect(riskScore({ ...none, isTor: true })).toBe(60);
    expect(riskScore({ ...none, isTor: true, isKnownAttacker: true })).toBe(85);
    expect(riskScore({ ...none, abuseConfidenceScore: 50, isDatacenter: true })).toBe(60);
    expect(
      riskScore({ ...none, isTor: true, isKnownAttacker: true, isProxy: true, abuseConfidenceScore: 100 }),
    ).toBe(100);
    expect([0, 24, 25, 49, 50, 74, 75, 100].map(riskLevel)).toEqual([
      'LOW',
      'LOW',
      'MEDIUM',
      'MEDIUM',
      'HIGH',
      'HIGH',
      'CRITICAL',
      'CRITICAL',
    ]);
  });

  it('builds the verdict and the short form from the signals', () => {
    const v = verdictOf({
      ip: '185.220.101.1',
      accountId: 'a',
      network: { asn: 16509, asnOrg: 'AMAZON-02', isp: null, country: 'US' },
      hits: [{ name: 'tor-exits', kind: 'tor', importedAt: daysAgo(1) }],
      reports: { reporters: [{ reportedAt: daysAgo(0) }], categories: ['SPAM'], lastReportedAt: daysAgo(0) },
      now,
    });
    expect(v).toMatchObject({
      isTor: true,
      isDatacenter: true,
      abuseConfidenceScore: 25,
      riskScore: 80,
      riskLevel: 'CRITICAL',
      isp: 'AMAZON-02',
      threatCategories: ['SPAM', 'TOR_EXIT'],
    });
    expect(shortBody(v, now)).toMatchObject({
      riskScore: 0.8,
      threats: ['SPAM', 'TOR_EXIT'],
      lastSeen: daysAgo(0),
      lists: [{ name: 'tor-exits', kind: 'tor', ageSeconds: 86_400 }],
    });
  });
});

describe('the FEEDS setting', () => {
  it('reads name=source and name:kind=source entries', () => {
    expect(
      parseFeedsSetting(
        'tor-exits=https://example.org/tor.txt, mylist:proxy=/srv/list.txt\nspamhaus-drop=/d.txt',
      ),
    ).toEqual([
      { name: 'tor-exits', kind: 'tor', source: 'https://example.org/tor.txt' },
      { name: 'mylist', kind: 'proxy', source: '/srv/list.txt' },
      { name: 'spamhaus-drop', kind: 'attacker', source: '/d.txt' },
    ]);
    expect(parseFeedsSetting('')).toEqual([]);
  });

  it('refuses what it cannot read', () => {
    expect(() => parseFeedsSetting('nosource')).toThrow(/FEEDS/);
    expect(() => parseFeedsSetting('a:bogus=/x')).toThrow(/kind/);
    expect(() => parseFeedsSetting('a=/x a=/y')).toThrow(/twice/);
  });

  it('guesses kinds from usual list names', () => {
    expect(
      ['tor-exits', 'x4bnet-vpn', 'firehol-proxies', 'cloud-ranges', 'firehol-level1'].map(kindFromName),
    ).toEqual(['tor', 'vpn', 'proxy', 'datacenter', 'attacker']);
  });
});
