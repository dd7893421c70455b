/**
 * Settings of the HNSW index and their size-dependent defaults. Build-time settings (M, efConstruction, seed,
 * keepPruned, rowPrecision) shape the graph and are part of a snapshot's key; search-time ones (efSearch, upperBeam)
 * apply to a loaded graph as to a built one.
 */

export interface HnswOptions {
  /** Links per node on the upper layers (layer 0 keeps 2M). Default 16. */
  M?: number;
  /**
   * Beam width while inserting: larger builds slower and finds better links. Default 100; an index created for a
   * known number of rows (`createVectorIndex`'s sizing, as the router does) gets round(100 · (N / 10,000)^0.3) when
   * that is larger: 100 up to 10,000 rows, 200 at 100,000. At 100,000 derived rows and the bench's 100 task
   * queries, 200 instead of 100 raised recall@10 at a beam of 405 from 0.987 to 0.996 and doubled the build
   * (35 s to 74 s, dev run).
   */
  efConstruction?: number;
  /**
   * Beam width while searching (at least k is used). Larger is slower and closer to exact. Default: grows with the
   * index, round(128 · (N / 10,000)^0.4), at least 64 (128 at 10,000 rows, 322 at 100,000). Measured recall@10
   * against exact search with real queries (docs/deployment.md, Scale): 0.992 at 10,000 USE-lite tool vectors. At 100,000
   * derived ones, built with efConstruction 200, a beam of 320 gave 0.995 and 405 gave 0.996 (dev sweep, the
   * bench's 100 task queries).
   */
  efSearch?: number;
  /** Seed of the level draws. Default 42. */
  seed?: number;
  /**
   * After the neighbour heuristic, fill the free link slots with the best candidates it pruned. Catalogs hold many
   * near-duplicate tools (one tool connected for several deployments); the heuristic alone links a cluster of them
   * sparsely. Measured on USE-lite vectors it buys about as much recall as a larger efSearch at the same search time, and doubles the build: default false.
   */
  keepPruned?: boolean;
  /**
   * Beam width of the search on layer 1, whose results all seed layer 0 (1: the classic single greedy path). Queries
   * are phrased unlike tool texts (out of distribution); with one greedy path, layer 0 often starts in the wrong
   * region (recall@10 0.91 at 100,000 rows against 0.99 with a beam of 128, same efSearch and build). Default: grows
   * with the index, round(16 · (N / 10,000)^0.9), at least 8 (16 at 10,000 rows, 127 at 100,000).
   */
  upperBeam?: number;
  /**
   * Precision of the stored rows. "float16" (default) rounds each normalized component to half precision as the row
   * is added (see half.ts): a cosine moves by at most 2^-11, about 1e-5 on sentence vectors, and a snapshot takes
   * half the bytes (116 instead of 218 MB at 100,000 rows of 512). "float32" keeps the rows as given.
   */
  rowPrecision?: "float16" | "float32";
}

export const DEFAULT_HNSW = { M: 16, efConstruction: 100, seed: 42, keepPruned: false, rowPrecision: "float16" } as const;

/** Default efSearch for an index of n rows (see `HnswOptions.efSearch`). */
export function defaultEfSearch(n: number): number {
  return Math.max(64, Math.round(128 * Math.pow(Math.max(n, 1) / 10_000, 0.4)));
}

/** Default efConstruction for an index created for n rows (see `HnswOptions.efConstruction`). */
export function defaultEfConstruction(n: number): number {
  return Math.max(DEFAULT_HNSW.efConstruction, Math.min(1_000, Math.round(100 * Math.pow(Math.max(n, 1) / 10_000, 0.3))));
}

/** Default upperBeam for an index of n rows (see `HnswOptions.upperBeam`). */
export function defaultUpperBeam(n: number): number {
  return Math.max(8, Math.round(16 * Math.pow(Math.max(n, 1) / 10_000, 0.9)));
}
