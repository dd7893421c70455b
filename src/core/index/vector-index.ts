/**
 * Vector index used by the router: inner-product search over unit-normalized rows, so the inner product is the
 * cosine similarity. Three backends:
 *  - "faiss": faiss `IndexFlatIP` (exact) through the optional native module faiss-node (`npx tool-attention setup-faiss`);
 *  - "flat":  an exact pure-TS scan over one contiguous Float32Array (always available);
 *  - "hnsw":  an approximate pure-TS HNSW graph (hnsw-index.ts) over the same kind of storage, used by default on
 *    catalogs of `ann.threshold` (5,000) tools or more, where the router generates candidates instead of scoring
 *    every tool. Its `scoreAll` stays exact.
 * The exact two normalize defensively, break score ties by lower id and return the same hits.
 *
 * faiss HNSW/IVF: faiss-node 0.5.1 can create them (`Index.fromFactory(d, "HNSW32,Flat", METRIC_INNER_PRODUCT)`)
 * but exposes no way to set efSearch or nprobe (no ParameterSpace binding), and its add/search take plain JS arrays;
 * so the approximate index is the pure-TS one whether or not faiss-node loads.
 */
import { FaissIndex, loadFaiss } from "./faiss-index.js";
import { FlatIndex } from "./flat-index.js";
import { DEFAULT_HNSW, defaultEfConstruction, HnswIndex, type HnswOptions } from "./hnsw-index.js";

export interface SearchHit {
  /** Insertion position of the row (0-based, across all `add` calls). */
  id: number;
  /** Inner product with the normalized query (cosine similarity, in [-1, 1]). */
  score: number;
}

export interface VectorIndex {
  readonly kind: "faiss" | "flat" | "hnsw";
  readonly dim: number;
  readonly size: number;
  /** Adds unit-normalized rows (the index normalizes defensively: inner product == cosine). */
  add(vectors: ArrayLike<number>[]): void;
  /** Top-k by inner product, best first; ties broken by lower id so both kinds agree. k is clamped to size. */
  search(query: ArrayLike<number>, k: number): SearchHit[];
  /** Scores of ALL rows for one query (used for θ counting), Float32Array of length size. */
  scoreAll(query: ArrayLike<number>): Float32Array;
}

/**
 * `"auto"`: exact below `ann.threshold` rows (faiss from `FAISS_MIN_ROWS` rows when it loads, else flat), HNSW from
 * it on. `"faiss"` / `"flat"`: always that exact index. `"hnsw"`: always the approximate index.
 */
export type IndexPreference = "auto" | "faiss" | "flat" | "hnsw";

/** Approximate search on large catalogs (see `RouterOptions.ann`); HNSW settings are in `HnswOptions`. */
export interface AnnOptions extends HnswOptions {
  /**
   * Catalogs with at least this many tools get the HNSW index and candidate routing (with `index: "auto"`).
   * Below it routing is exact and ranks exactly as before. Default 5,000.
   */
  threshold?: number;
  /**
   * Candidates per channel on the approximate path: the HNSW's top-C by cosine ∪ the lexical channel's top-C; only
   * these are fused and ranked (at least the slate size is used). Default 100.
   */
  candidates?: number;
}

/**
 * Rows from which `"auto"` uses faiss when it loads. Below, the pure-TS flat scan ranks the same within a
 * millisecond (0.32 ms at 500 tools against faiss's 0.21 ms, measured by `npm run bench` 2026-11-26), and loading
 * libfaiss with its BLAS and OpenMP runtime adds about 14 MiB to the process (measured 2026-11-26 at 500 tools).
 */
export const FAISS_MIN_ROWS = 2_000;

/** Default `ann.threshold`: catalogs of this many tools or more route through HNSW candidates. */
export const DEFAULT_ANN_THRESHOLD = 5_000;
/** Default `ann.candidates`. */
export const DEFAULT_ANN_CANDIDATES = 100;
export { DEFAULT_HNSW };

