/**
 * The background screening thread of a catalog built with its screening pending (started by `screen-thread.ts`):
 * screens each batch of tools it is sent in one synchronous pass, which is what the screen's per-sentence memory is
 * made for (screening/memo.ts: answers kept for one turn of the event loop), and posts the results as it goes.
 * The verdicts (policy, allow, quarantine) are the catalog's, on its own thread: this thread only reads.
 */
import { parentPort, workerData } from "node:worker_threads";
import { screenTool } from "../screening/screen.js";
import type { ScreenThreadBatch, ScreenThreadContext, ScreenThreadReply } from "./screen-thread.js";

/** Results per message: small enough that the first arrive within tens of milliseconds. */
const BATCH = 64;

const port = parentPort;
if (port) {
  const context = workerData as ScreenThreadContext;
  // Each message is a batch of tools (the catalog sends them in turns, so that no single copy blocks its thread).
  port.on("message", (batch: ScreenThreadBatch) => {
    try {
      for (let start = 0; start < batch.tools.length; start += BATCH) {
        const results = batch.tools
          .slice(start, start + BATCH)
          .map((t) => screenTool(t.spec, { server: t.server, tools: context.neighbours, threshold: context.threshold }));
        port.postMessage({ from: batch.from + start, results } satisfies ScreenThreadReply);
      }
    } catch (err) {
      port.postMessage({ from: -1, results: [], error: (err as Error)?.message ?? String(err) } satisfies ScreenThreadReply);
    }
  });
}
