/**
 * Trains the screen's lexical model (src/core/screening/lexical.ts) and writes its weight table:
 * `node --import tsx src/bench/screening-lexical-train.ts [--out assets/screening-lexical.bin] [--no-real]`.
 *
 * Training rows: every development set in data/screening except those kept blind (the independent sets registered
 * `fit: false`, and holdout-set.jsonl), the tools of the 17-server real catalog (captured from npm as the
 * screening bench does; all honest) and the synthetic catalog's tools (honest); beside each honest tool, its distinct
 * sentences read alone, as honest rows too. A logistic regression over the features of lexical.ts, each row's feature
 * vector scaled to unit length, the two classes weighted equally, an L2 penalty, Adam for a fixed number of epochs
 * from zero: deterministic, so the same rows give the same table.
 * Features are hashed into 2^20 buckets (lexical.ts); features seen in fewer than two training tools are left out.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { captureCatalog } from "../mcp/capture.js";
import { fieldsOf, type TextField } from "../core/screening/fields.js";
import { bucketOf, encodeLexicalModel, proseSentences, sentenceFeatures, toolFeatures } from "../core/screening/lexical.js";
import type { ScreenableTool } from "../core/screening/types.js";
import { INDEPENDENT_SETS } from "./screening-independent.js";
import { REAL_SERVERS_CONFIG } from "./real-catalog.js";
import { readJsonLines, SYNTHETIC_CATALOG } from "./screening.js";

export interface LexicalTrainingRow {
  from: string;
  poisoned: boolean;
  tool: ScreenableTool;
}

const SCREENING_DIR = fileURLToPath(new URL("../../data/screening/", import.meta.url));

/** The sets the model must not see: registered never-fit, and the old holdout. */
export function blindSetFiles(): Set<string> {
  return new Set([...INDEPENDENT_SETS.filter((s) => !s.fit).map((s) => `${s.name}-set.jsonl`), "holdout-set.jsonl"]);
}

/** The development rows of data/screening that training may use; errors name the file and line. */
export function screeningTrainingRows(): LexicalTrainingRow[] {
  const blind = blindSetFiles();
  return readdirSync(SCREENING_DIR)
    .filter((f) => f.endsWith(".jsonl") && !blind.has(f))
    .sort()
    .flatMap((file) =>
      readJsonLines<{ label?: string; tool: ScreenableTool }>(`${SCREENING_DIR}${file}`, (r) => Boolean(r?.tool) && typeof r.tool.name === "string", `{"label"?, "tool": {"name", …}}`)
        // poisoned.jsonl, the first set, has no label: every row of it is poisoned.
        .map((r) => ({ from: file, poisoned: (r.label ?? "poisoned") === "poisoned", tool: r.tool })),
    );
}

/** The synthetic catalog's tools, all honest. */
export function syntheticTrainingRows(): LexicalTrainingRow[] {
  const catalog = JSON.parse(readFileSync(SYNTHETIC_CATALOG, "utf8")) as { servers: { name: string; tools: ScreenableTool[] }[] };
  return catalog.servers.flatMap((s) => s.tools.map((tool) => ({ from: `synthetic/${s.name}`, poisoned: false, tool })));
}

export interface TrainOptions {
  /** Hash bits: the table holds 2^bits weights. Default 20. */
  bits?: number;
  /**
   * L2 penalty per weight. Default 3e-6: once the training sets had writers of more voices (train1–9,
   * trainlegit1–3), a lighter penalty ranked the never-fit sets better (area under the ROC curve 0.981 at 1e-4, 0.993
   * at 1e-5, 0.994 at 3e-6, before the sentence rows); the fixed number of epochs bounds the weights as well.
   */
  l2?: number;
  epochs?: number;
  learningRate?: number;
  /**
   * Share of the honest class's weight given to the sentences of the honest tools, each read alone as a row of its
   * own (the rest goes to the honest tools whole). Default 0.3. The screen reads single sentences too (a finding's
   * own sentence, the sentence a finding of the model's own points at); trained on whole tools only, the model read a
   * plain sentence such as "Page number, starting at 1." as an attack, since nothing in it leans honest. 0 trains on
   * whole tools only.
   */
  honestSentenceShare?: number;
  /** Features seen in fewer training tools than this get no weight of their own (their buckets stay as the rest train them). */
  minCount?: number;
}

export interface TrainedTable {
  bias: number;
  weights: Float32Array;
}

/** The distinct sentences of the honest rows' text fields (`fields[i]` of `rows[i]`), each as the features it has read alone. */
function honestSentences(rows: readonly LexicalTrainingRow[], fields: readonly TextField[][]): Set<number>[] {
  const seen = new Set<string>();
  const out: Set<number>[] = [];
  for (const [i, r] of rows.entries()) {
    if (r.poisoned) continue;
    for (const { field, sentence } of proseSentences(fields[i])) {
      const features = sentenceFeatures(sentence, field);
      const key = [...features].sort((a, b) => a - b).join(",");
      if (features.size === 0 || seen.has(key)) continue;
      seen.add(key);
      out.push(features);
    }
  }
  return out;
}

