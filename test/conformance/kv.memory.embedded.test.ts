import { describe, expect, it } from 'vitest';
import { MemoryKvStore } from '../../core/kv/memory-kv.js';
import { describeKvContract } from './kv.contract.js';

describeKvContract('memory', async () => {
  const store = new MemoryKvStore();
  return { store, cleanup: () => store.close() };
});

describe('MemoryKvStore sweep', () => {
  it('drops expired keys nobody reads again once the sweep interval has passed', async () => {
    let now = 1_000_000;
    const kv = new MemoryKvStore({ now: () => now, sweepIntervalMs: 1_000 });
    for (let i = 0; i < 500; i++) await kv.set(`tmp:${i}`, 'v', 100);
    await kv.set('kept', 'v');
    expect(kv.size).toBe(501);
    now += 500;
    await kv.set('trigger', 'v');
    // Within the interval nothing is swept yet, though the keys read as absent.
    expect(kv.size).toBe(502);
    expect(await kv.get('tmp:1')).toBeNull();
    now += 600;
    await kv.set('trigger', 'v');
    expect(kv.size).toBe(2);
    expect(await kv.get('kept')).toBe('v');
  });
});
