/** Small ranking helpers of the router: top-m of a score array, and the round-robin merge of ranked lists. */

/** Picks the `m` best indices of `scores` (skipping -Infinity), best first; ties by lower index. Only the indices `among` lists when given. */
export function topIndices(scores: Float32Array, m: number, among?: ArrayLike<number>): number[] {
  const ids: number[] = [];
  if (m <= 0) return ids;
  const count = among ? among.length : scores.length;
  for (let j = 0; j < count; j++) {
    const i = among ? among[j]! : j;
    const s = scores[i];
    if (s === Number.NEGATIVE_INFINITY) continue;
    if (ids.length === m && (s < scores[ids[m - 1]] || (s === scores[ids[m - 1]] && i > ids[m - 1]))) continue;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // Ties keep the lower id first, whatever order `among` lists them in.
      if (scores[ids[mid]] > s || (scores[ids[mid]] === s && ids[mid] < i)) lo = mid + 1;
      else hi = mid;
    }
    ids.splice(lo, 0, i);
    if (ids.length > m) ids.pop();
  }
  return ids;
}

/** Round-robin merge of ranked index lists (rank 1 of each, then rank 2 of each, …), without repeats, up to m. */
export function interleave(lists: readonly number[][], m: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let r = 0; r < longest && out.length < m; r++)
    for (const l of lists) {
      if (r >= l.length || seen.has(l[r])) continue;
      seen.add(l[r]);
      out.push(l[r]);
      if (out.length >= m) break;
    }
  return out;
}
