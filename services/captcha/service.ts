import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { AppError } from '../../core/errors/catalogue.js';
import type { KvStore } from '../../core/kv/kv.js';
import { reply, type ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { randomAnswer } from './answer.js';
import {
  attempt,
  CHALLENGE_TTL_MS,
  newChallengeId,
  type Reason,
  sceneOf,
  storeChallenge,
} from './challenges.js';
import { difficultyFor } from './difficulty.js';
import { renderPng } from './png.js';
import { buildScene } from './scene.js';
import { renderSvg } from './svg.js';

export interface CaptchaDeps {
  /** Where challenges live: shared by every gateway (Redis in the cluster profile). */
  readonly kv: KvStore;
  readonly now?: () => Date;
  /** Risk of an address, 0 (good) … 1 (bad); high risk gets a harder challenge. Absent: every address is 0. */
  readonly riskOf?: (ip: string) => Promise<number>;
}

/** R body of generate: SPEC.md 2.9. */
export interface CaptchaChallenge {
  readonly challengeId: string;
  readonly imageUrl: string;
  readonly expiresAt: string;
}

/** R body of validate: DESIGN.md section 7. */
export interface CaptchaValidation {
  readonly valid: boolean;
  readonly challengeId: string;
  readonly reason: Reason | null;
}

export const IMAGE_PATH = '/api/v1/captcha/image';

/** Uniform in [0, 1) from the system's CSPRNG: the picture must not be predictable from earlier ones. */
const secureRandom = (): number => randomBytes(4).readUInt32BE(0) / 2 ** 32;

/** The optional `{clientIp}` body, checked as strictly as a schema would (unknown fields refused). */
function clientIpOf(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('VALIDATION_ERROR', 'body: must be an object');
  }
  for (const field of Object.keys(body)) {
    if (field !== 'clientIp') throw new AppError('VALIDATION_ERROR', `${field}: is not a known field`);
  }
  const { clientIp } = body as { clientIp?: unknown };
  if (clientIp === undefined) return undefined;
  if (typeof clientIp !== 'string' || isIP(clientIp) === 0) {
    throw new AppError('VALIDATION_ERROR', 'clientIp: must be a valid IPv4 or IPv6 address');
  }
  return clientIp;
}

export function createCaptchaService(deps: CaptchaDeps): ServiceDefinition {
  const { kv } = deps;
  const now = deps.now ?? (() => new Date());

  async function riskFor(ip: string): Promise<number> {
    if (!deps.riskOf) return 0;
    // A failing reputation source must not block sign-ups; difficultyFor treats NaN as high risk.
    return deps.riskOf(ip).catch(() => Number.NaN);
  }

  return {
    slug: 'captcha',
    title: 'Captcha',
    description:
      'Human verification: issue a distorted-text image challenge, then check the answer once. Challenges ' +
      'expire after 5 minutes and are consumed by the first validation attempt, on any gateway.',
    routes: [
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/captcha/generate',
        operationId: 'captchaGenerate',
        summary: 'Issue a captcha challenge',
        description:
          'Returns a new challenge: its id, the path of its image and when it expires (5 minutes). The image ' +
          'shows 5 characters (6 for addresses with a poor reputation) from an alphabet without look-alikes ' +
          '(no 0/O, 1/I/L). No body is needed; a server asking on behalf of a visitor may send ' +
          '`{"clientIp": "<the visitor’s IPv4 or IPv6 address>"}` so that address decides the difficulty ' +
          '(otherwise the caller’s own address does); any other field is refused with 400.',
        auth: 'apiKey',
        metered: true,
        // No body schema: SPEC's generate takes no body, and the gateway would refuse a POST without one.
        schemas: { response: { 200: apiSchema('captcha/generate-response.json') } },
        async handler({ body }, ctx): Promise<CaptchaChallenge> {
          const clientIp = clientIpOf(body);
          const difficulty = difficultyFor(await riskFor(clientIp ?? ctx.ip));
          const answer = randomAnswer(difficulty.length);
          const challengeId = newChallengeId();
          const expiresAt = now().getTime() + CHALLENGE_TTL_MS;
          const scene = buildScene(answer, difficulty, secureRandom);
          await storeChallenge(kv, { id: challengeId, answer, scene, expiresAt });
          return {
            challengeId,
            imageUrl: `${IMAGE_PATH}/${challengeId}`,
            expiresAt: new Date(expiresAt).toISOString(),
          };
        },
      },
      {
        convention: 'R',
        method: 'GET',
        path: '/api/v1/captcha/image/{challengeId}',
        operationId: 'captchaImage',
        summary: 'The image of a captcha challenge',
        description:
          'A 200 × 70 PNG (or SVG with `?format=svg`) of the challenge’s characters, distorted and crossed by ' +
          'noise. No API key: the unguessable challenge id is the credential, so a browser can load it ' +
          'directly. 404 once the challenge is unknown, expired or answered. Not metered.',
        auth: 'capability',
        metered: false,
        schemas: {
          params: apiSchema('captcha/image-params.json'),
          query: apiSchema('captcha/image-query.json'),
          response: { 200: apiSchema('captcha/image-response.json') },
        },
        async handler({ params, query }) {
          const scene = await sceneOf(kv, params.challengeId ?? '', now());
          if (!scene) {
            throw new AppError(
              'NOT_FOUND',
              'challengeId: no such challenge, or it has expired or been answered',
            );
          }
          const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
          if (query.format === 'svg') {
            return reply(renderSvg(scene), { headers: { ...headers, 'content-type': 'image/svg+xml' } });
          }
          return reply(renderPng(scene), { headers: { ...headers, 'content-type': 'image/png' } });
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/captcha/validate',
        operationId: 'captchaValidate',
        summary: 'Check the answer to a captcha challenge (once)',
        description:
          'Compares the answer case-insensitively (spaces ignored). The first attempt consumes the challenge ' +
          'whatever its outcome, on every gateway at once, so an answer can be checked only once. A failed ' +
          'attempt is still 200: `valid` false with `reason` WRONG_ANSWER, EXPIRED (over 5 minutes), ' +
          'ALREADY_USED or NOT_FOUND; `reason` is null when valid.',
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('captcha/validate-request.json'),
          response: { 200: apiSchema('captcha/validate-response.json') },
        },
        async handler({ body }): Promise<CaptchaValidation> {
          const { challengeId, answer } = body as { challengeId: string; answer: string };
          const verdict = await attempt(kv, challengeId, answer, now());
          return { valid: verdict.valid, challengeId, reason: verdict.reason };
        },
      },
    ],
  };
}
