/**
 * The background screening thread of a catalog built with its screening pending (started by `screen-thread.ts`):
 * screens the tools it is given in one synchronous pass, which is what the screen's per-sentence memory is made for
 * (screening.memo.ts: answers kept for one pass of the event loop), and posts the results in batches as it goes.
 * The verdicts (policy, allow, quarantine) are the catalog's, on its own thread: this thread only reads.
 */
import { parentPort, workerData } from "node:worker_threads";
import { screenTool } from "../screening/screen.js";
import type { ScreenThreadRequest, ScreenThreadReply } from "./screen-thread.js";

/** Results per message: small enough that the first arrive within tens of milliseconds. */
const BATCH = 64;

const port = parentPort;
if (port) {
  const request = workerData as ScreenThreadRequest;
  try {
    let batch: ScreenThreadReply["results"] = [];
    let from = 0;
    request.tools.forEach((t, i) => {
      batch.push(screenTool(t.spec, { server: t.server, tools: request.neighbours, threshold: request.threshold }));
      if (batch.length >= BATCH || i === request.tools.length - 1) {
        port.postMessage({ from, results: batch } satisfies ScreenThreadReply);
        from = i + 1;
        batch = [];
      }
    });
  } catch (err) {
    port.postMessage({ from: -1, results: [], error: (err as Error)?.message ?? String(err) } satisfies ScreenThreadReply);
  }
}
