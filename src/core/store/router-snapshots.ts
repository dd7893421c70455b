/**
 * Where a router keeps and finds the snapshots of its large indexes (the HNSW graph with its rows, and the BM25
 * index of the same catalog): the shared store's blobs when the router has a store, else the local disk cache.
 * A process that finds a snapshot skips embedding, linking and tokenizing the catalog (see
 * index/snapshot-cache.ts for the keys).
 *
 * A snapshot is an optimization only: one that cannot be read or decoded is logged and the index rebuilt, one that
 * cannot be written is logged and the router goes on without it.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import type { ToolTextOptions } from "../catalog/text.js";
import { Bm25Index, type Bm25Options } from "../encoders/bm25.js";
import { defaultEmbeddingCacheDir } from "../encoders/cache.js";
import { HnswIndex } from "../index/hnsw-index.js";
import {
  bm25SnapshotKey,
  diskSnapshotCache,
  hnswSnapshotKey,
  storeSnapshotCache,
  toolSourceDigest,
  type SnapshotCache,
} from "../index/snapshot-cache.js";
import { hnswBuildFor, usesAnn, willUseHnsw, type AnnOptions, type IndexPreference } from "../index/vector-index.js";
import type { RouterStoreBinding } from "./binding.js";

/** What the snapshot keys depend on from the router's encoder (read when a snapshot is looked up). */
export interface SnapshotEncoder {
  /** The dense encoder's id: part of the HNSW key. */
  readonly denseModelId: string;
  /** True for the hashed lexical encoder, whose corpus-dependent vectors are never kept. */
  readonly hashedLexical: boolean;
}

/** Settings of a router's snapshots, fixed at construction. */
export interface RouterSnapshotOptions {
  /** The router's store, whose blobs hold the snapshots; undefined without one. */
  binding?: RouterStoreBinding;
  /** `RouterOptions.cacheDir`: the disk cache (off by default with a store; false turns it off). */
  cacheDir?: string | false;
  /** Approximate-search settings (false: no HNSW, so no snapshot). */
  ann: AnnOptions | false;
  /** `RouterOptions.toolText`: part of every key. */
  toolText?: ToolTextOptions;
  encoder: SnapshotEncoder;
  /** Where a snapshot that could not be read or written is reported. */
  log: (line: string) => void;
}

export class RouterSnapshots {
  private diskSnapshots?: SnapshotCache;

  constructor(private readonly options: RouterSnapshotOptions) {}

  /** The store's blobs, else the local disk cache (unless turned off); undefined when neither is on. */
  blobCache(): SnapshotCache | undefined {
    const { binding, cacheDir } = this.options;
    const fromStore = binding ? storeSnapshotCache(binding.store) : undefined;
    if (fromStore) return fromStore;
    const dir = binding && cacheDir === undefined ? false : (cacheDir ?? defaultEmbeddingCacheDir());
    return dir === false ? undefined : (this.diskSnapshots ??= diskSnapshotCache(dir));
  }

  /** Where index snapshots are kept: the blob cache, unless approximate search is off or the encoder is stateful. */
  private indexCache(): SnapshotCache | undefined {
    if (this.options.ann === false || this.options.encoder.hashedLexical) return undefined;
    return this.blobCache();
  }

  private hnswKey(catalog: ToolCatalog): string {
    const { ann, toolText, encoder } = this.options;
    const build = hnswBuildFor(catalog.size, ann || undefined);
    return hnswSnapshotKey(encoder.denseModelId, toolSourceDigest(catalog, toolText), build, toolText?.fieldWeights ?? null);
  }

  /** The HNSW index of a catalog's dense rows from a snapshot, when the catalog gets one and a snapshot exists. */
  async loadHnsw(catalog: ToolCatalog, prefer: IndexPreference): Promise<HnswIndex | undefined> {
    // One row per tool, except with fieldWeights (component texts summed into rows): the rows are still one per tool.
    const rowCount = catalog.size;
    const ann = this.options.ann;
    if (!willUseHnsw(rowCount, prefer, ann)) return undefined;
    const cache = this.indexCache();
    if (!cache) return undefined;
    const a = ann || {};
    return this.read(cache, "index", this.hnswKey(catalog), (bytes) => {
      const loaded = HnswIndex.fromBytes(bytes, { efSearch: a.efSearch, upperBeam: a.upperBeam });
      if (loaded.size !== rowCount) throw new Error(`snapshot holds ${loaded.size} rows, the catalog has ${rowCount} tools`);
      return loaded;
    });
  }

  /** Keeps a freshly built HNSW index for the next process. */
  async saveHnsw(catalog: ToolCatalog, index: HnswIndex): Promise<void> {
    const cache = this.indexCache();
    if (cache) await this.keep(cache, "index", this.hnswKey(catalog), index);
  }

  /**
   * The BM25 index of a catalog: a catalog large enough for the approximate index keeps it as a snapshot next to
   * the HNSW one (tokenizing 100,000 tools takes seconds; loading the snapshot does not); `build` makes it otherwise.
   */
  async lexicalIndex(catalog: ToolCatalog, options: Bm25Options, build: () => Bm25Index): Promise<Bm25Index> {
    const cache = usesAnn(catalog.size, this.options.ann) ? this.indexCache() : undefined;
    if (!cache) return build();
    const key = bm25SnapshotKey(options, toolSourceDigest(catalog, this.options.toolText));
    const loaded = await this.read(cache, "lexical", key, (bytes) => {
      const index = Bm25Index.fromBytes(bytes, options);
      if (index.size !== catalog.size) throw new Error(`snapshot holds ${index.size} documents, the catalog has ${catalog.size} tools`);
      return index;
    });
    if (loaded) return loaded;
    const index = build();
    // Kept for the next process behind the routes of this one (a store write of megabytes at 10,000 tools): a
    // progressive start routes on this index as soon as it is built. `settled()` waits for the write.
    this.track(this.keep(cache, "lexical", key, index));
    return index;
  }

  /** Snapshot writes still running. */
  private readonly writes = new Set<Promise<void>>();

  private track(write: Promise<void>): void {
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }

  /** Resolves when every snapshot write started so far has ended (failures are logged by the write). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  /**
   * A snapshot decoded, or undefined when there is none. A damaged or unreadable one (decode throws) is logged and
   * costs a rebuild, never the catalog.
   */
  private async read<T>(cache: SnapshotCache, what: string, key: string, decode: (bytes: Uint8Array) => T): Promise<T | undefined> {
    try {
      const bytes = await cache.get(key);
      return bytes ? decode(bytes) : undefined;
    } catch (err) {
      this.options.log(`tool-attention: ${what} snapshot ${key} in the ${cache.where} not used (${(err as Error).message}); building the index`);
      return undefined;
    }
  }

  /** Keeps a freshly built index for the next process (failures are logged: the router works without). */
  private async keep(cache: SnapshotCache, what: string, key: string, index: { toBytes(): Uint8Array }): Promise<void> {
    try {
      await cache.put(key, index.toBytes());
    } catch (err) {
      this.options.log(`tool-attention: could not keep the ${what} snapshot ${key} in the ${cache.where} (${(err as Error).message})`);
    }
  }
}
