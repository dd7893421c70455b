/**
 * Integration: a real createAgent loop (langchain v1) with the Tool Attention middleware, the real USE-lite
 * encoder and real LangChain tools, driven by a scripted tool-calling model that records what it was bound with.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { countTokens } from "../src/core/tokens/count.js";
import { renderFullSchema } from "../src/core/render/render.js";
import type { RoutingEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { demoTools } from "./helpers/demo-tools.js";

function setup(script: ConstructorParameters<typeof ScriptedChatModel>[0], k = 5) {
  const { tools, runs } = demoTools();
  const events: ToolAttentionEvent[] = [];
  const model = new ScriptedChatModel(script);
  // The promote-first gate (runValidCalls: false): these tests are about promotion and refusal.
  const middleware = toolAttentionMiddleware({ tools, k, cacheDir: false, runValidCalls: false, onEvent: (e) => events.push(e) });
  const agent = createAgent({ model, tools, middleware: [middleware] });
  return { agent, model, runs, events, middleware, tools };
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

/** Every tool call the model made has exactly one answer. */
function assertEveryCallAnsweredOnce(messages: BaseMessage[]) {
  const answers = new Map<string, number>();
  for (const t of toolMessages(messages)) answers.set(t.tool_call_id, (answers.get(t.tool_call_id) ?? 0) + 1);
  for (const m of messages) {
    for (const call of (m as { tool_calls?: { id?: string; name: string }[] }).tool_calls ?? [])
      assert.equal(answers.get(call.id as string), 1, `tool call ${call.name} (${call.id}) answered ${answers.get(call.id as string) ?? 0} times`);
  }
}

test("only the active tools are bound and the summary pool is in the system message", async () => {
  const { agent, model, runs, tools } = setup([callTools({ name: "get_weather", args: { city: "Paris" } })]);
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  assert.equal(model.calls.length, 2);
  const first = model.calls[0];
  assert.ok(first.tools.includes("get_weather"), `bound: ${first.tools}`);
  // At most k routed tools, plus the middleware's search_tools (the way back when routing misses).
  const routed = first.tools.filter((n) => n !== "search_tools");
  assert.ok(routed.length <= 5 && routed.length < tools.length, `bound ${first.tools.length} tools`);
  assert.ok(!first.tools.includes("merge_pull_request"));
  // The pool lists every tool, including those not bound.
  for (const t of tools) assert.ok(first.system.includes(`- ${t.name}: `), `pool misses ${t.name}`);
  // The pool is byte-identical across model calls.
  assert.equal(model.calls[1].system, first.system);
  assert.equal(runs.get("get_weather"), 1);
  assertEveryCallAnsweredOnce(out.messages);
});

test("a call to a tool outside the active set gets tool_not_available and the model is called again", async () => {
  const { agent, model, runs, events } = setup([
    callTools({ name: "delete_everything", args: {} }),
    callTools({ name: "get_weather", args: { city: "Paris" } }),
  ]);
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  assert.equal(model.calls.length, 3, "model called again after the rejection, then after the tool ran");
  const rejected = toolMessages(out.messages)[0];
  assert.equal(rejected.status, "error");
  const payload = JSON.parse(String(rejected.content).split("\n")[0]);
  assert.equal(payload.error, "tool_not_available");
  assert.equal(payload.tool, "delete_everything");
  // The catalog tools the model could call (search_tools, bound next to them, is the middleware's own).
  assert.deepEqual(payload.available, model.calls[0].tools.filter((n) => n !== "search_tools"));
  // The second model call saw the rejection.
  assert.ok(model.calls[1].messages.some((m) => ToolMessage.isInstance(m) && m.tool_call_id === rejected.tool_call_id));
  assert.equal(runs.get("get_weather"), 1);
  assert.ok(events.some((e) => e.type === "tool_attention.gate" && e.rejected[0].kind === "unknown_tool"));
  // One routing event per decision, none duplicated: the recovery call (a jump straight back to the model)
  // reuses the decision, and the call after the tool ran is routed afresh.
  const routes = events.filter((e) => e.type === "tool_attention.route");
  assert.equal(routes.length, model.calls.length - 1);
  assert.equal(new Set(routes.map((e) => e.turnId)).size, routes.length);
  assertEveryCallAnsweredOnce(out.messages);
});

test("an existing but inactive tool is rejected and never executed, while allowed calls in the same message run", async () => {
  const { agent, model, runs } = setup([
    callTools({ name: "get_weather", args: { city: "Oslo" } }, { name: "list_tables", args: {} }),
  ]);
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  assert.ok(!model.calls[0].tools.includes("list_tables"));
  assert.equal(runs.get("get_weather"), 1);
  assert.equal(runs.get("list_tables"), undefined, "the inactive tool must not run");
  const answers = toolMessages(out.messages);
  const rejected = answers.find((m) => m.name === "list_tables");
  assert.ok(rejected && rejected.status === "error");
  assert.match(String(rejected.content), /"error":"tool_not_available"/);
  // Promote-on-request is on by default: the error says the tool is now bound (it still did not run).
  assert.match(String(rejected.content), /did not run: it was not bound for this request/);
  assert.equal(JSON.parse(String(rejected.content).split("\n")[0]).promoted, true);
  assertEveryCallAnsweredOnce(out.messages);
});

