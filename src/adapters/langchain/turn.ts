/**
 * The two per-turn steps both adapters share: route (before the model) and gate (after it), expressed over
 * a LangChain message state so createAgent middleware and LangGraph hooks behave identically.
 */
import { join } from "node:path";
import { routerOptionsOf } from "./options.js";
import { DiskScreeningCache, type ScreeningCache } from "../../core/catalog/screening-cache.js";
import { defaultEmbeddingCacheDir } from "../../core/encoders/cache.js";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ToolAttentionRouter, type RouterOptions, type TagFilter } from "../../core/router/router.js";
import type { ScreeningOptions, ToolCatalog } from "../../core/catalog/catalog.js";
import { routingEventOf, type GateEvent, type ToolAttentionEvent } from "../../core/events/events.js";
import type { Precondition, RoutingDecision, ToolNotAvailable } from "../../core/types.js";
import { rejectionFor, type RejectedCall, type RenamedCall, type ToolCallLike } from "../../core/gate/gate.js";
import { checkPreconditions } from "../../core/preconditions/preconditions.js";
import {
  emitToCallbacks,
  gateAIMessage,
  lastObservations,
  pendingAIMessage,
  stateViewOf,
  threadAnticipation,
  turnIntent,
  type IntentOptions,
} from "./messages.js";
import { catalogFromLangChainTools, type LangChainToolLike } from "./tools.js";

/** Options both adapters take to build (or reuse) their router. */
export interface AdapterRouterOptions extends Omit<RouterOptions, "onEvent"> {
  /** The tools to route over: the same tools the agent runs (or use `catalog`). */
  tools?: LangChainToolLike[];
  /** A prebuilt catalog (e.g. from MCP servers) instead of `tools`. */
  catalog?: ToolCatalog;
  /** A prebuilt router (shares its embedded catalog across agents); overrides catalog/tools/router options. */
  router?: ToolAttentionRouter;
  /** Preconditions by tool name, added to what tools declare in `metadata.toolAttention.preconditions`. */
  preconditions?: Record<string, Precondition | Precondition[]>;
  /** Receives one event per routing decision and per gate rejection. Also sent to LangChain callbacks. */
  onEvent?: (event: ToolAttentionEvent) => void;
  /**
   * How the routed intent is built: the latest user message plus earlier user turns, the latest tool results
   * and the model's stated plan, weighted (see `IntentOptions`). `false`: the latest user message only.
   */
  intent?: IntentOptions | false;
  /**
   * Tools used (a successful result) or promoted stay active for this many further routings (model calls),
   * outside k, so a multi-step task keeps its tools when the conversation drifts. `max` caps how many.
   * Default `{ turns: 3, max: 5 }`; `false` disables.
   */
  sticky?: { turns?: number; max?: number } | false;
  /**
   * When the model calls a catalog tool that was not bound this turn but whose preconditions hold, answer the call
   * with an error saying the tool is now available, and bind it (full schema) for the next model call. A tool
   * failing its preconditions is refused with the reason. Default true.
   */
  promoteOnRequest?: boolean;
  /**
   * A call to a catalog tool that was not bound or delivered on this call runs when its arguments fit the tool's
   * schema and its preconditions hold: the routing miss costs no round trip. A call whose arguments do not fit is
   * promoted with what does not fit (or refused, with `promoteOnRequest: false`). Invented names, quarantined tools
   * and failing preconditions are refused either way. Default true; `false`: every such call is promoted first.
   */
  runValidCalls?: boolean;
  /** Restrict routing to, or boost, tools with these tags (merged with the state's `toolTags`). */
  tags?: TagFilter;
  /**
   * Tool-poisoning screen for the catalog built from `tools` (on by default; see `CatalogOptions.screening`):
   * `{ quarantine?, allow?, onFlag? }`, or `false`. Quarantine notices go to `log`.
   */
  screening?: ScreeningOptions | false;
}

