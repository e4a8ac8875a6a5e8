import { describe, expect, it } from 'vitest';
import { decodersFor } from './body.js';

describe('decodersFor: Content-Encoding to decoders', () => {
  it('decodes gzip, x-gzip, deflate and br, case and spaces aside', () => {
    for (const coding of ['gzip', 'x-gzip', 'deflate', 'br', ' GZIP ', 'identity, gzip']) {
      expect(decodersFor(coding), coding).toHaveLength(1);
    }
  });

  it('undoes stacked codings, the last applied first', () => {
    expect(decodersFor('gzip, br')).toHaveLength(2);
  });

  it('keeps the body raw for none, identity, or any unknown coding', () => {
    expect(decodersFor(undefined)).toEqual([]);
    expect(decodersFor('identity')).toEqual([]);
    expect(decodersFor('zstd')).toEqual([]);
    expect(decodersFor('gzip, compress')).toEqual([]);
  });
});
