/**
 * Routing state in local files: today's single-machine behaviour behind the store seam.
 *
 * Embeddings: the disk cache's own files (`CachedEmbeddings`, one `<model>-<hash>.f32` per model id in `dir`), so a
 * directory warmed by the router's `cacheDir` serves this store and back. Writes merge what other processes wrote
 * and rename atomically; there is no cross-process lock, so two processes started together may both embed a text
 * (the file keeps one record per key). Use `PostgresRoutingStore` when that work must happen once.
 *
 * Catalog versions: `<dir>/catalogs/<name>-<hash>/v<version>.json`, each created with O_EXCL (`wx`), so two
 * publishers never both get a version number; the latest version is the highest file. `watchCatalog` polls the
 * directory every `pollMs` on an unref'd timer.
 *
 * Blobs: `<dir>/blobs/<key>.bin`, the bytes as given. A writer fills a uniquely named temp file in the same directory
 * (`.<key>.<pid>.<random>.tmp`), fsyncs it, and hard-links it to the final name, which fails when the name exists:
 * the first writer wins, and a reader opens either no file or a complete one. Where the filesystem has no hard
 * links, a rename replaces the file instead (atomically, with equal bytes: keys are content hashes). A writer killed
 * mid-write leaves only its temp file behind, which no read ever returns. A blob's modification time says when it
 * was last read or written (set at most once an hour); `pruneBlobs` deletes the files older than asked, and the temp
 * files of writers that died. A process still reading a deleted file reads it whole (POSIX keeps it until closed).
 */
import { CatalogPollers } from "./poll.js";
import { createHash, randomBytes } from "node:crypto";
import { access, link, mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { Embeddings } from "@langchain/core/embeddings";
import { CachedEmbeddings, defaultEmbeddingCacheDir } from "../encoders/cache.js";
import { alignedBlob, BLOB_KEY_PATTERN, BLOB_USE_MARK_MS, checkBlobBytes, checkBlobKey, checkKeep, checkUnusedForMs, checkVectors } from "./codec.js";
import { checkCatalogName } from "./postgres.js";
import { digestFor } from "./snapshot.js";
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

/** Options of {@link DiskRoutingStore}. */
export interface DiskRoutingStoreOptions {
  /**
   * Directory of the store: embeddings in the disk cache's format at its top level, catalogs under `catalogs/`, blobs
   * under `blobs/`.
   * Default: the embedding cache directory (env `TOOL_ATTENTION_CACHE_DIR`, else `<cwd>/.cache/tool-attention/embeddings`).
   */
  dir?: string;
  /** Poll interval of `watchCatalog`, in ms. Default 1,000. */
  pollMs?: number;
  /** Where one-line warnings go (an unreadable cache file). Default `console.warn`. */
  warn?: (message: string) => void;
}

/**
 * Sets a blob file's modification time to now unless it is less than an hour old (see `pruneBlobs`). Best effort: a
 * read-only directory only makes the blob look older.
 */
async function markUsed(file: string): Promise<void> {
  try {
    const now = Date.now();
    if (now - (await stat(file)).mtimeMs >= BLOB_USE_MARK_MS) await utimes(file, now / 1000, now / 1000);
  } catch {
    // Deleted meanwhile, or not ours to touch.
  }
}

/** link() errors meaning "this filesystem has no hard links here": the blob is renamed into place instead. */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV", "EMLINK"]);

/** An encoder whose `embedDocuments` is whatever function the current `embedThrough` call was given. */
class CallEncoder extends Embeddings {
  fn?: EmbedFn;
  constructor() {
    super({});
  }
  embedDocuments(texts: string[]): Promise<number[][]> {
    if (!this.fn) throw new Error("DiskRoutingStore: internal error: no encoder for this call");
    return this.fn(texts);
  }
  embedQuery(): Promise<number[]> {
    throw new Error("DiskRoutingStore: queries are never embedded through the store");
  }
}

/** The head of a version file: everything before its snapshot (the catalog name is JSON-escaped, so no `"version"` inside). */
const VERSION_HEAD = /^\{"catalog":"(?:[^"\\]|\\.)*","version":(\d+),"digest":"([0-9a-f]{64})","tools":(\d+),"snapshot":/;