/** Sticky-tool settings with defaults applied (`turns: 0` when disabled). */
export function stickyConfig(sticky: AdapterRouterOptions["sticky"]): { turns: number; max: number } {
  if (sticky === false) return { turns: 0, max: 0 };
  const turns = sticky?.turns ?? 3;
  const max = sticky?.max ?? 5;
  for (const [name, v] of [["sticky.turns", turns], ["sticky.max", max]] as const)
    if (!Number.isInteger(v) || v < 0) throw new Error(`Invalid ${name}: ${v} (expected an integer ≥ 0)`);
  return { turns, max };
}

/** Per-turn settings an adapter resolves once from its options. */
export interface TurnSettings {
  intent?: IntentOptions | false;
  sticky: { turns: number; max: number };
  promoteOnRequest: boolean;
  runValidCalls: boolean;
  tags?: TagFilter;
}

/** Resolves (and validates) the per-turn settings of adapter options. */
export function turnSettings(options: AdapterRouterOptions): TurnSettings {
  return {
    intent: options.intent,
    sticky: stickyConfig(options.sticky),
    promoteOnRequest: options.promoteOnRequest ?? true,
    runValidCalls: options.runValidCalls ?? true,
    tags: options.tags,
  };
}

/**
 * The router an adapter routes with: the caller's own, or one over `catalog` / `tools`. The adapter emits the
 * routing events itself (see routeTurn), so a router built here has no onEvent of its own.
 */
export function adapterRouter(options: AdapterRouterOptions, adapter: string): ToolAttentionRouter {
  // `preconditions` only applies while building a catalog from `tools`; with a prebuilt one it would be dropped.
  for (const field of ["preconditions", "screening"] as const)
    if (options[field] !== undefined && (options.router || options.catalog))
      throw new Error(
        `${adapter}: \`${field}\` applies to a catalog built from \`tools\`; with a prebuilt ` +
          `\`${options.router ? "router" : "catalog"}\`, give it to the catalog when you build it (CatalogOptions.${field})`,
      );
  if (options.router) return options.router;
  const catalog =
    options.catalog ??
    (options.tools
      ? catalogFromLangChainTools(options.tools, {
          preconditions: options.preconditions,
          encoding: options.encoding,
          strict: true,
          screening: options.screening === false ? false : { cache: screeningCacheOf(options), ...options.screening },
          log: options.log,
        })
      : undefined);
  if (!catalog) throw new Error(`${adapter} needs \`tools\` (the tools the agent runs), a \`catalog\`, or a \`router\`.`);
  // Without promotion, a compact pool must not invite the model to call unattached tools by name.
  // The pool says what a call to an unattached tool does: runs when its arguments fit (runValidCalls), attaches it
  // (promotion), or neither.
  const pool = { runValidCalls: options.runValidCalls ?? true, ...(options.promoteOnRequest === false ? { callByName: false } : {}), ...options.pool };
  return new ToolAttentionRouter(catalog, { ...routerOptionsOf(options), pool, onEvent: undefined });
}

/**
 * Where the screen's verdicts on a catalog built from `tools` are kept: `<cacheDir>/screening/`, the router's cache
 * directory as it resolves it (none with `cacheDir: false`, or with a store and no `cacheDir`).
 */
function screeningCacheOf(options: AdapterRouterOptions): ScreeningCache | undefined {
  const dir = options.cacheDir !== undefined ? options.cacheDir : options.store !== undefined ? false : defaultEmbeddingCacheDir();
  if (!dir) return undefined;
  const log = logOf(options);
  return new DiskScreeningCache(join(dir, "screening"), (line) => log?.(line));
}

/** Where an adapter's one-line notices go: the `log` option, stderr by default, nowhere with `log: false`. */
export function logOf(options: { log?: ((line: string) => void) | false }): ((line: string) => void) | undefined {
  if (options.log === false) return undefined;
  return options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
}

/** Sends an event to the caller's onEvent and to LangChain callbacks. */
export function eventEmitter(onEvent?: (event: ToolAttentionEvent) => void): (event: ToolAttentionEvent) => void {
  return (event) => {
    onEvent?.(event);
    void emitToCallbacks(event);
  };
}

