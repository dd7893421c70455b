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
 * - wrapToolCall: a second line of defence for calls that reach the tool node by another route (the agent's
 *   ToolNode runs any registered tool the model names, even one that was not bound).
 */
import { createMiddleware } from "langchain";
import { SystemMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod/v3";
import { gateCalls, stateViewOf } from "./messages.js";
import { compactBoundTools } from "./compact-tools.js";
import type { Phase2CompactionOptions } from "../../core/compaction/phase2.js";
import {
  adapterRouter,
  eventEmitter,
  gateTurn,
  routeTurn,
  turnSettings,
  type AdapterRouterOptions,
  type ToolAttentionDecisionState,
  type ToolAttentionStateLike,
} from "./turn.js";

export interface ToolAttentionMiddlewareOptions extends AdapterRouterOptions {
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
   * Compaction of the active tools' parameter schemas (short list, $ref dedup, ref inlining); the tools are
   * bound as plain `{name, description, schema}` definitions and still run as registered. Default none.
   */
  phase2?: Phase2CompactionOptions;
  /**
   * Supplies catalog tools that were not registered with `createAgent`, e.g. tools an MCP server added at
   * run time (`McpSession.resolveTool`). When such a tool is active it is bound for the model, and its calls
   * execute through wrapToolCall.
   */
  resolveTool?: (name: string) => StructuredToolInterface | undefined;
}

const decisionSchema = z.object({
  turnId: z.string(),
  queryHash: z.string(),
  active: z.array(z.string()),
  gatedOut: z.array(z.object({ name: z.string(), reason: z.string() })),
  rejectedRounds: z.number(),
  sticky: z.array(z.object({ name: z.string(), turns: z.number() })).optional(),
  promoted: z.array(z.string()).optional(),
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

/**
 * Creates the Tool Attention middleware.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 5 })] });
 * ```
 */
export function toolAttentionMiddleware(options: ToolAttentionMiddlewareOptions) {
  const emit = eventEmitter(options.onEvent);
  const router = adapterRouter(options, "toolAttentionMiddleware");
  // router.catalog is read on every use: a catalog update (replaceCatalog) swaps it.
  const maxRejectedRounds = options.maxRejectedRounds ?? 3;
  const includePool = options.includePool ?? true;
  const settings = turnSettings(options);
  // Names of bound tools outside the catalog (other middleware's, provider tools): never filtered or gated.
  const passthrough = new Set<string>();

  const middleware = createMiddleware({
    name: "ToolAttention",
    stateSchema,
    tools: options.registerTools ? ((options.tools ?? []) as never[]) : undefined,

    beforeModel: async (state) => {
      const { toolAttention } = await routeTurn(router, state as ToolAttentionStateLike, emit, settings);
      return { toolAttention };
    },

    wrapModelCall: async (request, handler) => {
      const decision = request.state.toolAttention as ToolAttentionDecisionState | undefined;
      if (!decision) return handler(request);
      const active = new Set(decision.active);
      const tools = request.tools.filter((tool) => {
        const name = (tool as { name?: unknown }).name;
        if (typeof name !== "string" || router.catalog.getByName(name).length === 0) {
          if (typeof name === "string") passthrough.add(name);
          return true;
        }
        return active.has(name);
      });
      if (options.resolveTool) {
        const bound = new Set(tools.map((t) => (t as { name?: unknown }).name));
        for (const name of decision.active) {
          if (bound.has(name) || router.catalog.getByName(name).length === 0) continue;
          const tool = options.resolveTool(name);
          if (tool) tools.push(tool as (typeof tools)[number]);
        }
      }
      let systemMessage = request.systemMessage;
      if (includePool) {
        const pool = router.pool();
        const existing = systemMessage ? systemMessage.text : "";
        systemMessage = existing ? systemMessage.concat(`\n\n${pool}`) : new SystemMessage(pool);
      }
      const bound = compactBoundTools(tools, options.phase2, request.model) as typeof tools;
      return handler({ ...request, tools: bound, systemMessage });
    },

    afterModel: {
      canJumpTo: ["model"],
      hook: async (state) => {
        const result = gateTurn(router, state as ToolAttentionStateLike, {
          passthrough,
          maxRejectedRounds,
          promoteOnRequest: settings.promoteOnRequest,
        });
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
      const inCatalog = router.catalog.getByName(name).length > 0;
      const resolved = inCatalog && !request.tool ? options.resolveTool?.(name) : undefined;
      const run = resolved ? { ...request, tool: resolved } : request;
      if (!decision || passthrough.has(name) || (inCatalog && decision.active.includes(name))) return handler(run);
      if (!inCatalog && request.tool) return handler(request); // registered outside the catalog
      const gate = gateCalls([request.toolCall], {
        active: decision.active,
        catalog: router.catalog,
        state: stateViewOf(request.state as ToolAttentionStateLike),
        passthrough,
      });
      return gate.messages[0] ?? handler(request);
    },
  });
  return Object.assign(middleware, { router });
}