export class DiskRoutingStore implements RoutingStore {
  readonly kind = "disk";
  readonly dir: string;
  private readonly pollMs: number;
  private readonly warn?: (message: string) => void;
  private readonly caches = new Map<string, { cache: CachedEmbeddings; encoder: CallEncoder; chain: Promise<unknown> }>();
  private readonly pollers: CatalogPollers;
  private closed = false;

  constructor(options: DiskRoutingStoreOptions = {}) {
    const dir = options.dir ?? defaultEmbeddingCacheDir();
    if (dir === false)
      throw new Error("DiskRoutingStore: TOOL_ATTENTION_CACHE_DIR turns the disk cache off; give options.dir to say where the store lives");
    if (typeof dir !== "string" || dir.trim() === "") throw new Error("DiskRoutingStore: options.dir must be a non-empty path");
    this.dir = path.resolve(dir);
    this.pollMs = options.pollMs ?? 1000;
    if (!Number.isInteger(this.pollMs) || this.pollMs < 10 || this.pollMs > 3_600_000)
      throw new Error(`DiskRoutingStore: options.pollMs must be an integer from 10 to 3600000 (got ${String(options.pollMs)})`);
    this.warn = options.warn;
    this.pollers = new CatalogPollers("disk store", this.pollMs, this.warn);
  }

  private cacheOf(modelId: string) {
    if (typeof modelId !== "string" || modelId === "") throw new Error("DiskRoutingStore: modelId must be a non-empty string");
    let c = this.caches.get(modelId);
    if (!c) {
      const encoder = new CallEncoder();
      // queryCacheSize 0: the store never sees queries.
      const cache = new CachedEmbeddings(encoder, { modelId, cacheDir: this.dir, queryCacheSize: 0, warn: this.warn });
      this.caches.set(modelId, (c = { cache, encoder, chain: Promise.resolve() }));
    }
    return c;
  }

  async embedThrough(modelId: string, texts: readonly string[], embed: EmbedFn): Promise<EmbedThroughResult> {
    this.checkOpen();
    const c = this.cacheOf(modelId);
    // One call at a time per model: the cache's encoder is this call's function.
    const run = c.chain.then(async () => {
      const before = c.cache.stats.misses;
      c.encoder.fn = async (missing) => checkVectors(modelId, await embed(missing), missing.length);
      try {
        const vectors = await c.cache.embedDocuments([...texts]);
        return { vectors: vectors.map((v) => Float32Array.from(v)), embedded: c.cache.stats.misses - before, waited: 0 };
      } finally {
        c.encoder.fn = undefined;
      }
    });
    c.chain = run.catch(() => undefined);
    return run;
  }

  async getEmbeddings(modelId: string, texts: readonly string[]): Promise<Map<string, Float32Array>> {
    this.checkOpen();
    const unique = [...new Set(texts)];
    const found = await this.cacheOf(modelId).cache.peek(unique);
    const out = new Map<string, Float32Array>();
    unique.forEach((t, i) => found[i] && out.set(t, found[i]!));
    return out;
  }

