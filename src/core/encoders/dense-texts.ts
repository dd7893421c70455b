/**
 * The texts a router embeds for a catalog's dense rows. One joined routing text per tool by default; with
 * `toolText.fieldWeights`, a tool's name, description and parameters are embedded separately and summed into its
 * row by weight, which lets a catalog with long generic descriptions lean on names instead.
 *
 * Pure functions of the catalog and the text options: the router embeds what these return, and the snapshot keys
 * (index/snapshot-cache.ts) hash the same sources.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import { toolFieldsOf, toolTextOf, type ToolTextContext, type ToolTextOptions } from "../catalog/text.js";

/** Context each tool text may use: whether the catalog spans servers, and the server's description. */
export function textContextOf(catalog: ToolCatalog, server: string): ToolTextContext {
  return { multiServer: catalog.servers.size > 1, serverDescription: catalog.servers.get(server) };
}

/** The text embedded for each tool of a catalog under the given `toolText` options, in catalog order. */
export function toolTextsOf(catalog: ToolCatalog, toolText: ToolTextOptions | undefined): string[] {
  return catalog.tools.map((t) => toolTextOf(t, toolText, textContextOf(catalog, t.server)));
}

/** The texts behind a catalog's dense rows, and how their vectors become one row per tool. */
export interface DenseTexts {
  /** What goes to the encoder, in order. */
  texts: string[];
  /** Rows, one per tool in catalog order, from the vectors of `texts` (same order). */
  rowsOf: (vectors: readonly ArrayLike<number>[]) => ArrayLike<number>[];
}

/**
 * The texts behind the dense rows and how their vectors become one row per tool: one joined text per tool, or
 * a weighted sum of separately embedded components (`toolText.fieldWeights`).
 */
export function denseTextsOf(catalog: ToolCatalog, toolText: ToolTextOptions | undefined): DenseTexts {
  const weights = toolText?.fieldWeights;
  if (!weights) return { texts: toolTextsOf(catalog, toolText), rowsOf: (vectors) => [...vectors] };
  const fields = catalog.tools.map((t) => toolFieldsOf(t, { ...toolText, params: true }, textContextOf(catalog, t.server)));
  const parts: [keyof typeof weights, number][] = (["name", "description", "params"] as const)
    .map((k) => [k, weights[k] ?? (k === "params" ? 0 : 1)] as [keyof typeof weights, number])
    .filter(([, w]) => w > 0);
  const texts: string[] = [];
  const owners: { tool: number; weight: number }[] = [];
  fields.forEach((f, i) => {
    for (const [k, w] of parts) {
      const text = k === "name" && f.server ? `${f.name} (${f.server})` : f[k];
      if (text) {
        texts.push(text);
        owners.push({ tool: i, weight: w });
      }
    }
  });
  const rowsOf = (vectors: readonly ArrayLike<number>[]) => {
    const dim = vectors[0]?.length ?? 0;
    const rows = fields.map(() => new Array<number>(dim).fill(0));
    vectors.forEach((v, j) => {
      const { tool, weight } = owners[j];
      for (let d = 0; d < dim; d++) rows[tool][d] += weight * v[d];
    });
    // A tool with no text at all keeps a zero row (cosine 0 with everything).
    return rows;
  };
  return { texts, rowsOf };
}
