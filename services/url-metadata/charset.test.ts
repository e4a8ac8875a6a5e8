import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { charsetFromMetaContent, charsetParameter, decodeBody, detectCharset, prescan } from './charset.js';
import { CODECS, encodingForLabel } from './labels.js';

const ascii = (s: string) => Buffer.from(s, 'latin1');
const detect = (body: Buffer, header?: string) => detectCharset(body, header);

describe('labels', () => {
  it('map as the Encoding Standard says, not as the IANA registry does', () => {
    expect(encodingForLabel('ISO-8859-1')).toBe('windows-1252');
    expect(encodingForLabel('us-ascii')).toBe('windows-1252');
    expect(encodingForLabel(' Shift_JIS\t')).toBe('Shift_JIS');
    expect(encodingForLabel('sjis')).toBe('Shift_JIS');
    expect(encodingForLabel('CP1251')).toBe('windows-1251');
    expect(encodingForLabel('latin2')).toBe('ISO-8859-2');
    expect(encodingForLabel('iso-8859-9')).toBe('windows-1254');
    expect(encodingForLabel('ks_c_5601-1987')).toBe('EUC-KR');
    expect(encodingForLabel('utf-16')).toBe('UTF-16LE');
    expect(encodingForLabel('utf-7')).toBeNull();
    expect(encodingForLabel('')).toBeNull();
  });

  it('every codec named exists in iconv-lite', () => {
    for (const [name, codec] of Object.entries(CODECS)) expect(iconv.encodingExists(codec), name).toBe(true);
  });
});

describe('the Content-Type charset parameter', () => {
  it('is read case-insensitively, quoted or not, among other parameters', () => {
    expect(charsetParameter('text/html; charset=UTF-8')).toBe('UTF-8');
    expect(charsetParameter('text/html;CHARSET="windows-1251"')).toBe('windows-1251');
    expect(charsetParameter('text/html; q=1; charset=koi8-r; x=y')).toBe('KOI8-R');
    expect(charsetParameter('text/html')).toBeNull();
    expect(charsetParameter('text/html; charset=no-such-thing')).toBeNull();
  });
});

describe('extracting the label from <meta content>', () => {
  it.each([
    ['text/html; charset=utf-8', 'utf-8'],
    ['text/html;charset="koi8-r"', 'koi8-r'],
    ["text/html; charset = 'shift_jis' ", 'shift_jis'],
    ['text/html; charsetx=1; charset=euc-jp', 'euc-jp'],
    ['charset=windows-1251;foo', 'windows-1251'],
    ['text/html', null],
    ['text/html; charset=', null],
    ['text/html; charset="unterminated', null],
  ])('%s → %s', (content, label) => {
    expect(charsetFromMetaContent(content)).toBe(label);
  });
});

