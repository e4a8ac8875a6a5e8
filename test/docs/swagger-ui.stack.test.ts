/**
 * Swagger UI in a real browser (Debian Chromium, installed by deploy/local/up.sh, path in TEST_CHROMIUM_PATH):
 * the page renders every operation, the Authorize dialog takes an API key and a Bearer token, and "Try it out"
 * really calls the API with them.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupRoutes } from '../../gateway/routes.js';
import { openTestPlatform, type TestAccount, type TestKey, type TestPlatform } from '../support/platform.js';

const ARTIFACTS = join(import.meta.dirname, 'artifacts');
const SCREENSHOT = join(ARTIFACTS, 'swagger-ui.png');
const STEP_MS = 15_000;

function chromiumPath(): string {
  const path = process.env.TEST_CHROMIUM_PATH;
  if (!path) {
    throw new Error(
      'TEST_CHROMIUM_PATH is not set: run the stack suites through `npm test` (deploy/local/up.sh installs Chromium), ' +
        'or set it to a Chromium binary, e.g. TEST_CHROMIUM_PATH=/usr/bin/chromium',
    );
  }
  return path;
}

/** The port is chosen first so PUBLIC_URL (the OpenAPI `servers` entry Swagger UI calls) is this very server. */
const freePort = () =>
  new Promise<number>((done, fail) => {
    const srv = createServer()
      .on('error', fail)
      .listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => done(port));
      });
  });

let tp: TestPlatform;
let base: string;
let browser: Browser | null = null;
let profileDir: string;
let page: Page;
let user: TestAccount;
let key: TestKey;

beforeAll(async () => {
  const executablePath = chromiumPath();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  tp = await openTestPlatform({ env: { PUBLIC_URL: base } });
  await tp.app.listen({ port, host: '127.0.0.1' });
  user = await tp.createAccount();
  key = await tp.createApiKey(user.token, { scopes: ['readability'] });

  profileDir = mkdtempSync(join(tmpdir(), 'tg-chromium-'));
  browser = await puppeteer.launch({
    executablePath,
    headless: true,
    timeout: 30_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profileDir}`,
    ],
  });
  page = await browser.newPage();
  page.setDefaultTimeout(STEP_MS);
  page.setDefaultNavigationTimeout(STEP_MS);
  await page.setViewport({ width: 1280, height: 900 });
}, 90_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  await tp?.close();
});

/** Text of an element (the callback runs in the page; typed loosely, the project has no DOM lib). */
const textOf = (h: ElementHandle) => h.evaluate((el: { textContent: string | null }) => el.textContent ?? '');

/** Expands an operation, presses Execute (try-it-out is on by default), and returns the live response. */
async function execute(operationDomId: string): Promise<{ status: number; body: string }> {
  const block = `#${operationDomId}`;
  await page.waitForSelector(block);
  if (!(await page.$(`${block}.is-open`))) await page.click(`${block} .opblock-summary-control`);
  const tryIt = await page.$(`${block} .try-out__btn`);
  if (tryIt && !(await textOf(tryIt)).includes('Cancel')) await tryIt.click();
  await page.click(`${block} .execute`);
  const status = await page.waitForSelector(`${block} .live-responses-table .response .response-col_status`);
  const body = await page.waitForSelector(`${block} .live-responses-table .response-col_description pre`);
  return { status: Number((await textOf(status!)).trim()), body: await textOf(body!) };
}

describe('Swagger UI at /swagger-ui/', () => {
  it('renders one operation block per registered route', async () => {
    const res = await page.goto(`${base}/swagger-ui/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock');
    const operations = groupRoutes(tp.platform.services).length;
    // Operations appear tag by tag; wait until they all have.
    await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${operations}`);
    const blocks = await page.$$eval('.opblock', (els) => els.length);
    const paths = Object.keys(
      ((await (await fetch(`${base}/openapi.json`)).json()) as { paths: object }).paths,
    );
    expect(blocks).toBeGreaterThanOrEqual(paths.length);
    expect(blocks).toBe(operations);
  });

  it('takes an API key and a Bearer token through the Authorize dialog', async () => {
    await page.click('.auth-wrapper .authorize');
    await page.waitForSelector('.modal-ux .auth-container');
    const fill = async (scheme: string, value: string) => {
      for (const container of await page.$$('.modal-ux .auth-container')) {
        if (!(await textOf(container)).includes(scheme)) continue;
        const input = await container.$('input');
        expect(input, `${scheme} has an input`).not.toBeNull();
        await input!.type(value);
        const button = await container.$('button.authorize');
        await button!.click();
        // Once applied, the form says "Authorized" and offers Logout instead.
        const deadline = Date.now() + STEP_MS;
        while (!(await textOf(container)).includes('Logout')) {
          if (Date.now() > deadline) throw new Error(`${scheme}: the dialog did not accept the credential`);
          await new Promise((r) => setTimeout(r, 50));
        }
        return;
      }
      throw new Error(`no ${scheme} form in the Authorize dialog`);
    };
    await fill('X-API-Key', key.key);
    await fill('bearer', user.token);
    await page.click('.modal-ux .close-modal');
    await page.waitForSelector('.modal-ux', { hidden: true });
    expect(await page.$('.auth-wrapper .authorize.locked')).not.toBeNull();
  });

  it('"Try it out" on POST /api/readability/score sends X-API-Key and shows 200 with the envelope', async () => {
    const { status, body } = await execute('operations-readability-readabilityScore');
    expect(status, body).toBe(200);
    const json = JSON.parse(body) as { status: string; data: Record<string, unknown> };
    expect(json.status).toBe('OK');
    expect(json.data).toMatchObject({ wordCount: expect.any(Number), sentenceCount: expect.any(Number) });
  });

  it('"Try it out" on GET /api/portal/usage sends the Bearer token and shows 200', async () => {
    const { status, body } = await execute('operations-portal-getUsage');
    expect(status, body).toBe(200);
    const json = JSON.parse(body) as { status: string; data: Record<string, unknown> };
    expect(json).toMatchObject({ status: 'OK', data: { plan: 'FREE', used: expect.any(Number) } });
    // The try-it-out call above was metered against the key's account.
    expect(json.data.used).toBeGreaterThanOrEqual(1);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT as `${string}.png`, fullPage: true });
  });
});
