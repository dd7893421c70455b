/**
 * A local Anthropic Messages API (`POST /v1/messages`) for driving the real `ChatAnthropic` client without a
 * provider. Requests are first held to the API's model- and header-dependent rules (`anthropicRequestProblem`:
 * mid-conversation system messages and tool changes, deferred tools, tool references, cache breakpoints), then
 * checked and priced with the wire module (`anthropicPrompt`) against one prompt cache per model that lives as
 * long as the emulator, so cache writes and reads across a conversation behave as the provider's do: `usage`
 * reports uncached, cache-written and cache-read input tokens separately, exactly as the real API splits them.
 * Answers come from a script, non-streamed or as the real event stream.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallUsage } from "../core/cost/prefix-cache.js";
import { anthropicPrompt, ProviderRequestError, WireContext } from "../core/cost/wire.js";
import { anthropicRequestProblem } from "./anthropic-rules.js";
import {
  closer,
  ModelCaches,
  IdCounter,
  isObject,
  listen,
  openEventStream,
  pathOf,
  pieces,
  readJson,
  newRecord,
  ScriptCursor,
  sendJson,
  type Emulator,
  type EmulatorOptions,
  type EmulatorReply,
  type RecordedRequest,
} from "./common.js";

export type AnthropicEmulatorOptions = EmulatorOptions;

/** A running Anthropic emulator; `url` is the value for ChatAnthropic's `anthropicApiUrl`. */
export type AnthropicEmulator = Emulator;

type Json = Record<string, unknown>;

/** A content block of the reply, in the Messages API response shape. */
type ReplyBlock = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Json };

/** The Messages API usage object for an accounted request. */
function usageJson(usage: CallUsage, outputTokens: number) {
  return {
    input_tokens: usage.uncached,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    // 5-minute writes: the profile prices writes at the 5-minute premium.
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheWrite, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: "standard",
  };
}

/** Required top-level fields, checked in the API's order with its wording. */
function bodyProblem(body: Json): string | undefined {
  if (typeof body.model !== "string" || body.model === "") return "model: Field required";
  if (body.max_tokens === undefined) return "max_tokens: Field required";
  if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return "max_tokens: Input should be a valid integer greater than or equal to 1";
  if (body.messages === undefined) return "messages: Field required";
  if (!Array.isArray(body.messages)) return "messages: Input should be a valid list";
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m)) return `messages.${i}: Input should be a valid dictionary`;
    // "system" is a valid role (mid-conversation system messages); which models accept it, and where, is up to
    // anthropicRequestProblem.
    if (m.role !== "user" && m.role !== "assistant" && m.role !== "system")
      return `messages.${i}.role: Input should be 'user', 'assistant' or 'system'`;
  }
  return undefined;
}