describe('the prescan of the first 1024 bytes', () => {
  it.each([
    ['<meta charset="windows-1251">', 'windows-1251'],
    ['<META CHARSET=Shift_JIS>', 'Shift_JIS'],
    ["<meta charset='iso-8859-1'/>", 'windows-1252'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', 'KOI8-R'],
    ['<meta content="text/html; charset=euc-jp" http-equiv=content-type>', 'EUC-JP'],
    ['<meta name="x" charset="utf-16">', 'UTF-8'],
    ['<meta charset="x-user-defined">', 'windows-1252'],
    ['<meta/charset=gbk>', 'GBK'],
    // The first of a repeated attribute counts, as in the tokenizer.
    ['<meta charset="big5" charset="utf-8">', 'Big5'],
  ])('%s → %s', (html, encoding) => {
    expect(prescan(ascii(`<!doctype html><html><head>${html}<title>x</title>`))).toBe(encoding);
  });

  it.each([
    ['content without http-equiv', '<meta content="text/html; charset=koi8-r">'],
    ['http-equiv of another pragma', '<meta http-equiv="refresh" content="0; charset=koi8-r">'],
    ['inside a comment', '<!-- <meta charset="koi8-r"> -->'],
    ['inside another tag’s attribute', `<div title='<meta charset="koi8-r">'></div>`],
    ['after a processing instruction that hides it', '<?xml <meta charset="koi8-r"> ?>'],
    ['an unknown label', '<meta charset="klingon">'],
  ])('ignores a declaration %s', (_what, html) => {
    expect(prescan(ascii(`<html><head>${html}</head>`))).toBeNull();
  });

  it('finds a declaration after other meta tags and attributes with ">" in quotes', () => {
    const html =
      '<meta name="viewport" content="a>b"><link rel=stylesheet href="x.css"><meta charset=koi8-u>';
    expect(prescan(ascii(html))).toBe('KOI8-U');
  });

  it('stops at the end of the input, not reading past a truncated tag', () => {
    expect(prescan(ascii('<meta charset="koi8-r'))).toBeNull();
    expect(prescan(ascii('<!-- never closed <meta charset=koi8-r>'))).toBeNull();
  });
});

describe('detectCharset: BOM, then header, then <meta> within 1024 bytes, then a guess', () => {
  const metaPage = ascii('<html><head><meta charset="windows-1251"></head>');

  it('a byte order mark wins over header and meta', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), metaPage]);
    expect(detect(body, 'text/html; charset=koi8-r')).toEqual({ encoding: 'UTF-8', source: 'bom' });
    expect(detect(Buffer.from([0xff, 0xfe, 0x3c, 0x00]))).toEqual({ encoding: 'UTF-16LE', source: 'bom' });
    expect(detect(Buffer.from([0xfe, 0xff, 0x00, 0x3c]))).toEqual({ encoding: 'UTF-16BE', source: 'bom' });
  });

  it('the header wins over meta; an unusable header label falls through to meta', () => {
    expect(detect(metaPage, 'text/html; charset=koi8-r')).toEqual({ encoding: 'KOI8-R', source: 'header' });
    expect(detect(metaPage, 'text/html; charset=bogus')).toEqual({
      encoding: 'windows-1251',
      source: 'meta',
    });
    // ISO-2022-JP is a real label without a codec here: as if absent.
    expect(detect(metaPage, 'text/html; charset=iso-2022-jp')).toEqual({
      encoding: 'windows-1251',
      source: 'meta',
    });
  });

  it('a declaration beyond the first 1024 bytes is not seen', () => {
    const late = ascii(`<html><head><!--${'x'.repeat(1100)}--><meta charset="windows-1251">`);
    expect(detect(late).source).toBe('default');
    const early = ascii(`<html><head><meta charset="windows-1251"><!--${'x'.repeat(1100)}-->`);
    expect(detect(early)).toEqual({ encoding: 'windows-1251', source: 'meta' });
  });

  it('without a declaration: UTF-8 when the bytes are UTF-8, including one cut by the cap', () => {
    expect(detect(Buffer.from('<p>naïve café</p>', 'utf8'))).toEqual({
      encoding: 'UTF-8',
      source: 'default',
    });
    expect(detect(ascii('<p>plain</p>')).encoding).toBe('UTF-8');
    const cut = Buffer.from('<p>日本', 'utf8').subarray(0, -1);
    expect(detect(cut).encoding).toBe('UTF-8');
  });

  it('without a declaration: windows-1252 when the bytes are not UTF-8', () => {
    expect(detect(Buffer.from([0x3c, 0x70, 0x3e, 0xe9, 0x80, 0x3c]))).toEqual({
      encoding: 'windows-1252',
      source: 'default',
    });
  });
});

describe('decodeBody', () => {
  it.each([
    ['Shift_JIS', 'shiftjis', '日本語のページ'],
    ['windows-1251', 'windows1251', 'Привет, мир'],
    ['KOI8-R', 'koi8-r', 'Привет, мир'],
    ['EUC-JP', 'eucjp', '日本語'],
    ['GBK', 'gbk', '中文网页'],
    ['Big5', 'big5hkscs', '繁體中文'],
    ['EUC-KR', 'cp949', '한국어'],
    ['UTF-16LE', 'utf16le', 'ünïcödé'],
  ])('decodes %s', (name, codec, text) => {
    expect(decodeBody(iconv.encode(text, codec), name)).toBe(text);
  });

  it('decodes "ISO-8859-1" pages as windows-1252 does: 0x80 is €', () => {
    expect(decodeBody(Buffer.from([0x80, 0x20, 0xe9]), encodingForLabel('iso-8859-1')!)).toBe('€ é');
  });

  it('drops the byte order mark', () => {
    expect(decodeBody(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), 'UTF-8')).toBe('A');
  });
});
