/**
 * The store seam for routing state: what several router processes can share so that a deployment embeds each tool
 * text once and routes every process on the same catalog version.
 *
 * Two kinds of state, both content-addressed or versioned so that any number of writers is safe:
 * - embeddings: one vector per (model id, text hash), the hash being `embeddingCacheKey(modelId, text)` (the disk
 *   cache's key). A vector never changes once written, so rows are written idempotently (first writer wins).
 * - catalog versions: per catalog name, a monotone integer version over JSON snapshots of the catalog; publishing
 *   the snapshot the latest version already holds (same digest) returns that version instead of adding one, so N
 *   processes reacting to the same MCP `list_changed` agree on one version.
 *
 * Blobs (optional, `getBlob` / `putBlob`): immutable byte strings under content-hash keys, e.g. a serialized vector
 * index, so a process can load the index another one built instead of rebuilding it. Same rule as embeddings: a key
 * never changes its bytes, so the first writer wins and later writers of the key do nothing. A reader sees a whole
 * blob or none (never a partial write), and the chunked stores verify length and sha256 on every read. Search still
 * runs in-process; the store only carries bytes.
 */
import type { CatalogFile } from "../catalog/catalog.js";

/** Embeds texts (the encoder's `embedDocuments`); a store calls it only for texts it does not hold. */
export type EmbedFn = (texts: string[]) => Promise<number[][]>;

/** What one `embedThrough` call did. */
export interface EmbedThroughResult {
  /** One vector per input text, in input order (float32, as stored). */
  vectors: Float32Array[];
  /** Texts this call sent to the encoder (distinct). */
  embedded: number;
  /** Distinct texts another process embedded while this call waited for it (PostgreSQL only; 0 elsewhere). */
  waited: number;
}

/** A catalog as stored: the shared catalog file format, serializable (function preconditions are left out). */
export type CatalogSnapshot = CatalogFile;

/** One published catalog version. */
export interface CatalogVersionInfo {
  /** Catalog name (one store can hold several catalogs, e.g. one per agent). */
  catalog: string;
  /** Monotone per catalog, starting at 1. */
  version: number;
  /** sha256 (hex) of the snapshot's canonical JSON: equal digests mean equal catalogs. */
  digest: string;
  /** Tools in the snapshot. */
  tools: number;
}

/** A published version with its snapshot. */
export interface StoredCatalog extends CatalogVersionInfo {
  snapshot: CatalogSnapshot;
}

/** What `publishCatalog` did. */
export interface PublishResult extends CatalogVersionInfo {
  /** false when the latest version already held this snapshot (nothing was written). */
  created: boolean;
}

/** What `RoutingStore.pruneBlobs` deletes. */
export interface PruneBlobsOptions {
  /** Blobs neither read nor written for at least this many milliseconds are deleted. */
  unusedForMs: number;
}

/** What `RoutingStore.pruneBlobs` deleted. */
export interface PruneBlobsResult {
  /** Keys of the deleted blobs. */
  deleted: string[];
  /** Their total size in bytes. */
  bytes: number;
}

/** What `RoutingStore.pruneCatalogVersions` keeps. */
export interface PruneCatalogVersionsOptions {
  /** How many of the latest versions to keep: an integer ≥ 1. */
  keep: number;
}

/** What `RoutingStore.pruneCatalogVersions` deleted. */
export interface PruneCatalogVersionsResult {
  /** The deleted version numbers, ascending. */
  deleted: number[];
}

/** Receives catalog version changes (any catalog of the store; filter by `catalog`). */
export type CatalogListener = (change: CatalogVersionInfo) => void;

/**
 * Shared routing state. Implementations: `DiskRoutingStore` (one machine, files), `PostgresRoutingStore` (many
 * processes, exactly-once embedding, LISTEN/NOTIFY), `LangGraphRoutingStore` (over a LangGraph `BaseStore`).
 */
