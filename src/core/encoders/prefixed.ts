/**
 * Query / document prefixes over ANY LangChain Embeddings. Retrieval models trained with prefixes (e5: "query: " /
 * "passage: ", nomic: "search_query: " / "search_document: ", bge: an instruction on queries only) lose quality
 * without them, and a hosted endpoint (Ollama, an OpenAI-compatible server, TEI...) usually sends the text as is.
 * `withPrefixes(embeddings, { query, document })` adds them on the right side:
 * - `embedQuery(t)` / `embedQueries(ts)` embed `query + t` (the user's request);
 * - `embedDocuments(ts)` embeds `document + t` for each (tool texts).
 *
 * The wrapper's `modelId` extends the inner one with a hash of each prefix, so a cache in front of it (see
 * `CachedEmbeddings`, `resolveEncoder(..., { cacheDir })`) never serves vectors embedded with other prefixes.
 * For `TransformersEmbeddings`, set `queryPrefix` / `documentPrefix` there instead (its family defaults already
 * include the known prefixes; wrapping it as well would prefix twice).
 */
import { Embeddings, type EmbeddingsInterface, type EmbeddingsParams } from "@langchain/core/embeddings";
import { modelIdOf, prefixIdSuffix } from "./model-id.js";
import { embedQueryBatch, type QueryBatchEmbeddings } from "./query-batch.js";

/** Options of {@link withPrefixes} / {@link PrefixedEmbeddings}. */
export interface PrefixOptions {
  /** Prepended to every query (`embedQuery`, `embedQueries`). Default "" (none). */
  query?: string;
  /** Prepended to every document (`embedDocuments`). Default "" (none). */
  document?: string;
  /**
   * Id of the inner encoder's vector space, used as the base of this wrapper's `modelId`. Default: the inner
   * encoder's `modelId`, `model` or `modelName` field, else "custom". Set it when the inner encoder names no model,
   * so that caches of two different models behind prefixes cannot mix.
   */
  modelId?: string;
}

/** LangChain Embeddings adding a query prefix and a document prefix around an inner encoder. */
export class PrefixedEmbeddings extends Embeddings implements QueryBatchEmbeddings {
  readonly inner: EmbeddingsInterface;
  readonly queryPrefix: string;
  readonly documentPrefix: string;
  /** `<inner id>|q=<sha256(query prefix)[0..8]>|d=<sha256(document prefix)[0..8]>` (empty prefixes omitted). */
  readonly modelId: string;

  constructor(inner: EmbeddingsInterface, options: PrefixOptions & EmbeddingsParams = {}) {
    const { query = "", document = "", modelId, ...params } = options;
    super(params);
    if (!inner || typeof inner.embedDocuments !== "function" || typeof inner.embedQuery !== "function")
      throw new TypeError("withPrefixes: expected a LangChain Embeddings (an object with embedDocuments() and embedQuery()).");
    if (typeof query !== "string" || typeof document !== "string")
      throw new TypeError("withPrefixes: the query and document prefixes must be strings.");
    this.inner = inner;
    this.queryPrefix = query;
    this.documentPrefix = document;
    this.modelId = `${modelId ?? modelIdOf(inner)}${prefixIdSuffix(query, document)}`;
  }

  embedDocuments(documents: string[]): Promise<number[][]> {
    return this.inner.embedDocuments(documents.map((d) => this.documentPrefix + d));
  }

  embedQuery(query: string): Promise<number[]> {
    return this.inner.embedQuery(this.queryPrefix + query);
  }

  /** Query-side vectors of many texts: the inner encoder's `embedQueries` when it has one, else one query at a time. */
  embedQueries(queries: string[]): Promise<number[][]> {
    return embedQueryBatch(this.inner, queries.map((q) => this.queryPrefix + q));
  }
}

/**
 * Wraps `embeddings` so queries get `options.query` and documents `options.document` in front (see the module
 * comment). Example, an e5 model served by Ollama:
 * `withPrefixes(new OllamaEmbeddings({ model: "<your e5 model>" }), { query: "query: ", document: "passage: " })`.
 */
export function withPrefixes(embeddings: EmbeddingsInterface, options: PrefixOptions): PrefixedEmbeddings {
  return new PrefixedEmbeddings(embeddings, options);
}
