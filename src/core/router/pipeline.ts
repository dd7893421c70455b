/**
 * The scoring stages of one route, channels → fusion, as functions of the router's state:
 * - the query becomes weighted parts (`queryParts`), and a multi-intent request one query per clause
 *   (`clauseQueries`, see clauses.ts);
 * - each query is encoded once, scored by every channel and fused into one score per tool (`scoreQuery`, see
 *   fusion.ts), then filtered or boosted by the route's tags, and the likely next tools of the thread boosted
 *   (anticipation, see anticipation/co-usage.ts);
 * - the slate is the best `slateN` tools, or the clauses' rankings interleaved (`scoreSlate`).
 * θ, preconditions and top-k act on the slate next (select.ts).
 */
import type { RouterEncoder, QueryPart } from "../encoders/router-encoder.js";
import type { ToolRecord } from "../types.js";
import type { Channels } from "./channels/build.js";
import { rerankByRealRows } from "./channels/static.js";
import { splitClauses } from "./clauses.js";
import { fuseChannels, fuseLexical, type FusedScores, type FusionWeights } from "./fusion.js";
import type { DecomposeSettings, RouteOptions, RouteQuery, TagFilter } from "./options.js";
import { interleave, topIndices } from "./ranking.js";

/** What scoring reads from its router, fixed at construction. */
export interface ScoringSettings {
  encoder: RouterEncoder;
  fusion: FusionWeights;
  /** Score added to tools matching a route's `tags.boost`. */
  tagBoost: number;
  /** A static-channel route's reorder of its best tools by their real vectors (`ProgressiveOptions.rerankTop`). */
  staticRerank?: { top: number; waitMs: number };
}

/** A route's options as scoring reads them: the caller's, plus the anticipation boost per tool position. */
export interface ScoringRoute extends RouteOptions {
  boosts?: ReadonlyMap<number, number>;
}

/** The scored slate of one route. */
export interface Slate {
  /** One score per tool (-Infinity: not a candidate, or filtered out by tags); undefined when nothing was scored. */
  scores?: Float32Array;
  /** Positions of the tools considered, best first (clause by clause when decomposed). */
  order: number[];
  /** True when the request was routed clause by clause. */
  decomposed: boolean;
  /** When the query was encoded (performance.now()), for the latency split. */
  encodedAt: number;
  /** Milliseconds spent fusing the channels' scores (summed over clauses), for the latency split. */
  fusionMs: number;
  /** True when the dense encoder failed and the slate comes from the lexical channel alone. */
  degraded: boolean;
  /** Gives `scores` back for reuse once the route's selection has read them (see `FusedScores.release`). */
  release?: () => void;
}

/** Parts of a query with empty texts removed and weights defaulted. */
export function queryParts(query: RouteQuery): QueryPart[] {
  const parts = typeof query === "string" ? [{ text: query, weight: 1 }] : query;
  const out: QueryPart[] = [];
  for (const p of parts) {
    const text = typeof p?.text === "string" ? p.text.trim() : "";
    const weight = p?.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) throw new Error(`Invalid query part weight: ${weight} (expected a number ≥ 0)`);
    if (text && weight > 0) out.push(p.dense === false ? { text, weight, dense: false } : { text, weight });
  }
  return out;
}

/**
 * The per-clause queries of a multi-intent request, or undefined when it is not decomposed: decomposition is
 * off, or the first part (the latest user message) holds one clause. Clause i routes as
 * [clause (the first part's weight), the whole first part (× wholeWeight), the other parts as they are].
 */
export function clauseQueries(parts: readonly QueryPart[], override: boolean | undefined, d: DecomposeSettings): QueryPart[][] | undefined {
  if (override === false || (override === undefined && !d.enabled) || parts.length === 0) return undefined;
  const [first, ...rest] = parts;
  const clauses = splitClauses(first.text, d);
  if (clauses.length < 2) return undefined;
  return clauses.map((c) => [
    { text: c, weight: first.weight },
    ...(d.wholeWeight > 0 ? [{ text: first.text, weight: first.weight * d.wholeWeight }] : []),
    ...rest,
  ]);
}

/** Whether a tool carries one of the tags (its server counts as a tag). */
function hasTag(t: ToolRecord, tags: ReadonlySet<string>): boolean {
  if (tags.has(t.server)) return true;
  for (const tag of t.tags) if (tags.has(tag)) return true;
  return false;
}

