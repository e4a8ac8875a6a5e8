import { createHash } from 'node:crypto';
import type { AnySchema, AnySchemaObject, ValidateFunction } from 'ajv';
import { DEFAULT_DRAFT, DRAFT_LABEL, type Draft, draftOfUri, metaSchemaValidator, newAjv } from './drafts.js';
import { Lru } from './lru.js';
import { type ExplainedError, explainErrors, render } from './messages.js';

/** A finding: the JSON Pointer of the value it is about ('' for the document) and a sentence. */
export type SchemaIssue = ExplainedError;

export type CompiledSchema =
  | { readonly ok: true; readonly draft: Draft; validate(data: unknown): SchemaIssue[] }
  /** The schema itself cannot be used; `problems` say why (path '': they concern the document as a whole). */
  | { readonly ok: false; readonly problems: SchemaIssue[] };

export interface SchemaCompilerOptions {
  /**
   * Documents a `$ref` or `$schema` may name by URL (without fragment), e.g. the test suite's remotes. Any
   * other URL is refused: nothing is ever fetched.
   */
  readonly knownDocuments?: ReadonlyMap<string, unknown>;
  /** The draft of a schema without `$schema` (default 2020-12). */
  readonly defaultDraft?: Draft;
  /** Compiled schemas kept, least recently used first out (default 128). */
  readonly cacheSize?: number;
}

/** Meta-schema violations reported per schema, at most. */
const MAX_META_PROBLEMS = 5;

/** Thrown by `loadSchema`: the one way ajv could reach a remote document, and it always refuses. */
class RemoteRefRefused extends Error {
  constructor(readonly uri: string) {
    super(`remote reference ${uri} refused`);
  }
}

const problem = (message: string): CompiledSchema => ({ ok: false, problems: [{ path: '', message }] });

/** Key order does not change a schema, so it does not change the cache key either. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Compiles JSON Schemas of any supported draft into validators that explain their findings, with an LRU cache
 * keyed by the schema's hash. Each schema is compiled in its own ajv instance (see newAjv).
 */
export class SchemaCompiler {
  private readonly known: ReadonlyMap<string, unknown>;
  private readonly defaultDraft: Draft;
  private readonly cache: Lru<string, Promise<CompiledSchema>>;

  constructor(options: SchemaCompilerOptions = {}) {
    this.known = options.knownDocuments ?? new Map();
    this.defaultDraft = options.defaultDraft ?? DEFAULT_DRAFT;
    this.cache = new Lru(options.cacheSize ?? 128);
  }

  /** Never rejects: a schema that cannot be used comes back as `{ok: false, problems}`. */
  compile(schema: unknown): Promise<CompiledSchema> {
    const key = createHash('sha256').update(canonical(schema)).digest('base64url');
    const cached = this.cache.get(key);
    if (cached) return cached;
    const compiled = this.compileUncached(schema);
    this.cache.set(key, compiled);
    return compiled;
  }

  /** The draft a schema is read in: its `$schema`, followed through known documents, or the default. */
  draftOf(schema: unknown): Draft | { problem: string } {
    if (typeof schema === 'boolean') return this.defaultDraft;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return { problem: 'The schema must be a JSON object or a boolean' };
    }
    const declared = (schema as Record<string, unknown>).$schema;
    if (declared === undefined) return this.defaultDraft;
    if (typeof declared !== 'string') return { problem: 'The schema\'s "$schema" must be a string (a URI)' };
    let uri: unknown = declared;
    // A custom meta-schema among the known documents is read in the draft of its own $schema.
    for (let hop = 0; hop < 8 && typeof uri === 'string'; hop++) {
      const draft = draftOfUri(uri);
      if (draft) return draft;
      const doc = this.known.get(uri.replace(/#$/, ''));
      uri = doc && typeof doc === 'object' ? (doc as Record<string, unknown>).$schema : undefined;
    }
    return {
      problem:
        `The schema's "$schema" ${render(declared)} names no draft this service supports ` +
        '(draft 4, 6, 7, 2019-09 or 2020-12); remove it to read the schema as draft 2020-12',
    };
  }

  private async compileUncached(schema: unknown): Promise<CompiledSchema> {
    const draft = this.draftOf(schema);
    if (typeof draft !== 'string') return problem(draft.problem);
    if (typeof schema === 'boolean' && draft === 'draft-04') {
      return problem('Draft 4 has no boolean schemas; use {} for true and {"not": {}} for false');
    }
    const meta = metaSchemaValidator(draft);
    if (!meta(schema)) {
      const found = explainErrors(meta.errors ?? [], 'The schema').slice(0, MAX_META_PROBLEMS);
      return {
        ok: false,
        problems: found.map((p) => ({
          path: '',
          message: `The schema is not valid JSON Schema (${DRAFT_LABEL[draft]}): ${p.message}`,
        })),
      };
    }
    const validate = await this.build(schema as AnySchema, draft);
    if ('problem' in validate) return problem(validate.problem);
    return {
      ok: true,
      draft,
      validate(data) {
        try {
          if (validate(data)) return [];
        } catch (e) {
          // A schema whose references loop without consuming the document ({"$ref": "#"}) overflows the
          // stack.
          if (e instanceof RangeError) return [{ path: '', message: LOOPING }];
          throw e;
        }
        return explainErrors(validate.errors ?? []);
      },
    };
  }

  private async build(schema: AnySchema, draft: Draft): Promise<ValidateFunction | { problem: string }> {
    const known = this.known;
    const ajv = newAjv(draft, {
      loadSchema: async (uri) => {
        const doc = known.get(uri);
        if (doc && typeof doc === 'object') return doc as AnySchemaObject;
        throw new RemoteRefRefused(uri);
      },
    });
    try {
      if (typeof schema === 'boolean') return ajv.compile(schema);
      // The draft is known by now. Left in place, $schema would make ajv compile its meta-schema again in
      // this fresh instance (tens of milliseconds), or look up a spelling it does not know (https, `#`).
      const { $schema: _declared, ...target } = schema;
      return await ajv.compileAsync(target);
    } catch (e) {
      return { problem: explainCompileError(e) };
    }
  }
}

function explainCompileError(e: unknown): string {
  if (e instanceof RemoteRefRefused) {
    if (e.uri === '' || e.uri.startsWith('#')) return missingLocal(e.uri);
    return (
      `The schema refers to ${render(e.uri)}, a document this service does not have: remote references are ` +
      'never fetched. Put the referenced schema under "$defs" and refer to it locally ("#/$defs/…")'
    );
  }
  const message = e instanceof Error ? e.message : String(e);
  const unresolved =
    /is loaded but (.*) cannot be resolved/.exec(message) ?? /can't resolve reference (\S*)/.exec(message);
  if (unresolved) return missingLocal(unresolved[1]!);
  if (e instanceof SyntaxError && /regular expression/i.test(message)) {
    return `The schema contains a pattern that is not a valid regular expression: ${message}`;
  }
  return `The schema cannot be compiled: ${message.split('\n')[0]}`;
}

const LOOPING =
  'The schema cannot be applied: its references loop without ever reaching a keyword that checks the ' +
  'document';

const missingLocal = (ref: string) =>
  `The schema refers to ${render(ref)}, which does not exist in the schema (check "$ref" and "$defs")`;
