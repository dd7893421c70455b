/**
 * Routing state in a LangGraph `BaseStore` (`InMemoryStore`, or `PostgresStore` from
 * @langchain/langgraph-checkpoint-postgres where the application already has one): no second database to run.
 *
 * Layout (every label free of "." and ":", as BaseStore requires; model ids and catalog names are hashed):
 *   [...namespace, "embeddings", sha256(modelId)[0..16]] / <text hash>  → { text, dim, vector: base64 float32 LE }
 *   [...namespace, "catalogs",   sha256(name)[0..16]]    / "latest"     → { version, digest, tools }
 *                                                        / "v<version>" → { version, digest, tools, snapshot }
 *                                                        / "pruned"     → { upTo } (pruneCatalogVersions)
 *   [...namespace, "blobs",      sha256(key)[0..16]]     / "c<chunkBytes>_<seq>" → { data: base64 }
 *                                                        / "head"       → { key, chunks, chunkBytes, bytes, sha256 }
 * Values are put with `index: false`: the store's own semantic index must not embed our rows. A blob's head is put
 * again when it is read more than an hour after its last put, so its `updatedAt` says when it was last used;
 * `pruneBlobs` lists the blob namespaces (a ListNamespaces operation) and deletes the blobs unused for longer than
 * asked, head first. A backend whose items carry no `updatedAt` keeps every blob.
 *
 * Blobs are cut into `blobChunkBytes` pieces (3 MiB, 4 MiB of base64) because a BaseStore holds JSON values, which
 * a backend reads and writes whole. The head is put after every chunk and a reader starts from it, so a writer
 * that stops half way leaves no readable blob; reads check length and sha256 against the head. Without locks, two
 * writers of a key may both write it: with the same chunk size they put the same items with the same bytes, and
 * the chunk size is part of the chunk keys, so writers configured differently never overwrite the chunks a head
 * points to.
 *
 * What a BaseStore cannot give: locks and compare-and-set. Two processes missing the same text both embed it (the
 * value is the same, the second put overwrites it); two processes publishing DIFFERENT catalogs at the same moment
 * can both write the next version number (the later "latest" wins and every process converges on it at the next
 * poll). Publishing the same snapshot is idempotent (digest check). Changes are seen by polling every `pollMs`.
 * For exactly-once embedding and strictly ordered versions, use `PostgresRoutingStore`.
 */
