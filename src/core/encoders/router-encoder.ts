/**
 * The router's side of its encoder: which encoder it resolved, the vectors of the tool texts it embedded so far (a
 * catalog change embeds only new texts), the query encode of each route with its checks and time limit, and the
 * failure episodes a failing encoder opens (the router then routes on the lexical channel, see
 * `RouterOptions.encoderFallback`).
 *
 * One instance per router; its state changes only at `prepare()`, at a catalog change and on query failures.
 */
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { ToolCatalog } from "../catalog/catalog.js";
import type { ToolTextOptions } from "../catalog/text.js";
import { StoreEmbeddings } from "../store/embeddings.js";
import { CachedEmbeddings } from "./cache.js";
import { toolTextsOf } from "./dense-texts.js";
import { LexicalEmbeddings } from "./lexical.js";
import { embedQueryBatch } from "./query-batch.js";
import { sharedUseLiteWorkerPool } from "./use-lite-pool.js";
import { settledWithin } from "../util/settled-within.js";

/** One part of a route's query with its weight (empty parts removed, weights defaulted). */
export interface QueryPart {
  text: string;
  weight: number;
  /** False: lexical only, not embedded (see `WeightedText.dense`). */
  dense?: boolean;
}

/** An encoder failure episode: since when, the first error, and how many routes were degraded so far. */
export interface EncoderFailure {
  since: number;
  error: string;
  routes: number;
}

/** A dense-encoder failure during one route, with the error the encoder gave. */
export class QueryEncodeFailure extends Error {
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** A chunked catalog build sends its missing texts in at most this many chunks (each one a write of the disk cache). */
export const EMBED_CHUNKS = 16;
/** ...of at least this many texts each (a few seconds of USE-lite on 2 cores). */
export const EMBED_CHUNK_MIN = 256;

/** Names of the encoders that embed a query like a document (batched, through the embedding cache). */
const SYMMETRIC_ENCODERS = new Set(["use-lite", "minilm", "hybrid"]);
/** Names of the encoders that run on the shared USE-lite worker pool. */
const USE_LITE_ENCODERS = new Set(["use-lite", "hybrid"]);

/**
 * Query texts whose vectors a router keeps (most recent first out last). An agent re-routes the same user message,
 * earlier turns and stated plan at every model call of a turn; only the newest part is new. 256 vectors of 512
 * float32 are 0.5 MB.
 */
export const QUERY_VECTOR_CACHE_SIZE = 256;

/**
 * An encoder's answer as a float32 vector (the index rows' precision: a kept and a fresh vector score the same), or
 * an error saying what it returned instead: such an answer is never kept.
 */
function checkedVector(vector: unknown, dim: number | undefined): Float32Array {
  if (!Array.isArray(vector) && !ArrayBuffer.isView(vector)) throw new Error(`the encoder returned ${typeof vector}, not a vector`);
  const v = vector as ArrayLike<number>;
  if (dim !== undefined && v.length !== dim) throw new Error(`the encoder returned a vector of ${v.length} dimensions, the index has ${dim}`);
  for (let d = 0; d < v.length; d++) if (!Number.isFinite(v[d])) throw new Error(`the encoder returned a vector holding ${v[d]}`);
  return Float32Array.from(v);
}

export class RouterEncoder {
  /** The dense encoder (behind the store when there is one); undefined before `prepare()` and for "lexical". */
  embeddings?: EmbeddingsInterface;
  /** The encoder's name as resolved ("hybrid", "use-lite", "hf:…", "lexical"…). */
  name = "";
  /** The router's model id: the dense encoder's, with "+bm25" when the lexical channel is on. */
  modelId = "";
  /** The dense encoder's own id (modelId without the lexical channel), for failure reports and snapshot keys. */
  denseModelId = "";
  /**
   * Tool text → dense vector of every text embedded so far; a catalog update embeds only texts not in it. Float32
   * (the index's precision): at 100,000 tools a number[] per text would hold twice the memory for nothing.
   */
  private vectorByText = new Map<string, Float32Array>();
  /**
   * Rows loaded from an index snapshot whose tool texts were never made (a warm start skips the text processing);
   * the next `embedTexts` keys them by text first, so a catalog change reuses them like embedded vectors.
   */
  private unkeyedRows?: { catalog: ToolCatalog; rowAt: (i: number) => Float32Array };
  /** Tool texts being embedded ahead of the build for a route (see `toolVectorsWithin`): the embedding under way. */
  private readonly ahead = new Map<string, Promise<unknown>>();
  /** How many texts the last `embedTexts` calls sent to the encoder since `countEmbedded`. */
  private lastEmbedded = 0;
  /** The current encoder failure episode, if the last query encode failed. */
  private failing?: EncoderFailure;
  /**
   * Vectors of recent query texts, by exact text, least recently used first; an entry is the encode's promise, so a
   * route finds a text a prefetch started (while the agent's tools ran) and concurrent routes of one text share one
   * encode. A failed encode is dropped, so the next route asks the encoder again.
   */
  private readonly recentQueries = new Map<string, Promise<Float32Array>>();

