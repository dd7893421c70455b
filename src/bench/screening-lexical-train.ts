/**
 * Trains the screen's lexical model (src/core/screening/lexical.ts) and writes its weight table:
 * `node --import tsx src/bench/screening-lexical-train.ts [--out assets/screening-lexical.json] [--no-real]`.
 *
 * Training rows: every development set in data/screening except those kept blind (the independent sets registered
 * `fit: false`, and holdout-set.jsonl), the tools of the 17-server real catalog (captured from npm as the
 * screening bench does; all honest) and the synthetic catalog's tools (honest). A logistic regression over the
 * features of lexical.ts, each tool's feature vector scaled to unit length, the two classes weighted equally, an L2
 * penalty, Adam for a fixed number of epochs from zero: deterministic, so the same rows give the same table.
 * Features seen in fewer than two training tools are left out, and weights below 0.002 in size are dropped.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { captureCatalog } from "../mcp/capture.js";
import { fieldsOf } from "../core/screening/fields.js";
import { toolFeatures } from "../core/screening/lexical.js";
import type { ScreenableTool } from "../core/screening/types.js";
import { INDEPENDENT_SETS } from "./screening-independent.js";
import { REAL_SERVERS_CONFIG } from "./real-catalog.js";

export interface LexicalTrainingRow {
  from: string;
  poisoned: boolean;
  tool: ScreenableTool;
}

const DATA = fileURLToPath(new URL("../../data/", import.meta.url));

/** The sets the model must not see: registered never-fit, and the old holdout. */
export function blindSetFiles(): Set<string> {
  return new Set([...INDEPENDENT_SETS.filter((s) => !s.fit).map((s) => `${s.name}-set.jsonl`), "holdout-set.jsonl"]);
}

/** The development rows of data/screening that training may use. */
export function screeningTrainingRows(): LexicalTrainingRow[] {
  const blind = blindSetFiles();
  const rows: LexicalTrainingRow[] = [];
  for (const file of readdirSync(`${DATA}screening`).filter((f) => f.endsWith(".jsonl") && !blind.has(f)).sort()) {
    readFileSync(`${DATA}screening/${file}`, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (!line.trim()) return;
        const r = JSON.parse(line) as { label?: string; tool?: ScreenableTool };
        if (!r.tool || typeof r.tool.name !== "string") throw new Error(`${file}:${i + 1}: a row needs "tool" with a "name"`);
        // poisoned.jsonl, the first set, has no label: every row of it is poisoned.
        rows.push({ from: file, poisoned: (r.label ?? "poisoned") === "poisoned", tool: r.tool });
      });
  }
  return rows;
}

/** The synthetic catalog's tools, all honest. */
export function syntheticTrainingRows(): LexicalTrainingRow[] {
  const catalog = JSON.parse(readFileSync(`${DATA}synthetic/catalog.json`, "utf8")) as { servers: { name: string; tools: ScreenableTool[] }[] };
  return catalog.servers.flatMap((s) => s.tools.map((tool) => ({ from: `synthetic/${s.name}`, poisoned: false, tool })));
}

export interface TrainOptions {
  l2?: number;
  epochs?: number;
  learningRate?: number;
  minCount?: number;
  /** Weights smaller than this in size are left out of the table. */
  prune?: number;
}

export interface TrainedTable {
  version: string;
  bias: number;
  weights: Record<string, number>;
}

/** Logistic regression over the rows' features (see the header); returns the table as written to disk. */
export function trainLexicalModel(rows: readonly LexicalTrainingRow[], options: TrainOptions = {}): TrainedTable {
  const l2 = options.l2 ?? 1e-4;
  const epochs = options.epochs ?? 100;
  const lr = options.learningRate ?? 0.05;
  const minCount = options.minCount ?? 2;
  const features = rows.map((r) => toolFeatures(fieldsOf(r.tool)));
  const count = new Map<string, number>();
  for (const fs of features) for (const g of fs) count.set(g, (count.get(g) ?? 0) + 1);
  const vocab = new Map<string, number>();
  for (const [g, c] of [...count].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (c >= minCount) vocab.set(g, vocab.size);
  // Each row: its feature ids and the unit-length scale 1/sqrt(number of its features, known or not).
  const ids = features.map((fs) => Int32Array.from([...fs].flatMap((g) => (vocab.has(g) ? [vocab.get(g)!] : []))));
  const scale = features.map((fs) => 1 / Math.sqrt(Math.max(1, fs.size)));
  const y = rows.map((r) => (r.poisoned ? 1 : 0));
  const positives = y.reduce<number>((a, b) => a + b, 0);
  if (positives === 0 || positives === rows.length) throw new Error("lexical training needs both poisoned and honest rows");
  const sampleWeight = y.map((v) => (v ? 0.5 / positives : 0.5 / (rows.length - positives)));
  const V = vocab.size;
  const w = new Float64Array(V);
  const m = new Float64Array(V);
  const v = new Float64Array(V);
  const grad = new Float64Array(V);
  let bias = 0;
  for (let ep = 0; ep < epochs; ep++) {
    grad.fill(0);
    let gb = 0;
    for (let i = 0; i < rows.length; i++) {
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
    for (let j = 0; j < V; j++) {
      const gj = grad[j] + l2 * w[j];
      m[j] = 0.9 * m[j] + 0.1 * gj;
      v[j] = 0.999 * v[j] + 0.001 * gj * gj;
      w[j] -= (lr * (m[j] / c1)) / (Math.sqrt(v[j] / c2) + 1e-8);
    }
  }
  const prune = options.prune ?? 0.002;
  const weights: Record<string, number> = {};
  for (const [g, j] of vocab) if (Math.abs(w[j]) >= prune) weights[g] = Math.round(w[j] * 1e4) / 1e4;
  return { version: "", bias: Math.round(bias * 1e4) / 1e4, weights };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const out = at >= 0 ? args[at + 1] : fileURLToPath(new URL("../../assets/screening-lexical.json", import.meta.url));
  const rows = [...screeningTrainingRows(), ...syntheticTrainingRows()];
  if (!args.includes("--no-real")) {
    const real = (await captureCatalog(REAL_SERVERS_CONFIG)).catalog;
    for (const s of real.servers) for (const tool of s.tools) rows.push({ from: `real/${s.name}`, poisoned: false, tool: tool as ScreenableTool });
  }
  const table = trainLexicalModel(rows);
  const poisoned = rows.filter((r) => r.poisoned).length;
  table.version = `trained ${new Date().toISOString().slice(0, 10)} on ${poisoned} poisoned and ${rows.length - poisoned} honest tools`;
  writeFileSync(out, `${JSON.stringify(table)}\n`);
  console.log(`${out}: ${Object.keys(table.weights).length} weights, bias ${table.bias} (${table.version})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
