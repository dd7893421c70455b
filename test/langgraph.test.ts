/**
 * Integration: the LangGraph hooks in a real prebuilt createReactAgent and in a real hand-built StateGraph,
 * with the real USE-lite encoder and a scripted tool-calling model.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { END, START, StateGraph } from "@langchain/langgraph";
import { createReactAgent, ToolNode } from "@langchain/langgraph/prebuilt";
import { HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createToolAttentionHooks, ToolAttentionAnnotation } from "../src/adapters/langgraph/hooks.js";
import type { GateEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { demoTools } from "./helpers/demo-tools.js";

function answersById(messages: BaseMessage[]) {
  const n = new Map<string, number>();
  for (const m of messages) if (ToolMessage.isInstance(m)) n.set(m.tool_call_id, (n.get(m.tool_call_id) ?? 0) + 1);
  return n;
}

test("createReactAgent: preModelHook routes, dynamic model binds the active set, postModelHook gates", async () => {
  const { tools, runs } = demoTools();
  const model = new ScriptedChatModel([
    callTools({ name: "send_email", args: { to: ["a@b.c"], subject: "x", body: "y" } }),
    callTools({ name: "get_weather", args: { city: "Paris" } }),
  ]);
  const hooks = createToolAttentionHooks({ tools, k: 5, cacheDir: false });
  const agent = createReactAgent({
    llm: hooks.dynamicModel(model),
    tools,
    stateSchema: ToolAttentionAnnotation,
    preModelHook: hooks.preModelHook,
    postModelHook: hooks.postModelHook,
  });
  const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
  assert.equal(model.calls.length, 3);
  assert.ok(model.calls[0].tools.includes("get_weather"));
  assert.ok(model.calls[0].tools.filter((n) => n !== "search_tools").length <= 5, "at most k routed tools, besides search_tools");
  assert.ok(/^- merge_pull_request\(owner, repo, pull_number, …\): /m.test(model.calls[0].system), "pool in the model input");
  const refusal = out.messages.find((m: BaseMessage) => ToolMessage.isInstance(m) && m.name === "send_email") as ToolMessage;
  assert.match(String(refusal.content), /"error":"tool_not_available"/);
  assert.match(String(refusal.content), /mail:send/);
  assert.equal(runs.get("send_email"), undefined);
  assert.equal(runs.get("get_weather"), 1);
  for (const [, n] of answersById(out.messages)) assert.equal(n, 1);
});

test("hand-built StateGraph: route → model(bindActiveTools) → gate → tools | route | END", async () => {
  const { tools, runs } = demoTools();
  const model = new ScriptedChatModel([
    callTools({ name: "read_file", args: { path: "config.yaml" } }, { name: "edit_file", args: { path: "config.yaml", edits: [] } }),
    callTools({ name: "edit_file", args: { path: "config.yaml", edits: [] } }),
  ]);
  const hooks = createToolAttentionHooks({ tools, k: 5, cacheDir: false });
  const graph = new StateGraph(ToolAttentionAnnotation)
    .addNode("route", hooks.routeNode)
    .addNode("model", async (state) => ({
      messages: [await hooks.bindActiveTools(model, state).invoke(hooks.withPool(state.messages))],
    }))
    .addNode("gate", hooks.gateNode)
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "route")
    .addEdge("route", "model")
    .addEdge("model", "gate")
    .addConditionalEdges("gate", hooks.afterGate, { tools: "tools", model: "route", [END]: END })
    .addEdge("tools", "route")
    .compile();
  const out = await graph.invoke({ messages: [new HumanMessage("read config.yaml and change the port to 8080")] });
  // First turn: edit_file is gated (needs read_file's output), so the mixed call runs read_file only.
  assert.ok(model.calls[0].tools.includes("read_file"));
  assert.ok(!model.calls[0].tools.includes("edit_file"));
  const firstEdit = out.messages.find((m: BaseMessage) => ToolMessage.isInstance(m) && m.name === "edit_file") as ToolMessage;
  assert.match(String(firstEdit.content), /requires output of read_file/);
  // Second turn: read_file's output exists, so edit_file is bound and runs.
  assert.ok(model.calls[1].tools.includes("edit_file"));
  assert.equal(runs.get("read_file"), 1);
  assert.equal(runs.get("edit_file"), 1);
  for (const [, n] of answersById(out.messages)) assert.equal(n, 1);
});

test("LangGraph hooks: a promoted tool is bound on the next model call, also when the graph routes again first", async () => {
  for (const kind of ["react", "graph"] as const) {
    const { tools, runs } = demoTools();
    const model = new ScriptedChatModel([callTools({ name: "list_tables", args: {} }), callTools({ name: "list_tables", args: {} })]);
    const events: ToolAttentionEvent[] = [];
    const hooks = createToolAttentionHooks({ tools, k: 3, cacheDir: false, runValidCalls: false, onEvent: (e) => events.push(e) });
    const agent =
      kind === "react"
        ? createReactAgent({
            llm: hooks.dynamicModel(model),
            tools,
            stateSchema: ToolAttentionAnnotation,
            preModelHook: hooks.preModelHook,
            postModelHook: hooks.postModelHook,
          })
        : new StateGraph(ToolAttentionAnnotation)
            .addNode("route", hooks.routeNode)
            .addNode("model", async (state) => ({
              messages: [await hooks.bindActiveTools(model, state).invoke(hooks.withPool(state.messages))],
            }))
            .addNode("gate", hooks.gateNode)
            .addNode("tools", new ToolNode(tools))
            .addEdge(START, "route")
            .addEdge("route", "model")
            .addEdge("model", "gate")
            // Rejected calls go back through routing: the promotion must survive it (it is sticky).
            .addConditionalEdges("gate", hooks.afterGate, { tools: "tools", model: "route", [END]: END })
            .addEdge("tools", "route")
            .compile();
    const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
    assert.ok(!model.calls[0].tools.includes("list_tables"), kind);
    const first = out.messages.find((m: BaseMessage) => ToolMessage.isInstance(m) && m.name === "list_tables") as ToolMessage;
    assert.match(String(first.content), /"promoted":true/, kind);
    assert.ok(model.calls[1].tools.includes("list_tables"), `${kind}: ${model.calls[1].tools}`);
    assert.equal(runs.get("list_tables"), 1, kind);
    for (const [, n] of answersById(out.messages)) assert.equal(n, 1);
    const gates = events.filter((e): e is GateEvent => e.type === "tool_attention.gate");
    assert.deepEqual(gates.flatMap((e) => e.rejected.map((r) => [r.tool, r.kind, r.toolCallId])), [["list_tables", "promoted", first.tool_call_id]], kind);
  }
});

test("createReactAgent + real ChatAnthropic (emulated): deferred delivery through the hooks keeps tools and system constant", async () => {
  const { ChatAnthropic } = await import("@langchain/anthropic");
  const { startAnthropicEmulator } = await import("../src/emulators/index.js");
  const emu = await startAnthropicEmulator({
    script: [{ toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] }, { toolCalls: [{ name: "get_weather", input: { city: "Rome" } }] }, { text: "done" }],
  });
  try {
    const { tools, runs } = demoTools();
    const model = new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const events: ToolAttentionEvent[] = [];
    const hooks = createToolAttentionHooks({ tools, k: 3, cacheDir: false, model, delivery: "deferred", onEvent: (e) => events.push(e) });
    const agent = createReactAgent({
      llm: hooks.dynamicModel(model),
      tools,
      stateSchema: ToolAttentionAnnotation,
      preModelHook: hooks.preModelHook,
      postModelHook: hooks.postModelHook,
    });
    const system = new SystemMessage("You are an operations assistant for the platform team. ".repeat(60));
    await agent.invoke({ messages: [system, new HumanMessage("weather in Paris and in Rome?")] });
    assert.equal(runs.get("get_weather"), 2);
    const reqs = emu.requests;
    assert.equal(reqs.length, 3, JSON.stringify(reqs.map((r) => r.error)));
    assert.ok(reqs.every((r) => !r.error));
    // Deferred on an Anthropic model: every catalog tool declared, only search_tools loaded.
    // Every catalog tool deferred; search_tools and call_tool (for tools not delivered yet) are the non-deferred ones.
    for (const r of reqs) assert.deepEqual(r.loaded, ["search_tools", "call_tool"]);
    const prefix = (i: number) => JSON.stringify({ t: (reqs[i].body as { tools: unknown }).tools, s: (reqs[i].body as { system: unknown }).system });
    assert.equal(prefix(1), prefix(0));
    assert.equal(prefix(2), prefix(0));
    assert.ok(reqs[0].added.includes("get_weather"));
    assert.ok(reqs[2].usage.cacheRead > reqs[1].usage.cacheRead, JSON.stringify(reqs.map((r) => r.usage)));
    assert.ok(events.some((e) => e.type === "tool_attention.delivery" && e.mode === "deferred"));
  } finally {
    await emu.close();
  }
});

test("createReactAgent + real ChatOpenAI (emulated): dispatcher delivery through the hooks runs the tool call_tool names", async () => {
  const { ChatOpenAI } = await import("@langchain/openai");
  const { startOpenAIEmulator } = await import("../src/emulators/index.js");
  const emu = await startOpenAIEmulator({
    script: [
      { toolCalls: [{ name: "call_tool", input: { name: "get_weather", arguments: { city: "Paris" } } }] },
      { toolCalls: [{ name: "call_tool", input: { name: "get_weather", arguments: { city: "Rome" } } }] },
      { text: "done" },
    ],
  });
  try {
    const { tools, runs } = demoTools();
    const model = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const hooks = createToolAttentionHooks({ tools, k: 3, cacheDir: false, model, delivery: "deferred" });
    const agent = createReactAgent({
      llm: hooks.dynamicModel(model),
      tools,
      stateSchema: ToolAttentionAnnotation,
      preModelHook: hooks.preModelHook,
      postModelHook: hooks.postModelHook,
    });
    const system = new SystemMessage("You are an operations assistant for the platform team. ".repeat(60));
    const out = await agent.invoke({ messages: [system, new HumanMessage("weather in Paris and in Rome?")] });
    assert.equal(runs.get("get_weather"), 2);
    assert.equal(emu.requests.length, 3, JSON.stringify(emu.requests.map((r) => r.error)));
    for (const r of emu.requests) {
      assert.ok(!r.error);
      assert.deepEqual((r.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name), ["search_tools", "call_tool"]);
    }
    assert.ok(emu.requests[2].usage.cacheRead >= 1024, JSON.stringify(emu.requests.map((r) => r.usage)));
    for (const [, n] of answersById(out.messages)) assert.equal(n, 1);
  } finally {
    await emu.close();
  }
});
