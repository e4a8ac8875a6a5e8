import { createHash } from 'node:crypto';
import type { JwtService } from '../../core/auth/jwt.js';
import { dummyVerify, hashPassword, verifyPassword } from '../../core/auth/passwords.js';
import { AppError } from '../../core/errors/catalogue.js';
import { newId, randomToken } from '../../core/ids.js';
import type { Mailer } from '../../core/mail/mailer.js';
import type { CallContext, RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { reply } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import type { LoginThrottle } from './login-throttle.js';
import { type BreachedPasswords, checkPassword } from './password-policy.js';
import type { PortalAccounts, PortalAccountsReader, PortalAccountView } from './ports.js';
import { sleep, waitForReadModel } from './read-model.js';
import { optionalLangKey, requireEmail, requireLogin } from './validation.js';

export interface PortalAuthDeps {
  readonly accounts: PortalAccounts;
  readonly reader: PortalAccountsReader;
  readonly jwt: Pick<JwtService, 'issue' | 'jwks'>;
  readonly mailer: Mailer;
  readonly throttle: LoginThrottle;
  readonly breached: BreachedPasswords;
  readonly config: { readonly PUBLIC_URL: string; readonly DEFAULT_PLAN: string };
  readonly now?: () => Date;
  /**
   * Resolves once the accounts read model reflects every event of the account written so far. The default polls
   * the reader against the stream's version for up to 2 s; the composition root may pass something smarter.
   */
  readonly waitForAccount?: (accountId: string) => Promise<void>;
  /**
   * Told of failures the caller is not told about: an activation mail that could not be sent, a background
   * resend that failed. Gets the error and what was being done, never a key or a password.
   */
  readonly onError?: (err: unknown, during: 'activation-mail' | 'resend-activation') => void;
}

/** The portal's auth routes, plus a way to wait for work they left running (tests, graceful shutdown). */
export interface PortalAuthService extends ServiceDefinition {
  drain(): Promise<void>;
}

/** DESIGN.md section 7, Activation. */
export const ACTIVATION_TTL_MS = 24 * 60 * 60_000;
/** A new activation mail at most this often per account, so that resend cannot be used to flood an inbox. */
export const RESEND_COOLDOWN_MS = 60_000;
/** Extra looks at the read model for a key not found at once, in case it has not caught up yet (about 0.75 s). */
const KEY_LOOKUP_RETRIES_MS = [50, 100, 200, 400];

export const MESSAGES = {
  registered: 'Registration saved. Open the link we sent to your e-mail address to activate the account.',
  activated: 'Your account is activated. You can log in now.',
  resent:
    'If an account with this e-mail address is waiting for activation, a new activation link is on its way.',
  badCredentials: 'Invalid username or password',
  notActivated: 'The account is not activated yet: open the link in the activation e-mail',
} as const;

/** Keys are 32 random bytes in base64url (43 characters); anything far off is not worth a lookup. */
const KEY = /^[A-Za-z0-9_-]{16,128}$/;

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);

/**
 * The account system's public routes (SPEC.md 4.1 and 5, DESIGN.md 6 and 7): register, activate, resend the
 * activation link, log in (two paths), and the JWKS. Handlers take validated input, never HTTP objects, and
 * throw AppErrors; no handler returns or logs a password or an activation key.
 *
 * Read model and stream: the reader (eventually consistent) only finds which account a login, address or key
 * belongs to; what the account *is* (its password, activation, roles) is read from its stream, the truth. After
 * writing, handlers wait (bounded) for the read model, so the next request finds what this one wrote.
 */