/** Logistic regression over the rows' hashed features (see the header). */
export function trainLexicalModel(rows: readonly LexicalTrainingRow[], options: TrainOptions = {}): TrainedTable {
  const bits = options.bits ?? 20;
  const mask = 2 ** bits - 1;
  const l2 = options.l2 ?? 3e-6;
  const epochs = options.epochs ?? 100;
  const lr = options.learningRate ?? 0.05;
  const minCount = options.minCount ?? 2;
  const sentenceShare = options.honestSentenceShare ?? 0.3;
  const fields = rows.map((r) => fieldsOf(r.tool));
  const features = fields.map(toolFeatures);
  // Counted over the tools only, so the sentence rows add no feature of their own.
  const count = new Map<number, number>();
  for (const fs of features) for (const h of fs) count.set(h, (count.get(h) ?? 0) + 1);
  const sentenceRows = sentenceShare > 0 ? honestSentences(rows, fields) : [];
  // Each row: the buckets of its features seen often enough, and the unit-length scale 1/sqrt(number of its features).
  const all = [...features, ...sentenceRows];
  const ids = all.map((fs) => Int32Array.from([...fs].flatMap((h) => ((count.get(h) ?? 0) >= minCount ? [bucketOf(h, mask)] : []))));
  const scale = all.map((fs) => 1 / Math.sqrt(Math.max(1, fs.size)));
  const y = [...rows.map((r) => (r.poisoned ? 1 : 0)), ...sentenceRows.map(() => 0)];
  const positives = rows.filter((r) => r.poisoned).length;
  if (positives === 0 || positives === rows.length) throw new Error("lexical training needs both poisoned and honest rows");
  // Balanced classes; within the honest class, the sentence rows share `sentenceShare` of its weight.
  const honestTools = rows.length - positives;
  const toolShare = sentenceRows.length ? 1 - sentenceShare : 1;
  const sampleWeight = y.map((v, i) => (v ? 0.5 / positives : i < rows.length ? (0.5 * toolShare) / honestTools : (0.5 * sentenceShare) / sentenceRows.length));
  const used = new Uint8Array(mask + 1);
  for (const row of ids) for (const b of row) used[b] = 1;
  const active = Int32Array.from([...used.keys()].filter((i) => used[i] === 1));
  const w = new Float64Array(mask + 1);
  const m = new Float64Array(mask + 1);
  const v = new Float64Array(mask + 1);
  const grad = new Float64Array(mask + 1);
  let bias = 0;
  for (let ep = 0; ep < epochs; ep++) {
    grad.fill(0);
    let gb = 0;
    for (let i = 0; i < all.length; i++) {
      let z = bias;
      const row = ids[i];
      for (let k = 0; k < row.length; k++) z += w[row[k]] * scale[i];
      const g = (1 / (1 + Math.exp(-z)) - y[i]) * sampleWeight[i];
      gb += g;
      for (let k = 0; k < row.length; k++) grad[row[k]] += g * scale[i];
    }
    bias -= 5 * gb;
    const c1 = 1 - 0.9 ** (ep + 1);
    const c2 = 1 - 0.999 ** (ep + 1);
    for (let a = 0; a < active.length; a++) {
      const j = active[a];
      const gj = grad[j] + l2 * w[j];
      m[j] = 0.9 * m[j] + 0.1 * gj;
      v[j] = 0.999 * v[j] + 0.001 * gj * gj;
      w[j] -= (lr * (m[j] / c1)) / (Math.sqrt(v[j] / c2) + 1e-8);
    }
  }
  return { bias: Math.fround(bias), weights: Float32Array.from(w) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const out = at >= 0 ? args[at + 1] : fileURLToPath(new URL("../../assets/screening-lexical.bin", import.meta.url));
  const rows = [...screeningTrainingRows(), ...syntheticTrainingRows()];
  if (!args.includes("--no-real")) {
    const real = (await captureCatalog(REAL_SERVERS_CONFIG)).catalog;
    for (const s of real.servers) for (const tool of s.tools) rows.push({ from: `real/${s.name}`, poisoned: false, tool: tool as ScreenableTool });
  }
  const table = trainLexicalModel(rows);
  const poisoned = rows.filter((r) => r.poisoned).length;
  writeFileSync(out, encodeLexicalModel(table.bias, table.weights));
  console.log(`${out}: ${table.weights.filter((x) => x !== 0).length} of ${table.weights.length} buckets weighted, bias ${table.bias.toFixed(4)}; trained on ${poisoned} poisoned and ${rows.length - poisoned} honest tools, and the honest tools' sentences`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
