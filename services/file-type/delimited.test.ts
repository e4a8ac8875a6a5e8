import { describe, expect, it } from 'vitest';
import { sniffDelimited } from './delimited.js';

describe('sniffDelimited', () => {
  it('finds the delimiter that gives every record the same number of fields', () => {
    expect(sniffDelimited('id,name,price\n1,apple,0.5\n2,pear,0.75\n')).toEqual({
      delimiter: ',',
      columns: 3,
      rows: 3,
    });
    expect(sniffDelimited('a;b\r\n1;2\r\n3;4\r\n5;6\r\n')).toEqual({ delimiter: ';', columns: 2, rows: 4 });
    expect(sniffDelimited('a\tb\tc\n1\t2\t3\n')).toEqual({ delimiter: '\t', columns: 3, rows: 2 });
    expect(sniffDelimited('a|b\n1|2\n3|4\n')).toMatchObject({ delimiter: '|', columns: 2 });
  });

  it('counts quoted delimiters, doubled quotes and line breaks inside quotes as field content', () => {
    const csv = 'name,comment\n"Smith, J.","said ""hi"""\n"Doe","two\nlines, really"\nplain,text\n';
    expect(sniffDelimited(csv)).toEqual({ delimiter: ',', columns: 2, rows: 4 });
  });

  it('allows the last record to be cut short, as in the first bytes of a file', () => {
    expect(sniffDelimited('a,b,c\n1,2,3\n4,5,6\n7,8')).toMatchObject({ delimiter: ',', columns: 3, rows: 3 });
    expect(sniffDelimited('a,b,c\n1,2,3\n4,5,6\n7,8,9,10')).toBeNull();
  });

  it('prefers the delimiter with more columns', () => {
    expect(sniffDelimited('a;b,c;d\n1;2,3;4\n5;6,7;8\n')).toMatchObject({ delimiter: ';', columns: 3 });
  });

  it.each([
    ['prose with a comma per line', 'Hello, world.\nHow are you, Bob?\nFine, thanks.\n'],
    ['records of different lengths', 'a,b\n1,2,3\n4,5\n'],
    ['one record', 'a,b,c\n'],
    ['two records of two fields', 'a,b\n1,2\n'],
    ['no delimiter at all', 'just some words\nand more words\nand more\n'],
  ])('finds no table in %s', (_what, text) => {
    expect(sniffDelimited(text)).toBeNull();
  });
});