/** What the adapters keep in graph state about the current routing decision (JSON-serializable). */
export interface ToolAttentionDecisionState {
  turnId: string;
  queryHash: string;
  /** Names of the tools bound for this turn, best first. */
  active: string[];
  /** The router's fused score of each active tool (same order): deferred delivery prices each by it. */
  scores?: number[];
  gatedOut: { name: string; reason: string }[];
  /** Consecutive model turns whose tool calls were all rejected. */
  rejectedRounds: number;
  /** Sticky tools and how many further routings each stays active for. */
  sticky?: { name: string; turns: number }[];
  /** Tools promoted on request since the last routing (bound on the next model call). */
  promoted?: string[];
}

/** The state fields the adapters read. */
export interface ToolAttentionStateLike {
  messages: BaseMessage[];
  scopes?: string[];
  milestones?: string[];
  /** Tags that restrict (`only`) or boost routing this turn; merged with the adapter's `tags` option. */
  toolTags?: TagFilter;
  toolAttention?: ToolAttentionDecisionState;
}

function mergeTags(a?: TagFilter, b?: TagFilter): TagFilter | undefined {
  if (!a) return b;
  if (!b) return a;
  const only = [...(a.only ?? []), ...(b.only ?? [])];
  const boost = [...(a.boost ?? []), ...(b.boost ?? [])];
  return { ...(only.length ? { only } : {}), ...(boost.length ? { boost } : {}) };
}

/**
 * The sticky list for the next routing: every entry loses a turn, tools that just returned a successful result
 * (and tools promoted since) start again at `turns`, and at most `max` are kept (the freshest first).
 */
export function nextSticky(
  previous: ToolAttentionDecisionState | undefined,
  messages: readonly BaseMessage[],
  config: { turns: number; max: number },
): { name: string; turns: number }[] {
  if (config.turns <= 0 || config.max <= 0) return [];
  // A new user request starts clean: one request's tools must not ride along into the next ("merge PR 17" should
  // not keep the Slack and database tools of the request before it). Delivery may still keep them bound when
  // that is cheaper (stable delivery reports them as kept in its event).
  const last = messages.at(-1);
  if (last && HumanMessage.isInstance(last)) return [];
  const left = new Map<string, number>();
  for (const s of previous?.sticky ?? []) if (s.turns > 1) left.set(s.name, s.turns - 1);
  for (const name of previous?.promoted ?? []) left.set(name, config.turns);
  for (const m of lastObservations(messages)) if (m.status !== "error" && m.name) left.set(m.name, config.turns);
  return [...left]
    .sort((a, b) => b[1] - a[1])
    .slice(0, config.max)
    .map(([name, turns]) => ({ name, turns }));
}

/**
 * Starts embedding the intent the next model call will be routed on, as far as it is known now (the model's stated
 * plan once it answers; a tool's result once it returns): the encode then runs while the tools do, and the next
 * route finds its texts ready. Texts already embedded, and lexical-only parts, cost nothing.
 */
export function prefetchTurnIntent(router: ToolAttentionRouter, messages: readonly BaseMessage[], settings: TurnSettings): void {
  router.prefetchQuery(turnIntent(messages, settings.intent).flatMap((p) => (p.dense === false ? [] : [p.text])));
}

/** Routes the turn and emits its event; returns the decision and the state value to store. */
export async function routeTurn(
  router: ToolAttentionRouter,
  state: ToolAttentionStateLike,
  emit: (event: ToolAttentionEvent) => void,
  settings: TurnSettings = turnSettings({}),
): Promise<{ decision: RoutingDecision; toolAttention: ToolAttentionDecisionState }> {
  const view = stateViewOf(state);
  const sticky = nextSticky(state.toolAttention, state.messages, settings.sticky);
  const decision = await router.route(turnIntent(state.messages, settings.intent), view, {
    include: sticky.map((s) => s.name),
    tags: mergeTags(settings.tags, state.toolTags),
    anticipate: threadAnticipation(state.messages),
  });
  emit(routingEventOf(decision));
  return {
    decision,
    toolAttention: {
      turnId: decision.turnId,
      queryHash: decision.queryHash,
      active: decision.active.map((a) => a.name),
      scores: decision.active.map((a) => a.score),
      gatedOut: decision.gatedOut.map((g) => ({ name: g.name, reason: g.reason })),
      rejectedRounds: state.toolAttention?.rejectedRounds ?? 0,
      sticky,
      promoted: [],
    },
  };
}

