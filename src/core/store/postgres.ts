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
import { advisoryKey, bytesToVector, checkVectors, textKey, vectorToBytes } from "./codec.js";
import { snapshotDigest } from "./snapshot.js";
import type {
  CatalogListener,
  CatalogSnapshot,
  CatalogVersionInfo,
  EmbedFn,
  EmbedThroughResult,
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
/** The subset of a `pg.PoolClient` the store uses. */
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
}

interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPoolLike;
  Client: new (config: Record<string, unknown>) => PgListenClient;
}
interface PgListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  unref?(): void;
  on(event: "notification", listener: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: "error" | "end", listener: (err?: Error) => void): unknown;
}

let pgModule: Promise<PgModule> | undefined;
/** Loads `pg` once; a missing package fails with the install command. */
function loadPg(): Promise<PgModule> {
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
        [modelId, todo, todo.map((k) => textOf.get(k)!), vectors[0].length, bytes],
      );
      todo.forEach((k, i) => have.set(k, bytesToVector(bytes[i])));
      return todo.length;
    } finally {
      await client.query("SELECT pg_advisory_unlock(lk) FROM unnest($1::bigint[]) AS lk", [keys.map(advisoryKey)]);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Catalog versions
  // -------------------------------------------------------------------------------------------------------------

  async publishCatalog(catalog: string, snapshot: CatalogSnapshot): Promise<PublishResult> {
    checkCatalogName("PostgresRoutingStore.publishCatalog", catalog);
    if (!snapshot || !Array.isArray(snapshot.servers)) throw new Error(`PostgresRoutingStore.publishCatalog: snapshot.servers must be an array`);
    const pool = await this.connect();
    const digest = snapshotDigest(snapshot);
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
    await client?.end().catch(() => undefined);
  }

  /** Stops watching, closes the listen connection, and ends the pool when the store created it. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    await this.stopWatching();
    await this.ready?.catch(() => undefined);
    if (this.ownsPool && this.pool) await this.pool.end().catch(() => undefined);
  }
}

function checkModelId(where: string, modelId: unknown): void {
  if (typeof modelId !== "string" || modelId === "") throw new Error(`PostgresRoutingStore.${where}: modelId must be a non-empty string`);
}
