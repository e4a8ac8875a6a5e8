/** American Soundex digit of each letter a–z; 0 for vowels and y, '' for h and w (they do not separate). */
const CODES: Readonly<Record<string, string>> = {
  a: '0',
  e: '0',
  i: '0',
  o: '0',
  u: '0',
  y: '0',
  h: '',
  w: '',
  b: '1',
  f: '1',
  p: '1',
  v: '1',
  c: '2',
  g: '2',
  j: '2',
  k: '2',
  q: '2',
  s: '2',
  x: '2',
  z: '2',
  d: '3',
  t: '3',
  l: '4',
  m: '5',
  n: '5',
  r: '6',
};

/**
 * A blocking key for one normalised token: American Soundex for tokens of a–z (Smith, Smyth → S530; Jon,
 * John → J500), the token itself for digits (up to 12), and the first four characters of tokens in other
 * scripts, which Soundex cannot code.
 */
export function phoneticKey(token: string): string {
  if (/^\d+$/.test(token)) return token.slice(0, 12);
  if (!/^[a-z]+$/.test(token)) return token.slice(0, 4);
  let key = token[0]!.toUpperCase();
  let previous = CODES[token[0]!]!;
  for (let i = 1; i < token.length && key.length < 4; i++) {
    const code = CODES[token[i]!]!;
    // h and w leave the previous code in force: "Ashcraft" is A261, not A226.
    if (code === '') continue;
    if (code !== '0' && code !== previous) key += code;
    previous = code;
  }
  return key.padEnd(4, '0');
}
