/**
 * `tool-attention cost`: what a conversation is billed under each way of handing tools to the model, replayed
 * over a task set (see `replayCost`). The router and tasks are built by main.ts, which owns option parsing.
 */
import type { ToolAttentionRouter } from "../core/router/router.js";
import { replayCost, type CostReport, type CostRow } from "../eval/cost.js";
import type { EvalTask } from "../eval/tasks.js";

export interface CostCommandOptions {
  provider: "anthropic" | "openai";
  model?: string;
  calls: number;
  historyTokens: number;
  k?: number;
  /** Replay a model that states no plan before its calls (see `ReplayCostOptions.simulate`). */
  noPlan?: boolean;
  json?: boolean;
  out?: (text: string) => void;
  progress?: (text: string) => void;
}

const r = (x: number | null, digits = 4) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/** The JSON row: the documented keys first, rounded; then the calls ratio, miss rate and tool overhead. */
export function costRowJson(row: CostRow, allCached?: number, base?: { floor?: number; allCachedCalls?: number }) {
  return {
    method: row.method,
    provider: row.provider,
    billedPerConversation: Math.round(row.billedPerConversation),
    cacheHitShare: r(row.cacheHitShare),
    toolSetChanges: r(row.toolSetChanges, 2),
    recall: r(row.recall),
    allGold: r(row.allGold),
    gateTrigger: r(row.gateTrigger),
    ratioToAllCached: allCached ? r(row.billedPerConversation / allCached) : null,
    billedPerCall: Math.round(row.billedPerCall),
    inputTokensPerConversation: Math.round(row.inputTokensPerConversation),
    calls: r(row.calls, 2),
    conversations: row.conversations,
    ...(row.mode ? { mode: row.mode } : {}),
    callsRatio: base?.allCachedCalls ? r(row.calls / base.allCachedCalls) : null,
    roundTrips: r(row.roundTrips, 2),
    missRate: row.allGold === null ? null : r(1 - row.allGold),
    delivered: r(row.delivered),
    fromPool: r(row.fromPool),
    toolOverhead: toolOverhead(row.billedPerConversation, allCached, base?.floor),
    breakdown: {
      pool: Math.round(row.breakdown.pool),
      neededSchemas: Math.round(row.breakdown.neededSchemas),
      unneededSchemas: Math.round(row.breakdown.unneededSchemas),
      rest: Math.round(row.breakdown.rest),
      toolsDelivered: r(row.breakdown.toolsDelivered, 2),
      toolsNeeded: r(row.breakdown.toolsNeeded, 2),
    },
  };
}

/** (method − floor) / (every schema cached − floor): the share of the baseline's tool cost a method still pays. */
function toolOverhead(billed: number, allCached?: number, floor?: number): number | null {
  if (allCached === undefined || floor === undefined || allCached <= floor) return null;
  return r((billed - floor) / (allCached - floor));
}

const fmt = (x: number | null, digits = 3) => (x === null ? "—" : x.toFixed(digits));

/** A table's lines: the first column left-aligned, the others right-aligned, each as wide as its widest cell. */
function aligned(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)];
}

/** The readable table of a report. */
export function formatCost(report: CostReport, tasks: number, tools: number): string {
  const cached = report.methods.find((m) => m.method === "all-cached");
  const base = cached?.billedPerConversation;
  const floor = report.methods.find((m) => m.method === "no-tools")?.billedPerConversation;
  const label = (m: CostRow) => (m.mode && m.method === "tool-attention" ? `${m.method} (${m.mode})` : m.method);
  const header = ["method", "billed/conv", "× all-cached", "tool overhead", "calls/conv", "× calls", "present", "delivered", "from pool", "miss", "cache hit", "tool-set changes"];
  const rows = report.methods.map((m) => {
    const overhead = toolOverhead(m.billedPerConversation, base, floor);
    return [
      label(m),
      Math.round(m.billedPerConversation).toLocaleString("en-US"),
      base ? (m.billedPerConversation / base).toFixed(3) : "—",
      overhead === null ? "—" : overhead.toFixed(3),
      m.calls.toFixed(1),
      cached?.calls ? (m.calls / cached.calls).toFixed(2) : "—",
      fmt(m.recall),
      fmt(m.delivered),
      fmt(m.fromPool),
      m.allGold === null ? "—" : (1 - m.allGold).toFixed(3),
      `${(m.cacheHitShare * 100).toFixed(1)}%`,
      m.toolSetChanges.toFixed(2),
    ];
  });
  const int = (x: number) => Math.round(x).toLocaleString("en-US");
  const split = report.methods.map((m) => {
    const b = m.breakdown;
    return [label(m), int(b.pool), int(b.neededSchemas), int(b.unneededSchemas), int(b.rest), b.toolsDelivered.toFixed(1), b.toolsNeeded.toFixed(1)];
  });
  const conversations = report.methods[0]?.conversations ?? 0;
  return [
    `Conversation cost (${report.profile}): ${conversations} conversation(s) of ${report.callsPerConversation} calls, ` +
      `${report.historyTokens} history tokens per call, ${report.systemTokens}-token system prompt; ${tasks} tasks over ${tools} tools, k=${report.k}.`,
    "Billed = input tokens priced as the provider bills them (base input token = 1; cache writes and reads at their rates).",
    "Tool overhead = (billed − no-tools floor) / (every schema cached − floor). Present = share of needed tools the model",
    "called right at their step with no extra model call: delivered (its schema attached, or found by the first search) or",
    "run from the pool (not delivered; the pool line states its required values and the call fit). Miss = share of steps",
    "where a needed tool was not callable on the first try (a round trip, or a second search inside the turn).",
    "Oracle = the default delivery with a perfect router.",
    "",
    ...aligned(header, rows),
    "",
    "Where the bill goes, per conversation (billed-equivalent tokens; the parts sum to billed/conv): the pool, full",
    "schemas of tools the conversation called once they had arrived (needed) or never called after (unneeded), and the",
    "rest (system prompt, history, fixed tools). Tools: distinct schemas delivered per conversation, and of those needed.",
    "",
    ...aligned(["method", "pool", "needed schemas", "unneeded schemas", "rest", "tools delivered", "tools needed"], split),
  ].join("\n");
}

export async function runCost(router: ToolAttentionRouter, tasks: readonly EvalTask[], opts: CostCommandOptions): Promise<CostReport> {
  const out = opts.out ?? ((t: string) => process.stdout.write(t));
  const progress = opts.progress ?? ((t: string) => process.stderr.write(t));
  progress(`cost: ${tasks.length} tasks over ${router.catalog.size} tools; embedding the catalog…\n`);
  const report = await replayCost({
    router,
    tasks,
    provider: opts.provider,
    model: opts.model,
    calls: opts.calls,
    historyTokens: opts.historyTokens,
    k: opts.k,
    ...(opts.noPlan ? { simulate: { planWeight: 0 } } : {}),
  });
  if (opts.json) {
    const cached = report.methods.find((m) => m.method === "all-cached");
    const floor = report.methods.find((m) => m.method === "no-tools")?.billedPerConversation;
    out(
      `${JSON.stringify({
        methods: report.methods.map((m) => costRowJson(m, cached?.billedPerConversation, { floor, allCachedCalls: cached?.calls })),
        profile: report.profile,
        callsPerConversation: report.callsPerConversation,
        historyTokens: report.historyTokens,
        systemTokens: report.systemTokens,
        k: report.k,
      })}\n`,
    );
  } else out(`${formatCost(report, tasks.length, router.catalog.size)}\n`);
  return report;
}
