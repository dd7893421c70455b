/**
 * Worker-thread entry of the USE-lite encoder (started by `UseLiteWorkerPool`, never imported by the library's
 * main-thread code). It owns the TF.js/WASM runtime, so the runtime's process-wide exception listeners land on this
 * thread's own `process` object and a 20–50 ms forward pass blocks this thread instead of the host's event loop.
 *
 * Protocol (see `UseLiteRequest` / `UseLiteResponse`): the pool sends one request at a time. A request with texts
 * runs ONE `model.embed` call on them exactly as given (preparing and batching stay on the caller's side, so the
 * vectors are those of the in-process path); an empty text list only loads the model. The reply carries the raw
 * rows flattened into a transferred Float64Array (the model's float32 values convert to doubles exactly) and the
 * row count as returned, so the caller can assert it.
 */
import { parentPort } from "node:worker_threads";
import { initUseLiteModel, type UseLiteModel } from "./use-lite-model.js";
import type { UseLiteRequest, UseLiteResponse } from "./use-lite-pool.js";

if (!parentPort) throw new Error("use-lite-worker must be started as a worker thread (by UseLiteWorkerPool).");
const port = parentPort;

let model: Promise<UseLiteModel> | undefined;
function loadModel(): Promise<UseLiteModel> {
  if (!model) {
    // This thread owns the runtime: the packed weights' own copies can go (see compactPackedWeights).
    model = initUseLiteModel({ compactWeights: true });
    // Not memoized on failure: the next request retries.
    model.catch(() => {
      model = undefined;
    });
  }
  return model;
}

// A worker is only started when a request is about to arrive: start loading now, while it is in transit. A failure
// here is reported by the first request (which retries the load).
loadModel().catch(() => undefined);

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

port.on("message", (req: UseLiteRequest) => {
  // `handle` never rejects; a failing postMessage surfaces as a worker error, which the pool turns into a rejection.
  void handle(req).then((res) => port.postMessage(res, res.ok && res.data ? [res.data.buffer] : []));
});

async function handle(req: UseLiteRequest): Promise<UseLiteResponse> {
  let m: UseLiteModel;
  try {
    m = await loadModel();
  } catch (err) {
    return { id: req.id, ok: false, phase: "load", message: describe(err) };
  }
  const texts = req.texts;
  if (texts.length === 0) return { id: req.id, ok: true, count: 0, dim: 0 };
  try {
    if (!texts.every((t) => typeof t === "string")) throw new TypeError("every input must be a string");
    const rows = await m.embed(texts);
    if (!Array.isArray(rows)) return { id: req.id, ok: false, phase: "embed", message: `the model returned ${typeof rows}, not an array of vectors` };
    const dim = rows[0]?.length ?? 0;
    const data = new Float64Array(rows.length * dim);
    rows.forEach((row, i) => {
      if (row.length !== dim) throw new Error(`inconsistent vector dimension ${row.length} (expected ${dim}) in one batch`);
      data.set(row, i * dim);
    });
    return { id: req.id, ok: true, count: rows.length, dim, data };
  } catch (err) {
    return { id: req.id, ok: false, phase: "embed", message: describe(err) };
  }
}
