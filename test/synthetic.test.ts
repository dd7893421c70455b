/**
 * The synthetic testbed: Table 2 calibration, byte-for-byte determinism of the committed files, realistic
 * schemas and preconditions, task validity and wording, and the scaling expansion.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { firstSentence } from "../src/core/catalog/text.js";
import { checkPreconditions, stateViewFrom } from "../src/core/preconditions/preconditions.js";
import type { JsonSchema } from "../src/core/types.js";
import { loadTasks } from "../src/eval/tasks.js";
import {
  catalogTokenStats,
  expandCatalog,
  generateCatalog,
  generateTasks,
  renderCatalogFile,
  renderTasksFile,
  schemaTokensOf,
  TABLE2_TOTAL_TOKENS,
  type SyntheticTask,
} from "../src/bench/synthetic/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CATALOG_FILE = join(ROOT, "data/synthetic/catalog.json");
const TASKS_FILE = join(ROOT, "data/synthetic/tasks.jsonl");

/** Table 2: tools per server and mean tokens per tool schema. */
const TABLE2: Record<string, { tools: number; perTool: number }> = {
  github: { tools: 30, perTool: 520 },
  filesystem: { tools: 10, perTool: 180 },
  database: { tools: 20, perTool: 410 },
  slack: { tools: 15, perTool: 290 },
  web: { tools: 10, perTool: 220 },
  jira: { tools: 35, perTool: 470 },
};

