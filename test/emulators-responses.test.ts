import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ChatOpenAI } from "@langchain/openai";
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { z } from "zod";
import { startOpenAIEmulator, type EmulatorReply, type OpenAIEmulator, type RecordedRequest } from "../src/emulators/index.js";
import { countTokens } from "../src/core/tokens/count.js";
import { collect, last } from "./helpers/emulator-asserts.js";

// A system prompt well over OpenAI's 1024-token caching minimum.
const BIG = Array.from(
  { length: 90 },
  (_, i) => `Rule ${i + 1}: when the user asks about topic number ${i + 1}, answer briefly, cite the relevant section and stop.`,
).join("\n");

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "Current weather for a city",
  schema: z.object({ city: z.string() }),
});

/** Replies are queued per test; an empty queue answers "ok". */
const queue: EmulatorReply[] = [];
const script = () => queue.shift() ?? { text: "ok" };



/** The usage LangChain parses must be the emulator's accounting. */
const assertUsage = (msg: AIMessage | AIMessageChunk, r: RecordedRequest) => {
  assert.ok(msg.usage_metadata, "usage_metadata missing");
  assert.equal(msg.usage_metadata.input_tokens, r.usage.total);
  assert.equal(msg.usage_metadata.output_tokens, r.outputTokens);
  assert.equal(msg.usage_metadata.total_tokens, r.usage.total + r.outputTokens);
  assert.equal(msg.usage_metadata.input_token_details?.cache_read, r.usage.cacheRead);
  assert.equal(msg.usage_metadata.input_token_details?.cache_creation, r.usage.cacheWrite);
};

const calls = (m: AIMessage | AIMessageChunk) => m.tool_calls?.map(({ name, args, id }) => ({ name, args, id }));

/** A Responses function tool, as the API takes it. */
const fn = (name: string, extra: Record<string, unknown> = {}) => ({
  type: "function",
  name,
  description: `Does ${name.replace(/_/g, " ")}`,
  parameters: { type: "object", properties: { query: { type: "string", description: "What to look for" } }, required: ["query"] },
  strict: false,
  ...extra,
});
const TOOL_SEARCH = { type: "tool_search" };

