/**
 * Offline evaluation of routing against gold tool sets (the `eval` command, and the benchmark's building block).
 * Queries are embedded in batches for throughput; the reported route latency is measured separately on real
 * single-query routes (encode + search + gate), which is what an agent turn pays.
 */
import type { ToolAttentionRouter } from "../core/router/router.js";
import { stateViewFrom } from "../core/preconditions/preconditions.js";
import type { RoutingDecision } from "../core/types.js";
import { aggregate, quantile, scoreTask, type AggregateScore, type TaskScore } from "./metrics.js";
import type { EvalTask } from "./tasks.js";

export interface EvalOptions {
  k?: number;
  theta?: number;
  /** Route the query, then query + each plan step, and score the union of the active sets. */
  perStep?: boolean;
  /** Single-query routes timed for `routeMsP50` (evenly spread over the tasks). Default 200. */
  latencySample?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface EvalReport extends AggregateScore {
  k: number;
  theta: number;
  /** Tokens of the Phase-1 summary pool (the same every turn). */
  poolTokens: number;
  /** Mean tokens of the active tools' full schemas per task. */
  activeSchemaTokens: number;
  /** Tokens of all tools' full schemas (what a turn costs without routing). */
  fullSchemaTokens: number;
  /** Median single-query routing latency (encode + search + gate), ms. */
  routeMsP50: number;
  routeMsP95: number;
  latencySamples: number;
  encoder: string;
  index: string;
  perStep: boolean;
  /** With perStep: mean size of the union of active sets. */
  avgUnion?: number;
  /** Per-task results, in input order. */
  perTask: { id: string; score: TaskScore; active: string[] }[];
}

/** The agent state a task routes under. */
export function stateOf(task: EvalTask) {
  const s = task.state;
  return stateViewFrom({ scopes: s?.scopes, milestones: s?.milestones, toolOutputs: s?.toolOutputs, raw: s });
}

/** The texts routed for one task: the query, and with perStep the query joined with each plan step. */
export function routedTexts(task: EvalTask, perStep: boolean): string[] {
  if (!perStep || !task.steps?.length) return [task.query];
  return [task.query, ...task.steps.map((step) => `${task.query}\n${step}`)];
}

export async function evaluate(router: ToolAttentionRouter, tasks: readonly EvalTask[], opts: EvalOptions = {}): Promise<EvalReport> {
  await router.prepare();
  const k = opts.k ?? router.k;
  const theta = opts.theta ?? router.theta;
  const perStep = opts.perStep ?? false;

  const texts: string[] = [];
  const offsets: number[] = [];
  for (const task of tasks) {
    offsets.push(texts.length);
    texts.push(...routedTexts(task, perStep));
  }
  const vectors = await router.embedQueries(texts);

  const scores: TaskScore[] = [];
  const perTask: EvalReport["perTask"] = [];
  let schemaTokens = 0;
  let unionSize = 0;
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t];
    const state = stateOf(task);
    const n = routedTexts(task, perStep).length;
    const union: string[] = [];
    const unionIds: string[] = [];
    const seen = new Set<string>();
    for (let j = 0; j < n; j++) {
      const i = offsets[t] + j;
      const d: RoutingDecision = await router.route(texts[i], state, { k, theta, queryVector: vectors[i], turnId: task.id });
      for (const a of d.active) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        union.push(a.name);
        unionIds.push(a.id);
      }
    }
    const score = scoreTask(union, task.gold);
    scores.push(score);
    perTask.push({ id: task.id, score, active: union });
    schemaTokens += await router.schemaTokens(unionIds);
    unionSize += union.length;
    if (opts.onProgress && ((t + 1) % 500 === 0 || t + 1 === tasks.length)) opts.onProgress(t + 1, tasks.length);
  }

  // Latency: real single-query routes, after one warm-up route.
  const sample = Math.min(opts.latencySample ?? 200, tasks.length);
  const latencies: number[] = [];
  if (sample > 0) {
    await router.route(tasks[0].query, stateOf(tasks[0]), { k, theta });
    const step = tasks.length / sample;
    for (let s = 0; s < sample; s++) {
      const task = tasks[Math.floor(s * step)];
      const d = await router.route(task.query, stateOf(task), { k, theta });
      latencies.push(d.latencyMs.total);
    }
  }

  const agg = aggregate(scores);
  const describe = router.describe();
  return {
    ...agg,
    k,
    theta,
    poolTokens: router.poolTokens(),
    activeSchemaTokens: tasks.length ? schemaTokens / tasks.length : 0,
    fullSchemaTokens: await router.fullSchemaTokens(),
    routeMsP50: quantile(latencies, 0.5),
    routeMsP95: quantile(latencies, 0.95),
    latencySamples: latencies.length,
    encoder: /encoder: ([^;]+)/.exec(describe)?.[1] ?? "",
    index: router.indexKind ?? "",
    perStep,
    ...(perStep ? { avgUnion: tasks.length ? unionSize / tasks.length : 0 } : {}),
    perTask,
  };
}
