/**
 * The search primitives of the HNSW graph: the ranking order (higher score first, ties by lower id, as in the exact
 * indexes), the unrolled inner product of a query with a stored row, and the typed-array heaps a search reuses, so a
 * query allocates nothing but its result.
 */

/** True when (sa, ia) ranks before (sb, ib): higher score first, then lower id. */
export function better(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa > sb || (sa === sb && ia < ib);
}

/** Inner product of `q` with the row at offset `off` of `data`. */
export function dotQuery(q: Float32Array, data: Float32Array, off: number, dim: number): number {
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
export class PairHeap {
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
