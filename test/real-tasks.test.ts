/**
 * The gold tasks over the real MCP catalog (data/mcp/real-tasks.jsonl): every gold tool is a tool the real servers
 * list, the three kinds are there, requests are paraphrased (never the tool's name or its description's first
 * sentence), and a task whose gold tool is missing from a capture is dropped with a warning instead of failing the run.
 * The catalog is captured by starting the 17 servers of data/mcp/real-servers.json (cached under .cache afterwards).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadRealCatalog, tasksInCatalog, REAL_SERVERS_CONFIG, REAL_TASKS } from "../src/bench/real-catalog.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { firstSentence } from "../src/core/catalog/text.js";
import { loadTasks } from "../src/eval/tasks.js";
import { captureCatalog } from "../src/mcp/capture.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = `${ROOT}${REAL_SERVERS_CONFIG}`;
const TASKS = `${ROOT}${REAL_TASKS}`;
const installed = existsSync(`${ROOT}node_modules/@modelcontextprotocol/server-everything/package.json`);
const skip = installed ? false : "MCP server devDependencies are not installed (npm ci)";

const tasks = loadTasks(TASKS);
// Multi-step dev tasks written for routing round 2 (eval --per-step); not part of the bench's task set.
const LONG_TASKS = `${ROOT}data/mcp/real-long-tasks.jsonl`;
const longTasks = loadTasks(LONG_TASKS);

async function realCatalog() {
  const { catalog: file } = await captureCatalog(CONFIG);
  assert.deepEqual(file.capture.failures.map((f) => f.server), [], "every real server starts and lists its tools");
  return { file, catalog: ToolCatalog.fromCatalogObject(file) };
}

test("every gold tool of the real tasks is a tool the real servers list, and every server is asked for", { skip }, async () => {
  const { file, catalog } = await realCatalog();
  assert.equal(file.servers.length, 17);
  for (const t of tasks)
    for (const g of t.gold) assert.ok(catalog.getByName(g).length > 0, `${t.id}: gold tool "${g}" is not in the real catalog`);
  // Single-tool tasks cover every server (a name listed by several servers counts for each of them).
  const asked = new Set(
    tasks.filter((t) => t.kind === "single").flatMap((t) => catalog.getByName(t.gold[0]).map((r) => r.server)),
  );
  assert.deepEqual([...asked].sort(), file.servers.map((s) => s.name).sort());
  // The bench loads all of them when every server is captured.
  const real = await loadRealCatalog({ config: CONFIG, tasks: TASKS });
  assert.ok(!("skipped" in real));
  assert.equal(real.tasks.length, tasks.length);
});

test("real tasks: single, multi-request across servers, long-horizon with one plan step per gold tool", { skip }, async () => {
  const { catalog } = await realCatalog();
  const byKind = new Map<string, typeof tasks>();
  for (const t of tasks) byKind.set(t.kind ?? "none", [...(byKind.get(t.kind ?? "none") ?? []), t]);
  assert.deepEqual([...byKind.keys()].sort(), ["long", "multi", "single"]);
  assert.ok(byKind.get("single")!.length >= 50);
  assert.ok(byKind.get("multi")!.length >= 12);
  assert.ok(byKind.get("long")!.length >= 8);
  assert.equal(new Set(tasks.map((t) => t.id)).size, tasks.length, "task ids are unique");
  for (const t of byKind.get("single")!) assert.equal(t.gold.length, 1, t.id);
  for (const t of byKind.get("multi")!) {
    assert.ok(t.gold.length >= 2 && t.gold.length <= 3, t.id);
    const servers = new Set(t.gold.flatMap((g) => catalog.getByName(g).map((r) => r.server)));
    assert.ok(servers.size >= 2, `${t.id}: a multi-request spans servers`);
  }
  for (const t of byKind.get("long")!) {
    assert.ok(t.gold.length >= 4, t.id);
    assert.equal(t.steps?.length, t.gold.length, `${t.id}: one plan step per gold tool`);
  }
});

test("no real-task query or plan step contains its gold tool's name or the first sentence of its description", { skip }, async () => {
  const { catalog } = await realCatalog();
  for (const t of [...tasks, ...longTasks])
    for (const g of t.gold)
      for (const tool of catalog.getByName(g)) {
        const first = firstSentence(tool.description).replace(/[.!?]$/, "").trim().toLowerCase();
        for (const text of [t.query, ...(t.steps ?? [])]) {
          const lower = text.toLowerCase();
          assert.ok(!lower.includes(g.toLowerCase()), `${t.id} names ${g}: ${text}`);
          if (first) assert.ok(!lower.includes(first), `${t.id} copies the description of ${tool.server}/${g}: ${text}`);
        }
      }
  assert.equal(new Set(tasks.map((t) => t.query)).size, tasks.length, "queries are distinct");
});

test("the multi-step dev tasks: every gold tool is a real tool, one plan step per gold tool, distinct from the bench's", { skip }, async () => {
  const { catalog } = await realCatalog();
  assert.ok(longTasks.length >= 15);
  for (const t of longTasks) {
    assert.equal(t.kind, "long", t.id);
    assert.equal(t.steps?.length, t.gold.length, `${t.id}: one plan step per gold tool`);
    for (const g of t.gold) assert.ok(catalog.getByName(g).length > 0, `${t.id}: gold tool "${g}" is not in the real catalog`);
  }
  const benchQueries = new Set(tasks.map((t) => t.query));
  assert.ok(longTasks.every((t) => !benchQueries.has(t.query)));
  assert.equal(new Set(longTasks.map((t) => t.id)).size, longTasks.length);
});

test("a task whose gold tool is missing from the capture is dropped with a warning naming the task and the tool", () => {
  const catalog = ToolCatalog.fromCatalogObject({
    servers: [{ name: "slack", tools: [{ name: "slack_post_message", description: "Post a message." }] }],
  });
  const warnings: string[] = [];
  const kept = tasksInCatalog(
    [
      { id: "ok", query: "tell #general hi", gold: ["slack_post_message"] },
      { id: "lost", query: "open a ticket and tell #general", gold: ["linear_createIssue", "slack_post_message"] },
    ],
    catalog,
    (w) => warnings.push(w),
    "real-tasks.jsonl",
  );
  assert.deepEqual(kept.map((t) => t.id), ["ok"]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /real-tasks\.jsonl: task lost dropped: gold tool "linear_createIssue" not in the captured catalog/);
});
