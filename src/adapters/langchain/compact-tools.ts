/**
 * Phase-2 compaction for LangChain tools: a bound tool is replaced by a plain tool definition
 * `{ name, description, schema }` whose JSON schema is compacted (short list, $ref dedup, ref inlining).
 *
 * Why a plain definition: every LangChain chat model's `bindTools` accepts `{name, description, schema}` with a
 * JSON schema, and createAgent only rejects *tool instances* swapped under a registered name — a plain
 * definition is not a runnable, so the agent's ToolNode still runs the registered tool under that name.
 */
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { JsonSchema } from "../../core/types.js";
import { compactParameters, compactionEnabled, LOSSLESS_PHASE2, type Phase2CompactionOptions } from "../../core/compaction/phase2.js";
import { providerOfModel } from "../../core/compaction/providers.js";
import { isPlainObject } from "../../core/compaction/schema-walk.js";

/** What `bindTools` accepts besides tool instances (LangChain's StructuredToolParams with a JSON schema). */
export interface ToolDefinitionLike {
  name: string;
  description: string;
  schema: JsonSchema;
}

/** The JSON schema of a LangChain tool (zod or JSON), or undefined when it has none or it cannot be converted. */
export function jsonSchemaOfTool(tool: unknown): JsonSchema | undefined {
  const schema = (tool as { schema?: unknown })?.schema;
  if (schema === undefined || schema === null) return undefined;
  try {
    const json = toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]);
    return isPlainObject(json) ? (json as JsonSchema) : undefined;
  } catch {
    return undefined;
  }
}

/** A tool's name, for instances and plain definitions alike (OpenAI `{function: {name}}` too). */
export function toolNameOf(tool: unknown): string | undefined {
  const t = tool as { name?: unknown; function?: { name?: unknown } } | null;
  if (typeof t?.name === "string") return t.name;
  if (typeof t?.function?.name === "string") return t.function.name;
  return undefined;
}

/** Definitions are built once per tool object and options object (the per-turn cost is a lookup). */
const cache = new WeakMap<object, WeakMap<object, ToolDefinitionLike | null>>();

/**
 * The compacted definition of one tool, or undefined when the tool is not an object with a convertible schema
 * (such tools are bound unchanged). `transform` may add to the schema (e.g. the requireOutput argument).
 */
export function compactToolDefinition(
  tool: unknown,
  options: Phase2CompactionOptions,
  transform?: (schema: JsonSchema, name: string) => JsonSchema,
): ToolDefinitionLike | undefined {
  if (!tool || typeof tool !== "object") return undefined;
  // Only transform-free definitions are cached here; callers with a transform cache their own results.
  let perTool = cache.get(tool);
  const cacheable = transform === undefined;
  const hit = cacheable ? perTool?.get(options) : undefined;
  if (hit !== undefined) return hit ?? undefined;
  const name = toolNameOf(tool);
  const schema = jsonSchemaOfTool(tool);
  let def: ToolDefinitionLike | null = null;
  if (name && schema) {
    let parameters = compactParameters(schema, options);
    if (transform) parameters = transform(parameters, name);
    def = { name, description: String((tool as { description?: unknown }).description ?? ""), schema: parameters };
  }
  if (cacheable) {
    if (!perTool) cache.set(tool, (perTool = new WeakMap()));
    perTool.set(options, def);
  }
  return def ?? undefined;
}

/**
 * The tools to bind with Phase-2 compaction applied. Without compaction options the same array is returned.
 * When `options.provider` is not set, the provider is read from the model (`_llmType()`).
 */
export function compactBoundTools<T>(tools: readonly T[], phase2: Phase2CompactionOptions | false | undefined, model?: unknown): (T | ToolDefinitionLike)[] {
  if (phase2 === false) return tools as T[];
  const options = phase2 ?? (LOSSLESS_PHASE2 as Phase2CompactionOptions);
  const resolved = options.provider || model === undefined ? options : resolvedOptions(options, model);
  if (!compactionEnabled(resolved)) return tools as T[];
  return tools.map((t) => compactToolDefinition(t, resolved) ?? t);
}

// One resolved options object per (options, provider), so the definition cache keeps hitting.
const resolvedCache = new WeakMap<Phase2CompactionOptions, Map<string, Phase2CompactionOptions>>();
function resolvedOptions(options: Phase2CompactionOptions, model: unknown): Phase2CompactionOptions {
  const provider = providerOfModel(model);
  let perOptions = resolvedCache.get(options);
  if (!perOptions) resolvedCache.set(options, (perOptions = new Map()));
  let r = perOptions.get(provider);
  if (!r) perOptions.set(provider, (r = { ...options, provider }));
  return r;
}
