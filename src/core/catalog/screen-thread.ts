/**
 * Screening a catalog's pending tools in a worker thread (`screen-worker.ts`), so that the seconds a large catalog's
 * screening takes (about 0.6 ms per tool) never run on the host's event loop. The thread reads; the catalog judges
 * each result on its own thread as it arrives (see `ToolCatalog`, "Progressive screening").
 */
import type { Worker } from "node:worker_threads";
import type { ScreenableTool, ScreeningResult } from "../screening/screen.js";
import { startModuleWorker } from "../util/module-worker.js";

/** What the thread gets (`workerData`): the tools to screen, in order, and what each is screened next to. */
export interface ScreenThreadRequest {
  tools: { spec: ScreenableTool; server: string }[];
  neighbours: readonly { name: string; server: string }[];
  threshold: number;
}

/** A batch of results: `results[i]` is tool `from + i` of the request; `error` when the thread failed. */
export interface ScreenThreadReply {
  from: number;
  results: ScreeningResult[];
  error?: string;
}

const LABEL = "ToolCatalog (screening thread)";

/** The fields the screen reads, and only those: a tool's other fields (a precondition function) cannot be sent to a thread. */
export function screenableOf(spec: ScreenableTool): ScreenableTool {
  const out: ScreenableTool = { name: spec.name };
  for (const k of ["title", "description", "inputSchema", "outputSchema", "annotations"] as const) if (spec[k] !== undefined) out[k] = spec[k];
  return out;
}

export interface ScreenThread {
  /** Stops the thread (the tools it has not answered for stay pending). */
  stop(): void;
  /** Keeps the process alive while the thread runs (`true`: someone waits for the end), or not. */
  hold(hold: boolean): void;
}

/**
 * Starts the thread. `onResults` hears each batch; `onEnd` hears the end: `undefined` when every tool was answered,
 * else why not (the thread failed or stopped: the caller screens the rest itself). Throws when no thread can be
 * started (the tools cannot be sent, or no tsx under TypeScript sources).
 */
export function startScreenThread(
  request: ScreenThreadRequest,
  onResults: (from: number, results: ScreeningResult[]) => void,
  onEnd: (error: string | undefined) => void,
): ScreenThread {
  const worker: Worker = startModuleWorker(import.meta.url, "screen-worker", LABEL, { workerData: request });
  let answered = 0;
  let ended = false;
  const end = (error: string | undefined) => {
    if (ended) return;
    ended = true;
    void worker.terminate().catch(() => undefined);
    onEnd(error);
  };
  worker.on("message", (reply: ScreenThreadReply) => {
    if (ended) return;
    if (reply.error !== undefined) return end(`${LABEL}: ${reply.error}`);
    answered = Math.max(answered, reply.from + reply.results.length);
    onResults(reply.from, reply.results);
    if (answered >= request.tools.length) end(undefined);
  });
  worker.on("error", (err: Error) => end(`${LABEL}: ${err?.message ?? err}`));
  worker.on("exit", (code) => end(answered >= request.tools.length ? undefined : `${LABEL}: the thread stopped (exit code ${code}) after ${answered} of ${request.tools.length} tools`));
  return {
    stop: () => end(`${LABEL}: stopped`),
    hold: (hold) => (hold ? worker.ref() : worker.unref()),
  };
}
