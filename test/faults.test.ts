/**
 * The fault and bad-input suite: malformed catalogs (generated, run in a watched worker), an MCP server killed in
 * the middle of a call inside a createAgent loop, the dense encoder failing mid-session, and 100 concurrent threads
 * on one agent and one router. No network.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent } from "langchain";
import { MemorySaver } from "@langchain/langgraph";
import { Embeddings } from "@langchain/core/embeddings";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { LexicalEmbeddings } from "../src/core/encoders/lexical.js";
import { compactParameters } from "../src/core/compaction/phase2.js";
import { inlineRefs } from "../src/core/compaction/ref-dedup.js";
import { countTokens, truncateToTokens } from "../src/core/tokens/count.js";
import { firstSentence } from "../src/core/catalog/text.js";
import type { RoutingEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { McpSession, restartDelays, type McpRestartEvent } from "../src/mcp/session.js";
import type { McpServerFailure } from "../src/mcp/connection.js";
import { malformedCatalogCases, runMalformedCase, runMalformedSuite } from "../src/bench/faults.js";
import { runConcurrencyThreads, threadPlans, type ConcurrencyRun } from "../src/bench/faults-concurrency.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { demoTools } from "./helpers/demo-tools.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function assertEveryCallAnsweredOnce(messages: BaseMessage[]) {
  const answers = new Map<string, number>();
  for (const m of messages) if (ToolMessage.isInstance(m)) answers.set(m.tool_call_id, (answers.get(m.tool_call_id) ?? 0) + 1);
  for (const m of messages)
    for (const call of (m as { tool_calls?: { id?: string; name: string }[] }).tool_calls ?? [])
      assert.equal(answers.get(call.id as string), 1, `tool call ${call.name} answered ${answers.get(call.id as string) ?? 0} times`);
}

// ---------------------------------------------------------------------------------------------------------------
// Malformed catalogs
// ---------------------------------------------------------------------------------------------------------------

test("malformed catalogs: every generated case is accepted, repaired with a named warning, or a clean error; none crashes", async (t) => {
  const report = await runMalformedSuite({ budgetMs: 30_000 });
  const crashes = report.details.filter((d) => d.outcome === "crash");
  assert.deepEqual(crashes.map((c) => `${c.id}/${c.encoder} at ${c.stage}: ${c.message}`), []);
  assert.equal(report.crashes, 0);
  assert.equal(report.cases, malformedCatalogCases().length);
  assert.ok(report.cases >= 60, `${report.cases} cases`);
  assert.ok(report.runs > report.cases, "some cases also run with the default encoder");
  assert.equal(report.cases, report.accepted + report.repaired + report.cleanErrors + report.crashes);
  assert.equal(report.unnamedWarnings, 0, "every warning names a server, a tool or a field");
  for (const group of ["fields", "huge", "unicode", "ref", "duplicates", "prototype"]) assert.ok(report.byGroup[group] > 0, group);
  const outcome = (id: string) => report.details.find((d) => d.id === id && d.encoder === "lexical");
  // Input that is not a catalog at all is an error naming the field; bad parts of a catalog are repaired.
  assert.equal(outcome("root-null")?.outcome, "clean-error");
  assert.match(outcome("root-null")?.message ?? "", /"servers"/);
  for (const id of ["cyclic-object", "nesting-10000-properties", "description-2mb-one-word", "description-2mb-markup", "tool-entries-odd", "lone-surrogates"])
    assert.equal(outcome(id)?.outcome, "repaired", id);
  // The largest inputs finish well inside the budget.
  for (const id of ["description-2mb-one-word", "description-2mb-markup", "ref-bomb", "tools-5000", "properties-10000"])
    assert.ok((outcome(id)?.ms ?? Infinity) < 10_000, `${id}: ${outcome(id)?.ms} ms`);
  t.diagnostic(
    `malformed: ${report.cases} cases (${report.runs} runs): ${report.accepted} accepted, ${report.repaired} repaired, ` +
      `${report.cleanErrors} clean errors, ${report.crashes} crashes, ${report.ms} ms`,
  );
});

test("the case runner tells a clean error from a crash", async () => {
  const base = { group: "fields" as const, what: "test", query: "weather" };
  const crash = await runMalformedCase({ ...base, id: "type-error", build: () => (null as unknown as { x: { y: number } }).x.y }, "lexical");
  assert.equal(crash.outcome, "crash");
  assert.equal(crash.stage, "build");
  const clean = await runMalformedCase({ ...base, id: "no-servers", build: () => ({ servers: "x" }) }, "lexical");
  assert.equal(clean.outcome, "clean-error");
});

// The inputs below used to hang (hours for a 2 MB word, quadratic markup stripping, 2^32 ref expansions); the
// test's timeout is the guard against a regression, not a speed measurement (the fault suite in the bench times them).
test("what the malformed cases found, one by one", { timeout: 60_000 }, () => {
  // A 20,000-letter word took 18 s to count; cutting a 2 MB one to 50 tokens took as long as counting it.
  assert.ok(countTokens("w".repeat(20_000)) > 1000);
  assert.ok(truncateToTokens("w".repeat(2_000_000), 50).length < 400);
  // Unclosed markup made the markup stripper quadratic.
  assert.equal(typeof firstSentence("<a ".repeat(700_000)), "string");
  assert.equal(typeof firstSentence("[x](".repeat(500_000)), "string");
  // $defs that refer to the next one twice: inlining stops at its budget, the rest stays as refs.
  const defs: Record<string, unknown> = { d32: { type: "string" } };
  for (let i = 31; i >= 0; i--) defs[`d${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } };
  const inlined = inlineRefs({ type: "object", properties: { root: { $ref: "#/$defs/d0" } }, $defs: defs });
  assert.ok(JSON.stringify(inlined).length < 5_000_000);
  assert.ok(inlined.$defs, "refs left unresolved keep their definitions");
  // A parameter named "__proto__" survives compaction as a parameter.
  const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","description":"odd"},"city":{"type":"string"}},"required":["__proto__"]}');
  for (const out of [compactParameters(schema, { shortList: true, inlineRefs: true }), compactParameters(schema, { refDedup: true })]) {
    assert.deepEqual(Object.keys(out.properties as object).sort(), ["__proto__", "city"]);
    assert.equal(Object.getPrototypeOf(out.properties), Object.prototype);
  }
  // A schema object containing itself, and one nested 10,000 levels: repaired with a warning naming the tool.
  const cyclic: Record<string, unknown> = { type: "object", properties: {} };
  (cyclic.properties as Record<string, unknown>).self = cyclic;
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 10_000; i++) deep = { type: "object", properties: { child: deep } };
  const catalog = ToolCatalog.fromCatalogObject({
    servers: [{ name: "srv", tools: [{ name: "loop", inputSchema: cyclic }, { name: "deep", inputSchema: deep }, { name: "big", description: "x".repeat(100_000) }] }],
  });
  assert.equal(catalog.size, 3);
  assert.doesNotThrow(() => JSON.stringify(catalog.tools.map((r) => r.inputSchema)));
  assert.ok(catalog.warnings.some((w) => w.includes('tool "loop"') && w.includes("contains itself")), catalog.warnings.join("\n"));
  assert.ok(catalog.warnings.some((w) => w.includes('tool "deep"') && w.includes("deeper than")), catalog.warnings.join("\n"));
  assert.ok(catalog.warnings.some((w) => w.includes('tool "big"') && w.includes("cut to")), catalog.warnings.join("\n"));
  assert.ok((catalog.getById("big")?.description.length ?? 0) <= 32_768);
  // Tools a catalog accepts as they are keep their schema object (no copy).
  const plain = { type: "object", properties: { q: { type: "string" } } };
  assert.equal(ToolCatalog.fromCatalogObject({ servers: [{ name: "s", tools: [{ name: "q", inputSchema: plain }] }] }).getById("q")?.inputSchema, plain);
});

test("a live server listing a 10,000-level schema and a 2 MB description: its LangChain tools carry the repaired versions", async () => {
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 10_000; i++) deep = { type: "object", properties: { child: deep } };
  const listed = [
    { name: "deep", description: "Takes a deeply nested object.", inputSchema: { type: "object", properties: { root: deep } } },
    { name: "long", description: "Long. ".repeat(400_000), inputSchema: { type: "object", properties: {} } },
  ];
  const calls: unknown[] = [];
  const sdk = {
    request: async (req: { method: string; params?: unknown }, schema: { parse(x: unknown): unknown }) => {
      if (req.method === "tools/list") return schema.parse({ tools: listed });
      calls.push(req.params);
      return schema.parse({ content: [{ type: "text", text: "ok" }] });
    },
    setNotificationHandler: () => undefined,
    onclose: undefined,
  };
  const warnings: string[] = [];
  const session = await McpSession.fromMultiServerClient(
    { config: { mcpServers: { fake: {} } }, getClient: async () => sdk as never },
    { onWarning: (w) => warnings.push(w) },
  );
  const deepTool = session.resolveTool("deep") as unknown as { schema: unknown; invoke(x: unknown): Promise<unknown> };
  const longTool = session.resolveTool("long") as unknown as { description: string };
  assert.ok(JSON.stringify(deepTool.schema).length < 10_000, "the schema was cut at the depth limit");
  assert.ok(longTool.description.length <= 32_768);
  assert.ok(warnings.some((w) => w.includes('server "fake", tool "deep"') && w.includes("deeper than")), warnings.join("\n"));
  assert.ok(warnings.some((w) => w.includes('server "fake", tool "long"') && w.includes("cut to")), warnings.join("\n"));
  assert.equal(await deepTool.invoke({ root: { child: {} } }), "ok");
  assert.deepEqual(calls, [{ name: "deep", arguments: { root: { child: {} } } }]);
});

// ---------------------------------------------------------------------------------------------------------------
// An MCP server killed mid-call
// ---------------------------------------------------------------------------------------------------------------

function flakyConfig(state: string, failRestarts = 0) {
  return {
    source: "test",
    servers: {
      flaky: {
        transport: "stdio" as const,
        command: process.execPath,
        args: [fixture("flaky-server.mjs")],
        env: { FLAKY_STATE: state, FLAKY_FAIL_RESTARTS: String(failRestarts) },
      },
    },
  };
}

test("an MCP server killed mid-call: one error answer naming it, restarted with backoff, its tools back in the same agent loop", async () => {
  const dir = mkdtempSync(join(tmpdir(), "faults-flaky-"));
  const failures: McpServerFailure[] = [];
  const restarts: McpRestartEvent[] = [];
  let back: () => void = () => undefined;
  const restarted = new Promise<void>((r) => (back = r));
  const session = await McpSession.start(flakyConfig(join(dir, "starts")), {
    onServerFailure: (f) => failures.push(f),
    onRestart: (e) => {
      restarts.push(e);
      back();
    },
  });
  try {
    const { router, resolveTool } = session.middlewareOptions({ encoder: "lexical", theta: -1, k: 10, log: false });
    assert.deepEqual(router.catalog.tools.map((t) => t.name), ["echo", "generation", "die"]);
    const model = new ScriptedChatModel([
      callTools({ name: "die" }),
      async (call) => {
        // The cut-off call was answered once, with an error naming the server and saying it is restarting.
        const answer = call.messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
        assert.equal(answer.length, 1);
        assert.equal(answer[0].status, "error");
        const payload = JSON.parse(String(answer[0].content).split("\n")[0]);
        assert.equal(payload.error, "mcp_server_unavailable");
        assert.equal(payload.server, "flaky");
        assert.match(payload.reason, /exited unexpectedly; restarting \(attempt 1 of 8 in 250 ms\)/);
        // What the server wrote to stderr is for the operator (onServerFailure), never in what the model reads.
        assert.doesNotMatch(String(answer[0].content), /dying mid-call/);
        await restarted;
        return callTools({ name: "echo", args: { message: "back?" } });
      },
      (call) => {
        // The restarted server lists a new tool; the re-listing reached the router, so it is bound now.
        assert.ok(call.tools.includes("status"), `bound: ${call.tools}`);
        return callTools({ name: "status" });
      },
    ]);
    const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ router, resolveTool, delivery: "rebind", guarantee: false })] });
    const out = await agent.invoke({ messages: [new HumanMessage("Stop the flaky server, then check it came back.")] });
    const answers = out.messages.filter((m: BaseMessage): m is ToolMessage => ToolMessage.isInstance(m));
    assert.deepEqual(answers.map((m: ToolMessage) => m.name), ["die", "echo", "status"]);
    assert.equal(answers[1].content, "echo 2: back?");
    assert.equal(answers[1].status, "success");
    assert.equal(answers[2].content, "restarted: start 2");
    assertEveryCallAnsweredOnce(out.messages);
    assert.equal(restarts.length, 1);
    assert.equal(restarts[0].attempt, 1);
    assert.deepEqual(restarts[0].added, ["status"]);
    assert.ok(restarts[0].downMs >= 250 && restarts[0].downMs < 10_000, `down ${restarts[0].downMs} ms`);
    assert.deepEqual(failures.map((f) => f.phase), ["exited"]);
    assert.equal(session.connections.get("flaky")?.restarts, 1);
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("restart backoff: failed restarts wait longer each time, and the session gives up after maxAttempts", async () => {
  assert.deepEqual(restartDelays(), [250, 500, 1000, 2000, 4000, 8000, 16000, 30000]);
  assert.deepEqual(restartDelays({ initialDelayMs: 100, factor: 3, maxDelayMs: 1000, maxAttempts: 4 }), [100, 300, 900, 1000]);
  const dir = mkdtempSync(join(tmpdir(), "faults-flaky-"));
  try {
    // Two refused starts, then one that comes up: the third attempt, after 100 + 200 + 400 ms of waiting.
    const restarts: McpRestartEvent[] = [];
    let back: () => void = () => undefined;
    const restarted = new Promise<void>((r) => (back = r));
    const session = await McpSession.start(flakyConfig(join(dir, "a"), 2), {
      restart: { initialDelayMs: 100 },
      onServerFailure: () => undefined,
      onRestart: (e) => {
        restarts.push(e);
        back();
      },
    });
    try {
      // Invoked without a tool call id, an error answer is thrown; its text is checked in the test above.
      await assert.rejects(session.resolveTool("die")!.invoke({}), /"server":"flaky"/);
      await restarted;
      assert.equal(restarts[0].attempt, 3);
      assert.ok(restarts[0].downMs >= 700, `down ${restarts[0].downMs} ms`);
      assert.equal(await session.resolveTool("generation")?.invoke({}), "4");
    } finally {
      await session.close();
    }

    // Every start refused: after maxAttempts the server is reported failed (phase "restart") and calls say so.
    const failures: McpServerFailure[] = [];
    let gaveUp: () => void = () => undefined;
    const done = new Promise<void>((r) => (gaveUp = r));
    const doomed = await McpSession.start(flakyConfig(join(dir, "b"), 99), {
      restart: { initialDelayMs: 20, maxAttempts: 2 },
      onRestart: () => assert.fail("no restart can succeed"),
      onServerFailure: (f) => {
        failures.push(f);
        if (f.phase === "restart") gaveUp();
      },
    });
    try {
      await assert.rejects(doomed.resolveTool("die")!.invoke({}), /"server":"flaky"/);
      await done;
      assert.deepEqual(failures.map((f) => f.phase), ["exited", "restart"]);
      assert.match(failures[1].message, /gave up after 2 restart attempts/);
      assert.match(failures[1].stderrTail, /refuses to come up/);
      await assert.rejects(doomed.resolveTool("echo")!.invoke({ message: "x" }), /gave up after 2 restart attempts/);
    } finally {
      await doomed.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// The encoder failing mid-session
// ---------------------------------------------------------------------------------------------------------------

/** A dense encoder (hashed BM25 vectors) whose queries start failing after `failAfter` of them, until healed. */
class FailingEmbeddings extends Embeddings {
  readonly inner = new LexicalEmbeddings();
  queries = 0;
  healed = false;
  constructor(private readonly failAfter: number) {
    super({});
  }
  embedDocuments(texts: string[]): Promise<number[][]> {
    return this.inner.embedDocuments(texts);
  }
  async embedQuery(text: string): Promise<number[]> {
    this.queries++;
    if (!this.healed && this.queries > this.failAfter) throw new Error("embeddings endpoint returned 503");
    return this.inner.embedQuery(text);
  }
}

