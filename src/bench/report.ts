/**
 * The benchmark's result document (raw JSON) and its renderings: the main table printed to stdout and the
 * markdown report. Every number rendered here comes from the result object; nothing is computed at render time
 * except formatting.
 */
import type { CalibrationPoint } from "../eval/calibrate.js";
import type { ContextAssumptions, GateTriggerStats } from "./metrics.js";
import type { MethodRow } from "./methods.js";
import type { ScalingPoint } from "./scaling.js";
import { renderConversationCostMarkdown, type ConversationCostRow } from "./conversation-cost-report.js";

export interface SetResult {
  name: string;
  /** Where the catalog and tasks came from. */
  source: string;
  tools?: number;
  tasks?: number;
  /** Tasks per kind (single / multi / long-horizon …) when tasks declare one. */
  kinds?: Record<string, number>;
  methods?: MethodRow[];
  ablations?: MethodRow[];
  skipped?: string;
  /** Deterministic subsampling applied to the tasks, if any. */
  sampled?: string;
}

export interface CalibrationResult {
  set: string;
  encoder: string;
  k: number;
  curve?: CalibrationPoint[];
  chosen?: CalibrationPoint;
  skipped?: string;
}

export interface BenchResult {
  version: 1;
  date: string;
  command: string;
  durationMs: number;
  quick: boolean;
  environment: { node: string; platform: string; cpus: number; encoder: string; index: string; tokens: string; embeddingCache: string };
  context: ContextAssumptions;
  perStep: boolean;
  sets: SetResult[];
  scaling: { points?: ScalingPoint[]; skipped?: string; note?: string };
  calibration: CalibrationResult[];
  charts: string[];
  /** Billed input per conversation by method, provider, conversation length and history size. */
  conversationCost?: ConversationCostRow[];
  /** Event-loop delay under concurrent routing, worker-thread encoder vs in process (full runs only). */
  eventLoop?: import("./event-loop.js").EventLoopSection | { skipped: string };
  /** Tool-poisoning screen: detection on the labelled poisoned set, false positives on clean catalogs (full runs). */
  screening?: import("./screening.js").ScreeningMeasurement;
  /** The fault and bad-input suite (full runs). */
  faults?: import("./faults.js").FaultSuiteReport | { skipped: string };
  /** Added latency per model call and added memory of the middleware in a createAgent loop at 500 tools (full runs). */
  overhead?: import("./overhead.js").OverheadReport | { skipped: string };
}

const DASH = "—";

export function fmtInt(v: number | undefined): string {
  return v === undefined || !Number.isFinite(v) ? DASH : Math.round(v).toLocaleString("en-US");
}
export function fmtRate(v: number | undefined, digits = 3): string {
  return v === undefined || !Number.isFinite(v) ? DASH : v.toFixed(digits);
}
function fmtPct(v: number | undefined): string {
  return v === undefined || !Number.isFinite(v) ? DASH : `${(v * 100).toFixed(1)}%`;
}
function fmtMs(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return DASH;
  return v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(v < 10 ? 2 : 0)} ms`;
}
function gateCell(g: GateTriggerStats | undefined): string {
  return g ? `${fmtPct(g.rate)} (${g.rejected}/${g.calls}${g.ranFromPool ? `; ${g.ranFromPool} ran from the pool` : ""})` : DASH;
}

export const MAIN_HEADER = ["Method", "Tokens/turn", "Pool-excl.", "ρ@30", "Recall", "Precision", "F1", "All-gold", "Blocked exposed", "Gate trigger"];

/** One table row of cells for a method (skipped rows keep the label and say why in the last cell). */
export function mainCells(row: MethodRow): string[] {
  if (!row.summary) return [row.label, DASH, DASH, DASH, DASH, DASH, DASH, DASH, DASH, row.skipped ?? "skipped"];
  const s = row.summary;
  return [
    row.label,
    fmtInt(s.tokensPerTurn),
    fmtInt(s.poolExcludedTokensPerTurn),
    fmtPct(s.rho),
    fmtRate(s.recall),
    fmtRate(s.precision),
    fmtRate(s.f1),
    fmtRate(s.allGold),
    s.blockedTotal ? `${fmtPct((s.blockedExposed ?? 0) / s.blockedTotal)} (${s.blockedExposed}/${s.blockedTotal})` : DASH,
    gateCell(row.gate),
  ];
}

/** A plain-text table with aligned columns (numbers right-aligned). */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function markdownTable(header: string[], rows: string[][]): string {
  const esc = (c: string) => c.replace(/\|/g, "\\|");
  const align = header.map((_, i) => (i === 0 ? "---" : "---:"));
  return [`| ${header.map(esc).join(" | ")} |`, `| ${align.join(" | ")} |`, ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`)].join("\n");
}

