/**
 * The shared security cases (DESIGN.md sections 5, 6 and 9) for EVERY registered route, generated from the route
 * declarations: a route added later gets its cases without anyone writing them, and a route whose auth kind (or
 * whose path parameter) has no cases makes this file fail.
 *
 * One real embedded platform for the whole file; accounts, tokens and keys are made once in beforeAll.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwtService } from '../../core/auth/jwt.js';
import { SecretStore } from '../../core/auth/secrets.js';
import {
  type AuthKind,
  type Convention,
  type JsonSchema,
  SERVICE_SLUGS,
} from '../../core/service/definition.js';
import { groupRoutes, type RouteGroup } from '../../gateway/routes.js';
import { openTestPlatform, type TestAccount, type TestKey } from '../support/platform.js';

/** A plan only the rate-limit account has: two calls a minute. */
const TINY = { perMinute: 2, perDay: 1_000, perMonth: 1_000, batchSize: 10 };
const tp = await openTestPlatform({ plans: { TINY } });
afterAll(() => tp.close());
const app = tp.app;
const groups: RouteGroup[] = groupRoutes(tp.platform.services);

// ---------------------------------------------------------------------------------------------------------------
// Fixtures, made once
// ---------------------------------------------------------------------------------------------------------------

interface Fixtures {
  /** ENTERPRISE plan, so the positive controls of many routes never meet a rate limit. */
  user: TestAccount;
  userAllKey: TestKey;
  /** One key per service slug that has apiKey routes, scoped to exactly that slug. */
  userKeyBySlug: Map<string, TestKey>;
  /** Two keys scoped to other slugs: for any route, one of them lacks the route's scope. */
  scopedElsewhere: [TestKey, TestKey];
  revokedKey: TestKey;
  expiringKey: TestKey;
  expiresAtMs: number;
  other: TestAccount;
  otherKey: TestKey;
  tinyKey: TestKey;
  admin: TestAccount;
  adminKey: TestKey;
  adminRevokedKey: TestKey;
  /** Signed with the installation's real key, but expired (issued an hour ago). */
  expiredToken: (who: TestAccount, roles: string[]) => Promise<string>;
  /** Valid claims, signed by a key that is not the installation's. */
  foreignToken: (who: TestAccount, roles: string[]) => Promise<string>;
  /** The installation's key, another issuer / audience. */
  wrongIssuerToken: (who: TestAccount, roles: string[]) => Promise<string>;
  wrongAudienceToken: (who: TestAccount, roles: string[]) => Promise<string>;
  /** The public JWK served at /.well-known/jwks.json. */
  jwk: Record<string, string>;
}
let fx: Fixtures;

const apiKeyGroups = groups.filter((g) => g.defs[0]!.auth === 'apiKey');
const otherSlugs = (slug: string) => SERVICE_SLUGS.filter((s) => s !== slug);

