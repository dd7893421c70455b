/**
 * Fusion: how the channels' scores become one score per tool, the number θ, the margin and top-k act on.
 *
 *   score(tool) = (1 − m) · cos(q, whole text)            dense channel (channels/dense rows in the main index)
 *               + m · max_row cos(q, row)                  multi-vector channel (channels/multi-vector.ts)
 *               + s · (cos(q, server) − best server cos)   server channel (channels/server.ts), ≤ 0
 *               + w · bm25(q, tool) / max bm25             lexical channel (channels/lexical.ts), in [0, w]
 *               + tag boost                                route's `tags.boost`
 *
 * The first two terms form a cosine, so θ keeps its dense meaning: a tool with no word in common with the query
 * keeps its cosine, and lexical evidence only adds. A linear mix was measured against reciprocal-rank fusion,
 * per-query normalization and z-scores on metatool-dev and was as good or better (README, Routing quality).
 */

/** `scores = (1 − m) · scores + m · maxSim`, in place (the dense channel's two views of a tool). */
export function blendMaxSim(scores: Float32Array, maxSim: Float32Array, m: number): void {
  if (m <= 0) return;
  const keep = 1 - m;
  for (let i = 0; i < scores.length; i++) scores[i] = keep * scores[i] + m * maxSim[i];
}

/** `scores += weight · channel`, in place. */
export function addWeighted(scores: Float32Array, channel: ArrayLike<number>, weight: number): void {
  if (weight === 0) return;
  for (let i = 0; i < scores.length; i++) scores[i] += weight * channel[i];
}

/** `scores[i] += weight · channel[i]` for the listed tools only (the approximate path's candidates). */
export function addWeightedAt(scores: Float32Array, channel: ArrayLike<number>, weight: number, ids: ArrayLike<number>): void {
  if (weight === 0) return;
  for (let j = 0; j < ids.length; j++) {
    const i = ids[j]!;
    scores[i] += weight * channel[i]!;
  }
}
