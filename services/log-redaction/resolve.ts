import type { Confidence, Finding } from './types.js';

const CONFIDENCE_ORDER: Readonly<Record<Confidence, number>> = { HIGH: 0, MEDIUM: 1, LOW: 2 };

/**
 * Overlapping findings, resolved deterministically: the longest wins; on equal length the more confident, then
 * the more specific rule (RANK), then the earlier one. Accepted spans are marked in a byte map, so each check
 * costs the finding's length; every detector's own findings overlap at most pairwise, so the total is
 * linear in the text. Returns non-overlapping findings in text order.
 */
export function resolveOverlaps(findings: readonly Finding[], textLength: number): Finding[] {
  if (findings.length <= 1) return [...findings];
  const ordered = [...findings].sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) ||
      CONFIDENCE_ORDER[a.confidence] - CONFIDENCE_ORDER[b.confidence] ||
      a.rank - b.rank ||
      a.start - b.start,
  );
  const taken = new Uint8Array(textLength);
  const kept: Finding[] = [];
  for (const f of ordered) {
    if (f.end <= f.start) continue;
    let free = true;
    for (let i = f.start; free && i < f.end; i++) free = taken[i] === 0;
    if (!free) continue;
    taken.fill(1, f.start, f.end);
    kept.push(f);
  }
  return kept.sort((a, b) => a.start - b.start);
}
