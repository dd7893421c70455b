/**
 * Routing state on PostgreSQL, shared by every process of a deployment (through the optional peer `pg`).
 *
 * Schema (created on first use, in `options.schema`, default "tool_attention"):
 *   embeddings(model_id text, text_hash text, text text, dim int, vector bytea, created_at)
 *     PRIMARY KEY (model_id, text_hash); text_hash = sha256(model_id "\0" text) hex (the disk cache's key), vector =
 *     float32 little-endian bytes. Rows are only ever inserted, with ON CONFLICT DO NOTHING: a vector is a pure
 *     function of (model, text), so the first writer wins and no row is duplicated.
 *   catalog_versions(catalog text, version bigint, digest text, tools int, snapshot json, created_at)
 *     PRIMARY KEY (catalog, version). `json`, not `jsonb`: jsonb reorders object keys, which would reorder a
 *     schema's properties, and with them the parameter part of a tool's routing text in a following process.
 *   blob_chunks(key text, seq int, data bytea) PRIMARY KEY (key, seq): a blob cut into `blobChunkBytes` pieces
 *     (8 MiB): one bytea value is capped at 1 GB, and a driver holds a whole value (and its text encoding) in memory
 *     at once. Column storage EXTERNAL: out of line, uncompressed; vector bytes do not compress, and trying costs
 *     CPU on every write and read.
 *   blob_heads(key text PRIMARY KEY, chunks int, chunk_bytes int, bytes bigint, sha256 text, created_at): written in
 *     the same transaction as the chunks, after them. A blob exists when its head does: a reader looks up the head
 *     first, so chunks without a head (a writer that never committed cannot leave any; rows written by hand can) are
 *     never returned, and the next writer of the key replaces them.
 *   blob_uses(key text PRIMARY KEY, used_at): when a blob was last read or written (marked at most once an hour; a
 *     blob without a row counts as used when created). `pruneBlobs` deletes the blobs unused for longer than asked,
 *     head and chunks in one transaction under the key's writer lock. A separate table, so that stores created
 *     before it need no ALTER TABLE (which would queue every start behind running blob reads).
 *
 * Blobs: `putBlob` runs in one transaction under a transaction-level advisory lock per key and writes nothing when
 * the head exists, so concurrent writers of one key both succeed and leave one copy (the second waits for the first
 * to commit, then sees its head). `getBlob` reads the head, then the chunks two at a time over two pooled
 * connections, each copied straight into one buffer of the head's length; every chunk's position and length and
 * the whole blob's sha256 are checked against the head. The chunks come by `COPY … TO STDOUT (FORMAT binary)`, raw
 * bytes, each in 1 MiB slices (`COPY_SLICE_BYTES` in pg-blob-read.ts: smaller protocol messages spare the driver its
 * growing buffers): a plain SELECT gets a bytea as hex text (twice the size, parsed by pg), and pg 8's binary result mode
 * decodes every field as UTF-8 text, which corrupts arbitrary bytes. Where COPY cannot run through the pool's client
 * (pg-native, pg's pipeline mode), the store falls back to `encode(data, 'base64')` text, decoded in place. A 218 MB
 * blob from a local server on 2 cores, sha256 included: about 0.8 s by COPY, 1.1 s as base64, 2.5–3.5 s through
 * pg's own bytea parsing (dev runs, 2026-11-23). Blobs stay until `pruneBlobs` deletes the unused ones (blob_uses).
 *
 * Exactly-once embedding (`embedThrough`): a process reads the rows it needs; for the missing texts it takes
 * session-level advisory locks keyed by the first 64 bits of each text hash, `lockBatch` texts at a time with
 * `pg_try_advisory_lock`, so processes starting together split the work instead of queueing behind each other.
 * Under its locks it reads again (a previous holder may have just written the row), embeds what is still missing,
 * inserts, and unlocks. Texts locked by another process are waited for: re-read every `waitPollMs`, and when their
 * lock comes free without a row (the holder died: PostgreSQL releases a dead session's locks), taken over. A killed
 * worker therefore loses at most the batch it was embedding, and nothing it committed. Locks are per batch of text
 * hashes, never for the whole catalog, so at most `lockBatch` lock slots per process are in use (the shared lock
 * table holds max_locks_per_transaction × max_connections, 6,400 by default).
 *
 * Catalog versions: `publishCatalog` runs in one transaction under a transaction-level advisory lock per catalog
 * name, adds version = latest + 1 unless the latest holds the same digest, and `pg_notify`s the channel
 * `<schema>_catalog` (delivered on commit). `watchCatalog` LISTENs on a dedicated connection whose socket is
 * unref'd (it never keeps the process alive) and also polls the latest version every `pollMs` (unref'd timer), so
 * a dropped listen connection or a pooler without LISTEN (pgbouncer in transaction mode: set `listen: false`)
 * still converges, late by at most `pollMs`. The poll reconnects a dropped listen connection.
 */