import { CatalogPollers } from "./poll.js";
import { createHash } from "node:crypto";
import { base64ToVector, BLOB_USE_MARK_MS, blobDigest, checkBlobBytes, checkBlobKey, checkKeep, checkUnusedForMs, checkVectors, textKey, vectorToBase64 } from "./codec.js";
import { checkCatalogName } from "./postgres.js";
import { digestFor } from "./snapshot.js";
import type {
  CatalogListener,
  CatalogVersionInfo,
  CatalogSnapshot,
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

/** A get operation of LangGraph's store (`GetOperation`). */
export interface StoreGetOperationLike {
  namespace: string[];
  key: string;
}
/** A put operation of LangGraph's store (`PutOperation`); `index: false` keeps the store's semantic index off it. */
export interface StorePutOperationLike {
  namespace: string[];
  key: string;
  value: Record<string, unknown> | null;
  index?: false | string[];
}
/** A list-namespaces operation of LangGraph's store (`ListNamespacesOperation`), used by `pruneBlobs` only. */
export interface StoreListNamespacesOperationLike {
  matchConditions: { matchType: "prefix"; path: string[] }[];
  maxDepth?: number;
  limit: number;
  offset: number;
}
/**
 * The part of LangGraph's `BaseStore` this adapter uses: `batch` with get and put operations (and list-namespaces
 * operations for `pruneBlobs`). Structural, so the library does not import @langchain/langgraph for it;
 * `InMemoryStore` and `PostgresStore` fit.
 */
export interface BaseStoreLike {
  batch(operations: (StoreGetOperationLike | StorePutOperationLike | StoreListNamespacesOperationLike)[]): Promise<unknown[]>;
}

/** Options of {@link LangGraphRoutingStore}. */
export interface LangGraphRoutingStoreOptions {
  /** Namespace prefix of every item. Default ["tool_attention"]. Labels: non-empty, no ".", ":" or NUL, first not "langgraph". */
  namespace?: string[];
  /** Poll interval of `watchCatalog`, in ms. Default 2,000. */
  pollMs?: number;
  /** Items per `batch` call when reading or writing embeddings. Default 500. */
  batchSize?: number;
  /** Where one-line warnings go (a failed poll). Default `console.warn`. */
  warn?: (message: string) => void;
  /**
   * Bytes per item of a blob written by this store (`putBlob`), stored as base64 (4/3 larger). Default 3 MiB
   * (3,145,728: 4 MiB of base64). Readers take the size from the blob's head.
   */
  blobChunkBytes?: number;
}

/** Default `blobChunkBytes` of the LangGraph store. */
export const DEFAULT_LANGGRAPH_BLOB_CHUNK_BYTES = 3 * 1024 * 1024;
/** Chunk items per `batch` call when reading a blob: a few MB in flight, not the whole blob as JSON. */
const BLOB_READ_BATCH = 2;

interface ItemLike {
  value: Record<string, unknown>;
  /** When the item was last put (LangGraph's `Item.updatedAt`; a string from some backends). */
  updatedAt?: Date | string;
}

/** Milliseconds since an item was last put, or undefined when the backend does not say. */
function ageOf(item: ItemLike, now: number): number | undefined {
  const at = item.updatedAt instanceof Date ? item.updatedAt.getTime() : typeof item.updatedAt === "string" ? Date.parse(item.updatedAt) : NaN;
  return Number.isFinite(at) ? now - at : undefined;
}

/** Namespaces per list-namespaces call of `pruneBlobs`. */
const LIST_PAGE = 1000;

const short = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 16);

export class LangGraphRoutingStore implements RoutingStore {
  readonly kind = "langgraph";
  readonly namespace: readonly string[];
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly blobChunkBytes: number;
  private readonly warn: (message: string) => void;
  private readonly pollers: CatalogPollers;
  private closed = false;

