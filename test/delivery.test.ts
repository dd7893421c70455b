/**
 * Delivery strategies in a real createAgent loop, through the real `@langchain/anthropic` and `@langchain/openai`
 * clients against the local provider emulators: request shapes (deferred flags, tool_addition, breakpoints),
 * a byte-identical prefix under `stable` until a tool is added, and accounting against the emulator's usage.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { CALL_TOOL_NAME, MID_CONVERSATION_TOOLS_BETA, SEARCH_TOOL_NAME } from "../src/adapters/langchain/delivery.js";
import { startAnthropicEmulator, startOpenAIEmulator, type EmulatorReply } from "../src/emulators/index.js";
import { planDelivery } from "../src/core/delivery/plan.js";
import { resolveProfile } from "../src/core/cost/profiles.js";
import type { DeliveryEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { demoTools } from "./helpers/demo-tools.js";

type Body = { tools?: Record<string, unknown>[]; system?: unknown; messages: { role: string; content: unknown }[] };

const SYSTEM = "You are an operations assistant for the platform team. ".repeat(60);

/** A script that calls the given tools one per model call, then answers. */
function script(...calls: { name: string; input?: Record<string, unknown> }[]): EmulatorReply[] {
  return [...calls.map((c) => ({ toolCalls: [{ name: c.name, input: c.input ?? {} }] })), { text: "done" }];
}

function deliveries(events: ToolAttentionEvent[]): DeliveryEvent[] {
  return events.filter((e): e is DeliveryEvent => e.type === "tool_attention.delivery");
}

test("deferred (Anthropic): every catalog tool deferred, search_tools bound, routed tools added after the history, prefix cached", async () => {
  const emu = await startAnthropicEmulator({ script: script({ name: "get_weather", input: { city: "Paris" } }, { name: "list_events", input: { from: "2026-11-24T00:00:00Z", to: "2026-11-25T00:00:00Z" } }) });
  try {
    const { tools, runs } = demoTools();
    const events: ToolAttentionEvent[] = [];
    const model = new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "deferred", onEvent: (e) => events.push(e) });
    const agent = createAgent({ model, tools, middleware: [mw], systemPrompt: SYSTEM });
    const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow, and what is on my calendar?")] });
    assert.equal(runs.get("get_weather"), 1);
    assert.equal(runs.get("list_events"), 1);
    const reqs = emu.requests.filter((r) => !r.error);
    assert.equal(reqs.length, 3, JSON.stringify(emu.requests.map((r) => r.error)));
    for (const r of reqs) {
      const body = r.body as Body;
      const names = (body.tools ?? []).map((t) => t.name);
      // Every catalog tool is declared, deferred; the only non-deferred ones are search_tools and call_tool (which
      // reaches a tool not delivered yet: a deferred tool not loaded cannot be called by its own name).
      for (const t of tools) assert.ok(names.includes(t.name), `${t.name} declared`);
      assert.deepEqual(r.loaded, [SEARCH_TOOL_NAME, CALL_TOOL_NAME]);
      assert.equal(r.deferred.length, tools.length);
      assert.ok(String(r.headers["anthropic-beta"]).includes(MID_CONVERSATION_TOOLS_BETA), String(r.headers["anthropic-beta"]));
      // The user's prompt stays its own block; the pool follows with the system breakpoint.
      const system = body.system as { text: string; cache_control?: unknown }[];
      assert.equal(system[0].text, SYSTEM);
      assert.ok(system.at(-1)?.text.includes("get_weather") && system.at(-1)?.cache_control, "pool block with a breakpoint");
      // The last message block carries the conversation breakpoint.
      const last = body.messages.at(-1) as { content: { cache_control?: unknown; content?: { cache_control?: unknown }[] }[] };
      const block = Array.isArray(last.content) ? last.content.at(-1) : undefined;
      assert.ok(block?.cache_control || (Array.isArray(block?.content) && block?.content.at(-1)?.cache_control), "breakpoint on the last message block");
    }
    // The tools and system are byte-identical across calls: the cached prefix never changes.
    const prefix = (r: (typeof reqs)[number]) => JSON.stringify({ tools: (r.body as Body).tools, system: ((r.body as Body).system as object[]).map((b) => ({ ...b })) });
    assert.equal(prefix(reqs[1]), prefix(reqs[0]));
    assert.equal(prefix(reqs[2]), prefix(reqs[0]));
    // Routed tools arrive as tool_addition blocks in a role:"system" message, and stay where they were placed.
    const additions = (r: (typeof reqs)[number]) =>
      (r.body as Body).messages.flatMap((m, i) =>
        m.role === "system" ? (m.content as { type: string; tool: { name: string } }[]).map((b) => `${i}:${b.type}:${b.tool.name}`) : [],
      );
    assert.ok(reqs[0].added.includes("get_weather"), `first call adds get_weather: ${reqs[0].added}`);
    for (const a of additions(reqs[0])) assert.ok(additions(reqs[1]).includes(a), `addition ${a} kept in place`);
    // Later calls read the whole earlier conversation from the cache (no rewrite).
    assert.ok(reqs[1].usage.cacheRead >= reqs[0].usage.cacheRead + reqs[0].usage.cacheWrite, JSON.stringify(reqs.map((r) => r.usage)));
    assert.ok(reqs[2].usage.cacheRead >= reqs[1].usage.cacheRead + reqs[1].usage.cacheWrite);
    const ds = deliveries(events);
    assert.equal(ds.length, 3);
    assert.ok(ds.every((d) => d.mode === "deferred" && !d.cacheBroken));
    // Every tool call answered once.
    const answered = out.messages.filter((m) => ToolMessage.isInstance(m)).length;
    assert.equal(answered, 2);
  } finally {
    await emu.close();
  }
});