export function createPortalAuthService(deps: PortalAuthDeps): PortalAuthService {
  const now = deps.now ?? (() => new Date());
  const pending = new Set<Promise<void>>();
  const publicUrl = deps.config.PUBLIC_URL.replace(/\/+$/, '');

  const waitForAccount =
    deps.waitForAccount ??
    (async (accountId: string) => {
      await waitForReadModel(deps.accounts, deps.reader, accountId);
    });

  /** Runs `task` after the response; its failure goes to onError. */
  function background(task: () => Promise<void>, during: 'resend-activation'): void {
    const p: Promise<void> = task()
      .catch((err: unknown) => deps.onError?.(err, during))
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  async function mailActivation(to: string, login: string, key: string): Promise<void> {
    const link = `${publicUrl}/activate?key=${encodeURIComponent(key)}`;
    const hours = ACTIVATION_TTL_MS / 3_600_000;
    await deps.mailer.send({
      to,
      subject: 'Activate your Toolgate account',
      text: [
        `Hello ${login},`,
        '',
        `please open this link within ${hours} hours to activate your Toolgate account:`,
        '',
        link,
        '',
        'If you did not sign up, ignore this e-mail: the account stays inactive.',
      ].join('\n'),
      html: [
        `<p>Hello ${escapeHtml(login)},</p>`,
        `<p>please open this link within ${hours} hours to activate your Toolgate account:</p>`,
        `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        '<p>If you did not sign up, ignore this e-mail: the account stays inactive.</p>',
      ].join('\n'),
    });
  }

  const newActivation = () => {
    const key = randomToken(32);
    return { key, hash: sha256(key), expiresAt: new Date(now().getTime() + ACTIVATION_TTL_MS) };
  };

  async function register(body: Record<string, unknown>) {
    const login = requireLogin(body.login);
    const email = requireEmail(body.email);
    const langKey = optionalLangKey(body.langKey);
    await checkPassword(body.password, deps.breached);

    // Logins may contain '@' and log-in accepts either, so one account's login must not be another's e-mail.
    const [loginIsAnEmail, emailIsALogin] = await Promise.all([
      login.includes('@') ? deps.reader.byEmail(login) : null,
      deps.reader.byLogin(email),
    ]);
    if (loginIsAnEmail) throw new AppError('CONFLICT', 'login: is already in use');
    if (emailIsALogin) throw new AppError('CONFLICT', 'email: is already in use');

    const passwordHash = await hashPassword(body.password as string);
    const activation = newActivation();
    const accountId = await deps.accounts.register({
      login,
      email,
      passwordHash,
      plan: deps.config.DEFAULT_PLAN,
      activationKeyHash: activation.hash,
      activationExpiresAt: activation.expiresAt,
      ...(langKey ? { langKey } : {}),
    });
    await waitForAccount(accountId);
    try {
      await mailActivation(email, login, activation.key);
    } catch (err) {
      // The account exists; failing now would make a retry answer 409. The user can ask for a new link.
      deps.onError?.(err, 'activation-mail');
    }
    return { status: 'OK', message: MESSAGES.registered };
  }

  async function findByKeyHash(hash: string): Promise<PortalAccountView | null> {
    for (let attempt = 0; ; attempt++) {
      const view = await deps.reader.byActivationKeyHash(hash);
      const delay = KEY_LOOKUP_RETRIES_MS[attempt];
      if (view || delay === undefined) return view;
      await sleep(delay);
    }
  }

  async function activate(query: Readonly<Record<string, unknown>>) {
    const key = query.key;
    const unknownKey = () => invalid('key: unknown or already used activation key');
    if (typeof key !== 'string' || !KEY.test(key)) throw unknownKey();
    const hash = sha256(key);
    const view = await findByKeyHash(hash);
    if (!view) throw unknownKey();
    if (view.activationExpiresAt && Date.parse(view.activationExpiresAt) <= now().getTime()) {
      throw invalid('key: activation key has expired');
    }
    try {
      // The aggregate checks the key against the stream: used, replaced or expired keys fail there too.
      await deps.accounts.activate(view.accountId, hash);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') throw unknownKey();
      throw err;
    }
    await waitForAccount(view.accountId);
    return { status: 'OK', message: MESSAGES.activated };
  }

  async function resendActivation(body: Record<string, unknown>) {
    const email = requireEmail(body.email);
    const view = await deps.reader.byEmail(email);
    // The work happens after the answer, so that neither the answer nor its timing tells whether the
    // address has an account.
    if (view && !view.activated) {
      background(async () => {
        const { state } = await deps.accounts.load(view.accountId);
        if (!state.exists || state.activated) return;
        const issuedAt = state.activationExpiresAt
          ? Date.parse(state.activationExpiresAt) - ACTIVATION_TTL_MS
          : 0;
        if (now().getTime() - issuedAt < RESEND_COOLDOWN_MS) return;
        const activation = newActivation();
        try {
          await deps.accounts.issueActivationKey(state.accountId, activation.hash, activation.expiresAt);
        } catch (err) {
          // Activated in the meantime: nothing to send.
          if (err instanceof AppError && err.code === 'CONFLICT') return;
          throw err;
        }
        await waitForAccount(state.accountId);
        await mailActivation(state.email, state.login, activation.key);
      }, 'resend-activation');
    }
    return { status: 'OK', message: MESSAGES.resent };
  }

  async function login(body: Record<string, unknown>, ctx: CallContext) {
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (username.length === 0) throw invalid('username: must not be blank');
    if (password.length === 0) throw invalid('password: must not be blank');

    // Both lookups whenever the name could be an address, so the work done does not depend on which matched.
    const [byLogin, byEmail] = await Promise.all([
      deps.reader.byLogin(username),
      username.includes('@') ? deps.reader.byEmail(username) : null,
    ]);
    const view = byLogin ?? byEmail;
    // Counted per account when there is one, so its login and its address share one budget.
    const attempt = await deps.throttle.begin(view?.login ?? username.toLowerCase(), ctx.ip);

    // The stream is read, and argon2 run, in both cases: an unknown name costs what a wrong password costs.
    const { state } = await deps.accounts.load(view?.accountId ?? newId());
    const known = view !== null && state.exists;
    const ok = known ? await verifyPassword(state.passwordHash, password) : await dummyVerify(password);
    if (!ok) {
      await attempt.failed();
      throw new AppError('UNAUTHORIZED', MESSAGES.badCredentials);
    }
    await attempt.succeeded();
    if (!state.activated) throw new AppError('ACCOUNT_NOT_ACTIVATED', MESSAGES.notActivated);
    const idToken = await deps.jwt.issue({ sub: state.accountId, login: state.login, roles: state.roles });
    return { id_token: idToken };
  }

  const common = { convention: 'portal', auth: 'public', metered: false } as const;
  const messageResponse = apiSchema('portal/message-response.json');
  const loginRoute = (path: string, operationId: string, summary: string): RouteDefinition => ({
    ...common,
    method: 'POST',
    path,
    operationId,
    summary,
    description:
      'Exchanges a login (or e-mail address) and password for a 15-minute JWT. Repeated failures for one ' +
      'login or address are slowed and then refused with 429.',
    schemas: {
      body: apiSchema('portal/login-request.json'),
      response: { 200: apiSchema('portal/login-response.json') },
    },
    handler: async (input, ctx) => login(asObject(input.body), ctx),
  });

  const routes: RouteDefinition[] = [
    {
      ...common,
      method: 'POST',
      path: '/api/auth/register',
      operationId: 'portalRegister',
      summary: 'Register an account',
      description: 'Creates an inactive account and e-mails its activation link (valid 24 hours).',
      status: 201,
      schemas: {
        body: apiSchema('portal/register-request.json'),
        response: { 201: messageResponse },
      },
      handler: async (input) => register(asObject(input.body)),
    },
    {
      ...common,
      method: 'GET',
      path: '/api/activate',
      operationId: 'portalActivate',
      summary: 'Activate an account',
      description: 'Called by the page the e-mailed link opens. Unknown, used or expired keys give 400.',
      schemas: {
        query: apiSchema('portal/activate-query.json'),
        response: { 200: messageResponse },
      },
      handler: async (input) => activate(input.query),
    },
    {
      ...common,
      method: 'POST',
      path: '/api/auth/resend-activation',
      operationId: 'portalResendActivation',
      summary: 'Send a new activation link',
      description:
        'Always answers the same, whether or not the address has an account waiting for activation. ' +
        'The new link replaces the previous one.',
      schemas: {
        body: apiSchema('portal/resend-activation-request.json'),
        response: { 200: messageResponse },
      },
      handler: async (input) => resendActivation(asObject(input.body)),
    },
    loginRoute('/api/auth/login', 'portalLogin', 'Log in'),
    loginRoute('/api/authenticate', 'portalAuthenticate', 'Log in (token source for admin endpoints)'),
    {
      ...common,
      method: 'GET',
      path: '/.well-known/jwks.json',
      operationId: 'portalJwks',
      summary: 'Public keys of the portal tokens',
      description: 'JSON Web Key Set to verify the `id_token` JWTs locally.',
      schemas: { response: { 200: apiSchema('portal/jwks-response.json') } },
      handler: async () => reply(deps.jwt.jwks(), { headers: { 'cache-control': 'public, max-age=300' } }),
    },
  ];

  return {
    slug: 'portal',
    title: 'Portal',
    description: 'Accounts: registration, activation by e-mail, login (JWT), and the token keys.',
    routes,
    drain: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('body: must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
