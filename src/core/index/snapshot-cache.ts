/**
 * Where a built HNSW index (and the BM25 index of the same catalog) is kept so the next process loads it instead
 * of embedding, linking and tokenizing 100,000 tools:
 * the shared store's blobs (`RoutingStore.getBlob` / `putBlob`, every process of a deployment), or without a store
 * the local disk cache directory (`<cacheDir>/blobs/`, one machine). The snapshot holds the rows too, so a hit
 * needs neither the encoder nor the stored vectors.
 *
 * The key is a content hash of everything the graph depends on: the dense model id, the texts in catalog order,
 * how tool texts are split into weighted fields, and the build options (M, efConstruction, seed, keepPruned).
 * Search-time options (efSearch, upperBeam) are not part of it: they apply to a loaded graph as to a built one.
 * Equal keys therefore mean byte-equal snapshots, and any number of writers is safe (first writer wins).
 */
import { createHash } from "node:crypto";
import { DiskRoutingStore } from "../store/disk.js";
import type { RoutingStore } from "../store/types.js";
import { DEFAULT_HNSW, type HnswOptions } from "./hnsw-index.js";
import type { Bm25Field, Bm25Options } from "../encoders/bm25.js";

/** Reads and writes index snapshots by key. */
export interface SnapshotCache {
  /** Where snapshots live, for log lines ("postgres store", "disk cache /path"). */
  readonly where: string;
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

/** Snapshot format generation: bump when the graph a given key builds changes. */
const KEY_VERSION = 1;

/** The snapshot key of an HNSW index over `texts` (see the module comment). */
export function hnswSnapshotKey(modelId: string, texts: readonly string[], build: HnswOptions, layout: unknown): string {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      v: KEY_VERSION,
      model: modelId,
      M: build.M ?? DEFAULT_HNSW.M,
      efConstruction: build.efConstruction ?? DEFAULT_HNSW.efConstruction,
      seed: build.seed ?? DEFAULT_HNSW.seed,
      keepPruned: build.keepPruned ?? DEFAULT_HNSW.keepPruned,
      layout: layout ?? null,
      n: texts.length,
    }),
  );
  for (const t of texts) h.update("\0").update(t);
  return `hnsw-${h.digest("hex").slice(0, 40)}`;
}

/** The snapshot key of a BM25 index over these weighted fields, built with these options. */
export function bm25SnapshotKey(options: Bm25Options, fields: readonly (readonly Bm25Field[])[]): string {
  const h = createHash("sha256");
  h.update(JSON.stringify({ v: KEY_VERSION, options, n: fields.length }));
  for (const doc of fields) {
    h.update("\u0001");
    for (const f of doc) h.update(`${f.weight ?? 1}|${f.identifier ? 1 : 0}|`).update(f.text ?? "").update("\0");
  }
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
