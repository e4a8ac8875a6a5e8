import { createSyllableCounter, type SyllableCounter } from './syllables.js';

let counter: Promise<SyllableCounter> | undefined;

/**
 * The shared dictionary-backed syllable counter. The CMU dictionary is a 4.7 MB module (about 135,000
 * entries), so it is imported on first use rather than at start-up, once per process; a failed import is
 * retried next call.
 */
export function loadSyllableCounter(): Promise<SyllableCounter> {
  counter ??= import('cmu-pronouncing-dictionary').then(
    ({ dictionary }) => createSyllableCounter(dictionary),
    (error: unknown) => {
      counter = undefined;
      throw error;
    },
  );
  return counter;
}
