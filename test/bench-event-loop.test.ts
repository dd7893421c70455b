import { test } from "node:test";
import assert from "node:assert/strict";
import { eventLoopSection, renderEventLoopMarkdown, type EventLoopDelayResult } from "../src/bench/event-loop.js";

function assertShape(r: EventLoopDelayResult, threads: number, mode: string): void {
  assert.equal(r.threads, threads, `${mode}: threads`);
  for (const key of ["p50Ms", "p99Ms", "maxMs", "routesPerSecond"] as const)
    assert.ok(Number.isFinite(r[key]) && r[key] >= 0, `${mode}: ${key} = ${r[key]}`);
  assert.ok(r.p50Ms <= r.p99Ms && r.p99Ms <= r.maxMs, `${mode}: p50 ${r.p50Ms} ≤ p99 ${r.p99Ms} ≤ max ${r.maxMs}`);
  assert.ok(r.routesPerSecond > 0, `${mode}: routes per second`);
}

test("eventLoopSection: 50 threads on one router, the worker-thread encoder holds the event loop up less than in process", { timeout: 600_000 }, async () => {
  const section = await eventLoopSection({ threads: 50 });
  assert.equal(section.threads, 50);
  assert.equal(section.queriesPerThread, 1);
  assert.ok(section.tools > 0 && section.cpus > 0);
  assertShape(section.worker, 50, "worker");
  assertShape(section.inProcess, 50, "in-process");
  // In process, the 50 forward passes run on the measured thread back to back (hundreds of ms on any machine);
  // in the worker only message passing and scoring do. Only the order is asserted, no threshold.
  assert.ok(
    section.worker.p99Ms < section.inProcess.p99Ms,
    `p99 event-loop delay: worker ${section.worker.p99Ms} ms, in process ${section.inProcess.p99Ms} ms`,
  );

  const md = renderEventLoopMarkdown(section);
  assert.match(md, /^## Event-loop delay\n/);
  assert.match(md, /\| in a worker thread \(default\) \| [\d.,]+ ms \| [\d.,]+ ms \| [\d.,]+ ms \| [\d.]+ \|/);
  assert.match(md, /\| in process \(`inProcess: true`\) \| [\d.,]+ ms \| [\d.,]+ ms \| [\d.,]+ ms \| [\d.]+ \|/);
  assert.match(md, /50 concurrent threads/);
  assert.match(md, /× lower\)\.|did not lower/);
});

test("renderEventLoopMarkdown: figures, note and the outcome sentence", async () => {
  const r = (p99Ms: number, maxMs: number): EventLoopDelayResult => ({ threads: 50, p50Ms: 1.1, p99Ms, maxMs, routesPerSecond: 48.25 });
  const section = { threads: 50, queriesPerThread: 2, tools: 27, cpus: 2, worker: r(4.87, 10.62), inProcess: r(905.97, 905.97) };
  const md = renderEventLoopMarkdown(section, "A note.");
  assert.match(md, /each route 2 queries through one shared router/);
  assert.match(md, /\nA note\.\n/);
  assert.match(md, /\| in a worker thread \(default\) \| 1\.1 ms \| 4\.9 ms \| 11 ms \| 48\.3 \|/);
  assert.match(md, /\| in process \(`inProcess: true`\) \| 1\.1 ms \| 906 ms \| 906 ms \| 48\.3 \|/);
  assert.match(md, /p99 event-loop delay is 4\.9 ms against 906 ms in process \(186× lower\)\./);
  const worse = renderEventLoopMarkdown({ ...section, worker: r(950, 950) });
  assert.match(worse, /did not lower p99 event-loop delay \(950 ms against 906 ms in process\)/);
  await assert.rejects(eventLoopSection({ threads: 0 }), RangeError);
});