/** The stdout summary: the main table of each set, then the headline ratios. */
export function renderConsole(result: BenchResult): string {
  const out: string[] = [];
  for (const set of result.sets) {
    out.push("");
    if (set.skipped || !set.methods) {
      out.push(`${set.name}: ${set.skipped ?? "skipped"}`);
      continue;
    }
    out.push(`${set.name}: ${set.tools} tools, ${set.tasks} tasks${set.sampled ? ` (${set.sampled})` : ""} — ${set.source}`);
    out.push(textTable(MAIN_HEADER, set.methods.map(mainCells)));
    const headline = headlineOf(set);
    if (headline) out.push(headline);
  }
  const cal = result.calibration.filter((c) => c.chosen);
  if (cal.length) {
    out.push("");
    for (const c of cal) out.push(`calibration ${c.set}: θ* = ${c.chosen?.theta.toFixed(2)} (F1 ${fmtRate(c.chosen?.f1)}, recall ${fmtRate(c.chosen?.recall)}; ${c.encoder}, k=${c.k})`);
  }
  return `${out.join("\n")}\n`;
}

/** "Tool Attention sends X% fewer tool tokens per turn than B1 raw" — both from the same run. */
export function headlineOf(set: SetResult): string | undefined {
  const b1 = set.methods?.find((m) => m.key === "b1-raw")?.summary;
  const ta = set.methods?.find((m) => m.key === "tool-attention")?.summary;
  if (!b1 || !ta || b1.tokensPerTurn === 0) return undefined;
  const cut = 1 - ta.tokensPerTurn / b1.tokensPerTurn;
  const cutEx = 1 - ta.poolExcludedTokensPerTurn / b1.tokensPerTurn;
  return (
    `Tool Attention vs B1 raw: ${fmtInt(b1.tokensPerTurn)} → ${fmtInt(ta.tokensPerTurn)} tokens/turn (${fmtPct(cut)} fewer; ` +
    `${fmtPct(cutEx)} fewer counting Phase-2 schemas only), ρ@30 ${fmtPct(b1.rho)} → ${fmtPct(ta.rho)}`
  );
}

function methodNotes(rows: readonly MethodRow[]): string[] {
  return rows.filter((r) => r.note || r.config).map((r) => {
    const cfg = r.config ? ` [encoder ${r.config.encoder}, θ=${r.config.theta}, k=${r.config.k}${r.config.index ? `, index ${r.config.index}` : ""}]` : "";
    return `- **${r.label}**: ${r.note ?? ""}${cfg}`;
  });
}

/** The figures the Tool Attention paper (arXiv 2604.21816) reports for its simulated 120-tool testbed. */
export const PAPER_FIGURES = { fullSchemaTokens: 47_300, toolAttentionTokens: 2_368, rhoFull: 0.24, rhoToolAttention: 0.91 } as const;