test("deferred: a call to a tool that was not delivered is promoted and delivered by a tool_addition on the next call", async () => {
  const emu = await startAnthropicEmulator({ script: script({ name: "post_message", input: { channel: "#ops", text: "hi" } }, { name: "post_message", input: { channel: "#ops", text: "hi" } }, { name: "get_weather", input: { city: "Oslo" } }) });
  try {
    const { tools, runs } = demoTools();
    const events: ToolAttentionEvent[] = [];
    const model = new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "deferred", runValidCalls: false, onEvent: (e) => events.push(e) });
    const agent = createAgent({ model, tools, middleware: [mw] });
    await agent.invoke({ messages: [new HumanMessage("weather in Oslo please")] });
    const reqs = emu.requests.filter((r) => !r.error);
    // post_message was not routed for a weather request: the first call to it is promoted, the retry runs.
    assert.ok(!reqs[0].added.includes("post_message"), `not delivered at first: ${reqs[0].added}`);
    const gate = events.find((e) => e.type === "tool_attention.gate");
    assert.ok(gate && gate.type === "tool_attention.gate" && gate.rejected[0].kind === "promoted", JSON.stringify(gate));
    assert.ok(reqs[1].added.includes("post_message"), `promoted tool delivered: ${reqs[1].added}`);
    assert.equal(runs.get("post_message"), 1);
    assert.ok(emu.requests.every((r) => !r.error), JSON.stringify(emu.requests.map((r) => r.error)));
  } finally {
    await emu.close();
  }
});

test("deferred beside tool_addition: a tool not delivered, called through call_tool with fitting arguments, runs at once (no round trip)", async () => {
  // The model as the API lets it act: a deferred tool it has not loaded cannot be called by name, so it goes through
  // call_tool when the request has it, and otherwise searches first (a round trip).
  const post = { channel: "#ops", text: "hi" };
  const emu = await startAnthropicEmulator({
    script: (body) => {
      const b = body as { tools?: { name: string; defer_loading?: boolean }[]; messages: { role: string; content: unknown }[] };
      const done = b.messages.filter((m) => m.role === "user" && JSON.stringify(m.content).includes('"tool_result"')).length;
      const callTool = (b.tools ?? []).some((t) => t.name === CALL_TOOL_NAME && !t.defer_loading);
      const steps: EmulatorReply[] = [
        ...(callTool
          ? [{ toolCalls: [{ name: CALL_TOOL_NAME, input: { name: "post_message", arguments: post } }] }]
          : [{ toolCalls: [{ name: SEARCH_TOOL_NAME, input: { query: "post a message to a channel" } }] }, { toolCalls: [{ name: "post_message", input: post }] }]),
        { toolCalls: [{ name: "get_weather", input: { city: "Oslo" } }] },
        { text: "done" },
      ];
      return steps[Math.min(done, steps.length - 1)]!;
    },
  });
  try {
    const { tools, runs } = demoTools();
    const events: ToolAttentionEvent[] = [];
    const model = new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "deferred", onEvent: (e) => events.push(e) });
    const agent = createAgent({ model, tools, middleware: [mw] });
    const out = await agent.invoke({ messages: [new HumanMessage("weather in Oslo please")] });
    const reqs = emu.requests.filter((r) => !r.error);
    assert.ok(emu.requests.every((r) => !r.error), JSON.stringify(emu.requests.map((r) => r.error)));
    assert.ok(!reqs[0].added.includes("post_message"), `not delivered: ${reqs[0].added}`);
    // It ran on the first try: one answer for the call, no error, no promotion, and the model never called it again.
    assert.equal(runs.get("post_message"), 1);
    const answer = out.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === (out.messages[1] as AIMessage).tool_calls?.[0]?.id) as ToolMessage | undefined;
    assert.ok(answer && answer.status !== "error", String(answer?.content));
    assert.ok(!events.some((e) => e.type === "tool_attention.gate" && e.rejected.length > 0), "the gate refused nothing");
    assert.equal(reqs.length, 3, "one request per scripted step: no retry");
    // The thread keeps the call that ran from the pool: later calls do not deliver that tool's schema.
    const delivery = (out as { toolAttention?: { delivery?: { pool?: unknown } } }).toolAttention?.delivery;
    assert.deepEqual(delivery?.pool, { ran: ["post_message"], calls: 1, refused: 0 });
    assert.ok(reqs.every((r) => !r.added.includes("post_message")), JSON.stringify(reqs.map((r) => r.added)));
  } finally {
    await emu.close();
  }
});

