/**
 * Benchmark metrics: effective context utilization ρ, hallucination-gate trigger rate, and the per-method
 * aggregation of per-turn token costs and per-task retrieval scores. Retrieval scoring itself (recall,
 * precision, F1, all-gold) is the evaluator's (`src/eval/metrics.ts`), so `eval`, `calibrate` and the bench agree.
 */
import { gateToolCalls, type RejectionKind } from "../core/gate/gate.js";
import { aggregate, quantile, scoreTask, type AggregateScore, type TaskScore } from "../eval/metrics.js";

export { aggregate, quantile, scoreTask };
export type { AggregateScore, TaskScore };

/**
 * What a context holds besides tools. ρ cannot be computed from tool tokens alone: it needs the system prompt
 * and the conversation, which the benchmark does not run (no model). These are the stated assumptions.
 */
export interface ContextAssumptions {
  /** C_sys: system-prompt tokens other than tools. */
  systemTokens: number;
  /** Task tokens one turn adds to the history (user message + model reply + tool result). */
  taskTokensPerTurn: number;
  /** The turn ρ is reported at. */
  turn: number;
}

/**
 * Defaults: a 1,000-token system prompt and 500 task tokens a turn, so C_task(30) = 15,000. With these, a
 * 47.3k-token full-schema catalog gives ρ@30 ≈ 0.24, the full-schema figure the Tool Attention paper reports.
 */
export const DEFAULT_CONTEXT: ContextAssumptions = { systemTokens: 1_000, taskTokensPerTurn: 500, turn: 30 };

/**
 * Effective context utilization at turn t: the share of the request that is task content,
 * ρ(t) = C_task(t) / (C_sys + C_tools + C_task(t)) with C_task(t) = t × task tokens per turn.
 * Tool tokens are re-sent on every request but occupy the context once; the history grows with t.
 */
export function contextUtilization(toolTokens: number, ctx: ContextAssumptions = DEFAULT_CONTEXT, turn = ctx.turn): number {
  if (!(toolTokens >= 0)) throw new Error(`contextUtilization: tool tokens must be ≥ 0, got ${toolTokens}`);
  const task = turn * ctx.taskTokensPerTurn;
  const total = ctx.systemTokens + toolTokens + task;
  return total === 0 ? 0 : task / total;
}

/** The gate's answer to a simulated model that calls every gold tool of every task. */
export interface GateTriggerStats {
  /** Calls of reachable gold tools (those the task's state allows) simulated. */
  calls: number;
  /** Of those, calls the gate would reject: a needed tool the router did not expose. */
  rejected: number;
  /** rejected / calls (0 when there were no calls). */
  rate: number;
  /** Rejections of reachable calls by kind: not_active (routed out), precondition, unknown_tool. */
  byKind: Record<RejectionKind, number>;
  /**
   * Reachable calls the router did not expose that run anyway: the pool names the tool's required parameters and
   * they are plain values, so under the adapters' default `runValidCalls` a call with fitting arguments runs at once
   * (counted here, not in `rejected`).
   */
  ranFromPool: number;
  /** Calls of blocked gold tools (the task's state forbids them) simulated. */
  blockedCalls: number;
  /** Of those, calls the gate rejects (the right answer). */
  blockedRejected: number;
}

export interface GateTriggerInput {
  /** Names active for the task (union over its turns). */
  active: readonly string[];
  gold: readonly string[];
  /** Gold tools the task's state forbids (their preconditions fail): a correct agent must not run them. */
  blocked?: readonly string[];
  /** Why a tool is unavailable in this task's state, if it is. */
  preconditionReason?: (name: string) => string | undefined;
  /** Whether a call to this tool runs without being exposed (see GateTriggerStats.ranFromPool). Default: never. */
  runsFromPool?: (name: string) => boolean;
}

/**
 * Runs the real hallucination gate on a simulated model that calls each gold tool once per task, and counts
 * the reachable calls it would answer with `tool_not_available` (a needed tool the router failed to expose),
 * and separately the blocked calls it rejects (as it should).
 */
