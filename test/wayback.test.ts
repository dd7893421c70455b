/**
 * The way back when routing misses, and the names models actually use, in real agent loops: a real createAgent
 * (langchain v1) and a real hand-built LangGraph StateGraph with ToolNode, the real USE-lite encoder, real
 * LangChain tools, and a scripted tool-calling model that records what it was bound with.
 *
 * - A call by a name the catalog does not have but that fits exactly one tool (unqualified `server__name`,
 *   server-qualified in any notation, another letter case) runs that tool, and the history shows its real name.
 * - A name that fits several tools is answered once, with the candidates; the model recovers by calling one.
 * - An unknown name is answered with the closest tools, which are bound on the next call.
 * - `search_tools` is bound under `rebind` and `stable` delivery too, and finds a tool routing missed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";

import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { createToolAttentionHooks, ToolAttentionAnnotation } from "../src/adapters/langgraph/hooks.js";
import { SEARCH_TOOL_NAME } from "../src/adapters/langchain/delivery.js";
import type { GateEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { routedGraph } from "./helpers/graph.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { demoTools } from "./helpers/demo-tools.js";

/** The demo tools plus tools named the way an MCP session names tools two servers share (`server__name`). */
function toolsWithQualifiedNames() {
  const { tools, runs } = demoTools();
  const qualified = (server: string, name: string, description: string) =>
    tool(
      async (args: Record<string, unknown>) => {
        runs.set(`${server}__${name}`, (runs.get(`${server}__${name}`) ?? 0) + 1);
        return JSON.stringify({ ok: true, tool: `${server}__${name}`, args });
      },
      {
        name: `${server}__${name}`,
        description,
        schema: z.object({ entities: z.array(z.object({ name: z.string(), entityType: z.string() })).optional() }),
        metadata: { toolAttention: { server } },
      },
    );
  const extra = [
    qualified("memory", "create_entities", "Create entities (people, projects, places) in the knowledge graph memory."),
    qualified("notes", "create_entities", "Create entities in the notes store."),
    qualified("memory", "read_graph", "Read the entire knowledge graph memory: every entity and relation."),
  ];
  return { tools: [...tools, ...extra], runs };
}

function agentWith(script: ConstructorParameters<typeof ScriptedChatModel>[0], opts: { k?: number; delivery?: "rebind" | "stable" | "all"; searchTool?: boolean } = {}) {
  const { tools, runs } = toolsWithQualifiedNames();
  const events: ToolAttentionEvent[] = [];
  const model = new ScriptedChatModel(script);
  const middleware = toolAttentionMiddleware({ tools, k: opts.k ?? 5, cacheDir: false, delivery: opts.delivery, searchTool: opts.searchTool, runValidCalls: false, onEvent: (e) => events.push(e) });
  const agent = createAgent({ model, tools, middleware: [middleware] });
  return { agent, model, runs, events };
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

/** Every tool call has exactly one answer, and each turn's answers come in the order of its tool_calls. */
function assertAnsweredOnceInOrder(messages: BaseMessage[]) {
  const answers = new Map<string, number>();
  for (const t of toolMessages(messages)) answers.set(t.tool_call_id, (answers.get(t.tool_call_id) ?? 0) + 1);
  messages.forEach((m, i) => {
    const calls = AIMessage.isInstance(m) ? (m.tool_calls ?? []) : [];
    for (const call of calls) assert.equal(answers.get(call.id as string), 1, `tool call ${call.name} (${call.id}) answered ${answers.get(call.id as string) ?? 0} times`);
    if (calls.length === 0) return;
    const after: string[] = [];
    for (let j = i + 1; j < messages.length && ToolMessage.isInstance(messages[j]); j++) after.push((messages[j] as ToolMessage).tool_call_id);
    assert.deepEqual(after, calls.map((c) => c.id), "answers follow the order of tool_calls");
  });
}

function aiCallNames(messages: BaseMessage[]): string[] {
  return messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.name) : []));
}

function gateEvents(events: ToolAttentionEvent[]): GateEvent[] {
  return events.filter((e): e is GateEvent => e.type === "tool_attention.gate");
}