  constructor(
    /** The router's `toolText` options (to key snapshot rows by their texts). */
    private readonly toolText: ToolTextOptions | undefined,
    /** A query encode slower than this (ms) is a failure; undefined: no limit. */
    private readonly timeoutMs: number | undefined,
    /** Where the one line per failure episode goes (the router's log). */
    private readonly log: (line: string) => void,
  ) {}

  /** Routes without a dense encoder (encoder "lexical"). */
  useLexicalOnly(): void {
    this.name = "lexical";
    this.modelId = "lexical-bm25";
  }

  /** Routes with a resolved dense encoder; `lexical`: the router adds the BM25 channel. */
  use(embeddings: EmbeddingsInterface, name: string, denseModelId: string, lexical: boolean): void {
    this.recentQueries.clear();
    this.embeddings = embeddings;
    this.name = name;
    this.modelId = lexical ? `${denseModelId}+bm25` : denseModelId;
    this.denseModelId = denseModelId;
  }

  /** Whether the dense encoder is the hashed lexical one (corpus-dependent vectors: nothing of it can be shared). */
  get hashedLexical(): boolean {
    return this.embeddings instanceof LexicalEmbeddings;
  }

  /**
   * Keeps a snapshot's rows of `catalog` (row i of tool i, read only if a later catalog change keys them) so that
   * change reuses them (views: no copy).
   */
  keepUnkeyedRows(catalog: ToolCatalog, rowAt: (i: number) => Float32Array): void {
    this.unkeyedRows = { catalog, rowAt };
  }

  /**
   * Starts counting the texts this process's encoder embeds; the returned function says how many so far. With a
   * store, texts another process embedded are read, not embedded, and do not count.
   */
  countEmbedded(): () => number {
    this.lastEmbedded = 0;
    const store = this.embeddings instanceof StoreEmbeddings ? this.embeddings : undefined;
    const before = store?.stats.embedded;
    return () => (store ? store.stats.embedded - (before as number) : this.lastEmbedded);
  }

  /**
   * Dense vectors of one catalog's tool texts, embedding only those not seen before (duplicates once). Only the
   * texts of this call are kept, so a long-running session does not grow without bound.
   *
   * With `progress`, the missing texts go to the encoder in chunks (at most `EMBED_CHUNKS` of them, at least
   * `EMBED_CHUNK_MIN` texts each): the disk cache or store behind the encoder keeps each chunk as it finishes, so a
   * process that dies mid-build loses at most one chunk, and `progress` hears how many texts have a vector so far.
   */
  async embedTexts(texts: readonly string[], progress?: (ready: number, total: number) => void): Promise<Float32Array[]> {
    const known = this.vectorByText;
    this.keyUnkeyedRows();
    // Hashed lexical vectors depend on the whole corpus (idf): re-fit on every text instead of reusing any.
    if (this.embeddings instanceof LexicalEmbeddings) known.clear();
    const missing = [...new Set(texts.filter((t) => !known.has(t)))];
    this.lastEmbedded = missing.length;
    // The pool starts its second worker (a second model copy) at once for a large build, and never for a small one.
    if (missing.length > 0 && USE_LITE_ENCODERS.has(this.name)) sharedUseLiteWorkerPool().expectTexts(missing.length);
    const chunk = progress ? Math.max(EMBED_CHUNK_MIN, Math.ceil(missing.length / EMBED_CHUNKS)) : missing.length;
    let ready = texts.length - texts.filter((t) => !known.has(t)).length;
    progress?.(ready, texts.length);
    for (let at = 0; at < missing.length; at += chunk) {
      const part = missing.slice(at, at + chunk);
      const fresh = await this.documentVectors(part);
      if (fresh.length !== part.length)
        throw new Error(`Encoder ${this.modelId} returned ${fresh.length} vectors for ${part.length} tool texts`);
      part.forEach((t, i) => known.set(t, fresh[i]!));
      ready += part.length;
      progress?.(Math.min(ready, texts.length), texts.length);
    }
    const rows = texts.map((t) => known.get(t) as Float32Array);
    const used = new Set(texts);
    for (const t of known.keys()) if (!used.has(t)) known.delete(t);
    return rows;
  }

