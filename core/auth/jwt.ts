import {
  type CryptoKey,
  calculateJwkThumbprint,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose';
import { AppError } from '../errors/catalogue.js';
import { randomToken } from '../ids.js';
import type { SecretStore } from './secrets.js';

/** What a verified token says about its bearer. */
export interface TokenClaims {
  readonly accountId: string;
  readonly login: string;
  readonly roles: readonly string[];
}

/** The public half of the signing key as served at `/.well-known/jwks.json`. */
export interface PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  readonly alg: 'EdDSA';
  readonly use: 'sig';
}

export interface JwtServiceOptions {
  readonly secrets: Pick<SecretStore, 'getOrCreate'>;
  /** `iss` of every token: the installation's PUBLIC_URL. */
  readonly issuer: string;
  readonly audience?: string;
  /** Token lifetime; SPEC.md section 5 allows 5 to 15 minutes. */
  readonly ttlSeconds?: number;
  /** Accepted clock difference between gateways when checking `exp`/`iat`. */
  readonly clockToleranceSeconds?: number;
  readonly now?: () => Date;
}

const ALG = 'EdDSA';
/** Where the private JWK lives in system_secrets. */
export const SIGNING_KEY_SECRET = 'jwt.signing-key.ed25519';
/** Tokens are short; anything far longer is not ours and not worth parsing. */
const MAX_TOKEN_LENGTH = 8192;

const unauthorized = (message = 'invalid token') => new AppError('UNAUTHORIZED', message);

/**
 * Issues and verifies the portal's access tokens (DESIGN.md section 6): EdDSA over Ed25519, `kid` = the public
 * JWK's RFC 7638 thumbprint, `iss`/`aud`/`exp` always checked, algorithm pinned. The key pair is made once per
 * installation and shared by every process through the SecretStore; only the public half ever leaves it.
 */
export class JwtService {
  readonly issuer: string;
  readonly audience: string;
  readonly ttlSeconds: number;
  private readonly tolerance: number;
  private readonly now: () => Date;

  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly publicJwk: PublicJwk,
    options: JwtServiceOptions,
  ) {
    this.issuer = options.issuer;
    this.audience = options.audience ?? 'toolgate';
    this.ttlSeconds = options.ttlSeconds ?? 900;
    this.tolerance = options.clockToleranceSeconds ?? 5;
    this.now = options.now ?? (() => new Date());
    if (!Number.isInteger(this.ttlSeconds) || this.ttlSeconds < 1) {
      throw new RangeError('jwt: ttlSeconds must be a positive whole number');
    }
  }

  /** Loads the installation's signing key, generating and storing it on the very first start. */
  static async open(options: JwtServiceOptions): Promise<JwtService> {
    const stored = await options.secrets.getOrCreate(SIGNING_KEY_SECRET, async () => {
      const { privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
      return JSON.stringify(await exportJWK(privateKey));
    });
    const jwk = parsePrivateJwk(stored);
    const pub = { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
    const kid = await calculateJwkThumbprint(pub, 'sha256');
    const privateKey = (await importJWK(jwk, ALG, { extractable: false })) as CryptoKey;
    const publicKey = (await importJWK(pub, ALG)) as CryptoKey;
    return new JwtService(
      privateKey,
      publicKey,
      Object.freeze({ ...pub, kid, alg: ALG, use: 'sig' } as const),
      options,
    );
  }

  get kid(): string {
    return this.publicJwk.kid;
  }

  /** A compact JWS: header `{alg: EdDSA, kid, typ: JWT}`; claims sub, login, roles, iss, aud, iat, exp, jti. */
  issue(claims: { sub: string; login: string; roles: readonly string[] }): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return (
      new SignJWT({ login: claims.login, roles: [...claims.roles] })
        .setProtectedHeader({ alg: ALG, kid: this.kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(this.issuer)
        .setAudience(this.audience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + this.ttlSeconds)
        // Lets a later revocation list name one token.
        .setJti(randomToken(16))
        .sign(this.privateKey)
    );
  }

  /**
   * The claims of a token this installation issued and that is still valid. Everything else (garbage, another
   * key, a forged header such as `alg: none` or HS256, a bad signature, expiry, another issuer or audience)
   * throws AppError UNAUTHORIZED; the reason is not told to the caller beyond "expired" versus "invalid".
   */
  async verify(token: string): Promise<TokenClaims> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH)
      throw unauthorized();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(
        token,
        async (header) => {
          // Only our own key, looked up by its id: a token cannot bring or choose its key.
          if (header.kid !== this.kid) throw unauthorized();
          return this.publicKey;
        },
        {
          algorithms: [ALG],
          issuer: this.issuer,
          audience: this.audience,
          typ: 'JWT',
          requiredClaims: ['sub', 'iat', 'exp'],
          maxTokenAge: this.ttlSeconds,
          clockTolerance: this.tolerance,
          currentDate: this.now(),
        },
      ));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw unauthorized('token has expired');
      throw unauthorized();
    }
    const { sub, login, roles } = payload;
    if (
      typeof sub !== 'string' ||
      sub.length === 0 ||
      typeof login !== 'string' ||
      !Array.isArray(roles) ||
      !roles.every((r) => typeof r === 'string')
    ) {
      throw unauthorized();
    }
    return { accountId: sub, login, roles: roles as string[] };
  }

  /** The JSON Web Key Set of `/.well-known/jwks.json`: the public key only. */
  jwks(): { keys: PublicJwk[] } {
    return { keys: [{ ...this.publicJwk }] };
  }
}

function parsePrivateJwk(stored: string): JWK & { kty: 'OKP'; crv: 'Ed25519'; x: string; d: string } {
  let jwk: unknown;
  try {
    jwk = JSON.parse(stored);
  } catch {
    // Never echo the stored value: it is the private key.
    throw new Error(`jwt: the stored ${SIGNING_KEY_SECRET} is not JSON`);
  }
  const j = jwk as Record<string, unknown>;
  if (j.kty !== 'OKP' || j.crv !== 'Ed25519' || typeof j.x !== 'string' || typeof j.d !== 'string') {
    throw new Error(`jwt: the stored ${SIGNING_KEY_SECRET} is not an Ed25519 private JWK`);
  }
  return { kty: 'OKP', crv: 'Ed25519', x: j.x, d: j.d };
}
