/**
 * Tool Attention as `createAgent` middleware (langchain v1).
 *
 * - beforeModel: routes the turn (latest user message, current scopes/milestones/tool outputs) and stores
 *   the decision in state.
 * - wrapModelCall: binds only the active tools (tools outside the catalog, e.g. other middleware's, pass
 *   through) and appends the Phase-1 summary pool to the system message.
 * - afterModel: the hallucination gate. Each call to a tool outside the active set gets an error ToolMessage
 *   with the same tool_call_id; if nothing is left to run, the agent jumps back to the model to recover.
 * - wrapToolCall: a second line of defence for calls that reach the tool node by another route (the agent's
 *   ToolNode runs any registered tool the model names, even one that was not bound).
 */
import { createMiddleware } from "langchain";
import { SystemMessage } from "@langchain/core/messages";
import { z } from "zod/v3";
import type { ToolCatalog } from "../../core/catalog/catalog.js";
import { ToolAttentionRouter, type RouterOptions } from "../../core/router/router.js";
import type { ToolAttentionEvent } from "../../core/events/events.js";
import { routingEventOf } from "../../core/events/events.js";
import type { Precondition } from "../../core/types.js";
import { catalogFromLangChainTools, type LangChainToolLike } from "./tools.js";
import { emitToCallbacks, gateCalls, stateViewOf } from "./messages.js";
import { gateTurn, routeTurn, type ToolAttentionDecisionState, type ToolAttentionStateLike } from "./turn.js";

export interface ToolAttentionMiddlewareOptions extends Omit<RouterOptions, "onEvent"> {
  /** The tools to route over: the same array you give `createAgent` (or use `catalog`). */
  tools?: LangChainToolLike[];
  /** A prebuilt catalog (e.g. from MCP servers) instead of `tools`. */
  catalog?: ToolCatalog;
  /** A prebuilt router (shares its embedded catalog across agents); overrides catalog/tools/router options. */
  router?: ToolAttentionRouter;
  /** Preconditions by tool name, added to what tools declare in `metadata.toolAttention.preconditions`. */
  preconditions?: Record<string, Precondition | Precondition[]>;
  /** Also register `tools` with the agent, so they need not be passed to `createAgent` too. Default false. */
  registerTools?: boolean;
  /** Append the Phase-1 summary pool to the system message. Default true. */
  includePool?: boolean;
  /**
   * Consecutive model turns whose calls were all rejected before the gate stops sending the model back
   * (the agent then ends with the error results, instead of looping). Default 3.
   */
  maxRejectedRounds?: number;
  /** Receives one event per routing decision and per gate rejection. Also sent to LangChain callbacks. */
  onEvent?: (event: ToolAttentionEvent) => void;
}

const decisionSchema = z.object({
  turnId: z.string(),
  queryHash: z.string(),
  active: z.array(z.string()),
  gatedOut: z.array(z.object({ name: z.string(), reason: z.string() })),
  rejectedRounds: z.number(),
});

const stateSchema = z.object({
  /** Auth scopes currently held; the app or tools (via Command updates) set them. */
  scopes: z.array(z.string()).default([]),
  /** Workflow milestones reached; the app or tools set them. */
  milestones: z.array(z.string()).default([]),
  /** The latest routing decision (set by the middleware). */
  toolAttention: decisionSchema.optional(),
});

function resolveRouter(options: ToolAttentionMiddlewareOptions, onEvent: (e: ToolAttentionEvent) => void): ToolAttentionRouter {
  if (options.router) return options.router;
  const catalog =
    options.catalog ??
    (options.tools
      ? catalogFromLangChainTools(options.tools, { preconditions: options.preconditions, encoding: options.encoding })
      : undefined);
  if (!catalog)
    throw new Error("toolAttentionMiddleware needs `tools` (the same array you pass to createAgent), a `catalog`, or a `router`.");
  return new ToolAttentionRouter(catalog, { ...options, onEvent });
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
  const emit = (event: ToolAttentionEvent) => {
    options.onEvent?.(event);
    void emitToCallbacks(event);
  };
  // A router the caller built keeps its own onEvent; ours forwards its events to callbacks as well.
  const router = resolveRouter(options, (e) => emit(e));
  const catalog = router.catalog;
  const maxRejectedRounds = options.maxRejectedRounds ?? 3;
  const includePool = options.includePool ?? true;
  // Names of bound tools outside the catalog (other middleware's, provider tools): never filtered or gated.
  const passthrough = new Set<string>();

  const middleware = createMiddleware({
    name: "ToolAttention",
    stateSchema,
    tools: options.registerTools ? ((options.tools ?? []) as never[]) : undefined,

    beforeModel: async (state) => {
      const { decision, toolAttention } = await routeTurn(router, state as ToolAttentionStateLike);
      if (options.router) emit(routingEventOf(decision));
      return { toolAttention };
    },

    wrapModelCall: async (request, handler) => {
      const decision = request.state.toolAttention as ToolAttentionDecisionState | undefined;
      if (!decision) return handler(request);
      const active = new Set(decision.active);
      const tools = request.tools.filter((tool) => {
        const name = (tool as { name?: unknown }).name;
        if (typeof name !== "string" || catalog.getByName(name).length === 0) {
          if (typeof name === "string") passthrough.add(name);
          return true;
        }
        return active.has(name);
      });
      let systemMessage = request.systemMessage;
      if (includePool) {
        const pool = router.pool();
        const existing = systemMessage ? systemMessage.text : "";
        systemMessage = existing ? systemMessage.concat(`\n\n${pool}`) : new SystemMessage(pool);
      }
      return handler({ ...request, tools, systemMessage });
    },

    afterModel: {
      canJumpTo: ["model"],
      hook: async (state) => {
        const result = gateTurn(router, state as ToolAttentionStateLike, { passthrough, maxRejectedRounds });
        if (!result || !("event" in result)) return result;
        emit(result.event);
        const update = { messages: result.messages, toolAttention: result.toolAttention };
        // Allowed calls still run (the agent sends pending calls to the tool node); when none is left,
        // the model goes back with the errors so it can recover.
        return result.backToModel ? { ...update, jumpTo: "model" as const } : update;
      },
    },

    wrapToolCall: async (request, handler) => {
      const name = request.toolCall.name;
      const decision = request.state.toolAttention as ToolAttentionDecisionState | undefined;
      if (!decision || passthrough.has(name) || decision.active.includes(name)) return handler(request);
      if (catalog.getByName(name).length === 0 && request.tool) return handler(request); // registered outside the catalog
      const gate = gateCalls([request.toolCall], {
        active: decision.active,
        catalog,
        state: stateViewOf(request.state as ToolAttentionStateLike),
        passthrough,
      });
      return gate.messages[0] ?? handler(request);
    },
  });
  return Object.assign(middleware, { router });
}
