/**
 * The per-call costs of routing in an agent loop: the router keeps recent query vectors (each text embedded once,
 * within a bound, failures not kept), the middleware starts embedding the model's stated plan while its tools run,
 * and the routing and delivery events split their time by phase.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Embeddings } from "@langchain/core/embeddings";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { z } from "zod";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { QUERY_VECTOR_CACHE_SIZE } from "../src/core/encoders/router-encoder.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { turnIntent } from "../src/adapters/langchain/messages.js";
import { createToolAttentionHooks, ToolAttentionAnnotation } from "../src/adapters/langgraph/hooks.js";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import type { DeliveryEvent, RoutingEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { conversationOf, percentile, sampleArgs } from "../src/bench/overhead.js";
import { callTools, ScriptedChatModel } from "./helpers/scripted-model.js";
import { DEMO_CATALOG_PATH } from "./helpers/demo-tools.js";

/** A user-supplied encoder (any LangChain Embeddings): deterministic 16-d vectors; records every query it embeds. */
class RecordingEncoder extends Embeddings {
  queries: string[] = [];
  failOn = new Set<string>();
  constructor(private readonly log?: string[]) {
    super({});
  }
  private vec(t: string): number[] {
    let h = 2166136261;
    for (const c of t.toLowerCase()) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    const v = Array.from({ length: 16 }, (_, i) => Math.sin((h >>> 0) * 1e-7 * (i + 1) + i));
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.vec(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    this.queries.push(text);
    this.log?.push(`embed:${text}`);
    if (this.failOn.delete(text)) throw new Error("encoder unavailable");
    return this.vec(text);
  }
}

const count = (xs: readonly string[], x: string) => xs.filter((y) => y === x).length;

test("a router embeds each query text once: a repeated route reuses the vector, and the kept texts stay within their bound", async () => {
  const enc = new RecordingEncoder();
  const router = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_CATALOG_PATH), { encoder: enc, log: false });
  await router.prepare();
  const a = await router.route("send an email to bob about the invoice");
  const b = await router.route("send an email to bob about the invoice");
  assert.equal(count(enc.queries, "send an email to bob about the invoice"), 1);
  assert.deepEqual(b.active, a.active);
  // A turn's intent: the same user message with a new part embeds only the new part.
  await router.route([{ text: "send an email to bob about the invoice", weight: 1 }, { text: "invoice 42 found", weight: 0.3 }]);
  assert.deepEqual(enc.queries.slice(-1), ["invoice 42 found"]);
  // More distinct texts than the bound: the oldest is forgotten (embedded again), the newest is kept.
  for (let i = 0; i < QUERY_VECTOR_CACHE_SIZE + 5; i++) await router.route(`query number ${i}`);
  const before = enc.queries.length;
  await router.route(`query number ${QUERY_VECTOR_CACHE_SIZE + 4}`);
  assert.equal(enc.queries.length, before, "the most recent text is kept");
  await router.route("send an email to bob about the invoice");
  assert.equal(enc.queries.length, before + 1, "the oldest text was evicted and is embedded again");
});

test("a lexical-only part is never embedded, yet still routes through BM25; the adapter marks tool results so only when asked", async () => {
  const enc = new RecordingEncoder();
  const router = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_CATALOG_PATH), { encoder: enc, lexical: true, log: false });
  await router.prepare();
  const request = { text: "help me with my account", weight: 1 };
  const plain = await router.route([request], undefined, { theta: -1, k: 30 });
  const withResult = await router.route([request, { text: "weather forecast city temperature", weight: 0.3, dense: false }], undefined, { theta: -1, k: 30 });
  assert.deepEqual(enc.queries, ["help me with my account"], "the result text never reached the encoder");
  // Same dense vector (the result was not embedded), so only BM25 can have raised get_weather's score.
  const score = (d: { active: { name: string; score: number }[] }) => d.active.find((a) => a.name === "get_weather")?.score ?? -Infinity;
  const other = (d: { active: { name: string; score: number }[] }) => d.active.find((a) => a.name === "send_email")?.score;
  assert.ok(score(withResult) > score(plain), "the result's words raised get_weather through the lexical channel");
  assert.equal(other(withResult), other(plain), "a tool sharing no word with the result keeps its score");
  // Only lexical-only parts: the router embeds them rather than route without a vector.
  await router.route([{ text: "only a result", weight: 1, dense: false }]);
  assert.equal(count(enc.queries, "only a result"), 1);

  const messages = [
    new HumanMessage("check the forecast"),
    new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] }),
    new ToolMessage({ content: '{"city":"Oslo","temp":-3}', tool_call_id: "c1", name: "get_weather" }),
  ];
  assert.deepEqual(turnIntent(messages), [
    { text: "check the forecast", weight: 1 },
    { text: '{"city":"Oslo","temp":-3}', weight: 0.3 },
  ]);
  assert.deepEqual(turnIntent(messages, { embedResults: false })[1], { text: '{"city":"Oslo","temp":-3}', weight: 0.3, dense: false });
});

test("a failed query encode is not kept: the route falls back to the lexical channel and the next route asks the encoder again", async () => {
  const enc = new RecordingEncoder();
  const router = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_CATALOG_PATH), { encoder: enc, log: false });
  await router.prepare();
  enc.failOn.add("what is the weather in Paris");
  const failed = await router.route("what is the weather in Paris");
  assert.equal(failed.degraded, "lexical");
  const next = await router.route("what is the weather in Paris");
  assert.equal(next.degraded, undefined);
  assert.equal(count(enc.queries, "what is the weather in Paris"), 2);
});

