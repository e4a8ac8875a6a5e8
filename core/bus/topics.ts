import { streamCategory } from '../events/envelope.js';

/**
 * Stream category → bounded context; one Kafka topic per context (`<prefix><context>`), keyed by stream id.
 * A category not listed here goes to `misc` rather than being dropped.
 */
const CONTEXT_OF_CATEGORY: Readonly<Record<string, string>> = {
  account: 'accounts',
  apikey: 'keys',
  call: 'calls',
  monitor: 'monitors',
  cron: 'cron',
  webhook: 'webhooks',
  screenshot: 'screenshots',
  ratetest: 'ratetests',
  captcha: 'captcha',
  reputation: 'reputation',
  dedup: 'dedup',
  test: 'test',
};

export const FALLBACK_CONTEXT = 'misc';

export const CONTEXTS: readonly string[] = [
  ...new Set([...Object.values(CONTEXT_OF_CATEGORY), FALLBACK_CONTEXT]),
];

export function contextOfStream(streamId: string): string {
  return CONTEXT_OF_CATEGORY[streamCategory(streamId)] ?? FALLBACK_CONTEXT;
}

export const topicName = (prefix: string, context: string): string => `${prefix}${context}`;
