/**
 * Tolerant `tools/list`. The MCP SDK's `Client.listTools()` validates the whole answer at once, so one tool
 * whose `inputSchema` lacks `"type": "object"` (every tool of server-gitlab 2025.4.25) costs the whole server.
 * Here the answer is taken with a permissive schema and each tool is checked on its own: a fixable tool is kept
 * with a repaired schema and a warning, an unusable one is skipped with its reason, and the rest stay.
 *
 * What a tool declared is kept verbatim (anyOf/oneOf/allOf, $defs, outputSchema, annotations): Phase 2 shows
 * the model the server's own schema, not a flattened copy.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";
import type { JsonSchema, ToolSpec } from "../core/types.js";

/** One tool as the server declared it (after repair), plus its raw JSON for cost accounting. */
export interface McpToolListing {
  spec: ToolSpec;
  /** The tool object exactly as the server sent it. */
  raw: Record<string, unknown>;
}

/** What a tolerant listing found. */
export interface McpListResult {
  tools: McpToolListing[];
  /** Kept tools that needed a repair; each names server and tool. */
  warnings: string[];
  /** Tools left out, each with the reason. */
  skipped: { server: string; tool: string; reason: string }[];
}

/** Accepts any `tools/list` answer shape; tools are checked one by one afterwards. */
const PermissiveListResult = z
  .object({ tools: z.array(z.unknown()).default([]), nextCursor: z.string().optional() })
  .passthrough();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks one raw tool. Returns the spec to keep (with warnings for what was repaired) or the reason to skip it.
 * Exported for callers that list tools through another client.
 */
export function repairMcpTool(
  raw: unknown,
  server: string,
  position: number,
): { spec: ToolSpec; warnings: string[] } | { skip: string; tool: string } {
  if (!isPlainObject(raw)) return { skip: `tool #${position} is not an object`, tool: `#${position}` };
  const name = raw.name;
  if (typeof name !== "string" || name.trim() === "") return { skip: `tool #${position} has no "name"`, tool: `#${position}` };
  const warnings: string[] = [];
  const warn = (what: string) => warnings.push(`server "${server}", tool "${name}": ${what}`);

  let inputSchema: JsonSchema;
  const declared = raw.inputSchema;
  if (declared === undefined || declared === null) {
    inputSchema = { type: "object", properties: {} };
    warn(`no "inputSchema"; treated as taking no arguments`);
  } else if (!isPlainObject(declared)) {
    return { skip: `"inputSchema" is ${Array.isArray(declared) ? "an array" : typeof declared}, not a JSON Schema object`, tool: name };
  } else if (declared.type === undefined) {
    // An object schema that forgot its type (e.g. only "$schema"): MCP requires an object, so say so.
    inputSchema = { ...declared, type: "object" };
    warn(`"inputSchema" has no "type"; repaired to an object schema${isPlainObject(declared.properties) ? "" : " without declared parameters"}`);
  } else if (declared.type !== "object") {
    return { skip: `"inputSchema.type" is ${JSON.stringify(declared.type)}; MCP tool arguments must be an object`, tool: name };
  } else {
    inputSchema = declared;
  }
  if (inputSchema.properties !== undefined && !isPlainObject(inputSchema.properties)) {
    const { properties: _p, ...rest } = inputSchema;
    inputSchema = rest;
    warn(`"inputSchema.properties" is not an object; dropped`);
  }

  const spec: ToolSpec = { name, inputSchema };
  if (typeof raw.description === "string") spec.description = raw.description;
  else if (raw.description !== undefined) warn(`"description" is not a string; dropped`);
  if (typeof raw.title === "string") spec.title = raw.title;
  if (isPlainObject(raw.outputSchema)) spec.outputSchema = raw.outputSchema;
  else if (raw.outputSchema !== undefined) warn(`"outputSchema" is not an object; dropped`);
  if (isPlainObject(raw.annotations)) spec.annotations = raw.annotations;
  return { spec, warnings };
}

/**
 * Lists every tool of a connected server, following `nextCursor`, with per-tool repair.
 * Throws only when the server cannot answer at all (the caller reports that as a server failure).
 */
export async function listMcpToolsTolerant(
  client: Pick<Client, "request">,
  server: string,
  options: { timeoutMs?: number; maxPages?: number } = {},
): Promise<McpListResult> {
  const result: McpListResult = { tools: [], warnings: [], skipped: [] };
  const seen = new Set<string>();
  const seenCursors = new Set<string>();
  const maxPages = options.maxPages ?? 1000;
  let cursor: string | undefined;
  let position = 0;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      result.warnings.push(`server "${server}": stopped listing after ${maxPages} pages of tools/list`);
      break;
    }
    const answer = await client.request(
      { method: "tools/list", params: cursor ? { cursor } : {} },
      PermissiveListResult,
      options.timeoutMs ? { timeout: options.timeoutMs } : undefined,
    );
    for (const raw of answer.tools) {
      const checked = repairMcpTool(raw, server, position++);
      if ("skip" in checked) {
        result.skipped.push({ server, tool: checked.tool, reason: checked.skip });
        continue;
      }
      if (seen.has(checked.spec.name)) {
        result.skipped.push({ server, tool: checked.spec.name, reason: "listed twice; the first definition is kept" });
        continue;
      }
      seen.add(checked.spec.name);
      result.warnings.push(...checked.warnings);
      result.tools.push({ spec: checked.spec, raw: raw as Record<string, unknown> });
    }
    cursor = answer.nextCursor;
    if (!cursor) break;
    // A server that hands back a cursor it already gave would loop forever.
    if (seenCursors.has(cursor)) {
      result.warnings.push(`server "${server}": tools/list repeated cursor ${JSON.stringify(cursor)}; stopped paging`);
      break;
    }
    seenCursors.add(cursor);
  }
  return result;
}
