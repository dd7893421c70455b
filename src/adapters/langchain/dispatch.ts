/**
 * The tools deferred delivery binds and the text it delivers with: `search_tools` and `call_tool` (constant
 * definitions, so the cached prefix never moves), every catalog tool's deferred declaration (Anthropic), and the
 * dispatcher's TERSE tool list (models without mid-conversation tool changes), with the unwrapping of a `call_tool`
 * call into a call of the tool it names.
 */
import type { ToolCatalog } from "../../core/catalog/catalog.js";
import { renderTerse } from "../../core/compaction/terse.js";
import { oneLine } from "../../core/render/render.js";
import type { JsonSchema } from "../../core/types.js";
import { jsonSchemaOfTool, toolNameOf } from "./compact-tools.js";

/**
 * Name of the client-side search tool: bound under `deferred` (Anthropic needs one non-deferred tool) and, with
 * `searchTool` (default), under `rebind` and `stable`.
 */
export const SEARCH_TOOL_NAME = "search_tools";
/**
 * Name of the dispatcher bound under `deferred` on providers without native deferral (OpenAI and others): the
 * tools array stays constant (search_tools, call_tool), routed tools' schemas enter the conversation as text
 * after the history, and the model calls them through call_tool.
 */
export const CALL_TOOL_NAME = "call_tool";

/** A raw Anthropic tool definition for a LangChain tool (or plain definition), memoized per object. */
const anthropicDefs = new WeakMap<object, Record<string, unknown>>();
export function anthropicDef(tool: unknown): Record<string, unknown> | undefined {
  if (!tool || typeof tool !== "object") return undefined;
  const hit = anthropicDefs.get(tool);
  if (hit) return hit;
  const name = toolNameOf(tool);
  const t = tool as { description?: unknown; input_schema?: unknown; schema?: unknown };
  const schema = t.input_schema ?? (t.schema && typeof t.schema === "object" && !("_def" in t.schema) && !("~standard" in t.schema) ? t.schema : jsonSchemaOfTool(tool));
  if (!name || !schema) return undefined;
  const def = { name, description: String(t.description ?? ""), input_schema: schema };
  anthropicDefs.set(tool, def);
  return def;
}

/** The deferred declaration of every catalog tool (byte-stable per catalog and tool objects). */
const deferredDecls = new WeakMap<ToolCatalog, Map<string, Record<string, unknown>>>();
export function deferredDecl(catalog: ToolCatalog, name: string, tool: unknown): Record<string, unknown> | undefined {
  let perCatalog = deferredDecls.get(catalog);
  if (!perCatalog) deferredDecls.set(catalog, (perCatalog = new Map()));
  let decl = perCatalog.get(name);
  if (!decl) {
    const def = tool ? anthropicDef(tool) : undefined;
    const record = catalog.getByName(name)[0];
    const fallback = record ? { name, description: record.description, input_schema: record.inputSchema } : undefined;
    const base = def ?? fallback;
    if (!base) return undefined;
    decl = { ...base, defer_loading: true };
    perCatalog.set(name, decl);
  }
  return decl;
}

/** The search tool's definition (non-deferred), shown to the model under every delivery but `all` (see `searchTool`). */
export const SEARCH_TOOL_DEF = {
  name: SEARCH_TOOL_NAME,
  description:
    "Find tools by describing what you want to do. Returns the best matching tools, one line each; they become callable on your next step.",
  input_schema: {
    type: "object",
    properties: { query: { type: "string", description: "What you want to do, in your own words." } },
    required: ["query"],
  },
};

/** search_tools and call_tool as provider-neutral definitions (`bindTools` converts them for any provider). */
export const SEARCH_TOOL_LC = { name: SEARCH_TOOL_NAME, description: SEARCH_TOOL_DEF.description, schema: SEARCH_TOOL_DEF.input_schema };
export const CALL_TOOL_DEF = {
  name: CALL_TOOL_NAME,
  description:
    "Call one of the tools listed in this conversation (under \"Tools you can call through call_tool\") by its exact name, with its arguments as an object matching that tool's parameters.",
  schema: {
    type: "object",
    properties: {
      name: { type: "string", description: "The tool's exact name." },
      arguments: { type: "object", description: "The tool's arguments, as its parameters describe." },
    },
    required: ["name", "arguments"],
  },
};

