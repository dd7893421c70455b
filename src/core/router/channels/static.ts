/**
 * The static channel: the bridge of a progressive build (`ProgressiveOptions.staticChannel`). Until the encoder has
 * embedded a cold catalog, each tool text gets a static vector from the token table distilled from the same encoder
 * (encoders/static-table.ts), and routes score the encoder's real query vector against those rows beside BM25. The
 * rows come in milliseconds per hundred tools, on this thread in slices; the real rows replace them when the build is
 * done.
 */
import type { StaticTable } from "../../encoders/static-table.js";
import { createVectorIndex, type VectorIndex } from "../../index/vector-index.js";

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
