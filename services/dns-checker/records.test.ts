import { describe, expect, it } from 'vitest';
import { orderRecords, selectAnswers, toDnsRecord } from './records.js';
import type { RData, ResourceRecord } from './wire.js';

const rr = (name: string, type: number, data: RData, ttl = 60): ResourceRecord => ({
  name,
  type,
  class: 1,
  ttl,
  data,
});
const cname = (from: string, to: string) => rr(from, 5, { kind: 'name', name: to });
const a = (name: string, address: string) => rr(name, 1, { kind: 'address', address });

describe('selectAnswers', () => {
  it('follows the CNAME chain to the records of the asked type', () => {
    const answers = [
      cname('www.example.test', 'edge.example.test'),
      cname('EDGE.example.test', 'origin.example.test'),
      a('origin.example.test', '192.0.2.80'),
    ];
    const s = selectAnswers(answers, 'www.example.test', 1);
    expect(s.chain.map((l) => l.name)).toEqual(['www.example.test', 'EDGE.example.test']);
    expect(s.records).toEqual([answers[2]]);
  });

  it('ignores records owned by names off the chain', () => {
    const answers = [
      a('elsewhere.test', '192.0.2.66'),
      a('example.test', '192.0.2.1'),
      cname('x.test', 'example.test'),
    ];
    const s = selectAnswers(answers, 'example.test', 1);
    expect(s.records.map((r) => r.data)).toEqual([{ kind: 'address', address: '192.0.2.1' }]);
    expect(s.chain).toEqual([]);
  });

  it('for CNAME itself, the chain is the answer', () => {
    const answers = [cname('a.test', 'b.test'), cname('b.test', 'c.test')];
    expect(selectAnswers(answers, 'a.test', 5).records).toEqual(answers);
  });

  it('a loop is listed up to the link that closes it, and ends', () => {
    const answers = [cname('a.test', 'b.test'), cname('b.test', 'a.test'), a('a.test', '192.0.2.1')];
    const s = selectAnswers(answers, 'a.test', 1);
    expect(s.chain.map((l) => `${l.name}→${(l.data as { name: string }).name}`)).toEqual([
      'a.test→b.test',
      'b.test→a.test',
    ]);
    expect(s.records).toHaveLength(1);
  });
});

describe('toDnsRecord', () => {
  it('maps each type to value, ttl and its own fields', () => {
    expect(toDnsRecord(a('x', '192.0.2.1'))).toEqual({ value: '192.0.2.1', ttl: 60 });
    expect(toDnsRecord(cname('www.x', 'x'))).toEqual({ value: 'x', ttl: 60, name: 'www.x' });
    expect(toDnsRecord(rr('x', 2, { kind: 'name', name: 'ns1.x' }))).toEqual({ value: 'ns1.x', ttl: 60 });
    expect(toDnsRecord(rr('x', 15, { kind: 'mx', preference: 10, exchange: 'mx.x' }))).toEqual({
      value: 'mx.x',
      ttl: 60,
      priority: 10,
    });
    expect(toDnsRecord(rr('x', 16, { kind: 'txt', strings: ['v=spf1 ', '-all'] }))).toEqual({
      value: 'v=spf1 -all',
      ttl: 60,
      strings: ['v=spf1 ', '-all'],
    });
    expect(toDnsRecord(rr('x', 33, { kind: 'srv', priority: 1, weight: 2, port: 3, target: 't.x' }))).toEqual(
      {
        value: 't.x',
        ttl: 60,
        priority: 1,
        weight: 2,
        port: 3,
      },
    );
    expect(
      toDnsRecord(
        rr('x', 6, {
          kind: 'soa',
          mname: 'ns1.x',
          rname: 'hostmaster.x',
          serial: 1,
          refresh: 2,
          retry: 3,
          expire: 4,
          minimum: 5,
        }),
      ),
    ).toEqual({
      value: 'ns1.x',
      ttl: 60,
      mname: 'ns1.x',
      rname: 'hostmaster.x',
      serial: 1,
      refresh: 2,
      retry: 3,
      expire: 4,
      minimum: 5,
    });
  });
});

describe('orderRecords', () => {
  it('MX by preference, then name', () => {
    const mx = [
      { value: 'b.x', ttl: 1, priority: 20 },
      { value: 'z.x', ttl: 1, priority: 10 },
      { value: 'a.x', ttl: 1, priority: 20 },
    ];
    expect(orderRecords('MX', mx).map((r) => r.value)).toEqual(['z.x', 'a.x', 'b.x']);
  });

  it('SRV by priority, heavier weight first', () => {
    const srv = [
      { value: 'light', ttl: 1, priority: 10, weight: 5, port: 1 },
      { value: 'first', ttl: 1, priority: 0, weight: 0, port: 1 },
      { value: 'heavy', ttl: 1, priority: 10, weight: 50, port: 1 },
    ];
    expect(orderRecords('SRV', srv).map((r) => r.value)).toEqual(['first', 'heavy', 'light']);
  });

  it('other types keep the server’s order', () => {
    const recs = [
      { value: '192.0.2.9', ttl: 1 },
      { value: '192.0.2.1', ttl: 1 },
    ];
    expect(orderRecords('A', recs)).toEqual(recs);
  });
});
