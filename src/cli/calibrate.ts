/**
 * `tool-attention calibrate`: sweeps θ over a task set and prints the recall / precision / F1 curve with the
 * chosen θ marked. The router and tasks are built by main.ts, which owns option parsing.
 */
import type { ToolAttentionRouter } from "../core/router/router.js";
import { calibrate, type CalibrationPoint } from "../eval/calibrate.js";
import type { EvalTask } from "../eval/tasks.js";

export interface CalibrateCommandOptions {
  k?: number;
  perStep?: boolean;
  json?: boolean;
  /** Where the result goes (default stdout) and where progress goes (default stderr). */
  out?: (text: string) => void;
  progress?: (text: string) => void;
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

function row(p: CalibrationPoint): Record<string, number> {
  return { theta: p.theta, recall: r4(p.recall), precision: r4(p.precision), f1: r4(p.f1), allGold: r4(p.allGold), avgActive: Math.round(p.avgActive * 100) / 100 };
}

export async function runCalibrate(router: ToolAttentionRouter, tasks: readonly EvalTask[], opts: CalibrateCommandOptions = {}): Promise<void> {
  const out = opts.out ?? ((t: string) => process.stdout.write(t));
  const progress = opts.progress ?? ((t: string) => process.stderr.write(t));
  progress(`calibrate: ${tasks.length} tasks over ${router.catalog.size} tools; embedding the catalog…\n`);
  const result = await calibrate(router, tasks, {
    k: opts.k,
    perStep: opts.perStep,
    onProgress: (done, total) => progress(`calibrate: ${done}/${total}\n`),
  });
  const encoder = /encoder: ([^;]+)/.exec(router.describe())?.[1] ?? "";
  if (opts.json) {
    out(`${JSON.stringify({ tasks: result.tasks, k: result.k, perStep: result.perStep, encoder, best: row(result.best), curve: result.curve.map(row) })}\n`);
    return;
  }
  const lines = [
    `θ sweep over ${result.tasks} tasks (k=${result.k}, encoder ${encoder}${result.perStep ? ", per step" : ""})`,
    `   θ     recall  precision  F1      all-gold  avg active`,
  ];
  for (const p of result.curve) {
    const mark = p === result.best ? "  ← best F1" : "";
    lines.push(
      `  ${p.theta.toFixed(2)}  ${p.recall.toFixed(4)}  ${p.precision.toFixed(4)}     ${p.f1.toFixed(4)}  ${p.allGold.toFixed(4)}    ${p.avgActive.toFixed(2).padStart(5)}${mark}`,
    );
  }
  lines.push(`best θ ${result.best.theta.toFixed(2)}: F1 ${result.best.f1.toFixed(4)}, recall ${result.best.recall.toFixed(4)}, precision ${result.best.precision.toFixed(4)}`);
  out(`${lines.join("\n")}\n`);
}
