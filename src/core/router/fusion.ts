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
 * per-query normalization and z-scores on metatool-dev and was as good or better (docs/routing.md, Results on
 * metatool-dev).
 *
 * `fuseChannels` applies the formula to one query (the tag boost is the pipeline's, see pipeline.ts); the helpers
 * below it are its in-place steps.
 */
import type { WeightedText } from "../encoders/bm25.js";
import type { HnswIndex } from "../index/hnsw-index.js";
import { candidateScores, releaseCandidateScores } from "./candidates.js";
import type { Channels } from "./channels/build.js";

/** The weights of the formula above, fixed when the router is constructed. */
export interface FusionWeights {
  /** w: the lexical channel's weight (0 without one). */
  lexical: number;
  /** m: the multi-vector channel's share of the dense score (0 when off). */
  multiVector: number;
  /** s: the server channel's weight (0 when off). */
  server: number;
  /** Candidates per channel on the approximate path (`ann.candidates`; the slate raises it). */
  annCandidates: number;
}

/** One query's fused scores; on the approximate path also the candidate ids (every other tool scores -Infinity). */
export interface FusedScores {
  scores: Float32Array;
  ids?: Int32Array;
  /** Milliseconds spent combining the channels' scores (after each channel scored), for the route's latency split. */
  fusionMs?: number;
  /** Gives `scores` back for reuse (the approximate path): call it once nothing reads them any more. */
  release?: () => void;
  /** The lexical channel's scores of every tool, before weighting (the exact path). */
  lexical?: Float32Array;
}

/**
 * Fuses every channel of `ch` for one query: `qv` its dense vector, `parts` its weighted texts (lexical). On an HNSW
 * index only candidates get a score (see candidates.ts), at least `slateN` per channel.
 */
export function fuseChannels(ch: Channels, qv: ArrayLike<number>, parts: readonly WeightedText[], w: FusionWeights, slateN: number): FusedScores {
  const dense = ch.dense as NonNullable<Channels["dense"]>;
  if (dense.kind === "hnsw") {
    // Approximate path: only the candidates get a score, and every channel visits only them. The BM25 scores are
    // read before this function returns: the index's reused buffers spare a fresh catalog-sized array per query.
    const lex = ch.lexical?.scoreSparseTransient(parts);
    const cand = candidateScores(dense as HnswIndex, qv, lex, Math.max(slateN, w.annCandidates));
    const maxSim = ch.multi?.maxSim(qv);
    const t = performance.now();
    if (maxSim) blendMaxSim(cand.scores, maxSim, w.multiVector);
    if (ch.server) ch.server.addToCandidates(cand.scores, qv, w.server, cand.ids);
    if (lex) addWeightedAt(cand.scores, lex.scores, w.lexical, cand.ids);
    return { ...cand, fusionMs: performance.now() - t, release: () => releaseCandidateScores(dense as HnswIndex, cand.scores) };
  }
  const lexical = ch.lexical?.scoreAll(parts);
  const scores = dense.scoreAll(qv);
  const maxSim = ch.multi?.maxSim(qv);
  const t = performance.now();
  if (maxSim) blendMaxSim(scores, maxSim, w.multiVector);
  if (ch.server) ch.server.addTo(scores, qv, w.server);
  if (lexical) addWeighted(scores, lexical, w.lexical);
  return { scores, fusionMs: performance.now() - t, lexical };
}

/** Scores without a dense channel (the lexical encoder, or a failed dense encoder): `weight` · BM25 of every tool. */
export function fuseLexical(ch: Channels, parts: readonly WeightedText[], n: number, weight: number): FusedScores {
  const scores = new Float32Array(n);
  const lexical = ch.lexical?.scoreAll(parts);
  const t = performance.now();
  if (lexical) addWeighted(scores, lexical, weight);
  return { scores, fusionMs: performance.now() - t };
}

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
