/**
 * Uploads are read whole (10 MiB): bytes built to make a scan repeat must not make detection slow. Each input
 * below once took seconds (a signature repeated millions of times, escapes everywhere, a stub without its header).
 */
import { describe, expect, it } from 'vitest';
import { detect } from '../../services/file-type/detect.js';
import * as f from './fixtures.js';

const MIB = 1024 * 1024;
const fill = (prefix: Buffer, pattern: string) =>
  Buffer.concat([prefix, Buffer.alloc(10 * MIB, pattern, 'latin1')]);

describe('10 MiB of hostile bytes', () => {
  const cases: [string, Buffer][] = [
    ['ZIP local headers repeated', fill(Buffer.alloc(0), 'PK\x03\x04')],
    ['ZIP central headers after a ZIP', fill(f.zip([{ name: 'a', data: 'a' }]), 'PK\x01\x02')],
    ['near-plausible ZIP headers after a GIF', fill(f.gif(), 'PK\x03\x04\x14\x00\x00\x00\x08\x00')],
    ['escaped PDF names', fill(f.pdf(), '/#41')],
    ['DOS stub messages without an MZ header', fill(f.png(), 'This program cannot be run in DOS mode')],
    ['event-handler look-alikes in HTML', fill(Buffer.from('<!doctype html>'), ' on')],
    ['an opening bracket repeated', fill(Buffer.alloc(0), '[')],
  ];

  it.each(cases)('%s: detected in under 2 s', async (_what, bytes) => {
    const started = performance.now();
    await detect(bytes);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
