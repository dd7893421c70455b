/**
 * LangChain tools → catalog entries. Zod or JSON-schema tools both end up with a plain JSON Schema, and the
 * tool instance is kept as the entry's source so adapters can bind exactly the object the agent registered.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { ToolCatalog, type CatalogEntry, type CatalogOptions } from "../../core/catalog/catalog.js";
import type { JsonSchema, ToolSpec } from "../../core/types.js";
import { closestName } from "../../core/preconditions/preconditions.js";
import { quotedName, unusableNameReason, usableToolName } from "../../core/catalog/tool-name.js";

/** Anything with a name that a LangChain agent accepts as a client tool. */
export type LangChainToolLike = Pick<StructuredToolInterface, "name" | "description"> & {
  schema?: unknown;
  metadata?: Record<string, unknown>;
};

/**
 * Whether a tool name can be bound and called (see `usableToolName` in core/catalog/tool-name.ts, where every
 * component takes it from). Names outside MCP's grammar but otherwise usable are kept: they are the application's
 * own, and its provider says at once when it refuses one.
 */
export { usableToolName };

/** The fields a LangChain tool's `metadata.toolAttention` may carry. */
const TOOL_METADATA_FIELDS = ["server", "tags", "preconditions"];

function schemaOf(tool: LangChainToolLike): JsonSchema {
  const schema = tool.schema;
  if (schema === undefined || schema === null) return { type: "object", properties: {} };
  try {
    return toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]) as JsonSchema;
  } catch (err) {
    throw new Error(`Tool "${tool.name}": cannot convert its schema to JSON Schema: ${(err as Error).message}`);
  }
}

/**
 * The catalog entry of one LangChain tool. `metadata.toolAttention` may carry `tags`, `preconditions`
 * (declarative) and `server`, so tools can declare their own gating rules.
 */
export function entryFromLangChainTool(tool: LangChainToolLike, defaultServer = ""): CatalogEntry {
  const meta = (tool.metadata?.toolAttention ?? {}) as { tags?: string[]; preconditions?: ToolSpec["preconditions"]; server?: string };
  const spec: ToolSpec = {
    name: tool.name,
    description: tool.description,
    inputSchema: schemaOf(tool),
    tags: meta.tags,
    preconditions: meta.preconditions,
  };
  return { server: meta.server ?? defaultServer, spec, source: tool };
}

/** Builds a catalog from the tools you pass to `createAgent` (or bind to a model). */
export function catalogFromLangChainTools(
  tools: readonly LangChainToolLike[],
  options: CatalogOptions & { server?: string } = {},
): ToolCatalog {
  const entries: CatalogEntry[] = [];
  const problems: string[] = [];
  // Strict catalogs (the adapters') stop on a mistake in the application's own tool list.
  const problem = (msg: string) => {
    if (options.strict) throw new Error(msg);
    problems.push(msg);
  };
  const seen = new Map<string, number>();
  tools.forEach((tool, i) => {
    if (!tool || typeof tool !== "object" || typeof (tool as { name?: unknown }).name !== "string") {
      problems.push(`tool #${i} skipped: not a LangChain tool (no string "name")`);
      return;
    }
    if (!usableToolName(tool.name)) {
      // A provider rejects the whole request for one nameless tool: it is left out, said once, and never sent.
      const why = unusableNameReason(tool.name) as string;
      problems.push(
        `tool #${i} skipped: its name ${quotedName(String(tool.name))} is ${String(tool.name).trim() === "" ? "empty; a tool needs a name to be called" : `not a usable tool name (${why})`}`,
      );
      return;
    }
    // The agent runs tools by name: a second tool with the same name can never be called.
    const first = seen.get(tool.name);
    if (first !== undefined)
      problem(`Tool "${tool.name}" is passed twice in \`tools\` (#${first} and #${i}); tool names must be unique`);
    else seen.set(tool.name, i);
    const meta = tool.metadata?.toolAttention;
    if (meta !== undefined && meta !== null && typeof meta === "object")
      for (const key of Object.keys(meta))
        if (!TOOL_METADATA_FIELDS.includes(key)) {
          const near = closestName(key, TOOL_METADATA_FIELDS);
          problem(
            `Tool "${tool.name}": unknown field "${key}" in metadata.toolAttention` +
              `${near ? ` (did you mean "${near}"?)` : ""}; known fields: ${TOOL_METADATA_FIELDS.join(", ")}`,
          );
        }
    try {
      entries.push(entryFromLangChainTool(tool, options.server));
    } catch (err) {
      // Keep the tool routable even when its schema cannot be converted; Phase 2 binds the tool object itself.
      problems.push(`${(err as Error).message}; routed with an empty schema`);
      entries.push({ server: options.server ?? "", spec: { name: tool.name, description: tool.description }, source: tool });
    }
  });
  const catalog = new ToolCatalog(entries, options);
  const log = options.log === false ? undefined : (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)));
  for (const p of problems) {
    catalog.warnings.push(p);
    if (options.onWarning) options.onWarning(p);
    else log?.(`tool-attention: ${p}`);
  }
  return catalog;
}