test("stable (OpenAI): the tools and system prefix are byte-identical across calls until a tool is added; the system prompt stays a string", async () => {
  const emu = await startOpenAIEmulator({
    script: script({ name: "get_weather", input: { city: "Paris" } }, { name: "get_weather", input: { city: "Rome" } }, { name: "get_weather", input: { city: "Oslo" } }),
  });
  try {
    const { tools } = demoTools();
    const events: ToolAttentionEvent[] = [];
    const model = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "stable", onEvent: (e) => events.push(e) });
    const agent = createAgent({ model, tools, middleware: [mw], systemPrompt: SYSTEM });
    await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris, Rome and Oslo?")] });
    const reqs = emu.requests.filter((r) => !r.error);
    assert.equal(reqs.length, 4);
    const ds = deliveries(events);
    assert.equal(ds.length, 4);
    const prefixOf = (i: number) => {
      const body = reqs[i].body as { tools?: unknown[]; messages: { role: string; content: unknown }[] };
      return JSON.stringify({ tools: body.tools, system: body.messages[0] });
    };
    for (let i = 1; i < reqs.length; i++) {
      if (ds[i].cacheBroken) continue;
      assert.equal(prefixOf(i), prefixOf(i - 1), `call ${i}: prefix changed without a tool being added`);
      // Automatic caching then reads at least the tools and system prompt.
      assert.ok(reqs[i].usage.cacheRead >= 1024, `call ${i} read ${reqs[i].usage.cacheRead}`);
    }
    assert.ok(ds.slice(1).some((d) => !d.cacheBroken), "stable kept the set on some call");
    const system = (reqs[0].body as { messages: { role: string; content: unknown }[] }).messages[0];
    assert.ok(system.role === "system" || system.role === "developer", system.role);
    // createAgent hands the prompt over as one text block; it stays that block, and the pool follows as its own.
    const parts = typeof system.content === "string" ? [{ text: system.content }] : (system.content as { text: string }[]);
    if (parts.length === 1) assert.ok(parts[0].text.startsWith(SYSTEM));
    else {
      assert.equal(parts[0].text, SYSTEM);
      assert.equal(parts.length, 2);
    }
  } finally {
    await emu.close();
  }
});

