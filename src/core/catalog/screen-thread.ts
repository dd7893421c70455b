/**
 * Screening a catalog's pending tools in a worker thread (`screen-worker.ts`), so that the seconds a large catalog's
 * screening takes (about 0.6 ms per tool) never run on the host's event loop. The thread reads; the catalog judges
 * each result on its own thread as it arrives (see `ToolCatalog`, "Progressive screening").
 */
import type { Worker } from "node:worker_threads";
import type { ScreenableTool, ScreeningResult } from "../screening/screen.js";
import { startModuleWorker } from "../util/module-worker.js";

/** The tools to screen, in order, and what each is screened next to. */
export interface ScreenThreadRequest extends ScreenThreadContext {
  tools: { spec: ScreenableTool; server: string }[];
}

/** What the thread gets at its start (`workerData`). */
export interface ScreenThreadContext {
  neighbours: readonly { name: string; server: string }[];
  threshold: number;
}

/** One message to the thread: tools `from`, `from + 1`, … of the request. */
export interface ScreenThreadBatch {
  from: number;
  tools: { spec: ScreenableTool; server: string }[];
}

/** Tools per message to the thread: copying them takes a few milliseconds of the sending thread. */
const FEED = 200;

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
 * started (no tsx under TypeScript sources); a batch that cannot be sent (a tool that does not copy) ends it with an
 * error.
 */
export function startScreenThread(
  request: ScreenThreadRequest,
  onResults: (from: number, results: ScreeningResult[]) => void,
  onEnd: (error: string | undefined) => void,
): ScreenThread {
  const context: ScreenThreadContext = { neighbours: request.neighbours, threshold: request.threshold };
  const worker: Worker = startModuleWorker(import.meta.url, "screen-worker", LABEL, { workerData: context });
  let answered = 0;
  let ended = false;
  let feeding: NodeJS.Immediate | undefined;
  let held = false;
  const end = (error: string | undefined) => {
    if (ended) return;
    ended = true;
    if (feeding) clearImmediate(feeding);
    void worker.terminate().catch(() => undefined);
    onEnd(error);
  };
  // The tools go over in batches, one per turn of the event loop: no single copy blocks this thread for long.
  let sent = 0;
  const feed = () => {
    feeding = undefined;
    if (ended) return;
    try {
      worker.postMessage({ from: sent, tools: request.tools.slice(sent, sent + FEED) } satisfies ScreenThreadBatch);
    } catch (err) {
      return end(`${LABEL}: ${(err as Error)?.message ?? err}`);
    }
    sent += FEED;
    if (sent < request.tools.length) {
      feeding = setImmediate(feed);
      if (!held) feeding.unref();
    }
  };
  feed();
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
    hold: (hold) => {
      held = hold;
      if (hold) {
        worker.ref();
        feeding?.ref();
      } else {
        worker.unref();
        feeding?.unref();
      }
    },
  };
}
