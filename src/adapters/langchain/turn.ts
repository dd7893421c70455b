/**
 * The two per-turn steps both adapters share: route (before the model) and gate (after it), expressed over
 * a LangChain message state so createAgent middleware and LangGraph hooks behave identically.
 */
import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolAttentionRouter } from "../../core/router/router.js";
import type { GateEvent } from "../../core/events/events.js";
import type { RoutingDecision } from "../../core/types.js";
import { gateAIMessage, latestUserText, pendingAIMessage, stateViewOf } from "./messages.js";

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

/** Routes the turn; returns the decision and the state value to store. */
export async function routeTurn(
  router: ToolAttentionRouter,
  state: ToolAttentionStateLike,
): Promise<{ decision: RoutingDecision; toolAttention: ToolAttentionDecisionState }> {
  const view = stateViewOf(state);
  const decision = await router.route(latestUserText(state.messages), view);
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
