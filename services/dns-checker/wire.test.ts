import { describe, expect, it } from 'vitest';
import { decodeMessage, EDNS_UDP_SIZE, encodeQuery, formatIpv6, rcodeName, WireError } from './wire.js';

// Hand-built messages, byte by byte, so the decoder is checked against RFC 1035 rather than against an encoder.
const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const u32 = (n: number) => Buffer.from([(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
const labels = (name: string) =>
  Buffer.concat(
    name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'latin1')])),
  );
const name = (n: string) => Buffer.concat([labels(n), Buffer.from([0])]);
const ptr = (offset: number) => Buffer.from([0xc0 | (offset >> 8), offset & 0xff]);
const header = (id: number, flags: number, qd: number, an: number, ns = 0, ar = 0) =>
  Buffer.concat([u16(id), u16(flags), u16(qd), u16(an), u16(ns), u16(ar)]);
const question = (owner: Buffer, type: number) => Buffer.concat([owner, u16(type), u16(1)]);
const rr = (owner: Buffer, type: number, ttl: number, rdata: Buffer) =>
  Buffer.concat([owner, u16(type), u16(1), u32(ttl), u16(rdata.length), rdata]);
const RESPONSE = 0x8180; // QR, RD, RA

/** The question name `example.test` starts at offset 12, right after the header. */
const Q = 12;

describe('encodeQuery', () => {
  it('writes a recursive query with an EDNS OPT record (RFC 1035 4.1, RFC 6891 6.1.2)', () => {
    const packet = encodeQuery({ id: 0xbeef, name: 'example.test', type: 15, edns: true });
    const expected = Buffer.concat([
      header(0xbeef, 0x0100, 1, 0, 0, 1),
      question(name('example.test'), 15),
      Buffer.from([0]),
      u16(41),
      u16(EDNS_UDP_SIZE),
      u32(0),
      u16(0),
    ]);
    expect(packet.toString('hex')).toBe(expected.toString('hex'));
  });

  it('leaves EDNS out when told', () => {
    const packet = encodeQuery({ id: 7, name: 'a.b', type: 1, edns: false });
    expect(packet.toString('hex')).toBe(
      Buffer.concat([header(7, 0x0100, 1, 0), question(name('a.b'), 1)]).toString('hex'),
    );
  });

  it('refuses labels over 63 octets and names over 255', () => {
    expect(() => encodeQuery({ id: 1, name: `${'a'.repeat(64)}.test`, type: 1, edns: false })).toThrow(
      WireError,
    );
    const long = Array.from({ length: 5 }, () => 'a'.repeat(63)).join('.');
    expect(() => encodeQuery({ id: 1, name: long, type: 1, edns: false })).toThrow(WireError);
  });
});