/** Side by side with the paper, for a set the size of its testbed (its B1 within ±2 % of 47.3k tokens). */
export function paperComparison(set: SetResult): string | undefined {
  const b1 = set.methods?.find((m) => m.key === "b1-raw")?.summary;
  const ta = set.methods?.find((m) => m.key === "tool-attention")?.summary;
  if (!b1 || !ta || Math.abs(b1.tokensPerTurn / PAPER_FIGURES.fullSchemaTokens - 1) > 0.02) return undefined;
  const p = PAPER_FIGURES;
  return (
    `Against the paper's Table 3 (its token counts measured, its ρ from its own assumptions): full schema ${fmtInt(p.fullSchemaTokens)} → ` +
    `Tool Attention ${fmtInt(p.toolAttentionTokens)} tokens/turn, ρ ${fmtPct(p.rhoFull)} → ${fmtPct(p.rhoToolAttention)}. ` +
    `This run: ${fmtInt(b1.tokensPerTurn)} → ${fmtInt(ta.poolExcludedTokensPerTurn)} Phase-2 tokens/turn ` +
    `(${fmtInt(ta.tokensPerTurn)} with the summary pool), ρ@30 ${fmtPct(b1.rho)} → ${fmtPct(ta.rho)}, with recall ${fmtRate(ta.recall)} measured against gold.`
  );
}

const SCALING_METHODS: [string, string][] = [
  ["b1-raw", "B1 raw"],
  ["b1-langchain", "B1 LangChain"],
  ["b2-static", "B2 static"],
  ["b3-retrieval", "B3 top-10"],
  ["b4-cli", "B4 CLI"],
  ["llm-selector", "LLM selector"],
  ["tool-attention", "Tool Attention"],
];