/** Environment variable that overrides the `"auto"` preference (values: flat | faiss | hnsw | auto). */
export const INDEX_ENV_VAR = "TOOL_ATTENTION_INDEX";

/**
 * Scales `v` to unit L2 norm in place and returns it. A zero (or non-normalizable) vector is left as is, so it
 * scores 0 against everything instead of producing NaN.
 */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) {
    const inv = 1 / norm;
    for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  }
  return v;
}

/**
 * Checks every row's dimension before a backend touches its storage, so a bad batch leaves the index unchanged.
 * @internal shared by both backends.
 */
export function assertRowDims(vectors: readonly ArrayLike<number>[], dim: number): void {
  for (let r = 0; r < vectors.length; r++) {
    const len = vectors[r]?.length;
    if (len !== dim) throw new Error(`vector index: row ${r} has the wrong dimension: expected ${dim}, got ${len}`);
  }
}

/**
 * Copies `src` into `out` (length `dim`) and normalizes it. Throws on a dimension mismatch or a non-finite value.
 * @internal shared by both backends.
 */
export function copyNormalized(src: ArrayLike<number>, dim: number, out: Float32Array, what: string): Float32Array {
  if (src == null || typeof src.length !== "number") throw new TypeError(`vector index: ${what} is not an array of numbers`);
  if (src.length !== dim) throw new Error(`vector index: ${what} has the wrong dimension: expected ${dim}, got ${src.length}`);
  for (let i = 0; i < dim; i++) {
    const x = src[i]!;
    if (!Number.isFinite(x)) throw new Error(`vector index: ${what} has a non-finite value at position ${i} (${x})`);
    out[i] = x;
  }
  return normalizeInPlace(out);
}

/**
 * When faiss is worth building: both indexes are exact and rank identically, so it only saves search time. The
 * pure-TS scan of 512-d rows takes about 1 ms per 1,000 tools per query (10 ms at 10,000 on one core), next to
 * 20–50 ms for encoding the query.
 */
const FLAT_IS_ENOUGH = "same rankings; faiss only pays off on catalogs of thousands of tools, where it speeds up search";

function checkDim(dim: number): void {
  if (!Number.isInteger(dim) || dim <= 0) throw new Error(`vector index: dim must be a positive integer, got ${dim}`);
}

function envPreference(): IndexPreference | undefined {
  const raw = process.env[INDEX_ENV_VAR]?.trim().toLowerCase();
  if (!raw) return undefined;
  if (raw === "auto" || raw === "faiss" || raw === "flat" || raw === "hnsw") return raw;
  throw new Error(`${INDEX_ENV_VAR} must be one of flat | faiss | hnsw | auto, got "${process.env[INDEX_ENV_VAR]}"`);
}

/** The preference after applying the environment override (which only overrides `"auto"`). */
function effectivePreference(prefer: IndexPreference): IndexPreference {
  return prefer === "auto" ? (envPreference() ?? "auto") : prefer;
}

/** How many rows an index is created for, and the approximate-search settings (`false`: always exact). */
export interface IndexSizing {
  rows?: number;
  ann?: AnnOptions | false;
}

/** True when `"auto"` picks the approximate index for `rows` rows under these settings. */
export function usesAnn(rows: number, ann: AnnOptions | false | undefined): boolean {
  return ann !== false && rows >= (ann?.threshold ?? DEFAULT_ANN_THRESHOLD);
}

/** The HNSW options an index created for `rows` rows is built with: the size-dependent efConstruction filled in. */
export function hnswBuildFor(rows: number, ann: AnnOptions | undefined): HnswOptions {
  return ann?.efConstruction !== undefined ? ann : { ...ann, efConstruction: defaultEfConstruction(rows) };
}

