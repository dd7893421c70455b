/**
 * The conversation-cost rows of the bench report and their markdown (kept free of the replay's imports, so the
 * report renderers and the notebook load without the router, encoders or LangChain).
 */
import type { CostBreakdown, CostMethod } from "../eval/cost.js";
import { barChart } from "./svg.js";

/** One measured cell of the sweep (a method on one set, provider, length and history size). */
export interface ConversationCostRow {
  set: string;
  provider: "anthropic" | "openai";
  /** Pricing profile (e.g. "anthropic:sonnet"). */
  profile: string;
  /** Scripted model calls per conversation. */
  calls: number;
  /** Tokens each call adds to the history. */
  historyTokens: number;
  method: CostMethod;
  /** Delivery mode the Tool Attention rows started in. */
  mode?: string;
  billedPerConversation: number;
  /** billedPerConversation over all-cached's on the same cell. */
  ratioToAllCached: number;
  cacheHitShare: number;
  toolSetChanges: number;
  /** Needed tools called right at their step with no extra model call: delivered, or run from the pool. */
  recall: number | null;
  /** Needed tools whose schema the model had at their step (delivered, or found by the first search). */
  delivered?: number | null;
  allGold: number | null;
  /** Tool Attention rows: gold tools that ran from the pool without delivery (no round trip); else absent. */
  fromPool?: number | null;
  gateTrigger: number | null;
  conversations: number;
  /** Requests billed per conversation (searches, selection calls and gate retries included). */
  requestsPerConversation: number;
  /**
   * Tool Attention's delivery modes with the guarantee off: the switch to every schema makes every tool callable,
   * so with it on, recall measures the switch; these are routing's own recall and cost.
   */
  withoutGuarantee?: { ratioToAllCached: number; recall: number | null; allGold: number | null };
  /** Where the bill goes per conversation (pool, needed and unneeded schemas, the rest; see `CostBreakdown`). */
  breakdown?: CostBreakdown;
}

/** The headline cell: the real catalog, Anthropic, 30 calls, 2,000 history tokens per call. */
export const HEADLINE = { provider: "anthropic", calls: 30, historyTokens: 2000 } as const;

const DASH = "—";
const rate = (v: number | null) => (v === null ? DASH : v.toFixed(3));
const int = (v: number) => Math.round(v).toLocaleString("en-US");
const methodLabel = (r: ConversationCostRow) => (r.method === "tool-attention" && r.mode ? `tool-attention (default: ${r.mode})` : r.method);

