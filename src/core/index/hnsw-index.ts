/**
 * Pure-TS HNSW (hierarchical navigable small world graph, Malkov & Yashunin 2016) over unit-normalized rows, for
 * approximate inner-product (= cosine) search on large catalogs.
 *
 * Storage is allocation-light: rows live normalized in one contiguous Float32Array (like the flat index), layer-0
 * links in one Int32Array (`2M` slots per node), upper-layer links in one small Int32Array per node that has upper
 * layers (about 1 node in M). A search reuses its query buffer, its visited marks (a generation counter, never
 * cleared) and its two heaps: per query it allocates nothing but the result.
 *
 * Deterministic: node levels come from a seeded PRNG (mulberry32, `util/rng.ts`) and rows are inserted in order, so
 * the same rows and options always build the same graph and return the same hits. Ties rank by lower id, as in the
 * exact indexes.
 *
 * Serialization (`toBytes` / `HnswIndex.fromBytes`): one buffer a process can load in milliseconds instead of
 * rebuilding the graph (over a minute at 100,000 rows). Little-endian, every section 4-byte aligned:
 *   header (80 bytes): "TAHNSW", format version, header size, dim, count, M, M0, efConstruction, flags (bit 0:
 *     keepPruned, bit 1: rows in half precision), seed (f64), entry, maxLevel, explicit efSearch / upperBeam (-1:
 *     the size default), PRNG state (so a later `add()` draws the levels the original would have drawn), int32
 *     count of the upper links, total size (f64);
 *   levels (count bytes), deg0 (count bytes), each padded to 4;
 *   links0 (count · M0 int32);
 *   upper links: the per-node arrays back to back, in node order; node i holds levels[i] · (M + 1) ints, so the
 *     offsets follow from `levels` and are not stored;
 *   rows (count · dim, normalized): float32, or binary16 when the index keeps its rows at half precision (the
 *     default), which halves the snapshot.
 * `fromBytes` validates the sections in place and copies them once into the index's own arrays (the rows into its
 * row space, where the SIMD product reads them), so the snapshot's buffer can be freed after loading and is never
 * written.
 *
 * Neighbours are chosen with the paper's heuristic (keep a candidate only if it is closer to the new node than to
 * every neighbour already kept), which keeps long-range links in clustered data such as sentence embeddings.
 * `scoreAll` stays exact (a scan of the same storage), so θ counting and the exact path still work on this index.
 */
import { endianness } from "node:os";
import { Rng } from "../util/rng.js";
import { decodeHalf, encodeHalf, roundToHalf } from "./half.js";
import { RowSpace } from "./row-space.js";
import { assertRowDims, copyNormalized, type SearchHit, type VectorIndex } from "./vector-index.js";

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

/** Magic of a serialized index ("TAHNSW") and its format version. */
const SNAPSHOT_MAGIC = "TAHNSW";
const SNAPSHOT_VERSION = 1;
const SNAPSHOT_HEADER_BYTES = 80;
const pad4 = (n: number) => (n + 3) & ~3;

/** Typed-array sections are copied byte for byte: the format is little-endian, so only such hosts can view them. */
function checkLittleEndian(what: string): void {
  if (endianness() !== "LE") throw new Error(`HNSW snapshot: ${what} needs a little-endian host (this one is big-endian)`);
}

/** Section offsets (bytes) of a snapshot with these sizes; `total` is the snapshot's length. */
function snapshotLayout(count: number, dim: number, M0: number, upperInts: number, rowBytes: 2 | 4) {
  const levels = SNAPSHOT_HEADER_BYTES;
  const deg0 = levels + pad4(count);
  const links0 = deg0 + pad4(count);
  const upper = links0 + count * M0 * 4;
  const data = upper + upperInts * 4;
  return { levels, deg0, links0, upper, data, total: data + count * dim * rowBytes };
}

/** True when (sa, ia) ranks before (sb, ib): higher score first, then lower id. */
function better(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa > sb || (sa === sb && ia < ib);
}

/** Inner product of `q` with the row at offset `off` of `data`. */
function dotQuery(q: Float32Array, data: Float32Array, off: number, dim: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let j = 0;
  const body = dim - (dim & 3);
  for (; j < body; j += 4) {
    s0 += q[j]! * data[off + j]!;
    s1 += q[j + 1]! * data[off + j + 1]!;
    s2 += q[j + 2]! * data[off + j + 2]!;
    s3 += q[j + 3]! * data[off + j + 3]!;
  }
  for (; j < dim; j++) s0 += q[j]! * data[off + j]!;
  return s0 + s1 + s2 + s3;
}

