import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import {
  startAnthropicEmulator,
  startOpenAIEmulator,
  type AnthropicEmulator,
  type EmulatorReply,
  type OpenAIEmulator,
  type RecordedRequest,
} from "../src/emulators/index.js";
import { countTokens } from "../src/core/tokens/count.js";
import { rejection, collect, last } from "./helpers/emulator-asserts.js";

// A system prompt well over the 1024-token minimum of Sonnet and OpenAI, and under Haiku 4.5's 4096.
const BIG = Array.from(
  { length: 90 },
  (_, i) => `Rule ${i + 1}: when the user asks about topic number ${i + 1}, answer briefly, cite the relevant section and stop.`,
).join("\n");
const SMALL = "You are a terse assistant. Answer in one word.";
const EPHEMERAL = { type: "ephemeral" } as const;

const weather = tool(async () => "sunny", {
  name: "get_weather",
  description: "Current weather for a city",
  schema: z.object({ city: z.string() }),
});

/** A raw Anthropic tool definition (passed through unchanged by ChatAnthropic). */
const rawTool = (name: string, description: string, extra: Record<string, unknown> = {}) => ({
  name,
  description,
  input_schema: { type: "object", properties: { query: { type: "string", description: `What to ${description.toLowerCase()}` } }, required: ["query"] },
  ...extra,
});

/** Replies are queued per test; an empty queue answers "ok". */
const queue: EmulatorReply[] = [];
const script = () => queue.shift() ?? { text: "ok" };




const cachedSystem = (text: string) => new SystemMessage({ content: [{ type: "text", text, cache_control: EPHEMERAL }] });
const cachedHuman = (text: string) => new HumanMessage({ content: [{ type: "text", text, cache_control: EPHEMERAL }] });