test("the dense encoder failing mid-session: routes continue on BM25, marked degraded, one log line per episode", async () => {
  const { tools } = demoTools();
  const encoder = new FailingEmbeddings(1);
  const logs: string[] = [];
  const events: ToolAttentionEvent[] = [];
  const middleware = toolAttentionMiddleware({
    tools,
    encoder,
    lexical: false,
    theta: 0.05,
    k: 5,
    cacheDir: false,
    log: (l) => logs.push(l),
    onEvent: (e) => events.push(e),
  });
  const routes = () => events.filter((e): e is RoutingEvent => e.type === "tool_attention.route");
  const failureLines = () => logs.filter((l) => l.includes("failed on a query"));
  const model = new ScriptedChatModel([
    (call) => {
      assert.ok(call.tools.includes("get_weather"), `bound: ${call.tools}`);
      return callTools({ name: "get_weather", args: { city: "Paris" } });
    },
    (call) => {
      // Degraded from here on: the lexical channel still finds the file tool.
      assert.ok(call.tools.includes("read_file"), `bound while degraded: ${call.tools}`);
      return callTools({ name: "read_file", args: { path: "notes.txt" } });
    },
    new AIMessage("done"),
    (call) => {
      assert.ok(call.tools.includes("post_message"), `bound while degraded: ${call.tools}`);
      return callTools({ name: "post_message", args: { channel: "#ops", text: "hi" } });
    },
    new AIMessage("done again"),
  ]);
  const agent = createAgent({ model, tools, middleware: [middleware], checkpointer: new MemorySaver() });
  const thread = { configurable: { thread_id: "encoder-outage" } };
  const first = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris, and then read notes.txt")] }, thread);
  assertEveryCallAnsweredOnce(first.messages);
  assert.deepEqual(routes().map((r) => r.degraded ?? "dense"), ["dense", "lexical", "lexical"]);
  // Degraded routes use the lexical θ on BM25 scores, and still reach the tools.
  assert.equal(routes()[1].theta, 0.02);
  const second = await agent.invoke({ messages: [new HumanMessage("post hi to the #ops slack channel")] }, thread);
  assertEveryCallAnsweredOnce(second.messages);
  assert.equal(routes().filter((r) => r.degraded === "lexical").length, 4);
  assert.equal(failureLines().length, 1, logs.join("\n"));
  assert.match(failureLines()[0], /encoder custom failed on a query \(embeddings endpoint returned 503\); routing on the lexical channel/);
  assert.equal(middleware.router.encoderFailure?.routes, 4);

  // Healthy again: routes are dense, nothing more is logged; a new outage is a new episode with its own line.
  encoder.healed = true;
  const healthy = await middleware.router.route("list the slack channels");
  assert.equal(healthy.degraded, undefined);
  assert.equal(middleware.router.encoderFailure, undefined);
  encoder.healed = false;
  // A text not routed before (the router keeps the vector of one it has routed: that route needs no encoder).
  const again = await middleware.router.route("list all the slack channels");
  assert.equal(again.degraded, "lexical");
  assert.ok(again.active.some((a) => a.name === "list_channels"));
  assert.equal(failureLines().length, 2);

  // With the fallback off, the encoder's error reaches the caller.
  const strict = toolAttentionMiddleware({ tools, encoder: new FailingEmbeddings(0), lexical: false, cacheDir: false, log: false, encoderFallback: false });
  await assert.rejects(strict.router.route("weather"), /embeddings endpoint returned 503/);
});

