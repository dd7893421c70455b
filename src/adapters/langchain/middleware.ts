/**
 * Tool Attention as `createAgent` middleware (langchain v1).
 *
 * - beforeModel: routes the turn (latest user message plus a weighted rolling context: earlier user turns, the
 *   latest tool results, the model's stated plan; current scopes/milestones/tool outputs; sticky tools) and
 *   stores the decision in state. It runs before every model call, so the agent re-routes after each tool
 *   observation.
 * - wrapModelCall: binds only the active tools (tools outside the catalog, e.g. other middleware's, pass
 *   through) and appends the Phase-1 summary pool to the system message.
 * - afterModel: the hallucination gate. Each call to a tool outside the active set gets an error ToolMessage
 *   with the same tool_call_id; if nothing is left to run, the agent jumps back to the model to recover.
 *   A call to a catalog tool whose preconditions hold is promoted: the decision in state gains it, and since a
 *   jump to the model skips beforeModel, wrapModelCall binds it from that updated decision.
 * - wrapToolCall: delivers the gate's answers when some calls of the turn run (so every answer keeps its call's
 *   position), and is a second line of defence for calls that reach the tool node by another route (the agent's
 *   ToolNode runs any registered tool the model names, even one that was not bound).
 */
import { createMiddleware } from "langchain";
import { AIMessage, ToolMessage, type BaseMessage, type SystemMessage } from "@langchain/core/messages";
import { tool as lcTool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod/v3";
import { gateCalls, stateViewOf, withResolvedNames } from "./messages.js";
import { resolveCallName } from "../../core/catalog/names.js";
import {
  answerSearch,
  CALL_TOOL_DEF,
  CALL_TOOL_NAME,
  deliverCall,
  foundBySearch,
  prepareCatalogTokens,
  SEARCH_TOOL_DEF,
  SEARCH_TOOL_NAME,
  unwrapDispatch,
  type DeliveryOptions,
} from "./delivery.js";
import type { DeliveryState } from "../../core/delivery/plan.js";
import type { ToolCatalog } from "../../core/catalog/catalog.js";
import { compactBoundTools } from "./compact-tools.js";
import { answeringToolErrors, type ToolErrorPolicy } from "./tool-errors.js";
import { checkAdapterOptions, SHARED_ADAPTER_KEYS } from "./options.js";
import { fewNames, type OptionKeys } from "../../core/util/options.js";
import { usableToolName } from "./tools.js";
import type { Phase2CompactionOptions } from "../../core/compaction/phase2.js";
import {
  adapterRouter,
  eventEmitter,
  gateTurn,
  logOf,
  prefetchTurnIntent,
  routeTurn,
  turnSettings,
  type AdapterRouterOptions,
  type ToolAttentionDecisionState,
  type ToolAttentionStateLike,
} from "./turn.js";

export interface ToolAttentionMiddlewareOptions extends AdapterRouterOptions, DeliveryOptions {
  /** Also register `tools` with the agent, so they need not be passed to `createAgent` too. Default false. */
  registerTools?: boolean;
  /** Append the Phase-1 summary pool to the system message. Default true. */
  includePool?: boolean;
  /**
   * Consecutive model turns whose calls were all rejected before the gate stops sending the model back
   * (the agent then ends with the error results, instead of looping). Default 3.
   */
  maxRejectedRounds?: number;
  /**
   * Compaction of the bound tools' parameter schemas (short list, $ref dedup, ref inlining); the tools are bound as
   * plain `{name, description, schema}` definitions and still run as registered. Default `LOSSLESS_PHASE2`: only
   * what cannot change which calls are valid is dropped (titles, examples, `$schema`, restated defaults); names,
   * types, required fields, enums, formats and constraints stay. `false` binds the tools exactly as declared.
   */
  phase2?: Phase2CompactionOptions | false;
  /**
   * Supplies catalog tools that were not registered with `createAgent`, e.g. tools an MCP server added at
   * run time (`McpSession.resolveTool`). When such a tool is active it is bound for the model, and its calls
   * execute through wrapToolCall.
   */
  resolveTool?: (name: string) => StructuredToolInterface | undefined;
  /**
   * What a tool that throws answers (see `ToolErrorPolicy`). Default true: an error ToolMessage carrying the error,
   * as LangChain's tool node answers without middleware, and the run goes on. `false` lets the error reject the run
   * (or reach an outer `toolErrorMiddleware`); a function writes the answer.
   */
  handleToolErrors?: ToolErrorPolicy;
}

/** Every option key of the middleware (checked at construction; see `checkAdapterOptions`). */
const MIDDLEWARE_OPTION_KEYS = {
  ...SHARED_ADAPTER_KEYS,
  registerTools: true,
  includePool: true,
  maxRejectedRounds: true,
  phase2: true,
  resolveTool: true,
  handleToolErrors: true,
} as const satisfies OptionKeys<ToolAttentionMiddlewareOptions>;

const decisionSchema = z.object({
  turnId: z.string(),
  queryHash: z.string(),
  active: z.array(z.string()),
  scores: z.array(z.number()).optional(),
  gatedOut: z.array(z.object({ name: z.string(), reason: z.string() })),
  rejectedRounds: z.number(),
  sticky: z.array(z.object({ name: z.string(), turns: z.number() })).optional(),
  promoted: z.array(z.string()).optional(),
  /** Tools the model could call on the last model call (bound or delivered, per the delivery plan). */
  available: z.array(z.string()).optional(),
  /** Per-thread delivery state (bound set, deferred additions, estimates). */
  delivery: z.any().optional(),
  /** The gate's answers to this turn's rejected calls when some calls run: wrapToolCall gives them, in call order. */
  answers: z.array(z.object({ id: z.string(), name: z.string(), content: z.string() })).optional(),
});

const stateSchema = z.object({
  /** Auth scopes currently held; the app or tools (via Command updates) set them. */
  scopes: z.array(z.string()).default([]),
  /** Workflow milestones reached; the app or tools set them. */
  milestones: z.array(z.string()).default([]),
  /** Tags that restrict (`only`) or boost routing (set by the app or tools). */
  toolTags: z.object({ only: z.array(z.string()).optional(), boost: z.array(z.string()).optional() }).optional(),
  /** The latest routing decision (set by the middleware). */
  toolAttention: decisionSchema.optional(),
});

/** A rejected call's answer kept in state until the tool node delivers it (plain data: checkpoints store it). */
interface GateAnswer {
  id: string;
  name: string;
  content: string;
}

function answersOf(messages: readonly ToolMessage[]): GateAnswer[] {
  return messages.map((m) => ({ id: m.tool_call_id, name: m.name ?? "", content: typeof m.content === "string" ? m.content : JSON.stringify(m.content) }));
}

/** The gate's answer to a call, if the gate rejected it this turn. */
function gateAnswer(decision: { answers?: GateAnswer[] } | undefined, id: string | undefined): ToolMessage | undefined {
  const a = id ? decision?.answers?.find((x) => x.id === id) : undefined;
  return a && new ToolMessage({ content: a.content, tool_call_id: a.id, name: a.name, status: "error" });
}

/**
 * Checks, on the first model call, that the agent can run every catalog tool: each must be registered with it
 * (the request's tools) or supplied by `resolveTool`. Otherwise the tool is never bound and a call to it fails
 * with "... is not a valid tool", far from the cause. Returns true, or throws naming the missing tools.
 */
function assertRegistered(catalog: ToolCatalog, tools: readonly unknown[], resolve?: (name: string) => unknown): true {
  const registered = new Set(tools.map((t) => (t as { name?: unknown })?.name));
  const missing = [...new Set(catalog.tools.map((t) => t.name))].filter((n) => !registered.has(n) && !resolve?.(n));
  if (missing.length === 0) return true;
  throw new Error(
    `toolAttentionMiddleware: ${missing.length === 1 ? `tool ${fewNames(missing)} is` : `${missing.length} tools (${fewNames(missing)}) are`} ` +
      "in the middleware's catalog but not registered with the agent, so the model " +
      "could never call them: pass the same tools to createAgent({ tools }) too, or set registerTools: true",
  );
}

/**
 * Creates the Tool Attention middleware.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 5 })] });
 * ```
 */
export function toolAttentionMiddleware(options: ToolAttentionMiddlewareOptions) {
  checkAdapterOptions("toolAttentionMiddleware", options, MIDDLEWARE_OPTION_KEYS);
  const emit = eventEmitter(options.onEvent);
  const log = logOf(options);
  const router = adapterRouter(options, "toolAttentionMiddleware");
  // router.catalog is read on every use: a catalog update (replaceCatalog) swaps it.
  const maxRejectedRounds = options.maxRejectedRounds ?? 3;
  const includePool = options.includePool ?? true;
  const settings = turnSettings(options);
  // Names of bound tools outside the catalog (other middleware's, provider tools): never filtered or gated.
  const passthrough = new Set<string>();
  // The delivery plan of each model call, by turn id, until afterModel stores it in state (wrapModelCall cannot).
  const planned = new Map<string, { delivery: DeliveryState; available: string[] }>();
  const userTools = new Set((options.tools ?? []).map((t) => t.name));
  // The client-side search tool (bound under every delivery but `all`, see `searchTool`); wrapToolCall answers it, so its body never runs.
  const searchTool = userTools.has(SEARCH_TOOL_NAME)
    ? undefined
    : lcTool(async () => "search_tools is answered by the Tool Attention middleware", {
        name: SEARCH_TOOL_NAME,
        description: SEARCH_TOOL_DEF.description,
        schema: z.object({ query: z.string().describe("What you want to do, in your own words.") }),
      });
  // search_tools is the middleware's own: the gate lets calls to it through and wrapToolCall answers them.
  if (searchTool) passthrough.add(SEARCH_TOOL_NAME);
  // The dispatcher (bound under deferred delivery without native deferral); wrapToolCall runs the tool it names.
  const callTool = userTools.has(CALL_TOOL_NAME)
    ? undefined
    : lcTool(async () => "call_tool is answered by the Tool Attention middleware", {
        name: CALL_TOOL_NAME,
        description: CALL_TOOL_DEF.description,
        schema: z.object({ name: z.string(), arguments: z.record(z.unknown()) }),
      });
  const toolsByName = new Map((options.tools ?? []).map((t) => [t.name, t as unknown as StructuredToolInterface]));
  const registered = [
    ...(options.registerTools ? (options.tools ?? []) : []),
    ...(searchTool ? [searchTool] : []),
    ...(callTool ? [callTool] : []),
  ];
  let registrationChecked = false;
  /** The call under the catalog name its name resolves to (unchanged when it does not resolve to exactly one). */
  const canonicalCall = <T extends { name: string }>(call: T, decision?: ToolAttentionDecisionState): T => {
    const r = resolveCallName(router.catalog, call.name, decision?.active ?? []);
    return r.status === "resolved" ? { ...call, name: r.name } : call;
  };
  const prefetchIntent = (messages: readonly BaseMessage[]) => prefetchTurnIntent(router, messages, settings);

  const middleware = createMiddleware({
    name: "ToolAttention",
    stateSchema,
    tools: registered.length ? (registered as never[]) : undefined,

    beforeModel: async (state) => {
      const s = state as ToolAttentionStateLike & { toolAttention?: ToolAttentionDecisionState & { delivery?: DeliveryState } };
      const [{ toolAttention }] = await Promise.all([routeTurn(router, s, emit, settings), prepareCatalogTokens(router)]);
      // Tools a search_tools call just found are promoted: delivered on this call.
      const promoted = foundBySearch(s.messages, router.catalog);
      const active = [...toolAttention.active, ...promoted.filter((n) => !toolAttention.active.includes(n))];
      return { toolAttention: { ...toolAttention, active, promoted, delivery: s.toolAttention?.delivery } };
    },

    wrapModelCall: async (request, handler) => {
      registrationChecked ||= assertRegistered(router.catalog, request.tools, options.resolveTool);
      // A tool without a usable name (skipped from the catalog with a warning) is never sent: the provider would
      // reject the whole request for it.
      const tools = request.tools.every((t) => usableToolName((t as { name?: unknown }).name)) ? request.tools : request.tools.filter((t) => usableToolName((t as { name?: unknown }).name));
      request = tools === request.tools ? request : { ...request, tools };
      const decision = request.state.toolAttention as (ToolAttentionDecisionState & { delivery?: DeliveryState }) | undefined;
      if (!decision) return handler(request);
      for (const t of request.tools) {
        const name = (t as { name?: unknown }).name;
        // A registered tool the screen quarantined is not "outside the catalog": it must never pass through.
        // covers: never screens (a catalog screening in the background is not screened whole by this check).
        if (typeof name === "string" && !router.catalog.covers(name) && name !== SEARCH_TOOL_NAME)
          passthrough.add(name);
      }
      await prepareCatalogTokens(router);
      const { plan, shaped } = deliverCall({
        router,
        decision,
        model: request.model,
        options,
        tools: request.tools,
        resolve: options.resolveTool,
        systemMessage: request.systemMessage as SystemMessage | undefined,
        messages: request.messages as BaseMessage[],
        pool: includePool ? router.pool() : undefined,
        modelSettings: request.modelSettings as Record<string, unknown> | undefined,
        emit,
        log,
        // Deferred delivery declares the tools verbatim (their declarations are the cached prefix).
        bind: (t, p) => (p.mode === "deferred" ? t : compactBoundTools(t, options.phase2, request.model)),
      });
      planned.set(decision.turnId, { delivery: plan.state, available: shaped.available });
      return handler({
        ...request,
        tools: shaped.tools as typeof request.tools,
        systemMessage: shaped.systemMessage ?? request.systemMessage,
        messages: shaped.messages as typeof request.messages,
        ...(shaped.modelSettings ? { modelSettings: shaped.modelSettings } : {}),
      });
    },

    afterModel: {
      canJumpTo: ["model"],
      hook: async (state) => {
        const s = state as ToolAttentionStateLike;
        const decision = s.toolAttention;
        const answered = s.messages.at(-1);
        if (answered && AIMessage.isInstance(answered) && answered.tool_calls?.length) prefetchIntent(s.messages);
        const done = decision ? planned.get(decision.turnId) : undefined;
        if (decision && done) planned.delete(decision.turnId);
        // The gate checks calls against what the model could call on this call (bound or delivered).
        const current = decision && done ? { ...decision, active: done.available, delivery: done.delivery } : decision;
        // call_tool calls are gated as calls of the tools they name.
        const last = s.messages.at(-1) as AIMessage | undefined;
        const dispatched = callTool && last && AIMessage.isInstance(last) && last.tool_calls?.some((c) => c.name === CALL_TOOL_NAME);
        const messages = dispatched ? [...s.messages.slice(0, -1), new AIMessage({ content: last.content, id: last.id, tool_calls: unwrapDispatch(last.tool_calls ?? []) })] : s.messages;
        const result = gateTurn(router, { ...s, messages, toolAttention: current }, {
          passthrough,
          maxRejectedRounds,
          promoteOnRequest: settings.promoteOnRequest,
          runValidCalls: settings.runValidCalls,
        });
        if (!result) return current !== decision ? { toolAttention: current } : undefined;
        // Calls the gate resolved to a catalog name: the model's message is rewritten in place (same id, so the
        // messages reducer replaces it), and the tool node runs the tool the model meant under its real name.
        const rewritten = result.renamed.length > 0 && last && AIMessage.isInstance(last) ? [withResolvedNames(last, result.renamed, callTool ? CALL_TOOL_NAME : undefined)] : [];
        if (!("event" in result)) {
          if (result.renameEvent) emit(result.renameEvent);
          return { toolAttention: result.toolAttention, ...(rewritten.length ? { messages: rewritten } : {}) };
        }
        emit(result.event);
        // With calls left to run, the tool node answers every call, the rejected ones through wrapToolCall, so the
        // turn's ToolMessages come in the order of its tool_calls (answered here, they would precede the others).
        if (result.event.allowed.length > 0 && result.messages.every((m) => m.tool_call_id))
          return { toolAttention: { ...result.toolAttention, answers: answersOf(result.messages) }, ...(rewritten.length ? { messages: rewritten } : {}) };
        const update = { messages: [...rewritten, ...result.messages], toolAttention: result.toolAttention };
        // Allowed calls still run (the agent sends pending calls to the tool node); when none is left,
        // the model goes back with the errors so it can recover.
        return result.backToModel ? { ...update, jumpTo: "model" as const } : update;
      },
    },

    wrapToolCall: async (request, handler) => {
      const state = request.state as ToolAttentionStateLike;
      const decision = state.toolAttention;
      const answer = gateAnswer(decision as { answers?: GateAnswer[] } | undefined, request.toolCall.id);
      if (answer) return answer;
      const name = request.toolCall.name;
      if (name === SEARCH_TOOL_NAME && searchTool) return answerSearch(router, request.toolCall, state);
      let call = request.toolCall;
      let tool: unknown = request.tool;
      if (name === CALL_TOOL_NAME && callTool) {
        // The dispatcher runs the tool it names: same call id, the real tool's name and arguments.
        [call] = unwrapDispatch([request.toolCall]).map((c) => canonicalCall(c, decision));
        tool = toolsByName.get(call.name) ?? options.resolveTool?.(call.name);
      } else if (!tool && !passthrough.has(name) && router.catalog.getByName(name).length === 0) {
        // A name afterModel did not rewrite (a call reaching the tool node by another route): run the tool the
        // model meant when the name resolves to exactly one active tool; anything else is gated below.
        const meant = canonicalCall(call, decision);
        if (meant.name !== name && decision?.active.includes(meant.name)) {
          call = meant;
          tool = toolsByName.get(meant.name) ?? options.resolveTool?.(meant.name);
        }
      }
      const inCatalog = router.catalog.getByName(call.name).length > 0;
      // A tool registered with the agent outside the catalog (and not quarantined) is the app's own: not gated.
      const outside = !inCatalog && !!tool && usableToolName(call.name) && !router.catalog.quarantineOf(call.name);
      if (!outside) {
        // The gate runs on every call, whatever reached the tool node and however it was bound: quarantine,
        // preconditions on the current state, then the set the model could call.
        const refusal = gateCalls([call], {
          active: decision?.active ?? router.catalog.tools.map((t) => t.name),
          catalog: router.catalog,
          state: stateViewOf(state),
          passthrough,
          runValidCalls: settings.runValidCalls,
        }).messages[0];
        if (refusal) return refusal;
      }
      if (inCatalog && !tool) tool = options.resolveTool?.(call.name);
      const run = call === request.toolCall && tool === request.tool ? request : { ...request, toolCall: call, tool: tool as typeof request.tool };
      const out = await answeringToolErrors(async () => handler(run), call, options.handleToolErrors, request.runtime?.signal);
      // The result joins the next route's intent (when the model stated no plan): embedded while other calls still run.
      if (ToolMessage.isInstance(out) && out.status !== "error") prefetchIntent([...state.messages, out]);
      return out;
    },
  });
  return Object.assign(middleware, { router });
}