describe('decodeMessage', () => {
  it('reads every reported type, with compressed names', () => {
    const msg = Buffer.concat([
      header(0x1234, RESPONSE, 1, 9),
      question(name('example.test'), 255),
      rr(ptr(Q), 1, 300, Buffer.from([192, 0, 2, 1])),
      rr(ptr(Q), 28, 600, Buffer.from('20010db8000000000000000000000001', 'hex')),
      rr(ptr(Q), 15, 3600, Buffer.concat([u16(10), labels('mx1'), ptr(Q)])),
      rr(
        ptr(Q),
        16,
        120,
        Buffer.concat([
          Buffer.from([3]),
          Buffer.from('abc'),
          Buffer.from([0]),
          Buffer.from([2]),
          Buffer.from('de'),
        ]),
      ),
      rr(Buffer.concat([labels('www'), ptr(Q)]), 5, 60, ptr(Q)),
      rr(ptr(Q), 2, 86400, Buffer.concat([labels('ns1'), ptr(Q)])),
      rr(
        ptr(Q),
        6,
        900,
        Buffer.concat([
          labels('ns1'),
          ptr(Q),
          labels('hostmaster'),
          ptr(Q),
          u32(2024010101),
          u32(7200),
          u32(3600),
          u32(1209600),
          u32(300),
        ]),
      ),
      rr(
        Buffer.concat([labels('_sip._tcp'), ptr(Q)]),
        33,
        3600,
        Buffer.concat([u16(10), u16(60), u16(5060), labels('sip'), ptr(Q)]),
      ),
      rr(ptr(Q), 99, 1, Buffer.from('whatever')),
    ]);
    const m = decodeMessage(msg);
    expect(m).toMatchObject({ id: 0x1234, response: true, truncated: false, rcode: 0 });
    expect(m.question).toEqual({ name: 'example.test', type: 255, class: 1 });
    expect(m.answers.map((a) => [a.name, a.type, a.ttl, a.data])).toEqual([
      ['example.test', 1, 300, { kind: 'address', address: '192.0.2.1' }],
      ['example.test', 28, 600, { kind: 'address', address: '2001:db8::1' }],
      ['example.test', 15, 3600, { kind: 'mx', preference: 10, exchange: 'mx1.example.test' }],
      ['example.test', 16, 120, { kind: 'txt', strings: ['abc', '', 'de'] }],
      ['www.example.test', 5, 60, { kind: 'name', name: 'example.test' }],
      ['example.test', 2, 86400, { kind: 'name', name: 'ns1.example.test' }],
      [
        'example.test',
        6,
        900,
        {
          kind: 'soa',
          mname: 'ns1.example.test',
          rname: 'hostmaster.example.test',
          serial: 2024010101,
          refresh: 7200,
          retry: 3600,
          expire: 1209600,
          minimum: 300,
        },
      ],
      [
        '_sip._tcp.example.test',
        33,
        3600,
        { kind: 'srv', priority: 10, weight: 60, port: 5060, target: 'sip.example.test' },
      ],
      ['example.test', 99, 1, { kind: 'other' }],
    ]);
  });

  it('reads the header flags and the extended RCODE of an OPT record', () => {
    const opt = Buffer.concat([Buffer.from([0]), u16(41), u16(1232), u32(0x01000000), u16(0)]);
    const m = decodeMessage(
      Buffer.concat([header(1, RESPONSE | 0x0200 | 0x0003, 1, 0, 0, 1), question(name('a.test'), 1), opt]),
    );
    expect(m.truncated).toBe(true);
    expect(m.rcode).toBe(0x13); // NXDOMAIN's 3 plus the extended bits (BADVERS = 16)
    expect(rcodeName(3)).toBe('NXDOMAIN');
    expect(rcodeName(2)).toBe('SERVFAIL');
    expect(rcodeName(0x13)).toBe('RCODE19');
  });

  it('counts a TTL with the top bit set as 0 (RFC 2181 8)', () => {
    const m = decodeMessage(
      Buffer.concat([
        header(1, RESPONSE, 1, 1),
        question(name('a.test'), 1),
        rr(ptr(Q), 1, 0x80000000, Buffer.from([1, 2, 3, 4])),
      ]),
    );
    expect(m.answers[0]!.ttl).toBe(0);
  });

  it('writes odd label bytes in presentation form (RFC 1035 5.1)', () => {
    const owner = Buffer.concat([
      Buffer.from([5]),
      Buffer.from('a.b\\c', 'latin1'),
      Buffer.from([2, 0x00, 0xff]),
      Buffer.from([0]),
    ]);
    const m = decodeMessage(Buffer.concat([header(1, RESPONSE, 1, 0), question(owner, 1)]));
    expect(m.question?.name).toBe('a\\.b\\\\c.\\000\\255');
  });

  it('the root name is "."', () => {
    const m = decodeMessage(
      Buffer.concat([
        header(1, RESPONSE, 1, 1),
        question(name('a.test'), 15),
        rr(ptr(Q), 15, 60, Buffer.concat([u16(0), Buffer.from([0])])),
      ]),
    );
    expect(m.answers[0]!.data).toEqual({ kind: 'mx', preference: 0, exchange: '.' });
  });

  it('keeps a response whose sections after the answers are cut short', () => {
    const full = Buffer.concat([
      header(1, RESPONSE, 1, 1, 1),
      question(name('a.test'), 1),
      rr(ptr(Q), 1, 5, Buffer.from([1, 2, 3, 4])),
    ]);
    expect(decodeMessage(full).answers).toHaveLength(1);
  });

  describe('refuses hostile or broken messages without looping or reading past the end', () => {
    const base = (answer: Buffer, an = 1) =>
      Buffer.concat([header(1, RESPONSE, 1, an), question(name('a.test'), 1), answer]);
    const at = 12 + name('a.test').length + 4; // where the answer starts
    it.each([
      ['a header cut short', Buffer.from([0, 1, 0x81])],
      ['a question cut short', Buffer.concat([header(1, RESPONSE, 1, 0), labels('abc')])],
      [
        'a pointer to itself',
        base(Buffer.concat([ptr(at), u16(1), u16(1), u32(1), u16(4), Buffer.from([1, 2, 3, 4])])),
      ],
      [
        'a forward pointer',
        base(Buffer.concat([ptr(at + 100), u16(1), u16(1), u32(1), u16(4), Buffer.from([1, 2, 3, 4])])),
      ],
      [
        'two pointers pointing at each other',
        base(
          Buffer.concat([ptr(at + 2), ptr(at), u16(1), u16(1), u32(1), u16(4), Buffer.from([1, 2, 3, 4])]),
        ),
      ],
      ['a pointer cut short', base(Buffer.from([0xc0]))],
      ['a reserved label type', base(Buffer.from([0x40, 0]))],
      [
        'record data past the end',
        base(Buffer.concat([ptr(Q), u16(1), u16(1), u32(1), u16(40), Buffer.from([1, 2, 3, 4])])),
      ],
      ['A data of 3 octets', base(rr(ptr(Q), 1, 1, Buffer.from([1, 2, 3])))],
      ['AAAA data of 4 octets', base(rr(ptr(Q), 28, 1, Buffer.from([1, 2, 3, 4])))],
      ['a TXT string overrunning its record', base(rr(ptr(Q), 16, 1, Buffer.from([5, 0x61, 0x62])))],
      [
        'an MX name overrunning its record',
        base(rr(ptr(Q), 15, 1, Buffer.concat([u16(1), name('a-long-name.test')]).subarray(0, 6))),
      ],
      ['more answers announced than sent', base(rr(ptr(Q), 1, 1, Buffer.from([1, 2, 3, 4])), 2)],
    ])('%s', (_what, msg) => {
      expect(() => decodeMessage(msg)).toThrow(WireError);
    });

    it('a name whose pointer leads back to its own first label', () => {
      const loop = Buffer.concat([
        header(1, RESPONSE, 1, 0),
        Buffer.from([1, 0x61]),
        ptr(12),
        u16(1),
        u16(1),
      ]);
      expect(() => decodeMessage(loop)).toThrow(/backwards/);
    });

    it('a name of more than 255 octets made of pointers to long labels', () => {
      // Five 60-octet labels, each a suffix of the one before through a pointer: 305 octets when expanded.
      const parts: Buffer[] = [header(1, RESPONSE, 5, 0)];
      let offset = 12;
      let previous = -1;
      for (let i = 0; i < 5; i++) {
        const part = Buffer.concat([
          Buffer.from([60]),
          Buffer.alloc(60, 0x61),
          previous === -1 ? Buffer.from([0]) : ptr(previous),
          u16(1),
          u16(1),
        ]);
        parts.push(part);
        previous = offset;
        offset += part.length;
      }
      expect(() => decodeMessage(Buffer.concat(parts))).toThrow(/longer than 255/);
    });
  });
});

describe('formatIpv6 (RFC 5952)', () => {
  it.each([
    ['00000000000000000000000000000000', '::'],
    ['00000000000000000000000000000001', '::1'],
    ['20010db8000000000000000000000001', '2001:db8::1'],
    ['20010db8000000010001000100010001', '2001:db8:0:1:1:1:1:1'],
    ['20010db8000000000001000000000001', '2001:db8::1:0:0:1'],
    ['20010000000000010000000000000001', '2001:0:0:1::1'],
    ['fe800000000000000000000000000000', 'fe80::'],
    ['20010DB8AAAABBBBCCCCDDDDEEEEFFFF', '2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff'],
  ])('%s → %s', (hex, expected) => {
    expect(formatIpv6(Buffer.from(hex, 'hex'))).toBe(expected);
  });
});
