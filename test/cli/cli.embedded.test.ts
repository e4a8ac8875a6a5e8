import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../bin/toolgate.js');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tg-cli-'));
  dirs.push(d);
  return d;
}

/** The environment a user's shell would give, minus anything that could select the cluster profile. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

function run(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const freePort = () =>
  new Promise<number>((done) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });

async function waitFor(url: string, ms = 20_000): Promise<Response> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('toolgate CLI', () => {
  it('refuses bad configuration with one message naming every problem, exit 2, no stack trace', async () => {
    const r = await run(['start'], { PORT: 'abc', KAFKA_BROKERS: 'localhost:9092' }, tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('toolgate: Invalid configuration:');
    expect(r.stderr).toContain('PORT="abc": must be a whole number from 0 to 65535');
    expect(r.stderr).toContain(
      'partial cluster configuration: KAFKA_BROKERS set but DATABASE_URL, REDIS_URL, CLICKHOUSE_URL missing',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('answers unknown commands and projections with usage and exit 2', async () => {
    const cwd = tempDir();
    const unknown = await run(['frobnicate'], {}, cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command frobnicate');
    const rebuild = await run(['projections', 'rebuild', 'nope'], { DATA_DIR: join(cwd, 'data') }, cwd);
    expect(rebuild.code).toBe(2);
    expect(rebuild.stderr).toContain('unknown projection nope; known: accounts, apikeys, ip-reputation');
  });

  it('migrates, rebuilds by name and reports status in the embedded profile', async () => {
    const cwd = tempDir();
    const env = { DATA_DIR: join(cwd, 'data') };
    const migrate = await run(['migrate'], env, cwd);
    expect(migrate).toMatchObject({ code: 0, stdout: 'migrated (embedded profile)\n' });
    expect(readdirSync(join(cwd, 'data')).sort()).toEqual(
      expect.arrayContaining(['events.db', 'kv.db', 'readmodels.db']),
    );
    const rebuild = await run(['projections', 'rebuild', 'accounts'], env, cwd);
    expect(rebuild.code).toBe(0);
    expect(rebuild.stdout).toMatch(/^rebuilt accounts: generation 2, position 0, \d+ ms\n$/);
    const status = await run(['projections', 'status'], env, cwd);
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({ name: 'accounts', generation: 2, lag: 0 }),
      expect.objectContaining({ name: 'apikeys', generation: 1, lag: 0 }),
      expect.objectContaining({ name: 'ip-reputation', generation: 1, lag: 0 }),
    ]);
  });

  it('creates an admin idempotently with `admin create`, and refuses it without login and e-mail', async () => {
    const cwd = tempDir();
    const env = { DATA_DIR: join(cwd, 'data'), ADMIN_PASSWORD: 'Admin-Pass-2026-x' };
    const first = await run(['admin', 'create', '--login', 'boss', '--email', 'boss@example.com'], env, cwd);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^created boss \([0-9a-f-]{36}\)\n$/);
    const again = await run(['admin', 'create', '--login', 'boss', '--email', 'boss@example.com'], env, cwd);
    expect(again.stdout).toMatch(/^granted ROLE_ADMIN to boss /);
    expect((await run(['admin', 'create', '--login', 'boss'], env, cwd)).code).toBe(2);
    expect(first.stdout + again.stdout).not.toContain('Admin-Pass-2026-x');
  });

  it('starts every role in one process with no services, serves /healthz and /readyz, stops on SIGTERM', async () => {
    const cwd = tempDir();
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [BIN, 'start'], {
      env: cleanEnv({ PORT: String(port), DATA_DIR: join(cwd, 'data') }),
      cwd,
    });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    try {
      const health = await waitFor(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await health.json()).toEqual({ status: 'UP' });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`, {
        headers: { 'X-Request-Id': 'trace-123' },
      });
      expect(ready.status).toBe(200);
      expect(ready.headers.get('x-request-id')).toBe('trace-123');
      const body = (await ready.json()) as {
        status: string;
        profile: string;
        components: Record<string, { status: string }>;
      };
      expect(body.status).toBe('UP');
      expect(body.profile).toBe('embedded');
      expect(Object.keys(body.components).sort()).toEqual([
        'bus',
        'eventStore',
        'kv',
        'projections',
        'readModels',
      ]);
      for (const c of Object.values(body.components)) expect(c.status).toBe('UP');
    } finally {
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(stderr).not.toMatch(/Error/);
  });
});
