/**
 * The benchmark's conversation-cost section: what a user is billed per conversation under each way of handing
 * tools to the model (every schema with or without caching, provider tool search, an LLM selector, Tool
 * Attention's delivery modes), replayed with `replayCost` over a sweep of providers, conversation lengths and
 * history sizes. Per-turn tool tokens say little about the bill: providers cache the prompt prefix, so what
 * matters is whether the tools array stays byte-identical and how many extra round trips re-read the history.
 */
import type { EncoderName } from "../core/encoders/index.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import type { TokenEncoding } from "../core/tokens/count.js";
import { replayCost } from "../eval/cost.js";
import type { BenchSet } from "./methods.js";
import type { ConversationCostRow } from "./conversation-cost-report.js";

export type { ConversationCostRow } from "./conversation-cost-report.js";

export interface ConversationCostSweep {
  providers: readonly ("anthropic" | "openai")[];
  calls: readonly number[];
  historyTokens: readonly number[];
  /**
   * The model priced per provider: its capability row decides the delivery path (Claude before Opus 4.8 takes no
   * tool changes mid-conversation, so deferred delivery uses the dispatcher there) and its cache prices.
   */
  models?: Partial<Record<"anthropic" | "openai", string>>;
  /** Cells replayed beside the calls × historyTokens grid (short chats, long agent runs). */
  extra?: readonly { calls: number; historyTokens: number }[];
}

/** The sweep's cells: the grid, then the extra cells it does not already hold. */
export function sweepCells(sweep: ConversationCostSweep): { calls: number; historyTokens: number }[] {
  const cells = sweep.calls.flatMap((calls) => sweep.historyTokens.map((historyTokens) => ({ calls, historyTokens })));
  for (const c of sweep.extra ?? []) if (!cells.some((x) => x.calls === c.calls && x.historyTokens === c.historyTokens)) cells.push(c);
  return cells;
}

/** The models the bench prices: the Claude and GPT families most agents run today. */
export const BENCH_MODELS = { anthropic: "claude-sonnet-4-5", openai: "gpt-5-mini" } as const;

export const FULL_SWEEP: ConversationCostSweep = {
  providers: ["anthropic", "openai"],
  calls: [5, 15, 30],
  historyTokens: [500, 2000],
  extra: [
    { calls: 10, historyTokens: 500 },
    { calls: 60, historyTokens: 4000 },
  ],
  models: BENCH_MODELS,
};
export const QUICK_SWEEP: ConversationCostSweep = { providers: ["anthropic", "openai"], calls: [5], historyTokens: [500], models: BENCH_MODELS };

export interface ConversationCostOptions {
  encoder: EncoderName;
  encoding: TokenEncoding;
  sweep?: ConversationCostSweep;
  log?: (line: string) => void;
}

/**
 * The long-horizon part of a set (tasks of kind "long"; else the tasks with plan steps; else all of them): the
 * conversations where delivery matters, one plan step per model call.
 */
export function longHorizonSet(set: BenchSet): BenchSet {
  const long = set.tasks.filter((t) => t.kind === "long");
  const stepped = set.tasks.filter((t) => t.steps?.length);
  const tasks = long.length ? long : stepped.length ? stepped : set.tasks;
  const name = set.name.startsWith("Synthetic testbed") ? set.name.replace("Synthetic testbed", "Synthetic long-horizon") : `${set.name} (long-horizon)`;
  return { name: tasks === set.tasks ? set.name : name, catalog: set.catalog, tasks };
}

/** Runs the sweep on each set (a set with no tasks is skipped). */
export async function runConversationCost(sets: readonly BenchSet[], opts: ConversationCostOptions): Promise<ConversationCostRow[]> {
  const sweep = opts.sweep ?? FULL_SWEEP;
  const rows: ConversationCostRow[] = [];
  for (const set of sets) {
    if (set.tasks.length === 0) continue;
    const router = new ToolAttentionRouter(set.catalog, { encoder: opts.encoder, encoding: opts.encoding, log: false });
    await router.prepare();
    for (const provider of sweep.providers)
      for (const { calls, historyTokens } of sweepCells(sweep)) {
        opts.log?.(`conversation cost: ${set.name}, ${provider}, ${calls} calls, ${historyTokens} history tokens…`);
        const model = sweep.models?.[provider];
        const report = await replayCost({ router, tasks: set.tasks, provider, model, calls, historyTokens });
        // The guarantee switches a thread that routing made costlier to every schema, after which every tool is
        // callable: recall then measures the switch, not routing. The same modes without it give routing's own.
        const own = await replayCost({
          router,
          tasks: set.tasks,
          provider,
          model,
          calls,
          historyTokens,
          guarantee: false,
          methods: ["tool-attention-rebind", "tool-attention-stable", "tool-attention-deferred"],
        });
        const base = report.methods.find((m) => m.method === "all-cached")?.billedPerConversation ?? Number.NaN;
        for (const m of report.methods) {
          const raw = own.methods.find((o) => o.method === m.method);
          rows.push({
            set: set.name,
            provider,
            profile: report.profile,
            calls: report.callsPerConversation,
            historyTokens,
            method: m.method,
            ...(m.mode ? { mode: m.mode } : {}),
            billedPerConversation: Math.round(m.billedPerConversation),
            ratioToAllCached: round(m.billedPerConversation / base),
            cacheHitShare: round(m.cacheHitShare),
            toolSetChanges: round(m.toolSetChanges, 2),
            recall: m.recall === null ? null : round(m.recall),
            delivered: m.delivered === null ? null : round(m.delivered),
            allGold: m.allGold === null ? null : round(m.allGold),
            ...(m.fromPool === null ? {} : { fromPool: round(m.fromPool) }),
            gateTrigger: m.gateTrigger === null ? null : round(m.gateTrigger),
            conversations: m.conversations,
            requestsPerConversation: round(m.calls, 2),
            breakdown: {
              pool: Math.round(m.breakdown.pool),
              neededSchemas: Math.round(m.breakdown.neededSchemas),
              unneededSchemas: Math.round(m.breakdown.unneededSchemas),
              rest: Math.round(m.breakdown.rest),
              toolsDelivered: round(m.breakdown.toolsDelivered, 2),
              toolsNeeded: round(m.breakdown.toolsNeeded, 2),
            },
            ...(raw
              ? {
                  withoutGuarantee: {
                    ratioToAllCached: round(raw.billedPerConversation / base),
                    recall: raw.recall === null ? null : round(raw.recall),
                    allGold: raw.allGold === null ? null : round(raw.allGold),
                  },
                }
              : {}),
          });
        }
      }
  }
  return rows;
}

function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
