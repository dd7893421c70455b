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
 * bytes: a plain SELECT gets a bytea as hex text (twice the size, parsed by pg), and pg 8's binary result mode
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
import { createHash } from "node:crypto";
import { advisoryKey, BLOB_USE_MARK_MS, blobDigest, bytesToVector, checkBlobBytes, checkBlobKey, checkKeep, checkUnusedForMs, checkVectors, textKey, vectorToBytes } from "./codec.js";
import { digestFor } from "./snapshot.js";
import { readBlobInThread } from "./pg-blob-thread.js";
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

/** The npm package `PostgresRoutingStore` loads lazily, and how to install it. */
export const PG_PACKAGE = "pg";
export const PG_INSTALL_COMMAND = "npm install pg@^8";

/** The subset of a `pg` query result the store reads. */
export interface PgQueryResultLike {
  rows: Record<string, unknown>[];
}
/**
 * The subset of a `pg.PoolClient` the store uses. `getBlob` also hands it pg Submittable objects (a COPY); a client
 * that does not run them makes the store read blobs as base64 text instead.
 */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<PgQueryResultLike>;
  release(destroy?: boolean | Error): void;
}
/** The subset of a `pg.Pool` the store uses (a `pg.Pool` you own fits). */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  query(text: string, values?: unknown[]): Promise<PgQueryResultLike>;
  end(): Promise<void>;
  on?(event: "error", listener: (err: Error) => void): unknown;
  /** pg.Pool keeps its connection settings here; used to open the LISTEN connection. */
  options?: Record<string, unknown>;
}

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
/** Chunks a `getBlob` fetches at once (each on its own pooled connection): PostgreSQL reads one while Node takes in another. */
export const BLOB_READ_PARALLEL = 2;

interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPoolLike;
  Client: new (config: Record<string, unknown>) => PgListenClient;
}
interface PgListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  unref?(): void;
  ref?(): void;
  on(event: "notification", listener: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: "error" | "end", listener: (err?: Error) => void): unknown;
}

let pgModule: Promise<PgModule> | undefined;
/** Loads `pg` once per thread; a missing package fails with the install command. */
export function loadPg(): Promise<PgModule> {
  pgModule ??= (async () => {
    try {
      const name: string = PG_PACKAGE;
      const mod = (await import(name)) as { default?: PgModule } & PgModule;
      return mod.default ?? mod;
    } catch (err) {
      pgModule = undefined;
      throw new Error(
        `PostgresRoutingStore needs the "${PG_PACKAGE}" package, an optional peer dependency of tool-attention. ` +
          `Install it with: ${PG_INSTALL_COMMAND} (${(err as Error)?.message ?? err})`,
        { cause: err },
      );
    }
  })();
  return pgModule;
}

const IDENT = /^[a-z_][a-z0-9_]{0,40}$/;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const chunks = <T>(xs: readonly T[], n: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
};
const lockKeyOf = (label: string) => advisoryKey(createHash("sha256").update(label).digest("hex"));

function positiveInt(option: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw new Error(`PostgresRoutingStore: options.${option} must be an integer from ${min} to ${max} (got ${String(value)})`);
  return value;
}

/** Checks a catalog name argument; names the argument when it is bad. */
export function checkCatalogName(where: string, catalog: unknown): string {
  if (typeof catalog !== "string" || catalog === "" || catalog.length > 200)
    throw new Error(`${where}: catalog name must be a non-empty string of at most 200 characters (got ${JSON.stringify(catalog)})`);
  return catalog;
}

/** A stored blob that fails a check against its head: reported, never returned, and no reason to change read path. */
export class BlobDamagedError extends Error {}

/**
 * Waits for every fetch of a blob, then throws the first failure (damage before anything else). Unlike Promise.all,
 * no fetch is still writing into the blob's buffer when the caller retries on another path.
 */
async function settleAll(fetches: Promise<void>[]): Promise<void> {
  const failures = (await Promise.allSettled(fetches)).filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
  if (failures.length > 0) throw failures.find((e) => e instanceof BlobDamagedError) ?? failures[0];
}

/**
 * One blob being read: chunks arrive in any order and are copied to their place in one buffer of the head's length,
 * each checked against the head (position, length, once); the sha256 runs over them in order as they complete.
 */
export class BlobAssembly {
  /** allocUnsafeSlow: a buffer of its own (never a slice of the shared pool), so byteOffset 0 and typed views align. */
  readonly out: Buffer;
  private done: boolean[] = [];
  private hashed = 0;
  private hash = createHash("sha256");

  constructor(
    readonly key: string,
    readonly chunks: number,
    readonly chunkBytes: number,
    readonly total: number,
  ) {
    if (!(chunkBytes > 0) || !(total >= 0) || !Number.isInteger(chunks) || chunks !== Math.ceil(total / chunkBytes))
      throw this.damaged(`its head says ${chunks} chunks of ${chunkBytes} bytes for ${total} bytes`);
    this.out = Buffer.allocUnsafeSlow(total);
    this.reset();
  }

  damaged(what: string): BlobDamagedError {
    return new BlobDamagedError(`PostgresRoutingStore.getBlob: blob "${this.key}" is damaged (${what})`);
  }

