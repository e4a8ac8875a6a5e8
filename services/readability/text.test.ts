import { describe, expect, it } from 'vitest';
import { countCharacters, normalizeText, splitSentences, splitWords } from './text.js';

const sentences = (text: string) => splitSentences(normalizeText(text));

describe('splitSentences', () => {
  it('ends sentences at . ! ? and keeps a run of them together', () => {
    expect(sentences('One. Two! Three? Four?! Five!!! Six')).toEqual([
      'One.',
      'Two!',
      'Three?',
      'Four?!',
      'Five!!!',
      'Six',
    ]);
  });

  it('does not end a sentence after titles, initials or Latin abbreviations', () => {
    expect(
      sentences('Dr. Smith met Mr. J. R. R. Tolkien. They talked, e.g. about maps, i.e. old ones.'),
    ).toEqual(['Dr. Smith met Mr. J. R. R. Tolkien.', 'They talked, e.g. about maps, i.e. old ones.']);
    expect(sentences('It was Smith vs. Jones, cf. the report.')).toHaveLength(1);
  });

  it('treats "No.", "Fig." and friends as abbreviations only before a number', () => {
    expect(sentences('See Fig. 3 and No. 5 on p. 12. The answer was no. Then we left.')).toEqual([
      'See Fig. 3 and No. 5 on p. 12.',
      'The answer was no.',
      'Then we left.',
    ]);
  });

  it('ends a sentence after "etc.", "Inc." or "a.m." only when a capital letter follows', () => {
    expect(sentences('We bought pens, paper, etc. and left. We bought pens, etc. The shop closed.')).toEqual([
      'We bought pens, paper, etc. and left.',
      'We bought pens, etc.',
      'The shop closed.',
    ]);
    expect(sentences('We met at 5 p.m. on Monday. We left at 6 p.m. It rained.')).toEqual([
      'We met at 5 p.m. on Monday.',
      'We left at 6 p.m.',
      'It rained.',
    ]);
    expect(sentences('It opened on Jan. 5 this year. Acme Inc. Makes things.')).toHaveLength(3);
  });

  it('keeps dotted upper-case abbreviations inside the sentence ("U.S. Office")', () => {
    expect(sentences('The U.S. Office of Education agreed. So did the U.K. government.')).toHaveLength(2);
  });

  it('does not split decimals, versions, domains or glued punctuation', () => {
    expect(sentences('Pi is 3.14 and e is 2.718. Node.js runs on v20.11.1 at example.com today.')).toEqual([
      'Pi is 3.14 and e is 2.718.',
      'Node.js runs on v20.11.1 at example.com today.',
    ]);
  });

  it('ends at an ellipsis before a capital, not before a lower-case continuation', () => {
    expect(sentences('I thought... maybe not. Wait... What? Well… fine. The end…')).toEqual([
      'I thought... maybe not.',
      'Wait...',
      'What?',
      'Well… fine.',
      'The end…',
    ]);
  });

  it('keeps closing quotes and brackets with their sentence and continues in lower case after them', () => {
    expect(sentences('"Really?!" she asked. He said "Stop." Then he left. (It was late.) We slept.')).toEqual(
      ['"Really?!" she asked.', 'He said "Stop."', 'Then he left.', '(It was late.)', 'We slept.'],
    );
    expect(sentences('“Fine.” She nodded. ‘Go,’ he said.')).toEqual([
      '“Fine.”',
      'She nodded.',
      '‘Go,’ he said.',
    ]);
  });

  it('treats blank lines, list items and non-continuing lines as boundaries', () => {
    const text = [
      'Shopping list',
      '- eggs',
      '* flour and sugar',
      '• milk',
      '1. Heat the pan',
      '2) Stir well',
      '(a) serve',
      '',
      'A paragraph that is wrapped',
      'over two lines ends here.',
    ].join('\n');
    expect(sentences(text)).toEqual([
      'Shopping list',
      'eggs',
      'flour and sugar',
      'milk',
      'Heat the pan',
      'Stir well',
      'serve',
      'A paragraph that is wrapped over two lines ends here.',
    ]);
  });

  it('handles CRLF, Unicode line separators and ideographic stops', () => {
    expect(sentences('First line\r\nSecond line\u2028Third line')).toHaveLength(3);
    expect(sentences('Hello。World！Done？')).toEqual(['Hello。', 'World！', 'Done？']);
    expect(sentences('Why‽ Because‼ Fine⁈ Sure')).toEqual(['Why‽', 'Because‼', 'Fine⁈', 'Sure']);
  });

  it('drops fragments without a word and keeps a final sentence without punctuation', () => {
    expect(sentences('... !!! — Hello there')).toEqual(['— Hello there']);
    expect(sentences('Hello. !!! ...')).toEqual(['Hello.']);
    expect(sentences('one word')).toEqual(['one word']);
    expect(sentences('   \n\n  ')).toEqual([]);
  });
});

describe('splitWords', () => {
  it('keeps contractions, hyphenated compounds, dotted abbreviations and figures as one word', () => {
    expect(
      splitWords("Don't re-enter the U.S. with 1,000 e.g. 3.14 items—or well‑known rock'n'roll."),
    ).toEqual([
      "Don't",
      're-enter',
      'the',
      'U.S',
      'with',
      '1,000',
      'e.g',
      '3.14',
      'items',
      'or',
      'well‑known',
      "rock'n'roll",
    ]);
  });

  it('drops leading and trailing apostrophes and hyphens, and splits at dashes and slashes', () => {
    expect(splitWords("the students' 'cause -5 pages 10–20 and/or")).toEqual([
      'the',
      'students',
      'cause',
      '5',
      'pages',
      '10',
      '20',
      'and',
      'or',
    ]);
  });

  it('takes letters of any script and ignores punctuation and symbols', () => {
    expect(splitWords('Café naïve Zoë — привет 東京 & $5 😀 % #')).toEqual([
      'Café',
      'naïve',
      'Zoë',
      'привет',
      '東京',
      '5',
    ]);
  });

  it('joins words split by a soft hyphen or zero-width space once normalized', () => {
    expect(splitWords(normalizeText('read\u00adability zero\u200bwidth'))).toEqual([
      'readability',
      'zerowidth',
    ]);
  });

  it('does not join a list of numbers with spaces after the commas', () => {
    expect(splitWords('1, 2, 3 and 1,2')).toEqual(['1', '2', '3', 'and', '1,2']);
  });
});

describe('countCharacters', () => {
  it('counts letters and digits, not apostrophes, hyphens or periods', () => {
    expect(countCharacters("don't")).toBe(4);
    expect(countCharacters('well-known')).toBe(9);
    expect(countCharacters('U.S')).toBe(2);
    expect(countCharacters('3.14')).toBe(3);
    expect(countCharacters('naïve')).toBe(5);
  });

  it('counts a precomposed and a decomposed accent alike once normalized', () => {
    expect(countCharacters(normalizeText('cafe\u0301'))).toBe(countCharacters('café'));
  });
});
