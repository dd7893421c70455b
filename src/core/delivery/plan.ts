/**
 * Delivery: how the routed tools reach the model on each call of a thread, so that what the provider bills per
 * conversation goes down, not just the tokens of one call. Providers cache the prompt prefix in the order
 * tools → system → messages; a tools array that changes between calls re-bills the whole history.
 *
 * - `rebind`: bind the active set of each call (the cache breaks whenever it changes).
 * - `stable`: a per-thread bound set that persists. It grows only when the router's top picks are missing
 *   (they are needed now, and binding them on request would cost a promotion round trip and the same rewrite),
 *   or on promote-on-request; every tool missing at that moment joins in the same rewrite. Tools keep the order
 *   they were bound in. When the set outgrows `maxBound`, the least recently routed tools leave, at a rewrite.
 * - `deferred`: the cached prefix (tools, system with the pool) never changes; each newly routed tool enters the
 *   conversation once, after the history, where it is cached with the rest of the conversation. On Anthropic every
 *   catalog tool is declared `defer_loading` and a routed one arrives as a `tool_addition`; elsewhere the tools
 *   array holds a fixed dispatcher (`call_tool`) and a routed tool's schema arrives as text.
 * - `all`: every schema bound (the "every schema with caching" baseline). Chosen when the catalog is small
 *   enough that routing cannot beat it, and switched to when a thread's estimate says routing costs more.
 */
import { worthDelivering, type ExpectedCostOptions } from "./expected-cost.js";
import type { ProviderProfile } from "../cost/profiles.js";

export type DeliveryMode = "rebind" | "stable" | "deferred" | "all";
/** What the user asks for: a mode, or "auto" (the cheapest measured mode for the provider). */
export type DeliveryOption = DeliveryMode | "auto";

/**
 * A deferred delivery: tools added to the conversation right after the message `after` (its id), where it was
 * first placed. `at` (an index into messages) places additions of messages without ids. An id keeps the place
 * when other middleware trims or summarizes the history, which shifts every index.
 */
export interface DeliveryAddition {
  at: number;
  after?: string;
  tools: string[];
}

/** Per-thread delivery state (JSON-serializable: it lives in graph state). */
export interface DeliveryState {
  mode: DeliveryMode;
  /** Catalog tools in the tools array, in binding order (stable / rebind / all). */
  bound: string[];
  /** Deferred deliveries so far, in conversation order. */
  additions: DeliveryAddition[];
  /** Model calls planned in this thread. */
  calls: number;
  /** Calls whose tool set differed from the previous call's (each one rewrites the cached prefix). */
  changes: number;
  /** Per bound tool: the call index it was last routed on (for eviction). */
  lastRouted: Record<string, number>;
  /** Running estimates for the guarantee (billed-equivalent tokens so far, this plan vs every schema cached). */
  estimate: { plan: number; allCached: number; prevPlanPrefix: number; prevAllPrefix: number };
  /**
   * The thread's calls from the pool (tools callable from their pool line, not delivered): the tools that ran (the
   * model has a call of its own that fit, in the history: they are not delivered later), and how many calls ran or
   * were refused. Absent in states saved before it was kept (read as none).
   */
  pool?: { ran: string[]; calls: number; refused: number };
}

export interface StableOptions {
  /** A missing tool among the router's top `addRank` picks triggers a rewrite. Default 3. */
  addRank?: number;
  /** Most tools kept bound; the least recently routed leave at a rewrite. Default 3·k (at least 20). */
  maxBound?: number;
}

/** Settings of `deferred` delivery. */
export interface DeferredOptions {
  /** New tools delivered per call at most (promoted tools always, on top). Default k. */
  perCall?: number;
  /**
   * How the new tools of a call are chosen. `"expected-cost"` (default): each routed tool whose probability of
   * being needed, times what a miss would cost, outweighs its schema's cost (see expected-cost.ts); needs the
   * router's scores, else falls back to `"top"`. `"top"`: the router's best `perCall`.
   */
  select?: "expected-cost" | "top";
  /** How `"expected-cost"` prices a miss and a delivery. */
  cost?: ExpectedCostOptions;
}