/**
 * A binary heap of (score, id) pairs in typed arrays, grown on demand. `worstFirst`: the root is the worst pair
 * (a bounded result set); otherwise the root is the best (the frontier to expand).
 */
class PairHeap {
  ids = new Int32Array(64);
  sc = new Float32Array(64);
  size = 0;
  constructor(private readonly worstFirst: boolean) {}

  /** True when a should sit above b. */
  private above(sa: number, ia: number, sb: number, ib: number): boolean {
    return this.worstFirst ? better(sb, ib, sa, ia) : better(sa, ia, sb, ib);
  }

  clear(): void {
    this.size = 0;
  }

  push(s: number, id: number): void {
    if (this.size === this.ids.length) {
      const ids = new Int32Array(this.size * 2);
      ids.set(this.ids);
      const sc = new Float32Array(this.size * 2);
      sc.set(this.sc);
      this.ids = ids;
      this.sc = sc;
    }
    const ids = this.ids;
    const sc = this.sc;
    let c = this.size++;
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (!this.above(s, id, sc[p]!, ids[p]!)) break;
      sc[c] = sc[p]!;
      ids[c] = ids[p]!;
      c = p;
    }
    sc[c] = s;
    ids[c] = id;
  }

  /** Removes the root (read it from ids[0] / sc[0] first). */
  pop(): void {
    const last = --this.size;
    if (last <= 0) return;
    const ids = this.ids;
    const sc = this.sc;
    const s = sc[last]!;
    const id = ids[last]!;
    let c = 0;
    for (;;) {
      const l = 2 * c + 1;
      if (l >= last) break;
      const r = l + 1;
      const w = r < last && this.above(sc[r]!, ids[r]!, sc[l]!, ids[l]!) ? r : l;
      if (!this.above(sc[w]!, ids[w]!, s, id)) break;
      sc[c] = sc[w]!;
      ids[c] = ids[w]!;
      c = w;
    }
    sc[c] = s;
    ids[c] = id;
  }
}

export class HnswIndex implements VectorIndex {
  readonly kind = "hnsw" as const;
  readonly dim: number;
  readonly M: number;
  readonly M0: number;
  readonly efConstruction: number;
  /** Explicit efSearch; undefined: the size-dependent default (`defaultEfSearch`). */
  efSearch: number | undefined;
  /** Explicit layer-1 beam; undefined: the size-dependent default (`defaultUpperBeam`). */
  upperBeam: number | undefined;
  readonly seed: number;
  readonly keepPruned: boolean;
  readonly rowPrecision: "float16" | "float32";
  private readonly mL: number;
  private readonly rng: Rng;

  /** The rows: a view of `space` (set by `useSpace`). */
  private data!: Float32Array;
  private count = 0;
  private levels: Uint8Array;
  /** Layer-0 links: node i owns slots [i·M0, (i+1)·M0); `deg0[i]` are used. */
  private links0: Int32Array;
  private deg0: Uint8Array;
  /** Upper-layer links of node i (undefined when its level is 0): per layer l ≥ 1, [count, M slots]. */
  private upper: (Int32Array | undefined)[] = [];
  private entry = -1;
  private maxLevel = -1;

  private visited: Uint32Array;
  private visitMark = 0;
  private readonly frontier = new PairHeap(false);
  private readonly results = new PairHeap(true);
  /** Rows and the query buffer, with the product the graph uses (see row-space.ts). `data` and `query` are its views. */
  private space!: RowSpace;
  private query!: Float32Array;
  private readonly row: Float32Array;
  /** Scratch of the neighbour heuristic. */
  private selIds = new Int32Array(64);
  private selSc = new Float32Array(64);
  private outIds = new Int32Array(64);
  private outSc = new Float32Array(64);

