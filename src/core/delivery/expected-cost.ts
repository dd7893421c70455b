/**
 * Expected-cost delivery: which routed tools are worth delivering on this call.
 *
 * A delivered schema is paid for once written and again on every later call that re-reads the history; a tool
 * that was needed and not delivered costs a round trip: the model calls it, the gate answers, and the model calls
 * again, re-reading the whole prefix, writing output tokens and making the user wait. So a tool is delivered when
 *
 *   P(needed) × cost of a miss  ≥  cost of delivering it
 *
 * with P(needed) from the router's fused scores (a softmax over the routed candidates: when one tool clearly
 * dominates, the others get little mass and are left out; when the scores are flat, each keeps enough to be worth
 * its schema), the miss priced from the request's own size and the provider profile, and the delivery priced from
 * the tool's schema tokens. There is no fixed k: the router's k only bounds the candidates.
 *
 * Two quantities are estimated from the thread itself rather than fixed:
 * - the calls left to re-read a schema: a thread that has made n calls is expected to make about n more (the
 *   Copernican estimate, Gott 1993: with nothing else known, the median remaining life is the life so far), and at
 *   least `horizon`;
 * - the share of calls from a pool line that still need a round trip: `poolRetryShare` is the prior, counted as
 *   `poolEvidence` calls, and every call the thread made from the pool moves it (one that ran lowers it, one the
 *   gate answered with the schema raises it). A model that fills pool calls right is given fewer schemas as the
 *   thread goes on; one that does not is given more.
 */
import type { ProviderProfile } from "../cost/profiles.js";

/** How a miss and a delivery are priced, in billed-equivalent input tokens (base input price = 1). */
export interface ExpectedCostOptions {
  /**
   * Softmax temperature over the router's fused scores. Lower trusts the top score more. Default 0.1 (fused
   * scores of the top candidates typically sit within 0.1–0.3 of each other).
   */
  temperature?: number;
  /** Output tokens of the call the model has to make again after a miss. Default 150. */
  missOutputTokens?: number;
  /** Price of an output token relative to base input. Default 5 (Claude and GPT list output at 4–8× input). */
  outputPrice?: number;
  /**
   * The user's wait for one extra round trip, priced in input tokens. Default 30,000 (about $0.09 on a model
   * billing $3 per million input tokens): an agent's extra model call costs the user seconds, and the replay's
   * sweep on the project's development sets found fewer tokens than this let round trips grow past 1.05× the
   * calls of every schema cached.
   */
  latencyTokens?: number;
  /**
   * Later calls expected to re-read a delivered schema, at least: a thread that has made more calls so far is
   * expected to make as many more (see above). Default 10.
   */
  horizon?: number;
  /**
   * Share of calls to an undelivered tool that still need a round trip when the pool names its required
   * parameters and they are plain values (with `runValidCalls`, the others run at once), before the thread has made
   * any such call. Default 0.25.
   */
  poolRetryShare?: number;
  /**
   * How many calls from the pool `poolRetryShare` weighs as, against the thread's own: with the default 4, a thread
   * whose first 4 pool calls all ran expects half the prior's retries. 0 ignores the prior once the thread has made
   * a pool call. Default 4.
   */
  poolEvidence?: number;
}

export const EXPECTED_COST_DEFAULTS: Required<ExpectedCostOptions> = {
  temperature: 0.1,
  missOutputTokens: 150,
  outputPrice: 5,
  latencyTokens: 30000,
  horizon: 10,
  poolRetryShare: 0.25,
  poolEvidence: 4,
};

/** What the thread has shown so far: its model calls, and its calls to tools it had not been given. */
export interface ThreadEvidence {
  /** Model calls the thread made before this one. */
  calls: number;
  /** Calls from the pool (tools not delivered, callable from their pool line) that ran at once. */
  poolRan: number;
  /** Calls from the pool the gate answered with the tool's schema instead (each cost a round trip). */
  poolRefused: number;
}

/** Later calls a schema delivered now is expected to be re-read by: at least `horizon`, else the calls so far. */
export function expectedReads(horizon: number, callsSoFar: number): number {
  return Math.max(horizon, callsSoFar);
}

/**
 * Share of pool calls expected to need a round trip: the prior `share` weighed as `weight` calls, plus the
 * thread's own (a Beta posterior mean).
 */
export function poolRetryEstimate(share: number, weight: number, ran: number, refused: number): number {
  const n = weight + ran + refused;
  return n > 0 ? (share * weight + refused) / n : share;
}

export interface ExpectedCostInput {
  /** Routed tools of this call, best first. */
  active: readonly string[];
  /** Fused router scores by tool name; a routed tool without one (sticky, promoted) counts as the top score. */
  scores: ReadonlyMap<string, number>;
  /** Tools already delivered in this thread (not delivered again; they still take probability mass). */
  delivered: ReadonlySet<string>;
  /** Schema tokens of a tool as delivered. */
  schemaTokens: (name: string) => number;
  /** Tokens the next request re-reads after a miss: system prompt, pool and history. */
  prefixTokens: number;
  /**
   * Whether the model can call the tool right from the pool alone (see `callableFromSignature`): through call_tool,
   * which every deferred request binds, any listed tool is one call away.
   */
  callableFromPool?: (name: string) => boolean;
  /** What the thread has shown so far (calls made, pool calls that ran or were refused). Default: nothing yet. */
  evidence?: ThreadEvidence;
  profile: ProviderProfile;
  options?: ExpectedCostOptions;
}

/** P(needed) of each routed tool: a softmax of its fused score over the routed set. */
export function neededProbabilities(active: readonly string[], scores: ReadonlyMap<string, number>, temperature: number): Map<string, number> {
  const out = new Map<string, number>();
  if (active.length === 0) return out;
  let top = -Infinity;
  for (const n of active) top = Math.max(top, scores.get(n) ?? -Infinity);
  if (!Number.isFinite(top)) top = 0;
  let sum = 0;
  const w = active.map((n) => {
    const x = Math.exp(((scores.get(n) ?? top) - top) / temperature);
    sum += x;
    return x;
  });
  active.forEach((n, i) => out.set(n, w[i] / sum));
  return out;
}

/** The undelivered routed tools worth delivering now, best first. */
export function worthDelivering(input: ExpectedCostInput): string[] {
  const o = { ...EXPECTED_COST_DEFAULTS, ...input.options };
  const p = input.profile;
  const probability = neededProbabilities(input.active, input.scores, o.temperature);
  const e = input.evidence ?? { calls: 0, poolRan: 0, poolRefused: 0 };
  const roundTrip = input.prefixTokens * p.cacheRead + o.missOutputTokens * o.outputPrice + o.latencyTokens;
  const retryShare = poolRetryEstimate(o.poolRetryShare, o.poolEvidence, e.poolRan, e.poolRefused);
  const reads = expectedReads(o.horizon, e.calls);
  const keep: string[] = [];
  for (const name of input.active) {
    if (input.delivered.has(name)) continue;
    const miss = roundTrip * (input.callableFromPool?.(name) ? retryShare : 1);
    const deliver = input.schemaTokens(name) * (p.cacheWrite + reads * p.cacheRead);
    if ((probability.get(name) ?? 0) * miss >= deliver) keep.push(name);
  }
  return keep;
}
