/**
 * Routing quality: sparse BM25, hybrid fusion, tool texts, relative margin, tags, rolling intent, sticky tools,
 * promote-on-request (in a real createAgent loop with the real USE-lite encoder) and the multi-turn eval.
 */
import { describe, it, before } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { Bm25Index, acronymsOf } from "../src/core/encoders/bm25.js";
import { parameterNamesOf, toolTextOf } from "../src/core/catalog/text.js";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { turnIntent } from "../src/adapters/langchain/messages.js";
import { nextSticky } from "../src/adapters/langchain/turn.js";
import { evaluate } from "../src/eval/evaluate.js";
import type { DeliveryEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { demoTools } from "./helpers/demo-tools.js";

const handCatalog = () =>
  ToolCatalog.fromMcpTools({
    tracker: [
      { name: "jira_create_ticket", description: "Create a work item in the team tracker." },
      { name: "create_issue", description: "Create a new issue in a GitHub repository to report a bug or request a feature." },
      { name: "list_pull_requests", description: "List pull requests of a repository, filtered by state." },
      { name: "list_issues", description: "List issues in a repository." },
      { name: "get_weread_rank", description: "获取微信读书的图书排行榜。" },
      { name: "k8s_rollout_restart", description: "Restart every pod of a deployment." },
      { name: "get_weather", description: "Get the current weather and a 3-day forecast for a city." },
      { name: "send_email", description: "Send an email message to one or more recipients." },
      { name: "post_message", description: "Post a message to a Slack channel." },
      { name: "search_web", description: "Search the web and return the top results." },
    ],
  });

const names = (d: { active: { name: string }[] }) => d.active.map((a) => a.name);

describe("Bm25Index", () => {
  it("scores in [0, 1], exact words above prefixes, nothing for unrelated words", () => {
    const bm = new Bm25Index();
    bm.build([
      [{ text: "list repositories", identifier: true }, { text: "List the repositories of a user." }],
      [{ text: "get weather", identifier: true }, { text: "Current weather for a city." }],
      [{ text: "repo stats", identifier: true }, { text: "Statistics of a code base." }],
    ]);
    assert.equal(bm.size, 3);
    const s = bm.scoreAll("weather in paris");
    assert.ok(s[1] > 0 && s[1] <= 1, `weather score ${s[1]}`);
    assert.equal(s[0], 0);
    // "repo" is a name word; "repositories" starts with it: the exact owner ranks first, the prefix match still counts.
    const r = bm.scoreAll("repo");
    assert.ok(r[2] > r[0] && r[0] > 0, `${r[2]} ${r[0]}`);
    assert.deepEqual([...bm.scoreAll("")], [0, 0, 0]);
    assert.deepEqual([...bm.scoreAll("zebra quantum")], [0, 0, 0]);
  });

  it("indexes acronyms of name words and reads plural acronyms as one word", () => {
    assert.deepEqual(acronymsOf(["list", "pull", "request"]), ["lp", "pr", "lpr"]);
    const bm = new Bm25Index();
    bm.build([[{ text: "list pull requests", identifier: true }], [{ text: "list issues", identifier: true }]]);
    const s = bm.scoreAll("my open PRs");
    assert.ok(s[0] > 0 && s[1] === 0, `${s[0]} ${s[1]}`);
  });

  it("finds a cryptic name from a full word it abbreviates", () => {
    const bm = new Bm25Index();
    bm.build([
      [{ text: "Aus Surf Report", identifier: true }, { text: "Today's surf report for any break." }],
      [{ text: "Surf Forecast", identifier: true }, { text: "Surf forecast for California beaches." }],
    ]);
    const s = bm.scoreAll("surf report in australia");
    assert.ok(s[0] > s[1], `${s[0]} ${s[1]}`);
    const only = bm.scoreAll("australia");
    assert.ok(only[0] > 0 && only[1] === 0);
  });

  it("weights parts of a query and rejects nothing for empty parts", () => {
    const bm = new Bm25Index();
    bm.build([[{ text: "weather" }], [{ text: "email" }]]);
    const s = bm.scoreAll([{ text: "weather", weight: 1 }, { text: "email", weight: 0.2 }, { text: "", weight: 1 }]);
    assert.ok(s[0] > s[1] && s[1] > 0);
  });

  it("a BM25 snapshot (toBytes / fromBytes) scores exactly like the built index, even misaligned", () => {
    const docs = [
      [{ text: "list repositories", identifier: true }, { text: "List the repositories of a user." }],
      [{ text: "get weather", identifier: true }, { text: "Current weather for a city. 天气预报" }],
      [{ text: "repo stats", identifier: true }, { text: "Statistics of a code base." }],
    ];
    const bm = new Bm25Index();
    bm.build(docs);
    const bytes = bm.toBytes();
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    for (const loaded of [Bm25Index.fromBytes(bytes), Bm25Index.fromBytes(shifted.subarray(1))])
      for (const q of ["repo weather", "repositories", "PRs", "天气", "city stats", ""]) assert.deepEqual([...loaded.scoreAll(q)], [...bm.scoreAll(q)], q);
    assert.deepEqual(Bm25Index.fromBytes(bm.toBytes()).toBytes(), bytes, "re-serializes byte for byte");
    assert.throws(() => Bm25Index.fromBytes(bytes, { k1: 2 }), /BM25 snapshot: built with options .*"k1":1.2/);
    assert.throws(() => Bm25Index.fromBytes(bytes.subarray(0, bytes.length - 9)), /BM25 snapshot: truncated/);
    assert.throws(() => Bm25Index.fromBytes(new Uint8Array(40)), /BM25 snapshot: not a BM25 snapshot/);
  });

  /** Four short tools, the fixture of the sparse-scoring tests. */
  const fourToolIndex = (): Bm25Index => {
    const bm = new Bm25Index();
    bm.build([
      [{ text: "list repositories", identifier: true }, { text: "List the repositories of a user." }],
      [{ text: "get weather", identifier: true }, { text: "Current weather for a city." }],
      [{ text: "repo stats", identifier: true }, { text: "Statistics of a code base." }],
      [{ text: "send email", identifier: true }, { text: "Send an email." }],
    ]);
    return bm;
  };

  it("scoreSparse lists exactly the documents scoring above 0, and repeated queries score the same", () => {
    const bm = fourToolIndex();
    for (const q of ["repo weather", "repositories of a city", "email", "zebra", ""]) {
      const full = bm.scoreAll(q);
      const sparse = bm.scoreSparse(q);
      assert.deepEqual([...sparse.scores], [...full], q);
      assert.deepEqual([...sparse.docs].sort(), [...full.keys()].filter((i) => full[i] > 0), q);
    }
    // Per-query scratch (touched marks, prefix maxima) is reset: a query after another scores as if first.
    const fresh = fourToolIndex();
    assert.deepEqual([...bm.scoreAll("repo")], [...fresh.scoreAll("repo")]);
  });

  it("scoreSparseTransient scores like scoreSparse, query after query, though it reuses its buffers", () => {
    const bm = fourToolIndex();
    // A wide query, then narrower ones: what the previous query scored must not leak into the next.
    const queries = ["repo weather email city", "email", "zebra", "", "repositories of a city", "repo", "repo weather email city"];
    let previous: Float32Array | undefined;
    for (const q of queries) {
      const expected = bm.scoreSparse(q);
      const got = bm.scoreSparseTransient(q);
      assert.deepEqual([...got.scores], [...expected.scores], q);
      assert.deepEqual([...got.docs].sort(), [...expected.docs].sort(), q);
      if (previous) assert.equal(got.scores, previous, "the same buffer serves every query");
      previous = got.scores;
    }
  });
});

describe("tool text", () => {
  const tool = {
    name: "get_weread_rank",
    server: "weread",
    description: "Get the **ranking** of books. More text follows here.",
    inputSchema: { type: "object", properties: { bookType: { type: "string" } }, anyOf: [{ properties: { top_n: {} } }] },
    tags: ["books"],
  };
  it("splits identifiers, strips markup, adds the server only when asked or when the catalog has several", () => {
    assert.equal(toolTextOf(tool), "get weread rank: Get the ranking of books. More text follows here.");
    assert.equal(toolTextOf(tool, {}, { multiServer: true }), "get weread rank (weread): Get the ranking of books. More text follows here.");
    assert.equal(toolTextOf(tool, { server: false }, { multiServer: true }).startsWith("get weread rank:"), true);
    assert.match(toolTextOf(tool, { server: true, serverDescription: true }, { serverDescription: "WeChat reading. Second." }), /\(weread — WeChat reading\.\)/);
  });
  it("adds parameter names and tags on request, and cuts at maxChars on a word boundary", () => {
    assert.deepEqual(parameterNamesOf(tool.inputSchema), ["book Type", "top n"]);
    assert.match(toolTextOf(tool, { params: true, tags: true }), /parameters: book Type, top n\. tags: books$/);
    const cut = toolTextOf(tool, { maxChars: 30 });
    assert.ok(cut.length <= 30 && !cut.endsWith(" "), cut);
    assert.equal(cut, "get weread rank: Get the");
  });
});

describe("hybrid routing (real USE-lite)", () => {
  let dense: ToolAttentionRouter;
  let lexical: ToolAttentionRouter;
  let hybrid: ToolAttentionRouter;
  before(async () => {
    const catalog = handCatalog();
    const opts = { cacheDir: false as const, log: false as const, theta: -1, k: 3 };
    dense = new ToolAttentionRouter(catalog, { ...opts, encoder: "use-lite" });
    lexical = new ToolAttentionRouter(catalog, { ...opts, encoder: "lexical" });
    hybrid = new ToolAttentionRouter(catalog, { ...opts, encoder: "hybrid" });
    await Promise.all([dense.prepare(), lexical.prepare(), hybrid.prepare()]);
  });

  it("is the default encoder", () => {
    const r = new ToolAttentionRouter(handCatalog(), { cacheDir: false, log: false });
    return r.prepare().then(() => assert.match(r.describe(), /use-lite-512\+bm25/));
  });

  it("an abbreviation dense misses, lexical catches, and hybrid ranks first", async () => {
    const q = "show my open PRs";
    assert.notEqual(names(await dense.route(q))[0], "list_pull_requests");
    assert.equal(names(await lexical.route(q))[0], "list_pull_requests");
    assert.equal(names(await hybrid.route(q))[0], "list_pull_requests");
  });

  it("a paraphrase lexical misses, dense catches, and hybrid keeps", async () => {
    const q = "will I need an umbrella in Oslo tomorrow?";
    const lex = await lexical.route(q);
    assert.ok(lex.candidates.every((c) => c.score === 0), "no word in common with any tool");
    assert.equal(names(await dense.route(q))[0], "get_weather");
    const h = await hybrid.route(q);
    assert.equal(names(h)[0], "get_weather");
    // No lexical evidence: the hybrid score is the cosine, so θ keeps its dense meaning.
    assert.ok(Math.abs(h.active[0].score - (await dense.route(q)).active[0].score) < 1e-6);
  });

  it("finds a Chinese-described tool by its name, and by Chinese words", async () => {
    assert.equal(names(await lexical.route("weread rank of books"))[0], "get_weread_rank");
    assert.equal(names(await hybrid.route("weread rank of books"))[0], "get_weread_rank");
    assert.equal(names(await lexical.route("微信读书排行"))[0], "get_weread_rank");
    assert.equal(names(await hybrid.route("微信读书排行"))[0], "get_weread_rank");
  });

  it("a relative margin drops tools far below the best, on top of θ", async () => {
    const q = "restart the k8s deployment";
    const wide = await hybrid.route(q, undefined, { k: 5 });
    assert.equal(wide.active.length, 5);
    const tight = await hybrid.route(q, undefined, { k: 5, margin: 0.3 });
    assert.deepEqual(names(tight), ["k8s_rollout_restart"]);
    for (const a of tight.active) assert.ok(a.score >= tight.active[0].score - 0.3);
    assert.throws(() => new ToolAttentionRouter(handCatalog(), { margin: -1 }), /margin/);
  });

  it("weighted query parts: a heavier part decides", async () => {
    const mail = await hybrid.route([{ text: "send an email to bob", weight: 1 }, { text: "weather in Oslo", weight: 0.1 }]);
    assert.equal(names(mail)[0], "send_email");
    const weather = await hybrid.route([{ text: "send an email to bob", weight: 0.1 }, { text: "weather in Oslo", weight: 1 }]);
    assert.equal(names(weather)[0], "get_weather");
  });

  it("include keeps named tools active outside k, subject to preconditions", async () => {
    const d = await hybrid.route("restart the k8s deployment", undefined, { k: 1, include: ["send_email", "no_such_tool"] });
    assert.deepEqual(names(d), ["send_email", "k8s_rollout_restart"]);
  });
});

describe("tags", () => {
  it("restricts to or boosts tools by tag or server; the state's tags reach the middleware's routing", async () => {
    const catalog = ToolCatalog.fromFile(new URL("../data/demo-catalog.json", import.meta.url).pathname);
    const r = new ToolAttentionRouter(catalog, { cacheDir: false, log: false, k: 5 });
    const q = "search for the login bug";
    const only = await r.route(q, undefined, { tags: { only: ["slack"] } });
    assert.ok(only.active.length > 0 && only.active.every((a) => a.server === "slack"), names(only).join());
    const onlyTag = await r.route(q, undefined, { tags: { only: ["admin"] } });
    assert.ok(onlyTag.candidates.every((c) => ["merge_pull_request", "execute_migration"].includes(c.name)));
    const plain = await r.route(q);
    const boosted = await r.route(q, undefined, { tags: { boost: ["calendar"] } });
    const rank = (d: typeof plain, n: string) => d.candidates.findIndex((c) => c.name === n);
    assert.ok(rank(boosted, "search_emails") < rank(plain, "search_emails"), `${rank(boosted, "search_emails")} vs ${rank(plain, "search_emails")}`);

    const { tools } = demoTools();
    const model = new ScriptedChatModel([new AIMessage("ok")]);
    const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 5, cacheDir: false })] });
    await agent.invoke({ messages: [new HumanMessage(q)], toolTags: { only: ["filesystem"] } });
    const bound = model.calls[0].tools.filter((n) => n !== "search_tools");
    assert.ok(bound.length > 0 && bound.every((n) => catalog.getByName(n)[0].server === "filesystem"), bound.join());
  });
});