  reset(): void {
    this.done = new Array<boolean>(this.chunks).fill(false);
    this.hashed = 0;
    this.hash = createHash("sha256");
  }

  /** Offset of chunk `seq` holding `length` bytes; throws unless that is where the head puts it. */
  private slot(seq: number, length: number): number {
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.chunks) throw this.damaged(`a chunk numbered ${seq}, of ${this.chunks}`);
    if (this.done[seq]) throw this.damaged(`chunk ${seq} came twice`);
    const off = seq * this.chunkBytes;
    const expected = Math.min(this.chunkBytes, this.total - off);
    if (length !== expected) throw this.damaged(`chunk ${seq} holds ${length} bytes, expected ${expected}`);
    return off;
  }

  put(seq: number, bytes: Uint8Array): void {
    this.out.set(bytes, this.slot(seq, bytes.byteLength));
    this.filled(seq);
  }

  putBase64(seq: number, length: number, b64: string): void {
    const off = this.slot(seq, length);
    // Decodes in place; the decoder skips the newlines PostgreSQL puts in base64.
    const wrote = this.out.write(b64, off, length, "base64");
    if (wrote !== length) throw this.damaged(`chunk ${seq} decoded to ${wrote} bytes, expected ${length}`);
    this.filled(seq);
  }

  private filled(seq: number): void {
    this.done[seq] = true;
    // Hash in order as the chunks complete, while other fetches are on the wire.
    for (; this.hashed < this.chunks && this.done[this.hashed]; this.hashed++) {
      const off = this.hashed * this.chunkBytes;
      this.hash.update(this.out.subarray(off, Math.min(this.total, off + this.chunkBytes)));
    }
  }

  /** The blob, once every chunk arrived and the digest matches the head's. */
  finish(sha256: string): Buffer {
    const missing = this.done.indexOf(false);
    if (missing >= 0) throw this.damaged(`chunk ${missing} of ${this.chunks} is missing`);
    const digest = this.hash.digest("hex");
    if (digest !== sha256) throw this.damaged(`sha256 ${digest}, its head says ${sha256}`);
    return this.out;
  }
}

/**
 * The fast path of reading a blob: each chunk by `COPY … TO STDOUT (FORMAT binary)`, its bytes copied straight into
 * the blob. `table` is the quoted `schema.blob_chunks`. Runs on the store's thread or in its blob reader thread.
 */