beforeAll(async () => {
  const [user, other, tiny, admin] = await Promise.all([
    tp.createAccount({ plan: 'ENTERPRISE' }),
    tp.createAccount(),
    tp.createAccount({ plan: 'TINY' }),
    tp.createAdmin(),
  ]);
  const slugs = [...new Set(apiKeyGroups.map((g) => g.slug))];
  const userKeyBySlug = new Map<string, TestKey>();
  for (const slug of slugs) userKeyBySlug.set(slug, await tp.createApiKey(user.token, { scopes: [slug] }));
  const expiresAtMs = Date.now() + 2_000;
  const [userAllKey, a, b, revokedKey, expiringKey, otherKey, tinyKey, adminKey, adminRevokedKey] =
    await Promise.all([
      tp.createApiKey(user.token, { scopes: ['*'] }),
      tp.createApiKey(user.token, { scopes: ['captcha'] }),
      tp.createApiKey(user.token, { scopes: ['cron'] }),
      tp.createApiKey(user.token, { scopes: ['*'] }),
      tp.createApiKey(user.token, { scopes: ['*'], expiresAt: new Date(expiresAtMs).toISOString() }),
      tp.createApiKey(other.token, { scopes: ['*'] }),
      tp.createApiKey(tiny.token, { scopes: ['*'] }),
      tp.createApiKey(admin.token, { scopes: ['*'] }),
      tp.createApiKey(admin.token, { scopes: ['*'] }),
    ]);

  // Controls: the keys about to be revoked or to expire do work now (and sit in the gateway's lookup cache).
  const probe = apiKeyGroups[0];
  if (probe) {
    for (const k of [revokedKey, expiringKey]) {
      const res = await send(probe, { 'x-api-key': k.key });
      expect(res.statusCode, `control: ${k.keyId} works before revocation/expiry`).toBeLessThan(300);
    }
  }
  await tp.revokeApiKey(user.token, revokedKey.keyId);
  await tp.revokeApiKey(admin.token, adminRevokedKey.keyId);

  const secrets = new SecretStore(tp.rt.readModels);
  const issuer = tp.config.PUBLIC_URL;
  const hourAgo = () => new Date(Date.now() - 3_600_000);
  const real = await JwtService.open({ secrets, issuer });
  const expired = await JwtService.open({ secrets, issuer, now: hourAgo });
  const foreign = await JwtService.open({ secrets: { getOrCreate: (_n, make) => make() }, issuer });
  const wrongIssuer = await JwtService.open({ secrets, issuer: 'https://attacker.example' });
  const wrongAudience = await JwtService.open({ secrets, issuer, audience: 'someone-else' });
  expect(foreign.kid).not.toBe(real.kid);
  const issueWith = (svc: JwtService) => (who: TestAccount, roles: string[]) =>
    svc.issue({ sub: who.accountId, login: who.login, roles });

  // Control: the mechanism used for the expired token does sign with the installation's real key.
  const fresh = await issueWith(real)(user, ['ROLE_USER']);
  const usage = await app.inject({ method: 'GET', url: '/api/portal/usage', headers: bearer(fresh) });
  expect(usage.statusCode, 'control: a token from JwtService over the same SecretStore is accepted').toBe(
    200,
  );

  const jwks = await app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  fx = {
    user,
    userAllKey,
    userKeyBySlug,
    scopedElsewhere: [a, b],
    revokedKey,
    expiringKey,
    expiresAtMs,
    other,
    otherKey,
    tinyKey,
    admin,
    adminKey,
    adminRevokedKey,
    expiredToken: issueWith(expired),
    foreignToken: issueWith(foreign),
    wrongIssuerToken: issueWith(wrongIssuer),
    wrongAudienceToken: issueWith(wrongAudience),
    jwk: (jwks.json() as { keys: Record<string, string>[] }).keys[0]!,
  };
}, 60_000);

// ---------------------------------------------------------------------------------------------------------------
// Requests derived from the declarations
// ---------------------------------------------------------------------------------------------------------------

type Headers = Record<string, string>;

/** A minimal instance of a JSON Schema: its first example, its default, or the smallest value it allows. */
function sample(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const)
    if (Array.isArray(s[k])) return sample((s[k] as JsonSchema[])[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const name of (s.required ?? []) as string[]) out[name] = sample(props[name] ?? {});
      return out;
    }
    case 'array': {
      const n = Number(s.minItems ?? 0);
      return Array.from({ length: n }, () => sample(s.items as JsonSchema));
    }
    case 'string':
      switch (s.format) {
        case 'email':
          return 'someone@example.com';
        case 'uri':
        case 'url':
          return 'https://example.com/';
        case 'date-time':
          return new Date(Date.now() + 86_400_000).toISOString();
        case 'ipv4':
          return '8.8.8.8';
        case 'hostname':
          return 'example.com';
        default:
          return 'a'.repeat(Math.max(1, Number(s.minLength ?? 1)));
      }
    case 'integer':
    case 'number':
      return Number(s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** `{keyId}` → a well-formed id nobody owns (or what `params` says). */
function urlOf(group: RouteGroup, params: Record<string, string> = {}): string {
  const first = group.defs[0]!;
  const props = (first.schemas.params?.properties ?? {}) as Record<string, JsonSchema>;
  const path = group.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const given = params[name] ?? (name === 'keyId' ? randomBase62(16) : sample(props[name] ?? {}));
    return encodeURIComponent(String(given));
  });
  const query = sample(first.schemas.query) as Record<string, unknown> | undefined;
  const qs = query
    ? new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()
    : '';
  return qs ? `${path}?${qs}` : path;
}

