/**
 * Multi-vector channel: each tool gets several short dense rows — its name, its name with each sentence of its
 * description, its name with its parameter names — and a query scores a tool by its best row (max-sim).
 *
 * Why: a short-text encoder such as USE-lite averages a long description into one vector that sits between its
 * sentences; a query about one thing the tool does matches that sentence's row far better than the blend. The
 * whole-text row stays (see fusion.ts): max-sim alone over-rewards one lucky sentence.
 */
import type { ToolRecord } from "../../types.js";
import { parameterNamesOf, toolFieldsOf, type ToolTextContext, type ToolTextOptions } from "../../catalog/text.js";
import type { VectorIndex } from "../../index/vector-index.js";

/** Options of the multi-vector channel. */
export interface MultiVectorOptions {
  /**
   * Share of the dense score taken from the best row: `dense = (1 − weight) · cos(whole text) + weight · maxsim`.
   * Default 0.3 (measured on the dev sets, see docs/routing.md, Round 2).
   */
  weight?: number;
  /** Description sentences embedded per tool (the first ones). Default 6. */
  maxSentences?: number;
  /**
   * Use the channel only for catalogs up to this many tools: it embeds about 4 rows per tool, so a cold build
   * costs more, and at scale the first build matters more than the last point of recall. Default 2,000.
   */
  maxTools?: number;
}

export const DEFAULT_MULTI_VECTOR_WEIGHT = 0.3;
export const DEFAULT_MULTI_VECTOR_MAX_TOOLS = 2_000;
const DEFAULT_MAX_SENTENCES = 6;
/** Characters per row: sentences are short, and a runaway one must not cost the encoder quadratic time. */
const ROW_MAX_CHARS = 300;

/**
 * Sentences of a description already cleaned of markup (`toolFieldsOf`), split at . ! ? followed by a capital, a
 * digit or an opening quote/bracket, so "e.g. foo" and "v1.2" stay whole.
 */
export function descriptionSentences(description: string, max = DEFAULT_MAX_SENTENCES): string[] {
  const out: string[] = [];
  for (const s of description.split(/(?<=[.!?。])\s+(?=[A-Z0-9(`"'])/u)) {
    const t = s.trim();
    if (t.length > 3) out.push(t);
    if (out.length >= max) break;
  }
  return out;
}

/** The texts of one tool's rows: `name (server)`, `name: sentence` for each sentence, `name: parameters`. */
export function multiVectorRowsOf(
  tool: ToolRecord,
  toolText: ToolTextOptions | undefined,
  context: ToolTextContext,
  maxSentences = DEFAULT_MAX_SENTENCES,
): string[] {
  const f = toolFieldsOf(tool, { ...toolText, params: false }, context);
  const head = f.server ? `${f.name} (${f.server})` : f.name;
  const rows = head ? [head] : [];
  for (const s of descriptionSentences(f.description, maxSentences)) rows.push(`${f.name}: ${s}`.slice(0, ROW_MAX_CHARS));
  const params = parameterNamesOf(tool.inputSchema);
  if (params.length > 0) rows.push(`${f.name}: ${params.join(", ")}`.slice(0, ROW_MAX_CHARS));
  return rows;
}

/** Rows of a whole catalog, flattened, with the tool each row belongs to. */
export function multiVectorRows(
  tools: readonly ToolRecord[],
  toolText: ToolTextOptions | undefined,
  contextOf: (server: string) => ToolTextContext,
  maxSentences = DEFAULT_MAX_SENTENCES,
): { texts: string[]; owners: Int32Array } {
  const texts: string[] = [];
  const owners: number[] = [];
  tools.forEach((t, i) => {
    for (const row of multiVectorRowsOf(t, toolText, contextOf(t.server), maxSentences)) {
      texts.push(row);
      owners.push(i);
    }
  });
  return { texts, owners: Int32Array.from(owners) };
}

/** The built channel: an index over every row and the owner of each row. */
export class MultiVectorChannel {
  /** Reused per query: the best row score of each tool. */
  private readonly best: Float32Array;

  constructor(
    readonly index: VectorIndex,
    readonly owners: Int32Array,
    readonly toolCount: number,
  ) {
    this.best = new Float32Array(toolCount);
  }

  /** Best-row cosine of every tool (−1 for a tool without rows). The array is reused: read it before the next call. */
  maxSim(query: ArrayLike<number>): Float32Array {
    const rows = this.index.scoreAll(query);
    const best = this.best.fill(-1);
    const owners = this.owners;
    for (let r = 0; r < rows.length; r++) if (rows[r] > best[owners[r]]) best[owners[r]] = rows[r];
    return best;
  }
}
