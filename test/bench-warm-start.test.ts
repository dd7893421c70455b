/**
 * The scaling sweep's warm start: at a size with the approximate index, the first router fills a shared store
 * (the real Debian PostgreSQL, a throwaway cluster) and a fresh child process warm-starts from it. The child's
 * encoder throws on any embedding, so a passing run proves the store served every vector and the index snapshot.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { runScaling } from "../src/bench/scaling.js";
import { expandCatalog } from "../src/bench/synthetic/expand.js";
import { loadTasks } from "../src/eval/tasks.js";
import { DEFAULT_CONTEXT } from "../src/bench/metrics.js";

test("scaling at 5,000 tools: a fresh process warm-starts from PostgreSQL without embedding", async () => {
  const tasks = (await loadTasks("data/synthetic/tasks.jsonl")).slice(0, 6);
  const lines: string[] = [];
  const points = await runScaling({
    sizes: [5_000],
    expand: (n) => expandCatalog(n, 42),
    tasks,
    coldLimit: 60,
    projectionSample: 10,
    latencySample: 5,
    encoder: "lexical",
    encoding: "o200k_base",
    context: DEFAULT_CONTEXT,
    cacheDir: false,
    warmStore: "postgres",
    log: (l) => lines.push(l),
  });
  const [p] = points;
  assert.equal(p.index, "hnsw");
  assert.equal(p.warmFrom, "postgres", lines.join("\n"));
  assert.ok(p.warmProcess, "a fresh process was measured");
  assert.equal(p.warmProcess.index, "hnsw");
  assert.equal(p.warmProcess.catalogVersion, 1, "the child routes on the version the first router published");
  assert.ok(p.warmStartS > 0 && p.warmStartS === p.warmProcess.warmStartS);
  assert.ok(p.rssMiB === p.warmProcess.rssMiB && p.rssMiB > 0);
  assert.ok((p.warmProcess.routeP50Ms ?? -1) >= 0 && (p.warmProcess.firstPassRouteP50Ms ?? -1) >= 0, "the child routed the latency queries twice");
  assert.ok(lines.some((l) => /warm start of a fresh process from the postgres store/.test(l)), lines.join("\n"));
});