  /** `store`: a LangGraph BaseStore. It stays yours: `close()` does not stop it. */
  constructor(
    readonly store: BaseStoreLike,
    options: LangGraphRoutingStoreOptions = {},
  ) {
    if (!store || typeof (store as BaseStoreLike).batch !== "function")
      throw new Error("LangGraphRoutingStore: store must be a LangGraph BaseStore (InMemoryStore, PostgresStore...) with batch()");
    const ns = options.namespace ?? ["tool_attention"];
    if (!Array.isArray(ns) || ns.length === 0 || ns.some((l) => typeof l !== "string" || l === "" || /[.:\0]/.test(l)) || ns[0] === "langgraph")
      throw new Error(
        `LangGraphRoutingStore: options.namespace must be a non-empty list of non-empty labels without ".", ":" or NUL, not starting with "langgraph" (got ${JSON.stringify(ns)})`,
      );
    this.namespace = [...ns];
    this.pollMs = options.pollMs ?? 2000;
    if (!Number.isInteger(this.pollMs) || this.pollMs < 10 || this.pollMs > 3_600_000)
      throw new Error(`LangGraphRoutingStore: options.pollMs must be an integer from 10 to 3600000 (got ${String(options.pollMs)})`);
    this.batchSize = options.batchSize ?? 500;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > 100_000)
      throw new Error(`LangGraphRoutingStore: options.batchSize must be an integer from 1 to 100000 (got ${String(options.batchSize)})`);
    this.blobChunkBytes = options.blobChunkBytes ?? DEFAULT_LANGGRAPH_BLOB_CHUNK_BYTES;
    if (!Number.isInteger(this.blobChunkBytes) || this.blobChunkBytes < 1024 || this.blobChunkBytes > 64 * 1024 * 1024)
      throw new Error(`LangGraphRoutingStore: options.blobChunkBytes must be an integer from 1024 to 67108864 (got ${String(options.blobChunkBytes)})`);
    this.warn = options.warn ?? ((m) => console.warn(m));
    this.pollers = new CatalogPollers("langgraph store", this.pollMs, this.warn);
  }

  private embeddingsNs(modelId: string): string[] {
    if (typeof modelId !== "string" || modelId === "") throw new Error("LangGraphRoutingStore: modelId must be a non-empty string");
    return [...this.namespace, "embeddings", short(modelId)];
  }
  private catalogNs(catalog: string): string[] {
    return [...this.namespace, "catalogs", short(catalog)];
  }
  private blobNs(key: string): string[] {
    return [...this.namespace, "blobs", short(key)];
  }

  private async getItems(namespace: string[], keys: readonly string[]): Promise<(ItemLike | null)[]> {
    const out: (ItemLike | null)[] = [];
    for (let i = 0; i < keys.length; i += this.batchSize) {
      const part = keys.slice(i, i + this.batchSize);
      const res = await this.store.batch(part.map((key) => ({ namespace, key })));
      out.push(...(res as (ItemLike | null)[]));
    }
    return out;
  }

  private async putItems(namespace: string[], items: { key: string; value: Record<string, unknown> }[]): Promise<void> {
    for (let i = 0; i < items.length; i += this.batchSize)
      await this.store.batch(items.slice(i, i + this.batchSize).map(({ key, value }) => ({ namespace, key, value, index: false })));
  }

  private async read(modelId: string, keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const items = await this.getItems(this.embeddingsNs(modelId), keys);
    const out = new Map<string, Float32Array>();
    items.forEach((item, i) => {
      const v = item?.value?.vector;
      if (typeof v === "string") out.set(keys[i], base64ToVector(v, `vector of ${keys[i]}`));
    });
    return out;
  }

  async getEmbeddings(modelId: string, texts: readonly string[]): Promise<Map<string, Float32Array>> {
    this.checkOpen();
    const unique = [...new Set(texts)];
    const rows = await this.read(modelId, unique.map((t) => textKey(modelId, t)));
    const out = new Map<string, Float32Array>();
    for (const t of unique) {
      const v = rows.get(textKey(modelId, t));
      if (v) out.set(t, v);
    }
    return out;
  }

  async embedThrough(modelId: string, texts: readonly string[], embed: EmbedFn): Promise<EmbedThroughResult> {
    this.checkOpen();
    const keyOf = texts.map((t) => textKey(modelId, t));
    const textOf = new Map<string, string>();
    keyOf.forEach((k, i) => textOf.set(k, texts[i]));
    const have = await this.read(modelId, [...textOf.keys()]);
    const missing = [...textOf.keys()].filter((k) => !have.has(k));
    if (missing.length > 0) {
      const vectors = checkVectors(modelId, await embed(missing.map((k) => textOf.get(k)!)), missing.length);
      const items = missing.map((key, i) => {
        const v = Float32Array.from(vectors[i]);
        have.set(key, v);
        return { key, value: { text: textOf.get(key)!, dim: v.length, vector: vectorToBase64(v) } };
      });
      await this.putItems(this.embeddingsNs(modelId), items);
    }
    return { vectors: keyOf.map((k) => have.get(k)!), embedded: missing.length, waited: 0 };
  }

  async publishCatalog(catalog: string, snapshot: CatalogSnapshot, digest?: string): Promise<PublishResult> {
    this.checkOpen();
    checkCatalogName("LangGraphRoutingStore.publishCatalog", catalog);
    if (!snapshot || !Array.isArray(snapshot.servers)) throw new Error(`LangGraphRoutingStore.publishCatalog: snapshot.servers must be an array`);
    digest = digestFor("LangGraphRoutingStore.publishCatalog", snapshot, digest);
    const tools = snapshot.servers.reduce((n, s) => n + (Array.isArray(s.tools) ? s.tools.length : 0), 0);
    const latest = await this.latestInfo(catalog);
    if (latest?.digest === digest) return { catalog, version: latest.version, digest, tools: latest.tools, created: false };
    const version = (latest?.version ?? 0) + 1;
    // The version first, then the pointer: a reader following "latest" always finds its version.
    await this.putItems(this.catalogNs(catalog), [{ key: `v${version}`, value: { catalog, version, digest, tools, snapshot } }]);
    await this.putItems(this.catalogNs(catalog), [{ key: "latest", value: { catalog, version, digest, tools } }]);
    return { catalog, version, digest, tools, created: true };
  }

  private async latestInfo(catalog: string): Promise<{ version: number; digest: string; tools: number } | undefined> {
    const [item] = await this.getItems(this.catalogNs(catalog), ["latest"]);
    const v = item?.value;
    if (!v) return undefined;
    if (!Number.isInteger(v.version) || typeof v.digest !== "string")
      throw new Error(`LangGraphRoutingStore: the "latest" item of catalog "${catalog}" is malformed (fields version, digest)`);
    return { version: v.version as number, digest: v.digest as string, tools: Number(v.tools ?? 0) };
  }

  /**
   * Deletes every version item of `catalog` but the latest `keep` (see `RoutingStore.pruneCatalogVersions`). Reading
   * a version to see whether it is there would load its whole snapshot, so the item "pruned" remembers the last
   * version deleted and each call deletes the versions after it (a BaseStore deletes a missing item without
   * complaint).
   */
  async pruneCatalogVersions(catalog: string, options: PruneCatalogVersionsOptions): Promise<PruneCatalogVersionsResult> {
    this.checkOpen();
    checkCatalogName("LangGraphRoutingStore.pruneCatalogVersions", catalog);
    const keep = checkKeep("LangGraphRoutingStore.pruneCatalogVersions", options);
    const ns = this.catalogNs(catalog);
    const [latest, [marker]] = await Promise.all([this.latestInfo(catalog), this.getItems(ns, ["pruned"])]);
    const done = Number.isInteger(marker?.value?.upTo) ? (marker!.value.upTo as number) : 0;
    const last = (latest?.version ?? 0) - keep;
    const deleted: number[] = [];
    for (let first = done + 1; first <= last; first += this.batchSize) {
      const versions = Array.from({ length: Math.min(this.batchSize, last - first + 1) }, (_, i) => first + i);
      await this.store.batch(versions.map((v) => ({ namespace: ns, key: `v${v}`, value: null })));
      await this.putItems(ns, [{ key: "pruned", value: { upTo: versions[versions.length - 1]! } }]);
      deleted.push(...versions);
    }
    return { deleted };
  }

  async getCatalog(catalog: string, version: number): Promise<StoredCatalog | undefined> {
    this.checkOpen();
    checkCatalogName("LangGraphRoutingStore.getCatalog", catalog);
    if (!Number.isInteger(version) || version < 1) throw new Error(`LangGraphRoutingStore.getCatalog: version must be an integer ≥ 1 (got ${version})`);
    const [item] = await this.getItems(this.catalogNs(catalog), [`v${version}`]);
    const v = item?.value;
    if (!v) return undefined;
    if (typeof v.digest !== "string" || !v.snapshot)
      throw new Error(`LangGraphRoutingStore: version ${version} of catalog "${catalog}" is malformed (fields digest, snapshot)`);
    return { catalog, version, digest: v.digest, tools: Number(v.tools ?? 0), snapshot: v.snapshot as CatalogSnapshot };
  }

  async latestVersion(catalog: string): Promise<CatalogVersionInfo | undefined> {
    this.checkOpen();
    checkCatalogName("LangGraphRoutingStore.latestVersion", catalog);
    const latest = await this.latestInfo(catalog);
    return latest ? { catalog, ...latest } : undefined;
  }

  async latestCatalog(catalog: string): Promise<StoredCatalog | undefined> {
    this.checkOpen();
    checkCatalogName("LangGraphRoutingStore.latestCatalog", catalog);
    const latest = await this.latestInfo(catalog);
    return latest ? this.getCatalog(catalog, latest.version) : undefined;
  }

  async watchCatalog(catalog: string, listener: CatalogListener): Promise<() => void> {
    this.checkOpen();
    checkCatalogName("LangGraphRoutingStore.watchCatalog", catalog);
    if (typeof listener !== "function") throw new Error("LangGraphRoutingStore.watchCatalog: listener must be a function");
    // One read per tick: the "latest" item carries the version's details too.
    let last: Awaited<ReturnType<LangGraphRoutingStore["latestInfo"]>>;
    return this.pollers.watch(
      catalog,
      { latest: async () => (last = await this.latestInfo(catalog))?.version, info: async () => last },
      listener,
    );
  }

  async getBlob(key: string): Promise<Uint8Array | undefined> {
    this.checkOpen();
    checkBlobKey("LangGraphRoutingStore.getBlob", key);
    const ns = this.blobNs(key);
    const [item] = await this.getItems(ns, ["head"]);
    const head = item?.value;
    if (!head) return undefined;
    await this.markUsed(ns, item);
    const damaged = (what: string) => new Error(`LangGraphRoutingStore.getBlob: blob "${key}" is damaged (${what})`);
    const { chunks, chunkBytes, bytes: total, sha256 } = head as Record<string, unknown>;
    if (head.key !== key) throw damaged(`its head names key ${JSON.stringify(head.key)}`);
    if (
      !Number.isInteger(chunks) ||
      !Number.isInteger(chunkBytes) ||
      !Number.isInteger(total) ||
      typeof sha256 !== "string" ||
      (chunkBytes as number) <= 0 ||
      (total as number) < 0 ||
      chunks !== Math.ceil((total as number) / (chunkBytes as number))
    )
      throw damaged(`malformed head: ${JSON.stringify({ chunks, chunkBytes, bytes: total })}`);
    const n = chunks as number;
    const size = chunkBytes as number;
    const length = total as number;
    // One buffer of its own at byteOffset 0 (typed views of it are aligned); the chunks cover it exactly.
    const out = Buffer.allocUnsafeSlow(length);
    const hash = createHash("sha256");
    for (let first = 0; first < n; first += BLOB_READ_BATCH) {
      const seqs = Array.from({ length: Math.min(BLOB_READ_BATCH, n - first) }, (_, i) => first + i);
      const items = await this.getItems(ns, seqs.map((seq) => `c${size}_${seq}`));
      seqs.forEach((seq, i) => {
        const data = items[i]?.value?.data;
        if (typeof data !== "string") throw damaged(`chunk ${seq} of ${n} is missing`);
        const off = seq * size;
        const len = Math.min(size, length - off);
        if (Buffer.byteLength(data, "base64") !== len) throw damaged(`chunk ${seq} holds ${Buffer.byteLength(data, "base64")} bytes, expected ${len}`);
        out.write(data, off, len, "base64");
        hash.update(out.subarray(off, off + len));
      });
    }
    const digest = hash.digest("hex");
    if (digest !== sha256) throw damaged(`sha256 ${digest}, its head says ${sha256}`);
    return out;
  }

  async putBlob(key: string, bytes: Uint8Array): Promise<void> {
    this.checkOpen();
    checkBlobKey("LangGraphRoutingStore.putBlob", key);
    checkBlobBytes("LangGraphRoutingStore.putBlob", key, bytes);
    const ns = this.blobNs(key);
    const [existing] = await this.getItems(ns, ["head"]);
    if (existing?.value) {
      await this.markUsed(ns, existing);
      return;
    }
    const size = this.blobChunkBytes;
    const chunks = Math.ceil(bytes.byteLength / size);
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // One chunk per batch call: a backend serializes a call's values at once.
    for (let seq = 0; seq < chunks; seq++) {
      const data = view.subarray(seq * size, Math.min(bytes.byteLength, (seq + 1) * size)).toString("base64");
      await this.putItems(ns, [{ key: `c${size}_${seq}`, value: { data } }]);
    }
    // Last: the blob exists from here on.
    await this.putItems(ns, [{ key: "head", value: { key, chunks, chunkBytes: size, bytes: bytes.byteLength, sha256: blobDigest(bytes) } }]);
  }

  /** Puts a blob's head again (same value) when its last put is more than an hour old. Best effort: reported. */
  private async markUsed(ns: string[], head: ItemLike): Promise<void> {
    const age = ageOf(head, Date.now());
    if (age === undefined || age < BLOB_USE_MARK_MS) return;
    try {
      await this.putItems(ns, [{ key: "head", value: head.value }]);
    } catch (err) {
      this.warn(`[tool-attention] langgraph store: could not mark blob "${String(head.value.key)}" as used (${(err as Error)?.message ?? err})`);
    }
  }

  /**
   * Deletes the blobs unused for at least `unusedForMs` (see `RoutingStore.pruneBlobs`): the head first (the blob is
   * gone from then on), then its chunks. Needs a backend that lists namespaces and dates its items.
   */
  async pruneBlobs(options: PruneBlobsOptions): Promise<PruneBlobsResult> {
    this.checkOpen();
    const unusedForMs = checkUnusedForMs("LangGraphRoutingStore.pruneBlobs", options);
    const prefix = [...this.namespace, "blobs"];
    const namespaces: string[][] = [];
    for (let offset = 0; ; offset += LIST_PAGE) {
      const [page] = await this.store.batch([{ matchConditions: [{ matchType: "prefix", path: prefix }], maxDepth: prefix.length + 1, limit: LIST_PAGE, offset }]);
      if (!Array.isArray(page)) throw new Error("LangGraphRoutingStore.pruneBlobs: the store did not list namespaces (its batch() has no ListNamespaces operation)");
      namespaces.push(...(page as string[][]).filter((ns) => Array.isArray(ns) && ns.length === prefix.length + 1));
      if (page.length < LIST_PAGE) break;
    }
    const deleted: string[] = [];
    let bytes = 0;
    const now = Date.now();
    for (const ns of namespaces) {
      const [head] = await this.getItems(ns, ["head"]);
      const age = head?.value ? ageOf(head, now) : undefined;
      if (!head || age === undefined || age < unusedForMs) continue;
      const { key, chunks, chunkBytes, bytes: size } = head.value as { key?: unknown; chunks?: unknown; chunkBytes?: unknown; bytes?: unknown };
      await this.store.batch([{ namespace: ns, key: "head", value: null }]);
      const n = Number.isInteger(chunks) ? (chunks as number) : 0;
      for (let seq = 0; seq < n; seq += this.batchSize)
        await this.store.batch(Array.from({ length: Math.min(this.batchSize, n - seq) }, (_, i) => ({ namespace: ns, key: `c${String(chunkBytes)}_${seq + i}`, value: null })));
      deleted.push(String(key));
      bytes += Number.isInteger(size) ? (size as number) : 0;
    }
    return { deleted, bytes };
  }

  /** Stops the watchers. The BaseStore itself stays open (it is the application's). */
  async close(): Promise<void> {
    this.closed = true;
    this.pollers.close();
  }

  private checkOpen(): void {
    if (this.closed) throw new Error("LangGraphRoutingStore: the store is closed");
  }
}