test("createAgent: an unqualified call to a server__name tool runs the real tool, and the history carries the real name", async () => {
  const { agent, model, runs, events } = agentWith([callTools({ name: "read_graph", args: {} })]);
  const out = await agent.invoke({ messages: [new HumanMessage("read the whole knowledge graph memory")] });
  assert.ok(model.calls[0].tools.includes("memory__read_graph"), `bound: ${model.calls[0].tools}`);
  assert.equal(runs.get("memory__read_graph"), 1);
  assert.equal(model.calls.length, 2, "no extra round trip");
  // The model's message was replaced in place (one AI message with the call, same id), under the real name.
  assert.deepEqual(aiCallNames(out.messages), ["memory__read_graph"]);
  const answer = toolMessages(out.messages)[0];
  assert.equal(answer.name, "memory__read_graph");
  assert.notEqual(answer.status, "error");
  assert.match(String(answer.content), /"tool":"memory__read_graph"/);
  // The model's second call saw its call under the real name too.
  const seen = model.calls[1].messages.find((m) => AIMessage.isInstance(m) && m.tool_calls?.length) as AIMessage;
  assert.equal(seen.tool_calls?.[0].name, "memory__read_graph");
  assert.deepEqual(gateEvents(events).flatMap((e) => e.resolved ?? []).map((r) => [r.from, r.to, r.how]), [["read_graph", "memory__read_graph", "unqualified"]]);
  assertAnsweredOnceInOrder(out.messages);
});

test("createAgent: server-qualified calls run the server's tool next to other calls, answers in call order", async () => {
  const { agent, model, runs } = agentWith([
    callTools(
      { name: "github.create_issue", args: { owner: "acme", repo: "api", title: "crash on start" } },
      { name: "no_such_tool", args: {} },
      { name: "GitHub/List-Issues", args: { owner: "acme", repo: "api" } },
    ),
  ]);
  const out = await agent.invoke({ messages: [new HumanMessage("create a GitHub issue in acme/api titled crash on start, then list the issues")], scopes: ["repo:write"] });
  for (const name of ["create_issue", "list_issues"]) assert.ok(model.calls[0].tools.includes(name), `bound: ${model.calls[0].tools}`);
  assert.equal(runs.get("create_issue"), 1);
  assert.equal(runs.get("list_issues"), 1);
  assert.deepEqual(aiCallNames(out.messages), ["create_issue", "no_such_tool", "list_issues"]);
  const answers = toolMessages(out.messages);
  assert.deepEqual(answers.map((m) => [m.name, m.status === "error"]), [["create_issue", false], ["no_such_tool", true], ["list_issues", false]]);
  assertAnsweredOnceInOrder(out.messages);
});