  private catalogDir(catalog: string): string {
    const safe = catalog.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 60) || "catalog";
    return path.join(this.dir, "catalogs", `${safe}-${createHash("sha256").update(catalog).digest("hex").slice(0, 8)}`);
  }

  private async versions(catalog: string): Promise<number[]> {
    const names = await readdir(this.catalogDir(catalog)).catch((err) => {
      if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return [] as string[];
      throw err;
    });
    return names
      .map((n) => /^v(\d+)\.json$/.exec(n)?.[1])
      .filter((v): v is string => v !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  async publishCatalog(catalog: string, snapshot: CatalogSnapshot, digest?: string): Promise<PublishResult> {
    this.checkOpen();
    checkCatalogName("DiskRoutingStore.publishCatalog", catalog);
    if (!snapshot || !Array.isArray(snapshot.servers)) throw new Error(`DiskRoutingStore.publishCatalog: snapshot.servers must be an array`);
    digest = digestFor("DiskRoutingStore.publishCatalog", snapshot, digest);
    const tools = snapshot.servers.reduce((n, s) => n + (Array.isArray(s.tools) ? s.tools.length : 0), 0);
    const dir = this.catalogDir(catalog);
    await mkdir(dir, { recursive: true });
    for (;;) {
      const latest = await this.latestVersion(catalog);
      if (latest?.digest === digest) return { catalog, version: latest.version, digest, tools: latest.tools, created: false };
      const version = (latest?.version ?? 0) + 1;
      const body = JSON.stringify({ catalog, version, digest, tools, snapshot });
      try {
        // O_EXCL: of two publishers racing for this number, one gets it; the other looks again.
        await writeFile(path.join(dir, `v${version}.json`), body, { flag: "wx" });
        return { catalog, version, digest, tools, created: true };
      } catch (err) {
        if ((err as NodeJS.ErrnoException)?.code !== "EEXIST") throw err;
      }
    }
  }

  /** Deletes every version file of `catalog` but the latest `keep` (see `RoutingStore.pruneCatalogVersions`). */
  async pruneCatalogVersions(catalog: string, options: PruneCatalogVersionsOptions): Promise<PruneCatalogVersionsResult> {
    this.checkOpen();
    checkCatalogName("DiskRoutingStore.pruneCatalogVersions", catalog);
    const keep = checkKeep("DiskRoutingStore.pruneCatalogVersions", options);
    const versions = await this.versions(catalog);
    const deleted = versions.slice(0, Math.max(0, versions.length - keep));
    // The latest files stay, so the next version number is unchanged.
    for (const version of deleted) await rm(path.join(this.catalogDir(catalog), `v${version}.json`), { force: true });
    return { deleted };
  }

  async getCatalog(catalog: string, version: number): Promise<StoredCatalog | undefined> {
    this.checkOpen();
    checkCatalogName("DiskRoutingStore.getCatalog", catalog);
    if (!Number.isInteger(version) || version < 1) throw new Error(`DiskRoutingStore.getCatalog: version must be an integer ≥ 1 (got ${version})`);
    const file = path.join(this.catalogDir(catalog), `v${version}.json`);
    // A file being written by O_EXCL create is briefly empty: retry a moment before calling it corrupt.
    for (let attempt = 0; ; attempt++) {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return undefined;
        throw err;
      }
      try {
        const data = JSON.parse(text) as StoredCatalog;
        return { catalog, version, digest: data.digest, tools: data.tools, snapshot: data.snapshot };
      } catch (err) {
        if (attempt >= 20) throw new Error(`DiskRoutingStore: ${file} is not a valid catalog version (${(err as Error).message})`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  }

  async latestCatalog(catalog: string): Promise<StoredCatalog | undefined> {
    checkCatalogName("DiskRoutingStore.latestCatalog", catalog);
    const versions = await this.versions(catalog);
    return versions.length ? this.getCatalog(catalog, versions[versions.length - 1]) : undefined;
  }

  async latestVersion(catalog: string): Promise<CatalogVersionInfo | undefined> {
    this.checkOpen();
    checkCatalogName("DiskRoutingStore.latestVersion", catalog);
    const version = (await this.versions(catalog)).at(-1);
    return version === undefined ? undefined : this.versionInfo(catalog, version);
  }

  /**
   * A version's details without its snapshot: read from the head of its file, which `publishCatalog` writes as
   * {"catalog", "version", "digest", "tools", "snapshot"} in that order. A head that does not parse (a file still
   * being written) falls back to reading the whole version.
   */
  private async versionInfo(catalog: string, version: number): Promise<CatalogVersionInfo | undefined> {
    let head = "";
    try {
      const fh = await open(path.join(this.catalogDir(catalog), `v${version}.json`), "r");
      try {
        const buf = Buffer.alloc(1024);
        const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
        head = buf.subarray(0, bytesRead).toString("utf8");
      } finally {
        await fh.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return undefined;
      throw err;
    }
    const m = VERSION_HEAD.exec(head);
    if (m && Number(m[1]) === version) return { catalog, version, digest: m[2]!, tools: Number(m[3]) };
    const stored = await this.getCatalog(catalog, version);
    if (!stored) return undefined;
    const { snapshot: _snapshot, ...info } = stored;
    return info;
  }

  async watchCatalog(catalog: string, listener: CatalogListener): Promise<() => void> {
    this.checkOpen();
    checkCatalogName("DiskRoutingStore.watchCatalog", catalog);
    if (typeof listener !== "function") throw new Error("DiskRoutingStore.watchCatalog: listener must be a function");
    return this.pollers.watch(
      catalog,
      { latest: async () => (await this.versions(catalog)).at(-1), info: (version) => this.versionInfo(catalog, version) },
      listener,
    );
  }

  private blobFile(key: string): string {
    return path.join(this.dir, "blobs", `${key}.bin`);
  }

  async getBlob(key: string): Promise<Uint8Array | undefined> {
    this.checkOpen();
    checkBlobKey("DiskRoutingStore.getBlob", key);
    const file = this.blobFile(key);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return undefined;
      throw err;
    }
    await markUsed(file);
    return alignedBlob(bytes);
  }

  /** Deletes the blobs unused for at least `unusedForMs` (see `RoutingStore.pruneBlobs`), and dead writers' temp files. */
  async pruneBlobs(options: PruneBlobsOptions): Promise<PruneBlobsResult> {
    this.checkOpen();
    const unusedForMs = checkUnusedForMs("DiskRoutingStore.pruneBlobs", options);
    const cutoff = Date.now() - unusedForMs;
    // A temp file younger than an hour may belong to a writer still at work.
    const tempCutoff = Date.now() - Math.max(unusedForMs, BLOB_USE_MARK_MS);
    const dir = path.join(this.dir, "blobs");
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return { deleted: [], bytes: 0 };
      throw err;
    }
    const deleted: string[] = [];
    let bytes = 0;
    for (const name of names.sort()) {
      const blob = name.endsWith(".bin") && BLOB_KEY_PATTERN.test(name.slice(0, -4));
      if (!blob && !(name.startsWith(".") && name.endsWith(".tmp"))) continue;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || info.mtimeMs >= (blob ? cutoff : tempCutoff)) continue;
      await rm(file, { force: true });
      if (blob) {
        deleted.push(name.slice(0, -4));
        bytes += info.size;
      }
    }
    return { deleted, bytes };
  }

  async putBlob(key: string, bytes: Uint8Array): Promise<void> {
    this.checkOpen();
    checkBlobKey("DiskRoutingStore.putBlob", key);
    checkBlobBytes("DiskRoutingStore.putBlob", key, bytes);
    const file = this.blobFile(key);
    if (await access(file).then(() => true, () => false)) {
      await markUsed(file);
      return;
    }
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `.${key}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
    try {
      const fh = await open(tmp, "wx");
      try {
        await fh.writeFile(bytes);
        // On disk before it gets its name: a crash must not leave a named, partly written blob.
        await fh.sync();
      } finally {
        await fh.close();
      }
      try {
        await link(tmp, file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException)?.code ?? "";
        if (code === "EEXIST") return; // another writer won; its bytes are the same
        if (!NO_HARD_LINKS.has(code)) throw err;
        await rename(tmp, file);
      }
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Stops the watchers and waits for pending cache writes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pollers.close();
    await Promise.all([...this.caches.values()].map((c) => c.chain.then(() => c.cache.flush())));
  }

  private checkOpen(): void {
    if (this.closed) throw new Error("DiskRoutingStore: the store is closed");
  }
}
