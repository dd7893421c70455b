/**
 * Two-phase prompt rendering.
 * Phase 1: a summary pool of ALL tools, one line each, so the model knows what exists. It depends only on
 *   the catalog, so it is rendered once and is byte-identical on every turn (stable for prompt caches).
 * Phase 2: the full schemas of the active tools only, bound to this model call.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import type { ToolRecord } from "../types.js";
import { countTokens, DEFAULT_ENCODING, type TokenEncoding } from "../tokens/count.js";
import type { FullToolSchema } from "../loader/schema-loader.js";
import { renderTerse } from "../compaction/terse.js";
import { compactParameters, compactionEnabled, type Phase2CompactionOptions } from "../compaction/phase2.js";

export const POOL_HEADER =
  "Tool catalog: every tool this agent has, one line each. Only the tools attached to this request can be " +
  "called now; the others are listed so you know what exists and can plan for them.";

/** Header of the TERSE pool: the line format needs one sentence of explanation. */
export const TERSE_POOL_HEADER =
  "Tool catalog: every tool this agent has, one line each (TOOL id: purpose | IN parameters, ? = optional | " +
  "OUT output fields | WHEN preconditions | TAGS). Only the tools attached to this request can be called now; " +
  "the others are listed so you know what exists and can plan for them.";

export interface PoolOptions {
  /** Group lines under `[server]` headings (default true when the catalog has more than one server). */
  groupByServer?: boolean;
  /** Text above the list. Default POOL_HEADER (TERSE_POOL_HEADER with `format: "terse"`). */
  header?: string;
  /**
   * `"line"` (default): `- id: summary`. `"terse"`: `TOOL id: summary | IN a, b? | OUT x | WHEN … | TAGS …`,
   * which also tells the model each tool's parameter names, output fields and preconditions.
   */
  format?: "line" | "terse";
}

const poolCache = new WeakMap<ToolCatalog, Map<string, string>>();

/** The Phase-1 pool text. Memoized per catalog and options, so repeated turns reuse the same string. */
export function renderPool(catalog: ToolCatalog, options: PoolOptions = {}): string {
  const group = options.groupByServer ?? catalog.servers.size > 1;
  const terse = options.format === "terse";
  const header = options.header ?? (terse ? TERSE_POOL_HEADER : POOL_HEADER);
  const key = `${group ? 1 : 0}\0${terse ? "terse" : "line"}\0${header}`;
  let perCatalog = poolCache.get(catalog);
  const hit = perCatalog?.get(key);
  if (hit !== undefined) return hit;

  const lineOf = terse
    ? (t: ToolRecord) => renderTerse(t, { level: "pool", summary: t.summary })
    : (t: ToolRecord) => `- ${t.id}: ${t.summary}`;
  const lines: string[] = [header];
  if (group) {
    const byServer = new Map<string, string[]>();
    for (const t of catalog.tools) {
      const list = byServer.get(t.server) ?? [];
      list.push(lineOf(t));
      byServer.set(t.server, list);
    }
    for (const [server, list] of byServer) {
      lines.push(`[${server || "tools"}]`);
      lines.push(...list);
    }
  } else {
    for (const t of catalog.tools) lines.push(lineOf(t));
  }
  const text = lines.join("\n");
  if (!perCatalog) poolCache.set(catalog, (perCatalog = new Map()));
  perCatalog.set(key, text);
  return text;
}

/**
 * The Phase-2 text of one tool: its MCP object `{name, description, inputSchema}` as compact JSON, or with
 * `"terse"` the TERSE lines (for prompts that describe tools in text rather than bind them).
 */
export function renderFullSchema(schema: FullToolSchema, format: "json" | "terse" = "json"): string {
  if (format === "terse") return renderTerse({ name: schema.name, description: schema.description, inputSchema: schema.inputSchema });
  return JSON.stringify({ name: schema.name, description: schema.description, inputSchema: schema.inputSchema });
}

/**
 * Token counts of full schemas. Memoized per schema object: the loader hands out the same object for a tool
 * until it is invalidated, so the per-turn cost is a WeakMap lookup, not a JSON render + tokenization.
 */
export class SchemaTokenCounter {
  private readonly counts = new WeakMap<FullToolSchema, number>();
  constructor(
    readonly encoding: TokenEncoding = DEFAULT_ENCODING,
    /** Count the schemas as Phase-2 compaction sends them (default: as declared). */
    readonly compaction?: Phase2CompactionOptions,
  ) {}

  count(schema: FullToolSchema): number {
    let n = this.counts.get(schema);
    if (n === undefined) {
      const sent = this.compaction && compactionEnabled(this.compaction)
        ? { ...schema, inputSchema: compactParameters(schema.inputSchema, { encoding: this.encoding, ...this.compaction }) }
        : schema;
      n = countTokens(renderFullSchema(sent), this.encoding);
      this.counts.set(schema, n);
    }
    return n;
  }
}
