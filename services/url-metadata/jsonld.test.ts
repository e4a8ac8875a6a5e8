import { describe, expect, it } from 'vitest';
import { jsonLdTypes, MAX_JSON_LD_TYPES } from './jsonld.js';

describe('jsonLdTypes', () => {
  it('lists top-level and @graph types in order, once each', () => {
    expect(
      jsonLdTypes([
        '{"@context":"https://schema.org","@type":"NewsArticle","author":{"@type":"Person"}}',
        '[{"@type":["Organization","Brand"]},{"@type":"NewsArticle"}]',
        '{"@context":"https://schema.org","@graph":[{"@type":"WebSite"},{"@type":"BreadcrumbList"}]}',
      ]),
    ).toEqual(['NewsArticle', 'Organization', 'Brand', 'WebSite', 'BreadcrumbList']);
  });

  it('skips blocks that are not JSON and values that are not strings', () => {
    expect(jsonLdTypes(['{not json', '{"@type": 5}', '"Article"', 'null', '{"@type":" Event "}'])).toEqual([
      'Event',
    ]);
  });

  it('reads blocks wrapped in CDATA markers', () => {
    expect(jsonLdTypes(['//<![CDATA[\n{"@type":"Recipe"}\n//]]>'])).toEqual(['Recipe']);
  });

  it('reports at most MAX_JSON_LD_TYPES types', () => {
    const many = JSON.stringify(Array.from({ length: 80 }, (_, i) => ({ '@type': `T${i}` })));
    expect(jsonLdTypes([many])).toHaveLength(MAX_JSON_LD_TYPES);
  });
});