describe("OpenAI Responses emulator with ChatOpenAI (useResponsesApi)", () => {
  let emu: OpenAIEmulator;
  let model: ChatOpenAI;
  before(async () => {
    emu = await startOpenAIEmulator({ script });
    model = new ChatOpenAI({ model: "gpt-5.6", useResponsesApi: true, apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(() => {
    emu.reset();
    queue.length = 0;
  });

  /** Raw POST to /v1/responses. */
  const post = async (body: unknown) => {
    const res = await fetch(`${emu.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer test" },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  const rejected = async (body: unknown, message: RegExp | string, param?: string | null) => {
    const { status, json } = await post(body);
    assert.equal(status, 400, `expected 400, got ${status}: ${JSON.stringify(json)}`);
    assert.equal(json.error.type, "invalid_request_error");
    if (typeof message === "string") assert.equal(json.error.message, message);
    else assert.match(json.error.message, message);
    if (param !== undefined) assert.equal(json.error.param, param);
    assert.equal(last(emu).error?.status, 400);
    return json.error as { message: string; type: string; param: string | null; code: string | null };
  };
  const accepted = async (body: unknown) => {
    const { status, json } = await post(body);
    assert.equal(status, 200, `expected 200, got ${status}: ${JSON.stringify(json)}`);
    assert.equal(json.object, "response");
    return { json, record: last(emu) };
  };

  test("text reply: POST /v1/responses, content, deterministic ids, usage parsed", async () => {
    queue.push({ text: "Paris is sunny." });
    const res = await model.invoke("Weather in Paris?");
    assert.equal(res.text, "Paris is sunny.");
    assert.equal(res.id, "resp_emu_0001");
    assert.equal(res.response_metadata.status, "completed");
    const r = last(emu);
    assert.equal(r.error, undefined);
    assert.equal(r.body.input !== undefined && r.body.messages === undefined, true, "the Responses API was used");
    assert.equal(r.headers.authorization, "[redacted]");
    assert.equal(r.usage.total, countTokens("Weather in Paris?"));
    assert.equal(r.outputTokens, countTokens("Paris is sunny."));
    assert.match(r.profile ?? "", /^openai:gpt-5\.6/, "priced with the model's own cache profile");
    assertUsage(res, r);
  });

  /** A three-call tool conversation: two tool calls, then the answer; the prompt is over the caching minimum. */
  const conversation = async (call: (messages: BaseMessage[]) => Promise<AIMessage | AIMessageChunk>) => {
    queue.push(
      { toolCalls: [{ name: "get_weather", input: { city: "Paris" } }] },
      { text: "Checking Oslo too.", toolCalls: [{ name: "get_weather", input: { city: "Oslo" } }] },
      { text: "Paris and Oslo are both sunny." },
    );
    const history: BaseMessage[] = [new SystemMessage(BIG), new HumanMessage("Weather in Paris and Oslo?")];
    const first = await call(history);
    assert.deepEqual(calls(first), [{ name: "get_weather", args: { city: "Paris" }, id: "call_emu_0001" }]);
    const r1 = last(emu);
    assertUsage(first, r1);
    assert.equal(first.usage_metadata?.input_token_details?.cache_read, 0, "a cold cache reads nothing");
    assert.ok(r1.usage.total > 1024);
    // gpt-5.6 bills cache writes (1.25x), and reports them.
    assert.equal(first.usage_metadata?.input_token_details?.cache_creation, r1.usage.total);

    history.push(first, new ToolMessage({ content: "sunny", tool_call_id: "call_emu_0001" }));
    const second = await call(history);
    assert.deepEqual(calls(second), [{ name: "get_weather", args: { city: "Oslo" }, id: "call_emu_0002" }]);
    assert.match(second.text, /Checking Oslo too\./);
    const r2 = last(emu);
    assertUsage(second, r2);
    const input2 = r2.body.input as Record<string, unknown>[];
    assert.deepEqual(
      input2.filter((i) => i.type === "function_call" || i.type === "function_call_output").map((i) => [i.type, i.call_id]),
      [
        ["function_call", "call_emu_0001"],
        ["function_call_output", "call_emu_0001"],
      ],
    );
    const read2 = second.usage_metadata?.input_token_details?.cache_read ?? 0;
    assert.ok(read2 >= 1024 && (read2 - 1024) % 128 === 0, `cached ${read2}`);

    history.push(second, new ToolMessage({ content: "sunny", tool_call_id: "call_emu_0002" }));
    const third = await call(history);
    assert.equal(third.text, "Paris and Oslo are both sunny.");
    assert.deepEqual(calls(third), []);
    const r3 = last(emu);
    assertUsage(third, r3);
    const read3 = third.usage_metadata?.input_token_details?.cache_read ?? 0;
    assert.ok(read3 >= read2, `the cached prefix grows (${read2} → ${read3})`);
    assert.equal(emu.requests.length, 3);
    assert.ok(emu.requests.every((r) => r.error === undefined && r.loaded.includes("get_weather")));
    return emu.requests.map((r) => r.usage);
  };

  test("3-call tool conversation, invoke: tool calls, replayed items and cache usage parsed", async () => {
    const bound = model.bindTools([weather]);
    const usage = await conversation((m) => bound.invoke(m));
    assert.equal(emu.requests[0].stream, false);
    // Same conversation, streamed, prices the same.
    emu.reset();
    const streamed = await conversation(async (m) => collect(await bound.stream(m)));
    assert.equal(emu.requests[0].stream, true);
    assert.deepEqual(streamed, usage);
  });

  test("streaming: the documented event sequence, with sequence numbers and usage on response.completed", async () => {
    queue.push({ text: "Looking it up.", toolCalls: [{ name: "get_weather", input: { city: "Rome" } }] });
    const res = await fetch(`${emu.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-5.6", input: "Weather in Rome?", stream: true, tools: [fn("get_weather")] }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
    const events = (await res.text())
      .split("\n\n")
      .filter(Boolean)
      .map((block) => {
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
        assert.equal(name, data.type, "the SSE event name is the event type");
        return data;
      });
    const types = events.map((e) => e.type);
    const deltas = types.filter((t) => t === "response.output_text.delta").length;
    const argDeltas = types.filter((t) => t === "response.function_call_arguments.delta").length;
    assert.ok(deltas > 1 && argDeltas > 1, "text and arguments arrive in pieces");
    assert.deepEqual(types, [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...Array(deltas).fill("response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      ...Array(argDeltas).fill("response.function_call_arguments.delta"),
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    assert.deepEqual(
      events.map((e) => e.sequence_number),
      events.map((_, i) => i),
    );
    const text = events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta).join("");
    assert.equal(text, "Looking it up.");
    const args = events.filter((e) => e.type === "response.function_call_arguments.delta").map((e) => e.delta).join("");
    assert.equal(args, JSON.stringify({ city: "Rome" }));
    const added = events.filter((e) => e.type === "response.output_item.added").map((e) => e.item);
    assert.deepEqual(added[1], { id: "fc_emu_0001", type: "function_call", status: "in_progress", arguments: "", call_id: "call_emu_0001", name: "get_weather" });
    assert.equal(events[0].response.status, "in_progress");
    const done = events.at(-1).response;
    assert.equal(done.status, "completed");
    assert.deepEqual(
      done.output.map((i: Record<string, unknown>) => i.type),
      ["message", "function_call"],
    );
    assert.deepEqual(done.output[0].content, [{ type: "output_text", annotations: [], logprobs: [], text: "Looking it up." }]);
    const r = last(emu);
    assert.deepEqual(done.usage, {
      input_tokens: r.usage.total,
      input_tokens_details: { cached_tokens: r.usage.cacheRead, cache_write_tokens: r.usage.cacheWrite },
      output_tokens: r.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: r.usage.total + r.outputTokens,
    });
  });

  test("non-streamed response object: output items, ids and usage", async () => {
    queue.push({ toolCalls: [{ name: "get_weather", input: { city: "Oslo" } }, { name: "get_weather", input: { city: "Rome" } }] });
    const { json, record } = await accepted({ model: "gpt-5-mini", input: "Weather?", tools: [fn("get_weather")], prompt_cache_key: "thread-42" });
    assert.equal(json.id, "resp_emu_0001");
    assert.equal(json.status, "completed");
    assert.equal(json.model, "gpt-5-mini");
    assert.equal(typeof json.created_at, "number");
    assert.equal(json.prompt_cache_key, "thread-42");
    assert.equal(record.body.prompt_cache_key, "thread-42", "prompt_cache_key is recorded");
    assert.deepEqual(json.output, [
      { id: "fc_emu_0001", type: "function_call", status: "completed", arguments: '{"city":"Oslo"}', call_id: "call_emu_0001", name: "get_weather" },
      { id: "fc_emu_0002", type: "function_call", status: "completed", arguments: '{"city":"Rome"}', call_id: "call_emu_0002", name: "get_weather" },
    ]);
    assert.equal(json.usage.input_tokens_details.cache_write_tokens, 0, "no cache-write reporting before gpt-5.6");
    assert.match(record.profile ?? "", /^openai:gpt-5\b(?!\.)/);
  });

  test("older models: cache reads without cache writes on a repeated long prompt", async () => {
    const mini = new ChatOpenAI({ model: "gpt-5-mini", useResponsesApi: true, apiKey: "test", configuration: { baseURL: emu.url }, maxRetries: 0 });
    const messages = [new SystemMessage(BIG), new HumanMessage("Topic 9?")];
    const first = await mini.invoke(messages);
    assert.equal(first.usage_metadata?.input_token_details?.cache_read, 0);
    assert.equal(first.usage_metadata?.input_token_details?.cache_creation, 0);
    const second = await mini.invoke(messages);
    const cached = second.usage_metadata?.input_token_details?.cache_read ?? 0;
    assert.ok(cached >= 1024 && (cached - 1024) % 128 === 0, `cached ${cached}`);
    assert.equal(second.usage_metadata?.input_token_details?.cache_creation, 0);
    assertUsage(second, last(emu));
  });

  test("createAgent with model 'openai:gpt-5.6' and OPENAI_BASE_URL: a tool call, then the final answer", async () => {
    const saved = { base: process.env.OPENAI_BASE_URL, apiBase: process.env.OPENAI_API_BASE, key: process.env.OPENAI_API_KEY };
    process.env.OPENAI_BASE_URL = emu.url;
    process.env.OPENAI_API_KEY = "test";
    delete process.env.OPENAI_API_BASE;
    try {
      queue.push({ toolCalls: [{ name: "get_weather", input: { city: "Lima" } }] }, { text: "Lima is sunny." });
      const agent = createAgent({ model: "openai:gpt-5.6", tools: [weather] });
      const result = await agent.invoke({ messages: [new HumanMessage("Weather in Lima?")] });
      const messages = result.messages as BaseMessage[];
      assert.equal(messages.at(-1)?.text, "Lima is sunny.");
      const toolMessage = messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage | undefined;
      assert.equal(toolMessage?.tool_call_id, "call_emu_0001");
      assert.equal(toolMessage?.content, "sunny in Lima");
      assert.equal(emu.requests.length, 2);
      assert.ok(emu.requests.every((r) => r.error === undefined && r.body.model === "gpt-5.6"));
      assert.deepEqual(emu.requests[0].loaded, ["get_weather"]);
      const input = emu.requests[1].body.input as Record<string, unknown>[];
      assert.deepEqual(
        input.map((i) => i.type),
        ["message", "function_call", "function_call_output"],
      );
    } finally {
      for (const [name, value] of [
        ["OPENAI_BASE_URL", saved.base],
        ["OPENAI_API_BASE", saved.apiBase],
        ["OPENAI_API_KEY", saved.key],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });

  describe("request validation (raw fetch), each rule with its accepted counterpart", () => {
    test("model is required", async () => {
      const err = await rejected({ input: "Hi" }, "Missing required parameter: 'model'.", "model");
      assert.equal(err.code, "missing_required_parameter");
      await accepted({ model: "gpt-5-mini", input: "Hi" });
    });

    test("input is a string or an array of items", async () => {
      const err = await rejected({ model: "gpt-5-mini", input: 42 }, /^Invalid type for 'input'/, "input");
      assert.equal(err.code, "invalid_type");
      await rejected({ model: "gpt-5-mini", input: { role: "user", content: "Hi" } }, /^Invalid type for 'input'/, "input");
      await rejected({ model: "gpt-5-mini" }, "Missing required parameter: 'input'.", "input");
      await accepted({ model: "gpt-5-mini", input: "Hi" });
      await accepted({ model: "gpt-5-mini", input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] }] });
    });

    test("item types: unknown types are rejected; easy input messages may omit the type", async () => {
      const err = await rejected({ model: "gpt-5-mini", input: [{ type: "chat", role: "user", content: "Hi" }] }, /^Invalid value: 'chat'\. Supported values are: .*'message'/, "input[0]");
      assert.equal(err.code, "invalid_value");
      await rejected({ model: "gpt-5-mini", input: [{ content: "Hi" }] }, "Missing required parameter: 'input[0].type'.");
      await accepted({ model: "gpt-5-mini", input: [{ role: "user", content: "Hi" }] });
    });

    test("message roles: user, system, developer, assistant", async () => {
      await rejected(
        { model: "gpt-5-mini", input: [{ role: "tool", content: "Hi" }] },
        "Invalid value: 'tool'. Supported values are: 'assistant', 'system', 'developer', and 'user'.",
        "input[0].role",
      );
      for (const role of ["user", "system", "developer", "assistant"]) await accepted({ model: "gpt-5-mini", input: [{ type: "message", role, content: "Hi" }] });
    });

    test("assistant content parts are output_text or refusal; user parts are input parts", async () => {
      await rejected(
        { model: "gpt-5-mini", input: [{ role: "user", content: "Hi" }, { type: "message", role: "assistant", content: [{ type: "input_text", text: "Hello" }] }] },
        "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.",
        "input[1].content[0]",
      );
      await rejected({ model: "gpt-5-mini", input: [{ role: "user", content: [{ type: "output_text", text: "Hi" }] }] }, /^Invalid value: 'output_text'\./, "input[0].content[0]");
      await accepted({
        model: "gpt-5-mini",
        input: [
          { role: "user", content: "Hi" },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hello", annotations: [] }] },
        ],
      });
    });

    test("function_call needs call_id, name and a string of arguments", async () => {
      const call = { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' };
      await rejected({ model: "gpt-5-mini", input: [{ ...call, call_id: undefined }] }, "Missing required parameter: 'input[0].call_id'.", "input[0].call_id");
      await rejected({ model: "gpt-5-mini", input: [{ ...call, name: undefined }] }, "Missing required parameter: 'input[0].name'.");
      await rejected(
        { model: "gpt-5-mini", input: [{ ...call, arguments: { city: "Paris" } }] },
        "Invalid type for 'input[0].arguments': expected a string, but got an object instead.",
        "input[0].arguments",
      );
      await accepted({ model: "gpt-5-mini", input: [{ role: "user", content: "Weather?" }, call, { type: "function_call_output", call_id: "call_1", output: "sunny" }] });
    });

    test("function_call_output needs call_id and output, and a matching earlier function_call", async () => {
      const call = { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{}" };
      const output = { type: "function_call_output", call_id: "call_1", output: "sunny" };
      const err = await rejected(
        { model: "gpt-5-mini", input: [{ role: "user", content: "Weather?" }, output] },
        "No tool call found for function call output with call_id call_1.",
        "input",
      );
      assert.equal(err.code, null);
      await rejected({ model: "gpt-5-mini", input: [output, call] }, "No tool call found for function call output with call_id call_1.", "input");
      await rejected({ model: "gpt-5-mini", input: [call, { ...output, call_id: "call_2" }] }, "No tool call found for function call output with call_id call_2.");
      await rejected({ model: "gpt-5-mini", input: [call, { ...output, output: undefined }] }, "Missing required parameter: 'input[1].output'.");
      await accepted({ model: "gpt-5-mini", input: [call, output] });
      await accepted({ model: "gpt-5-mini", input: [call, { ...output, output: [{ type: "input_text", text: "sunny" }] }] });
    });

    test("reasoning items are accepted (summary required)", async () => {
      await rejected({ model: "gpt-5-mini", input: [{ type: "reasoning", id: "rs_1" }] }, "Missing required parameter: 'input[0].summary'.");
      await accepted({ model: "gpt-5-mini", input: [{ role: "user", content: "Hi" }, { type: "reasoning", id: "rs_1", summary: [] }] });
    });

    test("additional_tools only with role developer", async () => {
      const item = { type: "additional_tools", role: "user", tools: [fn("export_pdf")] };
      await rejected({ model: "gpt-5.6", input: [{ role: "user", content: "Hi" }, item] }, "Invalid value: 'user'. Supported values are: 'developer'.", "input[1].role");
      const { record } = await accepted({ model: "gpt-5.6", input: [{ role: "user", content: "Hi" }, { ...item, role: "developer" }] });
      assert.deepEqual(record.added, ["export_pdf"]);
    });

    test("tool_search_call / tool_search_output items load deferred tools where they sit", async () => {
      const tools = [TOOL_SEARCH, fn("export_pdf", { defer_loading: true })];
      const search = { type: "tool_search_call", call_id: "ts_1", execution: "client", status: "completed", arguments: { query: "pdf" } };
      const loaded = { type: "tool_search_output", call_id: "ts_1", execution: "client", status: "completed", tools: [fn("export_pdf")] };
      await rejected({ model: "gpt-5.6", tools, input: [{ role: "user", content: "Hi" }, { ...search, arguments: undefined }] }, "Missing required parameter: 'input[1].arguments'.");
      await rejected({ model: "gpt-5.6", tools, input: [{ role: "user", content: "Hi" }, { ...loaded, tools: undefined }] }, "Missing required parameter: 'input[1].tools'.");
      const before = await accepted({ model: "gpt-5.6", tools, input: [{ role: "user", content: "Export it" }, search] });
      const { record } = await accepted({ model: "gpt-5.6", tools, input: [{ role: "user", content: "Export it" }, search, loaded] });
      assert.deepEqual(record.deferred, ["export_pdf"]);
      assert.deepEqual(record.loaded, []);
      assert.deepEqual(record.added, ["export_pdf"]);
      assert.ok(record.usage.total > before.record.usage.total, "the loaded definition is billed where it is loaded");
    });

    test("previous_response_id is not found (the emulator stores nothing)", async () => {
      await rejected({ model: "gpt-5-mini", input: "Hi", previous_response_id: "resp_x" }, "Previous response with id 'resp_x' not found.", "previous_response_id");
    });

    test("function tools: name pattern, parameters, strict", async () => {
      await rejected(
        { model: "gpt-5-mini", input: "Hi", tools: [fn("bad name!")] },
        "Invalid 'tools[0].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
        "tools[0].name",
      );
      await rejected({ model: "gpt-5-mini", input: "Hi", tools: [fn("ok", { parameters: undefined })] }, "Missing required parameter: 'tools[0].parameters'.");
      await rejected({ model: "gpt-5-mini", input: "Hi", tools: [fn("ok", { parameters: { type: "string" } })] }, /^Invalid schema for function 'ok'/, "tools[0].parameters");
      await rejected({ model: "gpt-5-mini", input: "Hi", tools: [fn("ok", { strict: "yes" })] }, "Invalid type for 'tools[0].strict': expected a boolean, but got a string instead.");
      await rejected({ model: "gpt-5-mini", input: "Hi", tools: [{ type: "web_browser" }] }, /^Invalid value: 'web_browser'\. Supported values are: /, "tools[0].type");
      const { record } = await accepted({ model: "gpt-5-mini", input: "Hi", tools: [fn("ok"), fn("also_ok", { strict: null, parameters: null })] });
      assert.deepEqual(record.loaded, ["ok", "also_ok"]);
    });

    test("tool_search execution is 'server' or 'client'", async () => {
      const deferred = fn("export_pdf", { defer_loading: true });
      await rejected({ model: "gpt-5.6", input: "Hi", tools: [{ type: "tool_search", execution: "both" }, deferred] }, "Invalid value: 'both'. Supported values are: 'server' and 'client'.", "tools[0].execution");
      for (const execution of ["client", "server", undefined]) await accepted({ model: "gpt-5.6", input: "Hi", tools: [{ type: "tool_search", execution }, deferred] });
    });

    test("defer_loading and tool_search only on gpt-5.4 and later", async () => {
      const deferred = fn("export_pdf", { defer_loading: true });
      for (const m of ["gpt-5-mini", "gpt-4.1", "gpt-5.2", "gpt-5.4-nano"]) {
        await rejected({ model: m, input: "Hi", tools: [TOOL_SEARCH, deferred] }, `Tool 'tool_search' is not supported with ${m}.`, "tools");
        await rejected({ model: m, input: "Hi", tools: [fn("search"), deferred] }, /only supported on gpt-5\.4 and later/, "tools[1].defer_loading");
      }
      for (const m of ["gpt-5.4", "gpt-5.4-mini", "gpt-5.5", "gpt-5.6", "gpt-5.6-sol", "gpt-6-astra"]) await accepted({ model: m, input: "Hi", tools: [TOOL_SEARCH, deferred] });
    });

    test("a deferred function needs a tool_search tool (top level and inside a namespace)", async () => {
      const message = "Invalid Value: 'tools.defer_loading'. Deferred tools require tools.tool_search.";
      await rejected({ model: "gpt-5.6", input: "Hi", tools: [fn("search"), fn("export_pdf", { defer_loading: true })] }, message, "tools");
      const ns = { type: "namespace", name: "docs", description: "Document tools", tools: [fn("export_pdf", { defer_loading: true })] };
      await rejected({ model: "gpt-5.6", input: "Hi", tools: [ns] }, message, "tools");
      await accepted({ model: "gpt-5.6", input: "Hi", tools: [fn("search"), fn("export_pdf", { defer_loading: true }), TOOL_SEARCH] });
      const { record } = await accepted({ model: "gpt-5.6", input: "Hi", tools: [ns, TOOL_SEARCH] });
      assert.deepEqual(record.deferred, ["docs.export_pdf"]);
      // A non-deferred function needs no search tool, and deferral set to false is no deferral.
      await accepted({ model: "gpt-5.6", input: "Hi", tools: [fn("search", { defer_loading: false })] });
    });

    test("a tool_search tool needs at least one deferred tool", async () => {
      await rejected(
        { model: "gpt-5.6", input: "Hi", tools: [fn("search"), TOOL_SEARCH] },
        "Invalid Value: 'tools.tool_search'. tools.tool_search requires at least one deferred tool.",
        "tools",
      );
      await accepted({ model: "gpt-5.6", input: "Hi", tools: [fn("search"), fn("export_pdf", { defer_loading: true }), TOOL_SEARCH] });
    });

    test("namespaces: defer_loading belongs on the functions inside, not on the namespace", async () => {
      const inner = [fn("export_pdf", { defer_loading: true })];
      await rejected(
        { model: "gpt-5.6", input: "Hi", tools: [{ type: "namespace", name: "docs", description: "Document tools", defer_loading: true, tools: inner }, TOOL_SEARCH] },
        /^Unknown parameter: 'tools\[0\]\.defer_loading'/,
        "tools[0].defer_loading",
      );
      await rejected({ model: "gpt-5.6", input: "Hi", tools: [{ type: "namespace", name: "docs", tools: inner }, TOOL_SEARCH] }, "Missing required parameter: 'tools[0].description'.");
      await accepted({ model: "gpt-5.6", input: "Hi", tools: [{ type: "namespace", name: "docs", description: "Document tools", tools: inner }, TOOL_SEARCH] });
    });
  });

  describe("pricing", () => {
    const total = async (body: Record<string, unknown>) => (await accepted({ input: "Hi", ...body })).record.usage.total;
    const schema = (n: number) => ({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, { type: "string", description: `Field number ${i} of the record` }])),
    });

    test("a deferred function bills its name and description only; a non-deferred one its schema too", async () => {
      const small = await total({ model: "gpt-5.6", tools: [TOOL_SEARCH, fn("export_pdf", { defer_loading: true, parameters: schema(1) })] });
      const large = await total({ model: "gpt-5.6", tools: [TOOL_SEARCH, fn("export_pdf", { defer_loading: true, parameters: schema(30) })] });
      assert.equal(large, small, "the deferred schema is not billed");
      const longer = await total({ model: "gpt-5.6", tools: [TOOL_SEARCH, fn("export_pdf", { defer_loading: true, description: "Exports the current document as a PDF file" })] });
      assert.ok(longer > small, "the deferred description is billed");
      const eagerSmall = await total({ model: "gpt-5.6", tools: [fn("export_pdf", { parameters: schema(1) })] });
      const eagerLarge = await total({ model: "gpt-5.6", tools: [fn("export_pdf", { parameters: schema(30) })] });
      assert.ok(eagerLarge > eagerSmall + 100, "a loaded schema is billed");
    });

    test("deferred functions inside a namespace bill nothing until loaded", async () => {
      const ns = (tools: unknown[]) => ({ type: "namespace", name: "docs", description: "Document tools", tools });
      const one = await total({ model: "gpt-5.6", tools: [TOOL_SEARCH, ns([fn("export_pdf", { defer_loading: true })])] });
      const three = await total({
        model: "gpt-5.6",
        tools: [TOOL_SEARCH, ns([fn("export_pdf", { defer_loading: true }), fn("export_docx", { defer_loading: true, parameters: schema(30) }), fn("print", { defer_loading: true })])],
      });
      assert.equal(three, one);
      const mixed = await total({ model: "gpt-5.6", tools: [TOOL_SEARCH, ns([fn("export_pdf", { defer_loading: true }), fn("print")])] });
      assert.ok(mixed > one, "a non-deferred function in a namespace is billed");
      assert.deepEqual(last(emu).loaded, ["docs.print"]);
    });

    test("images bill a placeholder, not their bytes", async () => {
      const image = (data: string) => ({ type: "input_image", image_url: `data:image/png;base64,${data}`, detail: "auto" });
      const message = (data: string) => [{ role: "user", content: [{ type: "input_text", text: "What is this?" }, image(data)] }];
      const a = await accepted({ model: "gpt-5.6", input: message("A".repeat(20000)) });
      assert.ok(a.record.usage.total < 50, `an image is not billed as base64 text (${a.record.usage.total})`);
      const b = await accepted({ model: "gpt-5.6", input: message("B".repeat(20000)) });
      assert.equal(b.record.usage.total, a.record.usage.total);
    });

    test("prefix order: tools, then instructions, then input; a long instruction prefix is cached", async () => {
      const body = { model: "gpt-5.6", tools: [fn("search")], instructions: BIG, input: "Topic 3?" };
      const a = await accepted(body);
      assert.equal(a.record.segments, 3);
      assert.equal(a.record.usage.cacheRead, 0);
      const b = await accepted({ ...body, input: "Topic 4?" });
      assert.ok(b.record.usage.cacheRead >= 1024, "tools and instructions are a cached prefix");
      assert.equal(b.json.usage.input_tokens_details.cached_tokens, b.record.usage.cacheRead);
      const c = await accepted({ ...body, tools: [fn("search_web")], input: "Topic 4?" });
      assert.equal(c.record.usage.cacheRead, 0, "tools come first: a new tool list misses the cache");
    });
  });

  test("reset() restarts ids; unknown paths are still 404", async () => {
    await accepted({ model: "gpt-5-mini", input: "Hi" });
    emu.reset();
    const { json } = await accepted({ model: "gpt-5-mini", input: "Hi" });
    assert.equal(json.id, "resp_emu_0001");
    assert.equal(json.output[0].id, "msg_emu_0001");
    const notFound = await fetch(`${emu.url}/embeddings`, { method: "POST", body: "{}" });
    assert.equal(notFound.status, 404);
  });
});
