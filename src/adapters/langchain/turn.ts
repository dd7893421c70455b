/**
 * The two per-turn steps both adapters share: route (before the model) and gate (after it), expressed over
 * a LangChain message state so createAgent middleware and LangGraph hooks behave identically.
 */
import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { ToolAttentionRouter, type RouterOptions } from "../../core/router/router.js";
import type { ToolCatalog } from "../../core/catalog/catalog.js";
import { routingEventOf, type GateEvent, type ToolAttentionEvent } from "../../core/events/events.js";
import type { Precondition, RoutingDecision } from "../../core/types.js";
import { emitToCallbacks, gateAIMessage, latestUserText, pendingAIMessage, stateViewOf } from "./messages.js";
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
}

/**
 * The router an adapter routes with: the caller's own, or one over `catalog` / `tools`. The adapter emits the
 * routing events itself (see routeTurn), so a router built here has no onEvent of its own.
 */
export function adapterRouter(options: AdapterRouterOptions, adapter: string): ToolAttentionRouter {
  if (options.router) return options.router;
  const catalog =
    options.catalog ??
    (options.tools
      ? catalogFromLangChainTools(options.tools, { preconditions: options.preconditions, encoding: options.encoding })
      : undefined);
  if (!catalog) throw new Error(`${adapter} needs \`tools\` (the tools the agent runs), a \`catalog\`, or a \`router\`.`);
  return new ToolAttentionRouter(catalog, { ...options, onEvent: undefined });
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
  gatedOut: { name: string; reason: string }[];
  /** Consecutive model turns whose tool calls were all rejected. */
  rejectedRounds: number;
}

/** The state fields the adapters read. */
export interface ToolAttentionStateLike {
  messages: BaseMessage[];
  scopes?: string[];
  milestones?: string[];
  toolAttention?: ToolAttentionDecisionState;
}

/** Routes the turn and emits its event; returns the decision and the state value to store. */
export async function routeTurn(
  router: ToolAttentionRouter,
  state: ToolAttentionStateLike,
  emit: (event: ToolAttentionEvent) => void,
): Promise<{ decision: RoutingDecision; toolAttention: ToolAttentionDecisionState }> {
  const view = stateViewOf(state);
  const decision = await router.route(latestUserText(state.messages), view);
  emit(routingEventOf(decision));
  return {
    decision,
    toolAttention: {
      turnId: decision.turnId,
      queryHash: decision.queryHash,
      active: decision.active.map((a) => a.name),
      gatedOut: decision.gatedOut.map((g) => ({ name: g.name, reason: g.reason })),
      rejectedRounds: state.toolAttention?.rejectedRounds ?? 0,
    },
  };
}

export interface GateTurnResult {
  /** Error results for the rejected calls, one per call. */
  messages: ToolMessage[];
  toolAttention: ToolAttentionDecisionState;
  /** True when nothing is left to run and the model should get another turn. */
  backToModel: boolean;
  event: GateEvent;
}

/**
 * Gates the model's latest tool calls. Returns undefined when there is nothing to reject (and the
 * rejected-round counter needs no reset).
 */
export function gateTurn(
  router: ToolAttentionRouter,
  state: ToolAttentionStateLike,
  opts: { passthrough?: ReadonlySet<string>; maxRejectedRounds: number },
): GateTurnResult | { toolAttention: ToolAttentionDecisionState } | undefined {
  const ai = pendingAIMessage(state.messages);
  const decision = state.toolAttention;
  if (!ai || !decision || !ai.tool_calls?.length) return undefined;
  const gate = gateAIMessage(ai, {
    active: decision.active,
    catalog: router.catalog,
    state: stateViewOf(state),
    passthrough: opts.passthrough,
  });
  if (gate.rejected.length === 0)
    return decision.rejectedRounds ? { toolAttention: { ...decision, rejectedRounds: 0 } } : undefined;
  const allRejected = gate.allowed.length === 0;
  const rejectedRounds = allRejected ? decision.rejectedRounds + 1 : 0;
  return {
    messages: gate.messages,
    toolAttention: { ...decision, rejectedRounds },
    // Stop sending the model back after maxRejectedRounds, so a model that insists cannot loop forever.
    backToModel: allRejected && rejectedRounds <= opts.maxRejectedRounds,
    event: {
      type: "tool_attention.gate",
      turnId: decision.turnId,
      allowed: gate.allowed.map((c) => c.name),
      rejected: gate.rejected.map((r) => ({ tool: r.call.name, kind: r.kind, toolCallId: r.toolCallId })),
    },
  };
}