// ---------------------------------------------------------------------------------------------------------------
// 100 concurrent threads on one router and one agent
// ---------------------------------------------------------------------------------------------------------------

/** Checks a concurrency run from its raw traces: answers, executions, and equality with each thread run alone. */
function assertNoLeaks(run: ConcurrencyRun) {
  const plans = threadPlans(run.threads);
  const scoped = new Map<string, string[]>();
  for (const t of demoTools().tools) {
    const scopes = (t.metadata as { toolAttention?: { preconditions?: { requiresScopes?: string[] } } }).toolAttention?.preconditions?.requiresScopes;
    if (scopes) scoped.set(t.name, scopes);
  }
  let gatedSomewhere = 0;
  let routedSomewhere = false;
  const catalogSize = demoTools().tools.length;
  for (const [i, trace] of run.traces.entries()) {
    const plan = plans[i];
    assert.equal(trace.thread, i);
    assert.equal(trace.finalText, `done ${i}`, `thread ${i} ended with ${trace.finalText}`);
    // Every call of the thread answered exactly once, only by answers to its own calls.
    const answered = new Map<string, number>();
    for (const a of trace.answers) {
      assert.ok(a.id.startsWith(`t${i}-`), `thread ${i} got the answer to ${a.id}`);
      answered.set(a.id, (answered.get(a.id) ?? 0) + 1);
    }
    for (const c of trace.calls) assert.equal(answered.get(c.id), 1, `thread ${i}: call ${c.id} answered ${answered.get(c.id) ?? 0} times`);
    // Every successful call ran exactly once, and nothing else ran for this thread.
    const succeeded = trace.answers.filter((a) => a.status !== "error").map((a) => a.id).sort();
    assert.deepEqual([...trace.executed].sort(), succeeded, `thread ${i} executions`);
    assert.ok(trace.calls.some((c) => c.name === plan.target), `thread ${i} called ${plan.target}`);
    // No tool needing a scope the thread does not hold was ever bound for it (every schema is bound when auto picks
    // `all` for a catalog this small: then none of them ever ran, the gate refused them).
    for (const bound of trace.bound)
      for (const name of bound) {
        const needs = scoped.get(name);
        if (needs && !needs.every((s) => plan.scopes.includes(s)) && bound.length < catalogSize) assert.fail(`thread ${i} (scopes ${plan.scopes}) was bound ${name}`);
      }
    for (const a of trace.answers) {
      const needs = scoped.get(a.name);
      if (needs && !needs.every((s) => plan.scopes.includes(s))) assert.equal(a.status, "error", `thread ${i} (scopes ${plan.scopes}) ran ${a.name}`);
    }
    if (trace.bound.some((b) => b.length < catalogSize)) routedSomewhere = true;
    if (trace.bound.every((b) => !b.includes("create_issue"))) gatedSomewhere++;
    // Exactly what the thread saw when it ran alone: bound tools per model call, final routing and delivery state.
    assert.deepEqual(trace.bound, run.baseline[i].bound, `thread ${i} bound tools differ from its run alone`);
    assert.deepEqual(trace.finalState, run.baseline[i].finalState, `thread ${i} state differs from its run alone`);
  }
  // The comparison means something: where routing binds a subset, threads do differ in what they are bound.
  if (routedSomewhere) {
    assert.ok(gatedSomewhere > 0 && gatedSomewhere < run.threads);
    assert.notDeepEqual(run.traces[0].bound, run.traces[1].bound);
  }
  assert.equal(run.leaks + run.unanswered + run.duplicateAnswers + run.wrongExecutions + run.unfinished, 0);
}

test("100 concurrent threads on one agent and one router (delivery rebind): nothing leaks between threads, every call answered once", async (t) => {
  const run = await runConcurrencyThreads({ threads: 100, delivery: "rebind" });
  assertNoLeaks(run);
  t.diagnostic(`rebind: ${run.threads} threads, ${run.modelCalls} model calls, ${run.toolCalls} tool calls; ${run.wallMs} ms at once, ${run.sequentialMs} ms one after another`);
});

test("100 concurrent threads with the default delivery: nothing leaks between threads, every call answered once", async (t) => {
  const run = await runConcurrencyThreads({ threads: 100 });
  assertNoLeaks(run);
  t.diagnostic(`default delivery: ${run.threads} threads; ${run.wallMs} ms at once, ${run.sequentialMs} ms one after another`);
});
