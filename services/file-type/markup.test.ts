import { describe, expect, it } from 'vitest';
import { hasActiveMarkup, hasActivePdf, rootElement, sniffMarkup } from './markup.js';

describe('sniffMarkup', () => {
  it.each([
    ['<?xml version="1.0"?><note><to>x</to></note>', 'xml', 1],
    ['<?xml version="1.0"?>\n<!-- c --><svg xmlns="http://www.w3.org/2000/svg"/>', 'svg', 0.9],
    ['<svg width="1" height="1"></svg>', 'svg', 0.9],
    ['<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"></html>', 'xhtml', 0.9],
    ['<!DOCTYPE html>\n<html><body></body></html>', 'html', 0.9],
    ['<HTML><BODY>upper case</BODY></HTML>', 'html', 0.9],
    ['<html lang="en"></html>', 'html', 0.9],
    ['<div class="x">fragment</div>', 'html', 0.7],
    ['<p>para</p>', 'html', 0.7],
    ['<!-- just a comment -->', 'html', 0.5],
    ['<?php echo "hi"; ?>', 'php', 0.9],
    ['<root><item/></root>', 'xml', 0.6],
  ])('%s → %s', (text, ext, confidence) => {
    expect(sniffMarkup(`  ${text}`)).toEqual({ ext, confidence });
  });

  it('does not take text that merely contains a "<" for markup', () => {
    expect(sniffMarkup('a < b and c > d')).toBeNull();
    expect(sniffMarkup('<notatag')).toBeNull();
    expect(sniffMarkup('<3 love')).toBeNull();
  });
});

describe('rootElement', () => {
  it('skips the prolog, processing instructions, comments and a DOCTYPE with an internal subset', () => {
    const xml =
      '<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<!-- <fake/> -->\n' +
      '<!DOCTYPE svg [ <!ENTITY e "<x>"> ]>\n<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>';
    expect(rootElement(xml)).toBe('svg');
    expect(rootElement('<!-- unterminated')).toBeNull();
  });
});

describe('active content', () => {
  it.each([
    '<script>alert(1)</script>',
    '<svg onload="alert(1)">',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href = " JavaScript:alert(1)">x</a>',
    '<iframe src="https://x">',
    '<svg><foreignObject><div/></foreignObject></svg>',
  ])('finds it in %s', (markup) => {
    expect(hasActiveMarkup(markup)).toBe(true);
  });

  it.each([
    '<device online="true" onset="3"/>',
    '<p>Click on the button = fun</p>',
    '<a href="https://x/javascript">',
  ])('finds none in %s', (markup) => {
    expect(hasActiveMarkup(markup)).toBe(false);
  });

  it('finds JavaScript, launch actions and embedded files in a PDF, also behind #xx name escapes', () => {
    const pdf = (dict: string) => Buffer.from(`%PDF-1.7\n1 0 obj <<${dict}>> endobj\n`, 'latin1');
    expect(hasActivePdf(pdf('/OpenAction <</S /JavaScript /JS (app.alert(1))>>'))).toBe(true);
    expect(hasActivePdf(pdf('/AA <</O <</S /Launch /F (cmd.exe)>>>>'))).toBe(true);
    expect(hasActivePdf(pdf('/Names <</EmbeddedFiles 3 0 R>>'))).toBe(true);
    expect(hasActivePdf(pdf('/S /J#61va#53cript'))).toBe(true);
    expect(hasActivePdf(pdf('/Type /Catalog /Pages 2 0 R /JSON (not a name we look for)'))).toBe(false);
  });
});
