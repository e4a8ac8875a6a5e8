import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseMail } from '../conformance/mail-message.js';
import type { SmtpSink } from '../conformance/mail-sink.js';

const BIN = resolve(import.meta.dirname, '../../bin/toolgate.js');

export const freePort = () =>
  new Promise<number>((done) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });

export function tempDir(prefix = 'tg-acc-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A PLANS_FILE adding LOAD, a plan whose limits never refuse, for load tests. */
export function loadPlanFile(dir: string): string {
  const file = join(dir, 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({
      LOAD: { perMinute: 1_000_000, perDay: 10_000_000, perMonth: 10_000_000, batchSize: 100 },
    }),
  );
  return file;
}

export interface Toolgate {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM and wait (or another signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `toolgate <role>` as a real process listening on its own port, and waits until it answers /healthz. */
export async function startToolgate(role: string, env: Record<string, string>): Promise<Toolgate> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, role], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`toolgate ${role} exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`toolgate ${role} did not answer /healthz within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${ms} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field
  readonly body: any;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; apiKey?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}

/** The activation key of the newest mail to `to`, from the link in its text part. */
export async function activationKeyFor(sink: SmtpSink, to: string): Promise<string> {
  const mail = await until(
    async () => sink.received.filter((m) => (m.envelopeTo ?? []).includes(to)).at(-1),
    (m) => m !== undefined,
  );
  const text = parseMail(mail!.raw).text ?? '';
  const key = /\/activate\?key=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!key) throw new Error(`no activation link in the mail:\n${text}`);
  return key;
}

export const PASSWORD = 'Journey-Pass-2026';

/** register → mail → activate → login → key. Returns the JWT and the full key. */
export async function signUp(
  gateways: readonly string[],
  sink: SmtpSink,
  login: string,
  scopes: string[] = ['readability'],
): Promise<{ token: string; apiKey: string; keyId: string }> {
  const [a, b = a] = gateways as [string, string?];
  const email = `${login}@example.com`;
  const reg = await call(a, 'POST', '/api/auth/register', {
    body: { login, email, password: PASSWORD, langKey: 'en' },
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const key = await activationKeyFor(sink, email);
  const act = await call(b!, 'GET', `/api/activate?key=${key}`);
  if (act.status !== 200) throw new Error(`activate: ${act.status} ${JSON.stringify(act.body)}`);
  const login1 = await call(a, 'POST', '/api/auth/login', { body: { username: login, password: PASSWORD } });
  if (login1.status !== 200) throw new Error(`login: ${login1.status} ${JSON.stringify(login1.body)}`);
  const token = login1.body.id_token as string;
  const created = await call(b!, 'POST', '/api/portal/api-keys', {
    token,
    body: { name: 'acceptance', scopes },
  });
  if (created.status !== 201) throw new Error(`key: ${created.status} ${JSON.stringify(created.body)}`);
  return { token, apiKey: created.body.data.key, keyId: created.body.data.keyId };
}

export const TEXT = 'The cat sat on the mat. It was a sunny day, and the cat was happy.';

/** Fires `n` readability calls at once, spread round-robin over the gateways; returns the statuses. */
export async function burst(gateways: readonly string[], apiKey: string, n: number): Promise<JsonResponse[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      call(gateways[i % gateways.length]!, 'POST', '/api/readability/score', {
        apiKey,
        body: { text: TEXT },
      }),
    ),
  );
}
