/**
 * Offline evaluation of routing against gold tool sets (the `eval` command, and the benchmark's building block).
 * Queries are embedded in batches for throughput; the reported route latency is measured separately on real
 * single-query routes (encode + search + gate), which is what an agent turn pays.
 */
import type { ToolAttentionRouter, RouteQuery, TagFilter } from "../core/router/router.js";
import { firstSentence, splitIdentifier } from "../core/catalog/text.js";
import { transitionsOf } from "../core/anticipation/co-usage.js";
import { DEFAULT_INTENT, SEARCH_K } from "../core/router/intent.js";
import { stateViewFrom } from "../core/preconditions/preconditions.js";
import type { RoutingDecision } from "../core/types.js";
import { aggregate, quantile, scoreTask, type AggregateScore, type TaskScore } from "./metrics.js";
import type { EvalTask } from "./tasks.js";

export interface EvalOptions {
  k?: number;
  theta?: number;
  /** Route the query, then query + each plan step, and score the union of the active sets. */
  perStep?: boolean;
  /**
   * Multi-turn simulation of an agent working through a task's plan steps (implies perStep): step j is routed
   * with the rolling intent an agent would have — the user's query, the step as the model's stated plan, and
   * the previous step's tool results — and the tools used so far stay active as sticky tools. A gold tool that
   * was active at a step counts as used there (the agent would have called it). The union is scored.
   */
  simulate?: boolean | SimulateOptions;
  /** Tag filter applied to every route. */
  tags?: TagFilter;
  /** Multi-intent decomposition on every route (default: the router's setting). */
  decompose?: boolean;
  /** Single-query routes timed for `routeMsP50` (evenly spread over the tasks). Default 200. */
  latencySample?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Weights and sticky settings of the multi-turn simulation (defaults are the adapters': `DEFAULT_INTENT`). */
export interface SimulateOptions {
  /** Weight of the step text (the model's stated plan). Default `DEFAULT_INTENT.planWeight`. */
  planWeight?: number;
  /** Weight of the previous step's tool results. Default `DEFAULT_INTENT.toolResultWeight`. */
  toolResultWeight?: number;
  /**
   * What a simulated tool result says: "returns" (default) — the tool's split name and the sentence of its
   * description saying what it returns, the closest offline stand-in for a result's content; "name" — the split
   * name only; "step" — the split name and the text of the step that called it (the request, not the result).
   */
  observation?: "returns" | "name" | "step";
  /** Add the simulated results even though every simulated step has a stated plan. Default `DEFAULT_INTENT.resultsWithPlan`. */
  resultsWithPlan?: boolean;
  /** Embed the simulated results for the dense channel too. Default `DEFAULT_INTENT.embedResults` (lexical only). */
  embedResults?: boolean;
  /**
   * A task without plan steps whose query holds several requests (multi-intent decomposition on) is simulated with
   * its clauses as the steps: the agent states one request after the other as its plan. Default true.
   */
  clauseSteps?: boolean;
  /** Routings a used tool stays active for. Default 3; 0 disables sticky tools. */
  stickyTurns?: number;
  /** At most this many sticky tools. Default 5. */
  stickyMax?: number;
}

/** Simulation settings when `SimulateOptions` leaves them out: the adapters' own intent and sticky defaults. */
export const DEFAULT_SIMULATE: Readonly<Required<SimulateOptions>> = {
  planWeight: DEFAULT_INTENT.planWeight,
  toolResultWeight: DEFAULT_INTENT.toolResultWeight,
  observation: "returns",
  resultsWithPlan: DEFAULT_INTENT.resultsWithPlan,
  embedResults: DEFAULT_INTENT.embedResults,
  clauseSteps: true,
  stickyTurns: 3,
  stickyMax: 5,
};

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
  /** True when the multi-turn simulation was used. */
  simulate?: boolean;
  /** With perStep: mean size of the union of active sets. */
  avgUnion?: number;
  /**
   * With perStep, the way back when routing misses: gold tools the routing of the request alone left out
   * (`missed`: what the model faces before it states any plan), and how many of them one `search_tools` call per
   * plan step finds (`found`), the search query being the step's own text and the answer the router's best
   * `SEARCH_K` (5), as the adapters answer `search_tools`. `afterSteps` counts the same for the gold tools that
   * no routing of the task (request and every step) made active.
   */
  searchRecovery?: { missed: number; found: number; share: number; afterSteps: { missed: number; found: number } };
  /** Per-task results, in input order. */
  perTask: { id: string; score: TaskScore; active: string[] }[];
}

/** The agent state a task routes under. */
export function stateOf(task: EvalTask) {
  const s = task.state;
  return stateViewFrom({ scopes: s?.scopes, milestones: s?.milestones, toolOutputs: s?.toolOutputs, raw: s });
}

/**
 * The queries routed for one task: the request, and with perStep each plan step routed the way the adapters route
 * a turn whose model stated that step as its plan (`turnIntent`): the request at weight 1 and the step at
 * `DEFAULT_INTENT.planWeight`. (Before, a step was joined to the request as one text, which no adapter does; that
 * let the request's words drown the step's.)
 */
export function routedQueries(task: EvalTask, perStep: boolean): RouteQuery[] {
  if (!perStep || !task.steps?.length) return [task.query];
  return [
    task.query,
    ...task.steps.map((step) => [
      { text: task.query, weight: 1 },
      { text: step, weight: DEFAULT_INTENT.planWeight },
    ]),
  ];
}

/** One routed query as plain text (its parts joined), for token counts and logs. */
export function routedText(query: RouteQuery): string {
  return typeof query === "string" ? query : query.map((p) => p.text).join("\n");
}

/**
 * Query vectors of routed queries, for `route(query, state, { queryVector })`: every distinct text embedded once,
 * in batches (`embedQueries`), and a query's parts summed by weight as `route()` itself does.
 */
export async function embedRoutedQueries(router: ToolAttentionRouter, queries: readonly RouteQuery[]): Promise<number[][]> {
  const texts = [...new Set(queries.flatMap((q) => (typeof q === "string" ? [q] : q.map((p) => p.text))))];
  const vectors = await router.embedQueries(texts);
  const byText = new Map(texts.map((t, i) => [t, vectors[i]]));
  return queries.map((q) => {
    if (typeof q === "string") return byText.get(q) as number[];
    const parts = q.map((p) => ({ v: byText.get(p.text) as number[], w: p.weight ?? 1 }));
    const dim = parts[0]?.v.length ?? 0;
    const out = new Array<number>(dim).fill(0);
    for (const { v, w } of parts) for (let d = 0; d < dim; d++) out[d] += w * v[d];
    return out;
  });
}

/** A description's sentence saying what the tool returns ("Returns …"), or "" when it has none. */
function returnsSentence(description: string): string {
  const m = /(?:^|[.!?]\s+)((?:Returns|Lists|Outputs|Responds with)\b[^.!?]*)/i.exec(description);
  return m ? m[1].trim() : "";
}

/** The text of a simulated result of `name` (see SimulateOptions.observation). */
export function simulatedObservation(
  name: string,
  description: string,
  stepText: string,
  mode: SimulateOptions["observation"] = "returns",
): string {
  const split = splitIdentifier(name);
  if (mode === "name") return split;
  if (mode === "step") return `${split}: ${stepText}`;
  const returns = returnsSentence(description) || firstSentence(description);
  return returns ? `${split}: ${returns}` : split;
}

/**
 * The routed queries of one simulated task: step 0 is the query alone; step j is the query, the step as the
 * stated plan and a synthetic result of each tool used at step j − 1 (see SimulateOptions.observation).
 */
export function simulatedIntent(
  task: EvalTask,
  step: number,
  usedBefore: readonly { name: string; description: string }[],
  o: Required<SimulateOptions>,
): { text: string; weight: number; dense?: boolean }[] {
  const parts: { text: string; weight: number; dense?: boolean }[] = [{ text: task.query, weight: 1 }];
  const steps = task.steps ?? [];
  if (step === 0 || !steps.length) return parts;
  parts.push({ text: steps[step - 1], weight: o.planWeight });
  if (step >= 2 && o.toolResultWeight > 0 && o.resultsWithPlan)
    for (const t of usedBefore)
      parts.push({
        text: simulatedObservation(t.name, t.description, steps[step - 2], o.observation),
        weight: o.toolResultWeight,
        ...(o.embedResults ? {} : { dense: false }),
      });
  return parts;
}

async function simulateTask(
  router: ToolAttentionRouter,
  task: EvalTask,
  o: Required<SimulateOptions>,
  route: { k: number; theta: number; tags?: TagFilter; decompose?: boolean },
): Promise<{ names: string[]; ids: string[] }> {
  const state = stateOf(task);
  const gold = new Set(task.gold);
  const names: string[] = [];
  const ids: string[] = [];
  const seen = new Set<string>();
  let sticky = new Map<string, number>();
  let used: { name: string; description: string }[] = [];
  const ran: string[][] = [];
  if (!task.steps?.length && o.clauseSteps) {
    const clauses = router.clausesOf(task.query, route.decompose);
    if (clauses.length > 1) task = { ...task, steps: clauses };
  }
  const steps = task.steps?.length ?? 0;
  for (let j = 0; j <= steps; j++) {
    const query: RouteQuery = simulatedIntent(task, j, used, o);
    // The adapters' anticipation: successors of the tools that just ran, and pairs that ran in sequence before.
    const anticipate = { after: used.map((u) => u.name), transitions: transitionsOf(ran) };
    const d = await router.route(query, state, { ...route, turnId: task.id, include: [...sticky.keys()], anticipate });
    used = d.active
      .filter((a) => gold.has(a.name))
      .map((a) => ({ name: a.name, description: router.catalog.getById(a.id)?.description ?? "" }));
    if (used.length > 0) ran.push(used.map((u) => u.name));
    const next = new Map<string, number>();
    for (const [n, t] of sticky) if (t > 1) next.set(n, t - 1);
    if (o.stickyTurns > 0) for (const u of used) next.set(u.name, o.stickyTurns);
    sticky = new Map([...next].sort((a, b) => b[1] - a[1]).slice(0, o.stickyMax));
    for (const a of d.active) {
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      names.push(a.name);
      ids.push(a.id);
    }
  }
  return { names, ids };
}

export async function evaluate(router: ToolAttentionRouter, tasks: readonly EvalTask[], opts: EvalOptions = {}): Promise<EvalReport> {
  if (tasks.length === 0) throw new Error("evaluate: the task set is empty");
  await router.prepare();
  // An evaluation measures the router's channels: one whose encoder failed would report lexical numbers as its own.
  const health = router.health();
  if (health.state === "degraded") throw new Error(`evaluate: the router's encoder failed (${health.error}); fix it, or evaluate the "lexical" encoder`);
  const k = opts.k ?? router.k;
  const theta = opts.theta ?? router.theta;
  const simulate: Required<SimulateOptions> | undefined = opts.simulate
    ? { ...DEFAULT_SIMULATE, ...(opts.simulate === true ? {} : opts.simulate) }
    : undefined;
  const perStep = (opts.perStep ?? false) || simulate !== undefined;

  const queries: RouteQuery[] = [];
  const offsets: number[] = [];
  for (const task of tasks) {
    offsets.push(queries.length);
    queries.push(...routedQueries(task, perStep));
  }
  // The simulation routes its own weighted parts (embedded one by one, through the encoder's query cache).
  const vectors = simulate ? [] : await embedRoutedQueries(router, queries);

  const scores: TaskScore[] = [];
  const perTask: EvalReport["perTask"] = [];
  const recovery = { missed: 0, found: 0, afterSteps: { missed: 0, found: 0 } };
  let schemaTokens = 0;
  let unionSize = 0;
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t];
    const state = stateOf(task);
    const n = routedQueries(task, perStep).length;
    let union: string[] = [];
    let unionIds: string[] = [];
    const seen = new Set<string>();
    const firstActive = new Set<string>();
    if (simulate) ({ names: union, ids: unionIds } = await simulateTask(router, task, simulate, { k, theta, tags: opts.tags, decompose: opts.decompose }));
    else for (let j = 0; j < n; j++) {
      const i = offsets[t] + j;
      const d: RoutingDecision = await router.route(queries[i], state, { k, theta, queryVector: vectors[i], turnId: task.id, tags: opts.tags, decompose: opts.decompose });
      if (j === 0) for (const a of d.active) firstActive.add(a.name);
      for (const a of d.active) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        union.push(a.name);
        unionIds.push(a.id);
      }
    }
    if (perStep && !simulate && task.steps?.length) {
      const gold = [...new Set(task.gold)];
      const missed = gold.filter((g) => !firstActive.has(g));
      const missedAll = gold.filter((g) => !union.includes(g));
      recovery.missed += missed.length;
      recovery.afterSteps.missed += missedAll.length;
      if (missed.length > 0) {
        const found = new Set<string>();
        for (const step of task.steps) for (const a of (await router.route(step, state, { k: SEARCH_K, turnId: task.id })).active) found.add(a.name);
        recovery.found += missed.filter((g) => found.has(g)).length;
        recovery.afterSteps.found += missedAll.filter((g) => found.has(g)).length;
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
    await router.route(tasks[0].query, stateOf(tasks[0]), { k, theta, tags: opts.tags });
    const step = tasks.length / sample;
    for (let s = 0; s < sample; s++) {
      const task = tasks[Math.floor(s * step)];
      const d = await router.route(task.query, stateOf(task), { k, theta, tags: opts.tags });
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
    ...(simulate ? { simulate: true } : {}),
    ...(perStep ? { avgUnion: tasks.length ? unionSize / tasks.length : 0 } : {}),
    ...(perStep && !simulate ? { searchRecovery: { ...recovery, share: recovery.missed ? recovery.found / recovery.missed : 0 } } : {}),
    perTask,
  };
}
