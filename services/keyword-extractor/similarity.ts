/** Levenshtein edit distance over UTF-16 code units, in O(|a|·|b|) time and O(|b|) space. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** 1 − distance / longer length: 1 for equal strings, 0 for strings with nothing in common. */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - levenshtein(a, b) / longer;
}

/** Whether `similarity(a, b)` can reach `threshold`, from the lengths alone (a cheap pre-check). */
export function mayReach(a: string, b: string, threshold: number): boolean {
  const longer = Math.max(a.length, b.length);
  return longer === 0 || 1 - Math.abs(a.length - b.length) / longer >= threshold;
}
