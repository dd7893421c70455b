/**
 * Tool Attention ablations: each row removes or changes one mechanism and is measured on the same tasks as the
 * main table. Encoder rows that this build cannot run (an encoder name the router rejects, a model whose files
 * are not on disk) become "skipped" rows with the reason, never silent omissions.
 */
import type { ToolCatalog } from "../core/catalog/catalog.js";
import { checkPreconditions } from "../core/preconditions/preconditions.js";
import type { ToolAttentionRouter } from "../core/router/router.js";
import type { EncoderName } from "../core/encoders/index.js";
import { routedQueries, stateOf } from "../eval/evaluate.js";
import { blockedGold, buildRouter, runRouter, withoutPreconditions, type BenchSet, type MethodOptions, type MethodRow, type RouterSpec } from "./methods.js";
import { gateTriggerRate, summarizeOutcomes, type TaskOutcome } from "./metrics.js";

/** The k values and θ values swept. */
export const ABLATION_KS = [5, 10, 20] as const;
export const ABLATION_THETAS = [0.15, 0.28, 0.4] as const;
/** Encoders compared; "hybrid" and "minilm" are skipped when unavailable. */
export const ABLATION_ENCODERS = ["use-lite", "lexical", "hybrid", "minilm"] as const;

export interface AblationOptions extends MethodOptions {
  /** Encoders to compare (default ABLATION_ENCODERS). */
  encoders?: readonly string[];
}

/**
 * "−lazy loading": no Phase-2 schemas at all. The model sees only the summary pool, and the gate admits any
 * catalog tool it names whose preconditions hold — so "active" here means "callable", not "has a schema".
 */
function poolOnly(set: BenchSet, ta: ToolAttentionRouter, perStep: boolean): { outcomes: TaskOutcome[]; gate: ReturnType<typeof gateTriggerRate> } {
  const pool = ta.poolTokens();
  const outcomes: TaskOutcome[] = [];
  const gateInputs = [];
  for (const task of set.tasks) {
    const state = stateOf(task);
    const callable = set.catalog.tools.filter((t) => checkPreconditions(t, state).allow).map((t) => t.name);
    const blocked = blockedGold(set.catalog, task);
    outcomes.push({ id: task.id, gold: task.gold, blocked, active: callable, turns: routedQueries(task, perStep).map(() => ({ toolTokens: pool, poolExcludedTokens: 0 })) });
    gateInputs.push({
      active: callable,
      gold: task.gold,
      blocked,
      preconditionReason: (name: string) => {
        for (const t of set.catalog.getByName(name)) {
          const c = checkPreconditions(t, state);
          return c.allow ? undefined : c.reason;
        }
        return undefined;
      },
    });
  }
  return { outcomes, gate: gateTriggerRate(gateInputs, (n) => set.catalog.getByName(n).length > 0) };
}

/** Runs every ablation on one set; `ta` is the default Tool Attention router (prepared). */
export async function runAblations(set: BenchSet, ta: ToolAttentionRouter, opts: AblationOptions): Promise<MethodRow[]> {
  const perStep = opts.perStep ?? true;
  const ctx = opts.context;
  const log = opts.log ?? (() => {});
  const rows: MethodRow[] = [];
  const run = async (router: ToolAttentionRouter, catalog: ToolCatalog, k: number, theta: number) =>
    runRouter(router, set.tasks, catalog, { k, theta, includePool: true, perStep });
  const routed = async (key: string, label: string, router: ToolAttentionRouter, catalog: ToolCatalog, k: number, theta: number, encoder: string, note?: string) => {
    const r = await run(router, catalog, k, theta);
    rows.push({ key, label, summary: summarizeOutcomes(r.outcomes, ctx), gate: r.gate, note, config: { encoder, theta, k, index: router.indexKind } });
  };

  await routed("ta-default", `Tool Attention (k=${ta.k}, θ=${ta.theta})`, ta, set.catalog, ta.k, ta.theta, opts.encoder);

  const stripped = withoutPreconditions(set.catalog, opts.encoding);
  const noPre = await buildRouter(stripped, { encoder: opts.encoder, k: ta.k, theta: ta.theta }, opts);
  if ("skipped" in noPre) rows.push({ key: "ta-no-preconditions", label: "− preconditions", skipped: noPre.skipped });
  else
    await routed("ta-no-preconditions", "− preconditions", noPre, set.catalog, ta.k, ta.theta, opts.encoder,
      "routing ignores state; the gate still checks the real preconditions");

  const po = poolOnly(set, ta, perStep);
  rows.push({
    key: "ta-pool-only",
    label: "− lazy loading (pool only)",
    summary: summarizeOutcomes(po.outcomes, ctx),
    gate: po.gate,
    note: "summary pool only, no Phase-2 schemas; 'active' = every tool the gate admits (preconditions hold)",
  });

  await routed("ta-k0", "Phase-1 only (k=0)", ta, set.catalog, 0, ta.theta, opts.encoder, "routing runs but promotes no schema");
  for (const k of ABLATION_KS) await routed(`ta-k${k}`, `k=${k}`, ta, set.catalog, k, ta.theta, opts.encoder);
  for (const theta of ABLATION_THETAS) await routed(`ta-theta${theta}`, `θ=${theta}`, ta, set.catalog, ta.k, theta, opts.encoder);
  log("  k/θ ablations done");

  // Routing mechanisms, each removed on its own, and all of them (the router before multi-vector rows, the server
  // channel and the never-empty floor). Same encoder, k and θ as the default row.
  const mechanisms: [string, string, NonNullable<RouterSpec["routing"]>][] = [
    ["ta-no-multi-vector", "− multi-vector rows (max-sim)", { multiVector: false }],
    ["ta-no-servers", "− server channel", { servers: false }],
    ["ta-no-min-active", "− never-empty floor (minActive 0)", { minActive: 0 }],
    ["ta-round1", "− all three (round-1 routing)", { multiVector: false, servers: false, minActive: 0 }],
  ];
  // The lexical encoder has no dense channel: only the floor applies to it.
  for (const [key, label, routing] of mechanisms.filter(([key]) => opts.encoder !== "lexical" || key === "ta-no-min-active")) {
    const router = await buildRouter(set.catalog, { encoder: opts.encoder, k: ta.k, theta: ta.theta, routing }, opts);
    if ("skipped" in router) rows.push({ key, label, skipped: router.skipped });
    else await routed(key, label, router, set.catalog, ta.k, ta.theta, opts.encoder);
  }
  log("  mechanism ablations done");

  for (const name of opts.encoders ?? ABLATION_ENCODERS) {
    // Each encoder at its own default θ (cosine scales differ between dense and lexical encoders).
    const router = name === opts.encoder ? ta : await buildRouter(set.catalog, { encoder: name as EncoderName, k: ta.k }, opts);
    if ("skipped" in router) {
      rows.push({ key: `enc-${name}`, label: `encoder ${name}`, skipped: router.skipped });
      continue;
    }
    await routed(`enc-${name}`, `encoder ${name}`, router, set.catalog, ta.k, router.theta, name);
    log(`  encoder ${name} done`);
  }
  return rows;
}
