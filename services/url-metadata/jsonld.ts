/** At most this many distinct types are reported per page. */
export const MAX_JSON_LD_TYPES = 50;

/**
 * The `@type` values of the JSON-LD blocks of a page: of each top-level node (a block may be one node or an
 * array of them) and of each node in its `@graph`, in document order, without repeats. Nested values (the
 * `author` of an Article, …) are not listed: they describe the page's subject, not the page. A block that is
 * not valid JSON is skipped, as search engines do.
 */
export function jsonLdTypes(blocks: readonly string[]): string[] {
  const types = new Set<string>();
  const addTypes = (node: unknown) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const t = (node as Record<string, unknown>)['@type'];
    for (const v of Array.isArray(t) ? t : [t]) {
      if (typeof v === 'string' && v.trim() !== '' && types.size < MAX_JSON_LD_TYPES) types.add(v.trim());
    }
  };
  for (const block of blocks) {
    let doc: unknown;
    try {
      doc = JSON.parse(stripCdata(block));
    } catch {
      continue;
    }
    for (const node of Array.isArray(doc) ? doc : [doc]) {
      addTypes(node);
      const graph =
        node && typeof node === 'object' ? (node as Record<string, unknown>)['@graph'] : undefined;
      if (Array.isArray(graph)) for (const g of graph) addTypes(g);
    }
  }
  return [...types];
}

/** XHTML-era pages wrap scripts in `<![CDATA[ … ]]>` (often inside comments) for old parsers. */
const stripCdata = (s: string): string =>
  s.replace(/^\s*(?:\/\/\s*)?<!\[CDATA\[/, '').replace(/(?:\/\/\s*)?\]\]>\s*$/, '');
