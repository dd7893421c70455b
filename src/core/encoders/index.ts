/**
 * Encoder seam: every encoder is a LangChain `EmbeddingsInterface`, so any `@langchain/core` Embeddings (OpenAI,
 * Ollama, transformers.js...) plugs in. Names and specs `resolveEncoder` accepts:
 * - "use-lite" (default): embedded Universal Sentence Encoder lite, 512-d, offline, cached on disk; the model runs
 *   in a worker thread, off the host's event loop (see use-lite.ts);
 * - "lexical": BM25 over hashed features, no model; stateful (fits the corpus), never cached;
 * - "minilm": alias of "hf:Xenova/all-MiniLM-L6-v2";
 * - "hf:<hub id or model directory>[?options]": any transformers.js feature-extraction model through the optional
 *   `@huggingface/transformers` package (bge, gte, e5, nomic...), with its family's pooling and query / document
 *   prefixes (see spec.ts, families.ts, transformers.ts), cached on disk;
 * - "hybrid": USE-lite here; the router adds a sparse BM25 channel (`Bm25Index`) and fuses both scores.
 * For another provider's asymmetric model (e5 on Ollama...), wrap it: `withPrefixes(embeddings, { query, document })`.
 */
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import path from "node:path";
import { CachedEmbeddings, defaultEmbeddingCacheDir } from "./cache.js";
import { LexicalEmbeddings } from "./lexical.js";
import { modelIdOf } from "./model-id.js";
import { MODEL_ALIASES, parseEncoderSpec, type BuiltinEncoderName, type TransformersEncoderSpec } from "./spec.js";
import { TransformersEmbeddings } from "./transformers.js";
import { UseLiteEmbeddings } from "./use-lite.js";

export { CachedEmbeddings, defaultEmbeddingCacheDir, embeddingCacheKey, embeddingCacheFileName } from "./cache.js";
export type { CachedEmbeddingsOptions, CacheStats } from "./cache.js";
export { Bm25Index, acronymsOf } from "./bm25.js";
export type { Bm25Field, Bm25Options, WeightedText } from "./bm25.js";
export { LexicalEmbeddings, lexicalTokens, lightStem, fnv1a32, LEXICAL_STOPWORDS } from "./lexical.js";
export type { LexicalEmbeddingsOptions, LexicalTokenOptions } from "./lexical.js";
export {
  UseLiteEmbeddings,
  loadUseLiteModel,
  prepareUseLiteText,
  USE_LITE_DEFAULT_MAX_CHARS,
  USE_LITE_DEFAULT_BATCH_SIZE,
  USE_LITE_DEFAULT_BATCH_CHARS,
  defaultUseLiteWorkers,
  USE_LITE_EMPTY_PLACEHOLDER,
} from "./use-lite.js";
export type { UseLiteEmbeddingsOptions } from "./use-lite.js";
export {
  UseLiteWorkerPool,
  closeUseLiteWorkers,
  sharedUseLiteWorkerPool,
  USE_LITE_WORKER_LABEL,
  USE_LITE_GROW_AFTER_TEXTS,
  USE_LITE_STRETCH_PAUSE_MS,
  USE_LITE_WORKER_RESOURCE_LIMITS,
} from "./use-lite-pool.js";
export type { UseLiteWorkerPoolOptions, UseLiteBatchResult } from "./use-lite-pool.js";
export {
  TransformersEmbeddings,
  modelLocation,
  isModelPath,
  TRANSFORMERS_PACKAGE,
  TRANSFORMERS_INSTALL_COMMAND,
  TRANSFORMERS_DEFAULT_BATCH_SIZE,
  DTYPE_FILE_SUFFIX,
  MODEL_DIR_ENV,
  ALLOW_REMOTE_ENV,
} from "./transformers.js";
export type { TransformersEmbeddingsOptions, TransformersDtype, TransformersModuleLike, FeatureExtractorLike, ModelLocation } from "./transformers.js";
export { MODEL_FAMILIES, GENERIC_FAMILY_DEFAULTS, BGE_EN_QUERY_INSTRUCTION, modelFamilyOf, modelFamilyNamed, familyKey } from "./families.js";
export type { ModelFamily, TransformersPooling } from "./families.js";
export { parseEncoderSpec, isEncoderSpec, MODEL_ALIASES, TRANSFORMERS_SPEC_PREFIX } from "./spec.js";
export type { ParsedEncoderSpec, BuiltinEncoderName, TransformersEncoderSpec } from "./spec.js";
export { PrefixedEmbeddings, withPrefixes } from "./prefixed.js";
export type { PrefixOptions } from "./prefixed.js";
export { embedQueryBatch, hasQueryBatch } from "./query-batch.js";
export type { QueryBatchEmbeddings } from "./query-batch.js";
export { modelIdOf } from "./model-id.js";

/**
 * What `encoder: "..."` accepts: a built-in name, or a transformers.js spec `hf:<hub id or directory>[?options]`
 * (see spec.ts). The template-literal member lets routers take `"hf:..."` strings with no change to their types.
 */
