/**
 * What one prepared router costs per query, without the encoder: the dense index's search alone (top-10), a whole
 * route given a precomputed query vector (channels + fusion + θ + preconditions + top-k), and, on an approximate
 * (HNSW) index, its recall@10 against the exact scores of the same rows and how often a route's active set equals
 * the exact path's. Medians and 95th percentiles over the given queries, after one warm-up of each. Routes here are
 * single-clause (`decompose: false`): a multi-intent request would encode each clause, which is encoder time.
 */
import type { AgentStateView } from "../core/types.js";
import type { HnswIndex } from "../core/index/hnsw-index.js";
import type { ToolAttentionRouter } from "../core/router/router.js";
import { topIndices } from "../core/router/ranking.js";
import { quantile } from "./metrics.js";

export interface RouterCostQuery {
  query: string;
  state: AgentStateView;
  vector: ArrayLike<number>;
}

export interface RouterCost {
  /** Index kind of the dense channel ("hnsw", "flat", "faiss"). */
  index: string;
  /** Dense index search of the top 10 (the query already embedded), ms. */
  searchP50Ms: number;
  searchP95Ms: number;
  /** Exact top 10 over the same rows (a full scan), ms: the baseline of searchP50Ms. */
  exactSearchP50Ms: number;
  /** One route with a precomputed query vector (no encoder), ms. */
  routeP50Ms: number;
  routeP95Ms: number;
  /** Median of each phase of those routes (`Decision.latencyMs`: search, fusion, gate, tokens), ms. */
  routePhasesP50Ms: Record<string, number>;
  /**
   * Share of the exact top 10 (by cosine) the index's search returns, tie-aware (a hit scoring at least the exact
   * 10th score counts); 1 for an exact index.
   */
  annRecallAt10: number;
  queries: number;
}

export function measureRouterCost(router: ToolAttentionRouter, queries: readonly RouterCostQuery[]): Promise<RouterCost> {
  return measure(router, queries);
}

async function measure(router: ToolAttentionRouter, queries: readonly RouterCostQuery[]): Promise<RouterCost> {
  await router.prepare();
  const index = router.denseIndex;
  const search: number[] = [];
  const exact: number[] = [];
  let hits = 0;
  let wanted = 0;
  if (index && index.size > 0 && queries.length > 0) {
    index.search(queries[0].vector, 10);
    for (const q of queries) {
      let t = performance.now();
      const found = index.search(q.vector, 10);
      search.push(performance.now() - t);
      t = performance.now();
      const all = index.scoreAll(q.vector);
      const truth = topIndices(all, 10);
      exact.push(performance.now() - t);
      // Tie-aware: a returned row counts when it scores at least the exact 10th score (rebranded copies of a tool
      // often tie, and which of several equal rows comes back is not an error).
      const tenth = all[truth[truth.length - 1]!]! - 1e-6;
      for (const h of found) if (all[h.id]! >= tenth) hits++;
      wanted += truth.length;
    }
  }
  const route: number[] = [];
  const phases: Record<string, number[]> = {};
  if (queries.length > 0) {
    await router.route(queries[0].query, queries[0].state, { queryVector: queries[0].vector, decompose: false });
    for (const q of queries) {
      const { latencyMs } = await router.route(q.query, q.state, { queryVector: q.vector, decompose: false });
      route.push(latencyMs.total);
      for (const [phase, ms] of Object.entries(latencyMs)) if (phase !== "total" && phase !== "encode" && typeof ms === "number") (phases[phase] ??= []).push(ms);
    }
  }
  return {
    index: index?.kind ?? "none",
    searchP50Ms: quantile(search, 0.5),
    searchP95Ms: quantile(search, 0.95),
    exactSearchP50Ms: quantile(exact, 0.5),
    routeP50Ms: quantile(route, 0.5),
    routeP95Ms: quantile(route, 0.95),
    routePhasesP50Ms: Object.fromEntries(Object.entries(phases).map(([phase, ms]) => [phase, quantile(ms, 0.5)])),
    annRecallAt10: wanted > 0 ? hits / wanted : 1,
    queries: queries.length,
  };
}

/** Share of routes whose active tool ids (in order) are the same on both routers, given the same query vectors. */
export async function activeAgreement(a: ToolAttentionRouter, b: ToolAttentionRouter, queries: readonly RouterCostQuery[]): Promise<{ same: number; top1: number; overlap: number }> {
  let same = 0;
  let top1 = 0;
  let overlap = 0;
  for (const q of queries) {
    const [x, y] = await Promise.all([a.route(q.query, q.state, { queryVector: q.vector, decompose: false }), b.route(q.query, q.state, { queryVector: q.vector, decompose: false })]);
    const xa = x.active.map((t) => t.id);
    const ya = y.active.map((t) => t.id);
    if (xa.join("\n") === ya.join("\n")) same++;
    if (xa[0] === ya[0]) top1++;
    const ys = new Set(ya);
    overlap += ya.length ? xa.filter((id) => ys.has(id)).length / Math.max(xa.length, ya.length) : 1;
  }
  const n = Math.max(1, queries.length);
  return { same: same / n, top1: top1 / n, overlap: overlap / n };
}

export type { HnswIndex };