/**
 * The answer to a call whose tool was promoted: an error result that says the tool is now bound. `calledAs` is the
 * name the model used when the gate resolved it to `name`: the answer teaches the exact name.
 */
export function promotedContent(name: string, available: readonly string[], calledAs?: string, argumentErrors?: string): string {
  const payload: ToolNotAvailable = { error: "tool_not_available", tool: name, available: [...available], promoted: true };
  if (calledAs) payload.calledAs = calledAs;
  if (argumentErrors) payload.argumentErrors = argumentErrors;
  const called = calledAs ? ` (you called it "${calledAs}"; its exact name is "${name}")` : "";
  const why = argumentErrors ? `its arguments do not fit its schema (${argumentErrors.slice(0, 200)})` : "it was not bound for this request";
  return (
    `${JSON.stringify(payload)}\n"${name}"${called} did not run: ${why}. ` +
    `It is now available with its full schema: call it again${calledAs ? " by its exact name" : ""} (check the arguments against the schema).`
  );
}

function promotedMessage(r: RejectedCall<ToolCallLike>, available: readonly string[]): ToolMessage {
  const { call } = r;
  return new ToolMessage({ content: promotedContent(call.name, available, r.calledAs, r.payload.argumentErrors), tool_call_id: call.id ?? "", name: call.name, status: "error" });
}

/** Most tools one gate answer promotes besides the ones called by name (closest or candidate tools): a bound. */
const MAX_SUGGESTED_PROMOTIONS = 3;

export interface GateTurnResult {
  /** Error results for the rejected calls, one per call. */
  messages: ToolMessage[];
  /** Calls whose names the gate resolved (rewrite the model's message with `withResolvedNames`). */
  renamed: RenamedCall[];
  toolAttention: ToolAttentionDecisionState;
  /** True when nothing is left to run and the model should get another turn. */
  backToModel: boolean;
  event: GateEvent;
}

function resolvedOf(renamed: readonly RenamedCall[]): NonNullable<GateEvent["resolved"]> {
  return renamed.map((r) => ({ from: r.from, to: r.to, how: r.how, toolCallId: r.toolCallId }));
}

/**
 * Gates the model's latest tool calls. Returns undefined when there is nothing to reject or rename (and the
 * rejected-round counter needs no reset).
 */
