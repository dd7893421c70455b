/**
 * θ calibration: sweep the routing threshold over a task set and pick the value with the best F1 of the
 * active set against gold (ties go to the higher recall: a missing tool costs a failed turn, an extra one
 * only its schema tokens).
 *
 * Cheap by construction: queries are embedded once, and each routed text is routed once at the lowest θ of
 * the sweep. Because the slate is sorted by score and gating does not depend on θ, the active set at any
 * higher θ is exactly the lowest-θ active set filtered to scores ≥ θ — so every θ is scored from one route.
 */
import type { ToolAttentionRouter } from "../core/router/router.js";
import type { ScoredTool } from "../core/types.js";
import { embedRoutedQueries, routedQueries, stateOf } from "./evaluate.js";
import { aggregate, scoreTask, type TaskScore } from "./metrics.js";
import type { EvalTask } from "./tasks.js";

/** 0.10, 0.12, …, 0.50. */
export const DEFAULT_THETAS: readonly number[] = Array.from({ length: 21 }, (_, i) => Math.round((0.1 + 0.02 * i) * 100) / 100);

export interface CalibrateOptions {
  /** Active-set size cap. Default: the router's k. */
  k?: number;
  /** Thresholds to try. Default 0.10 to 0.50 in steps of 0.02. */
  thetas?: readonly number[];
  /** Route the query and each plan step (as `eval --per-step`), scoring the union of active sets. */
  perStep?: boolean;
  onProgress?: (done: number, total: number) => void;
}

/** One point of the curve. */
export interface CalibrationPoint {
  theta: number;
  recall: number;
  precision: number;
  f1: number;
  allGold: number;
  avgActive: number;
}

export interface CalibrationResult {
  k: number;
  perStep: boolean;
  tasks: number;
  /** Ascending θ. */
  curve: CalibrationPoint[];
  /** The max-F1 point (ties: higher recall, then lower θ). */
  best: CalibrationPoint;
}

/** Per task, the active tools of each routed text at the lowest θ (names and scores, best first). */
export type RoutedActive = readonly (readonly Pick<ScoredTool, "id" | "name" | "score">[])[];

/** Scores one θ from the lowest-θ active sets: keep tools scoring ≥ θ, union over the routed texts. */
export function activeAt(routes: RoutedActive, theta: number, floor = 0): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const active of routes) {
    // A route at θ keeps the tools at or above it and, when fewer than `floor`, the best ones below it (minActive):
    // the active list is best first, so those are the next ones in it.
    let kept = 0;
    for (const a of active) {
      if (a.score < theta && kept >= floor) continue;
      kept++;
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      names.push(a.name);
    }
  }
  return names;
}

/** Builds the curve and picks the best point from per-task routes (pure; exported for tests and the benchmark). */
export function sweep(
  routes: readonly RoutedActive[],
  gold: readonly (readonly string[])[],
  thetas: readonly number[] = DEFAULT_THETAS,
  /** The routes' never-empty floor, min(k, minActive): tools below θ a real route would still keep. Default 0. */
  floor = 0,
): { curve: CalibrationPoint[]; best: CalibrationPoint } {
  if (routes.length !== gold.length) throw new Error(`sweep: ${routes.length} routed tasks but ${gold.length} gold sets`);
  if (thetas.length === 0) throw new Error("sweep: no thresholds to try");
  const curve = [...thetas]
    .sort((a, b) => a - b)
    .map((theta) => {
      const scores: TaskScore[] = routes.map((r, i) => scoreTask(activeAt(r, theta, floor), gold[i]));
      const a = aggregate(scores);
      return { theta, recall: a.recall, precision: a.precision, f1: a.f1, allGold: a.allGold, avgActive: a.avgActive };
    });
  const EPS = 1e-12;
  let best = curve[0];
  for (const p of curve.slice(1))
    if (p.f1 > best.f1 + EPS || (Math.abs(p.f1 - best.f1) <= EPS && p.recall > best.recall + EPS)) best = p;
  return { curve, best };
}

/** Sweeps θ on a task set with one embedding pass and one route per routed text. */
export async function calibrate(router: ToolAttentionRouter, tasks: readonly EvalTask[], opts: CalibrateOptions = {}): Promise<CalibrationResult> {
  if (tasks.length === 0) throw new Error("calibrate: the task set is empty");
  const thetas = opts.thetas ?? DEFAULT_THETAS;
  if (thetas.length === 0) throw new Error("calibrate: no thresholds to try");
  const range = router.thetaRange;
  for (const t of thetas)
    if (!Number.isFinite(t) || t < range.min || t > range.max)
      throw new Error(`calibrate: threshold ${t} is outside ${range.min}..${range.max} (${range.scores})`);
  await router.prepare();
  const k = opts.k ?? router.k;
  const perStep = opts.perStep ?? false;
  const lowest = Math.min(...thetas);

  const queries = tasks.flatMap((task) => routedQueries(task, perStep));
  const vectors = await embedRoutedQueries(router, queries);

  const routes: RoutedActive[] = [];
  let i = 0;
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t];
    const state = stateOf(task);
    const perText: ScoredTool[][] = [];
    for (const query of routedQueries(task, perStep)) {
      const d = await router.route(query, state, { k, theta: lowest, queryVector: vectors[i++], turnId: task.id });
      perText.push(d.active);
    }
    routes.push(perText);
    if (opts.onProgress && ((t + 1) % 500 === 0 || t + 1 === tasks.length)) opts.onProgress(t + 1, tasks.length);
  }
  const { curve, best } = sweep(routes, tasks.map((t) => t.gold), thetas, Math.min(k, router.minActive));
  return { k, perStep, tasks: tasks.length, curve, best };
}