  constructor(dim: number, options: HnswOptions = {}, initialCapacity = 1024) {
    if (!Number.isInteger(dim) || dim <= 0) throw new Error(`vector index: dim must be a positive integer, got ${dim}`);
    const o = { ...DEFAULT_HNSW, ...options };
    for (const [name, v, min, max] of [
      ["M", o.M, 2, 100],
      ["efConstruction", o.efConstruction, 1, 10_000],
      ["efSearch", o.efSearch ?? 64, 1, 100_000],
      ["upperBeam", o.upperBeam ?? 8, 1, 100_000],
    ] as const)
      if (!Number.isInteger(v) || v < min || v > max) throw new Error(`hnsw: ${name} must be an integer from ${min} to ${max}, got ${v}`);
    if (o.rowPrecision !== "float16" && o.rowPrecision !== "float32")
      throw new Error(`hnsw: rowPrecision must be "float16" or "float32", got ${JSON.stringify(o.rowPrecision)}`);
    this.dim = dim;
    this.M = o.M;
    this.M0 = 2 * o.M;
    this.efConstruction = o.efConstruction;
    this.efSearch = o.efSearch;
    this.upperBeam = o.upperBeam;
    this.seed = o.seed;
    this.keepPruned = o.keepPruned;
    this.rowPrecision = o.rowPrecision;
    this.mL = 1 / Math.log(o.M);
    this.rng = new Rng(o.seed);
    const cap = Math.max(16, Math.floor(initialCapacity));
    this.useSpace(new RowSpace(dim, cap));
    this.levels = new Uint8Array(cap);
    this.links0 = new Int32Array(cap * this.M0);
    this.deg0 = new Uint8Array(cap);
    this.visited = new Uint32Array(cap);
    this.row = new Float32Array(dim);
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held by rows and links (not counting the per-search scratch). */
  get bytes(): number {
    let upper = 0;
    for (const u of this.upper) if (u) upper += u.byteLength;
    return this.data.byteLength + this.links0.byteLength + this.deg0.byteLength + this.levels.byteLength + upper + this.visited.byteLength;
  }

  add(vectors: ArrayLike<number>[]): void {
    const dim = this.dim;
    assertRowDims(vectors, dim);
    // Validate every row before touching the graph, so a bad batch leaves the index unchanged.
    for (let r = 0; r < vectors.length; r++) copyNormalized(vectors[r]!, dim, this.row, `row ${r}`);
    this.reserve(this.count + vectors.length);
    for (let r = 0; r < vectors.length; r++) {
      const id = this.count;
      copyNormalized(vectors[r]!, dim, this.data.subarray(id * dim, (id + 1) * dim), `row ${r}`);
      // Rounded before it links: the graph and every score use the values a snapshot keeps.
      if (this.rowPrecision === "float16") roundToHalf(this.data, id * dim, (id + 1) * dim);
      this.count++;
      this.insert(id);
    }
  }

  search(query: ArrayLike<number>, k: number): SearchHit[] {
    const ids = new Int32Array(Math.max(0, Math.min(Math.floor(k), this.count)));
    const scores = new Float32Array(ids.length);
    const n = this.searchInto(query, ids.length, ids, scores);
    const out: SearchHit[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = { id: ids[i]!, score: scores[i]! };
    return out;
  }

  /**
   * Approximate top-k into caller-owned buffers (best first, ties by lower id); returns how many were written.
   * The beam is max(efSearch, k). `seeds` (row ids, e.g. the lexical channel's best tools) also start the layer-0
   * beam. No per-row copy and no allocation beyond buffer growth.
   */
  searchInto(query: ArrayLike<number>, k: number, outIds: Int32Array, outScores: Float32Array, seeds?: ArrayLike<number>): number {
    copyNormalized(query, this.dim, this.query, "query");
    const kk = Math.min(Math.floor(k), this.count, outIds.length, outScores.length);
    if (!(kk > 0)) return 0;
    const space = this.space;
    // The query sits at offset 0 of the space.
    const q = 0;
    let ep = this.entry;
    let epSc = space.dot(q, space.base + ep * this.dim);
    const ef = Math.max(this.efSearch ?? defaultEfSearch(this.count), kk);
    const beam = this.upperBeam ?? defaultUpperBeam(this.count);
    for (let l = this.maxLevel; l >= 2; l--) [ep, epSc] = this.greedy(q, ep, epSc, l);
    let m = 0;
    const extra = seeds ? seeds.length : 0;
    if (this.maxLevel >= 1 && beam > 1) {
      // A beam on layer 1 instead of one greedy path, its results all seeding layer 0: queries are phrased unlike
      // tool texts (out of distribution), and one entry point then often starts layer 0 in the wrong region.
      this.searchLayer(q, ep, epSc, beam, 1);
      const res = this.results;
      this.ensureSel(res.size + extra);
      m = res.size;
      for (let i = 0; i < m; i++) {
        this.selIds[i] = res.ids[i]!;
        this.selSc[i] = res.sc[i]!;
      }
    } else {
      if (this.maxLevel >= 1) [ep, epSc] = this.greedy(q, ep, epSc, 1);
      this.ensureSel(extra);
    }
    for (let i = 0; i < extra; i++) {
      const id = seeds![i]!;
      if (!(id >= 0 && id < this.count)) continue;
      this.selIds[m] = id;
      this.selSc[m++] = space.dot(q, space.base + id * this.dim);
    }
    this.searchLayer(q, ep, epSc, ef, 0, -1, this.selIds, this.selSc, m);
    // results: worst at the root; keep the best kk, written from the back.
    const res = this.results;
    while (res.size > kk) res.pop();
    const n = res.size;
    for (let pos = n - 1; pos >= 0; pos--) {
      outIds[pos] = res.ids[0]!;
      outScores[pos] = res.sc[0]!;
      res.pop();
    }
    return n;
  }

  /** Row i as stored (unit length), a view on the index's storage: read it, never write it. */
  rowView(i: number): Float32Array {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`HnswIndex.rowView: ${i} is outside 0..${this.count - 1}`);
    return this.data.subarray(i * this.dim, (i + 1) * this.dim);
  }

  /** Exact scores of ALL rows (a scan of the same storage), Float32Array of length size. */
  scoreAll(query: ArrayLike<number>): Float32Array {
    copyNormalized(query, this.dim, this.query, "query");
    const out = new Float32Array(this.count);
    const dim = this.dim;
    for (let r = 0, off = 0; r < this.count; r++, off += dim) out[r] = dotQuery(this.query, this.data, off, dim);
    return out;
  }

  /** Exact scores of the given rows: out[ids[i]] = <row ids[i], query> for i < count. */
  scoreIds(query: ArrayLike<number>, ids: ArrayLike<number>, count: number, out: Float32Array): void {
    copyNormalized(query, this.dim, this.query, "query");
    const dim = this.dim;
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      out[id] = dotQuery(this.query, this.data, id * dim, dim);
    }
  }

