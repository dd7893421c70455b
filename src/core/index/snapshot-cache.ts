/**
 * Where a built HNSW index (and the BM25 index of the same catalog) is kept so the next process loads it instead
 * of embedding, linking and tokenizing 100,000 tools:
 * the shared store's blobs (`RoutingStore.getBlob` / `putBlob`, every process of a deployment), or without a store
 * the local disk cache directory (`<cacheDir>/blobs/`, one machine). The snapshot holds the rows too, so a hit
 * needs neither the encoder nor the stored vectors.
 *
 * The key is a content hash of everything the index depends on: for HNSW the dense model id, the build options (M,
 * efConstruction, seed, keepPruned, rowPrecision) and what the tool texts are made of; for BM25 its options and the
 * same sources. "What the texts are made of" is `toolSourceDigest`: the raw names, servers, descriptions, parameter
 * names, tags and server descriptions in catalog order with the text options, hashed without cleaning or splitting
 * anything, so that finding a snapshot costs a hash, not the text processing of 100,000 tools. Search-time options
 * (efSearch, upperBeam) are not part of it: they apply to a loaded graph as to a built one. Equal keys therefore mean
 * byte-equal snapshots, and any number of writers is safe (first writer wins).
 */
import { createHash } from "node:crypto";
import { DiskRoutingStore } from "../store/disk.js";
import type { RoutingStore } from "../store/types.js";
import { DEFAULT_HNSW, type HnswOptions } from "./hnsw-index.js";
import type { Bm25Options } from "../encoders/bm25.js";
import type { ToolCatalog } from "../catalog/catalog.js";
import { parameterKeysOf, type ToolTextOptions } from "../catalog/text.js";

/** Reads and writes index snapshots by key. */
export interface SnapshotCache {
  /** Where snapshots live, for log lines ("postgres store", "disk cache /path"). */
  readonly where: string;
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

/**
 * Key generation: bump when the index a given key builds changes, including any change to how tool texts are made
 * from their sources (catalog/text.ts, the lexical fields).
 */
const KEY_VERSION = 3;

const sourceDigests = new WeakMap<ToolCatalog, Map<string, string>>();

/**
 * A digest of the sources of a catalog's tool texts under the router's `toolText` options (see the module comment),
 * kept per catalog object and options.
 */
export function toolSourceDigest(catalog: ToolCatalog, toolText: ToolTextOptions | undefined): string {
  const options = JSON.stringify(toolText ?? {});
  let byOptions = sourceDigests.get(catalog);
  const known = byOptions?.get(options);
  if (known !== undefined) return known;
  const h = createHash("sha256");
  h.update(JSON.stringify({ v: KEY_VERSION, options, multiServer: catalog.servers.size > 1, n: catalog.size }));
  // The text goes to the hash in pieces of about 64 KB: one update per field costs more than the hashing on
  // 100,000 tools. The pieces end on separators, so the bytes hashed are those of the fields one by one.
  let text = "";
  for (const [server, description] of catalog.servers) text += `\u0002${server}\0${description ?? "\u0003"}`;
  for (const t of catalog.tools) {
    text += `\u0001${t.name}\0${t.server}\0${t.description}\0`;
    for (const k of parameterKeysOf(t.inputSchema)) text += `${k}\u0004`;
    text += "\0";
    for (const tag of t.tags) text += `${tag}\u0004`;
    if (text.length >= 65_536) {
      h.update(text);
      text = "";
    }
  }
  h.update(text);
  const digest = h.digest("hex");
  if (!byOptions) sourceDigests.set(catalog, (byOptions = new Map()));
  byOptions.set(options, digest);
  return digest;
}

/** The snapshot key of an HNSW index over a catalog's tool texts (`sources`: `toolSourceDigest`). */
export function hnswSnapshotKey(modelId: string, sources: string, build: HnswOptions, layout: unknown): string {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      v: KEY_VERSION,
      model: modelId,
      M: build.M ?? DEFAULT_HNSW.M,
      efConstruction: build.efConstruction ?? DEFAULT_HNSW.efConstruction,
      seed: build.seed ?? DEFAULT_HNSW.seed,
      keepPruned: build.keepPruned ?? DEFAULT_HNSW.keepPruned,
      rowPrecision: build.rowPrecision ?? DEFAULT_HNSW.rowPrecision,
      layout: layout ?? null,
      sources,
    }),
  );
  return `hnsw-${h.digest("hex").slice(0, 40)}`;
}

/** The snapshot key of a BM25 index over a catalog's lexical fields (`sources`: `toolSourceDigest`). */
export function bm25SnapshotKey(options: Bm25Options, sources: string): string {
  const h = createHash("sha256");
  h.update(JSON.stringify({ v: KEY_VERSION, options, sources }));
  return `bm25-${h.digest("hex").slice(0, 40)}`;
}

/** The store's blobs, when it has them. */
export function storeSnapshotCache(store: RoutingStore): SnapshotCache | undefined {
  if (typeof store.getBlob !== "function" || typeof store.putBlob !== "function") return undefined;
  return {
    where: `${store.kind} store`,
    get: (key) => store.getBlob!(key),
    put: (key, bytes) => store.putBlob!(key, bytes),
  };
}

/** Blob files under a local cache directory (the router's `cacheDir`). */
export function diskSnapshotCache(dir: string): SnapshotCache {
  const store = new DiskRoutingStore({ dir });
  return {
    where: `disk cache ${store.dir}`,
    get: (key) => store.getBlob(key),
    put: (key, bytes) => store.putBlob(key, bytes),
  };
}
