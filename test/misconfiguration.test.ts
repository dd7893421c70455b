/**
 * Misconfiguration is loud: each mistake below used to be accepted silently (a tool gated forever, an option never
 * applied, a run failing far from the cause). Each now stops construction, or the first model call, or the CLI,
 * with a message naming the tool and the field. Also: the ToolMessages of one model turn come in tool_calls order.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createAgent } from "langchain";
import { MemorySaver } from "@langchain/langgraph";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { createToolAttentionHooks } from "../src/adapters/langgraph/hooks.js";
import { catalogFromLangChainTools } from "../src/adapters/langchain/tools.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { DEMO_CATALOG_PATH, demoTools } from "./helpers/demo-tools.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const quiet = { encoder: "lexical" as const, cacheDir: false as const, log: false as const };

function dbTools() {
  const runs: string[] = [];
  const make = (name: string, description: string, metadata?: Record<string, unknown>) =>
    tool(
      async () => {
        runs.push(name);
        return `${name} ok`;
      },
      { name, description, schema: z.object({}), ...(metadata ? { metadata } : {}) },
    );
  return {
    runs,
    make,
    tools: [make("db_run_query", "Run a SQL query against the database"), make("db_list_tables", "List the tables of the database")],
  };
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("a misspelled precondition key in tool metadata or in the preconditions option names the tool and the field", () => {
  const { make, tools } = dbTools();
  const gated = make("db_drop_table", "Drop a table", { toolAttention: { preconditions: { requiresScope: ["db:admin"] } } });
  assert.throws(
    () => toolAttentionMiddleware({ tools: [...tools, gated], ...quiet }),
    /Tool "db_drop_table": unknown precondition field "requiresScope" \(did you mean "requiresScopes"\?/,
  );
  assert.throws(
    () => toolAttentionMiddleware({ tools, preconditions: { db_run_query: { milestones: "approved" } as never }, ...quiet }),
    /Tool "db_run_query": unknown precondition field "milestones" \(did you mean "milestone"\?/,
  );
  // The LangGraph hooks build their catalog the same way.
  assert.throws(() => createToolAttentionHooks({ tools: [...tools, gated], ...quiet }), /"db_drop_table".*"requiresScope"/);
  // A catalog file is third-party input: repaired with a warning (the tool stays gated out), not thrown.
  const file = ToolCatalog.fromCatalogObject({ servers: [{ name: "db", tools: [{ name: "drop", preconditions: { requiresScope: ["x"] } }] }] });
  assert.match(file.warnings.join("\n"), /server "db", tool "drop": invalid precondition: .*"requiresScope"/);
});

test("an unknown field in metadata.toolAttention names the tool and the field", () => {
  const { make, tools } = dbTools();
  const typo = make("db_drop_table", "Drop a table", { toolAttention: { precondition: { requiresScopes: ["db:admin"] } } });
  assert.throws(
    () => toolAttentionMiddleware({ tools: [...tools, typo], ...quiet }),
    /Tool "db_drop_table": unknown field "precondition" in metadata\.toolAttention \(did you mean "preconditions"\?\)/,
  );
});

test("afterTool naming a tool that is not in the catalog is an error naming the tool, the field and the name", () => {
  const { make, tools } = dbTools();
  const merge = make("db_commit", "Commit the transaction", { toolAttention: { preconditions: { afterTool: "db_run_querry" } } });
  assert.throws(
    () => toolAttentionMiddleware({ tools: [...tools, merge], ...quiet }),
    /Tool "db_commit": precondition field "afterTool" names "db_run_querry", which is not in the catalog \(did you mean "db_run_query"\?\)/,
  );
  assert.throws(
    () => toolAttentionMiddleware({ tools, preconditions: { db_list_tables: { afterTool: ["connect", "db_*"] } }, ...quiet }),
    /Tool "db_list_tables": precondition field "afterTool" names "connect"/,
  );
  // A prefix pattern is fine as long as some tool matches it.
  assert.doesNotThrow(() => toolAttentionMiddleware({ tools, preconditions: { db_list_tables: { afterTool: "db_run_*" } }, ...quiet }));
  // Catalog files warn instead.
  const file = ToolCatalog.fromCatalogObject({ servers: [{ name: "gh", tools: [{ name: "merge", preconditions: { afterTool: "get_pr" } }] }] });
  assert.match(file.warnings.join("\n"), /Tool "merge": precondition field "afterTool" names "get_pr", which is not in the catalog/);
});

test("the preconditions option keyed by an unknown tool name is an error naming it", () => {
  const { tools } = dbTools();
  assert.throws(
    () => toolAttentionMiddleware({ tools, preconditions: { db_drop_tables: { requiresScopes: ["db:admin"] } }, ...quiet }),
    /Option "preconditions" names tool "db_drop_tables", which is not in the catalog/,
  );
  // With a prebuilt catalog or router the option would be dropped: say where it belongs instead.
  const catalog = catalogFromLangChainTools(tools);
  assert.throws(
    () => toolAttentionMiddleware({ catalog, preconditions: { db_run_query: { requiresScopes: ["db:read"] } }, ...quiet }),
    /`preconditions` applies to a catalog built from `tools`; with a prebuilt `catalog`/,
  );
});

test("duplicate LangChain tool names are an error naming the tool", () => {
  const { make, tools } = dbTools();
  assert.throws(
    () => toolAttentionMiddleware({ tools: [...tools, make("db_run_query", "Another query tool")], ...quiet }),
    /Tool "db_run_query" is passed twice in `tools` \(#0 and #2\); tool names must be unique/,
  );
  // Outside the adapters (a catalog built by hand) it is a warning.
  const loose = catalogFromLangChainTools([...tools, make("db_run_query", "Another query tool")]);
  assert.match(loose.warnings.join("\n"), /"db_run_query" is passed twice/);
});

test("tools handed to the middleware but not registered with the agent: the first model call says which and what to do", async () => {
  const { tools, runs } = dbTools();
  const model = new ScriptedChatModel([callTools({ name: "db_run_query" })]);
  const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ tools, ...quiet })] });
  await assert.rejects(
    agent.invoke({ messages: [new HumanMessage("run a query on the database")] }),
    /2 tools \("db_run_query", "db_list_tables"\) are in the middleware's catalog but not registered with the agent.*createAgent\(\{ tools \}\) too, or set registerTools: true/,
  );
  assert.equal(model.calls.length, 0, "the model is never called with nothing bound");

  // One of two missing.
  const half = createAgent({ model: new ScriptedChatModel([]), tools: [tools[0]], middleware: [toolAttentionMiddleware({ tools, ...quiet })] });
  await assert.rejects(half.invoke({ messages: [new HumanMessage("list tables")] }), /tool "db_list_tables" is in the middleware's catalog/);

  // registerTools: the middleware registers them itself, and the call runs.
  const registered = createAgent({
    model: new ScriptedChatModel([callTools({ name: "db_run_query" })]),
    tools: [],
    middleware: [toolAttentionMiddleware({ tools, registerTools: true, ...quiet })],
  });
  await registered.invoke({ messages: [new HumanMessage("run a query on the database")] });
  assert.deepEqual(runs, ["db_run_query"]);

  // resolveTool supplies catalog tools the agent does not register (MCP): no error. Tools outside the catalog
  // registered with the agent are not the middleware's business either.
  const extra = tool(async () => "42", { name: "calculator", description: "Compute arithmetic", schema: z.object({}) });
  const resolved = createAgent({
    model: new ScriptedChatModel([callTools({ name: "db_list_tables" })]),
    tools: [extra],
    middleware: [toolAttentionMiddleware({ tools, resolveTool: (n) => tools.find((t) => t.name === n), ...quiet })],
  });
  await resolved.invoke({ messages: [new HumanMessage("list the database tables")] });
  assert.deepEqual(runs, ["db_run_query", "db_list_tables"]);
});

test("θ is checked against the encoder's score range, and the error states the range", () => {
  const catalog = ToolCatalog.fromFile(DEMO_CATALOG_PATH);
  // Hybrid scores are cosine + 1.5 × BM25: θ = 1.2 is a meaningful hybrid threshold.
  assert.equal(new ToolAttentionRouter(catalog, { theta: 1.2, log: false }).theta, 1.2);
  assert.deepEqual(
    { ...new ToolAttentionRouter(catalog, { lexical: { weight: 3 }, log: false }).thetaRange, scores: undefined },
    { min: -1, max: 4, scores: undefined },
  );
  assert.throws(
    () => new ToolAttentionRouter(catalog, { theta: 2.6, log: false }),
    /Invalid theta: 2\.6 \(hybrid scores are cosine \+ 1\.5 × BM25, from -1 to 2\.5; θ must lie from -1 to 2\.5\)/,
  );
  assert.throws(() => new ToolAttentionRouter(catalog, { theta: 1.2, encoder: "use-lite" }), /use-lite scores are cosine similarities from -1 to 1/);
  assert.throws(() => new ToolAttentionRouter(catalog, { theta: 1.2, encoder: "lexical" }), /lexical scores are normalized BM25 from 0 to 1/);
  assert.throws(() => new ToolAttentionRouter(catalog, { theta: 1.2, encoder: "hybrid", lexical: false }), /cosine similarities from -1 to 1/);
  // -1 disables the threshold with every encoder (k alone cuts).
  for (const encoder of ["hybrid", "use-lite", "lexical"] as const) assert.equal(new ToolAttentionRouter(catalog, { theta: -1, encoder }).theta, -1);
});

for (const version of ["v1", "v2"] as const) {
  test(`the ToolMessages of one model turn come in the order of its tool_calls (tool node ${version}, checkpointed)`, async () => {
    const { tools, runs } = demoTools();
    // list_tables is a catalog tool the routing leaves out (promoted), delete_everything does not exist; both are
    // answered by the gate, the weather calls run.
    const turn = callTools(
      { name: "list_tables" },
      { name: "get_weather", args: { city: "Oslo" } },
      { name: "delete_everything" },
      { name: "get_weather", args: { city: "Paris" } },
    );
    const model = new ScriptedChatModel([turn]);
    const agent = createAgent({
      model,
      tools,
      version,
      checkpointer: new MemorySaver(),
      middleware: [toolAttentionMiddleware({ tools, k: 3, runValidCalls: false, ...quiet })],
    });
    const out = await agent.invoke(
      { messages: [new HumanMessage("what's the weather in Oslo and Paris tomorrow?")] },
      { configurable: { thread_id: `order-${version}` } },
    );
    assert.ok(!model.calls[0].tools.includes("list_tables"), `bound: ${model.calls[0].tools}`);
    const answers = out.messages.filter((m: BaseMessage): m is ToolMessage => ToolMessage.isInstance(m));
    assert.deepEqual(
      answers.map((m) => m.tool_call_id),
      turn.tool_calls?.map((c) => c.id),
      "one answer per call, in call order",
    );
    assert.deepEqual(answers.map((m) => m.status ?? "success"), ["error", "success", "error", "success"]);
    assert.match(String(answers[0].content), /"promoted":true/);
    assert.match(String(answers[2].content), /There is no tool named "delete_everything"/);
    assert.equal(runs.get("get_weather"), 2);
    assert.equal(runs.get("list_tables"), undefined, "a rejected call never runs");
    // The promoted tool is bound on the next model call.
    assert.ok(model.calls[1].tools.includes("list_tables"), `bound next: ${model.calls[1].tools}`);
  });
}

test("tool-attention --version and -v print the package version", async () => {
  const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  for (const flag of ["--version", "-v"]) {
    const r = await cli([flag]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), version);
  }
});

test("eval and calibrate on an empty catalog or task file: an error naming the file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-empty-"));
  try {
    const emptyTasks = join(dir, "tasks.jsonl");
    const emptyCatalog = join(dir, "catalog.json");
    writeFileSync(emptyTasks, "\n");
    writeFileSync(emptyCatalog, JSON.stringify({ servers: [] }));
    const tasks = join(dir, "one.jsonl");
    writeFileSync(tasks, `${JSON.stringify({ id: "t1", query: "weather in Oslo", gold: ["get_weather"] })}\n`);
    for (const cmd of ["eval", "calibrate"]) {
      const noTasks = await cli([cmd, "--catalog", DEMO_CATALOG_PATH, "--tasks", emptyTasks, "--encoder", "lexical"]);
      assert.equal(noTasks.code, 1);
      assert.equal(noTasks.stderr.trim(), `tool-attention: ${emptyTasks}: no tasks (expected one JSON object a line)`);
      const noTools = await cli([cmd, "--catalog", emptyCatalog, "--tasks", tasks, "--encoder", "lexical"]);
      assert.equal(noTools.code, 1);
      assert.equal(noTools.stderr.trim(), `tool-attention: ${emptyCatalog}: the catalog has no tools`);
      const limited = await cli([cmd, "--catalog", DEMO_CATALOG_PATH, "--tasks", tasks, "--limit", "0", "--encoder", "lexical"]);
      assert.equal(limited.code, 1);
      assert.match(limited.stderr, /--limit 0 leaves no tasks of .*one\.jsonl/);
      assert.doesNotMatch(noTasks.stdout + limited.stdout, /NaN/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("audit exits non-zero with a one-line summary when every server failed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-audit-fail-"));
  try {
    const config = join(dir, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          a: { command: process.execPath, args: ["-e", "console.error('no token'); process.exit(1)"] },
          b: { command: join(dir, "no-such-binary") },
        },
      }),
    );
    const r = await cli(["audit", "--config", config, "--json"]);
    assert.equal(r.code, 1);
    const summary = r.stderr.trim().split("\n");
    assert.equal(summary.length, 1, r.stderr);
    assert.match(summary[0], /^tool-attention: audit: every server in .*mcp\.json failed \(2 of 2\): a \(start: .*\); b \(start: .*\)$/);
    // The report itself is still printed.
    assert.equal(JSON.parse(r.stdout).total.failed, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