export function gateTurn(
  router: ToolAttentionRouter,
  state: ToolAttentionStateLike,
  opts: { passthrough?: ReadonlySet<string>; maxRejectedRounds: number; promoteOnRequest?: boolean; runValidCalls?: boolean },
): GateTurnResult | { toolAttention: ToolAttentionDecisionState; renamed: RenamedCall[]; renameEvent?: GateEvent } | undefined {
  const ai = pendingAIMessage(state.messages);
  const decision = state.toolAttention;
  if (!ai || !decision || !ai.tool_calls?.length) return undefined;
  const view = stateViewOf(state);
  const gate = gateAIMessage(ai, {
    active: decision.active,
    catalog: router.catalog,
    state: view,
    passthrough: opts.passthrough,
    runValidCalls: opts.runValidCalls,
  });
  if (gate.rejected.length === 0) {
    if (!decision.rejectedRounds && gate.renamed.length === 0 && gate.unbound.length === 0) return undefined;
    const noted = gate.renamed.length > 0 || gate.unbound.length > 0;
    return {
      toolAttention: decision.rejectedRounds ? { ...decision, rejectedRounds: 0 } : decision,
      renamed: gate.renamed,
      // Every call runs, but under another name than the model used, or without having been delivered: dashboards
      // should see that.
      ...(noted
        ? {
            renameEvent: {
              type: "tool_attention.gate" as const,
              turnId: decision.turnId,
              allowed: gate.allowed.map((c) => c.name),
              rejected: [],
              ...(gate.renamed.length ? { resolved: resolvedOf(gate.renamed) } : {}),
              ...(gate.unbound.length ? { ranUnbound: gate.unbound } : {}),
            },
          }
        : {}),
    };
  }
  const allRejected = gate.allowed.length === 0;
  const rejectedRounds = allRejected ? decision.rejectedRounds + 1 : 0;
  let messages = gate.messages;
  let next: ToolAttentionDecisionState = { ...decision, rejectedRounds };
  const promotedKind = new Set<number>();
  if (opts.promoteOnRequest ?? true) {
    // A call to a catalog tool that only missed the cut (its preconditions hold): bind it for the next call.
    const promote = [...new Set(gate.rejected.filter((r) => r.kind === "not_active").map((r) => r.call.name))];
    // The tools an unknown name was closest to, or an ambiguous name could mean: bind a few, so the model's
    // next step can call the right one instead of asking again (bounded: a wild name must not bind a catalog).
    const usable = (name: string) => {
      const tool = router.catalog.getByName(name)[0];
      return !!tool && checkPreconditions(tool, view).allow;
    };
    const suggested: string[] = [];
    const suggestedBy = new Map<number, string[]>();
    gate.rejected.forEach((r, i) => {
      const names = r.kind !== "unknown_tool" ? [] : r.payload.candidates ? r.payload.candidates.filter(usable) : (r.payload.closest ?? []);
      const mine: string[] = [];
      for (const n of names) {
        if (decision.active.includes(n) || promote.includes(n)) mine.push(n);
        else if (suggested.includes(n) || suggested.length < MAX_SUGGESTED_PROMOTIONS) {
          if (!suggested.includes(n)) suggested.push(n);
          mine.push(n);
        }
      }
      if (names.some((n) => !decision.active.includes(n) && mine.includes(n))) suggestedBy.set(i, mine);
    });
    const added = [...promote, ...suggested.filter((n) => !promote.includes(n))];
    if (added.length > 0) {
      const active = [...decision.active, ...added.filter((n) => !decision.active.includes(n))];
      const promoted = [...new Set([...(decision.promoted ?? []), ...added])];
      next = { ...next, active, promoted };
      messages = gate.rejected.map((r, i) => {
        if (r.kind === "not_active") {
          promotedKind.add(i);
          return promotedMessage(r, active);
        }
        const mine = suggestedBy.get(i);
        if (!mine) return gate.messages[i];
        const again = rejectionFor(r.call, r.kind, active, {
          calledAs: r.calledAs,
          candidates: r.payload.candidates,
          closest: r.payload.closest,
          callable: mine,
        });
        return new ToolMessage({ content: again.content, tool_call_id: again.toolCallId, name: r.call.name, status: "error" });
      });
    }
  }
  return {
    messages,
    renamed: gate.renamed,
    toolAttention: next,
    // Stop sending the model back after maxRejectedRounds, so a model that insists cannot loop forever.
    backToModel: allRejected && rejectedRounds <= opts.maxRejectedRounds,
    event: {
      type: "tool_attention.gate",
      turnId: decision.turnId,
      allowed: gate.allowed.map((c) => c.name),
      rejected: gate.rejected.map((r, i) => ({
        tool: r.call.name,
        kind: promotedKind.has(i) ? "promoted" : r.payload.candidates ? "ambiguous" : r.kind,
        toolCallId: r.toolCallId,
        ...(r.calledAs ? { calledAs: r.calledAs } : {}),
      })),
      ...(gate.renamed.length ? { resolved: resolvedOf(gate.renamed) } : {}),
      ...(gate.unbound.length ? { ranUnbound: gate.unbound } : {}),
    },
  };
}