test("rebind (Anthropic): a changed tool set breaks the cache and the delivery event says so, matching the emulator", async () => {
  const emu = await startAnthropicEmulator({
    script: script({ name: "get_weather", input: { city: "Paris" } }, { name: "list_tables", input: { schema: "analytics" } }),
  });
  try {
    const { tools } = demoTools();
    const events: ToolAttentionEvent[] = [];
    const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "rebind", onEvent: (e) => events.push(e) });
    const agent = createAgent({ model, tools, middleware: [mw], systemPrompt: SYSTEM });
    await agent.invoke({ messages: [new HumanMessage("weather in Paris, then list the tables of the analytics database")] });
    const reqs = emu.requests.filter((r) => !r.error);
    const ds = deliveries(events);
    assert.equal(ds.length, reqs.length);
    for (let i = 1; i < reqs.length; i++) {
      const prevCached = reqs[i - 1].usage.cacheRead + reqs[i - 1].usage.cacheWrite;
      // The emulator reads less than the previous call cached exactly when the event reports a broken cache.
      assert.equal(ds[i].cacheBroken, reqs[i].usage.cacheRead < prevCached, `call ${i}: event ${ds[i].cacheBroken}, usage ${JSON.stringify(reqs[i].usage)}`);
    }
    // The billed estimate of each call is close to what the emulator billed (tokens are counted the same way;
    // the estimate does not see message framing).
    for (let i = 0; i < reqs.length; i++) {
      const rel = Math.abs(ds[i].billedEstimate - reqs[i].billed) / reqs[i].billed;
      assert.ok(rel < 0.25, `call ${i}: estimate ${ds[i].billedEstimate} vs billed ${reqs[i].billed}`);
    }
  } finally {
    await emu.close();
  }
});

test("auto delivery: every schema for the 27-tool demo catalog with a caching provider, routing without one", async () => {
  const emu = await startOpenAIEmulator({ script: [{ text: "hi" }] });
  try {
    const { tools } = demoTools();
    const events: ToolAttentionEvent[] = [];
    const model = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 3, cacheDir: false, onEvent: (e) => events.push(e) })] });
    await agent.invoke({ messages: [new HumanMessage("hello")] });
    assert.equal(deliveries(events)[0].mode, "all");
    assert.equal((emu.requests[0].body as { tools: unknown[] }).tools.length, tools.length);
  } finally {
    await emu.close();
  }
});

test("planDelivery keeps the mode it is given", () => {
  const profileA = resolveProfile("anthropic", "claude-sonnet-4-5");
  const profileO = resolveProfile("openai", "gpt-5-mini");
  const base = { active: ["a"], catalog: ["a", "b", "c"], messageCount: 1, k: 3, tokens: { fullSchemas: 30000, pool: 500, schema: () => 300, context: 2000 } };
  assert.equal(planDelivery({ ...base, mode: "deferred", profile: profileA }).mode, "deferred");
  assert.equal(planDelivery({ ...base, mode: "stable", profile: profileO }).mode, "stable");
});

test("the guarantee: a stable thread whose rewrites cost more than every schema cached switches to every schema", () => {
  const profile = resolveProfile("anthropic", "claude-sonnet-4-5");
  const catalog = Array.from({ length: 12 }, (_, i) => `t${i}`);
  let state;
  const modes: string[] = [];
  // Each call routes a tool set disjoint from the bound one at the top: stable must rewrite every call.
  for (let call = 0; call < 8; call++) {
    const plan = planDelivery({
      mode: "stable",
      previous: state,
      active: [catalog[call % 12], catalog[(call + 5) % 12]],
      catalog,
      messageCount: call * 2 + 1,
      tokens: { fullSchemas: 3000, pool: 200, schema: () => 250, context: 1500 + call * 2000 },
      profile,
      k: 2,
    });
    modes.push(plan.mode);
    state = plan.state;
  }
  assert.ok(modes.includes("all"), `modes: ${modes}`);
  const last = modes.lastIndexOf("stable");
  assert.ok(modes.slice(last + 1).every((m) => m === "all"), "stays on every schema once switched");
});

test("the pool block: a user system prompt given as blocks keeps its blocks (Anthropic)", async () => {
  const emu = await startAnthropicEmulator({ script: [{ text: "hi" }] });
  try {
    const { tools } = demoTools();
    const model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "stable" });
    const systemPrompt = new SystemMessage({ content: [{ type: "text", text: "Rule one." }, { type: "text", text: "Rule two." }] });
    const agent = createAgent({ model, tools, middleware: [mw], systemPrompt });
    await agent.invoke({ messages: [new HumanMessage("hello")] });
    const system = (emu.requests[0].body as Body).system as { text: string; cache_control?: unknown }[];
    assert.deepEqual(system.slice(0, 2).map((b) => b.text), ["Rule one.", "Rule two."]);
    assert.equal(system.length, 3);
    assert.ok(system[2].cache_control);
    // The last bound tool carries the tools breakpoint.
    const bound = (emu.requests[0].body as Body).tools ?? [];
    assert.ok(bound.at(-1)?.cache_control, JSON.stringify(bound.map((t) => t.name)));
  } finally {
    await emu.close();
  }
});

