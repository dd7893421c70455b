/**
 * Candidate generation for the approximate path (catalogs of `ann.threshold` tools or more, see
 * `RouterOptions.ann`): instead of a dense score for every tool, the router fuses only
 *
 *   candidates = HNSW top-C by cosine  ∪  lexical (BM25) top-C
 *
 * Each candidate gets its exact cosine (the HNSW returns exact scores of the rows it found; lexical-only
 * candidates are scored against their stored row), every other tool gets -Infinity, which the fusion keeps and
 * the ranking skips. The lexical top C also seed the HNSW's layer-0 beam. Cost per query: one HNSW search (beam
 * max(efSearch, C)), up to 2C extra dot products and one pass over the BM25 scores to pick their top C; no dense
 * scan of the catalog.
 *
 * A tool outside both lists can only beat a candidate when it ranks below C on cosine AND below C on BM25 yet wins
 * on the sum; with C ≥ the slate this did not happen on the bench's query sets (README, Scaling).
 */
import type { HnswIndex } from "../index/hnsw-index.js";

/**
 * Scores of the candidate tools for one query vector: a fresh Float32Array of length `index.size`, the exact
 * cosine for candidates and -Infinity elsewhere. `lexical` (normalized BM25 of every tool, or undefined) adds its
 * top `c` tools with a positive score.
 */
export function candidateScores(index: HnswIndex, query: ArrayLike<number>, lexical: Float32Array | undefined, c: number): Float32Array {
  const n = index.size;
  const out = new Float32Array(n).fill(Number.NEGATIVE_INFINITY);
  const cc = Math.min(Math.max(1, Math.floor(c)), n);
  if (n === 0) return out;
  const ids = new Int32Array(cc);
  const sc = new Float32Array(cc);
  // The lexical channel's best tools also seed the HNSW beam: they are often near the dense best ones.
  const lex = lexical ? topPositive(lexical, cc) : undefined;
  const found = index.searchInto(query, cc, ids, sc, lex);
  for (let i = 0; i < found; i++) out[ids[i]!] = sc[i]!;
  if (lex) {
    let extra = 0;
    // Only rows the dense search did not already score.
    for (let i = 0; i < lex.length; i++) if (out[lex[i]!] === Number.NEGATIVE_INFINITY) lex[extra++] = lex[i]!;
    if (extra > 0) index.scoreIds(query, lex, extra, out);
  }
  return out;
}

/** Ids of the (at most) m largest strictly positive entries of `scores`, in no particular order. */
export function topPositive(scores: Float32Array, m: number): Int32Array {
  // A bounded min-heap on (score, then higher id is worse), so the kept set is deterministic.
  const hIds = new Int32Array(m);
  const hSc = new Float32Array(m);
  let size = 0;
  const worse = (sa: number, ia: number, sb: number, ib: number) => sa < sb || (sa === sb && ia > ib);
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (!(s > 0)) continue;
    if (size < m) {
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!worse(s, i, hSc[p]!, hIds[p]!)) break;
        hSc[c] = hSc[p]!;
        hIds[c] = hIds[p]!;
        c = p;
      }
      hSc[c] = s;
      hIds[c] = i;
    } else if (worse(hSc[0]!, hIds[0]!, s, i)) {
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= size) break;
        const r = l + 1;
        const w = r < size && worse(hSc[r]!, hIds[r]!, hSc[l]!, hIds[l]!) ? r : l;
        if (!worse(hSc[w]!, hIds[w]!, s, i)) break;
        hSc[c] = hSc[w]!;
        hIds[c] = hIds[w]!;
        c = w;
      }
      hSc[c] = s;
      hIds[c] = i;
    }
  }
  return hIds.subarray(0, size);
}