function loopTools(log: string[]) {
  const make = (name: string, description: string) =>
    tool(
      async () => {
        // Give a prefetch the time a real tool call gives it.
        await new Promise((r) => setTimeout(r, 20));
        log.push(`tool:${name}`);
        return `${name} done: 14 °C and cloudy`;
      },
      { name, description, schema: z.object({ city: z.string() }) },
    );
  return [
    make("get_weather", "Current weather and forecast for a city."),
    make("book_flight", "Book a flight to a city on a date."),
    make("find_hotel", "Find hotels in a city with prices and ratings."),
  ];
}

test("the middleware embeds the model's stated plan while its tool runs, and the next route uses that vector", async () => {
  const log: string[] = [];
  const enc = new RecordingEncoder(log);
  const tools = loopTools(log);
  const events: ToolAttentionEvent[] = [];
  const plan = "First I will check the weather in Paris.";
  const step = callTools({ name: "get_weather", args: { city: "Paris" } });
  const model = new ScriptedChatModel([new AIMessage({ content: plan, tool_calls: step.tool_calls }), new AIMessage("It is 14 °C in Paris.")]);
  const mw = toolAttentionMiddleware({ tools, encoder: enc, k: 2, log: false, onEvent: (e) => events.push(e) });
  const agent = createAgent({ model, tools, middleware: [mw] });
  await agent.invoke({ messages: [new HumanMessage("plan my trip to Paris next week")] });
  // Embedded before the tool finished (while it ran), once: the second route found it ready.
  assert.ok(log.indexOf(`embed:${plan}`) >= 0 && log.indexOf(`embed:${plan}`) < log.indexOf("tool:get_weather"), log.join(" | "));
  assert.equal(count(enc.queries, plan), 1);
  assert.equal(count(enc.queries, "plan my trip to Paris next week"), 1);
  const routes = events.filter((e): e is RoutingEvent => e.type === "tool_attention.route");
  assert.equal(routes.length, 2);

  // The latency split: every phase measured, none negative, the parts within the total.
  for (const r of routes) {
    const l = r.latencyMs;
    for (const v of [l.encode, l.search, l.fusion, l.gate, l.tokens, l.total]) assert.ok(typeof v === "number" && v >= 0 && Number.isFinite(v), JSON.stringify(l));
    assert.ok(l.encode + l.search + (l.fusion ?? 0) + l.gate + (l.tokens ?? 0) <= l.total + 0.01, JSON.stringify(l));
  }
  const deliveries = events.filter((e): e is DeliveryEvent => e.type === "tool_attention.delivery");
  assert.equal(deliveries.length, 2);
  for (const d of deliveries) {
    const l = d.latencyMs;
    assert.ok(l, "delivery event carries its latency");
    for (const v of [l.tokens, l.render, l.delivery, l.total]) assert.ok(v >= 0 && Number.isFinite(v), JSON.stringify(l));
    assert.ok(Math.abs(l.tokens + l.render + l.delivery - l.total) < 0.01, JSON.stringify(l));
  }
});

test("the LangGraph hooks embed the model's stated plan while its tool runs, like the middleware", async () => {
  const log: string[] = [];
  const enc = new RecordingEncoder(log);
  const tools = loopTools(log);
  const plan = "First I will look for a hotel in Lyon.";
  const step = callTools({ name: "find_hotel", args: { city: "Lyon" } });
  const model = new ScriptedChatModel([new AIMessage({ content: plan, tool_calls: step.tool_calls }), new AIMessage("The Hotel Carlton has rooms.")]);
  const hooks = createToolAttentionHooks({ tools, encoder: enc, k: 2, log: false });
  const agent = createReactAgent({ llm: hooks.dynamicModel(model), tools, stateSchema: ToolAttentionAnnotation, preModelHook: hooks.preModelHook, postModelHook: hooks.postModelHook });
  await agent.invoke({ messages: [new HumanMessage("organise a weekend in Lyon")] });
  assert.ok(log.indexOf(`embed:${plan}`) >= 0 && log.indexOf(`embed:${plan}`) < log.indexOf("tool:find_hotel"), log.join(" | "));
  assert.equal(count(enc.queries, plan), 1, "the next route used the prefetched vector");
});

test("overhead bench helpers: arguments fill every required parameter with a value of its type; percentiles; conversation steps", () => {
  const args = sampleArgs({
    type: "object",
    properties: { repo: { type: "string" }, count: { type: "integer", minimum: 3 }, state: { type: "string", enum: ["open", "closed"] }, draft: { type: "boolean" }, opt: { type: "string" } },
    required: ["repo", "count", "state", "draft"],
  });
  assert.deepEqual(args, { repo: "example", count: 3, state: "open", draft: true });
  assert.equal(percentile([5, 1, 4, 2, 3], 50), 3);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
  assert.ok(Number.isNaN(percentile([], 50)));
  const anthropic = { messages: [{ role: "user", content: [{ type: "text", text: "merge PR 5 (#3)" }] }, { role: "assistant", content: [] }, { role: "user", content: [] }] };
  assert.deepEqual(conversationOf(anthropic), { query: "merge PR 5 (#3)", step: 1 });
  const responses = { input: [{ role: "user", content: "hi" }, { type: "function_call" }, { type: "function_call" }, { type: "function_call_output" }, { type: "function_call" }] };
  assert.deepEqual(conversationOf(responses), { query: "hi", step: 2 });
});
