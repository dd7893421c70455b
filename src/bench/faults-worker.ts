/**
 * The worker thread of the malformed-catalog suite (see faults.ts): runs one case at a time on request and
 * answers with its classified result. Living in its own thread, a case that hangs or exhausts memory can be
 * stopped from outside and counted as a crash.
 *
 * Two more checks ride along with every run: no network request (an external `$ref` must never be fetched), and
 * no new property on Object.prototype (a `__proto__` key must never pollute it).
 */
import { parentPort } from "node:worker_threads";
import { malformedCatalogCases, runMalformedCase, type CaseWorkerReply, type CaseWorkerRequest } from "./faults.js";

const cases = malformedCatalogCases();
const fetched: string[] = [];
globalThis.fetch = (async (input: unknown) => {
  fetched.push(String((input as { url?: string })?.url ?? input));
  throw new Error("network access is disabled in the fault suite");
}) as typeof fetch;
const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(",");
const cleanPrototype = prototypeKeys();

parentPort?.on("message", async (job: CaseWorkerRequest) => {
  fetched.length = 0;
  const run = await runMalformedCase(cases[job.index], job.encoder);
  const polluted = prototypeKeys() !== cleanPrototype || ({} as Record<string, unknown>).polluted !== undefined;
  if (run.outcome !== "crash" && (fetched.length > 0 || polluted)) {
    run.outcome = "crash";
    run.stage = "invariants";
    run.message = fetched.length > 0 ? `fetched ${fetched.join(", ")}` : "Object.prototype was modified";
  }
  parentPort?.postMessage({ index: job.index, encoder: job.encoder, run } satisfies CaseWorkerReply);
});
parentPort?.postMessage({ ready: true } satisfies CaseWorkerReply);
