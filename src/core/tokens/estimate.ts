/**
 * Schema tokens estimated from a tool's JSON size, without the tokenizer: what a progressive start's first routes and
 * model calls go by while the exact count (seconds on 10,000 tools) runs behind them.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import type { ToolRecord } from "../types.js";

/**
 * Characters of a tool's JSON definition per token: measured 2026-11-26 with cl100k_base on the synthetic
 * 1,000-tool expansion (4.73), the demo catalog (4.69) and metatool-dev (3.45).
 */
export const SCHEMA_CHARS_PER_TOKEN = 4;

/** A tool's full-schema tokens, estimated from the JSON of its name, description and input schema. */
export function estimatedToolSchemaTokens(t: Pick<ToolRecord, "name" | "description" | "inputSchema">): number {
  return Math.round(JSON.stringify({ name: t.name, description: t.description, parameters: t.inputSchema }).length / SCHEMA_CHARS_PER_TOKEN);
}

/** A catalog's estimate: per tool name (the last tool of a name wins, as in the planner) and in total. */
export interface CatalogSchemaEstimate {
  byName: Map<string, number>;
  total: number;
}

const catalogEstimates = new WeakMap<ToolCatalog, CatalogSchemaEstimate>();

/** The estimate of every tool of a catalog, computed once per catalog object (the router and the adapters share it). */
export function estimatedCatalogSchemaTokens(catalog: ToolCatalog): CatalogSchemaEstimate {
  let hit = catalogEstimates.get(catalog);
  if (!hit) {
    hit = { byName: new Map(), total: 0 };
    for (const t of catalog.tools) {
      const n = estimatedToolSchemaTokens(t);
      hit.byName.set(t.name, n);
      hit.total += n;
    }
    catalogEstimates.set(catalog, hit);
  }
  return hit;
}