export function gateTriggerRate(tasks: readonly GateTriggerInput[], exists: (name: string) => boolean): GateTriggerStats {
  const byKind: Record<RejectionKind, number> = { not_active: 0, precondition: 0, unknown_tool: 0, quarantined: 0 };
  let calls = 0;
  let rejected = 0;
  let blockedCalls = 0;
  let blockedRejected = 0;
  let ranFromPool = 0;
  for (const t of tasks) {
    const gold = [...new Set(t.gold)];
    const blocked = new Set(t.blocked ?? []);
    const res = gateToolCalls(
      gold.map((name, i) => ({ id: `call_${i}`, name })),
      { active: new Set(t.active), available: t.active, exists, preconditionReason: t.preconditionReason },
    );
    for (const name of gold) if (blocked.has(name)) blockedCalls++;
    calls += gold.length - gold.filter((g) => blocked.has(g)).length;
    for (const r of res.rejected) {
      if (blocked.has(r.call.name)) {
        blockedRejected++;
        continue;
      }
      if (r.kind === "not_active" && t.runsFromPool?.(r.call.name)) {
        ranFromPool++;
        continue;
      }
      rejected++;
      byKind[r.kind]++;
    }
  }
  return { calls, rejected, rate: calls === 0 ? 0 : rejected / calls, byKind, ranFromPool, blockedCalls, blockedRejected };
}

/** One routed (or otherwise decided) model turn of one task. */
export interface TurnCost {
  /** Tool tokens this turn sends: pool (if any) + full schemas (or help text / selection prompt). */
  toolTokens: number;
  /** The same without the Phase-1 summary pool. */
  poolExcludedTokens: number;
}

/** A task's outcome under one method: the names the model could call, and each turn's cost. */
export interface TaskOutcome {
  id: string;
  gold: string[];
  /** Gold tools the task's state forbids; scored apart from the reachable gold (see `summarizeOutcomes`). */
  blocked?: string[];
  /** Names exposed with a callable schema (union over the task's turns); undefined when not measurable. */
  active?: string[];
  turns: TurnCost[];
}

/** A method's aggregate row. */
export interface MethodSummary extends Partial<AggregateScore> {
  /** Mean tool tokens per turn (pool included). */
  tokensPerTurn: number;
  /** Mean tool tokens per turn without the summary pool. */
  poolExcludedTokensPerTurn: number;
  /** ρ at the assumed turn, from tokensPerTurn. */
  rho: number;
  turns: number;
  tasks: number;
  /** Tasks scored for retrieval (those with at least one reachable gold tool). */
  scoredTasks?: number;
  /** Blocked gold tools over all tasks, and how many of them the method exposed with a callable schema. */
  blockedTotal?: number;
  blockedExposed?: number;
}

/**
 * Aggregates per-task outcomes: token means over all turns; retrieval scores over tasks (when measurable) against
 * the reachable gold (gold minus blocked; tasks whose gold is all blocked are not scored for retrieval); and how
 * many blocked gold tools the method exposed anyway.
 */
export function summarizeOutcomes(outcomes: readonly TaskOutcome[], ctx: ContextAssumptions = DEFAULT_CONTEXT): MethodSummary {
  let turns = 0;
  let tokens = 0;
  let excluded = 0;
  let measurable = 0;
  let blockedTotal = 0;
  let blockedExposed = 0;
  const scores: TaskScore[] = [];
  for (const o of outcomes) {
    for (const t of o.turns) {
      turns++;
      tokens += t.toolTokens;
      excluded += t.poolExcludedTokens;
    }
    if (!o.active) continue;
    measurable++;
    const blocked = new Set(o.blocked ?? []);
    const reachable = o.gold.filter((g) => !blocked.has(g));
    if (reachable.length > 0) scores.push(scoreTask(o.active, reachable));
    const active = new Set(o.active);
    blockedTotal += blocked.size;
    for (const b of blocked) if (active.has(b)) blockedExposed++;
  }
  const tokensPerTurn = turns ? tokens / turns : 0;
  const base: MethodSummary = {
    tokensPerTurn,
    poolExcludedTokensPerTurn: turns ? excluded / turns : 0,
    rho: contextUtilization(tokensPerTurn, ctx),
    turns,
    tasks: outcomes.length,
  };
  if (measurable !== outcomes.length || outcomes.length === 0) return base;
  return { ...aggregate(scores), ...base, scoredTasks: scores.length, blockedTotal, blockedExposed };
}
