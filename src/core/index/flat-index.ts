/**
 * Pure-TS exact inner-product index. Rows live normalized in one contiguous Float32Array (grown by doubling);
 * search reuses its score / query / heap buffers and keeps the top k in a bounded heap (O(N log k), no sort of N).
 */
import { assertRowDims, copyNormalized, type SearchHit, type VectorIndex } from "./vector-index.js";

/** True when (sa, ia) ranks before (sb, ib): higher score first, then lower id. */
function better(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa > sb || (sa === sb && ia < ib);
}

export class FlatIndex implements VectorIndex {
  readonly kind = "flat" as const;
  readonly dim: number;
  private data: Float32Array;
  private count = 0;
  private readonly query: Float32Array;
  private scores: Float32Array;
  private heapIds: Int32Array;
  private heapScores: Float32Array;

  constructor(dim: number, initialCapacity = 64) {
    if (!Number.isInteger(dim) || dim <= 0) throw new Error(`vector index: dim must be a positive integer, got ${dim}`);
    this.dim = dim;
    const cap = Math.max(1, Math.floor(initialCapacity));
    this.data = new Float32Array(cap * dim);
    this.query = new Float32Array(dim);
    this.scores = new Float32Array(cap);
    this.heapIds = new Int32Array(16);
    this.heapScores = new Float32Array(16);
  }

  get size(): number {
    return this.count;
  }

  add(vectors: ArrayLike<number>[]): void {
    const dim = this.dim;
    assertRowDims(vectors, dim);
    this.reserve(this.count + vectors.length);
    const start = this.count;
    try {
      for (let r = 0; r < vectors.length; r++) {
        const off = (start + r) * dim;
        copyNormalized(vectors[r]!, dim, this.data.subarray(off, off + dim), `row ${r}`);
      }
    } catch (err) {
      this.data.fill(0, start * dim, (start + vectors.length) * dim);
      throw err;
    }
    this.count += vectors.length;
  }

  search(query: ArrayLike<number>, k: number): SearchHit[] {
    copyNormalized(query, this.dim, this.query, "query");
    const n = this.count;
    const kk = Math.min(Math.floor(k), n);
    if (!(kk > 0)) return [];
    const scores = this.scores;
    this.scoreInto(this.query, scores);

    if (this.heapIds.length < kk) {
      const cap = Math.max(kk, this.heapIds.length * 2);
      this.heapIds = new Int32Array(cap);
      this.heapScores = new Float32Array(cap);
    }
    // Bounded heap whose root is the WORST kept hit (lowest score, then highest id).
    const hIds = this.heapIds;
    const hSc = this.heapScores;
    let size = 0;
    for (let i = 0; i < n; i++) {
      const s = scores[i]!;
      if (size < kk) {
        // sift up
        let c = size++;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (!better(hSc[p]!, hIds[p]!, s, i)) break; // parent already worse than (s, i)
          hSc[c] = hSc[p]!;
          hIds[c] = hIds[p]!;
          c = p;
        }
        hSc[c] = s;
        hIds[c] = i;
      } else if (better(s, i, hSc[0]!, hIds[0]!)) {
        siftDown(hSc, hIds, size, s, i);
      }
    }
    // Pop worst-first into the result from the back.
    const out: SearchHit[] = new Array(size);
    for (let pos = size - 1; pos >= 0; pos--) {
      out[pos] = { id: hIds[0]!, score: hSc[0]! };
      const last = pos; // index of the last heap element (size - 1 before popping)
      if (last > 0) siftDown(hSc, hIds, last, hSc[last]!, hIds[last]!);
    }
    return out;
  }

  scoreAll(query: ArrayLike<number>): Float32Array {
    copyNormalized(query, this.dim, this.query, "query");
    const out = new Float32Array(this.count);
    this.scoreInto(this.query, out);
    return out;
  }

  /** out[i] = <row i, q> for all rows (rounded to float32, like faiss). */
  private scoreInto(q: Float32Array, out: Float32Array): void {
    const dim = this.dim;
    const data = this.data;
    const n = this.count;
    const tail = dim & 3;
    const body = dim - tail;
    for (let r = 0, off = 0; r < n; r++, off += dim) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      let j = 0;
      for (; j < body; j += 4) {
        s0 += data[off + j]! * q[j]!;
        s1 += data[off + j + 1]! * q[j + 1]!;
        s2 += data[off + j + 2]! * q[j + 2]!;
        s3 += data[off + j + 3]! * q[j + 3]!;
      }
      for (; j < dim; j++) s0 += data[off + j]! * q[j]!;
      out[r] = s0 + s1 + s2 + s3;
    }
  }

  private reserve(rows: number): void {
    const cap = this.data.length / this.dim;
    if (rows <= cap) return;
    let next = cap;
    while (next < rows) next *= 2;
    const data = new Float32Array(next * this.dim);
    data.set(this.data.subarray(0, this.count * this.dim));
    this.data = data;
    this.scores = new Float32Array(next);
  }
}

/** Places (s, id) at the root of a heap of `size` elements (root = worst) and restores the heap order. */
function siftDown(hSc: Float32Array, hIds: Int32Array, size: number, s: number, id: number): void {
  let c = 0;
  for (;;) {
    const l = 2 * c + 1;
    if (l >= size) break;
    const r = l + 1;
    // pick the worse child
    let w = l;
    if (r < size && better(hSc[l]!, hIds[l]!, hSc[r]!, hIds[r]!)) w = r;
    if (!better(s, id, hSc[w]!, hIds[w]!)) break; // (s, id) is already worse than both children
    hSc[c] = hSc[w]!;
    hIds[c] = hIds[w]!;
    c = w;
  }
  hSc[c] = s;
  hIds[c] = id;
}
