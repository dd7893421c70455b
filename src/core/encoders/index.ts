/**
 * Encoder seam: every encoder is a LangChain `EmbeddingsInterface`, so any `@langchain/core` Embeddings (OpenAI,
 * Ollama, transformers.js...) plugs in. Built-in names:
 * - "use-lite" (default): embedded Universal Sentence Encoder lite, 512-d, offline, cached on disk; the model runs
 *   in a worker thread, off the host's event loop (see use-lite.ts);
 * - "lexical": BM25 over hashed features, no model; stateful (fits the corpus), never cached;
 * - "minilm": Xenova/all-MiniLM-L6-v2 through the optional `@huggingface/transformers` package, cached on disk;
 * - "hybrid": USE-lite here; the router adds a sparse BM25 channel (`Bm25Index`) and fuses both scores.
 */
import { Embeddings, type EmbeddingsInterface } from "@langchain/core/embeddings";
import path from "node:path";
import { CachedEmbeddings, defaultEmbeddingCacheDir } from "./cache.js";
import { LexicalEmbeddings } from "./lexical.js";
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
  USE_LITE_EMPTY_PLACEHOLDER,
} from "./use-lite.js";
export type { UseLiteEmbeddingsOptions } from "./use-lite.js";
export { UseLiteWorkerPool, closeUseLiteWorkers, sharedUseLiteWorkerPool, USE_LITE_WORKER_LABEL } from "./use-lite-pool.js";
export type { UseLiteWorkerPoolOptions, UseLiteBatchResult } from "./use-lite-pool.js";

export type EncoderName = "use-lite" | "lexical" | "minilm" | "hybrid";

export const ENCODER_NAMES: readonly EncoderName[] = ["use-lite", "lexical", "minilm", "hybrid"];

export interface ResolvedEncoder {
  /** The encoder to call (already wrapped in `CachedEmbeddings` when caching applies). */
  embeddings: EmbeddingsInterface;
  /** Identifies the vector space; caches and persisted indexes must be keyed by it. */
  modelId: string;
  /** "use-lite" | "lexical" | "minilm" | "hybrid" | "custom". */
  name: string;
}

export interface ResolveEncoderOptions {
  /**
   * Disk cache directory for stateless encoders. Built-ins: default env `TOOL_ATTENTION_CACHE_DIR`, else
   * `<cwd>/.cache/tool-attention/embeddings`; `false` = memory cache only. A user-supplied encoder is wrapped in the
   * cache only when a directory string is given here.
   */
  cacheDir?: string | false;
}

/** The MiniLM model loaded by `resolveEncoder("minilm")`. */
export const MINILM_MODEL = "Xenova/all-MiniLM-L6-v2";

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
 * Resolves an encoder name (or a user's LangChain Embeddings) to a ready-to-use encoder.
 * Built-in models are loaded here, so a missing model fails now with an explanatory error rather than mid-turn.
 */
export async function resolveEncoder(
  spec: EncoderName | EmbeddingsInterface | undefined,
  opts: ResolveEncoderOptions = {},
): Promise<ResolvedEncoder> {
  if (spec === undefined || spec === "use-lite" || spec === "hybrid") {
    const inner = new UseLiteEmbeddings();
    // Loads the model in the encoder's worker thread: a broken model fails here, and this thread never loads it.
    await inner.warmUp();
    const embeddings = sharedCached(inner.modelId, opts.cacheDir, () => inner);
    return { embeddings, modelId: inner.modelId, name: spec === "hybrid" ? "hybrid" : "use-lite" };
  }
  if (spec === "lexical") {
    // Stateful (document vectors depend on the fitted corpus): never behind CachedEmbeddings.
    const lexical = new LexicalEmbeddings();
    return { embeddings: lexical, modelId: lexical.modelId, name: "lexical" };
  }
  if (spec === "minilm") {
    const inner = await loadMiniLm();
    return { embeddings: sharedCached(inner.modelId, opts.cacheDir, () => inner), modelId: inner.modelId, name: "minilm" };
  }
  if (typeof spec === "string") {
    throw new Error(`Unknown encoder "${spec}". Use one of ${ENCODER_NAMES.map((n) => `"${n}"`).join(", ")}, or pass a LangChain Embeddings instance.`);
  }
  if (!spec || typeof spec.embedDocuments !== "function" || typeof spec.embedQuery !== "function") {
    throw new TypeError("resolveEncoder: expected an encoder name or an object with embedDocuments() and embedQuery().");
  }
  const modelId = customModelId(spec);
  const cacheable = typeof opts.cacheDir === "string" && !(spec instanceof LexicalEmbeddings) && !(spec instanceof CachedEmbeddings);
  return {
    embeddings: cacheable ? new CachedEmbeddings(spec, { modelId, cacheDir: opts.cacheDir }) : spec,
    modelId,
    name: "custom",
  };
}

/** `modelId` (this package's encoders), else `model` / `modelName` (LangChain integrations), else "custom". */
function customModelId(spec: EmbeddingsInterface): string {
  const s = spec as unknown as Record<string, unknown>;
  for (const field of ["modelId", "model", "modelName"]) {
    const v = s[field];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return "custom";
}

// ---------------------------------------------------------------------------------------------------------------
// MiniLM (optional)
// ---------------------------------------------------------------------------------------------------------------

const TRANSFORMERS_PACKAGE = "@huggingface/transformers";

/** Minimal structural view of the parts of `@huggingface/transformers` used here (the package is optional). */
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline: (task: string, model: string, options?: Record<string, unknown>) => Promise<FeatureExtractor>;
}
type FeatureExtractor = (texts: string[], options: { pooling: "mean"; normalize: boolean }) => Promise<{ tolist(): number[][] }>;

/** all-MiniLM-L6-v2 (384-d, mean pooling, normalized) as LangChain Embeddings, over transformers.js. */
class MiniLmEmbeddings extends Embeddings {
  readonly modelId = "minilm-l6-v2";
  constructor(
    private readonly extractor: FeatureExtractor,
    private readonly batchSize = 32,
  ) {
    super({});
  }
  async embedDocuments(documents: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < documents.length; i += this.batchSize) {
      // The tokenizer lowercases and truncates to the model's 256-token window; empty strings are fine here.
      const batch = documents.slice(i, i + this.batchSize);
      const rows = (await this.extractor(batch, { pooling: "mean", normalize: true })).tolist();
      if (rows.length !== batch.length) throw new Error(`MiniLM returned ${rows.length} vectors for ${batch.length} texts.`);
      out.push(...rows);
    }
    return out;
  }
  async embedQuery(document: string): Promise<number[]> {
    return (await this.embedDocuments([document]))[0]!;
  }
}

