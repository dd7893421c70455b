import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { countTokens } from "../src/core/tokens/count.js";
import { contextUtilization, DEFAULT_CONTEXT, gateTriggerRate, summarizeOutcomes } from "../src/bench/metrics.js";
import {
  blockedGold,
  langChainOpenAiToolsTokens,
  llmSelectorSchema,
  rawSchemaTokens,
  renderCliHelp,
  staticSubset,
  withoutPreconditions,
} from "../src/bench/methods.js";
import { evenSample, runBench } from "../src/bench/main.js";
import { replicateCatalog } from "../src/bench/expansion.js";
import { lineChart, ticks } from "../src/bench/svg.js";
import { loadRealCatalog } from "../src/bench/real-catalog.js";
import { ABLATION_ENCODERS, ABLATION_KS, ABLATION_THETAS } from "../src/bench/ablations.js";

const DEMO = "data/demo-catalog.json";

test("ρ: task tokens over system + tools + task tokens at the given turn", () => {
  // Defaults: C_sys 1,000, 500 task tokens a turn, turn 30 → C_task = 15,000.
  assert.equal(contextUtilization(47_300), 15_000 / (1_000 + 47_300 + 15_000));
  assert.ok(Math.abs(contextUtilization(47_300) - 0.237) < 0.001);
  assert.equal(contextUtilization(0), 15_000 / 16_000);
  assert.equal(contextUtilization(1_000, { systemTokens: 0, taskTokensPerTurn: 100, turn: 10 }), 0.5);
  assert.equal(contextUtilization(1_000, DEFAULT_CONTEXT, 0), 0);
  assert.throws(() => contextUtilization(-1), /must be ≥ 0/);
});

test("summarizeOutcomes: token means over turns, retrieval scores over tasks", () => {
  const s = summarizeOutcomes([
    { id: "a", gold: ["x"], active: ["x", "y"], turns: [{ toolTokens: 100, poolExcludedTokens: 40 }, { toolTokens: 200, poolExcludedTokens: 60 }] },
    { id: "b", gold: ["z"], active: [], turns: [{ toolTokens: 300, poolExcludedTokens: 300 }] },
  ]);
  assert.equal(s.turns, 3);
  assert.equal(s.tasks, 2);
  assert.equal(s.tokensPerTurn, 200);
  assert.equal(s.poolExcludedTokensPerTurn, 400 / 3);
  assert.equal(s.recall, 0.5);
  assert.equal(s.precision, 0.25);
  assert.ok(Math.abs((s.f1 as number) - 1 / 3) < 1e-12);
  assert.equal(s.allGold, 0.5);
  assert.equal(s.rho, contextUtilization(200));
});

test("summarizeOutcomes: blocked gold is scored apart from the reachable gold", () => {
  const s = summarizeOutcomes([
    // Reachable gold x is active; blocked y is exposed anyway.
    { id: "a", gold: ["x", "y"], blocked: ["y"], active: ["x", "y"], turns: [{ toolTokens: 10, poolExcludedTokens: 10 }] },
    // All gold blocked and hidden: no retrieval score, counted for exposure only.
    { id: "b", gold: ["z"], blocked: ["z"], active: ["w"], turns: [{ toolTokens: 10, poolExcludedTokens: 10 }] },
  ]);
  assert.equal(s.tasks, 2);
  assert.equal(s.scoredTasks, 1);
  assert.equal(s.recall, 1);
  assert.equal(s.precision, 0.5);
  assert.equal(s.blockedTotal, 2);
  assert.equal(s.blockedExposed, 1);
});

test("blockedGold: gold tools whose preconditions fail in the task's state", () => {
  const catalog = ToolCatalog.fromFile(DEMO);
  assert.deepEqual(blockedGold(catalog, { id: "t", query: "q", gold: ["create_issue", "list_issues"] }), ["create_issue"]);
  assert.deepEqual(blockedGold(catalog, { id: "t", query: "q", gold: ["create_issue"], state: { scopes: ["repo:write"] } }), []);
  assert.deepEqual(blockedGold(catalog, { id: "t", query: "q", gold: ["not_a_tool"] }), []);
});

test("summarizeOutcomes: no retrieval scores when any task's active set is unknown", () => {
  const s = summarizeOutcomes([
    { id: "a", gold: ["x"], turns: [{ toolTokens: 10, poolExcludedTokens: 10 }] },
    { id: "b", gold: ["x"], active: ["x"], turns: [{ toolTokens: 30, poolExcludedTokens: 30 }] },
  ]);
  assert.equal(s.tokensPerTurn, 20);
  assert.equal(s.recall, undefined);
  assert.equal(s.f1, undefined);
});

