/**
 * The static channel: the bridge of a progressive build (`ProgressiveOptions.staticChannel`). Until the encoder has
 * embedded a cold catalog, each tool text gets a static vector from the token table distilled from the same encoder
 * (encoders/static-table.ts), and routes score the encoder's real query vector against those rows beside BM25. The
 * rows come in milliseconds per hundred tools, on this thread in slices; the real rows replace them when the build is
 * done.
 *
 * Static rows find the right neighbourhood but rank within it poorly. So each route also reorders its best few tools
 * by their real vectors (`rerankByRealRows`), which the encoder makes ahead of the build's queue: the build needs them
 * anyway, and later routes often ask for the same tools.
 */
import type { StaticTable } from "../../encoders/static-table.js";
import { createVectorIndex, type VectorIndex } from "../../index/vector-index.js";
import { topIndices } from "../ranking.js";

/** Whether the shipped table is in the space of this dense model: USE-lite, whatever its input cut. */
export function staticTableServes(denseModelId: string): boolean {
  return denseModelId === "use-lite-512" || denseModelId.startsWith("use-lite-512-c");
}

/**
 * The static rows of `texts` in an exact (flat) index: it lives only for the build, and a scan of at most
 * `STATIC_CHANNEL_MAX_TOOLS` rows takes a few milliseconds.
 */
export async function buildStaticIndex(table: StaticTable, texts: readonly string[]): Promise<VectorIndex> {
  const rows = await table.embedAll(texts);
  const index = await createVectorIndex(table.dim, "flat");
  if (rows.length > 0) index.add(rows);
  return index;
}

/**
 * Reorders the `top` best tools of a static-channel route in place by the score the built router would give them on
 * its whole-text rows, cos(q, real row) + lexical weight · BM25 (fusion.ts), where `rowsOf` has a tool's real row.
 * Only the order changes: those tools take the slots they held, in the new order, with the scores those slots had,
 * so θ keeps the static phase's scale (a real cosine is on another one) and no tool outside the top moves. Tools
 * whose row is not there yet keep their slots.
 */
export async function rerankByRealRows(
  scores: Float32Array,
  query: ArrayLike<number>,
  lexical: { scores: ArrayLike<number>; weight: number } | undefined,
  top: number,
  rowsOf: (ids: readonly number[]) => Promise<readonly (ArrayLike<number> | undefined)[]>,
): Promise<void> {
  const ids = topIndices(scores, top);
  if (ids.length < 2) return;
  const rows = await rowsOf(ids);
  const slots = ids.flatMap((_, j) => (rows[j] ? [j] : []));
  if (slots.length < 2) return;
  let norm = 0;
  for (let d = 0; d < query.length; d++) norm += query[d]! * query[d]!;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const key = new Map<number, number>();
  for (const j of slots) {
    const row = rows[j]!;
    let dot = 0;
    for (let d = 0; d < row.length; d++) dot += row[d]! * query[d]!;
    key.set(j, dot * inv + (lexical ? lexical.weight * lexical.scores[ids[j]!]! : 0));
  }
  const slotScores = slots.map((j) => scores[ids[j]!]!);
  const reordered = [...slots].sort((a, b) => key.get(b)! - key.get(a)! || a - b);
  reordered.forEach((j, r) => (scores[ids[j]!] = slotScores[r]!));
}