function send(
  group: RouteGroup,
  headers: Headers,
  params?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const body = group.defs.map((d) => d.schemas.body).find(Boolean);
  return app.inject({
    method: group.method,
    url: urlOf(group, params),
    headers,
    ...(body ? { payload: (sample(body) ?? {}) as object } : {}),
  });
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomBase62 = (n: number) => [...randomBytes(n)].map((b) => ALPHABET[b % 62]).join('');
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
/** The API-key header as the route's convention spells it (S: X-API-KEY); names are case-insensitive anyway. */
const keyHeader = (group: RouteGroup, key: string): Headers => ({
  [group.defs.some((d) => d.convention === 'S') ? 'X-API-KEY' : 'X-API-Key']: key,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// Error bodies: the route's convention, and nothing that must not leak
// ---------------------------------------------------------------------------------------------------------------

type Style = 'S' | 'R' | 'D' | 'RD';

/** DESIGN.md section 5, restated here rather than imported: S and portal paths; R only; D only; shared R/D. */
function styleOf(conventions: readonly Convention[]): Style {
  const has = (c: Convention) => conventions.includes(c);
  if (has('R') && has('D')) return 'RD';
  if (has('R')) return 'R';
  if (has('D')) return 'D';
  return 'S';
}

const LEAKS: [string, RegExp][] = [
  ['stack trace', /\n\s+at\s|\bat\s+\S+\s+\([^)]*:\d+:\d+\)|\bat (?:async )?(?:file|node):/],
  ['SQL', /\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b|SQLITE_|\brm_[a-z_]+\b/i],
  [
    'file path',
    /(?:^|[\s"'(])\/(?:work|tmp|home|usr|var|root|app|opt)\/|node_modules|\.[cm]?[jt]s:\d+|[A-Z]:\\/,
  ],
];

function expectError(
  res: LightMyRequestResponse,
  group: RouteGroup,
  status: number,
  code: string | readonly string[],
  secrets: readonly string[] = [],
): void {
  const where = `${group.method} ${group.path} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBe(status);
  const codes = typeof code === 'string' ? [code] : code;
  const style = styleOf(
    group.defs.flatMap((d) => [d.convention, ...(d.alsoConvention ? [d.alsoConvention] : [])]),
  );
  const body = res.json() as Record<string, unknown>;
  const type = String(res.headers['content-type'] ?? '');
  if (style === 'S') {
    expect(type, where).toMatch(/^application\/json/);
    expect(Object.keys(body).sort(), where).toEqual(['error', 'status']);
    expect(body.status, where).toBe('ERROR');
    const error = body.error as Record<string, unknown>;
    expect(Object.keys(error).sort(), where).toEqual(['code', 'message']);
    expect(codes, where).toContain(error.code);
    expect(typeof error.message === 'string' && error.message.length > 0, where).toBe(true);
  } else if (style === 'D') {
    expect(type, where).toMatch(/^application\/json/);
    expect(codes, where).toContain(body.error);
    expect(typeof body.message, where).toBe('string');
    if (status !== 413) expect(body.status, where).toBe(status);
  } else {
    expect(type, where).toMatch(/^application\/problem\+json/);
    const c = codes.find((x) => body.type === `/problems/${x.toLowerCase().replaceAll('_', '-')}`);
    expect(c, `${where}: problem type names one of ${codes.join(', ')}`).toBeDefined();
    expect(typeof body.title, where).toBe('string');
    expect(body.status, where).toBe(status);
    expect(typeof body.detail, where).toBe('string');
    // `instance` is the request path (no query string), whatever the parameters were.
    const escaped = group.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/?]+');
    expect(String(body.instance), where).toMatch(new RegExp(`^${escaped}$`));
    if (style === 'RD') {
      expect(body.error, where).toBe(c);
      expect(body.message, where).toBe(body.detail);
    } else {
      expect(body, where).not.toHaveProperty('error');
    }
  }
  for (const [what, pattern] of LEAKS) expect(res.body, `${where}: no ${what}`).not.toMatch(pattern);
  const headerText = JSON.stringify(res.headers);
  for (const secret of secrets.filter((s) => s.length >= 8)) {
    expect(res.body.includes(secret), `${where}: the body must not echo a presented credential`).toBe(false);
    expect(headerText.includes(secret), `${where}: no header may echo a presented credential`).toBe(false);
  }
}

/** A response that passed authentication (whatever the handler then said about the sampled input). */
function expectAuthenticated(res: LightMyRequestResponse, group: RouteGroup): void {
  expect(
    [401, 403],
    `${group.method} ${group.path} → ${res.statusCode} ${res.body.slice(0, 300)}`,
  ).not.toContain(res.statusCode);
  expect(res.statusCode, `${group.method} ${group.path}: no server error`).toBeLessThan(500);
}

// ---------------------------------------------------------------------------------------------------------------
// Forged and broken JWTs
// ---------------------------------------------------------------------------------------------------------------

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const fromB64url = (v: string) =>
  JSON.parse(Buffer.from(v, 'base64url').toString('utf8')) as Record<string, unknown>;

/** Every token a route must refuse, built from `who`'s real token or claims. */
async function badTokens(who: TestAccount, roles: string[]): Promise<[string, string][]> {
  const [h, p, sig] = who.token.split('.') as [string, string, string];
  const header = fromB64url(h);
  const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
  // Another subject and raised roles: never byte-identical to the signed payload.
  const elevated = b64url(
    JSON.stringify({ ...fromB64url(p), sub: fx.other.accountId, roles: ['ROLE_USER', 'ROLE_ADMIN'] }),
  );
  const none = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT', kid: header.kid }))}.${p}.`;
  const hs256 = (secret: Buffer | string) => {
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: header.kid }));
    return `${head}.${p}.${createHmac('sha256', secret).update(`${head}.${p}`).digest('base64url')}`;
  };
  return [
    ['malformed (not a JWT)', 'not-a-jwt'],
    ['malformed (two segments)', `${h}.${p}`],
    ['malformed (garbage segments)', 'a.b.c'],
    ['tampered signature', `${h}.${p}.${flipped}`],
    ['tampered payload (subject and roles changed), original signature', `${h}.${elevated}.${sig}`],
    ['alg: none, real claims', none],
    ['alg: none, no signature segment', none.slice(0, -1)],
    ['HS256 signed with the public JWK (JSON)', hs256(JSON.stringify(fx.jwk))],
    ['HS256 signed with the public key bytes', hs256(Buffer.from(fx.jwk.x!, 'base64url'))],
    ['HS256 signed with the public key (base64url text)', hs256(fx.jwk.x!)],
    ['expired (real signing key, issued an hour ago)', await fx.expiredToken(who, roles)],
    ['signed by a foreign key', await fx.foreignToken(who, roles)],
    ['another issuer', await fx.wrongIssuerToken(who, roles)],
    ['another audience', await fx.wrongAudienceToken(who, roles)],
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Ownership: path parameters that name a resource
// ---------------------------------------------------------------------------------------------------------------

/**
 * Path parameters that name something owned by an account: how to get one owned by ANOTHER account, and how to
 * check afterwards that the attempt changed nothing. A route with a parameter in neither this table nor
 * NOT_OWNED fails the suite until someone says which it is.
 */
const OWNED: Record<string, { other: () => string; unchanged: () => Promise<void> }> = {
  keyId: {
    other: () => fx.otherKey.keyId,
    unchanged: async () => {
      const list = await app.inject({
        method: 'GET',
        url: '/api/portal/api-keys',
        headers: bearer(fx.other.token),
      });
      const key = (list.json() as { data: { keyId: string; lastRotatedAt?: string }[] }).data.find(
        (k) => k.keyId === fx.otherKey.keyId,
      );
      expect(key, "the other account's key is still listed (not revoked)").toBeDefined();
      expect(key?.lastRotatedAt, "the other account's key was not rerolled").toBeUndefined();
      const probe = apiKeyGroups[0];
      if (probe) expectAuthenticated(await send(probe, keyHeader(probe, fx.otherKey.key)), probe);
    },
  },
};
/** Parameters that are input, not a resource of anyone's (SPEC.md 4.4). */
const NOT_OWNED = new Set(['domain', 'ip', 'hashPrefix']);
const paramsOf = (g: RouteGroup) => [...g.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
const ownedParams = (g: RouteGroup) => paramsOf(g).filter((p) => !NOT_OWNED.has(p));

// ---------------------------------------------------------------------------------------------------------------
// The cases, per auth kind
// ---------------------------------------------------------------------------------------------------------------

type Case = [name: string, run: () => Promise<void>];

/** The user's credentials for a route (what passes its authentication). */
function userCredentials(group: RouteGroup): Headers {
  switch (group.defs[0]!.auth) {
    case 'apiKey':
      return keyHeader(group, (fx.userKeyBySlug.get(group.slug) ?? fx.userAllKey).key);
    case 'jwt':
      return bearer(fx.user.token);
    case 'admin':
      return { ...bearer(fx.admin.token), 'X-API-Key': fx.adminKey.key };
    default:
      return {};
  }
}

function apiKeyCases(g: RouteGroup): Case[] {
  const metered = g.defs[0]!.metered;
  const cases: Case[] = [
    [
      'a key scoped to exactly this service passes',
      async () => {
        const res = await send(g, userCredentials(g));
        expectAuthenticated(res, g);
        if (metered)
          for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
            expect(res.headers, h).toHaveProperty(h);
      },
    ],
    ['no key → 401', async () => expectError(await send(g, {}), g, 401, 'UNAUTHORIZED')],
    [
      'unknown well-formed key → 401',
      async () => {
        const forged = [
          `tg_${randomBase62(16)}_${randomBase62(43)}`,
          `tg_${fx.userAllKey.keyId}_${randomBase62(43)}`,
        ];
        for (const key of forged)
          expectError(await send(g, keyHeader(g, key)), g, 401, 'UNAUTHORIZED', [key]);
      },
    ],
    [
      'garbage keys → 401',
      async () => {
        const garbage = [
          'garbage',
          "tg_' OR 1=1 --",
          `${fx.userAllKey.key}x`,
          fx.userAllKey.key.slice(0, -1),
          `Bearer ${fx.userAllKey.key}`,
          'x'.repeat(4000),
        ];
        for (const key of garbage)
          expectError(await send(g, keyHeader(g, key)), g, 401, 'UNAUTHORIZED', [key, fx.userAllKey.key]);
        // A key somewhere other than the API-key header is no key at all.
        expectError(await send(g, bearer(fx.userAllKey.key)), g, 401, 'UNAUTHORIZED', [fx.userAllKey.key]);
      },
    ],
    [
      'revoked key → 401 (the beforeAll one), and a key revoked now is refused within 1 s',
      async () => {
        expectError(await send(g, keyHeader(g, fx.revokedKey.key)), g, 401, 'UNAUTHORIZED', [
          fx.revokedKey.key,
        ]);
        // A fresh key, used once (so the gateway's lookup cache holds it as valid), then revoked.
        const key = await tp.createApiKey(fx.user.token, { scopes: [g.slug] });
        expectAuthenticated(await send(g, keyHeader(g, key.key)), g);
        await tp.revokeApiKey(fx.user.token, key.keyId);
        const revokedAt = Date.now();
        let res = await send(g, keyHeader(g, key.key));
        while (res.statusCode !== 401 && Date.now() - revokedAt < 1_000) {
          await sleep(25);
          res = await send(g, keyHeader(g, key.key));
        }
        expectError(res, g, 401, 'UNAUTHORIZED', [key.key]);
        expect(Date.now() - revokedAt, 'ms from revocation to refusal').toBeLessThanOrEqual(1_000);
      },
    ],
    [
      'expired key → 401',
      async () => {
        // The key lookup is cached for 250 ms: past that, expiry is seen.
        await sleep(Math.max(0, fx.expiresAtMs + 300 - Date.now()));
        expectError(await send(g, keyHeader(g, fx.expiringKey.key)), g, 401, 'UNAUTHORIZED', [
          fx.expiringKey.key,
        ]);
      },
    ],
    [
      'key without the route’s scope → 403 INSUFFICIENT_SCOPE',
      async () => {
        const key = fx.scopedElsewhere.find((k) => !k.scopes.includes(g.slug))!;
        expect(otherSlugs(g.slug)).toEqual(expect.arrayContaining(key.scopes));
        expectError(await send(g, keyHeader(g, key.key)), g, 403, 'INSUFFICIENT_SCOPE', [key.key]);
      },
    ],
  ];
  if (metered) {
    cases.push([
      'rate limited → 429 with Retry-After and X-RateLimit-* headers',
      async () => {
        let res = await send(g, keyHeader(g, fx.tinyKey.key));
        for (let i = 0; i < TINY.perMinute && res.statusCode !== 429; i++)
          res = await send(g, keyHeader(g, fx.tinyKey.key));
        expectError(res, g, 429, 'RATE_LIMIT_EXCEEDED', [fx.tinyKey.key]);
        const retry = Number(res.headers['retry-after']);
        expect(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`).toBe(true);
        expect(res.headers['x-ratelimit-limit']).toBe(String(TINY.perMinute));
        expect(res.headers['x-ratelimit-remaining']).toBe('0');
        const reset = Number(res.headers['x-ratelimit-reset']);
        const nowS = Date.now() / 1000;
        expect(
          reset >= Math.floor(nowS) && reset <= nowS + 61,
          `X-RateLimit-Reset ${reset} is a Unix time`,
        ).toBe(true);
      },
    ]);
  }
  return cases;
}

function jwtCases(g: RouteGroup, who: () => TestAccount, roles: string[], extra: () => Headers): Case[] {
  return [
    ['no token → 401', async () => expectError(await send(g, extra()), g, 401, 'UNAUTHORIZED')],
    [
      'malformed, tampered, alg:none, HS256-with-public-key, expired, foreign-key, wrong iss/aud tokens → 401',
      async () => {
        for (const [what, token] of await badTokens(who(), roles)) {
          const res = await send(g, { ...extra(), ...bearer(token) });
          expect(res.statusCode, `${what}: ${res.body}`).toBe(401);
          expectError(res, g, 401, 'UNAUTHORIZED', [token]);
        }
        for (const authorization of [
          `Basic ${b64url('a:b')}`,
          who().token,
          'Bearer',
          `Bearer  ${who().token} x`,
        ]) {
          expectError(await send(g, { ...extra(), authorization }), g, 401, 'UNAUTHORIZED', [who().token]);
        }
      },
    ],
  ];
}

function jwtRouteCases(g: RouteGroup): Case[] {
  return [
    [
      'the signed-in user’s token passes',
      async () => expectAuthenticated(await send(g, bearer(fx.user.token)), g),
    ],
    ...jwtCases(
      g,
      () => fx.user,
      ['ROLE_USER'],
      () => ({}),
    ),
    [
      'an API key is not a substitute for the token → 401',
      async () => expectError(await send(g, { 'X-API-Key': fx.userAllKey.key }), g, 401, 'UNAUTHORIZED'),
    ],
  ];
}

function adminCases(g: RouteGroup): Case[] {
  const adminKey = () => ({ 'X-API-Key': fx.adminKey.key });
  return [
    [
      'admin token + the admin’s own key passes',
      async () => {
        const res = await send(g, { ...bearer(fx.admin.token), ...adminKey() });
        expect(res.statusCode, res.body).toBeLessThan(300);
      },
    ],
    [
      'a normal user’s token + its own key → 403 FORBIDDEN',
      async () =>
        expectError(
          await send(g, { ...bearer(fx.user.token), 'X-API-Key': fx.userAllKey.key }),
          g,
          403,
          'FORBIDDEN',
          [fx.userAllKey.key],
        ),
    ],
    [
      'admin token without a key → 401',
      async () => expectError(await send(g, bearer(fx.admin.token)), g, 401, 'UNAUTHORIZED'),
    ],
    [
      // Documented choice (gateway/authenticate.ts): a key of another account is a credential that does not
      // belong to the caller, so it is "invalid credentials" (401), not "insufficient role" (403).
      'admin token + another account’s key → 401',
      async () =>
        expectError(
          await send(g, { ...bearer(fx.admin.token), 'X-API-Key': fx.userAllKey.key }),
          g,
          401,
          'UNAUTHORIZED',
          [fx.userAllKey.key],
        ),
    ],
    [
      'admin token + revoked, unknown or garbage key → 401',
      async () => {
        for (const key of [fx.adminRevokedKey.key, `tg_${randomBase62(16)}_${randomBase62(43)}`, 'garbage'])
          expectError(
            await send(g, { ...bearer(fx.admin.token), 'X-API-Key': key }),
            g,
            401,
            'UNAUTHORIZED',
            [key],
          );
      },
    ],
    ...jwtCases(g, () => fx.admin, ['ROLE_USER', 'ROLE_ADMIN'], adminKey),
  ];
}

function publicCases(g: RouteGroup): Case[] {
  return [
    [
      'needs no credentials, and ignores broken ones (never 401/403 for lack of them)',
      async () => {
        const noBody = await app.inject({ method: g.method, url: g.path.replace(/\{[^}]+\}/g, 'x') });
        const broken = await app.inject({
          method: g.method,
          url: g.path.replace(/\{[^}]+\}/g, 'x'),
          headers: { 'X-API-Key': 'garbage', authorization: 'Bearer garbage' },
          ...(g.defs.some((d) => d.schemas.body) ? { payload: {} } : {}),
        });
        for (const res of [noBody, broken]) {
          expect([401, 403], `${g.method} ${g.path} → ${res.statusCode} ${res.body}`).not.toContain(
            res.statusCode,
          );
          expect(res.statusCode).toBeLessThan(500);
          if (res.statusCode >= 400) expectError(res, g, res.statusCode, 'VALIDATION_ERROR', ['garbage']);
        }
      },
    ],
  ];
}

function capabilityCases(g: RouteGroup): Case[] {
  return [
    [
      'an unknown capability id → 404, without credentials',
      async () => {
        const params = Object.fromEntries(paramsOf(g).map((p) => [p, randomBase62(24)]));
        expectError(await send(g, {}, params), g, 404, 'NOT_FOUND');
      },
    ],
  ];
}

function ownershipCases(g: RouteGroup): Case[] {
  const auth = g.defs[0]!.auth;
  if (auth !== 'apiKey' && auth !== 'jwt') return [];
  return ownedParams(g)
    .filter((p) => OWNED[p])
    .map(
      (p): Case => [
        `{${p}} of another account → 404 (never 403), like an id that does not exist; nothing changes`,
        async () => {
          const theirs = await send(g, userCredentials(g), { [p]: OWNED[p]!.other() });
          expectError(theirs, g, 404, 'NOT_FOUND', [fx.otherKey.key]);
          const nobody = await send(g, userCredentials(g), { [p]: randomBase62(16) });
          expectError(nobody, g, 404, 'NOT_FOUND');
          const message = (r: LightMyRequestResponse) =>
            JSON.stringify(r.json()).replace(/"instance":"[^"]*"/, '');
          expect(message(theirs), 'indistinguishable from a missing id').toBe(message(nobody));
          await OWNED[p]!.unchanged();
        },
      ],
    );
}

/** Fastify answers HEAD on every GET route: the automatic HEAD route must be guarded like the GET. */
function headCases(g: RouteGroup): Case[] {
  const auth = g.defs[0]!.auth;
  if (g.method !== 'GET' || auth === 'public' || auth === 'capability') return [];
  return [
    [
      'HEAD without credentials → 401, and credentials in the query string do not count',
      async () => {
        const head = await app.inject({ method: 'HEAD', url: urlOf(g) });
        expect(head.statusCode, `HEAD ${g.path}`).toBe(401);
        expect(head.headers['x-ratelimit-limit'], 'not metered').toBeUndefined();
        const url = urlOf(g);
        const sep = url.includes('?') ? '&' : '?';
        const q = `${url}${sep}api_key=${fx.userAllKey.key}&access_token=${fx.user.token}`;
        const res = await app.inject({ method: 'GET', url: q });
        expectError(res, g, 401, 'UNAUTHORIZED', [fx.userAllKey.key, fx.user.token]);
      },
    ],
  ];
}

const CASES_BY_AUTH: Record<AuthKind, (g: RouteGroup) => Case[]> = {
  apiKey: apiKeyCases,
  jwt: jwtRouteCases,
  admin: adminCases,
  public: publicCases,
  capability: capabilityCases,
};

// ---------------------------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------------------------

const counts: Record<string, number> = {};
const generated = groups.map((g) => {
  const auth = g.defs[0]!.auth;
  const cases = [...(CASES_BY_AUTH[auth]?.(g) ?? []), ...ownershipCases(g), ...headCases(g)];
  counts[auth] = (counts[auth] ?? 0) + cases.length;
  return { g, auth, cases };
});
console.log(
  `security cases: ${groups.length} routes; per auth kind: ${Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')}`,
);

describe('coverage of the security cases', () => {
  it('every registered route has cases for its auth kind', () => {
    expect(groups.length).toBeGreaterThan(0);
    const without = generated
      .filter((x) => x.cases.length === 0)
      .map((x) => `${x.g.method} ${x.g.path} (${x.auth})`);
    expect(without, 'routes whose auth kind has no security cases').toEqual([]);
  });

  it('every path parameter of an authenticated route is classified (owned resource or plain input)', () => {
    const unclassified = groups
      .filter((g) => g.defs[0]!.auth !== 'public' && g.defs[0]!.auth !== 'capability')
      .flatMap((g) =>
        ownedParams(g)
          .filter((p) => !OWNED[p])
          .map((p) => `${g.method} ${g.path}: {${p}}`),
      );
    expect(unclassified, 'add an ownership fixture to OWNED, or the name to NOT_OWNED').toEqual([]);
  });

  it('the suite has routes of every credential kind it claims to test', () => {
    for (const kind of ['apiKey', 'jwt', 'admin', 'public'] as const)
      expect(counts[kind], kind).toBeGreaterThan(0);
  });
});

for (const { g, auth, cases } of generated) {
  describe(`${g.method} ${g.path} [${auth}]`, () => {
    for (const [name, run] of cases) it(name, run);
  });
}
