import { describe, expect, it } from 'vitest';
import type { Tag, Word } from './words.js';
import { rankCandidates, termFeatures, type WordSentence } from './yake.js';

const w = (surface: string, tag: Tag = 'p', stop = false): Word => ({
  key: surface.toLowerCase(),
  surface,
  tag,
  stop,
  form: surface.toLowerCase(),
  exact: false,
  spaceBefore: true,
});
const Alpha = w('Alpha', 'n');
const of = w('of', 'p', true);
const gamma = w('gamma');
const delta = w('delta');
const twelve = w('12', 'd');

/**
 * Three sentences: "Alpha of gamma." / "gamma delta, Alpha." / "delta 12 gamma." A number neither joins a
 * keyword nor counts as context, so "gamma" has no left neighbour in the third sentence.
 */
const TEXT: WordSentence[] = [[[Alpha, of, gamma]], [[gamma, delta], [Alpha]], [[delta, twelve, gamma]]];

describe('termFeatures: the five YAKE features, by hand', () => {
  const f = termFeatures(TEXT);
  // Terms that are not stop words: alpha 2, gamma 3, delta 2 occurrences.
  const mean = 7 / 3;
  const std = Math.sqrt(((2 - mean) ** 2 * 2 + (3 - mean) ** 2) / 3);
  const maxTf = 3;

  it('alpha: capitalized twice, sentences 0 and 1, one right neighbour', () => {
    const a = f.get('alpha')!;
    expect(a.tf).toBe(2);
    expect(a.casing).toBeCloseTo(2 / (1 + Math.log(2)), 12);
    expect(a.position).toBeCloseTo(Math.log(Math.log(3 + 0.5)), 12);
    expect(a.frequency).toBeCloseTo(2 / (mean + std), 12);
    // No left neighbour; right: "of" once out of once.
    expect(a.relatedness).toBeCloseTo(1 + (0 + 1 / 1) * (2 / maxTf), 12);
    expect(a.spread).toBeCloseTo(2 / 3, 12);
    const rel = a.relatedness;
    expect(a.h).toBeCloseTo((a.position * rel) / (a.casing + a.frequency / rel + a.spread / rel), 12);
    expect(a.h).toBeCloseTo(0.18694, 4);
  });

  it('gamma: never capitalized, in every sentence, median sentence 1', () => {
    const g = f.get('gamma')!;
    expect(g.tf).toBe(3);
    expect(g.casing).toBe(0);
    expect(g.position).toBeCloseTo(Math.log(Math.log(4)), 12);
    expect(g.frequency).toBeCloseTo(3 / (mean + std), 12);
    // Left: "of" (the 12 of the third sentence is no context); right: "delta".
    expect(g.relatedness).toBeCloseTo(1 + (1 + 1) * (3 / 3), 12);
    expect(g.spread).toBe(1);
  });

  it('delta: its right neighbour is a number, so it has none', () => {
    const d = f.get('delta')!;
    expect(d.relatedness).toBeCloseTo(1 + (1 + 0) * (2 / 3), 12);
    expect(d.position).toBeCloseTo(Math.log(Math.log(3 + 1.5)), 12);
  });

  it('weighs stop words too, and leaves numbers out', () => {
    expect(f.get('of')).toMatchObject({ tf: 1, stop: true });
    expect(f.has('12')).toBe(false);
  });

  it('casing, position and spread lower H; relatedness raises it (all else equal)', () => {
    const h = (sentences: WordSentence[], key: string) => termFeatures(sentences).get(key)!.h;
    const [x, zeta] = [w('x'), w('zeta')];
    const filler = (n: number) => Array.from({ length: n }, (_, i) => [[w(`f${i}`)]]);
    // Capitalized rather than plain.
    expect(h([[[w('zeta', 'n')]], [[x]]], 'zeta')).toBeLessThan(h([[[zeta]], [[x]]], 'zeta'));
    // Earlier rather than later.
    expect(h([[[zeta]], ...filler(5)], 'zeta')).toBeLessThan(h([...filler(5), [[zeta]]], 'zeta'));
    // Two sentences rather than one (same frequencies, same median sentence).
    const spread = [[[zeta]], [[x], [x]], [[zeta]]];
    const packed = [[[x]], [[zeta], [zeta]], [[x]]];
    expect(h(spread, 'zeta')).toBeLessThan(h(packed, 'zeta'));
    // The same neighbours twice rather than different ones (same frequencies and sentences).
    const [a1, a2, b1, b2] = [w('a1'), w('a2'), w('b1'), w('b2')];
    const same = [[[a1, zeta, b1]], [[a1, zeta, b1]], [[a2]], [[b2]]];
    const varied = [[[a1, zeta, b1]], [[a2, zeta, b2]], [[a1]], [[b1]]];
    expect(termFeatures(same).get('zeta')!.frequency).toBe(termFeatures(varied).get('zeta')!.frequency);
    expect(h(same, 'zeta')).toBeLessThan(h(varied, 'zeta'));
  });

  it('frequency grows with the occurrences of a term', () => {
    const f = termFeatures([[[w('zeta'), w('eta')]], [[w('zeta')]], [[w('theta')]], [[w('iota')]]]);
    expect(f.get('zeta')!.frequency).toBeGreaterThan(f.get('eta')!.frequency);
  });
});

describe('rankCandidates', () => {
  const ranked = rankCandidates(TEXT);
  const byKey = new Map(ranked.map((c) => [c.key.replaceAll('\u0001', ' '), c]));

  it('takes runs of one to three words that neither start nor end with a stop word and hold no number', () => {
    expect([...byKey.keys()].sort()).toEqual(['alpha', 'alpha of gamma', 'delta', 'gamma', 'gamma delta']);
  });

  it("scores a candidate by its terms' H: product over (sum + 1) × its frequency", () => {
    const f = termFeatures(TEXT);
    const [a, g, d] = ['alpha', 'gamma', 'delta'].map((k) => f.get(k)!.h) as [number, number, number];
    expect(byKey.get('gamma')!.h).toBeCloseTo(g / ((g + 1) * 3), 12);
    expect(byKey.get('gamma delta')!.h).toBeCloseTo((g * d) / ((g + d + 1) * 1), 12);
    // Inner stop word: P(of | alpha) = 1/2, P(gamma | of) = 1/3 (of "gamma"'s three occurrences).
    const p = (1 / 2) * (1 / 3);
    expect(byKey.get('alpha of gamma')!.h).toBeCloseTo((a * g * (2 - p)) / ((a + g - (1 - p) + 1) * 1), 12);
  });

  it('sorts best (lowest H) first, keeps the most frequent spelling and the first position', () => {
    expect(ranked.map((c) => c.h)).toEqual([...ranked.map((c) => c.h)].sort((x, y) => x - y));
    expect(byKey.get('alpha')).toMatchObject({ surface: 'Alpha', tf: 2, first: 0 });
    expect(byKey.get('gamma delta')).toMatchObject({ surface: 'gamma delta', first: 3 });
  });

  it('joins words written without spaces without a space, and refuses particles inside them', () => {
    const cjk = (s: string, stop = false): Word => ({ ...w(s, 'p', stop), spaceBefore: false });
    const sentences: WordSentence[] = [
      [[cjk('吾輩'), cjk('は', true), cjk('猫')]],
      [[cjk('人工'), cjk('智能')]],
    ];
    const keys = rankCandidates(sentences).map((c) => c.surface);
    expect(keys).toContain('人工智能');
    expect(keys).not.toContain('吾輩は猫');
    expect(keys).toEqual(expect.arrayContaining(['吾輩', '猫']));
  });
});
