import { describe, expect, it } from 'vitest';
import { HTML_LIMITS, scanHtml } from './html.js';

describe('scanHtml', () => {
  it('collects title, lang, base, metas, icons and JSON-LD in document order', () => {
    const facts = scanHtml(`<!doctype html>
      <html lang="en-GB"><head>
        <base href="/assets/">
        <base href="/ignored/">
        <title>  Hello
           &amp; welcome </title>
        <meta name="description" content=" A page ">
        <meta property="og:title" content="OG title">
        <meta name="og:type" content="article">
        <meta name="twitter:card" property="twitter:card" content="summary">
        <meta http-equiv="Content-Language" content="de">
        <meta charset="utf-8">
        <link rel="stylesheet" href="a.css">
        <link rel="Shortcut Icon" href=" /favicon.png ">
        <link rel="apple-touch-icon" href="/touch.png">
        <script type="application/ld+json">{"@type":"Article"}</script>
        <script>var notJsonLd = 1;</script>
      </head><body><title>second</title></body></html>`);
    expect(facts.title).toBe('Hello & welcome');
    expect(facts.lang).toBe('en-GB');
    expect(facts.baseHref).toBe('/assets/');
    expect(facts.metas).toEqual([
      { key: 'description', content: 'A page' },
      { key: 'og:title', content: 'OG title' },
      { key: 'og:type', content: 'article' },
      // name and property both say twitter:card: counted once.
      { key: 'twitter:card', content: 'summary' },
    ]);
    expect(facts.httpEquiv).toEqual([{ key: 'content-language', content: 'de' }]);
    expect(facts.icons).toEqual([
      { rel: ['shortcut', 'icon'], href: '/favicon.png' },
      { rel: ['apple-touch-icon'], href: '/touch.png' },
    ]);
    expect(facts.jsonLd).toEqual(['{"@type":"Article"}']);
  });

  it('ignores <title> inside SVG and MathML, as document.title does', () => {
    const facts = scanHtml(
      '<body><svg><title>icon</title><g><title>x</title></g></svg><math><title>m</title></math><title>Real</title>',
    );
    expect(facts.title).toBe('Real');
  });

  it('reads a title with markup-like text literally (RCDATA) and decodes entities', () => {
    expect(scanHtml('<title>a <b>bold</b> &lt;claim&gt; &#x263A;</title>').title).toBe(
      'a <b>bold</b> <claim> ☺',
    );
  });

  it('keeps an empty title as empty, and a title cut off by the byte cap', () => {
    expect(scanHtml('<title>   </title>').title).toBe('');
    expect(scanHtml('<html><head><title>Cut off here').title).toBe('Cut off here');
    expect(scanHtml('<p>no title</p>').title).toBeNull();
  });

  it('takes JSON-LD by its type only, parameters and case aside', () => {
    const facts = scanHtml(
      '<script type=" Application/LD+JSON; charset=utf-8">{"a":1}</script>' +
        '<script type="application/json">{"b":2}</script><script type="text/ld+json">{}</script>',
    );
    expect(facts.jsonLd).toEqual(['{"a":1}']);
  });

  it('bounds what one page can make it keep', () => {
    const many = '<meta property="og:x" content="v">'.repeat(HTML_LIMITS.metas + 50);
    const icons = '<link rel=icon href=/i.png>'.repeat(HTML_LIMITS.icons + 5);
    const long = `<meta name=description content="${'d'.repeat(HTML_LIMITS.valueChars + 100)}">`;
    const facts = scanHtml(long + many + icons);
    expect(facts.metas).toHaveLength(HTML_LIMITS.metas);
    expect(facts.metas[0]!.content).toHaveLength(HTML_LIMITS.valueChars);
    expect(facts.icons).toHaveLength(HTML_LIMITS.icons);
    const huge = `<script type="application/ld+json">{"@type":"A","x":"${'x'.repeat(HTML_LIMITS.jsonLdChars)}"}</script>`;
    expect(scanHtml(huge).jsonLd).toEqual([]);
    expect(scanHtml(`<title>${'t'.repeat(HTML_LIMITS.titleChars * 3)}</title>`).title).toHaveLength(
      HTML_LIMITS.titleChars,
    );
  });

  it('survives broken markup', () => {
    const facts = scanHtml('<html lang=fr><head><title>T</title><meta property=og:title content=<b>x</b>');
    expect(facts.lang).toBe('fr');
    expect(facts.title).toBe('T');
    expect(facts.metas[0]?.key).toBe('og:title');
  });
});