test("search_tools (deferred): the model searches in its own words, gets one line per match, and the matches are delivered next call", async () => {
  const emu = await startAnthropicEmulator({
    script: [
      { toolCalls: [{ name: SEARCH_TOOL_NAME, input: { query: "send a message to a slack channel" } }] },
      { toolCalls: [{ name: "post_message", input: { channel: "#ops", text: "deploy done" } }] },
      { text: "posted" },
    ],
  });
  try {
    const { tools, runs } = demoTools();
    const model = new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 2, cacheDir: false, delivery: "deferred" });
    const agent = createAgent({ model, tools, middleware: [mw] });
    const out = await agent.invoke({ messages: [new HumanMessage("what is the weather in Oslo?")] });
    const search = out.messages.find((m) => ToolMessage.isInstance(m) && m.name === SEARCH_TOOL_NAME) as ToolMessage;
    assert.ok(search && search.status !== "error", "search answered");
    assert.match(String(search.content), /- post_message: /);
    assert.ok(emu.requests.every((r) => !r.error), JSON.stringify(emu.requests.map((r) => r.error)));
    assert.ok(emu.requests[1].added.includes("post_message"), `delivered after the search: ${emu.requests[1].added}`);
    assert.equal(runs.get("post_message"), 1);
  } finally {
    await emu.close();
  }
});

test("deferred on OpenAI (dispatcher): constant tools [search_tools, call_tool], schemas as text after the history, the named tool runs", async () => {
  const emu = await startOpenAIEmulator({
    script: [
      { toolCalls: [{ name: "call_tool", input: { name: "get_weather", arguments: { city: "Paris" } } }] },
      { toolCalls: [{ name: "call_tool", input: { name: "post_message", arguments: { channel: "#ops", text: "sunny" } } }] },
      { toolCalls: [{ name: "call_tool", input: { name: "post_message", arguments: { channel: "#ops", text: "sunny" } } }] },
      { text: "done" },
    ],
  });
  try {
    const { tools, runs } = demoTools();
    const events: ToolAttentionEvent[] = [];
    const model = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const mw = toolAttentionMiddleware({ tools, k: 3, cacheDir: false, delivery: "deferred", runValidCalls: false, onEvent: (e) => events.push(e) });
    const agent = createAgent({ model, tools, middleware: [mw], systemPrompt: SYSTEM });
    const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris?")] });
    assert.equal(runs.get("get_weather"), 1);
    // post_message was not delivered: the first call to it is promoted, the second runs.
    assert.equal(runs.get("post_message"), 1);
    const gate = events.find((e) => e.type === "tool_attention.gate");
    assert.ok(gate && gate.type === "tool_attention.gate" && gate.rejected[0].kind === "promoted" && gate.rejected[0].tool === "post_message", JSON.stringify(gate));
    const reqs = emu.requests.filter((r) => !r.error);
    assert.equal(reqs.length, 4, JSON.stringify(emu.requests.map((r) => r.error)));
    const toolNames = (i: number) => ((reqs[i].body as { tools: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
    for (let i = 0; i < reqs.length; i++) assert.deepEqual(toolNames(i), ["search_tools", "call_tool"]);
    const prefix = (i: number) => JSON.stringify({ t: (reqs[i].body as { tools: unknown }).tools, s: (reqs[i].body as { messages: unknown[] }).messages[0] });
    for (let i = 1; i < reqs.length; i++) assert.equal(prefix(i), prefix(0));
    // The delivered schemas are text in the conversation; each later call reads everything before it from the cache.
    const texts = (i: number) => JSON.stringify((reqs[i].body as { messages: unknown[] }).messages);
    assert.match(texts(0), /Tools you can call through call_tool/);
    // Delivered as TERSE lines: the tool, its purpose and every parameter with its type.
    assert.match(texts(0), /TOOL get_weather\\nPURPOSE Get the current weather[^"]*\\nIN city:str/);
    assert.match(texts(2), /TOOL post_message\\n/);
    for (let i = 1; i < reqs.length; i++) assert.ok(reqs[i].usage.cacheRead >= 1024, `call ${i}: ${JSON.stringify(reqs[i].usage)}`);
    assert.ok(deliveries(events).every((d) => d.mode === "deferred" && !d.cacheBroken));
    // Every call answered exactly once, results named after the real tools.
    const results = out.messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
    assert.equal(results.length, 3);
    assert.deepEqual(results.map((m) => m.name), ["get_weather", "post_message", "post_message"]);
  } finally {
    await emu.close();
  }
});
