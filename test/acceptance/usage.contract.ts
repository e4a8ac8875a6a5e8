import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmtpSink } from '../conformance/mail-sink.js';
import { burst, call, type JsonResponse, signUp, type Toolgate } from './harness.js';

export interface LoadDeployment {
  /** Gateways the load is spread over; the last one is the one killed. */
  readonly gateways: readonly Toolgate[];
  readonly sink: SmtpSink;
  /** Brings a killed gateway back (embedded: the profile has only one process), returning its URL. */
  restart(killed: Toolgate): Promise<Toolgate>;
  stop(): Promise<void>;
}

const usedOf = async (url: string, token: string): Promise<number> =>
  (await call(url, 'GET', '/api/portal/usage', { token })).body?.data?.used ?? -1;

/** Waits until usage stops moving (the cluster's projector is asynchronous) and returns it. */
async function settledUsage(url: string, token: string, atLeast: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  let last = -1;
  let stableSince = Date.now();
  for (;;) {
    const used = await usedOf(url, token);
    if (used !== last) {
      last = used;
      stableSince = Date.now();
    }
    if (used >= atLeast && Date.now() - stableSince > 1500) return used;
    if (Date.now() > deadline) return used;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Exact usage: `used` equals the number of 2xx answers after 1,000 concurrent calls; and after a gateway is
 * SIGKILLed in the middle of the load, every acknowledged call is counted and none twice: the count lies between
 * the 2xx answers received and those plus the requests whose answers were lost with the process.
 */
export function describeExactUsage(name: string, deploy: () => Promise<LoadDeployment>): void {
  describe(`exact usage: ${name}`, () => {
    let d: LoadDeployment;
    beforeAll(async () => {
      d = await deploy();
    }, 180_000);
    afterAll(async () => {
      await d?.stop();
    }, 60_000);

    it('counts exactly the 2xx answers of 1,000 concurrent calls', async () => {
      const urls = d.gateways.map((g) => g.url);
      const { token, apiKey } = await signUp(urls, d.sink, `load${Date.now().toString(36)}`);
      const results = await burst(urls, apiKey, 1000);
      const ok = results.filter((r) => r.status === 200).length;
      expect(ok).toBeGreaterThan(900);
      expect(results.filter((r) => r.status !== 200 && r.status !== 429 && r.status !== 503)).toEqual([]);
      expect(await settledUsage(urls[0]!, token, ok)).toBe(ok);
    });

    it('counts every acknowledged call once when a gateway is SIGKILLed mid-load', async () => {
      const urls = d.gateways.map((g) => g.url);
      const { token, apiKey } = await signUp(urls, d.sink, `kill${Date.now().toString(36)}`);
      const victim = d.gateways.at(-1)!;
      const results: (JsonResponse | null)[] = [];
      let fired = 0;
      const inFlight: Promise<void>[] = [];
      // Waves of concurrent calls; the victim dies while a wave is in the air.
      const killer = new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (fired >= 300) {
            clearInterval(timer);
            victim.child.kill('SIGKILL');
            resolve();
          }
        }, 5);
      });
      for (let wave = 0; wave < 12; wave++) {
        for (let i = 0; i < 50; i++) {
          const url = urls[(wave * 50 + i) % urls.length]!;
          fired += 1;
          inFlight.push(
            call(url, 'POST', '/api/readability/score', {
              apiKey,
              body: { text: 'The cat sat on the mat.' },
            }).then(
              (r) => {
                results.push(r);
              },
              () => {
                results.push(null);
              },
            ),
          );
        }
        await new Promise((r) => setTimeout(r, 15));
      }
      await killer;
      await Promise.all(inFlight);
      const ok = results.filter((r) => r?.status === 200).length;
      const lost = results.filter((r) => r === null).length;
      expect(lost, 'the kill must land while calls are in flight').toBeGreaterThan(0);
      const survivor = d.gateways.length > 1 ? d.gateways[0]! : await d.restart(victim);
      const used = await settledUsage(survivor.url, token, ok);
      expect(used).toBeGreaterThanOrEqual(ok);
      expect(used).toBeLessThanOrEqual(ok + lost);
    });
  });
}