  /**
   * The whole index as one buffer (layout in the module comment): `HnswIndex.fromBytes` of it searches and grows
   * exactly like this index. Copies the rows and links once.
   */
  toBytes(): Uint8Array {
    checkLittleEndian("toBytes");
    const n = this.count;
    const stride = this.M + 1;
    let upperInts = 0;
    for (let i = 0; i < n; i++) upperInts += this.levels[i]! * stride;
    const half = this.rowPrecision === "float16";
    const at = snapshotLayout(n, this.dim, this.M0, upperInts, half ? 2 : 4);
    const out = new Uint8Array(at.total);
    const h = new DataView(out.buffer, out.byteOffset, SNAPSHOT_HEADER_BYTES);
    for (let i = 0; i < SNAPSHOT_MAGIC.length; i++) h.setUint8(i, SNAPSHOT_MAGIC.charCodeAt(i));
    h.setUint32(8, SNAPSHOT_VERSION, true);
    h.setUint32(12, SNAPSHOT_HEADER_BYTES, true);
    h.setUint32(16, this.dim, true);
    h.setUint32(20, n, true);
    h.setUint32(24, this.M, true);
    h.setUint32(28, this.M0, true);
    h.setUint32(32, this.efConstruction, true);
    h.setUint32(36, (this.keepPruned ? 1 : 0) | (half ? 2 : 0), true);
    h.setFloat64(40, this.seed, true);
    h.setInt32(48, this.entry, true);
    h.setInt32(52, this.maxLevel, true);
    h.setInt32(56, this.efSearch ?? -1, true);
    h.setInt32(60, this.upperBeam ?? -1, true);
    h.setUint32(64, this.rng.getState(), true);
    h.setUint32(68, upperInts, true);
    h.setFloat64(72, at.total, true);
    const bytesOf = (a: Int32Array | Float32Array | Uint8Array, elements: number) => new Uint8Array(a.buffer, a.byteOffset, elements * a.BYTES_PER_ELEMENT);
    out.set(this.levels.subarray(0, n), at.levels);
    out.set(this.deg0.subarray(0, n), at.deg0);
    out.set(bytesOf(this.links0, n * this.M0), at.links0);
    let off = at.upper;
    for (let i = 0; i < n; i++) {
      const u = this.upper[i];
      if (!u || this.levels[i] === 0) continue;
      out.set(bytesOf(u, u.length), off);
      off += u.byteLength;
    }
    // Half rows are exact: they were rounded when added.
    if (half) encodeHalf(this.data.subarray(0, n * this.dim), new Uint16Array(out.buffer, out.byteOffset + at.data, n * this.dim));
    else out.set(bytesOf(this.data, n * this.dim), at.data);
    return out;
  }