export interface PlanInput {
  /** The mode of this thread (resolved from the user's option and the provider). */
  mode: DeliveryMode;
  previous?: DeliveryState;
  /** Routed tools of this call, best first (sticky and promoted included). */
  active: readonly string[];
  /** Tools the model asked for by name since the last call (promote-on-request): available now whatever the mode. */
  promoted?: readonly string[];
  /** Every catalog tool name, in catalog order (`all` binds these; `deferred` declares them). */
  catalog: readonly string[];
  /** Number of messages in the request (where a deferred addition is placed: after all of them). */
  messageCount: number;
  /** Id of the request's last message, when it has one: a deferred addition is anchored to it. */
  lastMessageId?: string;
  /** Token estimates for the guarantee: full schemas of the catalog, the pool, one tool's schema, the rest. */
  tokens: {
    fullSchemas: number;
    pool: number;
    schema: (name: string) => number;
    /** System prompt (without the pool) plus history, this call. */
    context: number;
  };
  profile: ProviderProfile;
  stable?: StableOptions;
  deferred?: DeferredOptions;
  k: number;
  /** Switch a thread to every schema once routing has cost it more (see the guarantee below). Default true. */
  guarantee?: boolean;
  /** The router's fused scores of the routed tools, by name (deferred's expected-cost selection uses them). */
  scores?: ReadonlyMap<string, number>;
  /** Whether the model can call a tool right from the pool alone (a miss on it rarely costs a round trip). */
  callableFromPool?: (name: string) => boolean;
  /**
   * The model's calls since the previous call to tools it had not been given: `ran` ran at once (their arguments
   * fit), `refused` were answered with their schema. Only tools callable from the pool count. The adapters read
   * them from the history (`poolCallsSince`).
   */
  poolCalls?: { ran: readonly string[]; refused: readonly string[] };
}

export interface DeliveryPlan {
  mode: DeliveryMode;
  /** Catalog tools to bind (non-deferred), in order. Empty for `deferred`. */
  bound: string[];
  /** `deferred`: every addition to (re)insert into the request, in order. */
  additions: DeliveryAddition[];
  /** Tools made available by this call (bound or added). */
  added: string[];
  /** The tools part of the prefix differs from the previous call's: the cached prefix is rewritten. */
  changed: boolean;
  /** Tools routed this call that stay unbound (stable) because adding them would not pay. */
  deferredMisses: string[];
  /** Bound tools not routed this call, kept because rebinding would cost more (stable): reported in events. */
  keptUnrouted: string[];
  /** Why the tool set did or did not change. */
  reason: string;
  state: DeliveryState;
}

const emptyState = (mode: DeliveryMode): DeliveryState => ({
  mode,
  bound: [],
  additions: [],
  calls: 0,
  changes: 0,
  lastRouted: {},
  estimate: { plan: 0, allCached: 0, prevPlanPrefix: 0, prevAllPrefix: 0 },
});

/**
 * Whether a catalog is small enough that binding every schema is expected to cost no more than routing. Without
 * prompt caching each call pays what it carries: the full schemas against the pool plus two active sets. With
 * caching, what every call reads is the thread's routed set as it grows (stable keeps up to max(3k, 20) tools
 * bound; deferred keeps every tool it has added), and each gate round trip re-reads the whole history: routing
 * can only pay when the pool plus max(4k, 30) schemas — that set with a margin for the round trips — stays below
 * the full schemas. (A 36-tool, 3,590-token catalog at k 5 billed 1.2 % more under deferred than every schema
 * cached on OpenAI with max(3k, 20).)
 */
export function preferAll(fullSchemas: number, pool: number, avgSchema: number, k: number, cached = false): boolean {
  const tools = cached ? Math.max(4 * k, 30) : 2 * k;
  return fullSchemas <= pool + tools * avgSchema;
}

/**
 * The thread's pool calls after this call's: the previous record plus the calls reported since, counting only
 * tools callable from the pool. Undefined while the thread has made none.
 */
function recordPoolCalls(
  previous: DeliveryState["pool"],
  calls: PlanInput["poolCalls"],
  callable: PlanInput["callableFromPool"],
): DeliveryState["pool"] {
  const fromPool = (n: string) => callable?.(n) ?? false;
  const ran = (calls?.ran ?? []).filter(fromPool);
  const refused = (calls?.refused ?? []).filter(fromPool);
  if (ran.length === 0 && refused.length === 0) return previous;
  const before = previous ?? { ran: [], calls: 0, refused: 0 };
  return { ran: [...new Set([...before.ran, ...ran])], calls: before.calls + ran.length + refused.length, refused: before.refused + refused.length };
}

/** Billed estimate of one call whose prefix is `prefix` tokens, of which `cached` were cached by the previous call. */
function callEstimate(prefix: number, cached: number, p: ProviderProfile): number {
  if (p.cache === "none" || prefix < p.minCacheable) return prefix * p.uncached;
  const read = Math.min(cached, prefix);
  const fresh = prefix - read;
  // Whatever of a cacheable prompt is not read is written: at the write price (Anthropic 1.25×, OpenAI 1.25× from
  // the GPT-5.6 family on, the uncached price before).
  return read * p.cacheRead + fresh * p.cacheWrite;
}

