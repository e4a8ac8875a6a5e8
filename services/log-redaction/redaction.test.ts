import { describe, expect, it } from 'vitest';
import { applyRedactions, detect, InvalidJsonContent } from './redaction.js';

describe('detect / applyRedactions', () => {
  it('replaces each value with its type’s token at JS string offsets (UTF-16 code units)', () => {
    const text = 'héllo 😀 alice@example.com from 10.0.0.1';
    const found = detect(text, 'TEXT');
    expect(found.map((d) => [d.type, d.start, d.end, d.value])).toEqual([
      ['EMAIL', 9, 26, 'alice@example.com'],
      ['IP_ADDRESS', 32, 40, '10.0.0.1'],
    ]);
    expect(applyRedactions(text, found)).toBe('héllo 😀 [EMAIL_REDACTED] from [IP_REDACTED]');
  });

  it('with rules, looks only for those types, even inside what another rule would have taken', () => {
    const text = 'password="alice@example.com 2024" card 4111111111111111';
    expect(detect(text, 'TEXT').map((d) => d.type)).toEqual(['PASSWORD', 'CREDIT_CARD']);
    expect(detect(text, 'TEXT', new Set(['EMAIL'])).map((d) => [d.type, d.value])).toEqual([
      ['EMAIL', 'alice@example.com'],
    ]);
  });

  it('in JSON mode keeps the document valid, and quotes the token that replaces a number', () => {
    const json = '{\n  "card": 4111111111111111,\n  "note": "mail bob@example.com"\n}';
    const found = detect(json, 'JSON');
    const out = applyRedactions(json, found);
    expect(out).toBe('{\n  "card": "[CREDIT_CARD_REDACTED]",\n  "note": "mail [EMAIL_REDACTED]"\n}');
    expect(JSON.parse(out)).toEqual({ card: '[CREDIT_CARD_REDACTED]', note: 'mail [EMAIL_REDACTED]' });
    expect(found.map((d) => d.replacement)).toEqual(['[CREDIT_CARD_REDACTED]', '[EMAIL_REDACTED]']);
  });

  it('refuses JSON mode for content that is not JSON', () => {
    expect(() => detect('not json', 'JSON')).toThrow(InvalidJsonContent);
  });

  it('is idempotent: redacting redacted text finds nothing more', () => {
    const text = 'user=a@b.io password=hunter2 Authorization: Bearer abcdef0123456789 ip 10.0.0.1';
    const once = applyRedactions(text, detect(text, 'TEXT'));
    expect(detect(once, 'TEXT')).toEqual([]);
  });
});