/** Starts an Anthropic Messages API emulator on 127.0.0.1 (ephemeral port). */
export async function startAnthropicEmulator(options: AnthropicEmulatorOptions = {}): Promise<AnthropicEmulator> {
  const requests: RecordedRequest[] = [];
  let ctx = new WireContext(options.encoding);
  const caches = new ModelCaches("anthropic", options.profile);
  const script = new ScriptCursor(options.script);
  const messageIds = new IdCounter("msg_emu_");
  const toolIds = new IdCounter("toolu_emu_");
  const requestIds = new IdCounter("req_emu_");

  const fail = (res: ServerResponse, record: RecordedRequest | undefined, status: number, type: string, message: string) => {
    if (record) {
      record.error = { status, type, message };
      requests.push(record);
    }
    sendJson(res, status, { type: "error", error: { type, message } }, { "request-id": requestIds.next() });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "POST" || pathOf(req) !== "/v1/messages") {
      req.resume();
      return fail(res, undefined, 404, "not_found_error", `Not found: ${req.method} ${pathOf(req)}`);
    }
    const { body, problem } = await readJson(req);
    const record = newRecord(body, req.headers);
    if (!body) return fail(res, record, 400, "invalid_request_error", problem ?? "Invalid request body");
    const missing = bodyProblem(body);
    if (missing) return fail(res, record, 400, "invalid_request_error", missing);
    // Before pricing: a request the real API refuses is not billed, and the rules word the refusal as the API does.
    const refused = anthropicRequestProblem(body, record.headers);
    if (refused) return fail(res, record, 400, "invalid_request_error", refused);

    let prompt: ReturnType<typeof anthropicPrompt>;
    try {
      prompt = anthropicPrompt(body, ctx);
    } catch (e) {
      if (e instanceof ProviderRequestError) return fail(res, record, e.status, e.type, e.message);
      throw e;
    }
    Object.assign(record, { segments: prompt.segments.length, deferred: prompt.deferred, loaded: prompt.loaded, added: prompt.added });

    let reply: EmulatorReply | undefined;
    try {
      reply = script.next(body);
    } catch (e) {
      return fail(res, record, 500, "api_error", `Emulator script failed: ${(e as Error).message}`);
    }
    if (!reply) return fail(res, record, 500, "api_error", `Emulator script exhausted: ${script.exhausted}`);

    // The cache is written only for requests that are answered, as the provider bills only those.
    const cache = caches.for(String(body.model));
    const usage = cache.account(prompt.segments);
    const calls = reply.toolCalls ?? [];
    const blocks: ReplyBlock[] = [];
    if (reply.text !== undefined ? reply.text !== "" : calls.length === 0) blocks.push({ type: "text", text: reply.text ?? "" });
    for (const call of calls) blocks.push({ type: "tool_use", id: toolIds.next(), name: call.name, input: call.input ?? {} });
    const outputTokens = blocks.reduce((n, b) => n + ctx.tokens(b.type === "text" ? b.text : JSON.stringify(b.input)), 0);
    Object.assign(record, { usage, billed: usage.billed, profile: cache.profile.name, reply, outputTokens });
    requests.push(record);

    const message = {
      id: messageIds.next(),
      type: "message",
      role: "assistant",
      model: body.model,
      content: blocks,
      stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: usageJson(usage, outputTokens),
    };
    const headers = { "request-id": requestIds.next() };
    if (body.stream !== true) return sendJson(res, 200, message, headers);
    streamMessage(res, message, headers);
  };

  const { server, origin } = await listen(handle);
  return {
    url: origin,
    requests,
    reset() {
      requests.length = 0;
      caches.clear();
      // The cache holds hashes of segment ids, so the id interner starts over with it, as in a new emulator.
      ctx = new WireContext(options.encoding);
      script.rewind();
      messageIds.reset();
      toolIds.reset();
      requestIds.reset();
    },
    close: closer(server),
  };
}

/**
 * Writes a message as the Messages API event stream: message_start (with the input usage and an empty
 * content list), a ping, content_block_start / delta / stop per block (`text_delta` for text, `input_json_delta`
 * with the input JSON in pieces for tool_use), message_delta with the stop reason and output tokens, and
 * message_stop.
 */
function streamMessage(
  res: ServerResponse,
  message: { content: ReplyBlock[]; stop_reason: string; usage: ReturnType<typeof usageJson> } & Json,
  headers: Record<string, string>,
): void {
  const sse = openEventStream(res, headers);
  const send = (data: Json) => sse.send(data, String(data.type));
  // message_start carries output_tokens 0: message_delta reports the cumulative count, and clients that add up
  // usage across chunks (LangChain) would otherwise count output twice.
  send({ type: "message_start", message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 0 } } });
  send({ type: "ping" });
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      send({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const text of pieces(block.text)) send({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
    } else {
      send({ type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      // The API opens with an empty partial_json before the input arrives.
      send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } });
      for (const partial_json of pieces(JSON.stringify(block.input)))
        send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
    }
    send({ type: "content_block_stop", index });
  });
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens } = message.usage;
  send({
    type: "message_delta",
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens },
  });
  send({ type: "message_stop" });
  sse.end();
}