/** Plans one model call's tool delivery. Pure: the same input gives the same plan. */
export function planDelivery(input: PlanInput): DeliveryPlan {
  const prev = input.previous && input.previous.mode ? input.previous : undefined;
  let mode: DeliveryMode = prev?.mode ?? input.mode;
  const state: DeliveryState = prev
    ? { ...prev, bound: [...prev.bound], additions: prev.additions.map((a) => ({ ...a, tools: [...a.tools] })), lastRouted: { ...prev.lastRouted }, estimate: { ...prev.estimate } }
    : emptyState(mode);
  const call = state.calls;
  const promoted = input.promoted ?? [];
  const catalog = new Set(input.catalog);
  const active = input.active.filter((n) => catalog.has(n));
  for (const name of active) state.lastRouted[name] = call;

  let bound = state.bound.filter((n) => catalog.has(n));
  let changed = false;
  let added: string[] = [];
  let deferredMisses: string[] = [];
  let addition: DeliveryAddition | undefined;
  let reason = "";
  const t = input.tokens;
  const p = input.profile;
  const pool = recordPoolCalls(state.pool, input.poolCalls, input.callableFromPool);
  if (pool) state.pool = pool;

  const everySchema = () => {
    const before = bound.join("\n");
    bound = [...input.catalog];
    changed = call === 0 || before !== bound.join("\n");
    added = call === 0 ? [...bound] : bound.filter((n) => !state.bound.includes(n));
  };

  if (mode === "all") {
    everySchema();
    reason = call === 0 ? "every schema (small catalog)" : "every schema";
  } else if (mode === "rebind") {
    const next = [...new Set([...active, ...promoted.filter((n) => catalog.has(n))])];
    changed = call === 0 || next.join("\n") !== bound.join("\n");
    added = next.filter((n) => !bound.includes(n));
    bound = next;
    reason = changed ? "rebind: the active set changed" : "rebind: same active set";
  } else if (mode === "stable") {
    const has = new Set(bound);
    const missing = active.filter((n) => !has.has(n));
    const addRank = input.stable?.addRank ?? 3;
    const maxBound = input.stable?.maxBound ?? Math.max(3 * input.k, 20);
    const urgent = promoted.filter((n) => catalog.has(n) && !has.has(n));
    const topMissing = active.slice(0, addRank).filter((n) => !has.has(n));
    if (call === 0) {
      bound = [...new Set([...active, ...urgent])];
      added = [...bound];
      changed = true;
      reason = "stable: first call of the thread";
    } else if (urgent.length > 0 || topMissing.length > 0) {
      // Everything missing joins in the same rewrite: the rewrite is paid once either way.
      added = [...new Set([...urgent, ...missing])];
      bound = [...bound, ...added];
      if (bound.length > maxBound) {
        const keep = new Set(
          [...bound].sort((a, b) => (state.lastRouted[b] ?? -1) - (state.lastRouted[a] ?? -1)).slice(0, maxBound),
        );
        for (const n of added) keep.add(n);
        bound = bound.filter((n) => keep.has(n));
      }
      changed = true;
      reason = urgent.length > 0 ? `stable: promoted ${urgent.join(", ")}` : `stable: top pick(s) missing: ${topMissing.join(", ")}`;
    } else {
      deferredMisses = missing;
      reason = missing.length > 0 ? "stable: kept the bound set (missing tools ranked below the top picks)" : "stable: every routed tool is bound";
    }
  } else {
    // deferred: nothing bound; new tools are added once, after the history.
    const delivered = new Set(state.additions.flatMap((a) => a.tools));
    // A tool the model already called right from its pool line has that call in the history: it is not delivered
    // unless the model asks for it (a promotion).
    const known = new Set([...delivered, ...(pool?.ran ?? [])]);
    // Every delivered schema stays in the conversation, read on every later call: deliver the new tools worth their
    // schema against the round trip a miss would cost (promoted ones always); the rest stay one search_tools call
    // or one call by name away.
    const perCall = input.deferred?.perCall ?? input.k;
    const byCost = (input.deferred?.select ?? "expected-cost") === "expected-cost" && input.scores !== undefined;
    const fresh = (
      byCost
        ? worthDelivering({
            active,
            scores: input.scores as ReadonlyMap<string, number>,
            delivered: known,
            schemaTokens: t.schema,
            prefixTokens: t.context + t.pool,
            callableFromPool: input.callableFromPool,
            evidence: { calls: call, poolRan: pool ? pool.calls - pool.refused : 0, poolRefused: pool?.refused ?? 0 },
            profile: p,
            options: input.deferred?.cost,
          })
        : active.filter((n) => !known.has(n))
    ).slice(0, perCall);
    added = [...new Set([...promoted, ...fresh])].filter((n) => catalog.has(n) && !delivered.has(n));
    if (added.length > 0) addition = { at: input.messageCount, ...(input.lastMessageId ? { after: input.lastMessageId } : {}), tools: added };
    bound = [];
    changed = false;
    reason = added.length > 0 ? `deferred: added ${added.length} tool(s) after the history` : "deferred: nothing new";
  }

  // Billed estimates of this call (the cached prefix is rewritten from the tools on when the tool set changed).
  const allPrefix = t.fullSchemas + t.context;
  // A call made because the gate promoted a tool is one every-schema delivery never makes: it adds nothing to the
  // baseline (counting it there would make the routed thread look cheaper than it is).
  const allCall = promoted.length > 0 && call > 0 ? 0 : callEstimate(allPrefix, state.estimate.prevAllPrefix, p);
  const prefixOf = (m: DeliveryMode) => {
    const toolsTokens = m === "deferred" ? 0 : bound.reduce((s, n) => s + t.schema(n), 0);
    const inline = m === "deferred" ? [...state.additions, ...(addition ? [addition] : [])].reduce((s, a) => s + a.tools.reduce((x, n) => x + t.schema(n), 0), 0) : 0;
    return toolsTokens + (m === "all" ? 0 : t.pool) + t.context + inline;
  };
  let planPrefix = prefixOf(mode);
  let planCall = callEstimate(planPrefix, changed ? 0 : state.estimate.prevPlanPrefix, p);

  // The guarantee: once this thread's routed delivery has cost more than every schema cached would have (this
  // call included), bind every schema from now on; after that call the thread bills like the baseline. The
  // switch rewrites the whole prefix (tools, system, history) once. On a call whose tool set changes anyway that
  // rewrite is being paid already, so the thread switches there as soon as it is behind. On a call that keeps the
  // prefix (deferred always does) the switch would be an extra full-history rewrite, made only once the excess
  // so far is at least that rewrite: otherwise a thread would pay thousands of tokens late in the conversation to
  // save a few per call.
  if (input.guarantee !== false && mode !== "all" && call > 0) {
    const excess = state.estimate.plan + planCall - (state.estimate.allCached + allCall);
    const switchCall = callEstimate(allPrefix, 0, p);
    if (excess > 0 && (changed || excess >= switchCall - planCall)) {
      mode = "all";
      addition = undefined;
      deferredMisses = [];
      everySchema();
      reason = "switched to every schema: this thread's routed delivery cost more than every schema cached";
      planPrefix = prefixOf(mode);
      planCall = callEstimate(planPrefix, changed ? 0 : state.estimate.prevPlanPrefix, p);
    }
  }
  if (addition) state.additions.push(addition);
  state.estimate.plan += planCall;
  state.estimate.allCached += allCall;
  state.estimate.prevPlanPrefix = planPrefix;
  state.estimate.prevAllPrefix = allPrefix;

  const activeSet = new Set(active);
  state.mode = mode;
  state.bound = bound;
  state.calls = call + 1;
  if (changed && call > 0) state.changes++;
  return {
    mode,
    bound,
    additions: state.additions,
    added,
    changed,
    deferredMisses,
    keptUnrouted: mode === "stable" ? bound.filter((n) => !activeSet.has(n)) : [],
    reason,
    state,
  };
}

/** Tools the model can call after this plan: bound ones, or every tool delivered so far (deferred). */
export function availableTools(plan: DeliveryPlan): string[] {
  return plan.mode === "deferred" ? plan.additions.flatMap((a) => a.tools) : plan.bound;
}

/**
 * The mode a thread starts in. "auto" picks per provider what the conversation-cost bench measured cheapest at
 * equal recall: `deferred` on Anthropic (native deferral) and OpenAI (a constant dispatcher prefix, the routed
 * schemas as text after the history), `stable` on providers whose caching is unknown. A catalog small enough that
 * every schema costs about as much as routing gets `all` (see `preferAll`).
 */
export function resolveDeliveryMode(
  option: DeliveryOption,
  profile: ProviderProfile,
  catalog: { fullSchemas: number; pool: number; tools: number; k: number },
): DeliveryMode {
  const avg = catalog.tools > 0 ? catalog.fullSchemas / catalog.tools : 0;
  if (option === "auto") {
    if (preferAll(catalog.fullSchemas, catalog.pool, avg, catalog.k, profile.cache !== "none")) return "all";
    return profile.provider === "other" ? "stable" : "deferred";
  }
  return option;
}
