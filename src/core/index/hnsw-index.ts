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
 * `fromBytes` validates the sections in place and copies the links into the index's own arrays. Float32 rows are
 * copied into its row space (where the SIMD product reads them) at once; half-precision rows are decoded into it row
 * by row as a search first reaches them, read from the snapshot's buffer until then. Why: decoding every row of a
 * 100,000-row snapshot writes 200 MB of fresh memory, about a second of page faults at start, while a query
 * reaches a few thousand rows. The buffer is never written.
 *
 * Neighbours are chosen with the paper's heuristic (keep a candidate only if it is closer to the new node than to
 * every neighbour already kept), which keeps long-range links in clustered data such as sentence embeddings.
 * `scoreAll` stays exact (a scan of the same storage), so θ counting and the exact path still work on this index.
 */
import { Rng } from "../util/rng.js";
import { decodeHalf, halfTable, roundToHalf } from "./half.js";
import { better, dotQuery, PairHeap } from "./hnsw-heap.js";
import { DEFAULT_HNSW, defaultEfSearch, defaultUpperBeam, type HnswOptions } from "./hnsw-options.js";
import { encodeHnswSnapshot, readHnswHeader, readHnswSections } from "./hnsw-snapshot.js";
import { RowSpace } from "./row-space.js";
import { assertRowDims, copyNormalized, type SearchHit, type VectorIndex } from "./vector-index.js";