const committedCatalog = JSON.parse(readFileSync(CATALOG_FILE, "utf8"));
const committedTasks: SyntheticTask[] = readFileSync(TASKS_FILE, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const catalog = ToolCatalog.fromFile(CATALOG_FILE);

test("the committed catalog matches Table 2: 47.3k cl100k tokens within ±2 %, server sizes and per-tool means", () => {
  const stats = catalogTokenStats(committedCatalog);
  assert.ok(Math.abs(stats.total - TABLE2_TOTAL_TOKENS) / TABLE2_TOTAL_TOKENS <= 0.02, `total ${stats.total}`);
  assert.deepEqual(stats.servers.map((s) => s.name), Object.keys(TABLE2));
  for (const s of stats.servers) {
    assert.equal(s.tools, TABLE2[s.name].tools, `${s.name} tool count`);
    const off = Math.abs(s.perTool - TABLE2[s.name].perTool) / TABLE2[s.name].perTool;
    assert.ok(off <= 0.03, `${s.name}: ${s.perTool.toFixed(1)} tokens/tool vs ${TABLE2[s.name].perTool}`);
  }
  // The count is the documented one: JSON.stringify({name, description, inputSchema}) per tool.
  const first = committedCatalog.servers[0].tools[0];
  assert.equal(schemaTokensOf(first), schemaTokensOf({ name: first.name, description: first.description, inputSchema: first.inputSchema }));
  // Tools differ in size within a server; calibration is not padding every tool to one length.
  const github = committedCatalog.servers[0].tools.map((t: never) => schemaTokensOf(t));
  assert.ok(Math.max(...github) - Math.min(...github) > 150);
});

test("calibration holds for other seeds too (the seed spreads the budget differently)", () => {
  const other = generateCatalog(7);
  assert.notEqual(renderCatalogFile(other), renderCatalogFile(committedCatalog));
  const stats = catalogTokenStats(other);
  assert.ok(Math.abs(stats.total - TABLE2_TOTAL_TOKENS) / TABLE2_TOTAL_TOKENS <= 0.02, `total ${stats.total}`);
});

test("regenerating with seed 42 reproduces the committed files byte for byte", () => {
  assert.equal(renderCatalogFile(generateCatalog(42)), readFileSync(CATALOG_FILE, "utf8"));
  assert.equal(renderTasksFile(generateTasks({ seed: 42 })), readFileSync(TASKS_FILE, "utf8"));
});

test("the catalog loads cleanly and looks like real MCP servers", () => {
  assert.deepEqual(catalog.warnings, []);
  assert.equal(catalog.size, 120);
  assert.equal(new Set(catalog.tools.map((t) => t.name)).size, 120, "tool names are unique");
  for (const t of catalog.tools) {
    assert.match(t.name, /^[a-z][a-z0-9_]+$/, t.name);
    assert.ok(t.description.length >= 20, `${t.name} has a real description`);
    const schema = t.inputSchema as JsonSchema;
    assert.equal(schema.type, "object");
    for (const [key, prop] of Object.entries(schema.properties as Record<string, JsonSchema>))
      assert.equal(typeof prop.description, "string", `${t.name}.${key} has a description`);
    for (const r of (schema.required as string[] | undefined) ?? []) assert.ok(r in (schema.properties as object), `${t.name}: required ${r} is a property`);
    const kind = ["list", "read", "write", "admin"].find((k) => t.tags.includes(k));
    assert.ok(kind, `${t.name} is tagged with its kind`);
    // Every tool that changes something is gated by at least one precondition.
    if (kind === "write" || kind === "admin") assert.ok(t.preconditions.length > 0, `${t.name} (${kind}) has preconditions`);
  }
  const text = JSON.stringify(committedCatalog);
  for (const feature of ['"enum":', '"format":"date-time"', '"format":"uri"', '"format":"email"', '"pattern":', '"minimum":', '"default":', '"items":{"type":"object"'])
    assert.ok(text.replace(/\s/g, "").includes(feature), `schemas use ${feature}`);
  const pre = catalog.tools.flatMap((t) => t.preconditions) as Record<string, unknown>[];
  for (const field of ["requiresScopes", "afterTool", "milestone"]) assert.ok(pre.some((p) => field in p), `some tool uses ${field}`);
  // afterTool names a tool that exists.
  for (const p of pre) for (const a of [p.afterTool ?? []].flat() as string[]) assert.ok(catalog.getByName(a).length, `afterTool ${a} exists`);
});

test("tasks: at least 500, three kinds, valid gold sets, steps for long-horizon, in the shared format", () => {
  const loaded = loadTasks(TASKS_FILE);
  assert.equal(loaded.length, committedTasks.length);
  assert.ok(loaded.length >= 500, `${loaded.length} tasks`);
  assert.equal(new Set(loaded.map((t) => t.id)).size, loaded.length, "ids are unique");
  const byKind = new Map<string, SyntheticTask[]>();
  for (const t of committedTasks) byKind.set(t.kind, [...(byKind.get(t.kind) ?? []), t]);
  assert.deepEqual([...byKind.keys()].sort(), ["long", "multi", "single"]);
  for (const [kind, list] of byKind) assert.ok(list.length >= 90, `${kind}: ${list.length}`);
  for (const t of committedTasks) {
    assert.ok(t.id.startsWith(`${t.kind}-`), t.id);
    for (const g of t.gold) assert.equal(catalog.getByName(g).length, 1, `${t.id}: gold ${g} is in the catalog`);
    assert.equal(new Set(t.gold).size, t.gold.length, `${t.id}: no duplicate gold`);
    const servers = new Set(t.gold.map((g) => catalog.getByName(g)[0].server));
    if (t.kind === "single") assert.equal(t.gold.length, 1);
    if (t.kind === "multi") {
      assert.ok(t.gold.length >= 2 && t.gold.length <= 4, t.id);
      assert.ok(servers.size >= 2, `${t.id} spans servers`);
      assert.equal(t.steps, undefined);
    }
    if (t.kind === "long") {
      assert.ok(t.gold.length >= 4, t.id);
      assert.equal(t.steps?.length, t.gold.length, `${t.id}: one plan step per tool`);
    }
  }
  // Every tool is the gold of some single-step task.
  const singles = new Set(byKind.get("single")!.map((t) => t.gold[0]));
  assert.equal(singles.size, 120);
});

test("no query or plan step contains its gold tool's name or the first sentence of its description", () => {
  for (const t of committedTasks)
    for (const g of t.gold) {
      const tool = catalog.getByName(g)[0];
      const first = firstSentence(tool.description).replace(/[.!?]$/, "").toLowerCase();
      for (const text of [t.query, ...(t.steps ?? [])]) {
        const lower = text.toLowerCase();
        assert.ok(!lower.includes(g.toLowerCase()), `${t.id} names ${g}: ${text}`);
        assert.ok(!lower.includes(first), `${t.id} copies the description of ${g}: ${text}`);
      }
    }
  // Wording varies: most queries are distinct, and the same tool is asked for in different ways.
  assert.ok(new Set(committedTasks.map((t) => t.query)).size >= committedTasks.length * 0.98);
});

test("gating is exercised both ways, and `blocked` agrees with the catalog's preconditions", () => {
  let granted = 0;
  let blocked = 0;
  for (const t of committedTasks) {
    const state = stateViewFrom(t.state ?? {});
    const expect = t.gold.filter((g) => !checkPreconditions(catalog.getByName(g)[0], state).allow);
    assert.deepEqual(t.blocked ?? [], expect, t.id);
    const gated = t.gold.filter((g) => catalog.getByName(g)[0].preconditions.length > 0);
    if (gated.length && expect.length === 0) granted++;
    if (expect.length) blocked++;
  }
  assert.ok(granted >= 100, `${granted} tasks whose state grants every gated gold tool`);
  assert.ok(blocked >= 100, `${blocked} tasks with a gold tool the state leaves gated`);
  // Withheld states include partial ones: scopes held but a workflow step missing.
  assert.ok(committedTasks.some((t) => t.blocked && t.state?.scopes?.length));
});

test("expandCatalog: exactly N tools, distinct names and descriptions, comparable sizes, deterministic", () => {
  const base = catalogTokenStats(committedCatalog);
  assert.equal(renderCatalogFile(expandCatalog(120)), renderCatalogFile(committedCatalog), "N = 120 is the testbed itself");
  for (const n of [500, 1000, 10000]) {
    const c = expandCatalog(n);
    const tools = c.servers.flatMap((s) => s.tools);
    assert.equal(tools.length, n);
    assert.equal(new Set(tools.map((t) => t.name)).size, n, `N=${n}: names are distinct`);
    assert.equal(new Set(tools.map((t) => t.description)).size, n, `N=${n}: descriptions are distinct`);
    assert.equal(new Set(c.servers.map((s) => s.name)).size, c.servers.length, `N=${n}: server names are distinct`);
    // afterTool points at a tool of the same server (the last server may be cut short to make N).
    for (const s of c.servers.slice(0, -1)) {
      const names = new Set(s.tools.map((t) => t.name));
      for (const t of s.tools) for (const a of [t.preconditions?.afterTool ?? []].flat()) assert.ok(names.has(a), `${s.name}: ${t.name} → ${a}`);
    }
  }
  const thousand = expandCatalog(1000);
  const stats = catalogTokenStats(thousand);
  const ratio = stats.total / stats.tools / (base.total / base.tools);
  assert.ok(ratio > 0.95 && ratio < 1.1, `per-tool size ratio ${ratio}`);
  const built = ToolCatalog.fromCatalogObject(thousand);
  assert.deepEqual(built.warnings, []);
  assert.equal(built.size, 1000);
  assert.equal(renderCatalogFile(expandCatalog(1000)), renderCatalogFile(thousand), "deterministic");
  assert.notEqual(renderCatalogFile(expandCatalog(1000, 7)), renderCatalogFile(thousand), "the seed matters");
  assert.throws(() => expandCatalog(0), /positive integer/);
});
