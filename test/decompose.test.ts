/**
 * Multi-intent decomposition (clause splitter, per-clause routing, createAgent binding) and the plan-dominated
 * turn intent, with the real USE-lite encoder.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { splitClauses } from "../src/core/router/clauses.js";
import { turnIntent } from "../src/adapters/langchain/messages.js";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { evaluate, simulatedObservation } from "../src/eval/evaluate.js";
import type { ToolAttentionEvent } from "../src/core/events/events.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { demoTools, DEMO_CATALOG_PATH } from "./helpers/demo-tools.js";

describe("splitClauses", () => {
  it("splits multi-intent requests at sequencing connectives", () => {
    assert.deepEqual(splitClauses("Print the file /var/log/app/error.log; next open a ticket for the crash in Jira"), [
      "Print the file /var/log/app/error.log",
      "open a ticket for the crash in Jira",
    ]);
    assert.deepEqual(
      splitClauses("Restart the payments deployment, then tell #ops it is back, and also list the open incidents"),
      ["Restart the payments deployment", "tell #ops it is back", "list the open incidents"],
    );
    assert.deepEqual(splitClauses("Show the remaining sprint work. Once that's done, read the article at https://example.com/a for me."), [
      "Show the remaining sprint work",
      "read the article at https://example.com/a for me.",
    ]);
    assert.deepEqual(splitClauses("Read the config file, and after that list the tables of the analytics db"), [
      "Read the config file",
      "list the tables of the analytics db",
    ]);
    assert.deepEqual(splitClauses("Check the weather in Oslo, and send the forecast to the team by email"), [
      "Check the weather in Oslo",
      "send the forecast to the team by email",
    ]);
  });

  it("keeps single-intent requests whole", () => {
    for (const q of [
      "search and replace the old API host in every config file",
      "Go ahead and pull up bug #73 in docs-site and tell me what it says",
      "find and open the newest report in /data/reports",
      "if the build fails then retry it with verbose logs",
      "Load /data/a.csv and /srv/app/config.json together so I can compare them",
      "Find research on solar, wind, and hydroelectric power in Europe",
      "Summarize the revenue, expenses, and any additional costs reported this quarter",
      "Deploy the hotfix to staging. It is urgent.",
      "then what?",
    ])
      assert.deepEqual(splitClauses(q), [q], q);
    assert.deepEqual(splitClauses("   "), []);
  });

  it("merges clauses shorter than minWords into the clause before", () => {
    assert.deepEqual(splitClauses("Open the quarterly report; next, thanks"), ["Open the quarterly report; next, thanks"]);
    assert.deepEqual(splitClauses("Open the quarterly report; next, thanks; then list the open incidents"), [
      "Open the quarterly report, thanks",
      "list the open incidents",
    ]);
    assert.deepEqual(splitClauses("Print error.log; next open a ticket for the crash"), ["Print error.log; next open a ticket for the crash"]);
    assert.deepEqual(splitClauses("Open the quarterly report; then email it", { minWords: 2 }), ["Open the quarterly report", "email it"]);
  });
});

describe("decomposition in route (real USE-lite + BM25)", () => {
  const router = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_CATALOG_PATH), { cacheDir: false, log: false });
  const query =
    "what's the weather in Paris tomorrow, and also list the tables of the analytics database, then post a message to the #general channel";

  it("each clause's best tool is in the active set, within k", async () => {
    const clauses = splitClauses(query);
    assert.equal(clauses.length, 3);
    const best: string[] = [];
    for (const c of clauses) best.push((await router.route(c, undefined, { k: 1, decompose: false })).active[0].name);
    assert.equal(new Set(best).size, 3, best.join());
    const d = await router.route(query, undefined, { k: 3 });
    assert.equal(d.active.length, 3);
    for (const b of best) assert.ok(d.active.some((a) => a.name === b), `${b} in ${d.active.map((a) => a.name)}`);
    // Best first, as without decomposition.
    assert.deepEqual(d.active.map((a) => a.score), [...d.active.map((a) => a.score)].sort((a, b) => b - a));
  });

  it("a single-intent request routes exactly as without decomposition", async () => {
    const q = "search and replace the old API host in every config file";
    const on = await router.route(q, undefined, { k: 5 });
    const off = await router.route(q, undefined, { k: 5, decompose: false });
    assert.deepEqual(on.active, off.active);
  });

  it("can be turned off per router, and validates its options", async () => {
    const off = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_CATALOG_PATH), { cacheDir: false, log: false, decompose: false });
    assert.deepEqual(off.clausesOf(query), [query]);
    assert.equal(router.clausesOf(query).length, 3);
    assert.throws(
      () => new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_CATALOG_PATH), { decompose: { wholeWeight: -1 } }),
      /decompose\.wholeWeight/,
    );
  });
});

describe("decomposition and intent in a createAgent loop (real USE-lite)", () => {
  it("a two-intent request gets both tools bound on the first model call", async () => {
    const run = async (decompose?: false) => {
      const { tools } = demoTools();
      const model = new ScriptedChatModel([new AIMessage("done")]);
      const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 2, cacheDir: false, decompose })] });
      await agent.invoke({ messages: [new HumanMessage("Find issues about the login timeout in our repo, and also list the tables of the analytics database")] });
      return model.calls[0].tools;
    };
    const bound = await run();
    assert.ok(bound.includes("list_issues") && bound.includes("list_tables"), bound.join());
  });

  it("after a tool call the model's stated next step decides the routing", async () => {
    const cases: [string, string, string, string][] = [
      ["what's the weather in Lisbon next Friday? we are planning the team offsite", "get_weather", "Next I will create the offsite event on Friday and invite the team.", "create_event"],
      ["read the config file config/db.yaml and tell me what database we use", "read_file", "The config points at analytics; next I'll list its tables.", "list_tables"],
      ["search the web for the latest Node.js release notes", "web_search", "I'll fetch the release page at https://nodejs.org/en/blog to read it.", "fetch_url"],
    ];
    for (const [question, first, plan, next] of cases) {
      const run = async (intent?: { planWeight: number; resultsWithPlan: boolean }) => {
        const { tools } = demoTools();
        const call = callTools({ name: first, args: {} });
        call.content = plan;
        const model = new ScriptedChatModel([call, new AIMessage("done")]);
        const routes: ToolAttentionEvent[] = [];
        const agent = createAgent({
          model,
          tools,
          middleware: [toolAttentionMiddleware({ tools, k: 3, cacheDir: false, sticky: false, intent, onEvent: (e) => routes.push(e) })],
        });
        await agent.invoke({ messages: [new HumanMessage(question)] });
        const second = routes.filter((e) => e.type === "tool_attention.route")[1];
        assert.ok(second && second.type === "tool_attention.route");
        return second.active.map((a) => a.id);
      };
      const now = await run();
      assert.equal(now[0], next, `${question}: ${now}`);
      // The earlier weights (plan 0.5, results always added) kept the request's own tool in front.
      const before = await run({ planWeight: 0.5, resultsWithPlan: true });
      assert.notEqual(before[0], next, `${question}: ${before}`);
    }
  });

  it("turnIntent leaves the results out when a plan is stated, and keeps them when it is not", () => {
    const withPlan = [
      new HumanMessage("q"),
      new AIMessage({ content: "next: list the tables", tool_calls: [{ id: "c", name: "read_file", args: {} }] }),
      new ToolMessage({ content: "db: analytics", tool_call_id: "c", name: "read_file" }),
    ];
    assert.ok(!turnIntent(withPlan).some((p) => p.text === "db: analytics"));
    assert.ok(turnIntent(withPlan, { resultsWithPlan: true }).some((p) => p.text === "db: analytics"));
  });
});

describe("eval --simulate with decomposition", () => {
  it("a multi-request task without steps is simulated clause by clause", async () => {
    const router = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_CATALOG_PATH), { cacheDir: false, log: false, k: 1 });
    const tasks = [
      {
        id: "two",
        query: "what's the weather in Paris tomorrow, and also list the tables of the analytics database",
        gold: ["get_weather", "list_tables"],
      },
    ];
    const single = await evaluate(router, tasks, { latencySample: 0, decompose: false });
    assert.equal(single.recall, 0.5);
    const sim = await evaluate(router, tasks, { simulate: true, latencySample: 0 });
    assert.equal(sim.recall, 1, sim.perTask[0].active.join());
    const noClauses = await evaluate(router, tasks, { simulate: { clauseSteps: false }, latencySample: 0, decompose: false });
    assert.equal(noClauses.recall, 0.5);
  });

  it("a simulated observation is what a result would say, not the request", () => {
    const d = "Read a file from disk. Returns the file's text and its size in bytes.";
    assert.equal(simulatedObservation("read_file", d, "print config.yaml"), "read file: Returns the file's text and its size in bytes");
    assert.equal(simulatedObservation("read_file", d, "print config.yaml", "name"), "read file");
    assert.equal(simulatedObservation("read_file", d, "print config.yaml", "step"), "read file: print config.yaml");
  });
});
