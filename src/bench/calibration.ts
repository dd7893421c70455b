/**
 * The bench's calibration section: the θ curve (recall / precision / F1 / all-gold from 0.10 to 0.50 in 0.02
 * steps) on a set's tasks and the max-F1 θ, computed by the `calibrate` command's own sweep.
 */
import type { ToolAttentionRouter } from "../core/router/router.js";
import { calibrate, DEFAULT_THETAS } from "../eval/calibrate.js";
import type { BenchSet } from "./methods.js";
import type { CalibrationResult } from "./report.js";

export const THETA_GRID = DEFAULT_THETAS;

export async function runCalibration(router: ToolAttentionRouter, set: BenchSet, opts: { encoder: string; perStep: boolean }): Promise<CalibrationResult> {
  const r = await calibrate(router, set.tasks, { perStep: opts.perStep, thetas: THETA_GRID });
  return { set: set.name, encoder: opts.encoder, k: r.k, curve: r.curve, chosen: r.best };
}