export async function readBlobByCopy(pool: PgPoolLike, table: string, blob: BlobAssembly): Promise<void> {
  let next = 0;
  const reader = async () => {
    const client = await pool.connect();
    let broken: unknown;
    try {
      // pg's JavaScript Client hands a Submittable its protocol connection; pg-native runs Submittables differently
      // (and would fail outside this call), other drivers not at all.
      if (typeof (client as { connection?: { query?: unknown } }).connection?.query !== "function")
        throw new Error("the pool's clients are not pg's JavaScript Client");
      while (next < blob.chunks) {
        const seq = next++;
        // COPY takes no parameters: the key is inlined, safe because BLOB_KEY_PATTERN admits no quote or backslash.
        const copy = new CopyOutQuery(
          `COPY (SELECT seq, data FROM ${table} WHERE key = '${blob.key}' AND seq = ${seq}) TO STDOUT (FORMAT binary)`,
          (fields) => {
            if (fields.length !== 2 || fields[0]?.length !== 4 || !fields[1]) throw blob.damaged(`chunk ${seq} came back as an unexpected COPY row`);
            blob.put(fields[0].readInt32BE(0), fields[1]);
          },
        );
        const returned = (client.query as unknown as (query: CopyOutQuery) => unknown)(copy);
        // pg returns the submittable itself; anything else (a promise) is a client that does not run it.
        if (returned !== copy) {
          (returned as Promise<unknown> | undefined)?.catch?.(() => undefined);
          throw new Error("the pool's client does not run pg Submittable queries");
        }
        await copy.done;
      }
    } catch (err) {
      broken = err;
      next = blob.chunks; // the other reader takes no further chunk
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  };
  await settleAll(Array.from({ length: Math.min(BLOB_READ_PARALLEL, blob.chunks) }, reader));
}

/**
 * `COPY … TO STDOUT (FORMAT binary)` as a pg Submittable (the interface pg-cursor and pg-copy-streams use:
 * `client.query(submittable)` calls `submit(connection)` and then the `handle*` methods as messages arrive). The
 * protocol sends one CopyData message per row; the first also carries the binary format's header, the last one is
 * the trailer. Fields are handed over as views of pg's receive buffer, valid during the call only.
 */
class CopyOutQuery {
  readonly done: Promise<void>;
  private settle!: (err?: unknown) => void;
  private failed: unknown;
  private settled = false;
  private headerSeen = false;

  constructor(
    readonly text: string,
    private readonly onRow: (fields: (Buffer | null)[]) => void,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (err) => {
        if (this.settled) return;
        this.settled = true;
        if (err) reject(err);
        else resolve();
      };
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(msg: { chunk: Buffer }): void {
    if (this.failed) return;
    try {
      const b = msg.chunk;
      let p = 0;
      if (!this.headerSeen) {
        // "PGCOPY\n\xff\r\n\0", int32 flags, int32 length of the header extension, the extension.
        if (b.length < 19 || b.toString("latin1", 0, 11) !== "PGCOPY\n\xff\r\n\0") throw new Error("COPY: not a binary COPY stream");
        p = 19 + b.readUInt32BE(15);
        this.headerSeen = true;
      }
      const n = b.readInt16BE(p);
      p += 2;
      if (n === -1) return; // the trailer
      const fields: (Buffer | null)[] = [];
      for (let i = 0; i < n; i++) {
        const len = b.readInt32BE(p);
        p += 4;
        if (len === -1) fields.push(null);
        else {
          if (p + len > b.length) throw new Error("COPY: a field runs past its row");
          fields.push(b.subarray(p, p + len));
          p += len;
        }
      }
      this.onRow(fields);
    } catch (err) {
      // Reported once the server is done with the statement (ReadyForQuery), so the connection stays usable.
      this.failed = err;
    }
  }

  handleError(err: unknown): void {
    // Immediately: a dropped connection sends no ReadyForQuery.
    this.settle(err);
  }

  handleReadyForQuery(): void {
    this.settle(this.failed);
  }

  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
}

/** Routing state on PostgreSQL: see the module comment for the schema, the locking and the notifications. */
export class PostgresRoutingStore implements RoutingStore {
  readonly kind = "postgres";
  readonly schema: string;
  /** The NOTIFY channel of catalog versions: `<schema>_catalog`. */
  readonly channel: string;
  private readonly options: PostgresRoutingStoreOptions;
  private readonly ownsPool: boolean;
  private pool?: PgPoolLike;
  private readonly lockBatch: number;
  private readonly waitPollMs: number;
  private readonly waitTimeoutMs: number;
  private readonly pollMs: number;
  private readonly blobChunkBytes: number;
  private readonly blobThreadMinBytes: number;
  /** Large blobs are read in a thread until that fails once for want of support (see `getBlob`). */
  private blobThreads: boolean;
  private readonly readerThreads = new Set<{ terminate(): Promise<number> }>();
  /** Blobs read in a reader thread and on the calling thread (diagnostics, tests). */
  readonly blobReads = { thread: 0, calling: 0 };
  /** Blobs are read by COPY until that fails once for want of support (see `getBlob`). */
  private copyBlobs = true;
  private readonly warn: (message: string) => void;
  private ready?: Promise<PgPoolLike>;
  private closed = false;
  // Catalog watching: listeners per catalog, the last version each was told about, the listen connection, the poll.
  private readonly listeners = new Map<string, Set<CatalogListener>>();
  private readonly known = new Map<string, number>();
  private listenClient?: Promise<PgListenClient | undefined>;
  private pollTimer?: NodeJS.Timeout;

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
    if (typeof this.schema !== "string" || !IDENT.test(this.schema))
      throw new Error(`PostgresRoutingStore: options.schema must be a lower-case identifier (letters, digits, _; got ${JSON.stringify(options.schema)})`);
    this.channel = `${this.schema}_catalog`;
    positiveInt("maxConnections", options.maxConnections, 4, 2, 1000);
    this.lockBatch = positiveInt("lockBatch", options.lockBatch, 256, 1, 4096);
    this.waitPollMs = positiveInt("waitPollMs", options.waitPollMs, 100, 1, 60_000);
    this.waitTimeoutMs = positiveInt("waitTimeoutMs", options.waitTimeoutMs, 600_000, 1, 86_400_000);
    this.pollMs = positiveInt("pollMs", options.pollMs, 5_000, 0, 3_600_000);
    this.blobChunkBytes = positiveInt("blobChunkBytes", options.blobChunkBytes, DEFAULT_PG_BLOB_CHUNK_BYTES, 1024, 64 * 1024 * 1024);
    this.blobThreadMinBytes = positiveInt("blobThreadMinBytes", options.blobThreadMinBytes, DEFAULT_PG_BLOB_THREAD_MIN_BYTES, 0, Number.MAX_SAFE_INTEGER);
    this.blobThreads = this.blobThreadMinBytes > 0;
    if (options.listen !== undefined && typeof options.listen !== "boolean") throw new Error("PostgresRoutingStore: options.listen must be a boolean");
    if (options.listen === false && this.pollMs === 0)
      throw new Error("PostgresRoutingStore: options.listen false and options.pollMs 0 would never see another process's catalog change");
    this.options = options;
    this.ownsPool = pool === undefined;
    this.pool = pool;
    this.warn = options.warn ?? ((m) => console.warn(m));
  }

  private get q(): string {
    return `"${this.schema}"`;
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
    const client = await pool.connect();
    let failed: unknown;
    try {
      // Concurrent CREATE … IF NOT EXISTS can still collide in the catalogs; one process creates, the others wait.
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention schema ${this.schema}`)]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.q}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.q}.embeddings (
           model_id text NOT NULL,
           text_hash text NOT NULL,
           text text NOT NULL,
           dim int NOT NULL,
           vector bytea NOT NULL,
           created_at timestamptz NOT NULL DEFAULT now(),
           PRIMARY KEY (model_id, text_hash))`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.q}.catalog_versions (
           catalog text NOT NULL,
           version bigint NOT NULL,
           digest text NOT NULL,
           tools int NOT NULL,
           snapshot json NOT NULL,
           created_at timestamptz NOT NULL DEFAULT now(),
           PRIMARY KEY (catalog, version))`,
      );
      // SET STORAGE only when creating: ALTER TABLE takes an exclusive lock, which every process start would
      // otherwise queue behind running blob reads.
      const chunksExist = await client.query(`SELECT to_regclass($1) AS t`, [`${this.q}.blob_chunks`]);
      if (!chunksExist.rows[0]?.t) {
        await client.query(
          `CREATE TABLE ${this.q}.blob_chunks (
             key text NOT NULL,
             seq int NOT NULL,
             data bytea NOT NULL,
             PRIMARY KEY (key, seq))`,
        );
        await client.query(`ALTER TABLE ${this.q}.blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL`);
      }
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.q}.blob_heads (
           key text PRIMARY KEY,
           chunks int NOT NULL,
           chunk_bytes int NOT NULL,
           bytes bigint NOT NULL,
           sha256 text NOT NULL,
           created_at timestamptz NOT NULL DEFAULT now())`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.q}.blob_uses (
           key text PRIMARY KEY,
           used_at timestamptz NOT NULL DEFAULT now())`,
      );
      await client.query("COMMIT");
    } catch (err) {
      failed = err;
      await client.query("ROLLBACK").catch(() => undefined);
      throw new Error(`PostgresRoutingStore: cannot create the tables in schema "${this.schema}": ${(err as Error)?.message ?? err}`, { cause: err });
    } finally {
      client.release(failed ? true : undefined);
    }
    return pool;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Embeddings
  // -------------------------------------------------------------------------------------------------------------

  private async fetch(db: PgPoolLike | PgClientLike, modelId: string, keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (const part of chunks(keys, 5000)) {
      const r = await db.query(`SELECT text_hash, vector FROM ${this.q}.embeddings WHERE model_id = $1 AND text_hash = ANY($2::text[])`, [modelId, part]);
      for (const row of r.rows) out.set(row.text_hash as string, bytesToVector(row.vector as Buffer, `vector of ${row.text_hash}`));
    }
    return out;
  }

  async getEmbeddings(modelId: string, texts: readonly string[]): Promise<Map<string, Float32Array>> {
    checkModelId("getEmbeddings", modelId);
    const pool = await this.connect();
    const keys = new Map(texts.map((t) => [textKey(modelId, t), t]));
    const rows = await this.fetch(pool, modelId, [...keys.keys()]);
    return new Map([...rows].map(([k, v]) => [keys.get(k)!, v]));
  }

  async embedThrough(modelId: string, texts: readonly string[], embed: EmbedFn): Promise<EmbedThroughResult> {
    checkModelId("embedThrough", modelId);
    const pool = await this.connect();
    const keyOf = texts.map((t) => textKey(modelId, t));
    const textOf = new Map<string, string>();
    keyOf.forEach((k, i) => textOf.set(k, texts[i]));
    const have = await this.fetch(pool, modelId, [...textOf.keys()]);
    let embedded = 0;
    let waited = 0;
    const missing = [...textOf.keys()].filter((k) => !have.has(k));
    if (missing.length > 0) {
      // One connection for the whole call: session advisory locks belong to it.
      const client = await pool.connect();
      let broken: unknown;
      try {
        let pending: string[] = [];
        for (const part of chunks(missing, this.lockBatch)) {
          const mine = await this.tryLock(client, part);
          pending.push(...part.filter((k) => !mine.has(k)));
          if (mine.size > 0) embedded += await this.embedLocked(client, modelId, [...mine], textOf, embed, have);
        }
        // Texts another process holds: wait for its rows; take over those whose lock frees without a row.
        const deadline = Date.now() + this.waitTimeoutMs;
        while (pending.length > 0) {
          const rows = await this.fetch(client, modelId, pending);
          for (const [k, v] of rows) have.set(k, v);
          waited += rows.size;
          pending = pending.filter((k) => !have.has(k));
          for (const part of chunks(pending, this.lockBatch)) {
            const mine = await this.tryLock(client, part);
            if (mine.size > 0) embedded += await this.embedLocked(client, modelId, [...mine], textOf, embed, have);
          }
          pending = pending.filter((k) => !have.has(k));
          if (pending.length === 0) break;
          if (this.closed) throw new Error("PostgresRoutingStore: the store was closed while waiting for another process's embeddings");
          if (Date.now() > deadline)
            throw new Error(
              `PostgresRoutingStore: waited ${this.waitTimeoutMs} ms (options.waitTimeoutMs) for ${pending.length} texts another process is embedding under model ${modelId}`,
            );
          await sleep(this.waitPollMs);
        }
      } catch (err) {
        broken = err;
        throw err;
      } finally {
        // Never hand a pooled connection back holding locks (embedLocked unlocks; this covers its failures).
        await client.query("SELECT pg_advisory_unlock_all()").catch((e) => (broken ??= e));
        client.release(broken ? true : undefined);
      }
    }
    return { vectors: keyOf.map((k) => have.get(k)!), embedded, waited };
  }

  /** Takes the advisory locks of these text hashes that are free; returns the hashes locked. */
  private async tryLock(client: PgClientLike, keys: readonly string[]): Promise<Set<string>> {
    const r = await client.query(
      "SELECT h FROM unnest($1::text[], $2::bigint[]) AS u(h, lk) WHERE pg_try_advisory_lock(lk)",
      [keys, keys.map(advisoryKey)],
    );
    return new Set(r.rows.map((row) => row.h as string));
  }

  /** Under the locks of `keys`: re-read, embed what is still missing, insert, unlock. Returns the texts embedded. */
  private async embedLocked(
    client: PgClientLike,
    modelId: string,
    keys: string[],
    textOf: Map<string, string>,
    embed: EmbedFn,
    have: Map<string, Float32Array>,
  ): Promise<number> {
    try {
      // The previous holder may have inserted between our read and our lock.
      const rows = await this.fetch(client, modelId, keys);
      for (const [k, v] of rows) have.set(k, v);
      const todo = keys.filter((k) => !rows.has(k));
      if (todo.length === 0) return 0;
      const vectors = checkVectors(modelId, await embed(todo.map((k) => textOf.get(k)!)), todo.length);
      const bytes = vectors.map((v) => vectorToBytes(v));
      await client.query(
        `INSERT INTO ${this.q}.embeddings (model_id, text_hash, text, dim, vector)
         SELECT $1, h, t, $4, v FROM unnest($2::text[], $3::text[], $5::bytea[]) AS u(h, t, v)
         ON CONFLICT (model_id, text_hash) DO NOTHING`,
        // The text column is for people reading the table; PostgreSQL refuses NUL in text, and one NUL would fail
        // the whole batch. The key (text_hash) is the hash of the text as given, so lookups are unchanged.
        [modelId, todo, todo.map((k) => textOf.get(k)!.replace(/\u0000/g, "")), vectors[0].length, bytes],
      );
      todo.forEach((k, i) => have.set(k, bytesToVector(bytes[i])));
      return todo.length;
    } finally {
      await client.query("SELECT pg_advisory_unlock(lk) FROM unnest($1::bigint[]) AS lk", [keys.map(advisoryKey)]);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Blobs
  // -------------------------------------------------------------------------------------------------------------

  async getBlob(key: string): Promise<Uint8Array | undefined> {
    checkBlobKey("PostgresRoutingStore.getBlob", key);
    const pool = await this.connect();
    const r = await pool.query(`SELECT chunks, chunk_bytes, bytes, sha256 FROM ${this.q}.blob_heads WHERE key = $1`, [key]);
    const head = r.rows[0];
    if (!head) return undefined;
    // Runs beside the read; it never fails the read.
    void this.markBlobUsed(pool, key);
    const [chunks, chunkBytes, bytes] = [Number(head.chunks), Number(head.chunk_bytes), Number(head.bytes)];
    if (this.copyBlobs && this.blobThreads && this.options.connectionString !== undefined && bytes >= this.blobThreadMinBytes) {
      const request = { connectionString: this.options.connectionString, table: `${this.q}.blob_chunks`, key, chunks, chunkBytes, bytes, sha256: head.sha256 as string };
      try {
        const out = await readBlobInThread(request, this.readerThreads);
        this.blobReads.thread++;
        return out;
      } catch (err) {
        if (err instanceof BlobDamagedError || this.closed) throw err;
        // No thread here (a bundler that dropped the worker module, a sandbox without worker_threads): read on
        // this thread from now on. A database error shows again there, with its own message.
        this.blobThreads = false;
        this.warn(`[tool-attention] postgres store: ${(err as Error)?.message ?? err}; reading blobs on the calling thread`);
      }
    }
    this.blobReads.calling++;
    const blob = new BlobAssembly(key, chunks, chunkBytes, bytes);
    if (this.copyBlobs) {
      try {
        await readBlobByCopy(pool, `${this.q}.blob_chunks`, blob);
        return blob.finish(head.sha256 as string);
      } catch (err) {
        if (err instanceof BlobDamagedError) throw err;
        // COPY through pg's Submittable interface is unavailable (pg-native, pipeline mode, a pool that is not
        // pg's): the portable path from now on. A database error shows again there, with its own message.
        this.copyBlobs = false;
        this.warn(`[tool-attention] postgres store: blob read by COPY failed (${(err as Error)?.message ?? err}); reading blobs as base64 text`);
        blob.reset();
      }
    }
    await this.readChunksAsBase64(pool, blob);
    return blob.finish(head.sha256 as string);
  }

  /** The portable path: each chunk as base64 text (`encode(data, 'base64')`), decoded into place. */
  private async readChunksAsBase64(pool: PgPoolLike, blob: BlobAssembly): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < blob.chunks) {
        const seq = next++;
        const c = await pool.query(
          `SELECT octet_length(data) AS n, encode(data, 'base64') AS b64 FROM ${this.q}.blob_chunks WHERE key = $1 AND seq = $2`,
          [blob.key, seq],
        );
        const row = c.rows[0];
        // A missing row is reported by finish().
        if (row) blob.putBase64(seq, Number(row.n), row.b64 as string);
      }
    };
    const stopOnError = (err: unknown) => {
      next = blob.chunks;
      throw err;
    };
    await settleAll(Array.from({ length: Math.min(BLOB_READ_PARALLEL, blob.chunks) }, () => worker().catch(stopOnError)));
  }

  async putBlob(key: string, bytes: Uint8Array): Promise<void> {
    checkBlobKey("PostgresRoutingStore.putBlob", key);
    checkBlobBytes("PostgresRoutingStore.putBlob", key, bytes);
    const pool = await this.connect();
    // Already there: no transaction, no lock.
    if ((await pool.query(`SELECT 1 FROM ${this.q}.blob_heads WHERE key = $1`, [key])).rows.length > 0) {
      await this.markBlobUsed(pool, key);
      return;
    }
    const sha256 = blobDigest(bytes);
    const chunkBytes = this.blobChunkBytes;
    const chunks = Math.ceil(bytes.byteLength / chunkBytes);
    const client = await pool.connect();
    let broken: unknown;
    try {
      await client.query("BEGIN");
      // Serializes writers of one key: the second waits for the first to commit, then finds its head.
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention blob ${this.schema} ${key}`)]);
      if ((await client.query(`SELECT 1 FROM ${this.q}.blob_heads WHERE key = $1`, [key])).rows.length > 0) {
        await client.query("COMMIT");
        return;
      }
      // Chunks without a head are no blob (see the module comment): replace them.
      await client.query(`DELETE FROM ${this.q}.blob_chunks WHERE key = $1`, [key]);
      for (let seq = 0; seq < chunks; seq++) {
        const off = seq * chunkBytes;
        // A Buffer view, no copy: pg sends Buffer parameters as binary.
        const part = Buffer.from(bytes.buffer, bytes.byteOffset + off, Math.min(chunkBytes, bytes.byteLength - off));
        await client.query(`INSERT INTO ${this.q}.blob_chunks (key, seq, data) VALUES ($1, $2, $3)`, [key, seq, part]);
      }
      await client.query(
        `INSERT INTO ${this.q}.blob_heads (key, chunks, chunk_bytes, bytes, sha256) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING`,
        [key, chunks, chunkBytes, bytes.byteLength, sha256],
      );
      await client.query(
        `INSERT INTO ${this.q}.blob_uses (key, used_at) VALUES ($1, now()) ON CONFLICT (key) DO UPDATE SET used_at = now()`,
        [key],
      );
      await client.query("COMMIT");
    } catch (err) {
      broken = err;
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /**
   * Records that a blob was used, unless that was recorded within the last hour. Failing to record it only makes
   * the blob look older to `pruneBlobs`: reported, never thrown.
   */
  private async markBlobUsed(pool: PgPoolLike, key: string): Promise<void> {
    try {
      await pool.query(
        `INSERT INTO ${this.q}.blob_uses (key, used_at) VALUES ($1, now())
         ON CONFLICT (key) DO UPDATE SET used_at = now()
         WHERE ${this.q}.blob_uses.used_at < now() - $2::double precision * interval '1 millisecond'`,
        [key, BLOB_USE_MARK_MS],
      );
    } catch (err) {
      if (!this.closed) this.warn(`[tool-attention] postgres store: could not mark blob "${key}" as used (${(err as Error)?.message ?? err})`);
    }
  }

  /**
   * Deletes the blobs unused for at least `unusedForMs` (see `RoutingStore.pruneBlobs`): each one's head, chunks and
   * use mark in one transaction, under the lock writers of that key take, and only if it is still unused then.
   */
  async pruneBlobs(options: PruneBlobsOptions): Promise<PruneBlobsResult> {
    // Past a century nothing is old enough; the cap keeps PostgreSQL's interval in range.
    const unusedForMs = Math.min(checkUnusedForMs("PostgresRoutingStore.pruneBlobs", options), 100 * 365.25 * 86_400_000);
    const pool = await this.connect();
    const stale = `COALESCE((SELECT u.used_at FROM ${this.q}.blob_uses u WHERE u.key = h.key), h.created_at) < now() - $1::double precision * interval '1 millisecond'`;
    const candidates = await pool.query(`SELECT h.key FROM ${this.q}.blob_heads h WHERE ${stale} ORDER BY h.key`, [unusedForMs]);
    const deleted: string[] = [];
    let bytes = 0;
    for (const row of candidates.rows) {
      const key = String(row.key);
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention blob ${this.schema} ${key}`)]);
        // Checked again under the lock: a process may have used it since the list was made.
        const gone = await client.query(`DELETE FROM ${this.q}.blob_heads h WHERE h.key = $2 AND ${stale} RETURNING h.bytes`, [unusedForMs, key]);
        if (gone.rows.length > 0) {
          await client.query(`DELETE FROM ${this.q}.blob_chunks WHERE key = $1`, [key]);
          await client.query(`DELETE FROM ${this.q}.blob_uses WHERE key = $1`, [key]);
          deleted.push(key);
          bytes += Number(gone.rows[0]!.bytes);
        }
        await client.query("COMMIT");
      } catch (err) {
        broken = err;
        await client.query("ROLLBACK").catch(() => undefined);
        throw new Error(`PostgresRoutingStore.pruneBlobs: could not delete blob "${key}" (${(err as Error)?.message ?? err}); ${deleted.length} deleted before it`, { cause: err });
      } finally {
        client.release(broken ? true : undefined);
      }
    }
    return { deleted, bytes };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Catalog versions
  // -------------------------------------------------------------------------------------------------------------

  async publishCatalog(catalog: string, snapshot: CatalogSnapshot, digest?: string): Promise<PublishResult> {
    checkCatalogName("PostgresRoutingStore.publishCatalog", catalog);
    if (!snapshot || !Array.isArray(snapshot.servers)) throw new Error(`PostgresRoutingStore.publishCatalog: snapshot.servers must be an array`);
    digest = digestFor("PostgresRoutingStore.publishCatalog", snapshot, digest);
    const pool = await this.connect();
    const tools = snapshot.servers.reduce((n, s) => n + (Array.isArray(s.tools) ? s.tools.length : 0), 0);
    const client = await pool.connect();
    let broken: unknown;
    try {
      await client.query("BEGIN");
      // Serializes publishers of one catalog: the digest check and the next version number cannot race.
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention catalog ${this.schema} ${catalog}`)]);
      const latest = await client.query(
        `SELECT version, digest, tools FROM ${this.q}.catalog_versions WHERE catalog = $1 ORDER BY version DESC LIMIT 1`,
        [catalog],
      );
      const row = latest.rows[0];
      if (row && row.digest === digest) {
        await client.query("COMMIT");
        return { catalog, version: Number(row.version), digest, tools: Number(row.tools), created: false };
      }
      const version = row ? Number(row.version) + 1 : 1;
      await client.query(
        `INSERT INTO ${this.q}.catalog_versions (catalog, version, digest, tools, snapshot) VALUES ($1, $2, $3, $4, $5::json)`,
        [catalog, version, digest, tools, JSON.stringify(snapshot)],
      );
      const info: CatalogVersionInfo = { catalog, version, digest, tools };
      await client.query("SELECT pg_notify($1, $2)", [this.channel, JSON.stringify(info)]);
      await client.query("COMMIT");
      return { ...info, created: true };
    } catch (err) {
      broken = err;
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /** Deletes every version of `catalog` but the latest `keep` (see `RoutingStore.pruneCatalogVersions`). */
  async pruneCatalogVersions(catalog: string, options: PruneCatalogVersionsOptions): Promise<PruneCatalogVersionsResult> {
    checkCatalogName("PostgresRoutingStore.pruneCatalogVersions", catalog);
    const keep = checkKeep("PostgresRoutingStore.pruneCatalogVersions", options);
    const pool = await this.connect();
    const r = await pool.query(
      `DELETE FROM ${this.q}.catalog_versions
       WHERE catalog = $1 AND version <= (SELECT max(version) FROM ${this.q}.catalog_versions WHERE catalog = $1) - $2
       RETURNING version`,
      [catalog, keep],
    );
    return { deleted: r.rows.map((row) => Number(row.version)).sort((a, b) => a - b) };
  }

  private rowToCatalog(row: Record<string, unknown>): StoredCatalog {
    const snapshot = (typeof row.snapshot === "string" ? JSON.parse(row.snapshot) : row.snapshot) as CatalogSnapshot;
    return { catalog: row.catalog as string, version: Number(row.version), digest: row.digest as string, tools: Number(row.tools), snapshot };
  }

  async latestCatalog(catalog: string): Promise<StoredCatalog | undefined> {
    checkCatalogName("PostgresRoutingStore.latestCatalog", catalog);
    const pool = await this.connect();
    const r = await pool.query(
      `SELECT catalog, version, digest, tools, snapshot FROM ${this.q}.catalog_versions WHERE catalog = $1 ORDER BY version DESC LIMIT 1`,
      [catalog],
    );
    return r.rows[0] ? this.rowToCatalog(r.rows[0]) : undefined;
  }

  async latestVersion(catalog: string): Promise<CatalogVersionInfo | undefined> {
    checkCatalogName("PostgresRoutingStore.latestVersion", catalog);
    const pool = await this.connect();
    const r = await pool.query(`SELECT version, digest, tools FROM ${this.q}.catalog_versions WHERE catalog = $1 ORDER BY version DESC LIMIT 1`, [
      catalog,
    ]);
    const row = r.rows[0];
    return row ? { catalog, version: Number(row.version), digest: row.digest as string, tools: Number(row.tools) } : undefined;
  }

  async getCatalog(catalog: string, version: number): Promise<StoredCatalog | undefined> {
    checkCatalogName("PostgresRoutingStore.getCatalog", catalog);
    if (!Number.isInteger(version) || version < 1) throw new Error(`PostgresRoutingStore.getCatalog: version must be an integer ≥ 1 (got ${version})`);
    const pool = await this.connect();
    const r = await pool.query(
      `SELECT catalog, version, digest, tools, snapshot FROM ${this.q}.catalog_versions WHERE catalog = $1 AND version = $2`,
      [catalog, version],
    );
    return r.rows[0] ? this.rowToCatalog(r.rows[0]) : undefined;
  }

  async watchCatalog(catalog: string, listener: CatalogListener): Promise<() => void> {
    checkCatalogName("PostgresRoutingStore.watchCatalog", catalog);
    if (typeof listener !== "function") throw new Error("PostgresRoutingStore.watchCatalog: listener must be a function");
    const pool = await this.connect();
    let set = this.listeners.get(catalog);
    if (!set) {
      this.listeners.set(catalog, (set = new Set()));
      // Listeners hear of versions after the one current now.
      const r = await pool.query(`SELECT max(version) AS v FROM ${this.q}.catalog_versions WHERE catalog = $1`, [catalog]);
      if (!this.known.has(catalog)) this.known.set(catalog, Number(r.rows[0]?.v ?? 0));
    }
    set.add(listener);
    if (this.options.listen !== false) await this.ensureListening();
    if (this.pollMs > 0 && !this.pollTimer) {
      this.pollTimer = setInterval(() => void this.poll(), this.pollMs);
      this.pollTimer.unref();
    }
    return () => {
      const s = this.listeners.get(catalog);
      s?.delete(listener);
      if (s && s.size === 0) this.listeners.delete(catalog);
      if (this.listeners.size === 0) void this.stopWatching();
    };
  }

  /** Tells a catalog's listeners about a version newer than the last one they heard of. */
  private announce(info: CatalogVersionInfo): void {
    if ((this.known.get(info.catalog) ?? 0) >= info.version) return;
    this.known.set(info.catalog, info.version);
    for (const l of this.listeners.get(info.catalog) ?? []) {
      try {
        l(info);
      } catch (err) {
        this.warn(`[tool-attention] postgres store: a catalog listener threw (${(err as Error)?.message ?? err})`);
      }
    }
  }

  private ensureListening(): Promise<PgListenClient | undefined> {
    this.listenClient ??= this.openListenClient().catch((err) => {
      this.listenClient = undefined;
      const fallback = this.pollMs > 0 ? `polling every ${this.pollMs} ms` : "other processes' catalog versions go unseen until it reconnects (options.pollMs is 0)";
      this.warn(`[tool-attention] postgres store: cannot LISTEN (${(err as Error)?.message ?? err}); ${fallback}`);
      return undefined;
    });
    return this.listenClient;
  }

  private async openListenClient(): Promise<PgListenClient> {
    const pg = await loadPg();
    const config = this.options.connectionString ? { connectionString: this.options.connectionString } : { ...(this.pool?.options ?? {}) };
    const client = new pg.Client(config);
    const lost = (err?: Error) => {
      if (this.closed) return;
      this.listenClient = undefined;
      this.warn(`[tool-attention] postgres store: listen connection lost${err ? ` (${err.message})` : ""}; the poll reconnects it`);
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      try {
        const info = JSON.parse(msg.payload) as CatalogVersionInfo;
        if (typeof info.catalog === "string" && Number.isInteger(info.version)) this.announce(info);
      } catch {
        // Not ours (someone else notifying on the channel): ignore.
      }
    });
    await client.connect();
    await client.query(`LISTEN "${this.channel}"`);
    // From now on the connection only waits for news: it must not keep the host process alive. (Not before: an
    // unref'd socket under a pending query lets the process exit while the query waits.)
    client.unref?.();
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error("closed");
    }
    return client;
  }

  /** The fallback: the latest version of every watched catalog, and a reconnect of a lost listen connection. */
  private async poll(): Promise<void> {
    if (this.closed || this.listeners.size === 0 || !this.pool) return;
    try {
      if (this.options.listen !== false && !this.listenClient) void this.ensureListening();
      const r = await this.pool.query(
        `SELECT DISTINCT ON (catalog) catalog, version, digest, tools FROM ${this.q}.catalog_versions
         WHERE catalog = ANY($1::text[]) ORDER BY catalog, version DESC`,
        [[...this.listeners.keys()]],
      );
      for (const row of r.rows)
        this.announce({ catalog: row.catalog as string, version: Number(row.version), digest: row.digest as string, tools: Number(row.tools) });
    } catch (err) {
      if (!this.closed) this.warn(`[tool-attention] postgres store: catalog poll failed (${(err as Error)?.message ?? err})`);
    }
  }

  private async stopWatching(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    const listen = this.listenClient;
    this.listenClient = undefined;
    const client = await listen?.catch(() => undefined);
    // Ref'd again while it closes: an unref'd socket would let the process exit before `end()` settles.
    client?.ref?.();
    await client?.end().catch(() => undefined);
  }

  /** Stops watching, closes the listen connection, and ends the pool when the store created it. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    for (const thread of this.readerThreads) await thread.terminate().catch(() => undefined);
    await this.stopWatching();
    await this.ready?.catch(() => undefined);
    if (this.ownsPool && this.pool) await this.pool.end().catch(() => undefined);
  }
}

function checkModelId(where: string, modelId: unknown): void {
  if (typeof modelId !== "string" || modelId === "") throw new Error(`PostgresRoutingStore.${where}: modelId must be a non-empty string`);
}