/** The route's tag filter and boost, in place: tools outside `only` score -Infinity, `boost` ones gain `tagBoost`. */
function applyTags(scores: Float32Array, tools: readonly ToolRecord[], tags: TagFilter | undefined, tagBoost: number): void {
  const only = tags?.only?.length ? new Set(tags.only) : undefined;
  const boost = tags?.boost?.length ? new Set(tags.boost) : undefined;
  if (!only && !boost) return;
  for (let i = 0; i < tools.length; i++) {
    if (only && !hasTag(tools[i], only)) scores[i] = Number.NEGATIVE_INFINITY;
    else if (boost && hasTag(tools[i], boost)) scores[i] += tagBoost;
  }
}

/** Adds each anticipated tool's boost to its score, in place (a tool filtered out or not a candidate stays out). */
function applyBoosts(scores: Float32Array, boosts: ReadonlyMap<number, number> | undefined): void {
  if (!boosts) return;
  for (const [i, b] of boosts) if (scores[i] !== Number.NEGATIVE_INFINITY) scores[i] += b;
}

/**
 * Scores every tool for one (weighted) query: encoded (unless `queryVector` is given), each channel, fused, then
 * the tag filter/boost. `slate.encodedAt` records when the encode ended. A failed encode throws the encoder's
 * `QueryEncodeFailure`.
 */
export async function scoreQuery(
  parts: readonly QueryPart[],
  tools: readonly ToolRecord[],
  ch: Channels,
  lexicalOnly: boolean,
  s: ScoringSettings,
  opts: ScoringRoute,
  queryVector: ArrayLike<number> | undefined,
  slate: Slate,
  slateN: number,
): Promise<FusedScores> {
  let fused: FusedScores;
  if (ch.dense) {
    const qv = queryVector && queryVector.length > 0 ? queryVector : await s.encoder.encodeQuery(parts, ch.dense.dim);
    slate.encodedAt = performance.now();
    fused = fuseChannels(ch, qv, parts, s.fusion, slateN);
    const stat = ch.static;
    if (stat && s.staticRerank && s.staticRerank.top > 1) {
      const { top, waitMs } = s.staticRerank;
      const lexical = fused.lexical && { scores: fused.lexical, weight: s.fusion.lexical };
      await rerankByRealRows(fused.scores, qv, lexical, top, (ids) => s.encoder.toolVectorsWithin(ids.map((i) => stat.texts[i]!), waitMs));
    }
  } else {
    slate.encodedAt = performance.now();
    fused = fuseLexical(ch, parts, tools.length, lexicalOnly ? 1 : s.fusion.lexical);
  }
  slate.fusionMs += fused.fusionMs ?? 0;
  applyTags(fused.scores, tools, opts.tags, s.tagBoost);
  applyBoosts(fused.scores, opts.boosts);
  return fused;
}

/**
 * Channels → fusion for a whole route: one query, or each clause on its own (with the whole request at a lower
 * weight), a tool keeping its best clause score and the slate taking the clauses' rankings in turn so every clause
 * gets its best tools in.
 */
export async function scoreSlate(
  parts: readonly QueryPart[],
  clauses: readonly QueryPart[][] | undefined,
  tools: readonly ToolRecord[],
  ch: Channels,
  lexicalOnly: boolean,
  s: ScoringSettings,
  opts: ScoringRoute,
  slateN: number,
  t0: number,
): Promise<Slate> {
  const slate: Slate = { scores: undefined, order: [], decomposed: clauses !== undefined, encodedAt: t0, fusionMs: 0, degraded: false };
  const n = tools.length;
  if (clauses) {
    const perClause: Float32Array[] = [];
    const ranked: number[][] = [];
    const releases: (() => void)[] = [];
    for (const q of clauses) {
      const c = await scoreQuery(q, tools, ch, lexicalOnly, s, opts, undefined, slate, slateN);
      perClause.push(c.scores);
      if (c.release) releases.push(c.release);
      ranked.push(topIndices(c.scores, slateN, c.ids));
    }
    slate.order = interleave(ranked, slateN);
    const scores = Float32Array.from(perClause[0]);
    for (const other of perClause.slice(1)) for (let i = 0; i < n; i++) if (other[i] > scores[i]) scores[i] = other[i];
    slate.scores = scores;
    for (const release of releases) release();
  } else if (parts.length > 0 && n > 0) {
    const c = await scoreQuery(parts, tools, ch, lexicalOnly, s, opts, opts.queryVector, slate, slateN);
    slate.scores = c.scores;
    slate.release = c.release;
    slate.order = topIndices(c.scores, slateN, c.ids);
  } else slate.encodedAt = performance.now();
  return slate;
}
