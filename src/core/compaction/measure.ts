/**
 * Token cost of a tool list as MCP JSON and after each compaction technique, each applied on its own to the
 * same tools (plus the short list and $ref dedup combined), so a user can see what each one is worth for
 * their servers.
 */
import type { ToolSpec } from "../types.js";
import { countTokens, DEFAULT_ENCODING, type TokenEncoding } from "../tokens/count.js";
import { shortenTool } from "./short-list.js";
import { dedupAcrossTools, dedupTool, renderSharedDefsCatalog } from "./ref-dedup.js";
import { renderTerse } from "./terse.js";
import { firstSentence } from "../catalog/text.js";

/** Tokens after one technique, and what it saves against the raw MCP JSON. */
export interface TechniqueTokens {
  tokens: number;
  /** `raw - tokens` (negative when the technique costs more). */
  saved: number;
  /** `saved / raw`, 0..1 (0 for an empty list). */
  savedRatio: number;
}

export interface CompactionReport {
  encoding: TokenEncoding;
  tools: number;
  /** `JSON.stringify(tool)` of every tool, summed: what the server sent. */
  raw: number;
  /** Short list: optional content dropped (`shortenTool`). */
  shortList: TechniqueTokens;
  /** $ref dedup within each tool's schemas (`dedupTool`): valid JSON Schema per tool. */
  refDedup: TechniqueTokens;
  /** Shared definitions across tools (`dedupAcrossTools` + `renderSharedDefsCatalog`): text catalogs only. */
  sharedDefs: TechniqueTokens;
  /** Short list, then $ref dedup within each tool: what a function-calling API can be sent. */
  shortListRefDedup: TechniqueTokens;
  /** TERSE full rendering of every tool (`renderTerse`, level "full"). */
  terse: TechniqueTokens;
  /** Phase-1 pool lines: the current `- name: first sentence` line format (for comparison). */
  poolLines: number;
  /** Phase-1 pool lines in the TERSE pool format (name, purpose, parameter names, output fields, tags). */
  poolTerse: number;
}

function technique(raw: number, tokens: number): TechniqueTokens {
  return { tokens, saved: raw - tokens, savedRatio: raw > 0 ? (raw - tokens) / raw : 0 };
}

function sum(texts: Iterable<string>, encoding: TokenEncoding): number {
  let n = 0;
  for (const t of texts) n += countTokens(t, encoding);
  return n;
}

/** Measures every compaction technique on the same tools. Pure: the tools are not modified. */
export function measureCompaction(tools: ToolSpec[], encoding: TokenEncoding = DEFAULT_ENCODING): CompactionReport {
  const json = (list: readonly ToolSpec[]) => sum(list.map((t) => JSON.stringify(t)), encoding);
  const raw = json(tools);
  const short = tools.map((t) => shortenTool(t));
  const shared = dedupAcrossTools(tools, { encoding });
  return {
    encoding,
    tools: tools.length,
    raw,
    shortList: technique(raw, json(short)),
    refDedup: technique(raw, json(tools.map((t) => dedupTool(t, { encoding })))),
    sharedDefs: technique(raw, countTokens(renderSharedDefsCatalog(shared), encoding)),
    shortListRefDedup: technique(raw, json(short.map((t) => dedupTool(t, { encoding })))),
    terse: technique(raw, sum(tools.map((t) => renderTerse(t)), encoding)),
    poolLines: sum(tools.map((t) => `- ${t.name}: ${firstSentence(t.description ?? "")}`), encoding),
    poolTerse: sum(tools.map((t) => renderTerse(t, { level: "pool" })), encoding),
  };
}