/** Whether `createVectorIndex(dim, prefer, { rows, ann })` makes an HNSW index. */
export function willUseHnsw(rows: number, prefer: IndexPreference = "auto", ann?: AnnOptions | false): boolean {
  const pref = effectivePreference(prefer);
  return pref === "hnsw" || (pref === "auto" && usesAnn(rows, ann));
}

/**
 * Creates an empty index. `"auto"` (default; overridable with TOOL_ATTENTION_INDEX) uses the HNSW index when
 * `sizing.rows` reaches the ANN threshold, else faiss when `sizing.rows` reaches `FAISS_MIN_ROWS` and faiss-node
 * loads, and the pure-TS flat index otherwise; `"faiss"` throws when faiss-node cannot be loaded.
 */
export async function createVectorIndex(dim: number, prefer: IndexPreference = "auto", sizing: IndexSizing = {}): Promise<VectorIndex> {
  checkDim(dim);
  const pref = effectivePreference(prefer);
  const ann = sizing.ann === false ? undefined : sizing.ann;
  if (pref === "hnsw" || (pref === "auto" && usesAnn(sizing.rows ?? 0, sizing.ann)))
    return new HnswIndex(dim, hnswBuildFor(sizing.rows ?? 0, ann), Math.max(1024, sizing.rows ?? 0));
  if (pref === "flat" || (pref === "auto" && (sizing.rows ?? 0) < FAISS_MIN_ROWS)) return new FlatIndex(dim, Math.max(64, sizing.rows ?? 0));
  const faiss = loadFaiss();
  if (faiss.ok) return new FaissIndex(dim, faiss.module);
  if (pref === "faiss") {
    throw new Error(
      `vector index: faiss was requested but faiss-node is not loadable: ${faiss.reason} ` +
        `(the build needs apt-get install libfaiss-dev libblas-dev liblapack-dev); ` +
        `or use the pure-TS index (${INDEX_ENV_VAR}=flat).`,
    );
  }
  return new FlatIndex(dim, Math.max(64, sizing.rows ?? 0));
}

/** One line saying which index `createVectorIndex(dim, prefer)` would use, and why. */
export function describeIndexBackend(prefer: IndexPreference = "auto"): string {
  let pref: IndexPreference;
  try {
    pref = effectivePreference(prefer);
  } catch (err) {
    return `index: invalid configuration (${(err as Error).message})`;
  }
  const forced = prefer === "auto" && pref !== "auto" ? `${INDEX_ENV_VAR}=${pref}` : `prefer=${pref}`;
  if (pref === "flat") return `index: pure-TS flat (${forced})`;
  if (pref === "hnsw") return `index: pure-TS HNSW, approximate (${forced})`;
  const faiss = loadFaiss();
  if (faiss.ok) return "index: faiss IndexFlatIP (faiss-node, libfaiss)";
  if (pref === "faiss") return `index: unavailable (${forced} but faiss-node not loadable: ${faiss.reason})`;
  return `index: pure-TS flat (faiss-node not loadable: ${faiss.reason}; ${FLAT_IS_ENOUGH})`;
}

/** The line of `describeIndexBackend`, saying so when a catalog of `rows` tools gets the approximate index. */
export function describeIndexFor(rows: number, prefer: IndexPreference = "auto", ann?: AnnOptions | false): string {
  let pref: IndexPreference | undefined;
  try {
    pref = effectivePreference(prefer);
  } catch {
    // reported by describeIndexBackend
  }
  if (pref === "auto" && usesAnn(rows, ann)) {
    const t = (ann && ann.threshold) ?? DEFAULT_ANN_THRESHOLD;
    return `index: pure-TS HNSW, approximate (${rows} tools ≥ ann.threshold ${t}; candidate routing)`;
  }
  if (pref === "auto" && rows < FAISS_MIN_ROWS) return `index: pure-TS flat (${rows} tools < ${FAISS_MIN_ROWS}; ${FLAT_IS_ENOUGH})`;
  return describeIndexBackend(prefer);
}