test("gate trigger rate: the real gate on simulated gold calls, by rejection kind", () => {
  const exists = (n: string) => ["a", "b", "c"].includes(n);
  const g = gateTriggerRate(
    [
      { active: ["a", "b"], gold: ["a", "c"], preconditionReason: (n) => (n === "c" ? "needs scope repo:write" : undefined) },
      { active: ["a"], gold: ["b", "invented", "b"] },
    ],
    exists,
  );
  // Gold names are de-duplicated per task: calls a, c, b, invented.
  assert.equal(g.calls, 4);
  assert.equal(g.rejected, 3);
  assert.equal(g.rate, 0.75);
  assert.deepEqual(g.byKind, { not_active: 1, precondition: 1, unknown_tool: 1, quarantined: 0 });
  assert.equal(gateTriggerRate([], exists).rate, 0);
  // A blocked gold call the gate rejects is the right answer: counted apart, not as a trigger.
  const b = gateTriggerRate(
    [{ active: ["a"], gold: ["a", "c"], blocked: ["c"], preconditionReason: (n) => (n === "c" ? "needs scope repo:write" : undefined) }],
    exists,
  );
  assert.equal(b.calls, 1);
  assert.equal(b.rejected, 0);
  assert.equal(b.blockedCalls, 1);
  assert.equal(b.blockedRejected, 1);
});

test("static subset: per-server shares by largest remainder, precondition-free tools first", () => {
  const tool = (name: string, gated = false) => ({ name, description: name, ...(gated ? { preconditions: { requiresScopes: ["w"] } } : {}) });
  const catalog = ToolCatalog.fromCatalogObject({
    servers: [
      { name: "a", tools: Array.from({ length: 20 }, (_, i) => tool(`a${i}`, i < 5)) },
      { name: "b", tools: Array.from({ length: 10 }, (_, i) => tool(`b${i}`)) },
      { name: "c", tools: Array.from({ length: 10 }, (_, i) => tool(`c${i}`)) },
    ],
  });
  const subset = staticSubset(catalog);
  assert.equal(subset.length, 30);
  // Exact shares 15 / 7.5 / 7.5: the leftover slot goes to the earlier server with the largest remainder.
  assert.equal(subset.filter((t) => t.server === "a").length, 15);
  assert.equal(subset.filter((t) => t.server === "b").length, 8);
  assert.equal(subset.filter((t) => t.server === "c").length, 7);
  // Server a: the 15 precondition-free tools (a5…a19), none of the gated a0…a4.
  assert.deepEqual(subset.filter((t) => t.server === "a").map((t) => t.name), Array.from({ length: 15 }, (_, i) => `a${i + 5}`));
  assert.deepEqual(staticSubset(catalog, 100).length, 40);
});

test("B1 renderings: raw MCP JSON tokens and LangChain's OpenAI tool array", () => {
  const catalog = ToolCatalog.fromFile(DEMO);
  const t = catalog.getByName("create_issue")[0];
  assert.equal(rawSchemaTokens(t, "cl100k_base"), countTokens(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema })));
  const lc = langChainOpenAiToolsTokens([t], "cl100k_base");
  assert.deepEqual(lc.failed, []);
  const expected = [{ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }];
  assert.equal(lc.tokens, countTokens(JSON.stringify(expected)));
  const all = langChainOpenAiToolsTokens(catalog.tools, "cl100k_base");
  assert.ok(all.tokens > lc.tokens);
});

test("LLM selector schema: one enum entry per tool name, the middleware's description", () => {
  const schema = llmSelectorSchema(["a", "b", "c"]) as { properties: { tools: { items: { enum: string[] }; description: string } } };
  assert.deepEqual(schema.properties.tools.items.enum, ["a", "b", "c"]);
  assert.equal(schema.properties.tools.description, "Tools to use. Place the most relevant tools first.");
  assert.throws(() => llmSelectorSchema([]), /at least one tool/);
});

test("CLI help text lists options with types and required flags", () => {
  const catalog = ToolCatalog.fromFile(DEMO);
  const help = renderCliHelp(catalog.getByName("create_issue")[0]);
  assert.match(help, /^Usage: create_issue \[options\]/);
  assert.match(help, /--title <string> \(required\)/);
});

test("withoutPreconditions keeps tools and schemas, drops preconditions", () => {
  const catalog = ToolCatalog.fromFile(DEMO);
  const stripped = withoutPreconditions(catalog, "cl100k_base");
  assert.equal(stripped.size, catalog.size);
  assert.ok(catalog.tools.some((t) => t.preconditions.length > 0));
  assert.ok(stripped.tools.every((t) => t.preconditions.length === 0));
  assert.deepEqual(stripped.tools.map((t) => t.inputSchema), catalog.tools.map((t) => t.inputSchema));
});

