/**
 * Batch QUERY embedding. LangChain's `Embeddings` has a batch call only for documents (`embedDocuments`) and a
 * single-text call for queries (`embedQuery`). For a symmetric encoder (USE-lite, MiniLM) a batch of queries can go
 * through `embedDocuments`; for an asymmetric one (e5, bge, nomic... or any encoder behind `withPrefixes`) that would
 * embed the queries as documents — wrong prefix, wrong vectors. Encoders of this package that are asymmetric
 * implement `embedQueries` (query side, batched); {@link embedQueryBatch} uses it when present and otherwise falls
 * back to one `embedQuery` per text, which is always correct.
 */
import type { EmbeddingsInterface } from "@langchain/core/embeddings";

/** An encoder that can embed many QUERIES in one call (same vectors as `embedQuery` on each). */
export interface QueryBatchEmbeddings extends EmbeddingsInterface {
  embedQueries(queries: string[]): Promise<number[][]>;
}

/** Whether `embeddings` implements {@link QueryBatchEmbeddings.embedQueries}. */
export function hasQueryBatch(embeddings: EmbeddingsInterface): embeddings is QueryBatchEmbeddings {
  return typeof (embeddings as Partial<QueryBatchEmbeddings>).embedQueries === "function";
}

/**
 * Query-side vectors of `queries`: one batched `embedQueries` call when the encoder has it, else `embedQuery` per
 * text, in order (sequential, so a rate-limited remote encoder is not flooded).
 */
export async function embedQueryBatch(embeddings: EmbeddingsInterface, queries: readonly string[]): Promise<number[][]> {
  if (queries.length === 0) return [];
  if (hasQueryBatch(embeddings)) {
    const out = await embeddings.embedQueries([...queries]);
    if (!Array.isArray(out) || out.length !== queries.length)
      throw new Error(`embedQueries returned ${Array.isArray(out) ? out.length : typeof out} vectors for ${queries.length} queries.`);
    return out;
  }
  const out: number[][] = [];
  for (const q of queries) out.push(await embeddings.embedQuery(q));
  return out;
}
