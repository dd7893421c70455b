/**
 * Two-phase prompt rendering.
 * Phase 1: a summary pool of ALL tools, one line each, so the model knows what exists. It depends only on
 *   the catalog, so it is rendered once and is byte-identical on every turn (stable for prompt caches).
 * Phase 2: the full schemas of the active tools only, bound to this model call.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import { countTokens, DEFAULT_ENCODING, type TokenEncoding } from "../tokens/count.js";
import type { FullToolSchema } from "../loader/schema-loader.js";

export const POOL_HEADER =
  "Tool catalog: every tool this agent has, one line each. Only the tools attached to this request can be " +
  "called now; the others are listed so you know what exists and can plan for them.";

export interface PoolOptions {
  /** Group lines under `[server]` headings (default true when the catalog has more than one server). */
  groupByServer?: boolean;
  /** Text above the list. Default POOL_HEADER. */
  header?: string;
}

const poolCache = new WeakMap<ToolCatalog, Map<string, string>>();

/** The Phase-1 pool text. Memoized per catalog and options, so repeated turns reuse the same string. */
export function renderPool(catalog: ToolCatalog, options: PoolOptions = {}): string {
  const group = options.groupByServer ?? catalog.servers.size > 1;
  const header = options.header ?? POOL_HEADER;
  const key = `${group ? 1 : 0}\0${header}`;
  let perCatalog = poolCache.get(catalog);
  const hit = perCatalog?.get(key);
  if (hit !== undefined) return hit;

  const lines: string[] = [header];
  if (group) {
    const byServer = new Map<string, string[]>();
    for (const t of catalog.tools) {
      const list = byServer.get(t.server) ?? [];
      list.push(`- ${t.id}: ${t.summary}`);
      byServer.set(t.server, list);
    }
    for (const [server, list] of byServer) {
      lines.push(`[${server || "tools"}]`);
      lines.push(...list);
    }
  } else {
    for (const t of catalog.tools) lines.push(`- ${t.id}: ${t.summary}`);
  }
  const text = lines.join("\n");
  if (!perCatalog) poolCache.set(catalog, (perCatalog = new Map()));
  perCatalog.set(key, text);
  return text;
}

/** The Phase-2 text of one tool: its MCP object `{name, description, inputSchema}` as compact JSON. */
export function renderFullSchema(schema: FullToolSchema): string {
  return JSON.stringify({ name: schema.name, description: schema.description, inputSchema: schema.inputSchema });
}

/**
 * Token counts of full schemas. Memoized per schema object: the loader hands out the same object for a tool
 * until it is invalidated, so the per-turn cost is a WeakMap lookup, not a JSON render + tokenization.
 */
export class SchemaTokenCounter {
  private readonly counts = new WeakMap<FullToolSchema, number>();
  constructor(readonly encoding: TokenEncoding = DEFAULT_ENCODING) {}

  count(schema: FullToolSchema): number {
    let n = this.counts.get(schema);
    if (n === undefined) {
      n = countTokens(renderFullSchema(schema), this.encoding);
      this.counts.set(schema, n);
    }
    return n;
  }
}
