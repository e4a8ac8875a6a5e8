import { describe, expect, it } from 'vitest';
import { porterStem } from './stemmer.js';

/** The examples Porter (1980) gives for each step, with the stems the paper prints. */
const PAPER: Record<string, string> = {
  // Step 1a
  caresses: 'caress',
  ponies: 'poni',
  ties: 'ti',
  caress: 'caress',
  cats: 'cat',
  // Step 1b
  feed: 'feed',
  agreed: 'agre',
  plastered: 'plaster',
  bled: 'bled',
  motoring: 'motor',
  sing: 'sing',
  conflated: 'conflat',
  troubled: 'troubl',
  sized: 'size',
  hopping: 'hop',
  tanned: 'tan',
  falling: 'fall',
  hissing: 'hiss',
  fizzed: 'fizz',
  failing: 'fail',
  filing: 'file',
  // Step 1c
  happy: 'happi',
  sky: 'sky',
  // Step 2
  relational: 'relat',
  conditional: 'condit',
  rational: 'ration',
  valenci: 'valenc',
  digitizer: 'digit',
  conformabli: 'conform',
  radicalli: 'radic',
  differentli: 'differ',
  vileli: 'vile',
  analogousli: 'analog',
  vietnamization: 'vietnam',
  predication: 'predic',
  operator: 'oper',
  feudalism: 'feudal',
  decisiveness: 'decis',
  hopefulness: 'hope',
  callousness: 'callous',
  formaliti: 'formal',
  sensitiviti: 'sensit',
  sensibiliti: 'sensibl',
  // Step 3
  triplicate: 'triplic',
  formative: 'form',
  formalize: 'formal',
  electriciti: 'electr',
  electrical: 'electr',
  hopeful: 'hope',
  goodness: 'good',
  // Step 4
  revival: 'reviv',
  allowance: 'allow',
  inference: 'infer',
  airliner: 'airlin',
  gyroscopic: 'gyroscop',
  adjustable: 'adjust',
  defensible: 'defens',
  irritant: 'irrit',
  replacement: 'replac',
  adjustment: 'adjust',
  dependent: 'depend',
  adoption: 'adopt',
  homologou: 'homolog',
  communism: 'commun',
  activate: 'activ',
  angulariti: 'angular',
  homologous: 'homolog',
  effective: 'effect',
  bowdlerize: 'bowdler',
  // Step 5
  probate: 'probat',
  rate: 'rate',
  cease: 'ceas',
  controll: 'control',
  roll: 'roll',
  // The paper's closing examples
  generalizations: 'gener',
  oscillators: 'oscil',
};

describe('porterStem', () => {
  it.each(Object.entries(PAPER))('%s → %s (the full algorithm)', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('gives inflected and derived forms of one word the same stem', () => {
    expect(new Set(['right', 'rights'].map(porterStem)).size).toBe(1);
    expect(new Set(['govern', 'governed', 'governing', 'government', 'governments'].map(porterStem))).toEqual(
      new Set(['govern']),
    );
    expect(
      new Set(['connect', 'connected', 'connecting', 'connection', 'connections'].map(porterStem)),
    ).toEqual(new Set(['connect']));
  });

  it('keeps words of one or two letters and anything that is not lower-case ASCII', () => {
    for (const w of ['a', 'is', 'as', 'Running', 'naïve', 'well-known', 'x86']) expect(porterStem(w)).toBe(w);
  });
});