import { createSchema, SCHEMA_IDENT } from "./pg-schema.js";
import { loadPg, type PgPoolLike, type PgStoreAccess } from "./pg-driver.js";
import { PgEmbeddings } from "./pg-leases.js";
import { PgBlobs } from "./pg-blobs.js";
import { PgCatalogVersions } from "./pg-catalogs.js";
import { PgCatalogWatch } from "./pg-notify.js";
import type {
  CatalogListener,
  CatalogSnapshot,
  CatalogVersionInfo,
  EmbedFn,
  EmbedThroughResult,
  PruneBlobsOptions,
  PruneBlobsResult,
  PruneCatalogVersionsOptions,
  PruneCatalogVersionsResult,
  PublishResult,
  RoutingStore,
  StoredCatalog,
} from "./types.js";

// The store's parts, by concern: the driver seam (pg-driver.ts), the tables (pg-schema.ts), embedding leases
// (pg-leases.ts), blobs (pg-blobs.ts, read by pg-blob-read.ts), catalog versions (pg-catalogs.ts) and their
// notifications (pg-notify.ts). Names other modules import from here stay exported here.
export {
  PG_PACKAGE,
  PG_INSTALL_COMMAND,
  checkCatalogName,
  loadPg,
  type PgClientLike,
  type PgPoolLike,
  type PgQueryResultLike,
} from "./pg-driver.js";
export { BLOB_READ_PARALLEL, BlobAssembly, BlobDamagedError, readBlobByCopy } from "./pg-blob-read.js";

/** Options of {@link PostgresRoutingStore}. Give `connectionString` or `pool`. */
export interface PostgresRoutingStoreOptions {
  /** `postgres://user:password@host:port/database`. The store creates (and `close()` ends) its own pool. */
  connectionString?: string;
  /** An existing `pg.Pool` (e.g. the one your LangGraph `PostgresStore` uses). Yours: `close()` does not end it. */
  pool?: PgPoolLike;
  /** Schema holding the tables, created if missing. Default "tool_attention". Lower-case letters, digits, `_`. */
  schema?: string;
  /** Connections of the pool the store creates. Default 4 (one per concurrent embed, one for reads). */
  maxConnections?: number;
  /**
   * Texts locked, embedded and inserted per step. Default 256: large enough that the encoder batches well, small
   * enough that a killed process loses little work and that lock slots stay few.
   */
  lockBatch?: number;
  /** How often to re-read texts another process is embedding, in ms. Default 100. */
  waitPollMs?: number;
  /** Give up waiting for another process's texts after this many ms (its session alive, no rows). Default 600,000. */
  waitTimeoutMs?: number;
  /** LISTEN/NOTIFY for catalog versions. Default true; false (e.g. behind pgbouncer transaction pooling) polls only. */
  listen?: boolean;
  /** Poll interval of `watchCatalog`, in ms, the bound on a missed notification. Default 5,000; 0 turns polling off. */
  pollMs?: number;
  /** Where one-line warnings go (listen connection lost, pool errors). Default `console.warn`. */
  warn?: (message: string) => void;
  /**
   * Bytes per row of a blob written by this store (`putBlob`). Default 8 MiB (8,388,608). Readers take the size from
   * the blob's head, so stores with different settings share blobs.
   */
  blobChunkBytes?: number;
  /**
   * Blobs of at least this many bytes (index snapshots of large catalogs: 116 and 42 MB at 100,000 tools) are read in
   * a worker thread with its own connections, so that receiving, assembling and checking them neither blocks the host's
   * event loop nor competes with the router's own start-up work. Only for a store given `connectionString` (a pool
   * you pass cannot be shared with a thread). Default 16 MiB (16,777,216); 0 reads every blob on the calling thread.
   */
  blobThreadMinBytes?: number;
}