  /**
   * An index from `toBytes` output. Validates the header, the sizes and every link, throwing an Error that starts
   * with "HNSW snapshot:" and names the problem. The index copies what it keeps: `bytes` may be reused or freed
   * once this returns.
   *
   * `options`: the search-time settings (efSearch, upperBeam) override the snapshot's; the build-time ones (M,
   * efConstruction, seed, keepPruned, rowPrecision) may be given only with the snapshot's values (a different graph
   * needs a rebuild).
   */
  static fromBytes(bytes: Uint8Array, options: HnswOptions = {}): HnswIndex {
    checkLittleEndian("fromBytes");
    if (!(bytes instanceof Uint8Array)) throw new TypeError("HNSW snapshot: expected a Uint8Array");
    if (bytes.byteLength < SNAPSHOT_HEADER_BYTES)
      throw new Error(`HNSW snapshot: truncated (expected at least ${SNAPSHOT_HEADER_BYTES} bytes of header, got ${bytes.byteLength})`);
    const h = new DataView(bytes.buffer, bytes.byteOffset, SNAPSHOT_HEADER_BYTES);
    let magic = "";
    for (let i = 0; i < SNAPSHOT_MAGIC.length; i++) magic += String.fromCharCode(h.getUint8(i));
    if (magic !== SNAPSHOT_MAGIC) throw new Error(`HNSW snapshot: bad magic (expected "${SNAPSHOT_MAGIC}", got ${JSON.stringify(magic)}): not a serialized HnswIndex`);
    const version = h.getUint32(8, true);
    if (version !== SNAPSHOT_VERSION) throw new Error(`HNSW snapshot: unsupported format version ${version} (this build reads version ${SNAPSHOT_VERSION})`);
    const headerBytes = h.getUint32(12, true);
    if (headerBytes !== SNAPSHOT_HEADER_BYTES) throw new Error(`HNSW snapshot: corrupt header (header size ${headerBytes}, expected ${SNAPSHOT_HEADER_BYTES})`);
    const dim = h.getUint32(16, true);
    const count = h.getUint32(20, true);
    const M = h.getUint32(24, true);
    const M0 = h.getUint32(28, true);
    const efConstruction = h.getUint32(32, true);
    const flags = h.getUint32(36, true);
    const seed = h.getFloat64(40, true);
    const entry = h.getInt32(48, true);
    const maxLevel = h.getInt32(52, true);
    const efSearch = h.getInt32(56, true);
    const upperBeam = h.getInt32(60, true);
    const rngState = h.getUint32(64, true);
    const upperInts = h.getUint32(68, true);
    const total = h.getFloat64(72, true);
    const corrupt = (what: string) => new Error(`HNSW snapshot: corrupt header (${what})`);
    if (dim === 0) throw corrupt("dim 0");
    if (M < 2 || M > 100 || M0 !== 2 * M) throw corrupt(`M ${M}, M0 ${M0}`);
    if (efConstruction < 1 || efConstruction > 10_000) throw corrupt(`efConstruction ${efConstruction}`);
    if (efSearch !== -1 && (efSearch < 1 || efSearch > 100_000)) throw corrupt(`efSearch ${efSearch}`);
    if (upperBeam !== -1 && (upperBeam < 1 || upperBeam > 100_000)) throw corrupt(`upperBeam ${upperBeam}`);
    if (flags > 3) throw corrupt(`flags ${flags}`);
    if (!Number.isFinite(seed)) throw corrupt(`seed ${seed}`);
    if (count === 0 ? entry !== -1 || maxLevel !== -1 : entry < 0 || entry >= count || maxLevel < 0 || maxLevel > 30)
      throw corrupt(`entry ${entry}, maxLevel ${maxLevel} with ${count} rows`);
    const half = (flags & 2) !== 0;
    const at = snapshotLayout(count, dim, M0, upperInts, half ? 2 : 4);
    if (total !== at.total) throw corrupt(`total size ${total} disagrees with the sections' ${at.total}`);
    if (bytes.byteLength < at.total) throw new Error(`HNSW snapshot: truncated (expected ${at.total} bytes, got ${bytes.byteLength})`);
    if (bytes.byteLength > at.total) throw new Error(`HNSW snapshot: ${bytes.byteLength - at.total} unexpected bytes after the expected ${at.total}`);

    const keepPruned = (flags & 1) !== 0;
    const rowPrecision = half ? "float16" : "float32";
    for (const [name, given, stored] of [
      ["M", options.M, M],
      ["efConstruction", options.efConstruction, efConstruction],
      ["seed", options.seed, seed],
      ["keepPruned", options.keepPruned, keepPruned],
      ["rowPrecision", options.rowPrecision, rowPrecision],
    ] as const)
      if (given !== undefined && given !== stored)
        throw new Error(`HNSW snapshot: built with ${name} ${stored}, options ask for ${given} (a different ${name} needs a rebuilt index)`);
    // The constructor validates every setting (efSearch, upperBeam included) and allocates only its minimum capacity.
    const index = new HnswIndex(
      dim,
      {
        M,
        efConstruction,
        seed,
        keepPruned,
        rowPrecision,
        efSearch: options.efSearch ?? (efSearch >= 0 ? efSearch : undefined),
        upperBeam: options.upperBeam ?? (upperBeam >= 0 ? upperBeam : undefined),
      },
      0,
    );
    index.rng.setState(rngState);
    if (count === 0) return index;

    // The validation reads typed views, which need 4-byte alignment: a misaligned input (a Buffer slice, say) is
    // copied first. (new Uint8Array(typed array) copies into a fresh buffer; Buffer#slice would only make a view.)
    const src = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    const buf = src.buffer;
    const base = src.byteOffset;
    const levels = new Uint8Array(buf, base + at.levels, count);
    const deg0 = new Uint8Array(buf, base + at.deg0, count);
    const links0 = new Int32Array(buf, base + at.links0, count * M0);
    const rows = half ? new Uint16Array(buf, base + at.data, count * dim) : new Float32Array(buf, base + at.data, count * dim);
    // Links out of range would read past the rows (NaN scores) instead of failing: check them all.
    const stride = M + 1;
    let ints = 0;
    for (let i = 0; i < count; i++) {
      const lv = levels[i]!;
      if (lv > maxLevel) throw new Error(`HNSW snapshot: node ${i} has level ${lv} above the top level ${maxLevel}`);
      ints += lv * stride;
      const d = deg0[i]!;
      if (d > M0) throw new Error(`HNSW snapshot: node ${i} has ${d} layer-0 links (at most ${M0})`);
      for (let j = i * M0, end = j + d; j < end; j++) {
        const nb = links0[j]!;
        if (nb < 0 || nb >= count) throw new Error(`HNSW snapshot: node ${i} links to ${nb} on layer 0 (rows 0..${count - 1})`);
      }
    }
    if (ints !== upperInts) throw new Error(`HNSW snapshot: the levels need ${ints} upper-link ints, the header says ${upperInts}`);
    if (levels[entry] !== maxLevel) throw new Error(`HNSW snapshot: entry node ${entry} has level ${levels[entry]}, not the top level ${maxLevel}`);
    const upperAll = new Int32Array(upperInts);
    upperAll.set(new Int32Array(buf, base + at.upper, upperInts));
    const upper: (Int32Array | undefined)[] = new Array(count);
    for (let i = 0, off = 0; i < count; i++) {
      const lv = levels[i]!;
      if (lv === 0) continue;
      const u = upperAll.subarray(off, off + lv * stride);
      off += lv * stride;
      for (let l = 0; l < lv; l++) {
        const b = l * stride;
        const deg = u[b]!;
        if (deg < 0 || deg > M) throw new Error(`HNSW snapshot: node ${i} has ${deg} links on layer ${l + 1} (at most ${M})`);
        for (let j = 1; j <= deg; j++) {
          const nb = u[b + j]!;
          if (nb < 0 || nb >= count || levels[nb]! <= l) throw new Error(`HNSW snapshot: node ${i} links to ${nb} on layer ${l + 1}, which is not a node of that layer`);
        }
      }
      upper[i] = u;
    }

    // Rows go into the index's own space (where the SIMD product reads them) and the links are copied too, so the
    // snapshot's buffer can be freed once loaded.
    const space = index.useSpace(new RowSpace(dim, count));
    if (rows instanceof Uint16Array) decodeHalf(rows, space.rows);
    else space.rows.set(rows);
    index.levels = levels.slice();
    index.deg0 = deg0.slice();
    index.links0 = links0.slice();
    index.upper = upper;
    index.visited = new Uint32Array(count);
    index.count = count;
    index.entry = entry;
    index.maxLevel = maxLevel;
    return index;
  }

