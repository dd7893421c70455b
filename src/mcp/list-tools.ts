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
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { JsonSchema, ToolSpec } from "../core/types.js";
import { jsonSafe, MAX_SCHEMA_DEPTH } from "../core/catalog/input-checks.js";
import { mcpToolNameProblem, quotedName } from "../core/catalog/tool-name.js";

/**
 * Bounds on one server's `tools/list` (all pages together). A server past any of them fails alone with an error
 * naming it and the bound (its connection is marked failed, phase "list"); the other servers are not affected.
 * Without bounds a server that keeps answering with a cursor and a page of tools grows the process until it dies.
 */
export interface McpListLimits {
  /**
   * Most tools one server may list. Default 5,000: the largest real server measured lists a few hundred, and a
   * catalog of thousands of tools from one server is past what routing or a model can use.
   */
  maxTools?: number;
  /**
   * Most characters of tool JSON (the tools as the server sent them, measured as their JSON text) one server may
   * list. Default 16,000,000 (16 MB of ASCII): real servers send at most a few hundred kB.
   */
  maxBytes?: number;
  /** Longest the whole listing may take, all pages (ms). Default 120,000. Each page also has the request timeout. */
  timeoutMs?: number;
  /** Most pages. Default 1,000. */
  maxPages?: number;
}

/** The bounds used when a field of `McpListLimits` is not given. */
export const DEFAULT_LIST_LIMITS: Readonly<Required<McpListLimits>> = Object.freeze({
  maxTools: 5_000,
  maxBytes: 16_000_000,
  timeoutMs: 120_000,
  maxPages: 1_000,
});

/** A server's `tools/list` went past one of its bounds. */
export class McpListLimitError extends Error {
  constructor(
    readonly server: string,
    readonly bound: keyof McpListLimits,
    readonly limit: number,
    message: string,
  ) {
    super(message);
    this.name = "McpListLimitError";
  }
}

/** Checks limits given by a caller: each a positive finite number. Throws naming the field. */
export function resolveListLimits(limits: McpListLimits = {}): Required<McpListLimits> {
  const out = { ...DEFAULT_LIST_LIMITS, ...limits };
  for (const key of Object.keys(DEFAULT_LIST_LIMITS) as (keyof McpListLimits)[])
    if (typeof out[key] !== "number" || !(out[key] > 0))
      throw new Error(`Invalid listLimits.${key}: ${String(out[key])} (expected a number > 0)`);
  return out;
}

/**
 * The JSON size (characters) and nesting depth of a parsed value, walked without recursion so a value nested
 * 100,000 levels deep costs no stack. Stops counting once `budget` characters are passed. An object met twice (a
 * shared or cyclic reference, which only an in-process client can hand over) is counted once and marks `shared`.
 */
function measureJson(value: unknown, budget = Infinity): { chars: number; depth: number; shared: boolean } {
  let chars = 0;
  let depth = 0;
  let shared = false;
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0 && chars <= budget) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v === "string") chars += v.length + 2;
    else if (typeof v === "number" || typeof v === "boolean") chars += String(v).length;
    else if (v === null) chars += 4;
    else if (typeof v === "object") {
      if (seen.has(v)) {
        shared = true;
        continue;
      }
      seen.add(v);
      if (d > depth) depth = d;
      if (Array.isArray(v)) {
        chars += 2 + v.length;
        for (const x of v) stack.push([x, d + 1]);
      } else {
        const keys = Object.keys(v);
        chars += 2 + keys.length;
        for (const k of keys) {
          chars += k.length + 3;
          stack.push([(v as Record<string, unknown>)[k], d + 1]);
        }
      }
    }
  }
  return { chars, depth, shared };
}

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
  // Only names in MCP's grammar are taken: nothing a server puts in a name (a line break, markup, a look-alike
  // letter) reaches the catalog, the prompt or the gate. Reported by position; the name itself only escaped.
  const badName = mcpToolNameProblem(name);
  if (badName) return { skip: `tool #${position} ${quotedName(name)} is not a valid MCP tool name (${badName}); left out`, tool: `#${position}` };
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
 * Lists every tool of a connected server, following `nextCursor`, with per-tool repair, within `limits`
 * (see `McpListLimits`). Throws when the server cannot answer at all, or goes past a bound (`McpListLimitError`);
 * the caller reports that as a server failure.
 */
