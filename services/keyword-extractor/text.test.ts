import { describe, expect, it } from 'vitest';
import { normalizeText, splitBlocks, splitSentences, tokenizeSentence, tokenizeText } from './text.js';

const words = (sentence: string, language = 'en') =>
  tokenizeSentence(sentence, language).map((chunk) => chunk.map((t) => t.text));

describe('splitBlocks', () => {
  it('joins hard-wrapped lines and splits at blank lines, list items, headings and fences', () => {
    expect(
      splitBlocks(
        '# Title\nThe first line\nwraps here.\n\nNext paragraph\n- item one\n  goes on\n- item two\n```\ncode\n```',
      ),
    ).toEqual([
      '# Title',
      'The first line wraps here.',
      'Next paragraph',
      '- item one goes on',
      '- item two',
      '```',
      'code',
      '```',
    ]);
  });

  it('starts a block at a capitalized line after a line without closing punctuation (a heading)', () => {
    expect(splitBlocks('INTRODUCTION\nThe text starts.\nIt goes on, and\nHolmes replied.')).toEqual([
      'INTRODUCTION',
      'The text starts.',
      'It goes on, and Holmes replied.',
    ]);
  });

  it('joins wrapped Chinese or Japanese lines without a space', () => {
    expect(splitBlocks('我冒了严寒，回到相隔\n二千余里')).toEqual(['我冒了严寒，回到相隔二千余里']);
  });
});

describe('splitSentences', () => {
  it('ends sentences at . ! ? and 。, but not after a title, an initial or inside Node.js and v2.3.1', () => {
    expect(
      splitSentences('Mr. Holmes said so. J. Watson agreed! Did he? Node.js v2.3.1 is out.', 'en'),
    ).toEqual(['Mr. Holmes said so.', 'J. Watson agreed!', 'Did he?', 'Node.js v2.3.1 is out.']);
    expect(splitSentences('吾輩は猫である。名前はまだ無い。', 'ja')).toEqual([
      '吾輩は猫である。',
      '名前はまだ無い。',
    ]);
  });
});

describe('tokenizeSentence', () => {
  it('keeps code-like tokens whole and drops a sentence-final period', () => {
    expect(
      words('Node.js v2.3.1 speaks HTTP/2; call getUserById() on ECONNRESET, see snake_case and C++ or C#.'),
    ).toEqual([
      ['Node.js', 'v2.3.1', 'speaks', 'HTTP/2'],
      ['call', 'getUserById()', 'on', 'ECONNRESET'],
      ['see', 'snake_case', 'and', 'C++', 'or', 'C#'],
    ]);
    expect(words('Use --verbose with @types/node, $HOME and .NET or std::vector.')).toEqual([
      ['Use', '--verbose', 'with', '@types/node'],
      ['$HOME', 'and', '.NET', 'or', 'std::vector'],
    ]);
  });

  it('keeps contractions, possessives and hyphenated words; punctuation ends a chunk', () => {
    expect(words("Don't judge Nature's well-known laws (or the students' rules) — ever.")).toEqual([
      ["Don't", 'judge', "Nature's", 'well-known', 'laws'],
      ['or', 'the', 'students'],
      ['rules'],
      ['ever'],
    ]);
  });

  it('keeps a URL whole, without its trailing punctuation', () => {
    expect(words('See https://example.com/a?b=1, then go.')).toEqual([
      ['See', 'https://example.com/a?b=1'],
      ['then', 'go'],
    ]);
  });

  it('cuts Chinese and Japanese with Intl.Segmenter and marks tokens written without a space', () => {
    const zh = tokenizeSentence('机器学习是人工智能的一个分支。', 'zh');
    expect(zh.map((c) => c.map((t) => t.text))).toEqual([
      ['机器', '学习', '是', '人工', '智能', '的', '一个', '分支'],
    ]);
    expect(zh[0]!.every((t) => t.segmented && !t.spaceBefore)).toBe(true);
    expect(words('吾輩は猫である', 'ja')).toEqual([['吾輩', 'は', '猫', 'で', 'ある']]);
  });

  it('mixes scripts: Latin tokens by the pattern, CJK runs by the segmenter', () => {
    const chunks = tokenizeSentence('使用 Node.js 开发服务器', 'zh');
    expect(chunks.map((c) => c.map((t) => [t.text, t.segmented, t.spaceBefore]))).toEqual([
      [
        ['使用', true, false],
        ['Node.js', false, true],
        ['开发', true, true],
        ['服务', true, false],
        ['器', true, false],
      ],
    ]);
  });

  it('marks the first word of the sentence only', () => {
    const [chunk] = tokenizeSentence('"Holmes" said Holmes', 'en');
    expect(chunk!.map((t) => t.sentenceStart)).toEqual([true]);
  });
});

describe('tokenizeText', () => {
  it('normalizes compatibility forms and drops invisible characters first', () => {
    expect(normalizeText('ｆｕｌｌ\u00ADwidth ﬁne\u200B')).toBe('fullwidth fine');
    expect(
      tokenizeText('Ｎｏｄｅ.js ｆａｓｔ！', 'en').map((s) => s.map((c) => c.map((t) => t.text))),
    ).toEqual([[['Node.js', 'fast']]]);
  });

  it('has no sentence for text without a word', () => {
    expect(tokenizeText('!!! ... ???', 'en')).toEqual([]);
  });
});
