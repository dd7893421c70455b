/**
 * Tool Attention for LangGraph users without createAgent:
 * - `createReactAgent` (prebuilt): `preModelHook` routes and feeds the model the pool, `postModelHook` gates,
 *   and `dynamicModel(model)` is the `llm` function that binds only the active tools each turn.
 * - A hand-built StateGraph: `routeNode`, `gateNode`, `afterGate` (conditional edge) and
 *   `bindActiveTools(model, state)` inside your own model node.
 * Add `ToolAttentionStateFields` to your state annotation (or use `ToolAttentionAnnotation`).
 * Routing runs before every model call (after each tool observation too) over the rolling intent; sticky and
 * promoted tools are carried in `toolAttention`.
 */
import { Annotation, END, MessagesAnnotation } from "@langchain/langgraph";
import { AIMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Runnable } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { usableToolName, type LangChainToolLike } from "../langchain/tools.js";
import type { TagFilter } from "../../core/router/router.js";
import { compactBoundTools } from "../langchain/compact-tools.js";
import { withResolvedNames } from "../langchain/messages.js";
import { answeringToolErrors, type ToolErrorPolicy } from "../langchain/tool-errors.js";
import { checkAdapterOptions, SHARED_ADAPTER_KEYS } from "../langchain/options.js";
import type { OptionKeys } from "../../core/util/options.js";
import type { Phase2CompactionOptions } from "../../core/compaction/phase2.js";
import type { DeliveryState } from "../../core/delivery/plan.js";
import {
  answerSearch,
  CALL_TOOL_NAME,
  catalogTokensReady,
  deliverCall,
  foundBySearch,
  prepareCatalogTokens,
  SEARCH_TOOL_NAME,
  unwrapDispatch,
  type DeliveredCall,
  type DeliveryOptions,
} from "../langchain/delivery.js";
import {
  adapterRouter,
  eventEmitter,
  gateTurn,
  logOf,
  prefetchTurnIntent,
  routeTurn,
  turnSettings,
  type AdapterRouterOptions,
  type GateTurnResult,
  type ToolAttentionDecisionState,
  type ToolAttentionStateLike,
} from "../langchain/turn.js";

/** State channels the hooks read and write; spread into your `Annotation.Root({...})`. */
export const ToolAttentionStateFields = {
  /** Auth scopes currently held (last write wins). */
  scopes: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }),
  /** Workflow milestones reached (last write wins). */
  milestones: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }),
  /** Tags that restrict (`only`) or boost routing (last write wins). */
  toolTags: Annotation<TagFilter | undefined>({ reducer: (_a, b) => b, default: () => undefined }),
  /** The latest routing decision. */
  toolAttention: Annotation<ToolAttentionDecisionState | undefined>({ reducer: (_a, b) => b, default: () => undefined }),
};

/** Messages plus the Tool Attention fields: a ready state for a tool-calling graph. */
export const ToolAttentionAnnotation = Annotation.Root({ ...MessagesAnnotation.spec, ...ToolAttentionStateFields });
export type ToolAttentionGraphState = typeof ToolAttentionAnnotation.State;

export interface ToolAttentionHooksOptions extends AdapterRouterOptions, DeliveryOptions {
  /** The tools the graph can run (the ToolNode's tools). */
  tools: LangChainToolLike[];
  /** Put the Phase-1 pool in the model input (preModelHook / withPool). Default true. */
  includePool?: boolean;
  /** Consecutive all-rejected model turns before the gate stops sending the model back. Default 3. */
  maxRejectedRounds?: number;
  /**
   * Compaction of the bound tools' parameter schemas (short list, $ref dedup, ref inlining); the tools are bound as
   * plain `{name, description, schema}` definitions and still run as registered. Default `LOSSLESS_PHASE2`: only
   * what cannot change which calls are valid is dropped (titles, examples, `$schema`, restated defaults); names,
   * types, required fields, enums, formats and constraints stay. `false` binds the tools exactly as declared.
   */
  phase2?: Phase2CompactionOptions | false;
  /**
   * The chat model the graph calls, read for its provider's caching profile when `provider` is not set
   * (`preModelHook` shapes the messages before the model is bound, so it cannot see the model otherwise).
   */
  model?: unknown;
  /**
   * What a tool run through `call_tool` answers when it throws (see `ToolErrorPolicy`; default true: an error
   * ToolMessage with the error, as LangChain's ToolNode writes it). Calls your ToolNode runs follow its own
   * `handleToolErrors`.
   */
  handleToolErrors?: ToolErrorPolicy;
}

