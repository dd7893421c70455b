/**
 * Providers as documented and as people call them: `createAgent` completes a multi-step tool conversation on every
 * documented Claude family, through a `ChatAnthropic` instance and through a string model id
 * (`"anthropic:claude-…"`, resolved by LangChain's `initChatModel`), with no request the emulator (as strict as the
 * documented API) rejects. Delivery follows the capability table: `tool_addition` where the model takes tool changes
 * mid-conversation, the `call_tool` dispatcher elsewhere (schemas as user text where mid-conversation system
 * messages are refused). On every path the tools array stays byte-identical across the thread's calls.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createAgent, tool } from "langchain";
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { startAnthropicEmulator, startOpenAIEmulator, type AnthropicEmulator, type EmulatorReply, type OpenAIEmulator } from "../src/emulators/index.js";
import { capabilitiesOf } from "../src/core/providers/capabilities.js";
import { identifyModel } from "../src/core/providers/model-id.js";
import type { DeliveryEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { fillerTools } from "./helpers/filler-tools.js";

const quiet = { encoder: "lexical" as const, cacheDir: false as const };

function appTools() {
  const runs: string[] = [];
  const tools = [
    tool(async ({ city }: { city: string }) => (runs.push("get_weather"), `Sunny in ${city}`), {
      name: "get_weather",
      description: "Get the current weather and a 3-day forecast for a city.",
      schema: z.object({ city: z.string() }),
    }),
    tool(async ({ city }: { city: string }) => (runs.push("book_hotel"), `Booked a hotel in ${city}`), {
      name: "book_hotel",
      description: "Book a hotel room in a city for the given nights.",
      schema: z.object({ city: z.string(), nights: z.number() }),
    }),
    ...fillerTools(),
  ];
  return { tools, runs };
}

type Json = Record<string, unknown>;
const toolNames = (body: Json) => ((body.tools as { name?: string; function?: { name?: string } }[] | undefined) ?? []).map((t) => t.name ?? t.function?.name ?? "");

/**
 * The emulated model calls get_weather, then book_hotel, then answers: by name when the tool is declared and loaded
 * (not deferred, or added by a tool_addition), through call_tool when only the dispatcher is bound.
 */
function planScript(body: Json): EmulatorReply {
  const messages = body.messages as { role: string; content: unknown }[];
  const done = messages.filter((m) => m.role === "tool" || (m.role === "user" && JSON.stringify(m.content).includes('"tool_result"'))).length;
  const steps = [
    { name: "get_weather", input: { city: "Lisbon" } },
    { name: "book_hotel", input: { city: "Lisbon", nights: 2 } },
  ];
  const step = steps[done];
  if (!step) return { text: "Booked, and it will be sunny." };
  const tools = (body.tools as { name?: string; defer_loading?: boolean; function?: { name?: string } }[]) ?? [];
  const declared = tools.find((t) => (t.name ?? t.function?.name) === step.name);
  const added = JSON.stringify(messages).includes(`"tool_addition","tool":{"type":"tool_reference","name":"${step.name}"`);
  if (declared && (!declared.defer_loading || added)) return { toolCalls: [step] };
  if (toolNames(body).includes("call_tool")) return { toolCalls: [{ name: "call_tool", input: { name: step.name, arguments: step.input } }] };
  return { toolCalls: [step] };
}

function assertConversation(out: { messages: BaseMessage[] }, runs: string[], label: string) {
  assert.deepEqual(runs, ["get_weather", "book_hotel"], label);
  assert.equal(out.messages.at(-1)?.text, "Booked, and it will be sunny.", label);
  const answers = out.messages.filter((m) => ToolMessage.isInstance(m));
  assert.equal(answers.length, 2, label);
  assert.ok(answers.every((m) => m.status !== "error"), `${label}: ${answers.map((m) => m.content).join(" | ")}`);
}

const CLAUDE = [
  { model: "claude-sonnet-4-5", via: "dispatcher-user-text" },
  { model: "claude-sonnet-4-6", via: "dispatcher-user-text" },
  { model: "claude-haiku-4-5", via: "dispatcher-user-text" },
  { model: "claude-opus-4-5", via: "dispatcher-user-text" },
  { model: "claude-opus-4-7", via: "dispatcher-user-text" },
  { model: "claude-sonnet-5", via: "dispatcher" },
  { model: "claude-opus-4-8", via: "tool_addition" },
  { model: "claude-opus-5", via: "tool_addition" },
  { model: "claude-opus-5-5", via: "tool_addition" },
  { model: "claude-sonnet-5-5", via: "tool_addition" },
  { model: "claude-haiku-5-5", via: "tool_addition" },
  { model: "claude-fable-5-1", via: "tool_addition" },
  { model: "claude-mythos-5", via: "tool_addition" },
] as const;

