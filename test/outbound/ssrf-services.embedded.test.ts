/**
 * The SSRF table against every platform route that contacts a user-named host (the "run against every
 * service that uses the module so far"): each case refused with 403 SSRF_BLOCKED in the route's convention, and
 * the sentinel listening on the forbidden addresses sees no connection. Services are the platform's own, wired by
 * cli/platform.ts with the configuration the fixtures give (OUTBOUND_ALLOW_CIDRS, DNS_SERVERS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';
import { runSsrfTable, runSsrfTargets, type SsrfFixtures, startSsrfFixtures } from '../support/ssrf-cases.js';

let fx: SsrfFixtures;
let tp: TestPlatform;
let key: string;

beforeAll(async () => {
  fx = await startSsrfFixtures();
  tp = await openTestPlatform({ env: fx.env });
  const user = await tp.createAccount({ plan: 'ENTERPRISE' });
  key = (await tp.createApiKey(user.token, { scopes: ['*'] })).key;
}, 60_000);

afterAll(async () => {
  await tp?.close();
  await fx?.close();
});

const send = async (
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) => {
  const res = await tp.app.inject({
    method,
    url,
    headers: { 'x-api-key': key, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json() as unknown };
};

describe.each([
  ['url-metadata D', '/api/v1/url-metadata/fetch'],
  ['url-metadata R', '/api/v1/metadata/extract'],
])('%s: every URL case is 403 SSRF_BLOCKED', (_name, path) => {
  it('refuses the whole table without touching the sentinel', async () => {
    const run = await runSsrfTable(fx, (url) => send('POST', path, { url }));
    expect(run.failures).toEqual([]);
    expect(run.sentinelConnections).toEqual([]);
  }, 60_000);
});

describe.each([
  [
    'ssl-checker D',
    (host: string, port: number) => send('POST', '/api/v1/ssl/check', { hostname: host, port }),
  ],
  [
    'ssl-checker R',
    (host: string, port: number) =>
      send('POST', '/api/v1/ssl/check', { hostname: host, port }, { 'x-api-convention': 'R' }),
  ],
  [
    'ssl-checker S',
    (host: string, port: number) =>
      send('GET', `/api/ssl-checker/check?domain=${encodeURIComponent(host)}&port=${port}`),
  ],
])('%s: every host case is 403 SSRF_BLOCKED', (_name, check) => {
  it('refuses the whole table without touching the sentinel', async () => {
    const run = await runSsrfTargets(fx, check);
    expect(run.failures).toEqual([]);
    expect(run.sentinelConnections).toEqual([]);
  }, 60_000);
});

it('positive control: the allow-listed public server is reached through url-metadata', async () => {
  const res = await send('POST', '/api/v1/url-metadata/fetch', { url: `${fx.publicHttp.origin}/ok` });
  expect(res.status).toBe(200);
});