test("evenSample and replicateCatalog are deterministic", () => {
  assert.deepEqual(evenSample([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4), [0, 2, 5, 7]);
  assert.deepEqual(evenSample([1, 2], 5), [1, 2]);
  const base = JSON.parse(readFileSync(DEMO, "utf8"));
  const big = replicateCatalog(base, 60);
  assert.equal(big.servers.reduce((a, s) => a + s.tools.length, 0), 60);
  assert.equal(new Set(big.servers.map((s) => s.name)).size, big.servers.length);
  assert.equal(ToolCatalog.fromCatalogObject(big).size, 60);
});

test("SVG chart: log ticks, escaped text, one polyline per series", () => {
  assert.deepEqual(ticks(120, 10_000, true), [100, 1_000, 10_000]);
  assert.deepEqual(ticks(0, 1, false), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  const svg = lineChart({
    title: "a < b",
    xLabel: "N",
    yLabel: "tokens",
    logX: true,
    logY: true,
    series: [
      { name: "x", points: [[120, 47_000], [1_000, 390_000]] },
      { name: "y", points: [[120, 2_000], [1_000, 9_000]] },
    ],
  });
  assert.match(svg, /^<svg /);
  assert.match(svg, /a &lt; b/);
  assert.equal(svg.match(/<polyline/g)?.length, 2);
});

test("real catalog seam reports why it is skipped", async () => {
  const r = await loadRealCatalog();
  if ("skipped" in r) assert.match(r.skipped, /not captured/);
  else assert.ok(r.catalog.size > 0);
});

test("a --quick run produces every method row, every ablation row, scaling, calibration and the files", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "bench-test-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tasks = [
    { id: "t1", query: "open a bug report in the repo about the login crash", gold: ["create_issue"], state: { scopes: ["repo:write"] } },
    { id: "t2", query: "what tables are in the analytics database", gold: ["list_tables"] },
    { id: "t3", query: "search the web for the weather in Paris and post it to the team channel", gold: ["get_weather", "post_message"], kind: "multi" },
    {
      id: "t4",
      query: "prepare the release",
      gold: ["search_code", "create_branch", "post_message"],
      steps: ["find where the version number is defined", "create a release branch", "tell the team in chat"],
      kind: "long-horizon",
    },
    { id: "t5", query: "show me the files in the project folder", gold: ["list_directory"] },
  ];
  const tasksFile = join(dir, "tasks.jsonl");
  writeFileSync(tasksFile, tasks.map((t) => JSON.stringify(t)).join("\n"));
  const result = await runBench({
    quick: true,
    catalog: DEMO,
    tasks: tasksFile,
    encoder: "lexical",
    out: join(dir, "out"),
    metatool: false,
    sizes: [10, 40],
    log: process.env.BENCH_TEST_LOG ? (l) => process.stderr.write(`${l}\n`) : () => {},
  });

  const set = result.sets[0];
  assert.equal(set.tools, 27);
  assert.equal(set.tasks, 5);
  const keys = set.methods?.map((m) => m.key);
  assert.deepEqual(keys, ["b1-raw", "b1-langchain", "b2-static", "b3-retrieval", "b4-cli", "llm-selector", "tool-attention"]);
  for (const m of set.methods ?? []) {
    assert.ok(m.summary, `${m.key} measured`);
    assert.ok(m.summary.tokensPerTurn > 0, `${m.key} tokens`);
    // Turns: 1 per task, 4 for the long-horizon task (query + 3 steps), except B4 (one discovery per task).
    assert.equal(m.summary.turns, m.key === "b4-cli" ? 5 : 8, `${m.key} turns`);
    if (m.key !== "llm-selector") assert.equal(typeof m.summary.recall, "number", `${m.key} recall`);
  }
  const byKey = Object.fromEntries((set.methods ?? []).map((m) => [m.key, m]));
  // B1 exposes everything; B4 exposes exactly the gold tools (blocked ones included: it has no gating);
  // Tool Attention sends fewer schema tokens than B1.
  assert.equal(byKey["b1-raw"].summary?.recall, 1);
  assert.equal(byKey["b4-cli"].summary?.recall, 1);
  assert.equal(byKey["b4-cli"].summary?.blockedExposed, 1);
  assert.ok((byKey["b4-cli"].summary?.precision ?? 1) < 1);
  assert.ok((byKey["tool-attention"].summary?.poolExcludedTokensPerTurn ?? Infinity) < (byKey["b1-raw"].summary?.tokensPerTurn ?? 0));
  // t4's create_branch needs repo:write, which t4's (empty) state lacks: blocked, not reachable gold.
  const gate = byKey["tool-attention"].gate;
  assert.ok(gate);
  assert.equal(gate.calls, 7);
  assert.equal(gate.blockedCalls, 1);
  assert.equal(gate.blockedRejected, 1);
  assert.equal(byKey["b1-raw"].summary?.blockedTotal, 1);
  assert.equal(byKey["b1-raw"].summary?.blockedExposed, 1);
  assert.equal(byKey["tool-attention"].summary?.blockedExposed, 0);

  const ablationKeys = set.ablations?.map((a) => a.key) ?? [];
  const expected = [
    "ta-default",
    "ta-no-preconditions",
    "ta-pool-only",
    "ta-k0",
    ...ABLATION_KS.map((k) => `ta-k${k}`),
    ...ABLATION_THETAS.map((t) => `ta-theta${t}`),
    // Mechanism ablations: the lexical encoder has only the never-empty floor to remove.
    "ta-no-min-active",
    ...ABLATION_ENCODERS.map((e) => `enc-${e}`),
  ];
  assert.deepEqual(ablationKeys, expected);
  for (const a of set.ablations ?? []) assert.ok(a.summary || a.skipped, `${a.key} measured or skipped`);
  const ab = Object.fromEntries((set.ablations ?? []).map((a) => [a.key, a]));
  for (const k of ["enc-use-lite", "enc-lexical", "ta-no-preconditions", "ta-pool-only", "ta-k0", "ta-no-min-active"]) assert.ok(ab[k].summary, `${k} measured`);
  // Without the floor a route may bind fewer tools; with it, never fewer than 3 when tools are callable.
  assert.ok((ab["ta-no-min-active"].summary?.avgActive ?? 0) <= (ab["ta-default"].summary?.avgActive ?? 0));
  for (const k of ["enc-hybrid", "enc-minilm"]) if (ab[k].skipped) assert.match(ab[k].skipped as string, /not available/);
  // Phase-1 only: no schema is delivered; every gold call is rejected by the gate, or runs from the pool (its plain
  // required parameters named there, runValidCalls).
  assert.equal(ab["ta-k0"].summary?.recall, 0);
  assert.equal(ab["ta-k0"].summary?.poolExcludedTokensPerTurn, 0);
  const k0 = ab["ta-k0"].gate;
  assert.ok(k0 && k0.calls > 0 && k0.rejected + k0.ranFromPool === k0.calls, JSON.stringify(k0));
  assert.equal(ab["ta-pool-only"].summary?.poolExcludedTokensPerTurn, 0);

  assert.deepEqual(result.scaling.points?.map((p) => p.n), [10, 40]);
  for (const p of result.scaling.points ?? []) assert.ok(p.methods["tool-attention"].tokensPerTurn > 0);
  // Per-N router cost fields of latest.json (null where the lexical encoder has no dense index).
  const jsonPoints = JSON.parse(readFileSync(join(dir, "out", "latest.json"), "utf8")).scaling.points as Record<string, unknown>[];
  for (const p of jsonPoints) {
    for (const f of ["n", "searchP50Ms", "routeP50Ms", "annRecallAt10", "coldBuildS", "warmStartS", "rssMiB"]) assert.ok(f in p, `scaling point has ${f}`);
    for (const f of ["n", "routeP50Ms", "coldBuildS", "warmStartS", "rssMiB"]) assert.equal(typeof p[f], "number", f);
  }
  const cal = result.calibration.find((c) => c.curve);
  assert.equal(cal?.curve?.length, 21);
  assert.equal(cal?.curve?.[0].theta, 0.1);
  assert.equal(cal?.curve?.[20].theta, 0.5);
  assert.ok(cal?.chosen && cal.curve?.every((p) => p.f1 <= (cal.chosen?.f1 ?? 0) + 1e-12), JSON.stringify(cal));

  const md = readFileSync(join(dir, "out", "latest.md"), "utf8");
  assert.match(md, /\| Method \| Tokens\/turn \| Pool-excl\. \| ρ@30 \|/);
  assert.match(md, /Tool Attention/);
  const json = JSON.parse(readFileSync(join(dir, "out", "latest.json"), "utf8"));
  assert.equal(json.sets[0].methods.length, 7);
  for (const chart of result.charts) assert.ok(existsSync(join(dir, "out", chart)), chart);
  assert.ok(result.charts.includes("tokens-vs-n.svg"));

  // Conversation cost (quick: the set's long-horizon task, 5 calls, 500 history tokens, both providers).
  const cc = json.conversationCost as Record<string, unknown>[];
  assert.deepEqual([...new Set(cc.map((r) => r.provider))], ["anthropic", "openai"]);
  assert.ok(cc.every((r) => r.historyTokens === 500 && r.set === `catalog ${DEMO} (long-horizon)`), JSON.stringify(cc[0]));
  for (const key of ["set", "provider", "calls", "historyTokens", "method", "billedPerConversation", "ratioToAllCached", "cacheHitShare", "toolSetChanges", "recall", "allGold", "gateTrigger"])
    assert.ok(cc.every((r) => key in r), key);
  assert.ok(cc.some((r) => r.method === "tool-attention-deferred" && r.provider === "anthropic"));
  assert.ok(cc.some((r) => r.method === "tool-attention-deferred" && r.provider === "openai"), "dispatcher deferred row on OpenAI");
  // Routing's own recall (guarantee off) is reported next to the delivery modes' rows.
  assert.ok(cc.filter((r) => String(r.method).startsWith("tool-attention-")).every((r) => r.withoutGuarantee), "withoutGuarantee on the mode rows");
  assert.ok(cc.filter((r) => r.method === "all-cached").every((r) => r.ratioToAllCached === 1));
  assert.match(md, /## Conversation cost/);
});

test("the conversation-cost chart shows the headline cell's ratio and model calls for the baseline, tool search and Tool Attention", async () => {
  const { conversationCostChart } = await import("../src/bench/conversation-cost-report.js");
  const row = (method: string, ratio: number, requests: number) => ({
    set: "Real MCP catalog", provider: "anthropic" as const, profile: "anthropic:sonnet", calls: 30, historyTokens: 2000, method: method as never,
    billedPerConversation: ratio * 1000, ratioToAllCached: ratio, cacheHitShare: 0.9, toolSetChanges: 0, recall: null, allGold: null, gateTrigger: null,
    conversations: 3, requestsPerConversation: requests,
  });
  const svg = conversationCostChart([row("all-cached", 1, 30), row("provider-tool-search", 0.468, 30), row("tool-attention", 0.634, 36.3), { ...row("tool-attention", 9, 99), calls: 5 }], "run X");
  assert.ok(svg);
  for (const text of ["1.000×", "0.468×", "0.634×", "36.3", "run X", "every schema, cached (baseline)"]) assert.ok(svg.includes(text), text);
  assert.ok(!svg.includes("9.000×"), "only the headline cell is drawn");
  assert.match(svg, /font-weight="bold">Tool Attention \(default\)</);
  assert.equal(conversationCostChart([row("all-cached", 1, 30)], "run X"), undefined, "one method is no comparison");
});

test("the conversation-cost markdown breaks the headline cell's bill down when the rows carry it", async () => {
  const { renderConversationCostMarkdown } = await import("../src/bench/conversation-cost-report.js");
  const row = (method: string, ratio: number, breakdown?: { pool: number; neededSchemas: number; unneededSchemas: number; rest: number; toolsDelivered: number; toolsNeeded: number }) => ({
    set: "Real MCP catalog", provider: "anthropic" as const, profile: "anthropic:sonnet", calls: 30, historyTokens: 2000, method: method as never,
    billedPerConversation: ratio * 1000, ratioToAllCached: ratio, cacheHitShare: 0.9, toolSetChanges: 0, recall: null, allGold: null, gateTrigger: null,
    conversations: 3, requestsPerConversation: 30, ...(breakdown ? { breakdown } : {}),
  });
  const rows = [
    row("all-cached", 1, { pool: 0, neededSchemas: 120, unneededSchemas: 600, rest: 280, toolsDelivered: 120, toolsNeeded: 20.4 }),
    row("tool-attention", 0.5, { pool: 100, neededSchemas: 40, unneededSchemas: 60, rest: 300, toolsDelivered: 11.5, toolsNeeded: 4.25 }),
  ];
  const md = renderConversationCostMarkdown(rows);
  assert.match(md, /Where the bill goes/);
  assert.match(md, /\| all-cached \| 0 \| 120 \| 600 \| 280 \| 120\.0 \| 20\.4 \|/);
  assert.match(md, /\| tool-attention \| 100 \| 40 \| 60 \| 300 \| 11\.5 \| 4\.3 \|/);
  assert.doesNotMatch(renderConversationCostMarkdown(rows.map(({ breakdown: _b, ...r }) => r)), /Where the bill goes/);
});
