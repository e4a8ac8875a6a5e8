import { Parser } from 'htmlparser2';

/** A `<meta>` with `content`, keyed by its lower-cased `property` or `name` (or `http-equiv`). */
export interface MetaTag {
  readonly key: string;
  readonly content: string;
}

/** A `<link>` whose `rel` names an icon. */
export interface IconLink {
  /** Lower-cased rel tokens. */
  readonly rel: readonly string[];
  readonly href: string;
}

/** What the extraction needs from a document, in document order, as written (not yet resolved). */
export interface HtmlFacts {
  /** The first `<title>` outside SVG and MathML, white space collapsed; null when there is none. */
  readonly title: string | null;
  /** `lang` of the `<html>` element. */
  readonly lang: string | null;
  /** `href` of the first `<base>` that has one. */
  readonly baseHref: string | null;
  /** `<meta property|name content>`; a tag with both counts under each. */
  readonly metas: readonly MetaTag[];
  /** `<meta http-equiv content>`. */
  readonly httpEquiv: readonly MetaTag[];
  readonly icons: readonly IconLink[];
  /** Text of each `<script type="application/ld+json">`. */
  readonly jsonLd: readonly string[];
}

/**
 * Bounds on what one page can make us keep, whatever it holds: a page is attacker-controlled input and the
 * result is serialized into a response.
 */
export const HTML_LIMITS = {
  metas: 500,
  icons: 32,
  jsonLdScripts: 16,
  jsonLdChars: 256 * 1024,
  valueChars: 4096,
  titleChars: 2048,
} as const;

const ICON_RELS = new Set(['icon', 'apple-touch-icon', 'apple-touch-icon-precomposed']);
const FOREIGN = new Set(['svg', 'math']);

/** Collapses runs of ASCII white space to one space and trims, as `document.title` does. */
export const collapseSpace = (s: string): string => s.replace(/[\t\n\f\r ]+/g, ' ').trim();

const clip = (s: string, max: number): string => (s.length > max ? s.slice(0, max) : s);

/** One streaming pass of htmlparser2 over the decoded document. */
export function scanHtml(html: string): HtmlFacts {
  let title: string | null = null;
  let lang: string | null = null;
  let baseHref: string | null = null;
  const metas: MetaTag[] = [];
  const httpEquiv: MetaTag[] = [];
  const icons: IconLink[] = [];
  const jsonLd: string[] = [];
  let foreignDepth = 0;
  let seenHtml = false;
  let titleText: string | null = null;
  let script: string | null = null;

  const addMeta = (list: MetaTag[], key: string | undefined, content: string) => {
    const k = key?.trim().toLowerCase();
    if (k && list.length < HTML_LIMITS.metas) list.push({ key: k, content });
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (FOREIGN.has(name)) foreignDepth++;
        if (foreignDepth > 0) return;
        switch (name) {
          case 'html':
            if (!seenHtml) lang = attribs.lang ?? null;
            seenHtml = true;
            break;
          case 'title':
            if (title === null && titleText === null) titleText = '';
            break;
          case 'base':
            if (baseHref === null && attribs.href !== undefined) baseHref = attribs.href;
            break;
          case 'meta': {
            if (attribs.content === undefined) break;
            const content = clip(attribs.content.trim(), HTML_LIMITS.valueChars);
            addMeta(metas, attribs.property, content);
            if (attribs.name !== undefined && attribs.name !== attribs.property)
              addMeta(metas, attribs.name, content);
            addMeta(httpEquiv, attribs['http-equiv'], content);
            break;
          }
          case 'link': {
            const rel = (attribs.rel ?? '')
              .toLowerCase()
              .split(/[\t\n\f\r ]+/)
              .filter(Boolean);
            const href = attribs.href?.trim();
            if (href && rel.some((r) => ICON_RELS.has(r)) && icons.length < HTML_LIMITS.icons)
              icons.push({ rel, href });
            break;
          }
          case 'script': {
            const type = (attribs.type ?? '').split(';')[0]!.trim().toLowerCase();
            if (type === 'application/ld+json' && jsonLd.length < HTML_LIMITS.jsonLdScripts) script = '';
            break;
          }
        }
      },
      ontext(text) {
        if (titleText !== null && titleText.length < HTML_LIMITS.titleChars * 2) titleText += text;
        if (script !== null && script.length <= HTML_LIMITS.jsonLdChars) script += text;
      },
      onclosetag(name) {
        if (FOREIGN.has(name) && foreignDepth > 0) {
          foreignDepth--;
          return;
        }
        if (name === 'title' && titleText !== null) {
          title = clip(collapseSpace(titleText), HTML_LIMITS.titleChars);
          titleText = null;
        } else if (name === 'script' && script !== null) {
          // An oversized script would be cut mid-JSON: it is dropped rather than half-parsed.
          if (script.length <= HTML_LIMITS.jsonLdChars) jsonLd.push(script);
          script = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  // A page cut off by the byte cap may stop inside its <title>; what arrived is still its title.
  if (title === null && titleText !== null) title = clip(collapseSpace(titleText), HTML_LIMITS.titleChars);
  return { title, lang, baseHref, metas, httpEquiv, icons, jsonLd };
}
