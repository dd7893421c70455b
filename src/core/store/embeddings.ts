/**
 * `StoreEmbeddings`: a LangChain Embeddings whose document vectors come from a `RoutingStore` (embedded through the
 * inner encoder only when the store lacks them), so the router's catalog build needs no change to use a store.
 * Queries pass through to the inner encoder: they are per request, never shared.
 *
 * Like `CachedEmbeddings`, only for STATELESS encoders (a vector that depends on the text alone); the router never
 * puts the hashed lexical encoder behind it.
 */
import { Embeddings, type EmbeddingsInterface } from "@langchain/core/embeddings";
import { embedQueryBatch, type QueryBatchEmbeddings } from "../encoders/query-batch.js";
import type { RoutingStore } from "./types.js";

/** Counters of `StoreEmbeddings.embedDocuments` since construction. */
export interface StoreEmbeddingStats {
  /** Distinct texts this process sent to the inner encoder. */
  embedded: number;
  /** Distinct texts another process embedded while this one waited. */
  waited: number;
  /** Texts asked for in total. */
  requested: number;
}

export class StoreEmbeddings extends Embeddings implements QueryBatchEmbeddings {
  readonly stats: StoreEmbeddingStats = { embedded: 0, waited: 0, requested: 0 };

  constructor(
    readonly inner: EmbeddingsInterface,
    readonly store: RoutingStore,
    /** Identifies the inner encoder and its configuration: rows are keyed by it. */
    readonly modelId: string,
  ) {
    super({});
    if (typeof modelId !== "string" || modelId === "") throw new Error("StoreEmbeddings: modelId must be a non-empty string");
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    if (documents.length === 0) return [];
    const r = await this.store.embedThrough(this.modelId, documents, (texts) => this.inner.embedDocuments(texts));
    this.stats.embedded += r.embedded;
    this.stats.waited += r.waited;
    this.stats.requested += documents.length;
    return r.vectors.map((v) => Array.from(v));
  }

  embedQuery(document: string): Promise<number[]> {
    return this.inner.embedQuery(document);
  }

  embedQueries(queries: string[]): Promise<number[][]> {
    return embedQueryBatch(this.inner, queries);
  }
}