test("createAgent: a resolved name of a tool that was not bound is promoted under its real name", async () => {
  const { agent, model, runs, events } = agentWith(
    [callTools({ name: "read_graph", args: {} }), callTools({ name: "memory__read_graph", args: {} })],
    { k: 3 },
  );
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  assert.ok(!model.calls[0].tools.includes("memory__read_graph"));
  const first = toolMessages(out.messages)[0];
  assert.equal(first.name, "memory__read_graph");
  const payload = JSON.parse(String(first.content).split("\n")[0]);
  assert.deepEqual([payload.tool, payload.calledAs, payload.promoted], ["memory__read_graph", "read_graph", true]);
  assert.match(String(first.content), /its exact name is "memory__read_graph"/);
  assert.ok(model.calls[1].tools.includes("memory__read_graph"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(runs.get("memory__read_graph"), 1);
  assert.deepEqual(aiCallNames(out.messages), ["memory__read_graph", "memory__read_graph"]);
  assert.deepEqual(gateEvents(events).flatMap((e) => e.rejected.map((r) => [r.tool, r.kind, r.calledAs])), [["memory__read_graph", "promoted", "read_graph"]]);
  assertAnsweredOnceInOrder(out.messages);
});

test("createAgent: an ambiguous name gets one answer naming the candidates, and the model recovers by calling one", async () => {
  const { agent, model, runs, events } = agentWith([
    callTools({ name: "create_entities", args: { entities: [{ name: "Ada", entityType: "person" }] } }),
    callTools({ name: "memory__create_entities", args: { entities: [{ name: "Ada", entityType: "person" }] } }),
  ]);
  const out = await agent.invoke({ messages: [new HumanMessage("remember that Ada is a person")] });
  const answers = toolMessages(out.messages);
  const first = answers[0];
  assert.equal(first.status, "error");
  assert.equal(first.name, "create_entities", "the ambiguous call keeps the name the model used");
  const payload = JSON.parse(String(first.content).split("\n")[0]);
  assert.equal(payload.error, "tool_not_available");
  assert.deepEqual(payload.candidates, ["memory__create_entities", "notes__create_entities"]);
  assert.match(String(first.content), /Call the one you mean by its exact name/);
  assert.equal(runs.get("notes__create_entities"), undefined);
  assert.equal(runs.get("memory__create_entities"), 1);
  assert.ok(model.calls[1].tools.includes("memory__create_entities"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(answers[1].name, "memory__create_entities");
  assert.notEqual(answers[1].status, "error");
  assert.ok(gateEvents(events).some((e) => e.rejected.some((r) => r.kind === "ambiguous" && r.tool === "create_entities")));
  assertAnsweredOnceInOrder(out.messages);
});

test("createAgent: an unknown name gets the closest tools, and a promoted closest tool is callable next", async () => {
  const { agent, model, runs } = agentWith(
    [callTools({ name: "slack_send", args: { channel: "#ops", text: "deploy done" } }), callTools({ name: "post_message", args: { channel: "#ops", text: "deploy done" } })],
    { k: 3 },
  );
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  assert.ok(!model.calls[0].tools.includes("post_message"));
  const first = toolMessages(out.messages)[0];
  const [line, next] = String(first.content).split("\n");
  const payload = JSON.parse(line);
  assert.equal(payload.tool, "slack_send");
  assert.ok(payload.closest.includes("post_message"), JSON.stringify(payload.closest));
  assert.ok(payload.closest.length <= 3);
  assert.match(next, /The closest tools are .*"post_message".*; they are available on your next step\. Call one that is available by its exact name/);
  assert.ok(model.calls[1].tools.includes("post_message"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(runs.get("post_message"), 1);
  assertAnsweredOnceInOrder(out.messages);
});

test("createAgent: search_tools is bound under rebind (first), finds a tool routing missed, and the model then calls it", async () => {
  const { agent, model, runs } = agentWith(
    [callTools({ name: SEARCH_TOOL_NAME, args: { query: "send a message to a slack channel" } }), callTools({ name: "post_message", args: { channel: "#ops", text: "deploy done" } })],
    { k: 2, delivery: "rebind" },
  );
  const out = await agent.invoke({ messages: [new HumanMessage("what is the weather in Oslo?")] });
  assert.equal(model.calls[0].tools[0], SEARCH_TOOL_NAME, `bound: ${model.calls[0].tools}`);
  assert.ok(!model.calls[0].tools.includes("post_message"));
  const search = toolMessages(out.messages).find((m) => m.name === SEARCH_TOOL_NAME) as ToolMessage;
  assert.ok(search && search.status !== "error");
  assert.match(String(search.content), /- post_message: /);
  assert.ok(model.calls[1].tools.includes("post_message"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(runs.get("post_message"), 1);
  assertAnsweredOnceInOrder(out.messages);
});

test("createAgent: search_tools under stable too; not under all, nor with searchTool: false", async () => {
  for (const [delivery, searchTool, expected] of [
    ["stable", undefined, true],
    ["rebind", false, false],
    ["all", undefined, false],
  ] as const) {
    const { agent, model } = agentWith([], { k: 2, delivery, searchTool });
    await agent.invoke({ messages: [new HumanMessage("what is the weather in Oslo?")] });
    assert.equal(model.calls[0].tools.includes(SEARCH_TOOL_NAME), expected, `${delivery} ${searchTool}: ${model.calls[0].tools}`);
    if (expected) assert.equal(model.calls[0].tools[0], SEARCH_TOOL_NAME);
  }
});

function graphWith(script: ConstructorParameters<typeof ScriptedChatModel>[0], opts: { k?: number; delivery?: "rebind" | "stable" } = {}) {
  const { tools, runs } = toolsWithQualifiedNames();
  const model = new ScriptedChatModel(script);
  const hooks = createToolAttentionHooks({ tools, k: opts.k ?? 5, cacheDir: false, delivery: opts.delivery, runValidCalls: false });
  const graph = routedGraph(hooks, model, tools);
  return { graph, model, runs };
}

test("LangGraph hooks: an unqualified call to a server__name tool runs the real tool under its real name", async () => {
  const { graph, model, runs } = graphWith([callTools({ name: "read_graph", args: {} })]);
  const out = await graph.invoke({ messages: [new HumanMessage("read the whole knowledge graph memory")] });
  assert.ok(model.calls[0].tools.includes("memory__read_graph"), `bound: ${model.calls[0].tools}`);
  assert.equal(runs.get("memory__read_graph"), 1);
  assert.equal(model.calls.length, 2);
  assert.deepEqual(aiCallNames(out.messages), ["memory__read_graph"]);
  const answer = toolMessages(out.messages)[0];
  assert.equal(answer.name, "memory__read_graph");
  assert.notEqual(answer.status, "error");
  assertAnsweredOnceInOrder(out.messages);
});

test("LangGraph hooks: an unqualified call to a tool that was not bound is promoted under its real name and runs next", async () => {
  const { graph, model, runs } = graphWith([callTools({ name: "read_graph", args: {} }), callTools({ name: "memory__read_graph", args: {} })], { k: 3 });
  const out = await graph.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  assert.ok(!model.calls[0].tools.includes("memory__read_graph"));
  const first = toolMessages(out.messages)[0];
  assert.equal(first.name, "memory__read_graph");
  assert.match(String(first.content), /"promoted":true/);
  assert.ok(model.calls[1].tools.includes("memory__read_graph"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(runs.get("memory__read_graph"), 1);
  assertAnsweredOnceInOrder(out.messages);
});

test("LangGraph hooks: search_tools under rebind finds a tool routing missed, and the model then calls it", async () => {
  const { graph, model, runs } = graphWith(
    [callTools({ name: SEARCH_TOOL_NAME, args: { query: "send a message to a slack channel" } }), callTools({ name: "post_message", args: { channel: "#ops", text: "deploy done" } })],
    { k: 2, delivery: "rebind" },
  );
  const out = await graph.invoke({ messages: [new HumanMessage("what is the weather in Oslo?")] });
  assert.equal(model.calls[0].tools[0], SEARCH_TOOL_NAME, `bound: ${model.calls[0].tools}`);
  assert.ok(!model.calls[0].tools.includes("post_message"));
  const search = toolMessages(out.messages).find((m) => m.name === SEARCH_TOOL_NAME) as ToolMessage;
  assert.match(String(search.content), /- post_message: /);
  assert.ok(model.calls[1].tools.includes("post_message"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(runs.get("post_message"), 1);
  assertAnsweredOnceInOrder(out.messages);
});

test("createAgent + real ChatAnthropic (emulated, rebind): a resolved call's tool_use block is rewritten too, and the next request is valid", async () => {
  const { ChatAnthropic } = await import("@langchain/anthropic");
  const { startAnthropicEmulator } = await import("../src/emulators/index.js");
  const emu = await startAnthropicEmulator({ script: [{ toolCalls: [{ name: "Read_Graph", input: {} }] }, { text: "done" }] });
  try {
    const { tools, runs } = toolsWithQualifiedNames();
    const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 5, cacheDir: false, delivery: "rebind" })] });
    const out = await agent.invoke({ messages: [new HumanMessage("read the whole knowledge graph memory")] });
    assert.ok(emu.requests.every((r) => !r.error), JSON.stringify(emu.requests.map((r) => r.error)));
    assert.equal(emu.requests.length, 2);
    const first = emu.requests[0].body as { tools: { name: string }[] };
    assert.equal(first.tools[0].name, SEARCH_TOOL_NAME, "search_tools first in the tools array");
    assert.equal(runs.get("memory__read_graph"), 1);
    // The history sent back names the real tool in the tool_use block.
    const sent = JSON.stringify((emu.requests[1].body as { messages: unknown[] }).messages);
    assert.match(sent, /"type":"tool_use"[^}]*"name":"memory__read_graph"/);
    assert.doesNotMatch(sent, /Read_Graph/);
    assertAnsweredOnceInOrder(out.messages);
  } finally {
    await emu.close();
  }
});

test("createAgent + real ChatOpenAI (emulated, deferred dispatcher): call_tool naming a resolvable tool runs the real tool", async () => {
  const { ChatOpenAI } = await import("@langchain/openai");
  const { startOpenAIEmulator } = await import("../src/emulators/index.js");
  const emu = await startOpenAIEmulator({
    script: [{ toolCalls: [{ name: "call_tool", input: { name: "web.get_weather", arguments: { city: "Paris" } } }] }, { text: "done" }],
  });
  try {
    const { tools, runs } = toolsWithQualifiedNames();
    const model = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "deferred" })] });
    const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris?")] });
    assert.ok(emu.requests.every((r) => !r.error), JSON.stringify(emu.requests.map((r) => r.error)));
    assert.equal(runs.get("get_weather"), 1);
    // The dispatcher call keeps its name; the tool it names is the real one now.
    const ai = out.messages.find((m: BaseMessage) => AIMessage.isInstance(m) && m.tool_calls?.length) as AIMessage;
    assert.equal(ai.tool_calls?.[0].name, "call_tool");
    assert.equal(ai.tool_calls?.[0].args.name, "get_weather");
    const sent = JSON.stringify((emu.requests[1].body as { messages: unknown[] }).messages);
    assert.doesNotMatch(sent, /web\.get_weather/);
    const answer = toolMessages(out.messages)[0];
    assert.equal(answer.name, "get_weather");
    assert.notEqual(answer.status, "error");
    assertAnsweredOnceInOrder(out.messages);
  } finally {
    await emu.close();
  }
});

test("createAgent, promoteOnRequest: false: an unknown name's answer names the closest tools but binds none", async () => {
  const { tools, runs } = toolsWithQualifiedNames();
  const model = new ScriptedChatModel([callTools({ name: "slack_send", args: { channel: "#ops", text: "x" } })]);
  const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 3, cacheDir: false, promoteOnRequest: false })] });
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  const first = toolMessages(out.messages)[0];
  const [line, next] = String(first.content).split("\n");
  assert.ok(JSON.parse(line).closest.includes("post_message"));
  assert.match(next, /not available in this request/);
  assert.ok(!model.calls[1].tools.includes("post_message"), `second call bound: ${model.calls[1].tools}`);
  assert.equal(runs.get("post_message"), undefined);
  assertAnsweredOnceInOrder(out.messages);
});

test("createReactAgent (prebuilt) with the hooks: an unqualified call runs the real tool under its real name", async () => {
  const { createReactAgent } = await import("@langchain/langgraph/prebuilt");
  const { tools, runs } = toolsWithQualifiedNames();
  const model = new ScriptedChatModel([callTools({ name: "read_graph", args: {} })]);
  const hooks = createToolAttentionHooks({ tools, k: 5, cacheDir: false });
  const agent = createReactAgent({
    llm: hooks.dynamicModel(model),
    tools,
    stateSchema: ToolAttentionAnnotation,
    preModelHook: hooks.preModelHook,
    postModelHook: hooks.postModelHook,
  });
  const out = await agent.invoke({ messages: [new HumanMessage("read the whole knowledge graph memory")] });
  assert.equal(runs.get("memory__read_graph"), 1);
  assert.deepEqual(aiCallNames(out.messages), ["memory__read_graph"]);
  assert.equal(toolMessages(out.messages)[0].name, "memory__read_graph");
  assertAnsweredOnceInOrder(out.messages);
});