  // ---------------------------------------------------------------------------------------------------------

  private randomLevel(): number {
    const u = this.rng.next();
    return Math.min(30, Math.floor(-Math.log(1 - u) * this.mL));
  }

  private insert(id: number): void {
    const level = this.randomLevel();
    this.levels[id] = level;
    if (level > 0) this.upper[id] = new Int32Array(level * (this.M + 1));
    if (this.entry < 0) {
      this.entry = id;
      this.maxLevel = level;
      return;
    }
    const dim = this.dim;
    const space = this.space;
    // The new row is the query: its offset in the space.
    const q = space.base + id * dim;
    let ep = this.entry;
    let epSc = space.dot(q, space.base + ep * dim);
    for (let l = this.maxLevel; l > level; l--) [ep, epSc] = this.greedy(q, ep, epSc, l);
    for (let l = Math.min(level, this.maxLevel); l >= 0; l--) {
      this.searchLayer(q, ep, epSc, this.efConstruction, l, id);
      // Candidates best first (the result heap pops worst first).
      const res = this.results;
      const m = res.size;
      this.ensureSel(m);
      for (let pos = m - 1; pos >= 0; pos--) {
        this.selIds[pos] = res.ids[0]!;
        this.selSc[pos] = res.sc[0]!;
        res.pop();
      }
      // The best candidate enters the next layer down.
      ep = this.selIds[0]!;
      epSc = this.selSc[0]!;
      const chosen = this.selectNeighbours(this.selIds, this.selSc, m, this.M);
      if (l === 0) {
        this.deg0[id] = chosen;
        this.links0.set(this.outIds.subarray(0, chosen), id * this.M0);
      } else {
        const links = this.upper[id] as Int32Array;
        const b = (l - 1) * (this.M + 1);
        links[b] = chosen;
        links.set(this.outIds.subarray(0, chosen), b + 1);
      }
      // Copy out before linking back: linkBack reuses the selection scratch.
      const picked = Array.from(this.outIds.subarray(0, chosen));
      const pickedSc = Array.from(this.outSc.subarray(0, chosen));
      for (let i = 0; i < chosen; i++) this.linkBack(picked[i]!, id, pickedSc[i]!, l);
    }
    if (level > this.maxLevel) {
      this.maxLevel = level;
      this.entry = id;
    }
  }