export interface RoutingStore {
  /** "disk" | "postgres" | "langgraph" or a custom name; shown in logs. */
  readonly kind: string;
  /**
   * Vectors of `texts` under `modelId`: read from the store, the missing ones embedded with `embed` and written
   * back. Where the store can coordinate processes (PostgreSQL), each missing text is embedded by exactly one
   * process and the others wait for its rows.
   */
  embedThrough(modelId: string, texts: readonly string[], embed: EmbedFn): Promise<EmbedThroughResult>;
  /** Stored vectors of these texts under `modelId` (missing texts absent from the map, keyed by text). */
  getEmbeddings(modelId: string, texts: readonly string[]): Promise<Map<string, Float32Array>>;
  /**
   * Adds `snapshot` as the catalog's next version, unless the latest version holds the same snapshot (then that
   * version is returned with `created: false`). Listeners of every process sharing the store hear of a new version.
   * `digest`, when given, is `snapshotDigest(snapshot)` computed by the caller (the router keeps it per catalog);
   * the store computes it otherwise.
   */
  publishCatalog(catalog: string, snapshot: CatalogSnapshot, digest?: string): Promise<PublishResult>;
  /** The latest version of a catalog with its snapshot, or undefined when none was published. */
  latestCatalog(catalog: string): Promise<StoredCatalog | undefined>;
  /**
   * The latest version of a catalog without its snapshot, or undefined when none was published. Optional, and worth
   * having: a catalog of 100,000 tools is hundreds of MB of JSON, and a router asks for the latest version on every
   * start (callers fall back to `latestCatalog`).
   */
  latestVersion?(catalog: string): Promise<CatalogVersionInfo | undefined>;
  /** One version of a catalog, or undefined when it does not exist. */
  getCatalog(catalog: string, version: number): Promise<StoredCatalog | undefined>;
  /**
   * Calls `listener` on every new version of `catalog` (published by any process sharing the store, this one
   * included), at least once per version change, possibly late by the store's poll interval. Returns the
   * unsubscribe function. A subscription never keeps the process alive.
   */
  watchCatalog(catalog: string, listener: CatalogListener): Promise<() => void>;
  /**
   * A content-addressed blob (e.g. a serialized vector index) under `key`, or undefined. Keys match
   * `/^[A-Za-z0-9._-]{1,200}$/`. The bytes start at a byteOffset that is a multiple of 4. Throws when a stored blob
   * fails its integrity check (length, sha256).
   */
  getBlob?(key: string): Promise<Uint8Array | undefined>;
  /**
   * Stores a blob under `key` unless one is there (first writer wins; keys are content hashes, so equal keys mean
   * equal bytes). Never leaves a partial blob readable.
   */
  putBlob?(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Deletes the blobs nobody read or wrote for `unusedForMs` milliseconds. Keys are content hashes, so a catalog
   * change or a new index setting leaves the previous snapshots unused but stored (about 160 MB per change at
   * 100,000 tools); a deployment calls this from time to time (a cron job, a deploy step). A blob is marked used
   * when it is read or written, at most once an hour, so `unusedForMs` should be a few hours or more. A process that
   * reads a blob while it is being deleted gets an integrity error and rebuilds the index: nothing is lost.
   */
  pruneBlobs?(options: PruneBlobsOptions): Promise<PruneBlobsResult>;
  /**
   * Deletes every version of `catalog` but the latest `keep` (each holds its whole snapshot: about 200 MB of JSON at
   * 100,000 tools). Version numbers go on from the latest. A router that hears of a version after it was deleted
   * stays on the version it routes on, so keep at least 2 where versions follow each other quickly.
   */
  pruneCatalogVersions?(catalog: string, options: PruneCatalogVersionsOptions): Promise<PruneCatalogVersionsResult>;
  /** Releases what the store owns (pools, listen connections, timers). The store is unusable afterwards. */
  close(): Promise<void>;
}
