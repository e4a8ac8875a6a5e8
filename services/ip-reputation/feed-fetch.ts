import type { OutboundClient } from '../../core/outbound/outbound.js';
import type { FetchText } from './feed-import.js';

/**
 * Feed URLs through the platform's outbound client. They are operator settings, not user input, but the guard
 * still applies: a feed hosted on an internal address needs OUTBOUND_ALLOW_CIDRS, like every other target.
 * Public lists reach a few megabytes (proxy lists), hence caps above the defaults.
 */
export function feedFetcher(outbound: OutboundClient): FetchText {
  return async (url) => {
    const res = await outbound.fetch({
      url,
      headers: { accept: 'text/plain, */*' },
      limits: {
        maxBytes: 64 * 1024 * 1024,
        maxDecompressedBytes: 128 * 1024 * 1024,
        totalTimeoutMs: 120_000,
      },
    });
    if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status}`);
    return res.body.toString('utf8');
  };
}