function table(header: string[], rows: string[][]): string {
  const esc = (c: string) => c.replace(/\|/g, "\\|");
  return [`| ${header.join(" | ")} |`, `| ${header.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`, ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`)].join("\n");
}

/** The markdown section: the headline table, then the full sweep per set. */
export function renderConversationCostMarkdown(rows: readonly ConversationCostRow[], note?: string): string {
  const md: string[] = ["## Conversation cost", ""];
  md.push(
    "What a user is billed per conversation, in base-input-token equivalents (cache writes and reads at the provider's",
    "rates: Anthropic 1.25× / 0.1× with `cache_control` breakpoints, OpenAI automatic caching with cached input at the",
    "profile's rate). Tasks are laid end to end and cut into conversations of N model calls; a scripted model calls each",
    "plan step's gold tool, and each call adds the stated history tokens (tool call + result). Every request is built in",
    "the provider's wire shape and priced with the same prefix-cache model as the provider emulators. *All-cached* is",
    "the baseline a careful user already runs. Present = gold tools called right at their step with no extra model call:",
    "delivered (their schema attached, or found by the first search), or run from the pool (not delivered; through the",
    "dispatcher, the pool line stating their required values and the form each takes; the replay assumes a model fills",
    "them right). Miss = calls where a gold tool was not callable on the first try (the gate's promotion and retry, or a",
    "second search, are billed). The LLM selector row assumes the selector picks the gold tools (its recall needs a live",
    "model).",
    "",
  );
  if (note) md.push(note, "");
  if (rows.length === 0) {
    md.push("Skipped: no set with tasks.", "");
    return md.join("\n");
  }
  const headSet = rows.some((r) => r.set === "Real MCP catalog") ? "Real MCP catalog" : rows[0].set;
  const head = rows.filter((r) => r.set === headSet && r.provider === HEADLINE.provider && r.historyTokens === HEADLINE.historyTokens && r.calls === HEADLINE.calls);
  if (head.length) {
    md.push(`### Headline: ${headSet}, ${head[0].profile}, ${HEADLINE.calls} calls, ${HEADLINE.historyTokens.toLocaleString("en-US")} history tokens per call`, "");
    md.push(
      table(
        ["Method", "Billed / conversation", "× all-cached", "Cache hit", "Tool-set changes", "Present", "Delivered", "From pool", "All-gold", "Miss", "Requests / conv."],
        head.map((r) => [methodLabel(r), int(r.billedPerConversation), r.ratioToAllCached.toFixed(3), `${(r.cacheHitShare * 100).toFixed(1)}%`, r.toolSetChanges.toFixed(2), rate(r.recall), rate(r.delivered ?? null), rate(r.fromPool ?? null), rate(r.allGold), rate(r.gateTrigger), r.requestsPerConversation.toFixed(1)]),
      ),
      "",
    );
    const ta = head.find((r) => r.method === "tool-attention");
    if (ta) md.push(`Tool Attention (default, ${ta.mode}) bills **${ta.ratioToAllCached.toFixed(3)}×** what every schema cached bills on this cell.`, "");
    const split = head.filter((r) => r.breakdown);
    if (split.length) {
      md.push(
        "Where the bill goes on this cell, per conversation: the pool, full schemas of tools the conversation called once they had arrived (needed) or never called after (unneeded), and the rest (system prompt, history, fixed tools):",
        "",
        table(
          ["Method", "Pool", "Needed schemas", "Unneeded schemas", "Rest", "Tools delivered", "Tools needed"],
          split.map((r) => {
            const b = r.breakdown as CostBreakdown;
            return [methodLabel(r), int(b.pool), int(b.neededSchemas), int(b.unneededSchemas), int(b.rest), b.toolsDelivered.toFixed(1), b.toolsNeeded.toFixed(1)];
          }),
        ),
        "",
      );
    }
    const own = head.filter((r) => r.withoutGuarantee);
    if (own.length) {
      md.push(
        "The same delivery modes without the guarantee (no switch to every schema, so recall is routing's own):",
        "",
        table(
          ["Method", "× all-cached", "Recall", "All-gold"],
          own.map((r) => [r.method, (r.withoutGuarantee as NonNullable<ConversationCostRow["withoutGuarantee"]>).ratioToAllCached.toFixed(3), rate(r.withoutGuarantee?.recall ?? null), rate(r.withoutGuarantee?.allGold ?? null)]),
        ),
        "",
      );
    }
  } else md.push(`(No headline cell: the sweep did not include ${HEADLINE.calls} calls × ${HEADLINE.historyTokens} history tokens on ${headSet}.)`, "");

  md.push("### Full sweep (× all-cached; billed per conversation of all-cached in the first column)", "");
  const methods = [...new Set(rows.map((r) => r.method))];
  for (const set of [...new Set(rows.map((r) => r.set))]) {
    const cells = rows.filter((r) => r.set === set);
    const keys = [...new Set(cells.map((r) => `${r.provider}\0${r.calls}\0${r.historyTokens}`))];
    md.push(`#### ${set}`, "");
    md.push(
      table(
        ["Provider", "Calls", "History", "all-cached billed", ...methods.map((m) => (m === "tool-attention" ? "tool-attention (default)" : m)), "TA default mode", "TA present", "TA miss"],
        keys.map((key) => {
          const [provider, calls, history] = key.split("\0");
          const cell = cells.filter((r) => `${r.provider}\0${r.calls}\0${r.historyTokens}` === key);
          const by = (m: string) => cell.find((r) => r.method === m);
          const ta = by("tool-attention");
          return [
            provider,
            calls,
            Number(history).toLocaleString("en-US"),
            int(by("all-cached")?.billedPerConversation ?? Number.NaN),
            ...methods.map((m) => (by(m) ? (by(m) as ConversationCostRow).ratioToAllCached.toFixed(3) : DASH)),
            ta?.mode ?? DASH,
            rate(ta?.recall ?? null),
            rate(ta?.gateTrigger ?? null),
          ];
        }),
      ),
      "",
    );
  }
  return md.join("\n");
}

/** The methods the headline chart compares, top to bottom, with their labels. */
const CHART_METHODS: readonly [CostMethod, string][] = [
  ["all-cached", "every schema, cached (baseline)"],
  ["provider-tool-search", "provider tool search"],
  ["tool-attention", "Tool Attention (default)"],
  ["oracle", "default delivery, perfect router"],
];

/**
 * The headline cell as a chart: billed input per conversation (× every schema cached) and model calls per
 * conversation, for the baseline, provider tool search and Tool Attention. Undefined when the cell was not run.
 */
export function conversationCostChart(rows: readonly ConversationCostRow[], runLabel: string): string | undefined {
  const headSet = rows.some((r) => r.set === "Real MCP catalog") ? "Real MCP catalog" : rows[0]?.set;
  const head = rows.filter((r) => r.set === headSet && r.provider === HEADLINE.provider && r.historyTokens === HEADLINE.historyTokens && r.calls === HEADLINE.calls);
  const picked = CHART_METHODS.map(([m, label]) => [head.find((r) => r.method === m), label] as const).filter(([r]) => r !== undefined) as [ConversationCostRow, string][];
  if (picked.length < 2) return undefined;
  return barChart({
    title: `What a ${HEADLINE.calls}-call conversation is billed (${headSet})`,
    labels: picked.map(([, label]) => label),
    highlight: picked.findIndex(([r]) => r.method === "tool-attention"),
    panels: [
      { title: "billed input, × every schema cached", values: picked.map(([r]) => r.ratioToAllCached), format: (v) => `${v.toFixed(3)}×` },
      { title: "model calls per conversation", values: picked.map(([r]) => r.requestsPerConversation), format: (v) => v.toFixed(1) },
    ],
    caption: `${HEADLINE.historyTokens.toLocaleString("en-US")} history tokens per call, ${head[0].profile} prices; ${runLabel}`,
  });
}
