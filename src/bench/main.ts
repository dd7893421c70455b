#!/usr/bin/env node
/**
 * `npm run bench`: the measured tools-tax benchmark. Runs every method, the Tool Attention ablations, the scaling
 * sweep and the θ calibration on the same catalogs and tasks, prints the main table to stdout, and writes
 * `<out>/latest.md`, `<out>/latest.json` and SVG charts. Progress goes to stderr.
 */
import { conversationCostChart } from "./conversation-cost-report.js";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { runIfEntry } from "../cli/entry.js";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { defaultEmbeddingCacheDir, ENCODER_NAMES, isEncoderSpec, type EncoderName } from "../core/encoders/index.js";
import { DEFAULT_ENCODER, ToolAttentionRouter } from "../core/router/router.js";
import { isTokenEncoding, type TokenEncoding } from "../core/tokens/count.js";
import { loadTasks, type EvalTask } from "../eval/tasks.js";
import { runAblations } from "./ablations.js";
import { runCalibration } from "./calibration.js";
import { DEFAULT_CONTEXT, type ContextAssumptions } from "./metrics.js";
import { runMethods, type BenchSet } from "./methods.js";
import { captureCatalog } from "../mcp/capture.js";
import { loadRealCatalog, REAL_SERVERS_CONFIG } from "./real-catalog.js";
import { renderConsole, renderMarkdown, type BenchResult, type CalibrationResult, type SetResult } from "./report.js";
import { runScaling } from "./scaling.js";
import { lineChart } from "./svg.js";
import { loadExpansion } from "./expansion.js";
import { longHorizonSet, QUICK_SWEEP, runConversationCost } from "./conversation-cost.js";
import { eventLoopSection, renderEventLoopMarkdown, type EventLoopSection } from "./event-loop.js";
import { measureScreening, renderScreeningMarkdown, type ScreeningMeasurement } from "./screening.js";
import { renderFaultSuiteMarkdown, runFaultSuite, type FaultSuiteReport } from "./faults.js";
import { measureOverhead, renderOverheadMarkdown } from "./overhead.js";

export const DEFAULT_SIZES = [120, 500, 1_000, 10_000, 100_000] as const;
/** Quick sizes: two measured ones, and one above QUICK_COLD_LIMIT on derived vectors, large enough for the HNSW path. */
export const QUICK_SIZES = [30, 60, 5_000] as const;
export const QUICK_COLD_LIMIT = 60;
export const DEFAULT_SYNTHETIC_CATALOG = "data/synthetic/catalog.json";
export const DEFAULT_SYNTHETIC_TASKS = "data/synthetic/tasks.jsonl";
export const DEFAULT_METATOOL = "../shared/benchmarks/metatool-dev";

export interface BenchOptions {
  /** Output directory for latest.md, latest.json and the charts. Default reports/bench. */
  out?: string;
  /** Small sizes and samples, for tests and smoke runs. */
  quick?: boolean;
  catalog?: string;
  tasks?: string;
  encoder?: EncoderName;
  encoding?: TokenEncoding;
  /** MetaTool-dev directory (catalog.json + tasks.jsonl); false skips it. */
  metatool?: string | false;
  /** MetaTool-dev tasks used (an even deterministic sample). Default 1,000 (quick: 40). */
  metatoolTasks?: number;
  /** Catalog sizes for the scaling sweep; [] skips it. */
  sizes?: readonly number[];
  /** Largest N embedded cold with the main encoder in the scaling sweep (above: projected). */
  coldLimit?: number;
  /** Tasks routed per scaling size. Default 200 (quick: 10). */
  scalingTasks?: number;
  calibration?: boolean;
  ablations?: boolean;
  realCatalog?: boolean;
  /** Measure the middleware's added latency per model call and added memory (full runs; default true). */
  overhead?: boolean;
  context?: ContextAssumptions;
  perStep?: boolean;
  /** The command line recorded in the report. */
  command?: string;
  /** Progress sink (default stderr). */
  log?: (line: string) => void;
}

/** An even, deterministic sample of n items (every (len/n)-th), keeping order. */
export function evenSample<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  const out: T[] = [];
  const step = items.length / n;
  for (let i = 0; i < n; i++) out.push(items[Math.floor(i * step)]);
  return out;
}