describe("turn intent and sticky tools", () => {
  it("builds weighted parts: latest user message, earlier turns, the model's plan; tool results when no plan was stated", () => {
    const messages: BaseMessage[] = [
      new HumanMessage("first question"),
      new AIMessage("answer"),
      new HumanMessage("second question"),
      new AIMessage({ content: "I will read the config, then list the tables.", tool_calls: [{ id: "c1", name: "read_file", args: {} }] }),
      new ToolMessage({ content: "database: analytics", tool_call_id: "c1", name: "read_file" }),
    ];
    // The stated plan dominates (weight 6); the result is left out because a plan was stated.
    assert.deepEqual(turnIntent(messages), [
      { text: "second question", weight: 1 },
      { text: "first question", weight: 0.3 },
      { text: "I will read the config, then list the tables.", weight: 6 },
    ]);
    assert.deepEqual(turnIntent(messages, { resultsWithPlan: true, planWeight: 0.5 }), [
      { text: "second question", weight: 1 },
      { text: "first question", weight: 0.3 },
      { text: "database: analytics", weight: 0.3 },
      { text: "I will read the config, then list the tables.", weight: 0.5 },
    ]);
    // A tool call without text: no plan, so the observation carries the new information.
    const silent = [...messages.slice(0, 3), new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "read_file", args: {} }] }), messages[4]];
    assert.deepEqual(turnIntent(silent), [
      { text: "second question", weight: 1 },
      { text: "first question", weight: 0.3 },
      { text: "database: analytics", weight: 0.3 },
    ]);
    assert.deepEqual(turnIntent(messages, false), [{ text: "second question", weight: 1 }]);
    assert.deepEqual(turnIntent(messages, { history: 0, toolResultWeight: 0, planWeight: 0 }), [{ text: "second question", weight: 1 }]);
  });

  it("sticky entries lose a turn per routing; fresh results and promotions restart; errors do not count", () => {
    const messages: BaseMessage[] = [
      new HumanMessage("q"),
      new AIMessage({ content: "", tool_calls: [{ id: "a", name: "read_file", args: {} }, { id: "b", name: "bad", args: {} }] }),
      new ToolMessage({ content: "ok", tool_call_id: "a", name: "read_file" }),
      new ToolMessage({ content: "failed", tool_call_id: "b", name: "bad", status: "error" }),
    ];
    const prev = { turnId: "t", queryHash: "h", active: [], gatedOut: [], rejectedRounds: 0, sticky: [{ name: "old", turns: 1 }, { name: "mid", turns: 3 }], promoted: ["list_tables"] };
    assert.deepEqual(nextSticky(prev, messages, { turns: 3, max: 5 }), [
      { name: "list_tables", turns: 3 },
      { name: "read_file", turns: 3 },
      { name: "mid", turns: 2 },
    ]);
    assert.equal(nextSticky(prev, messages, { turns: 3, max: 2 }).length, 2);
    assert.deepEqual(nextSticky(prev, messages, { turns: 0, max: 5 }), []);
  });

  it("sticky tools stay within one request: a new user request does not carry the previous request's tools", async () => {
    const run = async (delivery: "rebind" | "stable") => {
      const { tools, runs } = demoTools();
      const events: ToolAttentionEvent[] = [];
      const model = new ScriptedChatModel([callTools({ name: "get_weather", args: { city: "Paris" } }), new AIMessage("Sunny."), new AIMessage("Listed.")]);
      const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery, onEvent: (e) => events.push(e) });
      const agent = createAgent({ model, tools, middleware: [mw] });
      const first = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
      assert.equal(runs.get("get_weather"), 1);
      // Within the request, the used tool stays active for the call after its result.
      assert.ok(model.calls[1].tools.includes("get_weather"), model.calls[1].tools.join());
      // Next user turn, new topic; the state (messages + decision) is carried over as a checkpointer would.
      await agent.invoke({ ...first, messages: [...first.messages, new HumanMessage("now list the tables of the analytics database")] });
      const deliveries = events.filter((e): e is DeliveryEvent => e.type === "tool_attention.delivery");
      return { tools: model.calls.map((c) => c.tools), deliveries };
    };
    const rebind = await run("rebind");
    assert.ok(rebind.tools[2].includes("list_tables"), rebind.tools[2].join());
    assert.ok(!rebind.tools[2].includes("get_weather"), `rebind carried get_weather into the next request: ${rebind.tools[2]}`);
    // Stable delivery may keep it bound (cheaper than rewriting the cached prefix) and says so.
    const stable = await run("stable");
    assert.ok(stable.tools[2].includes("list_tables"), stable.tools[2].join());
    const last = stable.deliveries.at(-1) as DeliveryEvent;
    assert.equal(last.mode, "stable");
    if (stable.tools[2].includes("get_weather")) assert.ok(last.keptUnrouted.includes("get_weather"), JSON.stringify(last));
  });
});