// Settings and defaults (hnsw-options.ts), the search primitives (hnsw-heap.ts) and the snapshot format
// (hnsw-snapshot.ts) live beside this module; the names other modules import from here stay exported here.
export { DEFAULT_HNSW, defaultEfConstruction, defaultEfSearch, defaultUpperBeam, type HnswOptions } from "./hnsw-options.js";

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

  /**
   * Half-precision rows of a loaded snapshot not all decoded yet (a view of its buffer), with one flag per row
   * (1: decoded into `data`); both undefined once every row is (see `fromBytes`).
   */
  private halfRows?: Uint16Array;
  private decoded?: Uint8Array;
  private undecoded = 0;

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
    // Inserting compares rows all over the graph: every row of a loaded snapshot is decoded first.
    this.decodeAll();
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
    this.ensureDecoded(ep);
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
      this.ensureDecoded(id);
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
    this.ensureDecoded(i);
    return this.data.subarray(i * this.dim, (i + 1) * this.dim);
  }

  /**
   * Row i's values, as `rowView` gives them, for a pass that reads every row once (server centroids): a row of a
   * loaded snapshot not decoded yet is decoded into `scratch` instead of the index, which would make its pages
   * resident for rows no search may ever reach. Read the result before the next call.
   */
  readRow(i: number, scratch: Float32Array): Float32Array {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`HnswIndex.readRow: ${i} is outside 0..${this.count - 1}`);
    const dim = this.dim;
    if (!this.decoded || this.decoded[i] === 1) return this.data.subarray(i * dim, (i + 1) * dim);
    if (scratch.length < dim) throw new RangeError(`HnswIndex.readRow: scratch holds ${scratch.length} floats, rows have ${dim}`);
    const t = halfTable();
    const src = this.halfRows!;
    for (let d = 0, j = i * dim; d < dim; d++, j++) scratch[d] = t[src[j]!]!;
    return scratch;
  }

  /** Exact scores of ALL rows (a scan of the same storage), Float32Array of length size. */
  scoreAll(query: ArrayLike<number>): Float32Array {
    copyNormalized(query, this.dim, this.query, "query");
    this.decodeAll();
    const out = new Float32Array(this.count);
    const dim = this.dim;
    for (let r = 0, off = 0; r < this.count; r++, off += dim) out[r] = dotQuery(this.query, this.data, off, dim);
    return out;
  }

  /** Exact scores of the given rows: out[ids[i]] = <row ids[i], query> for i < count. */
  scoreIds(query: ArrayLike<number>, ids: ArrayLike<number>, count: number, out: Float32Array): void {
    copyNormalized(query, this.dim, this.query, "query");
    const dim = this.dim;
    const decoded = this.decoded;
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      if (decoded && decoded[id] === 0) this.ensureDecoded(id);
      out[id] = dotQuery(this.query, this.data, id * dim, dim);
    }
  }

  /**
   * The whole index as one buffer (layout in the module comment): `HnswIndex.fromBytes` of it searches and grows
   * exactly like this index. Copies the rows and links once.
   */
  toBytes(): Uint8Array {
    this.decodeAll();
    return encodeHnswSnapshot({
      dim: this.dim,
      M: this.M,
      M0: this.M0,
      efConstruction: this.efConstruction,
      efSearch: this.efSearch,
      upperBeam: this.upperBeam,
      seed: this.seed,
      keepPruned: this.keepPruned,
      rowPrecision: this.rowPrecision,
      rngState: this.rng.getState(),
      count: this.count,
      entry: this.entry,
      maxLevel: this.maxLevel,
      levels: this.levels,
      deg0: this.deg0,
      links0: this.links0,
      upper: this.upper,
      data: this.data,
    });
  }

  /**
   * An index from `toBytes` output. Validates the header, the sizes and every link, throwing an Error that starts
   * with "HNSW snapshot:" and names the problem. The index never writes `bytes`. It copies the links and float32
   * rows; half-precision rows are read from `bytes` until a search, a scan or `toBytes` has decoded them (see the
   * module comment), so leave a half-precision snapshot's buffer unchanged (a store's read gives the caller its own).
   *
   * `options`: the search-time settings (efSearch, upperBeam) override the snapshot's; the build-time ones (M,
   * efConstruction, seed, keepPruned, rowPrecision) may be given only with the snapshot's values (a different graph
   * needs a rebuild).
   */
  static fromBytes(bytes: Uint8Array, options: HnswOptions = {}): HnswIndex {
    const head = readHnswHeader(bytes, options);
    const { dim, count, efSearch, upperBeam } = head;
    // The constructor validates every setting (efSearch, upperBeam included) and allocates only its minimum capacity.
    const index = new HnswIndex(
      dim,
      {
        M: head.M,
        efConstruction: head.efConstruction,
        seed: head.seed,
        keepPruned: head.keepPruned,
        rowPrecision: head.rowPrecision,
        efSearch: options.efSearch ?? (efSearch >= 0 ? efSearch : undefined),
        upperBeam: options.upperBeam ?? (upperBeam >= 0 ? upperBeam : undefined),
      },
      0,
    );
    index.rng.setState(head.rngState);
    if (count === 0) return index;
    const { levels, deg0, links0, upper, rows } = readHnswSections(bytes, head);

    // The links are copied, and float32 rows go into the index's own space (where the SIMD product reads them).
    // Half-precision rows are decoded into it as searches reach them (see the module comment): the space is
    // allocated whole, but its pages are only written, hence only made resident, row by row.
    const space = index.useSpace(new RowSpace(dim, count));
    if (rows instanceof Uint16Array) {
      index.halfRows = rows;
      index.decoded = new Uint8Array(count);
      index.undecoded = count;
    } else space.rows.set(rows);
    index.levels = levels.slice();
    index.deg0 = deg0.slice();
    index.links0 = links0.slice();
    index.upper = upper;
    index.visited = new Uint32Array(count);
    index.count = count;
    index.entry = head.entry;
    index.maxLevel = head.maxLevel;
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
        this.ensureDecoded(nb);
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
    const decoded = this.decoded;
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
        if (decoded && decoded[nb] === 0) this.ensureDecoded(nb);
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

  /**
   * Decodes row `id` of a loaded half-precision snapshot into the row space unless it is already there, dropping the
   * snapshot's rows after the last. The search loops test the flag themselves first, sparing a call per neighbour.
   */
  private ensureDecoded(id: number): void {
    if (!this.decoded || this.decoded[id] !== 0) return;
    const dim = this.dim;
    const t = halfTable();
    const src = this.halfRows!;
    const out = this.data;
    for (let d = 0, i = id * dim; d < dim; d++, i++) out[i] = t[src[i]!]!;
    this.decoded![id] = 1;
    if (--this.undecoded === 0) this.halfRows = this.decoded = undefined;
  }

  /** Decodes every row not decoded yet (a scan, a snapshot, an insertion, a move to a bigger space). */
  private decodeAll(): void {
    const decoded = this.decoded;
    if (!decoded) return;
    if (this.undecoded === decoded.length) decodeHalf(this.halfRows!, this.data.subarray(0, this.halfRows!.length));
    else for (let id = 0; id < decoded.length; id++) this.ensureDecoded(id);
    this.halfRows = this.decoded = undefined;
    this.undecoded = 0;
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