async function loadMiniLm(): Promise<MiniLmEmbeddings> {
  const allowRemote = process.env.TOOL_ATTENTION_ALLOW_REMOTE_MODELS === "1";
  const modelDir = process.env.TOOL_ATTENTION_MODEL_DIR;
  const howToModel =
    `Put the model files under a directory and set TOOL_ATTENTION_MODEL_DIR to it ` +
    `(expected layout: <dir>/${MINILM_MODEL}/{config.json,tokenizer.json,tokenizer_config.json,onnx/model.onnx}), ` +
    `or set TOOL_ATTENTION_ALLOW_REMOTE_MODELS=1 to let transformers.js download it from the Hugging Face Hub.`;
  let tf: TransformersModule;
  try {
    // Module name in a variable: the package is optional and tsc must not require it.
    const name: string = TRANSFORMERS_PACKAGE;
    tf = (await import(name)) as TransformersModule;
  } catch (err) {
    throw new Error(
      `Encoder "minilm" needs the optional package ${TRANSFORMERS_PACKAGE}, which is not installed ` +
        `(${(err as Error)?.message ?? err}). Install it with: ONNXRUNTIME_NODE_INSTALL=skip npm install ${TRANSFORMERS_PACKAGE} ` +
        `(the variable skips onnxruntime-node's CUDA download; the CPU binaries ship in the package). ` +
        `It also needs the ${MINILM_MODEL} model files: ${howToModel} ` +
        `Or use the built-in encoders "use-lite" (default, offline) or "lexical".`,
      { cause: err },
    );
  }
  try {
    tf.env.allowRemoteModels = allowRemote;
    tf.env.allowLocalModels = true;
    if (modelDir) tf.env.localModelPath = path.resolve(modelDir) + path.sep;
    const extractor = await tf.pipeline("feature-extraction", MINILM_MODEL, { dtype: "fp32" });
    return new MiniLmEmbeddings(extractor);
  } catch (err) {
    const where = modelDir
      ? `TOOL_ATTENTION_MODEL_DIR=${modelDir} (looked for ${path.join(path.resolve(modelDir), MINILM_MODEL)})`
      : `TOOL_ATTENTION_MODEL_DIR is not set (transformers.js default local path: ${tf.env?.localModelPath ?? "?"})`;
    throw new Error(
      `Encoder "minilm": could not load ${MINILM_MODEL} (${(err as Error)?.message ?? err}). ` +
        `Remote downloads are ${allowRemote ? "enabled" : "disabled (TOOL_ATTENTION_ALLOW_REMOTE_MODELS is not 1)"}; ${where}. ${howToModel}`,
      { cause: err },
    );
  }
}
