import { createServer } from 'node:net';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { SmtpMailer } from '../../core/mail/smtp-mailer.js';
import { isReply, type Reply } from '../../core/service/definition.js';
import { ACTIVATION_TTL_MS, MESSAGES, RESEND_COOLDOWN_MS } from '../../services/portal/auth-service.js';
import { openPortalFixture, type PortalFixture, PUBLIC_URL } from './portal.fixture.js';

const PASSWORD = 'correct horse battery staple';
const ADA = { login: 'Ada.Lovelace', email: 'Ada@Example.com', password: PASSWORD, langKey: 'en' };

async function until<T>(probe: () => T | Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The AppError a call fails with (fails the test when it succeeds). */
async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected the call to fail').toBeInstanceOf(AppError);
  return err as AppError;
}

describe('portal auth routes', () => {
  let fx: PortalFixture;
  const extra: PortalFixture[] = [];

  const open = async (options?: Parameters<typeof openPortalFixture>[0]) => {
    const f = await openPortalFixture(options);
    extra.push(f);
    return f;
  };
  afterEach(async () => {
    for (const f of extra.splice(0)) await f.cleanup();
  });

  const register = (body: Record<string, unknown> = ADA, f = fx) =>
    f.call('POST', '/api/auth/register', { body });
  const activate = (key: unknown, f = fx) => f.call('GET', '/api/activate', { query: { key } });
  const login = (username: string, password: string, f = fx, ip?: string) =>
    f.call('POST', '/api/auth/login', { body: { username, password }, ...(ip ? { ip } : {}) }) as Promise<{
      id_token: string;
    }>;
  const resend = (email: string, f = fx) =>
    f.call('POST', '/api/auth/resend-activation', { body: { email } });

  it('declares the routes of SPEC.md 4.1 and DESIGN.md 7, public and unmetered, with schemas', async () => {
    fx = await open();
    expect(fx.service.slug).toBe('portal');
    const table = fx.service.routes.map((r) => `${r.method} ${r.path} ${r.operationId}`);
    expect(table).toEqual([
      'POST /api/auth/register portalRegister',
      'GET /api/activate portalActivate',
      'POST /api/auth/resend-activation portalResendActivation',
      'POST /api/auth/login portalLogin',
      'POST /api/authenticate portalAuthenticate',
      'GET /.well-known/jwks.json portalJwks',
    ]);
    for (const r of fx.service.routes) {
      expect(r).toMatchObject({ convention: 'portal', auth: 'public', metered: false });
      const request = r.schemas.body ?? r.schemas.query;
      if (request) expect(request.additionalProperties).toBe(false);
      expect(Object.keys(r.schemas.response)).toEqual([String(r.status ?? 200)]);
    }
    expect(fx.route('POST', '/api/auth/register').status).toBe(201);
    expect(fx.route('POST', '/api/auth/login').schemas.body).toEqual(
      fx.route('POST', '/api/authenticate').schemas.body,
    );
  });

  it('registers, mails the link, activates with its key, and logs in for a JWT that verifies', async () => {
    fx = await open();
    expect(await register()).toEqual({ status: 'OK', message: MESSAGES.registered });

    const [mail, ...more] = fx.mails();
    expect(more).toEqual([]);
    // Sent to the address as typed (the local part may be case-sensitive); stored in lower case.
    expect(fx.sink.received[0]!.envelopeTo).toEqual(['Ada@example.com']);
    expect(mail!.headers.get('from')).toBe('Toolgate <no-reply@toolgate.example>');
    expect(mail!.headers.get('subject')).toBe('Activate your Toolgate account');
    expect(mail!.text).toContain('Hello Ada.Lovelace,');
    const key = fx.keyOf(mail!);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail!.text).toContain(`${PUBLIC_URL}/activate?key=${key}`);
    expect(mail!.html).toContain(`href="${PUBLIC_URL}/activate?key=${key}"`);

    const notYet = await failure(login('ada.lovelace', PASSWORD));
    expect(notYet).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVATED', status: 401 });

    expect(await activate(key)).toEqual({ status: 'OK', message: MESSAGES.activated });
    expect((await fx.reader.byLogin('ada.lovelace'))?.activated).toBe(true);

    const { id_token } = await login('ADA.LOVELACE', PASSWORD);
    const claims = await fx.jwt.verify(id_token);
    const view = await fx.reader.byLogin('ada.lovelace');
    expect(claims).toEqual({ accountId: view!.accountId, login: 'ada.lovelace', roles: ['ROLE_USER'] });
    expect(view).toMatchObject({ email: 'ada@example.com', plan: 'FREE', langKey: 'en' });

    // By e-mail address too, and on the second path.
    const byEmail = await login(' ada@EXAMPLE.com ', PASSWORD);
    expect((await fx.jwt.verify(byEmail.id_token)).accountId).toBe(view!.accountId);
    const viaAuthenticate = (await fx.call('POST', '/api/authenticate', {
      body: { username: 'ada.lovelace', password: PASSWORD, rememberMe: true },
    })) as { id_token: string };
    expect((await fx.jwt.verify(viaAuthenticate.id_token)).login).toBe('ada.lovelace');

    // The JWKS route serves the key the token verifies with.
    const jwks = (await fx.call('GET', '/.well-known/jwks.json')) as Reply;
    expect(isReply(jwks)).toBe(true);
    expect(jwks.headers['cache-control']).toMatch(/max-age/);
    const { payload } = await jwtVerify(id_token, createLocalJWKSet(jwks.body as never), {
      issuer: PUBLIC_URL,
      audience: 'toolgate',
      currentDate: fx.clock.now(),
    });
    expect(payload.sub).toBe(view!.accountId);

    // The key worked once.
    const again = await failure(activate(key));
    expect(again).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'key: unknown or already used activation key',
    });
  });

  it('refuses invalid registrations field by field, creating nothing', async () => {
    fx = await open();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ADA, login: '' }, 'login: must not be blank'],
      [{ ...ADA, login: undefined }, 'login: must not be blank'],
      [{ ...ADA, login: 'a'.repeat(51) }, 'login: must be 1 to 50 characters of letters, digits and . _ @ -'],
      [{ ...ADA, login: 'ada lovelace' }, 'login: must be 1 to 50 characters of letters, digits and . _ @ -'],
      [{ ...ADA, login: 'ädä' }, 'login: must be 1 to 50 characters of letters, digits and . _ @ -'],
      [{ ...ADA, email: 'not-an-address' }, 'email: must be a well-formed email address'],
      [{ ...ADA, email: 'ada@' }, 'email: must be a well-formed email address'],
      [{ ...ADA, email: `${'a'.repeat(250)}@example.com` }, 'email: must be a well-formed email address'],
      [{ ...ADA, email: '' }, 'email: must not be blank'],
      [{ ...ADA, password: 'short' }, 'password: must be 8 to 128 characters'],
      [{ ...ADA, password: 'x'.repeat(129) }, 'password: must be 8 to 128 characters'],
      [{ ...ADA, password: 'password123' }, 'password: appears in a list of breached passwords'],
      [{ ...ADA, password: 'Qwerty123!' }, 'password: appears in a list of breached passwords'],
      [{ ...ADA, langKey: 'english-please' }, 'langKey: must be a language code such as en'],
    ];
    for (const [body, message] of cases) {
      const err = await failure(register(body));
      expect(err).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, message });
    }
    expect((await failure(fx.call('POST', '/api/auth/register', { body: [] }))).code).toBe(
      'VALIDATION_ERROR',
    );
    expect(await fx.events()).toEqual([]);
    expect(fx.mails()).toEqual([]);
  });

  it('refuses a login or e-mail address already in use, in any case, with 409', async () => {
    fx = await open();
    await register();
    const sameLogin = await failure(register({ ...ADA, login: 'ADA.lovelace', email: 'other@example.com' }));
    expect(sameLogin).toMatchObject({ code: 'CONFLICT', status: 409, message: 'login: is already in use' });
    const sameEmail = await failure(register({ ...ADA, login: 'other', email: 'ADA@example.COM' }));
    expect(sameEmail).toMatchObject({ code: 'CONFLICT', message: 'email: is already in use' });
    // A login may contain '@', but not be someone else's address (log-in accepts either).
    const loginIsEmail = await failure(
      register({ ...ADA, login: 'ada@example.com', email: 'x@example.com' }),
    );
    expect(loginIsEmail).toMatchObject({ code: 'CONFLICT', message: 'login: is already in use' });
    expect(fx.mails()).toHaveLength(1);
  });

  it('refuses unknown, malformed, missing and expired keys with 400', async () => {
    fx = await open();
    await register();
    const key = fx.keyOf(fx.mails()[0]!);
    const unknown = 'key: unknown or already used activation key';
    for (const bad of ['A'.repeat(43), 'short', `${key}!`, `${key}/../x`, '', undefined, 42, [key]]) {
      expect(await failure(activate(bad))).toMatchObject({ code: 'VALIDATION_ERROR', message: unknown });
    }
    fx.clock.advance(ACTIVATION_TTL_MS + 1_000);
    expect(await failure(activate(key))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'key: activation key has expired',
    });
    expect((await fx.reader.byLogin('ada.lovelace'))?.activated).toBe(false);
  });

  it('activates even when the read model catches up only after the link is followed', async () => {
    // No waiting after writes, and the projection stopped: the key is in the stream, not yet in the view.
    fx = await open({ startProjections: false, waitForAccount: async () => {} });
    await register();
    const key = fx.keyOf(fx.mails()[0]!);
    expect(await fx.reader.byLogin('ada.lovelace')).toBeNull();
    setTimeout(() => void fx.runner.start(), 150);
    expect(await activate(key)).toEqual({ status: 'OK', message: MESSAGES.activated });
    // The read model never says more than the stream: a login right after sees the activation.
    await until(
      () => fx.reader.byLogin('ada.lovelace'),
      (v) => v !== null,
    );
    await expect(login('ada.lovelace', PASSWORD)).resolves.toHaveProperty('id_token');
  });

  it('waits for the read model after registering, so the link works at once', async () => {
    fx = await open({ startProjections: false });
    setTimeout(() => void fx.runner.start(), 100);
    await register();
    expect(await fx.reader.byLogin('ada.lovelace')).not.toBeNull();
  });

  it('resends a new link only to an address waiting for activation, answering the same in every case', async () => {
    fx = await open();
    await register();
    await register({ login: 'grace', email: 'grace@example.com', password: PASSWORD });
    const graceKey = fx.keyOf(fx.mails()[1]!);
    await activate(graceKey);
    const oldKey = fx.keyOf(fx.mails()[0]!);

    const expected = { status: 'OK', message: MESSAGES.resent };
    // Right after registration: within the cooldown, no second mail.
    expect(await resend('ada@example.com')).toEqual(expected);
    await fx.service.drain();
    expect(fx.mails()).toHaveLength(2);

    fx.clock.advance(RESEND_COOLDOWN_MS + 1_000);
    expect(await resend('ADA@example.com')).toEqual(expected);
    expect(await resend('nobody@example.com')).toEqual(expected);
    expect(await resend('grace@example.com')).toEqual(expected);
    await fx.service.drain();
    const mails = fx.mails();
    expect(mails).toHaveLength(3);
    expect(mails[2]!.headers.get('to')).toBe('ada@example.com');
    const newKey = fx.keyOf(mails[2]!);
    expect(newKey).not.toBe(oldKey);
    expect(fx.reportedErrors).toEqual([]);

    // The new link replaces the old one.
    expect(await failure(activate(oldKey))).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await activate(newKey)).toEqual({ status: 'OK', message: MESSAGES.activated });
    expect((await fx.events()).filter((e) => e.type === 'ActivationKeyIssued')).toHaveLength(1);

    expect(await failure(resend('not-an-address'))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'email: must be a well-formed email address',
    });
  });

  it('answers a wrong password and an unknown user alike, in message and in work', async () => {
    fx = await open();
    await register();
    await activate(fx.keyOf(fx.mails()[0]!));

    const wrong = await failure(login('ada.lovelace', 'not the password'));
    const unknown = await failure(login('nobody', 'not the password'));
    for (const err of [wrong, unknown]) {
      expect(err).toMatchObject({ code: 'UNAUTHORIZED', status: 401, message: MESSAGES.badCredentials });
      expect(err.details).toBeUndefined();
    }
    const blank = await failure(login('  ', PASSWORD));
    expect(blank).toMatchObject({ code: 'VALIDATION_ERROR', message: 'username: must not be blank' });

    // Both paths run one argon2 verification with the same parameters (core/auth/passwords.test.ts) and one
    // stream read; timing itself is not asserted here, since a timed test fails on a loaded machine.
  });

  it('slows repeated failures, then answers 429 with retryAfterSeconds, per account whichever name is used', async () => {
    fx = await open();
    await register();
    await activate(fx.keyOf(fx.mails()[0]!));

    for (let i = 0; i < 5; i++) await failure(login('ada.lovelace', 'wrong'));
    for (let i = 0; i < 5; i++) await failure(login('ada@example.com', 'wrong'));
    expect(fx.throttleWaits).toEqual([250, 500, 1000, 2000, 2000, 2000, 2000]);

    const refused = await failure(login('ADA.LOVELACE', PASSWORD, fx, '192.0.2.44'));
    expect(refused).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
    expect(refused.details?.retryAfterSeconds).toBeGreaterThan(800);
    expect(refused.details?.retryAfterSeconds).toBeLessThanOrEqual(900);
    expect((await failure(login('ada@example.com', PASSWORD))).code).toBe('RATE_LIMIT_EXCEEDED');

    // The window ends: the right password works again and wipes the count.
    fx.clock.advance(15 * 60_000 + 1_000);
    await expect(login('ada.lovelace', PASSWORD)).resolves.toHaveProperty('id_token');
    fx.throttleWaits.length = 0;
    for (let i = 0; i < 3; i++) await failure(login('ada.lovelace', 'wrong'));
    expect(fx.throttleWaits).toEqual([]);
  });

  it('refuses an address after 50 failures, whatever logins it tries', async () => {
    fx = await open();
    for (let i = 0; i < 50; i++) await failure(login(`guess${i}`, 'wrong', fx, '198.51.100.77'));
    const refused = await failure(login('someone-else', 'wrong', fx, '198.51.100.77'));
    expect(refused).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect((await failure(login('someone-else', 'wrong', fx, '198.51.100.78'))).code).toBe('UNAUTHORIZED');
  });

  it('still registers when the mail cannot be sent, reports it, and the user can ask again', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((r) => closed.close(() => r()));
    fx = await open({ mailer: new SmtpMailer({ url: `smtp://127.0.0.1:${port}`, publicUrl: PUBLIC_URL }) });

    expect(await register()).toEqual({ status: 'OK', message: MESSAGES.registered });
    expect(fx.reportedErrors.map((e) => e.during)).toEqual(['activation-mail']);
    expect(String(fx.reportedErrors[0]!.err)).not.toContain(PASSWORD);
    expect((await fx.reader.byLogin('ada.lovelace'))?.activated).toBe(false);
  });

  it('never lets the activation key or the password reach a log, a response or any stored row', async () => {
    const consoles = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
      vi.spyOn(console, m),
    );
    const streams = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
    try {
      fx = await open();
      const results: unknown[] = [];
      const capture = async (p: Promise<unknown>) => {
        const outcome = await p.catch((e: unknown) => ({ ...(e as object), message: (e as Error).message }));
        results.push(outcome);
      };

      await capture(register());
      const firstKey = fx.keyOf(fx.mails()[0]!);
      fx.clock.advance(RESEND_COOLDOWN_MS + 1_000);
      await capture(resend('ada@example.com'));
      await fx.service.drain();
      const key = fx.keyOf(fx.mails()[1]!);
      await capture(activate(firstKey));
      await capture(activate(key));
      await capture(activate(key));
      await capture(login('ada.lovelace', PASSWORD));
      await capture(login('ada.lovelace', `${PASSWORD}x`));
      await capture(register({ ...ADA, login: 'other', email: 'o@example.com', password: 'password123' }));

      const logged = [...consoles, ...streams]
        .flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(' ')))
        .join('\n');
      const returned = JSON.stringify(results);
      const stored = fx.dumpDatabases();
      for (const secret of [PASSWORD, `${PASSWORD}x`, 'password123', firstKey, key]) {
        expect(logged).not.toContain(secret);
        expect(returned).not.toContain(secret);
        expect(stored).not.toContain(secret);
      }
      // Only hashes were stored: the SHA-256 of the key and an argon2id hash of the password.
      expect(stored).toMatch(/[0-9a-f]{64}/);
      expect(stored).toContain('$argon2id$');
    } finally {
      for (const spy of [...consoles, ...streams]) spy.mockRestore();
    }
  });
});
