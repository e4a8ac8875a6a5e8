import { describe, expect, it } from 'vitest';
import { summarize } from './check.js';
import type { RecordType } from './record-types.js';
import type { Answered, Failed, Outcome } from './resolver.js';
import type { NameServer } from './servers.js';
import type { ResourceRecord } from './wire.js';

const primary: NameServer = { address: '192.0.2.53', port: 53, label: '192.0.2.53' };
const secondary: NameServer = { address: '192.0.2.54', port: 5353, label: '192.0.2.54:5353' };
const a: ResourceRecord = {
  name: 'x.test',
  type: 1,
  class: 1,
  ttl: 30,
  data: { kind: 'address', address: '192.0.2.1' },
};
const link: ResourceRecord = {
  name: 'x.test',
  type: 5,
  class: 1,
  ttl: 30,
  data: { kind: 'name', name: 'y.test' },
};

const ok = (records: ResourceRecord[] = [], server = primary, chain: ResourceRecord[] = []): Answered => ({
  ok: true,
  rcode: 'NOERROR',
  records,
  chain,
  server,
});
const nx = (chain: ResourceRecord[] = [], server = primary): Answered => ({
  ...ok([], server, chain),
  rcode: 'NXDOMAIN',
});
const fail = (error: Failed['error'], message: string, server: NameServer | null = primary): Failed => ({
  ok: false,
  error,
  message,
  server,
});
const run = (...outcomes: [RecordType, Outcome][]) =>
  summarize(
    outcomes.map(([type, outcome]) => ({ type, outcome })),
    primary,
    12,
  );

describe('summarize', () => {
  it('NOERROR: every type present, [] where the name has none', () => {
    expect(run(['A', ok([a])], ['MX', ok()])).toEqual({
      status: 'NOERROR',
      records: { A: [{ value: '192.0.2.1', ttl: 30 }], MX: [] },
      nameserver: '192.0.2.53',
      queryTimeMs: 12,
    });
  });

  it('NXDOMAIN: no records at all, even when another type was answered or failed', () => {
    expect(run(['A', ok([a])], ['MX', nx([], secondary)], ['TXT', fail('TIMEOUT', 'slow')])).toEqual({
      status: 'NXDOMAIN',
      records: {},
      nameserver: '192.0.2.54:5353',
      queryTimeMs: 12,
    });
  });

  it('an NXDOMAIN behind a CNAME of the name is about the alias target: the name exists', () => {
    expect(run(['A', nx([link])], ['CNAME', ok([link])])).toMatchObject({
      status: 'NOERROR',
      records: { A: [], CNAME: [{ value: 'y.test', name: 'x.test' }] },
    });
  });

  it('SERVFAIL: the answered types stay, the failed ones are absent, message says which and why', () => {
    const r = run(
      ['A', ok([a], secondary)],
      ['MX', fail('TIMEOUT', 'no answer from 192.0.2.53 within 3000 ms')],
      ['TXT', fail('TIMEOUT', 'no answer from 192.0.2.53 within 3000 ms')],
      ['NS', fail('SERVER_ERROR', '192.0.2.53 answered REFUSED')],
    );
    expect(r).toEqual({
      status: 'SERVFAIL',
      records: { A: [{ value: '192.0.2.1', ttl: 30 }] },
      nameserver: '192.0.2.54:5353',
      queryTimeMs: 12,
      error: 'TIMEOUT',
      message: 'MX, TXT: no answer from 192.0.2.53 within 3000 ms; NS: 192.0.2.53 answered REFUSED',
    });
  });

  it('nothing answered: the failing server is named, or the first configured one', () => {
    expect(run(['A', fail('NETWORK_ERROR', 'x', secondary)]).nameserver).toBe('192.0.2.54:5353');
    expect(run(['A', fail('TIMEOUT', 'no time left', null)]).nameserver).toBe('192.0.2.53');
  });
});