export type EncoderName = BuiltinEncoderName | TransformersEncoderSpec;

/** The built-in names (without the open-ended `hf:` specs). */
export const ENCODER_NAMES: readonly EncoderName[] = ["use-lite", "lexical", "minilm", "hybrid"];

export interface ResolvedEncoder {
  /** The encoder to call (already wrapped in `CachedEmbeddings` when caching applies). */
  embeddings: EmbeddingsInterface;
  /** Identifies the vector space; caches and persisted indexes must be keyed by it. */
  modelId: string;
  /**
   * "use-lite" | "lexical" | "minilm" | "hybrid" | "transformers" (an `hf:` spec or a `TransformersEmbeddings`) |
   * "custom". Of these, "use-lite", "minilm" and "hybrid" are symmetric (a query embeds like a document); for the
   * others embed query batches with `embedQueryBatch`, never with `embedDocuments`.
   */
  name: string;
}

export interface ResolveEncoderOptions {
  /**
   * Disk cache directory for stateless encoders. Built-ins: default env `TOOL_ATTENTION_CACHE_DIR`, else
   * `<cwd>/.cache/tool-attention/embeddings`; `false` = memory cache only. The same applies to a
   * `TransformersEmbeddings` instance (stateless, ours); any other user-supplied encoder is wrapped in the cache only
   * when a directory string is given here.
   */
  cacheDir?: string | false;
}

/** The MiniLM model loaded by `resolveEncoder("minilm")` (see `MODEL_ALIASES`). */
export const MINILM_MODEL: string = MODEL_ALIASES.minilm!;

/**
 * One cache-wrapped encoder per built-in model and cache directory, shared by every router in the process: routers
 * over several catalogs (or one per agent) then share the document memory and the recent-query LRU instead of
 * each embedding the same texts again. Safe because these encoders are stateless.
 */
const sharedEncoders = new Map<string, CachedEmbeddings>();
function sharedCached(modelId: string, cacheDir: string | false | undefined, make: () => EmbeddingsInterface): CachedEmbeddings {
  // The default directory is resolved now (it follows TOOL_ATTENTION_CACHE_DIR and the working directory).
  const dir = cacheDir === undefined ? defaultEmbeddingCacheDir() : cacheDir;
  const key = `${modelId}\0${dir === false ? "(memory)" : path.resolve(dir)}`;
  let e = sharedEncoders.get(key);
  if (!e) sharedEncoders.set(key, (e = new CachedEmbeddings(make(), { modelId, cacheDir })));
  return e;
}

/**
 * Resolves an encoder name or spec (or a user's LangChain Embeddings) to a ready-to-use encoder.
 * Models are loaded here, so a missing model or package fails now with an explanatory error rather than mid-turn.
 */
export async function resolveEncoder(
  spec: EncoderName | EmbeddingsInterface | undefined,
  opts: ResolveEncoderOptions = {},
): Promise<ResolvedEncoder> {
  if (spec === undefined || typeof spec === "string") {
    const parsed = parseEncoderSpec(spec ?? "use-lite");
    if (parsed.kind === "builtin" && parsed.name === "lexical") {
      // Stateful (document vectors depend on the fitted corpus): never behind CachedEmbeddings.
      const lexical = new LexicalEmbeddings();
      return { embeddings: lexical, modelId: lexical.modelId, name: "lexical" };
    }
    if (parsed.kind === "builtin") {
      const inner = new UseLiteEmbeddings();
      // Loads the model in the encoder's worker thread: a broken model fails here, and this thread never loads it.
      await inner.warmUp();
      const embeddings = sharedCached(inner.modelId, opts.cacheDir, () => inner);
      return { embeddings, modelId: inner.modelId, name: parsed.name };
    }
    const inner = new TransformersEmbeddings(parsed.options);
    await inner.load();
    return { embeddings: sharedCached(inner.modelId, opts.cacheDir, () => inner), modelId: inner.modelId, name: parsed.name };
  }
  if (!spec || typeof spec.embedDocuments !== "function" || typeof spec.embedQuery !== "function") {
    throw new TypeError("resolveEncoder: expected an encoder name or an object with embedDocuments() and embedQuery().");
  }
  if (spec instanceof TransformersEmbeddings) {
    // Ours and stateless: loaded now like a spec, and cached like the built-ins (default directory included).
    await spec.load();
    return { embeddings: sharedCached(spec.modelId, opts.cacheDir, () => spec), modelId: spec.modelId, name: "transformers" };
  }
  const modelId = modelIdOf(spec);
  const cacheable = typeof opts.cacheDir === "string" && !(spec instanceof LexicalEmbeddings) && !(spec instanceof CachedEmbeddings);
  return {
    embeddings: cacheable ? new CachedEmbeddings(spec, { modelId, cacheDir: opts.cacheDir }) : spec,
    modelId,
    name: "custom",
  };
}
