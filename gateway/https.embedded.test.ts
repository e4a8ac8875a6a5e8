import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../core/config/config.js';
import { buildApp } from './app.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A self-signed certificate for 127.0.0.1, made by the system's openssl for this test only. */
function certificate(): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

const health = async () => ({ status: 'UP' as const, components: {} });

it('terminates TLS with the configured certificate and serves HTTPS', async () => {
  const { cert, key } = certificate();
  const app = await buildApp({
    config: loadConfig({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key, REQUIRE_HTTPS: 'true' }, { dotenv: false }),
    health,
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = app.server.address() as { port: number };
    const body = await new Promise<{ status: number; text: string; protocol: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/readyz',
          ca: execFileSync('cat', [cert]),
          servername: '127.0.0.1',
        },
        (res) => {
          const protocol = (res.socket as import('node:tls').TLSSocket).getProtocol() ?? '';
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, protocol }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(body.status).toBe(200);
    expect(body.protocol).toMatch(/^TLSv1\.[23]$/);
  } finally {
    await app.close();
  }
});

it('trusts X-Forwarded-Proto only from a configured proxy when HTTPS is required', async () => {
  const app = await buildApp({
    config: loadConfig({ REQUIRE_HTTPS: 'true', TRUST_PROXY: '10.0.0.5' }, { dotenv: false }),
    health,
    logger: false,
  });
  const viaProxy = await app.inject({
    method: 'GET',
    url: '/api/portal/usage',
    remoteAddress: '10.0.0.5',
    headers: { 'x-forwarded-proto': 'https' },
  });
  // Past the HTTPS guard: the route does not exist in this bare app, so 404 rather than 403.
  expect(viaProxy.statusCode).toBe(404);
  const spoofed = await app.inject({
    method: 'GET',
    url: '/api/portal/usage',
    remoteAddress: '192.0.2.7',
    headers: { 'x-forwarded-proto': 'https' },
  });
  expect(spoofed.statusCode).toBe(403);
  expect(spoofed.json()).toEqual({
    status: 'ERROR',
    error: { code: 'HTTPS_REQUIRED', message: 'use HTTPS' },
  });
});
