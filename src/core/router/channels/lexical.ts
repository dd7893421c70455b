/**
 * Lexical channel: sparse BM25 over weighted tool fields (name, description, parameter names, tags, server),
 * normalized to [0, 1]. Exact names, abbreviations, identifiers and non-English words are evidence a short-text
 * sentence encoder cannot see; on large tool benchmarks BM25 alone rivals small dense encoders.
 */
import type { ToolCatalog } from "../../catalog/catalog.js";
import { toolFieldsOf, type ToolTextContext, type ToolTextOptions } from "../../catalog/text.js";
import { Bm25Index, type Bm25Field, type Bm25Options } from "../../encoders/bm25.js";

/** Default BM25 field weights: a word in the name counts twice, one in a parameter name half. */
export const DEFAULT_LEXICAL_FIELD_WEIGHTS = { name: 2, description: 1, params: 0.5, tags: 1, server: 0.5 } as const;

/** The weighted BM25 fields of each tool of a catalog. */
export function lexicalFieldsOf(
  catalog: ToolCatalog,
  toolText: ToolTextOptions | undefined,
  contextOf: (server: string) => ToolTextContext,
): Bm25Field[][] {
  const w = { ...DEFAULT_LEXICAL_FIELD_WEIGHTS, ...toolText?.lexicalWeights };
  // Parameter names always feed the lexical channel: exact field names are what lexical matching is for.
  const opts: ToolTextOptions = { ...toolText, params: toolText?.params ?? true, tags: true };
  return catalog.tools.map((t) => {
    const f = toolFieldsOf(t, opts, contextOf(t.server));
    return [
      { text: f.name, weight: w.name, identifier: true },
      { text: f.description, weight: w.description },
      { text: f.params, weight: w.params },
      { text: f.tags, weight: w.tags },
      { text: f.server, weight: w.server },
    ];
  });
}

/** A BM25 index built over a catalog's lexical fields. */
export function buildLexicalIndex(
  catalog: ToolCatalog,
  options: Bm25Options,
  toolText: ToolTextOptions | undefined,
  contextOf: (server: string) => ToolTextContext,
): Bm25Index {
  const index = new Bm25Index(options);
  index.build(lexicalFieldsOf(catalog, toolText, contextOf));
  return index;
}