export async function listMcpToolsTolerant(
  client: Pick<Client, "request">,
  server: string,
  options: { timeoutMs?: number; maxPages?: number; limits?: McpListLimits } = {},
): Promise<McpListResult> {
  const limits = resolveListLimits({ ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}), ...options.limits });
  const result: McpListResult = { tools: [], warnings: [], skipped: [] };
  const seen = new Set<string>();
  const seenCursors = new Set<string>();
  const deadline = performance.now() + limits.timeoutMs;
  const over = (bound: keyof McpListLimits, what: string) =>
    new McpListLimitError(
      server,
      bound,
      limits[bound],
      `tools/list of server "${server}" went past listLimits.${bound} = ${limits[bound].toLocaleString("en-US")} (${what}); ` +
        `the server is left out. If it really lists that much, raise listLimits.${bound}.`,
    );
  let cursor: string | undefined;
  let position = 0;
  let listed = 0;
  let chars = 0;
  for (let page = 0; ; page++) {
    if (page >= limits.maxPages) throw over("maxPages", `it still returned a cursor after ${page.toLocaleString("en-US")} pages`);
    const remaining = deadline - performance.now();
    if (remaining <= 0) throw over("timeoutMs", `${page} pages in ${limits.timeoutMs.toLocaleString("en-US")} ms`);
    // The request gets what is left of the listing's time when that is shorter than its own timeout; a request
    // that then times out has used up the listing's bound (timers may fire a moment early, so not judged by clock).
    const byDeadline = options.timeoutMs === undefined || remaining <= options.timeoutMs;
    const timeout = Math.max(1, Math.min(options.timeoutMs ?? remaining, remaining));
    let answer: z.infer<typeof PermissiveListResult>;
    try {
      answer = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, PermissiveListResult, { timeout });
    } catch (err) {
      const timedOut = (err as { code?: unknown }).code === ErrorCode.RequestTimeout;
      if (performance.now() >= deadline || (timedOut && byDeadline))
        throw over("timeoutMs", `${page} pages in ${limits.timeoutMs.toLocaleString("en-US")} ms`);
      throw err;
    }
    listed += answer.tools.length;
    if (listed > limits.maxTools) throw over("maxTools", `${listed.toLocaleString("en-US")} tools after ${page + 1} pages`);
    for (let raw of answer.tools) {
      const size = measureJson(raw, limits.maxBytes - chars);
      chars += size.chars;
      if (chars > limits.maxBytes) throw over("maxBytes", `more than that in ${page + 1} pages`);
      let deep: string | undefined;
      if (size.depth > MAX_SCHEMA_DEPTH) {
        // Every recursive walk downstream (JSON.stringify, schema converters) would overflow the stack on it:
        // the parts below the cap accept any value, as the catalog does for schemas it is handed directly.
        raw = jsonSafe(raw).value;
        deep = `nested ${size.depth.toLocaleString("en-US")} levels deep, deeper than ${MAX_SCHEMA_DEPTH} levels; deeper parts accept any value`;
      } else if (size.shared) {
        // A cycle (only an in-process client can send one) would hang every walk: cut, as the catalog would.
        const safe = jsonSafe(raw);
        if (safe.value !== raw) deep = safe.problems.join("; ");
        raw = safe.value;
      }
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
      if (deep) result.warnings.push(`server "${server}", tool "${checked.spec.name}": ${deep}`);
      result.tools.push({ spec: checked.spec, raw: raw as Record<string, unknown> });
    }
    cursor = answer.nextCursor;
    if (!cursor) break;
    // A server that hands back a cursor it already gave would loop forever.
    if (seenCursors.has(cursor)) {
      result.warnings.push(`server "${server}": tools/list repeated cursor ${JSON.stringify(cursor.slice(0, 80))}; stopped paging`);
      break;
    }
    seenCursors.add(cursor);
  }
  return result;
}