function kindsOf(tasks: readonly EvalTask[]): Record<string, number> | undefined {
  const kinds: Record<string, number> = {};
  for (const t of tasks) if (t.kind) kinds[t.kind] = (kinds[t.kind] ?? 0) + 1;
  return Object.keys(kinds).length ? kinds : undefined;
}

/** The embedding cache directory and whether it held anything when the run started (cold vs warm timings). */
function cacheState(): string {
  const dir = defaultEmbeddingCacheDir();
  if (dir === false) return "disk cache disabled";
  let files = 0;
  try {
    files = readdirSync(dir).length;
  } catch {
    // absent: cold
  }
  return `${dir} (${files === 0 ? "empty at start: cold" : `${files} files at start: warm`})`;
}

export async function runBench(opts: BenchOptions = {}): Promise<BenchResult> {
  const started = performance.now();
  const cache = cacheState();
  const t0 = Date.now();
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const stamp = (line: string) => log(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const quick = opts.quick ?? false;
  const encoder: EncoderName = opts.encoder ?? (quick ? "lexical" : DEFAULT_ENCODER);
  const encoding: TokenEncoding = opts.encoding ?? "cl100k_base";
  const context = opts.context ?? DEFAULT_CONTEXT;
  const perStep = opts.perStep ?? true;
  const out = resolve(opts.out ?? "reports/bench");
  const catalogPath = opts.catalog ?? DEFAULT_SYNTHETIC_CATALOG;
  const tasksPath = opts.tasks ?? DEFAULT_SYNTHETIC_TASKS;
  const methodOpts = { encoding, encoder, context, perStep, log: stamp };

  const sets: SetResult[] = [];
  const calibration: CalibrationResult[] = [];
  let indexKind = "";

  const runSet = async (set: BenchSet, source: string, extra: { ablations: boolean; calibrate: boolean; sampled?: string }) => {
    stamp(`${set.name}: ${set.catalog.size} tools, ${set.tasks.length} tasks; embedding the catalog (${encoder})…`);
    // The pool as the adapters render it by default (runValidCalls: each line names the required parameters).
    const ta = new ToolAttentionRouter(set.catalog, { encoder, encoding, log: false, pool: { runValidCalls: true } });
    await ta.prepare();
    indexKind ||= ta.indexKind ?? "";
    const methods = await runMethods(set, ta, methodOpts);
    const result: SetResult = { name: set.name, source, tools: set.catalog.size, tasks: set.tasks.length, kinds: kindsOf(set.tasks), methods, sampled: extra.sampled };
    if (extra.ablations && set.tasks.length) {
      stamp(`${set.name}: ablations…`);
      result.ablations = await runAblations(set, ta, methodOpts);
    }
    sets.push(result);
    if (extra.calibrate && set.tasks.length) {
      stamp(`${set.name}: θ calibration…`);
      calibration.push(await runCalibration(ta, set, { encoder, perStep }));
    }
  };

  // 1. The synthetic testbed (or the catalog/tasks given).
  let synthetic: BenchSet | undefined;
  if (existsSync(catalogPath) && existsSync(tasksPath)) {
    synthetic = {
      name: opts.catalog ? `catalog ${opts.catalog}` : "Synthetic testbed (seed 42)",
      catalog: ToolCatalog.fromFile(catalogPath, { encoding, onWarning: (w) => stamp(`warning: ${w}`) }),
      tasks: loadTasks(tasksPath),
    };
    await runSet(synthetic, `${catalogPath} + ${tasksPath}`, { ablations: opts.ablations ?? true, calibrate: opts.calibration ?? true });
  } else {
    const missing = [catalogPath, tasksPath].filter((p) => !existsSync(p)).join(", ");
    sets.push({ name: "Synthetic testbed (seed 42)", source: catalogPath, skipped: `not found: ${missing}` });
    calibration.push({ set: "synthetic", encoder, k: 10, skipped: `not found: ${missing}` });
  }

  // 2. MetaTool-dev.
  const metatool = opts.metatool === undefined ? DEFAULT_METATOOL : opts.metatool;
  if (metatool === false) sets.push({ name: "MetaTool-dev", source: "", skipped: "disabled (--no-metatool)" });
  else if (!existsSync(join(metatool, "catalog.json")) || !existsSync(join(metatool, "tasks.jsonl"))) {
    const why = `no benchmark data at ${metatool} (needs catalog.json and tasks.jsonl)`;
    stamp(`MetaTool-dev skipped: ${why}`);
    sets.push({ name: "MetaTool-dev", source: metatool, skipped: why });
    calibration.push({ set: "MetaTool-dev", encoder, k: 10, skipped: why });
  } else {
    const all = loadTasks(join(metatool, "tasks.jsonl"));
    const n = opts.metatoolTasks ?? (quick ? 40 : 1_000);
    const tasks = evenSample(all, n);
    await runSet(
      { name: "MetaTool-dev", catalog: ToolCatalog.fromFile(join(metatool, "catalog.json"), { encoding }), tasks },
      `${metatool} (MetaTool, MIT)`,
      { ablations: false, calibrate: opts.calibration ?? true, sampled: tasks.length < all.length ? `even sample of ${tasks.length} of ${all.length} tasks` : undefined },
    );
  }

  // 3. The real MCP catalog (same path as the others once it can be captured).
  let realSet: BenchSet | undefined;
  if (opts.realCatalog ?? true) {
    const real = await loadRealCatalog({ encoding, log: (w) => stamp(`warning: ${w}`) });
    if ("skipped" in real) {
      stamp(`Real MCP catalog: ${real.skipped}`);
      sets.push({ name: "Real MCP catalog", source: "data/mcp/real-servers.json", skipped: real.skipped });
    } else await runSet((realSet = { name: "Real MCP catalog", catalog: real.catalog, tasks: real.tasks }), real.source, { ablations: false, calibrate: false });
  }

  // 4. Scaling.
  const sizes = opts.sizes ?? (quick ? QUICK_SIZES : DEFAULT_SIZES);
  let scaling: BenchResult["scaling"];
  if (sizes.length === 0) scaling = { skipped: "disabled (no sizes)" };
  else if (!synthetic) scaling = { skipped: "no synthetic set to expand" };
  else {
    const expansion = loadExpansion(catalogPath, opts.catalog === undefined);
    stamp(`scaling over N = ${sizes.join(", ")} (${expansion.description})…`);
    const points = await runScaling({
      ...methodOpts,
      sizes,
      expand: expansion.expand,
      tasks: evenSample(synthetic.tasks, opts.scalingTasks ?? (quick ? 10 : 200)),
      coldLimit: opts.coldLimit ?? (quick && opts.sizes === undefined ? QUICK_COLD_LIMIT : undefined),
      latencySample: quick ? 10 : 100,
      projectionSample: quick ? 20 : 300,
    });
    scaling = { points, note: `Catalogs: ${expansion.description}. Routed rows use an even sample of ${Math.min(synthetic.tasks.length, opts.scalingTasks ?? (quick ? 10 : 200))} synthetic tasks.` };
  }

  // 5. Conversation cost (quick: the synthetic set, one length and history size).
  const costSets = [...(synthetic ? [longHorizonSet(synthetic)] : []), ...(realSet && !quick ? [realSet] : [])];
  const conversationCost = await runConversationCost(costSets, { encoder, encoding, sweep: quick ? QUICK_SWEEP : undefined, log: stamp });

  // 6. Robustness: event-loop delay under 50 concurrent threads (worker-thread encoder vs in process). Skipped by
  // --quick: it starts two processes and embeds the demo catalog in each.
  let eventLoop: EventLoopSection | { skipped: string } | undefined;
  if (!quick) {
    stamp("event-loop delay: 50 concurrent threads, worker thread vs in process…");
    eventLoop = await eventLoopSection().catch((err: Error) => ({ skipped: err.message.split("\n")[0] }));
  }

  // Tool-poisoning screen: the labelled poisoned set and the clean catalogs (the real one when captured).
  let screening: ScreeningMeasurement | undefined;
  if (!quick) {
    stamp("tool-poisoning screen: labelled poisoned set and clean catalogs…");
    const realFile = (opts.realCatalog ?? true) ? await captureCatalog(REAL_SERVERS_CONFIG).then((c) => c.catalog).catch(() => undefined) : undefined;
    screening = measureScreening({ realCatalog: realFile });
  }

  // Faults and bad input: malformed catalogs, an MCP server killed mid-call, an encoder outage, 100 threads.
  let faults: FaultSuiteReport | { skipped: string } | undefined;
  if (!quick) {
    stamp("fault suite: malformed catalogs, MCP restart, encoder outage, 100 concurrent threads…");
    faults = await runFaultSuite().catch((err: Error) => ({ skipped: err.message.split("\n")[0] }));
  }

  // Added latency per model call and added memory at 500 tools (createAgent loops, emulators, child processes).
  let overhead: BenchResult["overhead"];
  if (!quick && (opts.overhead ?? true)) {
    stamp("overhead: added latency per model call and memory at 500 tools…");
    overhead = await measureOverhead({ log: stamp }).catch((err: Error) => ({ skipped: err.message.split("\n")[0]! }));
  }

  // 7. Charts and files.
  mkdirSync(out, { recursive: true });
  const charts: string[] = [];
  if (scaling.points?.length) {
    const keys: [string, string][] = [
      ["b1-raw", "B1 raw MCP"],
      ["b1-langchain", "B1 LangChain"],
      ["b2-static", "B2 static 30"],
      ["b3-retrieval", "B3 top-10"],
      ["b4-cli", "B4 CLI"],
      ["llm-selector", "LLM selector"],
      ["tool-attention", "Tool Attention"],
    ];
    const series = keys.map(([k, name]) => ({ name, points: scaling.points!.map((p) => [p.n, p.methods[k]?.tokensPerTurn ?? Number.NaN] as const) }));
    series.push({ name: "TA pool-excl.", points: scaling.points.map((p) => [p.n, p.methods["tool-attention"]?.poolExcludedTokensPerTurn ?? Number.NaN] as const) });
    writeFileSync(join(out, "tokens-vs-n.svg"), lineChart({ title: "Tool tokens per turn vs catalog size", xLabel: "tools in catalog (N)", yLabel: "tokens per turn", series, logX: true, logY: true }));
    charts.push("tokens-vs-n.svg");
  }
  const costChart = conversationCostChart(conversationCost, `npm run bench${quick ? " --quick" : ""}, ${new Date(t0).toISOString().slice(0, 16).replace("T", " ")} UTC`);
  if (costChart) {
    writeFileSync(join(out, "conversation-cost.svg"), costChart);
    charts.push("conversation-cost.svg");
  }
  for (const cal of calibration) {
    if (!cal.curve || !cal.chosen) continue;
    const file = `theta-${cal.set.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")}.svg`;
    writeFileSync(
      join(out, file),
      lineChart({
        title: `Recall / precision / F1 vs θ — ${cal.set} (${cal.encoder}, k=${cal.k})`,
        xLabel: "θ",
        yLabel: "score",
        yRange: [0, 1],
        series: [
          { name: "recall", points: cal.curve.map((p) => [p.theta, p.recall] as const) },
          { name: "precision", points: cal.curve.map((p) => [p.theta, p.precision] as const) },
          { name: "F1", points: cal.curve.map((p) => [p.theta, p.f1] as const) },
          { name: "all-gold", points: cal.curve.map((p) => [p.theta, p.allGold] as const), dashed: true },
        ],
        markerX: { x: cal.chosen.theta, label: `θ*=${cal.chosen.theta.toFixed(2)}` },
      }),
    );
    charts.push(file);
  }

  const result: BenchResult = {
    version: 1,
    date: new Date(t0).toISOString(),
    command: opts.command ?? "npm run bench",
    durationMs: performance.now() - started,
    quick,
    environment: { node: process.versions.node, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, encoder, index: indexKind, tokens: encoding, embeddingCache: cache },
    context,
    perStep,
    sets,
    scaling,
    calibration,
    charts,
    conversationCost,
    ...(eventLoop ? { eventLoop } : {}),
    ...(screening ? { screening } : {}),
    ...(faults ? { faults } : {}),
    ...(overhead ? { overhead } : {}),
  };
  writeFileSync(join(out, "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  const robustness = [
    eventLoop && "worker" in eventLoop ? renderEventLoopMarkdown(eventLoop) : eventLoop ? `## Event-loop delay\n\nSkipped: ${eventLoop.skipped}\n` : "",
    screening ? renderScreeningMarkdown(screening) : "",
    faults && "malformed" in faults ? renderFaultSuiteMarkdown(faults) : faults ? `## Faults and bad input\n\nSkipped: ${faults.skipped}\n` : "",
    overhead ? renderOverheadMarkdown(overhead) : "",
  ]
    .filter(Boolean)
    .join("\n");
  writeFileSync(join(out, "latest.md"), robustness ? `${renderMarkdown(result)}\n${robustness}` : renderMarkdown(result));
  stamp(`wrote ${join(out, "latest.md")}, latest.json and ${charts.length} charts`);
  return result;
}

const USAGE = `Usage: npm run bench -- [options]   (or: node dist/bench/main.js [options])

Options:
  --out DIR              output directory (default reports/bench)
  --quick                small sizes and samples (smoke runs, tests); lexical encoder unless --encoder
  --catalog FILE         catalog (default ${DEFAULT_SYNTHETIC_CATALOG})
  --tasks FILE           tasks.jsonl (default ${DEFAULT_SYNTHETIC_TASKS})
  --encoder NAME         ${ENCODER_NAMES.join(", ")} (default ${DEFAULT_ENCODER})
  --tokens NAME          cl100k_base (default) or o200k_base
  --metatool DIR         MetaTool-dev data (default ${DEFAULT_METATOOL}); --no-metatool skips it
  --metatool-tasks N     MetaTool-dev tasks used, an even sample (default 1000)
  --sizes LIST           scaling sizes, comma-separated (default ${DEFAULT_SIZES.join(",")}); "" skips scaling
  --cold-limit N         largest N embedded cold in the scaling sweep (default 10000; quick 60); above it the
                         encoder's cold cost is projected and the router is measured on derived vectors
  --scaling-tasks N      tasks routed per scaling size (default 200)
  --no-ablations, --no-calibration, --no-real, --no-overhead   skip those sections
  --once                 route each task once (default: long-horizon tasks once per plan step)

Set TOOL_ATTENTION_CACHE_DIR to an empty directory to measure with a cold embedding cache.`;

function intOpt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} expects a non-negative integer, got "${v}"`);
  return n;
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        out: { type: "string" },
        quick: { type: "boolean" },
        catalog: { type: "string" },
        tasks: { type: "string" },
        encoder: { type: "string" },
        tokens: { type: "string" },
        metatool: { type: "string" },
        "no-metatool": { type: "boolean" },
        "metatool-tasks": { type: "string" },
        sizes: { type: "string" },
        "cold-limit": { type: "string" },
        "scaling-tasks": { type: "string" },
        "no-ablations": { type: "boolean" },
        "no-calibration": { type: "boolean" },
        "no-real": { type: "boolean" },
        "no-overhead": { type: "boolean" },
        once: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (values.encoder !== undefined && !isEncoderSpec(values.encoder))
      throw new Error(`--encoder must be one of ${ENCODER_NAMES.join(", ")} or hf:<model>, got "${values.encoder}"`);
    if (values.tokens !== undefined && !isTokenEncoding(values.tokens)) throw new Error(`--tokens must be cl100k_base or o200k_base, got "${values.tokens}"`);
    if ((values.catalog === undefined) !== (values.tasks === undefined)) throw new Error("--catalog and --tasks go together");
    const sizes =
      values.sizes === undefined
        ? undefined
        : values.sizes.trim() === ""
          ? []
          : values.sizes.split(",").map((s) => intOpt("sizes", s.trim()) as number);
    const result = await runBench({
      out: values.out,
      quick: values.quick,
      catalog: values.catalog,
      tasks: values.tasks,
      encoder: values.encoder as EncoderName | undefined,
      encoding: values.tokens as TokenEncoding | undefined,
      metatool: values["no-metatool"] ? false : values.metatool,
      metatoolTasks: intOpt("metatool-tasks", values["metatool-tasks"]),
      sizes,
      coldLimit: intOpt("cold-limit", values["cold-limit"]),
      scalingTasks: intOpt("scaling-tasks", values["scaling-tasks"]),
      ablations: !values["no-ablations"],
      calibration: !values["no-calibration"],
      realCatalog: !values["no-real"],
      overhead: !values["no-overhead"],
      perStep: !values.once,
      command: ["npm run bench", ...(argv.length ? ["--", ...argv] : [])].join(" "),
    });
    process.stdout.write(renderConsole(result));
    return 0;
  } catch (err) {
    const usage = (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") || /^--/.test((err as Error).message);
    process.stderr.write(`bench: ${(err as Error).message}\n${usage ? `\n${USAGE}\n` : ""}`);
    return usage ? 2 : 1;
  }
}

runIfEntry(import.meta.url, () => main());