/** The dispatcher as a raw Anthropic tool definition (ChatAnthropic passes it through unchanged). */
export const CALL_TOOL_ANTHROPIC = { name: CALL_TOOL_NAME, description: CALL_TOOL_DEF.description, input_schema: CALL_TOOL_DEF.schema };

/**
 * call_tool beside native deferral (Claude models that take `tool_addition`): delivered tools are called directly,
 * and this reaches a catalog tool that was not delivered. A deferred tool the conversation has not loaded cannot
 * be called by its own name, so without it a tool the model knows only from the pool would cost a round trip even
 * when the pool line gives everything its call needs.
 */
export const CALL_TOOL_NATIVE_ANTHROPIC = {
  name: CALL_TOOL_NAME,
  description:
    "Call a tool from the tool catalog that is not attached to this conversation, by its exact name, with its arguments as an object fitting the parameters its catalog line names. Call attached tools directly.",
  input_schema: CALL_TOOL_DEF.schema,
};

/**
 * The header of a dispatcher delivery: how to call the tools below, and how to read their TERSE lines (`?` an
 * optional parameter, `=x` its default, `a|b` an enum, `[T]` an array of T).
 */
export const DISPATCH_HEADER =
  'Tools you can call through call_tool ({"name": <tool>, "arguments": {...}}). Each tool: TOOL name, PURPOSE, ' +
  "IN one parameter per line as name:type — description (? optional, =default, a|b one of, [T] array of T).";

/** A schema with every string and property name on one line (line and paragraph separators become spaces). */
function flatTexts(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return oneLine(value);
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => flatTexts(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, oneLine(k), { value: flatTexts(v, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

/** The text that delivers tools to a dispatcher conversation (byte-stable per catalog and tool list). */
const dispatchTexts = new WeakMap<ToolCatalog, Map<string, string>>();
export function dispatchText(catalog: ToolCatalog, names: readonly string[], find: (name: string) => unknown): string {
  let perCatalog = dispatchTexts.get(catalog);
  if (!perCatalog) dispatchTexts.set(catalog, (perCatalog = new Map()));
  const key = names.join("\n");
  let text = perCatalog.get(key);
  if (text === undefined) {
    // TERSE lines, not JSON: the same names, types, required fields, enums, formats and constraints in about two
    // thirds of the tokens (measured on the 464-tool real catalog), and every schema delivered here stays in the
    // history, re-read on each later call. Descriptions are rendered on their line, so none can start a section.
    const blocks = names.map((name) => {
      const decl = deferredDecl(catalog, name, find(name));
      // Every text from the server is flattened onto one line first, so each line of the block starts with what
      // renderTerse writes (TOOL, PURPOSE, IN, a parameter): no description, parameter name or enum value can start
      // a line that reads as another tool or a new section of this system-role message.
      const schema = flatTexts((decl?.input_schema as JsonSchema | undefined) ?? { type: "object" }) as JsonSchema;
      return renderTerse({ name: oneLine(name), description: oneLine(String(decl?.description ?? "")), inputSchema: schema });
    });
    text = `${DISPATCH_HEADER}\n${blocks.join("\n")}`;
    perCatalog.set(key, text);
  }
  return text;
}

/** The text delivering `names` to a dispatcher conversation, from the catalog's schemas (the replay uses it). */
export function dispatchTextOf(catalog: ToolCatalog, names: readonly string[]): string {
  return dispatchText(catalog, names, () => undefined);
}

/**
 * The model's calls as the gate and the tool node see them: a call_tool call becomes a call of the tool it names
 * (same id), so preconditions, promotion and the one-answer-per-call rule apply to the real tool.
 */
export function unwrapDispatch<T extends { id?: string; name: string; args?: Record<string, unknown> }>(calls: readonly T[]): T[] {
  return calls.map((c) => {
    if (c.name !== CALL_TOOL_NAME) return c;
    const inner = typeof c.args?.name === "string" ? c.args.name : "";
    const args = c.args?.arguments && typeof c.args.arguments === "object" ? (c.args.arguments as Record<string, unknown>) : {};
    return { ...c, name: inner || CALL_TOOL_NAME, args };
  });
}

