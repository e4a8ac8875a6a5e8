import type { Word } from './words.js';

/**
 * YAKE! (Campos et al., "YAKE! Keyword extraction from single documents using multiple local features",
 * Information Sciences 509, 2020), as its reference implementation computes it, over classified words
 * (pure). Lower H is better. Words tagged `u` or `d` never join a keyword nor count as context.
 */

export type WordSentence = readonly (readonly Word[])[];

/** The five features of one term, and its weight H. */
export interface TermFeatures {
  readonly tf: number;
  /** max(capitalized, acronym or code occurrences) / (1 + ln tf). */
  readonly casing: number;
  /** ln(ln(3 + median index of the sentences it occurs in)): early terms score lower (better). */
  readonly position: number;
  /** tf / (mean tf + one standard deviation), over the terms that are not stop words. */
  readonly frequency: number;
  /** 1 + the share of distinct neighbours on each side, scaled by tf / max tf: high for stop-word-like terms. */
  readonly relatedness: number;
  /** Share of the sentences it occurs in. */
  readonly spread: number;
  readonly h: number;
}

export interface RankedCandidate {
  /** Term keys joined by U+0001. */
  readonly key: string;
  /** The most frequent way the candidate is written (ties: the first seen). */
  readonly surface: string;
  readonly words: readonly Word[];
  readonly tf: number;
  readonly h: number;
  /** Index of the first word of its first occurrence in the text. */
  readonly first: number;
}

interface TermStats {
  tf: number;
  marked: number;
  capitalized: number;
  allStop: boolean;
  sentences: number[];
  left: Map<string, number>;
  right: Map<string, number>;
}