test("a tool behind a scope is unavailable until the scope is in state", async () => {
  // Without the scope: routed candidate, but gated out, not bound, and a call to it is refused with the reason.
  const a = setup([callTools({ name: "merge_pull_request", args: { owner: "acme", repo: "api", pull_number: 42 } })]);
  const outA = await a.agent.invoke({ messages: [new HumanMessage("merge pull request 42 in acme/api")] });
  assert.ok(!a.model.calls[0].tools.includes("merge_pull_request"));
  assert.ok(outA.toolAttention?.gatedOut.some((g: { name: string; reason: string }) => g.name === "merge_pull_request" && /repo:write/.test(g.reason)));
  const refusal = toolMessages(outA.messages)[0];
  assert.match(String(refusal.content), /missing scope: repo:write/);
  assert.equal(a.runs.get("merge_pull_request"), undefined);

  // With the scope: after get_pull_request ran (its afterTool precondition), merge is bound and runs.
  const b = setup([
    callTools({ name: "get_pull_request", args: { owner: "acme", repo: "api", pull_number: 42 } }),
    callTools({ name: "merge_pull_request", args: { owner: "acme", repo: "api", pull_number: 42 } }),
  ]);
  const outB = await b.agent.invoke({ messages: [new HumanMessage("merge pull request 42 in acme/api")], scopes: ["repo:write"] });
  assert.ok(!b.model.calls[0].tools.includes("merge_pull_request"), "still needs get_pull_request's output");
  assert.ok(b.model.calls[1].tools.includes("merge_pull_request"), `second call bound: ${b.model.calls[1].tools}`);
  assert.equal(b.runs.get("merge_pull_request"), 1);
  assertEveryCallAnsweredOnce(outB.messages);
});

test("a tool behind afterTool appears after that tool ran", async () => {
  const { agent, model, runs } = setup([
    callTools({ name: "read_file", args: { path: "config.yaml" } }),
    callTools({ name: "edit_file", args: { path: "config.yaml", edits: [{ oldText: "8000", newText: "8080" }] } }),
  ]);
  const out = await agent.invoke({ messages: [new HumanMessage("read config.yaml and change the port to 8080")] });
  assert.ok(model.calls[0].tools.includes("read_file"));
  assert.ok(!model.calls[0].tools.includes("edit_file"));
  assert.ok(model.calls[1].tools.includes("edit_file"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(runs.get("edit_file"), 1);
  assertEveryCallAnsweredOnce(out.messages);
});

test("token counts in the routing event equal js-tiktoken's counts of the rendered text", async () => {
  const { agent, events, middleware } = setup([]);
  await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  const route = events.find((e): e is RoutingEvent => e.type === "tool_attention.route");
  assert.ok(route);
  const router = middleware.router;
  assert.equal(route.phase1Tokens, countTokens(router.pool()));
  const schemas = await router.loader.getMany(route.active.map((a) => a.id));
  assert.equal(route.phase2Tokens, schemas.reduce((n, s) => n + countTokens(renderFullSchema(s)), 0));
  const all = await router.loader.getMany(router.catalog.tools.map((t) => t.id));
  assert.equal(route.fullSchemaTokens, all.reduce((n, s) => n + countTokens(renderFullSchema(s)), 0));
  assert.ok(route.phase1Tokens + route.phase2Tokens < route.fullSchemaTokens);
});

test("a model that keeps calling unavailable tools is stopped after maxRejectedRounds", async () => {
  const { tools } = demoTools();
  const model = new ScriptedChatModel(Array.from({ length: 10 }, () => callTools({ name: "nope", args: {} })));
  const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, cacheDir: false, maxRejectedRounds: 2 })] });
  const out = await agent.invoke({ messages: [new HumanMessage("hello")] });
  assert.equal(model.calls.length, 3, "initial call + 2 recoveries");
  assertEveryCallAnsweredOnce(out.messages);
});

test("routing decisions reach LangChain callbacks as custom events", async () => {
  const { agent } = setup([]);
  const seen: { name: string; data: RoutingEvent }[] = [];
  await agent.invoke(
    { messages: [new HumanMessage("what's the weather in Paris tomorrow?")] },
    { callbacks: [{ handleCustomEvent: (name: string, data: RoutingEvent) => void seen.push({ name, data }) }] },
  );
  const route = seen.find((s) => s.name === "tool_attention.route");
  assert.ok(route, `custom events seen: ${seen.map((s) => s.name)}`);
  assert.equal(route.data.active[0].id, "get_weather");
});

test("registerTools: tools passed only to the middleware are registered with the agent and routed", async () => {
  const { tools, runs } = demoTools();
  const model = new ScriptedChatModel([callTools({ name: "get_weather", args: { city: "Rome" } })]);
  // rebind: under auto a catalog this small binds every schema (the pool naming parameters costs about as much).
  const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ tools, registerTools: true, cacheDir: false, delivery: "rebind" })] });
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Rome?")] });
  assert.ok(model.calls[0].tools.includes("get_weather"));
  assert.ok(model.calls[0].tools.length < tools.length);
  assert.equal(runs.get("get_weather"), 1);
  assertEveryCallAnsweredOnce(out.messages);
});

test("tools outside the catalog (e.g. added by another middleware) pass through: bound and callable", async () => {
  const { tools, runs } = demoTools();
  const routed = tools.filter((t) => t.name !== "get_weather");
  const model = new ScriptedChatModel([callTools({ name: "get_weather", args: { city: "Rome" } })]);
  const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools: routed, cacheDir: false })] });
  const out = await agent.invoke({ messages: [new HumanMessage("merge pull request 42 in acme/api")] });
  assert.ok(model.calls[0].tools.includes("get_weather"), "non-catalog tool stays bound");
  assert.equal(runs.get("get_weather"), 1);
  assertEveryCallAnsweredOnce(out.messages);
});
