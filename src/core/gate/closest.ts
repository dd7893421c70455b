/**
 * The tools closest to a call the gate refuses: what the model most likely meant when it called a name the
 * catalog does not have, or one that is not bound. The gate names them in its answer (and, with promotion on,
 * binds them), so a miss costs one round trip instead of stranding the agent.
 *
 * Lexical only, and synchronous: the called name (split at snake_case, camelCase and kebab-case) and the
 * argument keys are scored with BM25 against each tool's name, description, parameter names and server. An
 * invented name is usually made of the words the real tool's name and description use, and the arguments the
 * model filled in are usually the real tool's parameters. No encoder call, so the gate stays a pure function of
 * the message and the catalog.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import { toolFieldsOf } from "../catalog/text.js";
import { Bm25Index, type WeightedText } from "../encoders/bm25.js";

/** The BM25 index of a catalog, built on first use and kept as long as the catalog object lives. */
const indexes = new WeakMap<ToolCatalog, Bm25Index>();

function indexOf(catalog: ToolCatalog): Bm25Index {
  let index = indexes.get(catalog);
  if (!index) {
    index = new Bm25Index();
    // Names weigh most: an invented name shares words with the real name far more often than with prose.
    index.build(
      catalog.tools.map((t) => {
        const f = toolFieldsOf(t, { params: true, server: true });
        return [
          { text: f.name, weight: 2, identifier: true },
          { text: f.description, weight: 1 },
          { text: f.params, weight: 0.75 },
          { text: f.server, weight: 0.5 },
        ];
      }),
    );
    indexes.set(catalog, index);
  }
  return index;
}

export interface ClosestOptions {
  /** Whether a tool may be offered (e.g. its preconditions hold now). Default: every tool. */
  usable?: (name: string) => boolean;
  /** Names never offered (the called name itself). */
  exclude?: readonly string[];
  /** At most this many names. Default 3. */
  max?: number;
  /**
   * Lowest normalized BM25 score (the share of the query's weight a tool matches, in [0, 1]) worth offering:
   * below it a "closest" tool shares a stray word at best. Default 0.2.
   */
  minScore?: number;
}

/** The query of a call: its name's words (weighted like a tool name) and its argument keys. */
export function callQuery(name: string, args?: unknown): WeightedText[] {
  const parts: WeightedText[] = [{ text: String(name ?? "").slice(0, 200), weight: 2 }];
  if (args && typeof args === "object" && !Array.isArray(args)) {
    const keys = Object.keys(args).slice(0, 20).join(" ");
    if (keys) parts.push({ text: keys, weight: 1 });
  }
  return parts;
}

/** Up to `max` catalog tool names closest to the call, best first (empty when nothing is close enough). */
export function closestTools(catalog: ToolCatalog, call: { name: string; args?: unknown }, options: ClosestOptions = {}): string[] {
  const max = options.max ?? 3;
  if (max <= 0 || catalog.size === 0) return [];
  const minScore = options.minScore ?? 0.2;
  const exclude = new Set(options.exclude ?? []);
  const scores = indexOf(catalog).scoreAll(callQuery(call.name, call.args));
  const order = [...scores.keys()].filter((i) => scores[i] >= minScore).sort((a, b) => scores[b] - scores[a] || a - b);
  const out: string[] = [];
  for (const i of order) {
    const name = catalog.tools[i].name;
    if (exclude.has(name) || out.includes(name)) continue;
    // Offered names reach the model: a tool still pending screening is screened first, a quarantined one skipped.
    if (!catalog.isVisible(catalog.tools[i])) continue;
    if (options.usable && !options.usable(name)) continue;
    out.push(name);
    if (out.length >= max) break;
  }
  return out;
}
