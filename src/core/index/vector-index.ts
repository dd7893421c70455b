/**
 * Vector index used by the router: exact (flat) inner-product search over unit-normalized rows, so the inner
 * product is the cosine similarity. Two interchangeable backends:
 *  - "faiss": faiss `IndexFlatIP` through the optional native module faiss-node (`npx tool-attention setup-faiss`);
 *  - "flat":  a pure-TS scan over one contiguous Float32Array (always available).
 * Both normalize defensively, break score ties by lower id and return the same hits.
 */
import { FaissIndex, loadFaiss } from "./faiss-index.js";
import { FlatIndex } from "./flat-index.js";

export interface SearchHit {
  /** Insertion position of the row (0-based, across all `add` calls). */
  id: number;
  /** Inner product with the normalized query (cosine similarity, in [-1, 1]). */
  score: number;
}

export interface VectorIndex {
  readonly kind: "faiss" | "flat";
  readonly dim: number;
  readonly size: number;
  /** Adds unit-normalized rows (the index normalizes defensively: inner product == cosine). */
  add(vectors: ArrayLike<number>[]): void;
  /** Top-k by inner product, best first; ties broken by lower id so both kinds agree. k is clamped to size. */
  search(query: ArrayLike<number>, k: number): SearchHit[];
  /** Scores of ALL rows for one query (used for θ counting), Float32Array of length size. */
  scoreAll(query: ArrayLike<number>): Float32Array;
}

export type IndexPreference = "auto" | "faiss" | "flat";

/** Environment variable that overrides the `"auto"` preference (values: flat | faiss | auto). */
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
  if (raw === "auto" || raw === "faiss" || raw === "flat") return raw;
  throw new Error(`${INDEX_ENV_VAR} must be one of flat | faiss | auto, got "${process.env[INDEX_ENV_VAR]}"`);
}

/** The preference after applying the environment override (which only overrides `"auto"`). */
function effectivePreference(prefer: IndexPreference): IndexPreference {
  return prefer === "auto" ? (envPreference() ?? "auto") : prefer;
}

/**
 * Creates an empty index. `"auto"` (default; overridable with TOOL_ATTENTION_INDEX) uses faiss when faiss-node
 * loads and the pure-TS flat index otherwise; `"faiss"` throws when faiss-node cannot be loaded.
 */
export async function createVectorIndex(dim: number, prefer: IndexPreference = "auto"): Promise<VectorIndex> {
  checkDim(dim);
  const pref = effectivePreference(prefer);
  if (pref === "flat") return new FlatIndex(dim);
  const faiss = loadFaiss();
  if (faiss.ok) return new FaissIndex(dim, faiss.module);
  if (pref === "faiss") {
    throw new Error(
      `vector index: faiss was requested but faiss-node is not loadable: ${faiss.reason} ` +
        `(the build needs apt-get install libfaiss-dev libblas-dev liblapack-dev); ` +
        `or use the pure-TS index (${INDEX_ENV_VAR}=flat).`,
    );
  }
  return new FlatIndex(dim);
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
  const faiss = loadFaiss();
  if (faiss.ok) return "index: faiss IndexFlatIP (faiss-node, libfaiss)";
  if (pref === "faiss") return `index: unavailable (${forced} but faiss-node not loadable: ${faiss.reason})`;
  return `index: pure-TS flat (faiss-node not loadable: ${faiss.reason}; ${FLAT_IS_ENOUGH})`;
}