  /** Adds `newId` to `node`'s links on layer l, shrinking with the heuristic when full. */
  private linkBack(node: number, newId: number, sim: number, l: number): void {
    const max = l === 0 ? this.M0 : this.M;
    let arr: Int32Array;
    let base: number;
    let deg: number;
    if (l === 0) {
      arr = this.links0;
      base = node * this.M0;
      deg = this.deg0[node]!;
    } else {
      arr = this.upper[node] as Int32Array;
      const b = (l - 1) * (this.M + 1);
      deg = arr[b]!;
      base = b + 1;
    }
    if (deg < max) {
      arr[base + deg] = newId;
      if (l === 0) this.deg0[node] = deg + 1;
      else arr[base - 1] = deg + 1;
      return;
    }
    // Full: candidates = current links + newId, scored against node, best first.
    const dim = this.dim;
    const space = this.space;
    const cand = this.frontier; // idle between searches: reuse as a scratch heap (best at the root)
    cand.clear();
    cand.push(sim, newId);
    for (let i = 0; i < deg; i++) {
      const nb = arr[base + i]!;
      cand.push(space.dot(space.base + node * dim, space.base + nb * dim), nb);
    }
    const m = cand.size;
    this.ensureSel(m);
    for (let pos = 0; pos < m; pos++) {
      this.selIds[pos] = cand.ids[0]!;
      this.selSc[pos] = cand.sc[0]!;
      cand.pop();
    }
    const chosen = this.selectNeighbours(this.selIds, this.selSc, m, max);
    for (let i = 0; i < chosen; i++) arr[base + i] = this.outIds[i]!;
    if (l === 0) this.deg0[node] = chosen;
    else arr[base - 1] = chosen;
  }

  /**
   * The paper's heuristic over candidates sorted best first: keep c when it is more similar to the base node than
   * to every neighbour kept so far; stop at `max`. Writes outIds/outSc; returns the count.
   */
  private selectNeighbours(ids: Int32Array, sc: Float32Array, m: number, max: number): number {
    const dim = this.dim;
    const space = this.space;
    let kept = 0;
    for (let i = 0; i < m && kept < max; i++) {
      const c = ids[i]!;
      const s = sc[i]!;
      let good = true;
      for (let j = 0; j < kept; j++) {
        if (space.dot(space.base + c * dim, space.base + this.outIds[j]! * dim) > s) {
          good = false;
          break;
        }
      }
      if (good) {
        this.outIds[kept] = c;
        this.outSc[kept] = s;
        kept++;
      }
    }
    if (this.keepPruned && kept < max) {
      const heuristic = kept;
      for (let i = 0; i < m && kept < max; i++) {
        const c = ids[i]!;
        let taken = false;
        for (let j = 0; j < heuristic; j++) if (this.outIds[j] === c) taken = true;
        if (taken) continue;
        this.outIds[kept] = c;
        this.outSc[kept] = sc[i]!;
        kept++;
      }
    }
    return kept;
  }