  /**
   * Float32 vectors of tool texts from the dense encoder. Behind the embedding cache they are the cache's own arrays
   * (read-only, never copied: the router's vectors and the cache's are then one copy in memory); from any other
   * encoder, float32 copies of its answer.
   */
  private async documentVectors(texts: string[]): Promise<Float32Array[]> {
    const emb = this.embeddings as EmbeddingsInterface;
    if (emb instanceof CachedEmbeddings) return emb.embedDocumentVectors(texts);
    const vectors = await emb.embedDocuments(texts);
    return Array.isArray(vectors) ? vectors.map((v) => Float32Array.from(v)) : vectors;
  }

  /**
   * Vectors of a few tool texts a route is ranking while the catalog is still being embedded (see
   * `ProgressiveOptions.rerankTop`): the ones this router or its embedding cache has, and the others embedded ahead of
   * the build's queued batches, waited for at most `waitMs`. A text still without a vector then is `undefined`; its
   * embedding goes on and lands in the cache, where the build finds it (only a batch the encoder was already running
   * embeds such a text a second time). Only behind the
   * embedding cache: behind a store or an encoder of the application's, a text not embedded yet stays `undefined`.
   * An encoder error leaves the texts `undefined` (the build reports it).
   */
  async toolVectorsWithin(texts: readonly string[], waitMs: number): Promise<(Float32Array | undefined)[]> {
    const cache = this.embeddings instanceof CachedEmbeddings ? this.embeddings : undefined;
    const lookup = async () => {
      const cached = cache ? await cache.peek(texts) : undefined;
      return texts.map((t, i) => this.vectorByText.get(t) ?? cached?.[i]);
    };
    const found = await lookup();
    if (!cache || found.every((v) => v !== undefined)) return found;
    const missing = texts.filter((t, i) => found[i] === undefined && !this.ahead.has(t));
    if (missing.length > 0) {
      const embedding = cache.embedDocumentVectors(missing, { urgent: true }).then(
        () => undefined,
        () => undefined,
      );
      for (const t of missing) this.ahead.set(t, embedding);
      void embedding.then(() => {
        for (const t of missing) if (this.ahead.get(t) === embedding) this.ahead.delete(t);
      });
    }
    const waiting = new Set(texts.flatMap((t, i) => (found[i] === undefined && this.ahead.has(t) ? [this.ahead.get(t)!] : [])));
    await settledWithin(Promise.all(waiting), waitMs);
    return lookup();
  }

  /** How many of these texts have no vector in this router yet (what a build of them would send to the encoder). */
  countMissing(texts: readonly string[]): number {
    return this.missingTexts(texts).length;
  }

  /**
   * How many of these texts neither this router nor the embedding cache behind its encoder has a vector for: what a
   * build would still send to the encoder. Behind any other encoder (a store's, the application's own) every text
   * this router has no vector for counts.
   */
  async countUncached(texts: readonly string[]): Promise<number> {
    const missing = this.missingTexts(texts);
    if (missing.length === 0 || !(this.embeddings instanceof CachedEmbeddings)) return missing.length;
    return (await this.embeddings.peek(missing)).filter((v) => v === undefined).length;
  }

  /** The distinct texts this router has no vector for (every text for the hashed lexical encoder, which keeps none). */
  private missingTexts(texts: readonly string[]): readonly string[] {
    this.keyUnkeyedRows();
    if (this.embeddings instanceof LexicalEmbeddings) return texts;
    return [...new Set(texts)].filter((t) => !this.vectorByText.has(t));
  }

  /** Keys a snapshot's rows by their texts (see `keepUnkeyedRows`), once. */
  private keyUnkeyedRows(): void {
    if (!this.unkeyedRows) return;
    const { catalog, rowAt } = this.unkeyedRows;
    this.unkeyedRows = undefined;
    toolTextsOf(catalog, this.toolText).forEach((t, i) => this.vectorByText.set(t, rowAt(i)));
  }

  /** Many queries at once, for offline evaluation (see `ToolAttentionRouter.embedQueries`). */
  embedQueries(texts: readonly string[]): Promise<number[][]> {
    // Evaluation queries are not tool texts: never written to a shared store.
    const emb = this.embeddings instanceof StoreEmbeddings ? this.embeddings.inner : (this.embeddings as EmbeddingsInterface);
    // Symmetric encoders embed queries like documents (batched, through the cache); others (prefixed models, the
    // hashed lexical encoder, custom ones) take the query side, batched when the encoder can.
    if (SYMMETRIC_ENCODERS.has(this.name)) return emb.embedDocuments(texts.map((t) => t.trim() || " "));
    return embedQueryBatch(emb, [...texts]);
  }