const MAX_NGRAM = 3;
const counts = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const median = (sorted: readonly number[]): number => {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const scored = (w: Word) => w.tag !== 'u' && w.tag !== 'd';

function collectTerms(sentences: readonly WordSentence[]): Map<string, TermStats> {
  const terms = new Map<string, TermStats>();
  sentences.forEach((chunks, sentence) => {
    for (const chunk of chunks) {
      let previous: Word | undefined;
      for (const w of chunk) {
        if (!scored(w)) {
          previous = undefined;
          continue;
        }
        let t = terms.get(w.key);
        if (!t) {
          t = {
            tf: 0,
            marked: 0,
            capitalized: 0,
            allStop: true,
            sentences: [],
            left: new Map(),
            right: new Map(),
          };
          terms.set(w.key, t);
        }
        t.tf++;
        if (w.tag === 'a' || w.tag === 't') t.marked++;
        if (w.tag === 'n') t.capitalized++;
        if (!w.stop) t.allStop = false;
        if (t.sentences.at(-1) !== sentence) t.sentences.push(sentence);
        if (previous) {
          t.left.set(previous.key, (t.left.get(previous.key) ?? 0) + 1);
          const p = terms.get(previous.key)!;
          p.right.set(w.key, (p.right.get(w.key) ?? 0) + 1);
        }
        previous = w;
      }
    }
  });
  return terms;
}

/** Features and H of every term (stop words included: their co-occurrences weigh inner stop words). */
export function termFeatures(
  sentences: readonly WordSentence[],
): Map<string, TermFeatures & { stop: boolean }> {
  return featuresOf(collectTerms(sentences), sentences.length);
}

function featuresOf(
  terms: ReadonlyMap<string, TermStats>,
  sentences: number,
): Map<string, TermFeatures & { stop: boolean }> {
  const valid = [...terms.values()].filter((t) => !t.allStop).map((t) => t.tf);
  const mean = valid.length ? valid.reduce((a, b) => a + b, 0) / valid.length : 0;
  const std = valid.length ? Math.sqrt(valid.reduce((a, b) => a + (b - mean) ** 2, 0) / valid.length) : 0;
  let maxTf = 1;
  for (const t of terms.values()) maxTf = Math.max(maxTf, t.tf);
  const sentenceCount = Math.max(1, sentences);
  const out = new Map<string, TermFeatures & { stop: boolean }>();
  for (const [key, t] of terms) {
    const casing = Math.max(t.marked, t.capitalized) / (1 + Math.log(t.tf));
    const position = Math.log(Math.log(3 + median(t.sentences)));
    const frequency = mean + std > 0 ? t.tf / (mean + std) : 0;
    const leftTotal = counts(t.left);
    const rightTotal = counts(t.right);
    const leftShare = leftTotal ? t.left.size / leftTotal : 0;
    const rightShare = rightTotal ? t.right.size / rightTotal : 0;
    const relatedness = 1 + (leftShare + rightShare) * (t.tf / maxTf);
    const spread = t.sentences.length / sentenceCount;
    const h = (position * relatedness) / (casing + frequency / relatedness + spread / relatedness);
    out.set(key, { tf: t.tf, casing, position, frequency, relatedness, spread, h, stop: t.allStop });
  }
  return out;
}

/** How often `a` is directly followed by `b`, over how often `given` occurs. */
function bigramProbability(
  terms: ReadonlyMap<string, TermStats>,
  a: string,
  b: string,
  given: string,
): number {
  const n = terms.get(a)?.right.get(b) ?? 0;
  return n / (terms.get(given)?.tf ?? 1);
}

interface Accumulator {
  words: readonly Word[];
  tf: number;
  first: number;
  surfaces: Map<string, number>;
}

const surfaceOf = (words: readonly Word[]): string =>
  words.map((w, i) => (i > 0 && w.spaceBefore ? ` ${w.surface}` : w.surface)).join('');

/**
 * Every candidate of one to three words inside a chunk that starts and ends with a non-stop word and holds no
 * `u`/`d` word (an inner stop word only between spaces), with YAKE's H: the product of its terms' H over
 * (their sum + 1) × its own frequency; an inner stop word multiplies by 2 − P and subtracts 1 − P, where
 * P = P(stop | left) × P(right | stop). Sorted best first, ties by first occurrence.
 */
export function rankCandidates(sentences: readonly WordSentence[]): RankedCandidate[] {
  const stats = collectTerms(sentences);
  const terms = featuresOf(stats, sentences.length);
  const found = new Map<string, Accumulator>();
  let index = 0;
  for (const chunks of sentences) {
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i++) {
        for (let n = 1; n <= MAX_NGRAM && i + n <= chunk.length; n++) {
          const words = chunk.slice(i, i + n);
          if (!scored(words[n - 1]!)) break;
          if (words[0]!.stop || words[n - 1]!.stop) continue;
          // Between words written without spaces an inner stop word is a particle ("吾輩|は|猫"): no keyword.
          if (n === MAX_NGRAM && words[1]!.stop && !(words[1]!.spaceBefore && words[2]!.spaceBefore))
            continue;
          const key = words.map((x) => x.key).join('\u0001');
          const acc = found.get(key) ?? {
            words,
            tf: 0,
            first: index + i,
            surfaces: new Map<string, number>(),
          };
          found.set(key, acc);
          acc.tf++;
          const surface = surfaceOf(words);
          acc.surfaces.set(surface, (acc.surfaces.get(surface) ?? 0) + 1);
        }
      }
      index += chunk.length;
    }
  }

  const ranked: RankedCandidate[] = [];
  for (const [key, acc] of found) {
    let sum = 0;
    let product = 1;
    acc.words.forEach((w, i) => {
      const t = terms.get(w.key)!;
      if (!w.stop) {
        sum += t.h;
        product *= t.h;
        return;
      }
      const left = acc.words[i - 1]!.key;
      const right = acc.words[i + 1]!.key;
      const p = bigramProbability(stats, left, w.key, left) * bigramProbability(stats, w.key, right, right);
      product *= 2 - p;
      sum -= 1 - p;
    });
    let surface = '';
    let best = 0;
    for (const [s, n] of acc.surfaces) if (n > best) [surface, best] = [s, n];
    const h = product / ((sum + 1) * acc.tf);
    ranked.push({ key, surface, words: acc.words, tf: acc.tf, h, first: acc.first });
  }
  return ranked.sort((a, b) => a.h - b.h || a.first - b.first);
}