describe("promote-on-request (createAgent, real USE-lite)", () => {
  const setup = (script: ConstructorParameters<typeof ScriptedChatModel>[0], extra: { promoteOnRequest?: boolean } = {}) => {
    const { tools, runs } = demoTools();
    const model = new ScriptedChatModel(script);
    const events: ToolAttentionEvent[] = [];
    const onEvent = (e: ToolAttentionEvent) => events.push(e);
    const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 3, cacheDir: false, onEvent, runValidCalls: false, ...extra })] });
    return { agent, model, runs, events };
  };
  const gateRejections = (events: ToolAttentionEvent[]) =>
    events.flatMap((e) => (e.type === "tool_attention.gate" ? e.rejected.map((r) => [r.tool, r.kind]) : []));
  const toolMessages = (ms: BaseMessage[]) => ms.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

  it("a rejected call to a valid catalog tool binds it for the next call, which then runs it", async () => {
    const { agent, model, runs, events } = setup([
      callTools({ name: "list_tables", args: {} }),
      callTools({ name: "list_tables", args: {} }),
      new AIMessage("There are 3 tables."),
    ]);
    const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
    assert.ok(!model.calls[0].tools.includes("list_tables"), "not routed for a weather question");
    const first = toolMessages(out.messages)[0];
    assert.equal(first.status, "error");
    const payload = JSON.parse(String(first.content).split("\n")[0]);
    assert.equal(payload.promoted, true);
    assert.ok(payload.available.includes("list_tables"));
    assert.match(String(first.content), /now available with its full schema: call it again/);
    // The recovery call (a jump straight back to the model, no beforeModel) is bound with the promoted tool.
    assert.ok(model.calls[1].tools.includes("list_tables"), model.calls[1].tools.join());
    assert.equal(runs.get("list_tables"), 1);
    // Promoted tools are sticky: still bound after the tool ran and the turn was routed again.
    assert.ok(model.calls[2].tools.includes("list_tables"));
    // The gate event says the call was promoted, not just rejected as inactive.
    assert.deepEqual(gateRejections(events), [["list_tables", "promoted"]]);
    const answers = new Map<string, number>();
    for (const t of toolMessages(out.messages)) answers.set(t.tool_call_id, (answers.get(t.tool_call_id) ?? 0) + 1);
    assert.ok([...answers.values()].every((n) => n === 1));
  });

  it("a tool failing its precondition is refused with the reason and not bound", async () => {
    const { agent, model, runs, events } = setup([callTools({ name: "send_email", args: { to: "bob" } }), new AIMessage("I cannot send email.")]);
    const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
    const refusal = toolMessages(out.messages)[0];
    assert.match(String(refusal.content), /missing scope: mail:send/);
    assert.equal(JSON.parse(String(refusal.content).split("\n")[0]).promoted, undefined);
    assert.ok(!model.calls[1].tools.includes("send_email"));
    assert.equal(runs.get("send_email"), undefined);
    assert.deepEqual(gateRejections(events), [["send_email", "precondition"]]);
  });

  it("can be turned off: the tool stays unbound", async () => {
    const { agent, model, events } = setup([callTools({ name: "list_tables", args: {} }), new AIMessage("ok")], { promoteOnRequest: false });
    const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
    assert.match(String(toolMessages(out.messages)[0].content), /not active for this request/);
    assert.deepEqual(gateRejections(events), [["list_tables", "not_active"]]);
    assert.ok(!model.calls[1].tools.includes("list_tables"));
  });
});

describe("eval --simulate", () => {
  it("routes each plan step with the rolling intent and reaches tools single-query routing misses", async () => {
    const router = new ToolAttentionRouter(handCatalog(), { cacheDir: false, log: false, k: 1 });
    const tasks = [
      {
        id: "multi",
        query: "restart the k8s deployment, then tell the team by email",
        gold: ["k8s_rollout_restart", "send_email"],
        steps: ["restart the deployment pods", "send an email to the team that the restart is done"],
      },
    ];
    const single = await evaluate(router, tasks, { latencySample: 0 });
    const sim = await evaluate(router, tasks, { simulate: true, latencySample: 0 });
    assert.equal(sim.simulate, true);
    assert.equal(single.recall, 0.5);
    assert.equal(sim.recall, 1);
    for (const g of tasks[0].gold) assert.ok(sim.perTask[0].active.includes(g), sim.perTask[0].active.join());
  });
});