describe("Claude: every documented family, as an instance and as a string id", () => {
  let emu: AnthropicEmulator;
  const env = { url: process.env.ANTHROPIC_BASE_URL, key: process.env.ANTHROPIC_API_KEY };
  before(async () => {
    emu = await startAnthropicEmulator({ script: planScript });
    process.env.ANTHROPIC_BASE_URL = emu.url;
    process.env.ANTHROPIC_API_KEY = "test";
  });
  after(async () => {
    for (const [k, v] of [["ANTHROPIC_BASE_URL", env.url], ["ANTHROPIC_API_KEY", env.key]] as const) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await emu?.close();
  });

  for (const { model, via } of CLAUDE)
    for (const how of ["instance", "string id"] as const)
      test(`${model} (${how}): delivery ${via}, three calls, no rejected request, constant tools array`, async () => {
        emu.reset();
        const { tools, runs } = appTools();
        const events: ToolAttentionEvent[] = [];
        const lines: string[] = [];
        const chat = how === "instance" ? new ChatAnthropic({ model, apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 }) : `anthropic:${model}`;
        const agent = createAgent({ model: chat, tools, middleware: [toolAttentionMiddleware({ tools, k: 5, onEvent: (e) => events.push(e), log: (l) => lines.push(l), ...quiet })] });
        const out = await agent.invoke({ messages: [new HumanMessage("What's the weather in Lisbon? If it's nice, book me a hotel there for 2 nights.")] });
        assert.deepEqual(emu.requests.filter((r) => r.error).map((r) => r.error?.message), [], "no request rejected");
        assertConversation(out, runs, `${model}/${how}`);
        const deliveries = events.filter((e): e is DeliveryEvent => e.type === "tool_attention.delivery");
        assert.ok(deliveries.length >= 3);
        assert.ok(deliveries.every((d) => d.mode === "deferred" && d.via === via), deliveries.map((d) => `${d.mode}/${d.via}`).join(", "));
        const arrays = emu.requests.map((r) => JSON.stringify(r.body.tools));
        assert.ok(arrays.every((a) => a === arrays[0]), "the tools array is byte-identical on every call");
        const caps = capabilitiesOf("anthropic", model).caps;
        for (const r of emu.requests) {
          const roles = (r.body.messages as { role: string }[]).map((m) => m.role);
          if (!caps.midConversationSystemMessages) assert.ok(!roles.includes("system"), `${model} got a role:"system" message`);
          const beta = r.headers["anthropic-beta"] ?? "";
          assert.equal(beta.includes("mid-conversation-tool-changes"), via === "tool_addition", `beta header: ${beta}`);
        }
        assert.deepEqual(lines.filter((l) => /capability table/.test(l)), [], "a documented model gets no unknown-model warning");
      });

  for (const ttl of ["5m", "1h"] as const)
    for (const model of ["claude-sonnet-4-5", "claude-opus-4-8"])
      for (const mode of ["auto", "stable"] as const)
        test(`with anthropicPromptCachingMiddleware (ttl ${ttl}), ${model}, delivery ${mode}: the breakpoint budget and TTL order hold`, async () => {
          emu.reset();
          const { anthropicPromptCachingMiddleware } = await import("langchain");
          const { tools, runs } = appTools();
          const chat = new ChatAnthropic({ model, apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
          const agent = createAgent({
            model: chat,
            tools,
            systemPrompt: "You are a travel assistant.",
            middleware: [anthropicPromptCachingMiddleware({ ttl }), toolAttentionMiddleware({ tools, k: 5, delivery: mode, log: false, ...quiet })],
          });
          const out = await agent.invoke({ messages: [new HumanMessage("What's the weather in Lisbon? If it's nice, book me a hotel there for 2 nights.")] });
          assert.deepEqual(emu.requests.filter((r) => r.error).map((r) => r.error?.message), [], "no request rejected");
          assertConversation(out, runs, `${model}/${ttl}`);
          // The caching middleware starts from its third message; those requests carry its top-level breakpoint.
          const withTop = emu.requests.filter((r) => r.body.cache_control);
          assert.ok(withTop.length >= 2, `${withTop.length} requests with a top-level cache_control`);
          for (const r of withTop) assert.deepEqual(r.body.cache_control, { type: "ephemeral", ttl });
        });

  test("an unknown Claude model gets the conservative path (dispatcher, no system messages) and one warning", async () => {
    emu.reset();
    const { tools, runs } = appTools();
    const lines: string[] = [];
    const events: ToolAttentionEvent[] = [];
    const chat = new ChatAnthropic({ model: "claude-nova-9", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const agent = createAgent({ model: chat, tools, middleware: [toolAttentionMiddleware({ tools, k: 5, onEvent: (e) => events.push(e), log: (l) => lines.push(l), ...quiet })] });
    const out = await agent.invoke({ messages: [new HumanMessage("What's the weather in Lisbon? If it's nice, book me a hotel there for 2 nights.")] });
    assertConversation(out, runs, "claude-nova-9");
    assert.equal(lines.filter((l) => /"claude-nova-9" is not in the anthropic capability table/.test(l)).length, 1, lines.join("\n"));
    assert.ok(events.filter((e): e is DeliveryEvent => e.type === "tool_attention.delivery").every((d) => d.via === "dispatcher-user-text"));
  });

  test("capabilities overrides and a LangChain profile that declares midConversationTools take precedence over the table", () => {
    assert.equal(capabilitiesOf("anthropic", "claude-nova-9", { overrides: { midConversationTools: true } }).caps.midConversationTools, true);
    const fromProfile = capabilitiesOf("anthropic", "claude-sonnet-4-5", { profile: { midConversationTools: true } }).caps;
    assert.equal(fromProfile.midConversationTools, true);
    assert.equal(fromProfile.midConversationSystemMessages, true, "midConversationTools implies system messages");
    assert.equal(capabilitiesOf("anthropic", "claude-opus-4-8", { profile: { midConversationTools: false, midConversationSystemMessages: false } }).caps.midConversationTools, false);
  });
});

describe("with summarizationMiddleware trimming the history between calls", () => {
  for (const model of ["claude-opus-4-8", "claude-sonnet-4-5"])
    test(`${model}: six tool steps, the history summarized twice, no request rejected`, async () => {
      const { summarizationMiddleware } = await import("langchain");
      const { ScriptedChatModel } = await import("./helpers/scripted-model.js");
      const { AIMessage } = await import("@langchain/core/messages");
      const { tools } = appTools();
      const runs: string[] = [];
      const steps = [
        { name: "get_weather", input: { city: "Lisbon" } },
        { name: "create_invoice", input: { id: "inv-1" } },
        { name: "book_hotel", input: { city: "Lisbon", nights: 2 } },
        { name: "share_playlist", input: { id: "pl-9" } },
        { name: "list_calendar", input: { id: "cal-2" } },
        { name: "archive_ticket", input: { id: "t-7" } },
      ];
      // Steps follow what has run (the summary removes earlier tool results from the request).
      const emu = await startAnthropicEmulator({
        script: (body) => {
          const step = steps[runs.length];
          if (!step) return { text: "All done." };
          const declared = ((body.tools as { name: string; defer_loading?: boolean }[]) ?? []).find((t) => t.name === step.name);
          const added = JSON.stringify(body.messages).includes(`"name":"${step.name}"}`);
          if (declared && (!declared.defer_loading || added)) return { text: `Next: ${step.name}.`, toolCalls: [step] };
          if ((body.tools as { name: string }[]).some((t) => t.name === "call_tool")) return { text: `Next: ${step.name}.`, toolCalls: [{ name: "call_tool", input: { name: step.name, arguments: step.input } }] };
          return { text: `Next: ${step.name}.`, toolCalls: [step] };
        },
      });
      // Every tool runs and records itself (the filler tools too).
      const wrapped = tools.map((t) => {
        const original = t.invoke.bind(t) as (...a: unknown[]) => Promise<unknown>;
        return Object.assign(t, { invoke: async (...a: unknown[]) => (runs.push(t.name), original(...a)) });
      });
      try {
        const chat = new ChatAnthropic({ model, apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
        const summarizer = new ScriptedChatModel(Array.from({ length: 10 }, () => new AIMessage("Summary: the user is planning a Lisbon trip.")));
        const agent = createAgent({
          model: chat,
          tools: wrapped,
          middleware: [summarizationMiddleware({ model: summarizer, trigger: { messages: 7 }, keep: { messages: 3 } }), toolAttentionMiddleware({ tools: wrapped, k: 5, log: false, ...quiet })],
        });
        const out = await agent.invoke({ messages: [new HumanMessage("Plan my Lisbon trip: weather, invoice, hotel, playlist, calendar, and close the old ticket.")] }, { recursionLimit: 80 });
        assert.deepEqual(emu.requests.filter((r) => r.error).map((r) => r.error?.message), [], "no request rejected");
        assert.ok(summarizer.calls.length >= 2, `the history was summarized ${summarizer.calls.length} times`);
        assert.deepEqual(runs, steps.map((s) => s.name));
        assert.equal(out.messages.at(-1)?.text, "All done.");
      } finally {
        await emu.close();
      }
    });
});

describe("OpenAI: ChatOpenAI on Chat Completions", () => {
  let emu: OpenAIEmulator;
  before(async () => {
    emu = await startOpenAIEmulator({ script: planScript as never });
  });
  after(async () => emu?.close());

  test("gpt-5-mini: dispatcher delivery, constant tools array, one prompt_cache_key for the thread", async () => {
    const { tools, runs } = appTools();
    const events: ToolAttentionEvent[] = [];
    const chat = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const agent = createAgent({ model: chat, tools, middleware: [toolAttentionMiddleware({ tools, k: 5, onEvent: (e) => events.push(e), log: false, ...quiet })] });
    const out = await agent.invoke({ messages: [new HumanMessage("What's the weather in Lisbon? If it's nice, book me a hotel there for 2 nights.")] });
    assert.deepEqual(emu.requests.filter((r) => r.error).map((r) => r.error?.message), []);
    assertConversation(out, runs, "gpt-5-mini");
    const arrays = emu.requests.map((r) => JSON.stringify(r.body.tools));
    assert.ok(arrays.every((a) => a === arrays[0]));
    const keys = new Set(emu.requests.map((r) => r.body.prompt_cache_key));
    assert.equal(keys.size, 1);
    assert.match(String([...keys][0]), /^tool-attention-[0-9a-f]{16}$/);
  });
});

describe("OpenAI: the Responses API, as createAgent calls it for \"openai:\" string ids", () => {
  let emu: OpenAIEmulator;
  const env = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
  // The Responses input: the conversation's items; a tool call is answered by a function_call_output item.
  const responsesScript = (body: Json): EmulatorReply => {
    const input = (body.input as { type?: string; role?: string; content?: unknown }[]) ?? [];
    const messages = input.map((i) => (i.type === "function_call_output" ? { role: "tool", content: "" } : { role: i.role ?? i.type ?? "", content: i.content }));
    return planScript({ ...body, messages });
  };
  before(async () => {
    emu = await startOpenAIEmulator({ script: responsesScript as never });
    process.env.OPENAI_BASE_URL = emu.url;
    process.env.OPENAI_API_KEY = "test";
  });
  after(async () => {
    for (const [k, v] of [["OPENAI_BASE_URL", env.url], ["OPENAI_API_KEY", env.key]] as const) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await emu?.close();
  });
  for (const model of ["openai:gpt-5-mini", "openai:gpt-5.6", "openai:gpt-4.1"])
    test(`${model}: three calls through /v1/responses, none rejected, constant tools array`, async () => {
      emu.reset();
      const { tools, runs } = appTools();
      const events: ToolAttentionEvent[] = [];
      const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 5, onEvent: (e) => events.push(e), log: false, ...quiet })] });
      const out = await agent.invoke({ messages: [new HumanMessage("What's the weather in Lisbon? If it's nice, book me a hotel there for 2 nights.")] });
      assert.deepEqual(emu.requests.filter((r) => r.error).map((r) => r.error?.message), [], "no request rejected");
      assert.ok(emu.requests.length >= 3 && emu.requests.every((r) => "input" in r.body), "every request went to the Responses API");
      assertConversation(out, runs, model);
      const arrays = emu.requests.map((r) => JSON.stringify(r.body.tools));
      assert.ok(arrays.every((a) => a === arrays[0]), "the tools array is byte-identical on every call");
      assert.equal(new Set(emu.requests.map((r) => r.body.prompt_cache_key)).size, 1);
      assert.ok(events.filter((e): e is DeliveryEvent => e.type === "tool_attention.delivery").every((d) => d.profile.startsWith("openai:")));
    });
});

test("string model ids are identified as their provider, model and API", async () => {
  const { initChatModel } = await import("langchain");
  const key = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY ??= "test";
  process.env.ANTHROPIC_API_KEY ??= "test";
  try {
    assert.deepEqual({ ...identifyModel(await initChatModel("anthropic:claude-sonnet-4-5")), profile: undefined }, { provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages", profile: undefined });
    // createAgent sends every "openai:" id through the Responses API.
    assert.equal(identifyModel(await initChatModel("openai:gpt-4.1", { useResponsesApi: true })).api, "openai-responses");
    assert.equal(identifyModel(await initChatModel("openai:gpt-4.1")).api, "openai-chat");
    assert.equal(identifyModel(await initChatModel("openai:gpt-5.6")).api, "openai-responses");
    assert.equal(identifyModel(new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", useResponsesApi: true })).api, "openai-responses");
    assert.equal(identifyModel(new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test" })).api, "openai-chat");
    assert.equal(identifyModel(await initChatModel("claude-opus-4-8", { modelProvider: "anthropic" })).provider, "anthropic");
  } finally {
    if (key === undefined) delete process.env.OPENAI_API_KEY;
  }
});