  /**
   * The vector of one query text: from the recent queries, or embedded (and kept, at most QUERY_VECTOR_CACHE_SIZE).
   * The hashed lexical encoder's vectors depend on the catalog (idf), so they are never kept.
   */
  private partVector(text: string, dim: number | undefined): Promise<ArrayLike<number>> {
    const emb = this.embeddings as EmbeddingsInterface;
    if (this.hashedLexical) return emb.embedQuery(text);
    const recent = this.recentQueries;
    let hit = recent.get(text);
    if (hit) {
      recent.delete(text);
      recent.set(text, hit);
      return hit;
    }
    hit = Promise.resolve()
      .then(() => emb.embedQuery(text))
      .then((v) => checkedVector(v, dim));
    recent.set(text, hit);
    hit.catch(() => {
      if (recent.get(text) === hit) recent.delete(text);
    });
    while (recent.size > QUERY_VECTOR_CACHE_SIZE) recent.delete(recent.keys().next().value!);
    return hit;
  }

  /**
   * Starts embedding query texts a route will likely use next (the model's stated plan while its tools run), so that
   * route finds them ready. Errors are left to the route that uses the text (a failed encode is not kept).
   */
  prefetch(texts: readonly string[], dim: number | undefined): void {
    if (!this.embeddings || this.hashedLexical) return;
    for (const t of texts) if (t.trim()) this.partVector(t, dim).catch(() => {});
  }

  /** How many query vectors are kept (for tests and diagnostics). */
  get recentQueryCount(): number {
    return this.recentQueries.size;
  }

  /** The query's dense vector: one embedding, or the weighted sum of its parts' embeddings (a fresh array either way). */
  private async queryVector(all: readonly QueryPart[], dim: number | undefined): Promise<ArrayLike<number>> {
    // Lexical-only parts stay out of the vector, unless nothing else would be left to embed.
    const embedded = all.filter((p) => p.dense !== false);
    const parts = embedded.length > 0 ? embedded : all;
    if (parts.length === 1) return Float32Array.from(await this.partVector(parts[0].text, dim));
    const vectors = await Promise.all(parts.map((p) => this.partVector(p.text, dim)));
    const out = new Array<number>(vectors[0].length).fill(0);
    vectors.forEach((v, j) => {
      const w = parts[j].weight;
      for (let d = 0; d < out.length; d++) out[d] += w * v[d];
    });
    return out;
  }

  /**
   * The query's dense vector, or a QueryEncodeFailure carrying the encoder's error (or the timeout). `dim`: the
   * index's dimension, which the vector must have. A success ends a failure episode.
   */
  async encodeQuery(parts: readonly QueryPart[], dim: number | undefined): Promise<ArrayLike<number>> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const encoding = this.queryVector(parts, dim);
      const limit = this.timeoutMs;
      const vector = limit
        ? await Promise.race([
            encoding,
            new Promise<never>((_, reject) => {
              // Not unref'd: a route waiting on a silent encoder must keep the process alive until the limit.
              timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
            }),
          ])
        : await encoding;
      // A vector the index cannot use would turn every score into NaN: that is a failure too.
      if (!Array.isArray(vector) && !ArrayBuffer.isView(vector)) throw new Error(`the encoder returned ${typeof vector}, not a vector`);
      if (dim !== undefined && vector.length !== dim) throw new Error(`the encoder returned a vector of ${vector.length} dimensions, the index has ${dim}`);
      for (let d = 0; d < vector.length; d++) if (!Number.isFinite(vector[d])) throw new Error(`the encoder returned a vector holding ${vector[d]}`);
      this.failing = undefined;
      return vector;
    } catch (err) {
      throw new QueryEncodeFailure(err);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** Starts (and logs, once) or continues an encoder failure episode. */
  noteFailure(error: unknown): void {
    if (this.failing) {
      this.failing.routes++;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.failing = { since: Date.now(), error: message, routes: 1 };
    this.log(
      `tool-attention: encoder ${this.denseModelId} failed on a query (${message.split("\n")[0].slice(0, 300)}); ` +
        `routing on the lexical channel until it answers again`,
    );
  }

  /** The current failure episode (a copy), if any. */
  get failure(): EncoderFailure | undefined {
    return this.failing ? { ...this.failing } : undefined;
  }
}
