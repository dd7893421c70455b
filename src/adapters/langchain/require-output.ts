/**
 * requireOutput as `createAgent` middleware: a tool with a declared output schema takes an optional
 * `requireOutput: ["field", "nested.field"]` argument, and its result is filtered to those fields before the
 * model reads it.
 *
 * - wrapModelCall (advertising): each bound tool with an output schema is replaced by a plain definition
 *   `{name, description, schema}` whose schema has the `requireOutput` argument, listing the valid fields.
 *   A plain definition is not a tool instance, so createAgent accepts it under the registered name and its
 *   ToolNode still runs the registered tool. Tools another middleware removed stay removed.
 * - wrapToolCall: the argument is taken out before the tool runs (the tool never sees it). Unknown fields get
 *   one error ToolMessage naming the tool, the bad fields and the valid ones, and the tool is not run.
 *   Otherwise the result's JSON text, content blocks and MCP `structuredContent` artifact are filtered.
 *
 * Put it after `toolAttentionMiddleware` in the middleware list (either order works; after is cheaper because
 * only the active tools are rewritten).
 */
import { createMiddleware } from "langchain";
import { ToolMessage } from "@langchain/core/messages";
import type { ToolCatalog } from "../../core/catalog/catalog.js";
import type { JsonSchema } from "../../core/types.js";
import {
  REQUIRE_OUTPUT_ARG,
  checkRequiredOutput,
  filterJsonText,
  filterToolResult,
  outputFields,
  withRequireOutputParameter,
} from "../../core/compaction/require-output.js";
import type { Phase2CompactionOptions } from "../../core/compaction/phase2.js";
import { isPlainObject } from "../../core/compaction/schema-walk.js";
import { compactToolDefinition, toolNameOf, type ToolDefinitionLike } from "./compact-tools.js";

export interface RequireOutputMiddlewareOptions {
  /** Output schemas by tool name (e.g. the `outputSchema`s of an MCP server's `tools/list`). */
  outputSchemas?: Record<string, JsonSchema>;
  /** A catalog whose tools carry output schemas; used for names not in `outputSchemas`. */
  catalog?: ToolCatalog;
  /**
   * Add the `requireOutput` argument to the bound definitions so the model knows it exists. Default true.
   * With `false` the argument is still honoured (e.g. when the prompt documents it).
   */
  advertise?: boolean;
  /** Phase-2 compaction applied to the definitions this middleware rewrites. Default none. */
  compaction?: Phase2CompactionOptions;
}

function outputSchemaFrom(options: RequireOutputMiddlewareOptions, name: string, tool: unknown): JsonSchema | undefined {
  if (options.outputSchemas && Object.hasOwn(options.outputSchemas, name)) return options.outputSchemas[name];
  const fromCatalog = options.catalog?.getByName(name)[0]?.outputSchema;
  if (fromCatalog) return fromCatalog;
  // Tools built by hand may carry their MCP output schema in metadata.
  const meta = (tool as { metadata?: { outputSchema?: unknown } } | undefined)?.metadata?.outputSchema;
  return isPlainObject(meta) ? meta : undefined;
}

/** Filters the visible parts of a tool's answer: text content, content blocks, and a structured artifact. */
function filterToolMessage(message: ToolMessage, fields: readonly string[]): ToolMessage {
  if (message.status === "error") return message;
  const content = typeof message.content === "string"
    ? filterJsonText(message.content, fields)
    : (filterToolResult(message.content, fields) as ToolMessage["content"]);
  const artifact = message.artifact === undefined ? undefined : filterToolResult(message.artifact, fields);
  return new ToolMessage({
    content,
    artifact,
    tool_call_id: message.tool_call_id,
    name: message.name,
    status: message.status,
    id: message.id,
    response_metadata: message.response_metadata,
  });
}

/**
 * Creates the requireOutput middleware.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   model, tools,
 *   middleware: [toolAttentionMiddleware({ tools }), requireOutputMiddleware({ outputSchemas })],
 * });
 * ```
 */
export function requireOutputMiddleware(options: RequireOutputMiddlewareOptions = {}) {
  const advertise = options.advertise ?? true;
  const compaction = options.compaction ?? {};
  // Rewritten definitions, once per tool object.
  const definitions = new WeakMap<object, ToolDefinitionLike | null>();


  function definitionFor(tool: unknown): unknown {
    if (!tool || typeof tool !== "object") return tool;
    let def = definitions.get(tool);
    if (def === undefined) {
      const name = toolNameOf(tool);
      const schema = name ? outputSchemaFrom(options, name, tool) : undefined;
      def = null;
      if (name && schema && outputFields(schema).length > 0) {
        def = compactToolDefinition(tool, compaction, (params) => withRequireOutputParameter(params, outputFields(schema))) ?? null;
      }
      definitions.set(tool, def);
    }
    return def ?? tool;
  }

  return createMiddleware({
    name: "RequireOutput",

    wrapModelCall: async (request, handler) => {
      if (!advertise) return handler(request);
      const tools = request.tools.map((t) => definitionFor(t));
      return handler({ ...request, tools: tools as typeof request.tools });
    },

    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const args = call.args as Record<string, unknown> | undefined;
      if (!args || !Object.hasOwn(args, REQUIRE_OUTPUT_ARG)) return handler(request);
      const { [REQUIRE_OUTPUT_ARG]: fields, ...rest } = args;
      // An explicit null/empty list means "everything".
      if (fields === null || (Array.isArray(fields) && fields.length === 0))
        return handler({ ...request, toolCall: { ...call, args: rest } });
      const schema = outputSchemaFrom(options, call.name, request.tool);
      const error = checkRequiredOutput(call.name, schema, fields);
      if (error) {
        return new ToolMessage({ content: JSON.stringify(error), tool_call_id: call.id ?? "", name: call.name, status: "error" });
      }
      const result = await handler({ ...request, toolCall: { ...call, args: rest } });
      return ToolMessage.isInstance(result) ? filterToolMessage(result, fields as string[]) : result;
    },
  });
}
