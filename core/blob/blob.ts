/**
 * Binary objects referenced by events (screenshots, captured bodies). Adapters: files under DATA_DIR (embedded),
 * PostgreSQL (cluster). One contract suite runs against both.
 * Keys are `<namespace>/<id>` made of [A-Za-z0-9._-] segments; anything else is refused, so a key can never escape
 * the store (no `..`, no absolute paths).
 */
export interface BlobMeta {
  readonly key: string;
  readonly contentType: string;
  readonly size: number;
  /** ISO-8601 UTC. */
  readonly createdAt: string;
}

export interface BlobStore {
  put(key: string, body: Buffer, contentType: string): Promise<BlobMeta>;
  /** Null when absent. */
  get(key: string): Promise<{ meta: BlobMeta; body: Buffer } | null>;
  head(key: string): Promise<BlobMeta | null>;
  /** Returns whether something was deleted. */
  delete(key: string): Promise<boolean>;
  close(): Promise<void>;
}
