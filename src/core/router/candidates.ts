/**
 * Candidate generation for the approximate path (catalogs of `ann.threshold` tools or more, see
 * `RouterOptions.ann`): instead of a dense score for every tool, the router fuses only
 *
 *   candidates = HNSW top-C by cosine  ∪  lexical (BM25) top-C
 *
 * Each candidate gets its exact cosine (the HNSW returns exact scores of the rows it found; lexical-only
 * candidates are scored against their stored row), every other tool gets -Infinity, which the fusion keeps and
 * the ranking skips. The lexical top C also seed the HNSW's layer-0 beam. Cost per query: one HNSW search (beam
 * max(efSearch, C)), up to C extra dot products and one pass over the BM25 scores to pick their top C; no dense
 * scan of the catalog. The candidate ids come back too, so channels that would otherwise visit every tool (the
 * server channel) visit only these.
 *
 * A tool outside both lists can only beat a candidate when it ranks below C on cosine AND below C on BM25 yet wins
 * on the sum; with C ≥ the slate this did not happen on the bench's query sets (docs/deployment.md, Scale).
 */
import type { HnswIndex } from "../index/hnsw-index.js";

/** The candidates of one query: scores of every tool (-Infinity outside the set) and the set's ids. */
export interface CandidateSet {
  /** Length `index.size`: the exact cosine of each candidate, -Infinity elsewhere. */
  scores: Float32Array;
  /** The candidate ids (dense hits first, then lexical-only ones); `ids.length` is the set's size. */
  ids: Int32Array;
}

/**
 * The candidate set of one query vector (see the module comment). `lexical` (normalized BM25 of every tool and the
 * tools it scored above 0, or undefined) adds its top `c` tools.
 */
export function candidateScores(
  index: HnswIndex,
  query: ArrayLike<number>,
  lexical: { scores: Float32Array; docs: ArrayLike<number> } | undefined,
  c: number,
): CandidateSet {
  const n = index.size;
  const out = takeScores(index, n);
  const cc = Math.min(Math.max(1, Math.floor(c)), n);
  if (n === 0) return { scores: out, ids: new Int32Array(0) };
  // The lexical channel's best tools also seed the HNSW beam: they are often near the dense best ones.
  const lex = lexical ? topPositive(lexical.scores, cc, lexical.docs) : undefined;
  const ids = new Int32Array(cc + (lex?.length ?? 0));
  const sc = new Float32Array(cc);
  const found = index.searchInto(query, cc, ids, sc, lex);
  for (let i = 0; i < found; i++) out[ids[i]!] = sc[i]!;
  let size = found;
  if (lex) {
    const first = size;
    // Only rows the dense search did not already score.
    for (let i = 0; i < lex.length; i++) if (out[lex[i]!] === Number.NEGATIVE_INFINITY) ids[size++] = lex[i]!;
    if (size > first) index.scoreIds(query, ids.subarray(first, size), size - first, out);
  }
  return { scores: out, ids: ids.subarray(0, size) };
}

/**
 * Score arrays given back by routes that are done with them, per index. A fresh catalog-sized array costs more than
 * the search at 100,000 tools (its first writes fault in about 400 KB of new pages, about a millisecond); refilling
 * one already in use costs microseconds. A few are kept, so concurrent routes each get their own.
 */
const spareScores = new WeakMap<HnswIndex, Float32Array[]>();
const SPARE_PER_INDEX = 4;

function takeScores(index: HnswIndex, n: number): Float32Array {
  const spare = spareScores.get(index)?.pop();
  return (spare && spare.length === n ? spare : new Float32Array(n)).fill(Number.NEGATIVE_INFINITY);
}

/**
 * Gives the score array of a candidate set back to `index`'s spares once nothing reads it any more (the router
 * does after its selection); the caller must not read it afterwards.
 */
export function releaseCandidateScores(index: HnswIndex, scores: Float32Array): void {
  if (scores.length !== index.size) return;
  let spare = spareScores.get(index);
  if (!spare) spareScores.set(index, (spare = []));
  if (spare.length < SPARE_PER_INDEX && !spare.includes(scores)) spare.push(scores);
}

/**
 * Ids of the (at most) m largest strictly positive entries of `scores`, in no particular order; only the entries
 * `among` lists when given (the ids a sparse channel touched).
 */
export function topPositive(scores: Float32Array, m: number, among?: ArrayLike<number>): Int32Array {
  // A bounded min-heap on (score, then higher id is worse), so the kept set is deterministic.
  const hIds = new Int32Array(m);
  const hSc = new Float32Array(m);
  let size = 0;
  const worse = (sa: number, ia: number, sb: number, ib: number) => sa < sb || (sa === sb && ia > ib);
  const count = among ? among.length : scores.length;
  for (let j = 0; j < count; j++) {
    const i = among ? among[j]! : j;
    const s = scores[i]!;
    if (!(s > 0)) continue;
    // Most entries of a long list lose to the heap's worst: rejected with one comparison, no call.
    if (size === m && (s < hSc[0]! || (s === hSc[0]! && i > hIds[0]!))) continue;
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