  /** Hill-climbs layer l from ep towards q (an offset in the space); returns the local best and its score. */
  private greedy(q: number, ep: number, epSc: number, l: number): [number, number] {
    const dim = this.dim;
    const space = this.space;
    const rowsAt = space.base;
    let changed = true;
    while (changed) {
      changed = false;
      const links = this.upper[ep];
      if (!links || this.levels[ep]! < l) break;
      const b = (l - 1) * (this.M + 1);
      const deg = links[b]!;
      for (let i = 0; i < deg; i++) {
        const nb = links[b + 1 + i]!;
        const s = space.dot(q, rowsAt + nb * dim);
        if (better(s, nb, epSc, ep)) {
          ep = nb;
          epSc = s;
          changed = true;
        }
      }
    }
    return [ep, epSc];
  }

  /**
   * Beam search of layer l from one entry point; leaves the best `ef` in `this.results` (worst at the root).
   * `skip` (the node being inserted) is never returned.
   */
  private searchLayer(
    q: number,
    ep: number,
    epSc: number,
    ef: number,
    l: number,
    skip = -1,
    seeds?: Int32Array,
    seedSc?: Float32Array,
    seedCount = 0,
  ): void {
    const dim = this.dim;
    const space = this.space;
    const rowsAt = space.base;
    const frontier = this.frontier;
    const results = this.results;
    frontier.clear();
    results.clear();
    if (++this.visitMark === 0xffffffff) {
      this.visited.fill(0);
      this.visitMark = 1;
    }
    const mark = this.visitMark;
    const visited = this.visited;
    visited[ep] = mark;
    if (skip >= 0) visited[skip] = mark;
    frontier.push(epSc, ep);
    if (ep !== skip) results.push(epSc, ep);
    for (let i = 0; i < seedCount; i++) {
      const id = seeds![i]!;
      if (visited[id] === mark) continue;
      visited[id] = mark;
      frontier.push(seedSc![i]!, id);
      if (results.size < ef) results.push(seedSc![i]!, id);
      else if (better(seedSc![i]!, id, results.sc[0]!, results.ids[0]!)) {
        results.pop();
        results.push(seedSc![i]!, id);
      }
    }
    const M0 = this.M0;
    const upperStride = this.M + 1;
    while (frontier.size > 0) {
      const c = frontier.ids[0]!;
      const cSc = frontier.sc[0]!;
      frontier.pop();
      if (results.size >= ef && better(results.sc[0]!, results.ids[0]!, cSc, c)) break;
      let arr: Int32Array;
      let base: number;
      let deg: number;
      if (l === 0) {
        arr = this.links0;
        base = c * M0;
        deg = this.deg0[c]!;
      } else {
        arr = this.upper[c] as Int32Array;
        const b = (l - 1) * upperStride;
        deg = arr[b]!;
        base = b + 1;
      }
      for (let i = 0; i < deg; i++) {
        const nb = arr[base + i]!;
        if (visited[nb] === mark) continue;
        visited[nb] = mark;
        const s = space.dot(q, rowsAt + nb * dim);
        if (results.size < ef) {
          results.push(s, nb);
          frontier.push(s, nb);
        } else if (better(s, nb, results.sc[0]!, results.ids[0]!)) {
          results.pop();
          results.push(s, nb);
          frontier.push(s, nb);
        }
      }
    }
  }

  private ensureSel(m: number): void {
    if (this.selIds.length >= m) return;
    const cap = Math.max(m, this.selIds.length * 2);
    this.selIds = new Int32Array(cap);
    this.selSc = new Float32Array(cap);
    this.outIds = new Int32Array(cap);
    this.outSc = new Float32Array(cap);
  }

  /** Makes `space` the index's row space (`data` and `query` are its views, kept as fields for the hot loops). */
  private useSpace(space: RowSpace): RowSpace {
    this.space = space;
    this.data = space.rows;
    this.query = space.query;
    return space;
  }

  private reserve(rows: number): void {
    const cap = this.levels.length;
    if (rows <= cap) return;
    let next = cap;
    while (next < rows) next *= 2;
    const grow = <T extends Float32Array | Int32Array | Uint8Array | Uint32Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    // A new space, never a grown one: row views handed out before stay valid.
    const kept = this.data.subarray(0, this.count * this.dim);
    this.useSpace(new RowSpace(this.dim, next)).rows.set(kept);
    this.levels = grow(this.levels, next);
    this.links0 = grow(this.links0, next * this.M0);
    this.deg0 = grow(this.deg0, next);
    this.visited = grow(this.visited, next);
  }
}