describe("Anthropic emulator with ChatAnthropic", () => {
  let emu: AnthropicEmulator;
  let model: ChatAnthropic;
  before(async () => {
    emu = await startAnthropicEmulator({ script });
    model = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(() => {
    emu.reset();
    queue.length = 0;
  });

  /** The usage LangChain reports must be the emulator's accounting, split the same way. */
  const assertUsage = (msg: AIMessage | AIMessageChunk, r: RecordedRequest) => {
    assert.ok(msg.usage_metadata, "usage_metadata missing");
    assert.equal(msg.usage_metadata.input_tokens, r.usage.total);
    assert.equal(msg.usage_metadata.output_tokens, r.outputTokens);
    assert.equal(msg.usage_metadata.input_token_details?.cache_read, r.usage.cacheRead);
    assert.equal(msg.usage_metadata.input_token_details?.cache_creation, r.usage.cacheWrite);
  };

  test("text reply: content, deterministic id and usage as recorded", async () => {
    queue.push({ text: "Paris is sunny." });
    const res = await model.invoke("Weather in Paris?");
    assert.equal(res.content, "Paris is sunny.");
    assert.equal(res.id, "msg_emu_0001");
    const r = last(emu);
    assert.equal(r.error, undefined);
    assert.equal(r.usage.total, countTokens("Weather in Paris?"));
    assert.equal(r.outputTokens, countTokens("Paris is sunny."));
    assert.equal(r.headers["x-api-key"], "[redacted]");
    assert.equal(r.headers["anthropic-version"], "2023-06-01");
    assertUsage(res, r);
  });

  test("tool call reply comes back as AIMessage.tool_calls with the scripted name and args", async () => {
    queue.push({ toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] });
    const res = await model.bindTools([weather]).invoke("Weather in Paris?");
    assert.deepEqual(
      res.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
      [{ name: "get_weather", args: { city: "Paris" }, id: "toolu_emu_0001" }],
    );
    assert.equal(res.response_metadata.stop_reason, "tool_use");
    const r = last(emu);
    assert.deepEqual(r.loaded, ["get_weather"]);
    assert.equal((r.body.tools as { name: string }[])[0].name, "get_weather");
    assert.equal(r.outputTokens, countTokens(JSON.stringify({ city: "Paris" })));
    assertUsage(res, r);
  });

  test("streaming: text and tool_use events are reassembled by the client, usage matches", async () => {
    queue.push({ text: "Streaming a fairly long answer, word by word." });
    const text = await collect(await model.stream("Say something"));
    assert.equal(text.content, "Streaming a fairly long answer, word by word.");
    assert.equal(last(emu).stream, true);
    assertUsage(text, last(emu));

    queue.push({ text: "Checking.", toolCalls: [{ name: "get_weather", input: { city: "Oslo" } }, { name: "get_weather", input: { city: "Rome" } }] });
    const calls = await collect(await model.bindTools([weather]).stream("Weather in Oslo and Rome?"));
    assert.deepEqual(
      calls.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
      [
        { name: "get_weather", args: { city: "Oslo" }, id: "toolu_emu_0001" },
        { name: "get_weather", args: { city: "Rome" }, id: "toolu_emu_0002" },
      ],
    );
    assertUsage(calls, last(emu));
  });

  test("a cached system prompt over the minimum is written on the first call and read on the second", async () => {
    const sys = countTokens(BIG);
    assert.ok(sys > 1100 && sys < 4000, `fixture size ${sys}`);
    const messages = [cachedSystem(BIG), new HumanMessage("Topic 3?")];
    const first = await model.invoke(messages);
    assert.equal(first.usage_metadata?.input_token_details?.cache_creation, sys);
    assert.equal(first.usage_metadata?.input_token_details?.cache_read, 0);
    assertUsage(first, last(emu));
    const second = await model.invoke(messages);
    assert.equal(second.usage_metadata?.input_token_details?.cache_creation, 0);
    assert.equal(second.usage_metadata?.input_token_details?.cache_read, sys);
    assertUsage(second, last(emu));
    // What follows the breakpoint is processed uncached both times.
    assert.equal(last(emu).usage.uncached, countTokens("Topic 3?"));
  });

  test("a prefix under the model's minimum is not cached", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await model.invoke([cachedSystem(SMALL), new HumanMessage("Hi")]);
      assert.equal(res.usage_metadata?.input_token_details?.cache_creation, 0);
      assert.equal(res.usage_metadata?.input_token_details?.cache_read, 0);
      assert.equal(last(emu).usage.uncached, last(emu).usage.total);
    }
    // Haiku 4.5 needs 4096 tokens: the same large prompt that Sonnet caches is not cached there.
    const haiku = new ChatAnthropic({ model: "claude-haiku-4-5", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    for (let i = 0; i < 2; i++) {
      const res = await haiku.invoke([cachedSystem(BIG), new HumanMessage("Hi")]);
      assert.equal(res.usage_metadata?.input_token_details?.cache_creation, 0);
      assert.equal(res.usage_metadata?.input_token_details?.cache_read, 0);
    }
    assert.equal(last(emu).profile, "anthropic:opus-4.5/4.6/haiku-4.5");
  });

  test("changing the bound tools breaks the cache for system and messages", async () => {
    const toolsA = [rawTool("search_docs", "Search docs"), rawTool("open_page", "Open page", { cache_control: EPHEMERAL })];
    const toolsB = [rawTool("search_web", "Search web"), rawTool("open_page", "Open page", { cache_control: EPHEMERAL })];
    const messages = [cachedSystem(BIG), cachedHuman("Find topic 7.")];
    const call = (tools: object[]) => model.bindTools(tools as never).invoke(messages);

    const first = await call(toolsA);
    const write = last(emu).usage.total;
    assert.equal(first.usage_metadata?.input_token_details?.cache_creation, write, "everything up to the last breakpoint is written");
    const second = await call(toolsA);
    assert.equal(second.usage_metadata?.input_token_details?.cache_read, write);
    assert.equal(second.usage_metadata?.input_token_details?.cache_creation, 0);

    const changed = await call(toolsB);
    assert.equal(changed.usage_metadata?.input_token_details?.cache_read, 0, "tools come first: nothing after them is read");
    assert.equal(changed.usage_metadata?.input_token_details?.cache_creation, last(emu).usage.total);
    assertUsage(changed, last(emu));

    // The first tool set's prefixes are still cached.
    const back = await call(toolsA);
    assert.equal(back.usage_metadata?.input_token_details?.cache_read, write);
  });

  test("a breakpoint on the last message block gives incremental reads across a growing conversation", async () => {
    const history: BaseMessage[] = [cachedSystem(BIG)];
    const turns = ["What is topic 1?", "And topic 2?", "Compare them.", "Summarize all of it."];
    let previousTotal = 0;
    for (const [i, question] of turns.entries()) {
      queue.push({ text: `Answer ${i + 1}: ${"details ".repeat(20 * (i + 1))}` });
      // Only the newest user block carries the breakpoint (at most 4 are allowed).
      const res = await model.invoke([...history, cachedHuman(question)]);
      const r = last(emu);
      assertUsage(res, r);
      if (i === 0) {
        assert.equal(r.usage.cacheRead, 0);
      } else {
        assert.equal(r.usage.cacheRead, previousTotal, `turn ${i + 1} reads everything the previous turn wrote`);
        assert.equal(r.usage.cacheWrite, r.usage.total - previousTotal, `turn ${i + 1} writes only the new turn`);
      }
      assert.equal(r.usage.uncached, 0, "nothing follows the last breakpoint");
      previousTotal = r.usage.total;
      history.push(new HumanMessage(question), res);
    }
    assert.ok(last(emu).billed < last(emu).usage.total * 0.5, "incremental caching bills much less than the full prompt");
  });

  test("deferred tools are declared but not billed", async () => {
    const loaded = rawTool("search_docs", "Search docs");
    const deferred = [rawTool("delete_page", "Delete page", { defer_loading: true }), rawTool("export_pdf", "Export pdf", { defer_loading: true })];
    await model.bindTools([loaded] as never).invoke("Hi");
    const without = last(emu);
    await model.bindTools([loaded, ...deferred] as never).invoke("Hi");
    const withDeferred = last(emu);
    assert.equal(withDeferred.usage.total, without.usage.total);
    assert.equal(withDeferred.segments, without.segments);
    assert.deepEqual(withDeferred.deferred, ["delete_page", "export_pdf"]);
    assert.deepEqual(withDeferred.loaded, ["search_docs"]);
    // The same tools loaded up front are billed.
    await model.bindTools([loaded, rawTool("delete_page", "Delete page"), rawTool("export_pdf", "Export pdf")] as never).invoke("Hi");
    assert.ok(last(emu).usage.total > without.usage.total + 20);
  });

  test("every tool deferred is rejected with a 400 about deferral", async () => {
    const err = await rejection(model.bindTools([rawTool("delete_page", "Delete page", { defer_loading: true })] as never).invoke("Hi"));
    assert.equal(err.status, 400);
    assert.match(err.message, /defer/);
    assert.deepEqual(last(emu).error && { status: last(emu).error!.status, type: last(emu).error!.type }, { status: 400, type: "invalid_request_error" });
    assert.equal(last(emu).usage.total, 0);
  });

  test("a mid-conversation tool_addition of a deferred tool is accepted and adds its definition there", async () => {
    const search = rawTool("search_docs", "Search docs");
    const exporter = rawTool("export_pdf", "Export pdf");
    // Tool changes mid-conversation: a model that takes them (Opus 4.8 on), the beta header, and the system message
    // right after a user turn, ending the list (the documented placement).
    const opus = new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0, betas: ["mid-conversation-tool-changes-2026-07-01"] });
    const base = [cachedSystem(BIG), new HumanMessage("Find topic 4."), new AIMessage("Found it.")];
    const ask = new HumanMessage("Now export it as PDF.");
    const addition = new SystemMessage({ content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "export_pdf" } }] as never });
    const deferredTools = opus.bindTools([search, { ...exporter, defer_loading: true }] as never);

    await deferredTools.invoke([...base, ask]);
    const before = last(emu);
    assert.equal(before.usage.cacheWrite > 0, true);

    queue.push({ toolCalls: [{ name: "export_pdf", input: { query: "topic 4" } }] });
    const res = await deferredTools.invoke([...base, ask, addition]);
    const r = last(emu);
    assert.equal(r.error, undefined);
    // @langchain/anthropic passes the non-text system block through as a role "system" message in place.
    assert.deepEqual((r.body.messages as unknown[])[3], {
      role: "system",
      content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "export_pdf" } }],
    });
    assert.equal(r.body.system !== undefined, true, "the leading system message is still hoisted");
    assert.deepEqual(r.added, ["export_pdf"]);
    const definition = countTokens(JSON.stringify({ name: exporter.name, description: exporter.description, input_schema: exporter.input_schema }));
    assert.equal(r.usage.total - before.usage.total, definition);
    assert.equal(r.segments, before.segments + 1);
    // Added after the cached prefix: the tools + system prefix is still read.
    assert.equal(r.usage.cacheRead, before.usage.cacheWrite);
    assert.equal(res.tool_calls?.[0]?.name, "export_pdf");

    // Loading the tool up front instead changes the tool list and re-bills the prefix.
    await opus.bindTools([search, exporter] as never).invoke([...base, ask]);
    assert.equal(last(emu).usage.cacheRead, 0);
  });

  test("a tool_addition naming an undeclared or non-deferred tool is rejected", async () => {
    const addition = new SystemMessage({ content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "export_pdf" } }] as never });
    const messages = [new HumanMessage("Hi"), new AIMessage("Hello."), new HumanMessage("Export."), addition];
    const opus = new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0, betas: ["mid-conversation-tool-changes-2026-07-01"] });
    const undeclared = await rejection(
      opus.bindTools([rawTool("search_docs", "Search docs"), rawTool("other", "Other", { defer_loading: true })] as never).invoke(messages),
    );
    assert.equal(undeclared.status, 400);
    assert.match(undeclared.message, /export_pdf.*(not declared|no corresponding tool definition)/);
    const notDeferred = await rejection(opus.bindTools([rawTool("search_docs", "Search docs"), rawTool("export_pdf", "Export pdf")] as never).invoke(messages));
    assert.equal(notDeferred.status, 400);
    assert.match(notDeferred.message, /defer_loading/);
  });

  test("malformed tools are rejected with a 400 naming the tool", async () => {
    const badSchema = await rejection(
      model.bindTools([{ name: "broken_tool", description: "x", input_schema: { type: "string" } }] as never).invoke("Hi"),
    );
    assert.equal(badSchema.status, 400);
    assert.match(badSchema.message, /broken_tool/);
    const badName = await rejection(model.bindTools([rawTool("bad name!", "Bad")] as never).invoke("Hi"));
    assert.equal(badName.status, 400);
    assert.match(badName.message, /bad name!/);
    assert.equal(emu.requests.length, 2);
    assert.ok(emu.requests.every((r) => r.error?.status === 400));
  });

  test("more than 4 cache breakpoints are rejected", async () => {
    const messages = [cachedSystem(SMALL), ...["a", "b", "c", "d"].flatMap((t) => [cachedHuman(t), new AIMessage("ok")]), new HumanMessage("e")];
    const err = await rejection(model.invoke(messages));
    assert.equal(err.status, 400);
    assert.match(err.message, /maximum of 4/);
  });

  test("beta requests: the ?beta=true endpoint is served and the anthropic-beta header recorded", async () => {
    const beta = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0, betas: ["context-1m-2025-08-07"] });
    const res = await beta.invoke("Hi");
    assert.equal(res.content, "ok");
    assert.equal(last(emu).headers["anthropic-beta"], "context-1m-2025-08-07");
  });

  test("raw HTTP: missing fields are rejected like the API, unknown paths are 404", async () => {
    const post = (body: unknown) =>
      fetch(`${emu.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const noMaxTokens = await post({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: "Hi" }] });
    assert.equal(noMaxTokens.status, 400);
    assert.deepEqual(await noMaxTokens.json(), { type: "error", error: { type: "invalid_request_error", message: "max_tokens: Field required" } });
    const noModel = await post({ max_tokens: 10, messages: [] });
    assert.match(((await noModel.json()) as { error: { message: string } }).error.message, /^model/);
    const noMessages = await post({ model: "claude-sonnet-4-5", max_tokens: 10 });
    assert.match(((await noMessages.json()) as { error: { message: string } }).error.message, /^messages/);
    const notFound = await fetch(`${emu.url}/v1/models`);
    assert.equal(notFound.status, 404);
    assert.equal(((await notFound.json()) as { error: { type: string } }).error.type, "not_found_error");
    assert.equal(emu.requests.length, 3, "API requests are recorded, other paths are not");
  });

  test("a list script is consumed in order and fails loudly when used up", async () => {
    const scripted = await startAnthropicEmulator({ script: [{ text: "one" }, { text: "two" }] });
    try {
      const m = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: scripted.url, maxRetries: 0 });
      assert.equal((await m.invoke("a")).content, "one");
      assert.equal((await m.invoke("b")).content, "two");
      const err = await rejection(m.invoke("c"));
      assert.equal(err.status, 500);
      assert.match(err.message, /exhausted/);
    } finally {
      await scripted.close();
    }
  });
});

describe("OpenAI emulator with ChatOpenAI", () => {
  let emu: OpenAIEmulator;
  let model: ChatOpenAI;
  before(async () => {
    emu = await startOpenAIEmulator({ script });
    model = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(() => {
    emu.reset();
    queue.length = 0;
  });

  const assertUsage = (msg: AIMessage | AIMessageChunk, r: RecordedRequest) => {
    assert.ok(msg.usage_metadata, "usage_metadata missing");
    assert.equal(msg.usage_metadata.input_tokens, r.usage.total);
    assert.equal(msg.usage_metadata.output_tokens, r.outputTokens);
    assert.equal(msg.usage_metadata.input_token_details?.cache_read, r.usage.cacheRead);
  };

  const fnTool = (name: string, description: string) => ({
    type: "function" as const,
    function: { name, description, parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
  });

  test("text reply and tool call reply", async () => {
    queue.push({ text: "Paris is sunny." });
    const text = await model.invoke("Weather in Paris?");
    assert.equal(text.content, "Paris is sunny.");
    assert.equal(text.id, "chatcmpl-emu-0001");
    assert.equal(last(emu).headers.authorization, "[redacted]");
    assertUsage(text, last(emu));

    queue.push({ toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] });
    const call = await model.bindTools([weather]).invoke("Weather in Paris?");
    assert.deepEqual(
      call.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
      [{ name: "get_weather", args: { city: "Paris" }, id: "call_emu_0001" }],
    );
    assert.equal(call.response_metadata.finish_reason, "tool_calls");
    assert.deepEqual(last(emu).loaded, ["get_weather"]);
    assertUsage(call, last(emu));
  });

  test("streaming: content and tool_calls deltas are reassembled, usage chunk matches", async () => {
    queue.push({ text: "Streaming a fairly long answer, word by word." });
    const text = await collect(await model.stream("Say something"));
    assert.equal(text.content, "Streaming a fairly long answer, word by word.");
    const r = last(emu);
    assert.equal(r.stream, true);
    assert.deepEqual(r.body.stream_options, { include_usage: true });
    assertUsage(text, r);

    queue.push({ toolCalls: [{ name: "get_weather", input: { city: "Oslo" } }, { name: "get_weather", input: { city: "Rome" } }] });
    const calls = await collect(await model.bindTools([weather]).stream("Weather in Oslo and Rome?"));
    assert.deepEqual(
      calls.tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
      [
        { name: "get_weather", args: { city: "Oslo" }, id: "call_emu_0001" },
        { name: "get_weather", args: { city: "Rome" }, id: "call_emu_0002" },
      ],
    );
    assertUsage(calls, last(emu));
  });

  test("automatic caching: 1024 + 128·j cached tokens on a repeated prompt; new tools reset it to 0", async () => {
    const messages = [new SystemMessage(BIG), new HumanMessage("Topic 9?")];
    const withA = model.bindTools([fnTool("search_docs", "Search docs")]);
    const first = await withA.invoke(messages);
    assert.equal(first.usage_metadata?.input_token_details?.cache_read, 0);
    const second = await withA.invoke(messages);
    const prompt = second.usage_metadata?.input_tokens ?? 0;
    const cached = second.usage_metadata?.input_token_details?.cache_read ?? 0;
    assert.ok(prompt > 1024);
    assert.ok(cached >= 1024 && (cached - 1024) % 128 === 0, `cached ${cached}`);
    assert.ok(cached <= prompt && prompt - cached < 128, `cached ${cached} of ${prompt}`);
    assertUsage(second, last(emu));

    const withB = await model.bindTools([fnTool("search_web", "Search web")]).invoke(messages);
    assert.equal(withB.usage_metadata?.input_token_details?.cache_read, 0, "tools come first: a new tool list misses the cache");

    // Under the minimum nothing is cached.
    for (let i = 0; i < 2; i++) assert.equal((await model.invoke([new SystemMessage(SMALL), new HumanMessage("Hi")])).usage_metadata?.input_token_details?.cache_read, 0);
  });

  test("conversation rules: known roles, a tool message answers a preceding call, every call answered before the next message", async () => {
    const post = async (messages: unknown[]) => {
      const r = await fetch(`${emu.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "gpt-5-mini", messages }) });
      return { status: r.status, message: ((await r.json()) as { error?: { message?: string } }).error?.message ?? "" };
    };
    const call = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }, { id: "c2", type: "function", function: { name: "g", arguments: "{}" } }] };
    const badRole = await post([{ role: "narrator", content: "Hi" }]);
    assert.equal(badRole.status, 400);
    assert.match(badRole.message, /Invalid value: 'narrator'/);
    const orphan = await post([{ role: "user", content: "Hi" }, { role: "tool", tool_call_id: "c9", content: "x" }]);
    assert.equal(orphan.status, 400);
    assert.match(orphan.message, /role 'tool' must be a response to a preceeding message with 'tool_calls'/);
    const unanswered = await post([{ role: "user", content: "Hi" }, call, { role: "tool", tool_call_id: "c1", content: "x" }, { role: "user", content: "and?" }]);
    assert.equal(unanswered.status, 400);
    assert.match(unanswered.message, /did not have response messages: c2/);
    queue.push({ text: "ok" });
    const valid = await post([{ role: "developer", content: "Be brief." }, { role: "user", content: "Hi" }, call, { role: "tool", tool_call_id: "c2", content: "y" }, { role: "tool", tool_call_id: "c1", content: "x" }, { role: "system", content: "More tools." }]);
    assert.equal(valid.status, 200, valid.message);
  });

  test("malformed tools and bodies are rejected in OpenAI's error shape", async () => {
    const err = await rejection(model.bindTools([fnTool("bad name!", "Bad")]).invoke("Hi"));
    assert.equal(err.status, 400);
    assert.match(err.message, /bad name!/);
    assert.equal(last(emu).error?.type, "invalid_request_error");

    const noMessages = await fetch(`${emu.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-5-mini" }),
    });
    assert.equal(noMessages.status, 400);
    assert.deepEqual(await noMessages.json(), {
      error: { message: "Missing required parameter: 'messages'.", type: "invalid_request_error", param: null, code: null },
    });
    const notFound = await fetch(`${emu.url}/embeddings`, { method: "POST", body: "{}" });
    assert.equal(notFound.status, 404);
  });
});

describe("determinism", () => {
  const anthropicRun = async (emu: AnthropicEmulator) => {
    const m = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0 });
    const tools = [rawTool("search_docs", "Search docs", { cache_control: EPHEMERAL }), rawTool("export_pdf", "Export pdf", { defer_loading: true })];
    const history: BaseMessage[] = [cachedSystem(BIG)];
    const ids: string[] = [];
    for (const q of ["One?", "Two?", "Three?"]) {
      const res = await m.bindTools(tools as never).invoke([...history, cachedHuman(q)]);
      ids.push(String(res.id));
      history.push(new HumanMessage(q), res);
    }
    return { usage: emu.requests.map((r) => r.usage), ids };
  };
  const openaiRun = async (emu: OpenAIEmulator) => {
    const m = new ChatOpenAI({ model: "gpt-5-mini", apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const history: BaseMessage[] = [new SystemMessage(BIG)];
    for (const q of ["One?", "Two?", "Three?"]) history.push(new HumanMessage(q), await m.invoke([...history, new HumanMessage(q)]));
    return emu.requests.map((r) => r.usage);
  };

  test("two fresh emulators given the same requests produce identical usage; reset() starts over", async () => {
    const emus = [await startAnthropicEmulator(), await startAnthropicEmulator()];
    const oemus = [await startOpenAIEmulator(), await startOpenAIEmulator()];
    try {
      const a = await anthropicRun(emus[0]);
      const b = await anthropicRun(emus[1]);
      assert.deepEqual(a, b);
      assert.ok(a.usage[2].cacheRead > 0, "the runs exercise the cache");
      emus[0].reset();
      assert.equal(emus[0].requests.length, 0);
      assert.deepEqual(await anthropicRun(emus[0]), a, "after reset the cache is cold and ids restart");

      const x = await openaiRun(oemus[0]);
      const y = await openaiRun(oemus[1]);
      assert.deepEqual(x, y);
      assert.ok(x[2].cacheRead > 0);
    } finally {
      await Promise.all([...emus, ...oemus].map((e) => e.close()));
      await emus[0].close(); // closing twice is harmless
    }
  });
});