export function renderMarkdown(result: BenchResult): string {
  const c = result.context;
  const md: string[] = [
    "# Tool Attention benchmark",
    "",
    `Run: \`${result.command}\` on ${result.date} (${(result.durationMs / 1000).toFixed(0)} s; Node ${result.environment.node}, ` +
      `${result.environment.cpus} CPUs; encoder ${result.environment.encoder}; index ${result.environment.index}; tokens ${result.environment.tokens}; ` +
      `embedding cache ${result.environment.embeddingCache})` +
      (result.quick ? ". **Quick mode** (reduced sizes; not for citing)." : "."),
    "",
    "Every cell below is measured in this run unless it says *projected*. A dash means the method has no such value",
    "(e.g. recall of an LLM selector needs a live model, which this benchmark does not call).",
    "",
    "## How to read the columns",
    "",
    "- **Tokens/turn**: tool-related tokens one model request carries (cl100k unless stated), averaged over every routed turn;",
    "  Tool Attention includes its Phase-1 summary pool. **Pool-excl.**: the same without the pool (how the paper's 2,368 figure reads).",
    `- **ρ@${c.turn}**: effective context utilization at turn ${c.turn}, ρ(t) = C_task(t) / (C_sys + C_tools + C_task(t)), with the`,
    `  assumptions C_sys = ${c.systemTokens.toLocaleString("en-US")} tokens and C_task(t) = t × ${c.taskTokensPerTurn} tokens`,
    `  (so C_task(${c.turn}) = ${(c.turn * c.taskTokensPerTurn).toLocaleString("en-US")}); C_tools is the Tokens/turn column. With these, 47.3k full-schema tokens give ρ ≈ 24%.`,
    "- **Recall / Precision / F1 / All-gold**: the names the model can call (active set, union over a task's turns) against the task's",
    "  reachable gold tools; per-task means, F1 from mean P and R. A gold tool whose preconditions fail in the task's state",
    "  (e.g. a write without the write scope) is *blocked*: a correct agent must not run it, so it is not counted as reachable",
    "  gold, and tasks whose gold is all blocked are not scored for retrieval.",
    "- **Blocked exposed**: the share of blocked gold tools the method still hands to the model with a callable schema (lower is safer).",
    "- **Gate trigger**: a simulated model calls every reachable gold tool once; the share of those calls the real hallucination",
    "  gate answers with `tool_not_available` (the router hid a tool the task needed). Under the adapters' default",
    "  `runValidCalls`, a call to a hidden tool whose required parameters the pool names, all plain values, runs at once",
    "  (the simulated model fills them from their names); those are counted as \"ran from the pool\", not as triggers.",
    result.perStep ? "- Long-horizon tasks are routed once per plan step (query + step), as an agent routes each turn." : "- Each task is routed once, on its query.",
    "",
  ];

  for (const set of result.sets) {
    md.push(`## ${set.name}`, "");
    if (set.skipped || !set.methods) {
      md.push(`Skipped: ${set.skipped ?? "no data"}`, "");
      continue;
    }
    const kinds = set.kinds ? `; kinds: ${Object.entries(set.kinds).map(([k, v]) => `${k} ${v}`).join(", ")}` : "";
    md.push(`${set.tools} tools, ${set.tasks} tasks${kinds}${set.sampled ? ` (${set.sampled})` : ""}. Source: ${set.source}.`, "");
    md.push(markdownTable(MAIN_HEADER, set.methods.map(mainCells)), "");
    const headline = headlineOf(set);
    if (headline) md.push(headline, "");
    const paper = paperComparison(set);
    if (paper) md.push(paper, "");
    md.push(...methodNotes(set.methods), "");
    if (set.ablations) {
      md.push(`### Ablations (${set.name})`, "");
      md.push(markdownTable(MAIN_HEADER, set.ablations.map(mainCells)), "");
      md.push(...methodNotes(set.ablations.filter((r) => r.note)), "");
    }
  }

  if (result.conversationCost) md.push(renderConversationCostMarkdown(result.conversationCost), "");

  md.push("## Scaling", "");
  const sc = result.scaling;
  if (!sc.points) md.push(`Skipped: ${sc.skipped ?? "no data"}`, "");
  else {
    if (sc.note) md.push(sc.note, "");
    md.push("Tool tokens per turn by catalog size:", "");
    md.push(
      markdownTable(
        ["N", ...SCALING_METHODS.map(([, l]) => l), "TA pool-excl.", "ρ@30 B1", "ρ@30 TA"],
        sc.points.map((p) => [
          fmtInt(p.n),
          ...SCALING_METHODS.map(([k]) => fmtInt(p.methods[k]?.tokensPerTurn)),
          fmtInt(p.methods["tool-attention"]?.poolExcludedTokensPerTurn),
          fmtPct(p.methods["b1-raw"]?.rho),
          fmtPct(p.methods["tool-attention"]?.rho),
        ]),
      ),
      "",
    );
    md.push(
      "Router cost by catalog size. route = one query: encode + search + gate; route (no enc.) = the same with a precomputed " +
        "query vector; search = the dense index's top 10 alone; recall@10 = tie-aware share of the exact top 10 the index returns; " +
        "= exact = routes whose active set equals the exact path's (ann: false):",
      "",
    );
    md.push(
      markdownTable(
        ["N", "encoder", "index", "route p50", "route p95", "route p50 (no enc.)", "route p95 (no enc.)", "search p50", "exact scan p50", "recall@10", "= exact", "build (cold cache)", "build (warm cache)", "warm start", "RSS MiB", "heap MiB", "TA recall"],
        sc.points.map((p) => [
          fmtInt(p.n),
          p.encoder,
          p.index ?? "",
          p.vectors === "derived" ? "—" : fmtMs(p.routeMsP50),
          p.vectors === "derived" ? "—" : fmtMs(p.routeMsP95),
          fmtMs(p.routeP50Ms),
          fmtMs(p.routeP95Ms),
          p.searchP50Ms == null ? "—" : fmtMs(p.searchP50Ms),
          p.exactSearchP50Ms == null ? "—" : fmtMs(p.exactSearchP50Ms),
          p.annRecallAt10 == null ? "—" : fmtRate(p.annRecallAt10),
          p.exactAgreement ? fmtPct(p.exactAgreement.same) : "—",
          `${fmtMs(p.buildCold.ms)}${p.buildCold.kind === "projected" ? " *projected*" : ""}`,
          fmtMs(p.buildWarm.ms),
          p.warmFrom && p.warmFrom !== "in-process"
            ? `${fmtMs(p.warmStartS * 1000)} (${p.warmFrom}, fresh process${p.warmProcess?.firstRouteMs !== undefined ? `; first route ${fmtMs(p.warmProcess.firstRouteMs)}` : ""})`
            : fmtMs(p.warmStartS * 1000),
          p.rssMiB.toFixed(0),
          p.heapUsedMiB.toFixed(0),
          fmtRate(p.methods["tool-attention"]?.recall),
        ]),
      ),
      "",
    );
    for (const p of sc.points) if (p.buildCold.kind === "projected") md.push(`- N=${p.n}: cold build projected — ${p.buildCold.how}; the routed rows at this size use ${p.encoder}.`);
    for (const p of sc.points)
      if (p.vectors === "derived")
        md.push(
          `- N=${p.n}: measured on derived vectors (each tool: the ${p.encoder.replace(/ \(derived vectors\)$/, "")} vector of the same base tool in the largest measured catalog + seeded Gaussian noise); ` +
            "index build, search, recall@10, routes without the encoder (real BM25 over the real tool texts) and RSS are measured; the encoder's cold cost is projected; no method rows.",
        );
    for (const p of sc.points)
      if (p.warmProcess)
        md.push(
          `- N=${p.n}: warm start = \`prepare()\` in a fresh process on the ${p.warmFrom} store the first router filled (its index snapshot loaded, nothing embedded); ` +
            `that process built its catalog object first in ${p.warmProcess.catalogS.toFixed(1)} s (not included), routed in ${p.warmProcess.routeP50Ms?.toFixed(2) ?? "—"} ms p50 without the encoder on its second pass over the latency queries ` +
            `(${p.warmProcess.firstPassRouteP50Ms?.toFixed(2) ?? "—"} ms on its first, which decodes the index rows it reaches and runs code not yet optimized), and its RSS is the RSS column.`,
        );
    for (const p of sc.points)
      if (p.firstRouteColdS !== undefined && p.firstRouteColdS !== null)
        md.push(
          `- N=${p.n}: first routed call ${p.firstRouteColdS.toFixed(2)} s from the tool definitions, empty cache and store (\`firstRouteColdS\`; the catalog build ${p.catalogBuildS?.toFixed(2) ?? "—"} s of it, \`catalogBuildS\`)` +
            (p.progressiveRecall !== undefined && p.progressiveRecall !== null
              ? `; routes made before the build finished (BM25 and the static channel) reached ${(p.progressiveRecall * 100).toFixed(1)} % of the full hybrid's recall@10 on the same tasks (\`progressiveRecall\`)` +
                (p.progressiveRouteP50Ms !== undefined && p.progressiveRouteP50Ms !== null ? ` and took ${p.progressiveRouteP50Ms.toFixed(1)} ms p50 each (\`progressiveRouteP50Ms\`).` : ".") +
                " The bench's encoder worker had loaded its model before: in a fresh process a first route that waits for the static channel also waits for that load (0.3–1 s)."
              : p.vectors === "derived"
                ? "; at this size a router with the real encoder was built on the catalog and closed after its first route (no store; early recall not measured)."
                : "; the catalog is below the progressive threshold, so the first route waits for the build."),
        );
    md.push("- RSS: for sizes with a fresh warm-start process, that process (one deployment worker); otherwise the whole benchmark process after building that size's router (it includes everything loaded before).", "");
  }

  md.push("## Calibration (θ sweep 0.10–0.50, max F1)", "");
  for (const cal of result.calibration) {
    if (!cal.curve || !cal.chosen) {
      md.push(`- ${cal.set}: skipped — ${cal.skipped ?? "no data"}`);
      continue;
    }
    md.push(`### ${cal.set} (${cal.encoder}, k=${cal.k}): θ* = ${cal.chosen.theta.toFixed(2)}`, "");
    md.push(
      markdownTable(
        ["θ", "Recall", "Precision", "F1", "All-gold"],
        cal.curve.map((p) => [`${p.theta.toFixed(2)}${p.theta === cal.chosen?.theta ? " *" : ""}`, fmtRate(p.recall), fmtRate(p.precision), fmtRate(p.f1), fmtRate(p.allGold)]),
      ),
      "",
    );
  }
  md.push("");

  if (result.charts.length) {
    md.push("## Charts", "");
    for (const chart of result.charts) md.push(`![${chart}](${chart})`, "");
  }
  return `${md.join("\n")}\n`;
}