/** Adds the pool to a message list: merged into a leading system message, else as a new first message. */
function withPoolMessages(messages: BaseMessage[], pool: string): BaseMessage[] {
  const first = messages[0];
  if (first && SystemMessage.isInstance(first)) return [first.concat(`\n\n${pool}`), ...messages.slice(1)];
  return [new SystemMessage(pool), ...messages];
}

/** Every option key of the hooks (checked at construction; see `checkAdapterOptions`). */
const HOOKS_OPTION_KEYS = {
  ...SHARED_ADAPTER_KEYS,
  tools: true,
  includePool: true,
  maxRejectedRounds: true,
  phase2: true,
  model: true,
  handleToolErrors: true,
} as const satisfies OptionKeys<ToolAttentionHooksOptions>;

export function createToolAttentionHooks(options: ToolAttentionHooksOptions) {
  checkAdapterOptions("createToolAttentionHooks", options, HOOKS_OPTION_KEYS);
  const emit = eventEmitter(options.onEvent);
  const log = logOf(options);
  const router = adapterRouter(options, "createToolAttentionHooks");
  const includePool = options.includePool ?? true;
  const maxRejectedRounds = options.maxRejectedRounds ?? 3;
  const settings = turnSettings(options);
  // Tools the graph runs that are outside the catalog are never filtered or gated (quarantined ones are not outside it).
  const passthrough = new Set(
    // covers: never screens (a catalog screening in the background is not screened whole at construction).
    options.tools.map((t) => t.name).filter((n) => usableToolName(n) && !router.catalog.covers(n)),
  );

  /** Node: routes the turn and stores the decision. */
  async function routeNode(state: ToolAttentionStateLike): Promise<{ toolAttention: ToolAttentionDecisionState }> {
    const [{ toolAttention }] = await Promise.all([routeTurn(router, state, emit, settings), prepareCatalogTokens(router)]);
    const previous = state.toolAttention as (ToolAttentionDecisionState & { delivery?: DeliveryState }) | undefined;
    // Tools a search_tools call just found are promoted: delivered on this call.
    const promoted = foundBySearch(state.messages, router.catalog);
    const active = [...toolAttention.active, ...promoted.filter((n) => !toolAttention.active.includes(n))];
    return { toolAttention: { ...toolAttention, active, promoted, delivery: previous?.delivery } as ToolAttentionDecisionState };
  }

  /** Node: answers calls to inactive tools with error ToolMessages. */
  async function gateNode(state: ToolAttentionStateLike): Promise<Partial<ToolAttentionGraphState>> {
    // The model answered: embed its stated plan while the tools run, for the next route.
    const answered = state.messages.at(-1);
    if (answered && AIMessage.isInstance(answered) && answered.tool_calls?.length) prefetchTurnIntent(router, state.messages, settings);
    const decision = state.toolAttention as (ToolAttentionDecisionState & { delivery?: DeliveryState }) | undefined;
    const key = decision ? callKey(decision) : "";
    const done = planned.get(key);
    if (done) planned.delete(key);
    // The gate checks calls against what the model could call on this call (bound or delivered).
    const current = decision && done ? ({ ...decision, active: done.shaped.available, delivery: done.plan.state } as ToolAttentionDecisionState) : decision;
    state = { ...state, toolAttention: current };
    // search_tools (bound unless every schema is) and call_tool (deferred delivery) are answered here: they are not the graph's tools.
    const pending = (state.messages.at(-1) as { tool_calls?: { id?: string; name: string; args?: Record<string, unknown> }[] } | undefined)?.tool_calls ?? [];
    const ours = (n: string) => (n === SEARCH_TOOL_NAME || n === CALL_TOOL_NAME) && !passthrough.has(n);
    if (pending.some((c) => ours(c.name))) {
      const answers = new Map<string, ToolMessage>();
      for (const c of pending) if (c.name === SEARCH_TOOL_NAME && ours(c.name)) answers.set(c.id ?? "", await answerSearch(router, c, state));
      // Gate the other calls with call_tool calls read as calls of the tools they name.
      const others = unwrapDispatch(pending.filter((c) => !answers.has(c.id ?? "")));
      const last = state.messages.at(-1) as BaseMessage;
      const view = { ...state, messages: [...state.messages.slice(0, -1), Object.assign(Object.create(Object.getPrototypeOf(last)), last, { tool_calls: others })] };
      const gated = others.length ? gateTurn(router, view, { passthrough, maxRejectedRounds, promoteOnRequest: settings.promoteOnRequest, runValidCalls: settings.runValidCalls }) : undefined;
      const full = gated && "event" in gated ? (gated as GateTurnResult) : undefined;
      if (full) emit(full.event);
      else if (gated && "renameEvent" in gated && gated.renameEvent) emit(gated.renameEvent);
      for (const m of full?.messages ?? []) answers.set(m.tool_call_id, m);
      // Names the gate resolved: the model's message is rewritten in place, and call_tool runs the real tool.
      const renamed = gated?.renamed ?? [];
      const canonical = new Map(renamed.map((r) => [r.toolCallId, r.to]));
      const rewritten = renamed.length && AIMessage.isInstance(last) ? [withResolvedNames(last, renamed, CALL_TOOL_NAME)] : [];
      // Allowed call_tool calls run here, as the tool they name (same call id).
      const wrapped = new Set(pending.filter((c) => c.name === CALL_TOOL_NAME).map((c) => c.id ?? ""));
      for (const named of others) {
        const id = named.id ?? "";
        const c = canonical.has(id) ? { ...named, name: canonical.get(id) as string } : named;
        if (!wrapped.has(id) || answers.has(id)) continue;
        const tool = options.tools.find((t) => t.name === c.name) as StructuredToolInterface | undefined;
        if (!tool) {
          answers.set(id, new ToolMessage({ content: `Error: no tool named "${c.name}" is runnable here`, tool_call_id: id, name: c.name, status: "error" }));
          continue;
        }
        const out = await answeringToolErrors(() => tool.invoke({ id, name: c.name, args: c.args ?? {}, type: "tool_call" }), c, options.handleToolErrors);
        answers.set(id, ToolMessage.isInstance(out) ? out : new ToolMessage({ content: typeof out === "string" ? out : JSON.stringify(out), tool_call_id: id, name: c.name }));
      }
      const messages = pending.map((c) => answers.get(c.id ?? "")).filter((m): m is ToolMessage => !!m);
      return { messages: [...rewritten, ...messages], toolAttention: gated ? gated.toolAttention : current };
    }
    const result = gateTurn(router, state, { passthrough, maxRejectedRounds, promoteOnRequest: settings.promoteOnRequest, runValidCalls: settings.runValidCalls });
    if (!result) return current !== decision ? { toolAttention: current } : {};
    // Calls the gate resolved to a catalog name: the model's message is rewritten in place (same id, so the
    // messages reducer replaces it), so the ToolNode runs the tool the model meant and the history shows its name.
    const last = state.messages.at(-1);
    const rewritten = result.renamed.length && last && AIMessage.isInstance(last) ? [withResolvedNames(last, result.renamed)] : [];
    if (!("event" in result)) {
      if (result.renameEvent) emit(result.renameEvent);
      return { toolAttention: result.toolAttention, ...(rewritten.length ? { messages: rewritten } : {}) };
    }
    emit(result.event);
    return { messages: [...rewritten, ...result.messages], toolAttention: result.toolAttention };
  }

  // One delivery plan per model call (keyed by turn and promotion round), shared by withPool and bindActiveTools,
  // stored into state by gateNode.
  const planned = new Map<string, DeliveredCall>();
  let lastModel: unknown = options.model;
  type DeliveryDecision = ToolAttentionDecisionState & { delivery?: DeliveryState; available?: string[] };
  const callKey = (d: DeliveryDecision) => `${d.turnId}|${d.rejectedRounds}|${(d.promoted ?? []).join(",")}`;

  /** The plan and shaped request of this model call (computed once per call). */
  function shapedCall(state: ToolAttentionStateLike, model?: unknown) {
    const decision = state.toolAttention as DeliveryDecision | undefined;
    if (model) lastModel = model;
    // Without routeNode (a decision set by hand) there are no catalog token counts: bind the decision as it is.
    if (!decision || !catalogTokensReady(router)) return undefined;
    const key = callKey(decision);
    let hit = planned.get(key);
    if (!hit) {
      const messages = state.messages;
      const first = messages[0];
      const system = first && SystemMessage.isInstance(first) ? first : undefined;
      hit = deliverCall({
        router,
        decision,
        model: lastModel,
        options,
        tools: options.tools,
        systemMessage: system,
        messages: system ? messages.slice(1) : messages,
        pool: includePool ? router.pool() : undefined,
        emit,
        log,
      });
      planned.set(key, hit);
    }
    return hit;
  }

  /** The tool objects the model can call this turn (plus tools outside the catalog). */
  function activeTools(state: ToolAttentionStateLike): LangChainToolLike[] {
    const call = shapedCall(state);
    const active = new Set(call?.shaped.available ?? state.toolAttention?.active ?? []);
    return options.tools.filter((t) => active.has(t.name) || passthrough.has(t.name));
  }

  /** Binds the tools of this call's delivery plan to a chat model (Phase 2), in a stable order. */
  function bindActiveTools(model: BaseChatModel, state: ToolAttentionStateLike): Runnable {
    if (typeof model.bindTools !== "function") throw new Error("bindActiveTools: the model does not support tool calling (no bindTools)");
    const call = shapedCall(state, model);
    if (!call) return model.bindTools(compactBoundTools(activeTools(state), options.phase2, model) as StructuredToolInterface[]);
    const tools = call.plan.mode === "deferred" ? call.shaped.tools : compactBoundTools(call.shaped.tools, options.phase2, model);
    return model.bindTools(tools as StructuredToolInterface[], call.shaped.modelSettings as never);
  }

  /**
   * The message list for the model: the Phase-1 pool added to the system prompt and, with `state`, this call's
   * delivery (deferred additions, cache breakpoints). Without `state`, only the pool is added.
   */
  function withPool(messages: BaseMessage[], state?: ToolAttentionStateLike): BaseMessage[] {
    const call = state ? shapedCall({ ...state, messages }) : undefined;
    if (!call) return includePool ? withPoolMessages(messages, router.pool()) : messages;
    const { systemMessage, messages: rest } = call.shaped;
    return systemMessage ? [systemMessage, ...rest] : rest;
  }

  /**
   * Conditional edge after `gateNode`: "tools" when allowed calls are pending, "model" when every call was
   * rejected (the model gets another turn), END otherwise.
   */
  function afterGate(state: ToolAttentionStateLike): "tools" | "model" | typeof END {
    const messages = state.messages;
    let lastAi = -1;
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i].getType() === "ai") { lastAi = i; break; }
    if (lastAi < 0) return END;
    const calls = (messages[lastAi] as { tool_calls?: { id?: string }[] }).tool_calls ?? [];
    if (calls.length === 0) return END;
    const answered = new Set(
      messages.slice(lastAi + 1).map((m) => (m as { tool_call_id?: string }).tool_call_id).filter(Boolean),
    );
    if (calls.some((c) => !c.id || !answered.has(c.id))) return "tools";
    // Answered in the gate (search_tools, a tool run through call_tool): the model continues with the results.
    if (messages.slice(lastAi + 1).some((m) => (m as { status?: string }).status !== "error")) return "model";
    const rounds = state.toolAttention?.rejectedRounds ?? 0;
    return rounds > 0 && rounds <= maxRejectedRounds ? "model" : END;
  }

  return {
    router,
    routeNode,
    gateNode,
    afterGate,
    activeTools,
    bindActiveTools,
    withPool,
    /** `createReactAgent` preModelHook: routes, and gives the model the messages with the pool added. */
    async preModelHook(state: ToolAttentionStateLike) {
      const update = await routeNode(state);
      return { ...update, llmInputMessages: withPool(state.messages, { ...state, ...update }) };
    },
    /** `createReactAgent` postModelHook: the gate. */
    postModelHook: gateNode,
    /** `createReactAgent` `llm` function: binds only the active tools each turn. */
    dynamicModel(model: BaseChatModel) {
      return (state: ToolAttentionStateLike) => bindActiveTools(model, state);
    },
  };
}