/** Default `blobThreadMinBytes` of the PostgreSQL store. */
export const DEFAULT_PG_BLOB_THREAD_MIN_BYTES = 16 * 1024 * 1024;

/** Default `blobChunkBytes` of the PostgreSQL store. */
export const DEFAULT_PG_BLOB_CHUNK_BYTES = 8 * 1024 * 1024;

function positiveInt(option: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw new Error(`PostgresRoutingStore: options.${option} must be an integer from ${min} to ${max} (got ${String(value)})`);
  return value;
}

/** Routing state on PostgreSQL: see the module comment for the schema, the locking and the notifications. */
export class PostgresRoutingStore implements RoutingStore {
  readonly kind = "postgres";
  readonly schema: string;
  /** The NOTIFY channel of catalog versions: `<schema>_catalog`. */
  readonly channel: string;
  /** Blobs read in a reader thread and on the calling thread (diagnostics, tests). */
  readonly blobReads = { thread: 0, calling: 0 };
  private readonly options: PostgresRoutingStoreOptions;
  private readonly ownsPool: boolean;
  private pool?: PgPoolLike;
  private readonly warn: (message: string) => void;
  private ready?: Promise<PgPoolLike>;
  private closed = false;
  private readonly embeddings: PgEmbeddings;
  private readonly blobs: PgBlobs;
  private readonly versions: PgCatalogVersions;
  private readonly watch: PgCatalogWatch;

