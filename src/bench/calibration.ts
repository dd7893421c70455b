/**
 * The bench's calibration section: the θ curve (recall / precision / F1 / all-gold from 0.10 to 0.50 in 0.02
 * steps) on a set's tasks, and the max-F1 θ.
 */
import type { ToolAttentionRouter } from "../core/router/router.js";
import { evaluate } from "../eval/evaluate.js";
import type { BenchSet } from "./methods.js";
import type { CalibrationPoint, CalibrationResult } from "./report.js";

export const THETA_GRID: readonly number[] = Array.from({ length: 21 }, (_, i) => Math.round((0.1 + i * 0.02) * 100) / 100);

export async function runCalibration(router: ToolAttentionRouter, set: BenchSet, opts: { encoder: string; perStep: boolean }): Promise<CalibrationResult> {
  const curve: CalibrationPoint[] = [];
  for (const theta of THETA_GRID) {
    const r = await evaluate(router, set.tasks, { theta, perStep: opts.perStep, latencySample: 0 });
    curve.push({ theta, recall: r.recall, precision: r.precision, f1: r.f1, allGold: r.allGold });
  }
  // Max F1; ties go to the lower θ (higher recall).
  const chosen = curve.reduce((best, p) => (p.f1 > best.f1 + 1e-12 ? p : best), curve[0]);
  return { set: set.name, encoder: opts.encoder, k: router.k, curve, chosen };
}
