/**
 * The bench's calibration section: the θ curve (recall / precision / F1 / all-gold from 0.10 to 0.50 in 0.02
 * steps) on a set's tasks and the max-F1 θ, computed by the `calibrate` command's own sweep.
 */
import type { ToolAttentionRouter } from "../core/router/router.js";
import { calibrate, DEFAULT_THETAS } from "../eval/calibrate.js";
import { blockedGold, type BenchSet } from "./methods.js";
import type { CalibrationResult } from "./report.js";

export const THETA_GRID = DEFAULT_THETAS;

/**
 * Scored against the reachable gold, like the main table: gold tools the task's state forbids are dropped, and
 * tasks left without gold are not part of the sweep.
 */
export async function runCalibration(router: ToolAttentionRouter, set: BenchSet, opts: { encoder: string; perStep: boolean }): Promise<CalibrationResult> {
  const tasks = set.tasks
    .map((t) => {
      const blocked = new Set(blockedGold(set.catalog, t));
      return blocked.size ? { ...t, gold: t.gold.filter((g) => !blocked.has(g)) } : t;
    })
    .filter((t) => t.gold.length > 0);
  const r = await calibrate(router, tasks, { perStep: opts.perStep, thetas: THETA_GRID });
  return { set: set.name, encoder: opts.encoder, k: r.k, curve: r.curve, chosen: r.best };
}