  constructor(options: PostgresRoutingStoreOptions) {
    if (!options || typeof options !== "object") throw new Error("PostgresRoutingStore: options are required ({ connectionString } or { pool })");
    const { connectionString, pool } = options;
    if (connectionString === undefined && pool === undefined)
      throw new Error("PostgresRoutingStore: give options.connectionString (postgres://…) or options.pool (a pg.Pool)");
    if (connectionString !== undefined && pool !== undefined)
      throw new Error("PostgresRoutingStore: give options.connectionString or options.pool, not both");
    if (connectionString !== undefined && (typeof connectionString !== "string" || !/^postgres(ql)?:\/\//.test(connectionString)))
      throw new Error(`PostgresRoutingStore: options.connectionString must be a postgres:// or postgresql:// URL`);
    if (pool !== undefined && (typeof pool?.connect !== "function" || typeof pool?.query !== "function"))
      throw new Error("PostgresRoutingStore: options.pool must be a pg.Pool (an object with connect() and query())");
    this.schema = options.schema ?? "tool_attention";
    if (typeof this.schema !== "string" || !SCHEMA_IDENT.test(this.schema))
      throw new Error(`PostgresRoutingStore: options.schema must be a lower-case identifier (letters, digits, _; got ${JSON.stringify(options.schema)})`);
    this.channel = `${this.schema}_catalog`;
    positiveInt("maxConnections", options.maxConnections, 4, 2, 1000);
    const lockBatch = positiveInt("lockBatch", options.lockBatch, 256, 1, 4096);
    const waitPollMs = positiveInt("waitPollMs", options.waitPollMs, 100, 1, 60_000);
    const waitTimeoutMs = positiveInt("waitTimeoutMs", options.waitTimeoutMs, 600_000, 1, 86_400_000);
    const pollMs = positiveInt("pollMs", options.pollMs, 5_000, 0, 3_600_000);
    const blobChunkBytes = positiveInt("blobChunkBytes", options.blobChunkBytes, DEFAULT_PG_BLOB_CHUNK_BYTES, 1024, 64 * 1024 * 1024);
    const blobThreadMinBytes = positiveInt("blobThreadMinBytes", options.blobThreadMinBytes, DEFAULT_PG_BLOB_THREAD_MIN_BYTES, 0, Number.MAX_SAFE_INTEGER);
    if (options.listen !== undefined && typeof options.listen !== "boolean") throw new Error("PostgresRoutingStore: options.listen must be a boolean");
    if (options.listen === false && pollMs === 0)
      throw new Error("PostgresRoutingStore: options.listen false and options.pollMs 0 would never see another process's catalog change");
    this.options = options;
    this.ownsPool = pool === undefined;
    this.pool = pool;
    this.warn = options.warn ?? ((m) => console.warn(m));
    // What the store's parts (embeddings, blobs, catalog versions, notifications) use of the store.
    const access: PgStoreAccess = {
      schema: this.schema,
      q: `"${this.schema}"`,
      connect: () => this.connect(),
      warn: this.warn,
      isClosed: () => this.closed,
    };
    this.embeddings = new PgEmbeddings(access, { lockBatch, waitPollMs, waitTimeoutMs });
    this.blobs = new PgBlobs(access, { connectionString, blobChunkBytes, blobThreadMinBytes, blobReads: this.blobReads });
    this.versions = new PgCatalogVersions(access, this.channel);
    this.watch = new PgCatalogWatch(access, { channel: this.channel, listen: options.listen, pollMs, connectionString, pool: () => this.pool });
  }

  /** Loads `pg`, opens the pool and creates the schema (once). Called by every operation; call it to fail early. */
  connect(): Promise<PgPoolLike> {
    if (this.closed) return Promise.reject(new Error("PostgresRoutingStore: the store is closed"));
    this.ready ??= this.init().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async init(): Promise<PgPoolLike> {
    if (!this.pool) {
      const pg = await loadPg();
      // allowExitOnIdle: idle pooled connections never keep the host process alive.
      this.pool = new pg.Pool({
        connectionString: this.options.connectionString,
        max: this.options.maxConnections ?? 4,
        allowExitOnIdle: true,
      });
      // An idle connection's error (server restart) would otherwise be an unhandled 'error' event.
      this.pool.on?.("error", (err) => this.warn(`[tool-attention] postgres store: idle connection error (${err.message})`));
    }
    const pool = this.pool;
    await createSchema(pool, this.schema);
    return pool;
  }

  getEmbeddings(modelId: string, texts: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.embeddings.getEmbeddings(modelId, texts);
  }

  embedThrough(modelId: string, texts: readonly string[], embed: EmbedFn): Promise<EmbedThroughResult> {
    return this.embeddings.embedThrough(modelId, texts, embed);
  }

  getBlob(key: string): Promise<Uint8Array | undefined> {
    return this.blobs.getBlob(key);
  }

  putBlob(key: string, bytes: Uint8Array): Promise<void> {
    return this.blobs.putBlob(key, bytes);
  }

  /** Deletes the blobs unused for at least `unusedForMs` (see `RoutingStore.pruneBlobs`). */
  pruneBlobs(options: PruneBlobsOptions): Promise<PruneBlobsResult> {
    return this.blobs.pruneBlobs(options);
  }

  publishCatalog(catalog: string, snapshot: CatalogSnapshot, digest?: string): Promise<PublishResult> {
    return this.versions.publishCatalog(catalog, snapshot, digest);
  }

  /** Deletes every version of `catalog` but the latest `keep` (see `RoutingStore.pruneCatalogVersions`). */
  pruneCatalogVersions(catalog: string, options: PruneCatalogVersionsOptions): Promise<PruneCatalogVersionsResult> {
    return this.versions.pruneCatalogVersions(catalog, options);
  }

  latestCatalog(catalog: string): Promise<StoredCatalog | undefined> {
    return this.versions.latestCatalog(catalog);
  }

  latestVersion(catalog: string): Promise<CatalogVersionInfo | undefined> {
    return this.versions.latestVersion(catalog);
  }

  getCatalog(catalog: string, version: number): Promise<StoredCatalog | undefined> {
    return this.versions.getCatalog(catalog, version);
  }

  watchCatalog(catalog: string, listener: CatalogListener): Promise<() => void> {
    return this.watch.watchCatalog(catalog, listener);
  }

  /** Stops watching, closes the listen connection, and ends the pool when the store created it. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watch.dropListeners();
    await this.blobs.close();
    await this.watch.stopWatching();
    await this.ready?.catch(() => undefined);
    if (this.ownsPool && this.pool) await this.pool.end().catch(() => undefined);
  }
}
