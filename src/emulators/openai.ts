/**
 * A local OpenAI Chat Completions API (`POST /v1/chat/completions`) and Responses API (`POST /v1/responses`,
 * see `openai-responses.ts`) for driving the real `ChatOpenAI` client without a provider. Requests are checked
 * and priced with the wire module (`openaiPrompt`, `openaiResponsesPrompt`) against one automatic prompt cache
 * per model that lives as long as the emulator: `cached_tokens` reports the longest previously seen prefix from
 * 1024 tokens on, in 128-token steps, as the provider does.
 * Answers come from a script, non-streamed or as `chat.completion.chunk` events. Both endpoints share the
 * script, the prompt caches and the request records.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallUsage } from "../core/cost/prefix-cache.js";
import { openaiPrompt, ProviderRequestError, WireContext } from "../core/cost/wire.js";
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
import { responsesEndpoint } from "./openai-responses.js";

export type OpenAIEmulatorOptions = EmulatorOptions;

/** A running OpenAI emulator; `url` ends in `/v1`, the value for ChatOpenAI's `configuration.baseURL`. */
export type OpenAIEmulator = Emulator;

type Json = Record<string, unknown>;

/**
 * A fixed `created` timestamp (2026-01-01T00:00:00Z): replies carry no wall-clock time, so identical runs
 * produce identical responses.
 */
const CREATED = 1767225600;

interface ToolCallJson {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The Chat Completions usage object for an accounted request. */
function usageJson(usage: CallUsage, completionTokens: number) {
  return {
    prompt_tokens: usage.total,
    completion_tokens: completionTokens,
    total_tokens: usage.total + completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** Required top-level fields, with the API's wording. */
function bodyProblem(body: Json): string | undefined {
  if (typeof body.model !== "string" || body.model === "") return "you must provide a model parameter";
  if (body.messages === undefined) return "Missing required parameter: 'messages'.";
  if (!Array.isArray(body.messages)) return "Invalid type for 'messages': expected an array of objects.";
  if (body.messages.length === 0) return "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.";
  for (const [i, m] of body.messages.entries())
    if (!isObject(m) || typeof m.role !== "string") return `Invalid type for 'messages[${i}]': expected an object with a role.`;
  return conversationProblem(body.messages as Json[]);
}

const CHAT_ROLES = ["system", "developer", "user", "assistant", "tool", "function"];

/**
 * The conversation rules of Chat Completions, with the API's wording: a known role; a tool message answers a
 * tool call of the assistant message before it; an assistant message with tool_calls is followed by a tool
 * message for each of its calls before anything else.
 */
function conversationProblem(messages: readonly Json[]): string | undefined {
  let pending: string[] = [];
  for (const [i, m] of messages.entries()) {
    const role = String(m.role);
    if (!CHAT_ROLES.includes(role))
      return `Invalid value: '${role}'. Supported values are: ${CHAT_ROLES.map((r) => `'${r}'`).join(", ")}. (messages[${i}].role)`;
    if (role === "tool") {
      const id = m.tool_call_id;
      if (typeof id !== "string" || !pending.includes(id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${i}])`;
      pending = pending.filter((p) => p !== id);
      continue;
    }
    if (pending.length > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(", ")} (messages[${i}])`;
    if (role === "assistant" && Array.isArray(m.tool_calls)) pending = m.tool_calls.map((c) => String((c as Json)?.id ?? ""));
  }
  if (pending.length > 0)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(", ")}`;
  return undefined;
}

/** Starts an OpenAI emulator (Chat Completions and Responses) on 127.0.0.1 (ephemeral port). */
export async function startOpenAIEmulator(options: OpenAIEmulatorOptions = {}): Promise<OpenAIEmulator> {
  const requests: RecordedRequest[] = [];
  let ctx = new WireContext(options.encoding);
  const caches = new ModelCaches("openai", options.profile);
  const script = new ScriptCursor(options.script);
  const completionIds = new IdCounter("chatcmpl-emu-");
  const callIds = new IdCounter("call_emu_");
  const requestIds = new IdCounter("req_emu_");
  const responses = responsesEndpoint({ requests, caches, script, context: () => ctx, callIds, requestIds });

  const fail = (res: ServerResponse, record: RecordedRequest | undefined, status: number, type: string, message: string) => {
    if (record) {
      record.error = { status, type, message };
      requests.push(record);
    }
    sendJson(res, status, { error: { message, type, param: null, code: null } }, { "x-request-id": requestIds.next() });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === "POST" && pathOf(req) === "/v1/responses") return responses.handle(req, res);
    if (req.method !== "POST" || pathOf(req) !== "/v1/chat/completions") {
      req.resume();
      return fail(res, undefined, 404, "invalid_request_error", `Invalid URL (${req.method} ${pathOf(req)})`);
    }
    const { body, problem } = await readJson(req);
    const record = newRecord(body, req.headers);
    if (!body) return fail(res, record, 400, "invalid_request_error", problem ?? "Invalid request body");
    const missing = bodyProblem(body);
    if (missing) return fail(res, record, 400, "invalid_request_error", missing);

    let prompt: ReturnType<typeof openaiPrompt>;
    try {
      prompt = openaiPrompt(body, ctx);
    } catch (e) {
      if (e instanceof ProviderRequestError) return fail(res, record, e.status, e.type, e.message);
      throw e;
    }
    Object.assign(record, { segments: prompt.segments.length, loaded: prompt.tools });

    let reply: EmulatorReply | undefined;
    try {
      reply = script.next(body);
    } catch (e) {
      return fail(res, record, 500, "server_error", `Emulator script failed: ${(e as Error).message}`);
    }
    if (!reply) return fail(res, record, 500, "server_error", `Emulator script exhausted: ${script.exhausted}`);

    // Only answered requests write the cache, as only those are processed by the provider.
    const cache = caches.for(String(body.model));
    const usage = cache.account(prompt.segments);
    const text = reply.text ?? (reply.toolCalls?.length ? null : "");
    const toolCalls: ToolCallJson[] = (reply.toolCalls ?? []).map((call) => ({
      id: callIds.next(),
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
    }));
    const outputTokens = ctx.tokens(text ?? "") + toolCalls.reduce((n, c) => n + ctx.tokens(c.function.arguments), 0);
    Object.assign(record, { usage, billed: usage.billed, profile: cache.profile.name, reply, outputTokens });
    requests.push(record);

    const id = completionIds.next();
    const finishReason = toolCalls.length > 0 ? "tool_calls" : "stop";
    const usageBody = usageJson(usage, outputTokens);
    const headers = { "x-request-id": requestIds.next() };
    if (body.stream !== true)
      return sendJson(
        res,
        200,
        {
          id,
          object: "chat.completion",
          created: CREATED,
          model: body.model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: text,
                refusal: null,
                annotations: [],
                ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
              },
              logprobs: null,
              finish_reason: finishReason,
            },
          ],
          usage: usageBody,
          service_tier: "default",
          system_fingerprint: null,
        },
        headers,
      );

    const includeUsage = isObject(body.stream_options) && body.stream_options.include_usage === true;
    const sse = openEventStream(res, headers);
    // With include_usage every chunk carries `usage: null` and a last chunk with no choices carries the usage.
    const chunk = (choices: unknown[], extra: Json = {}) =>
      sse.send({
        id,
        object: "chat.completion.chunk",
        created: CREATED,
        model: body.model,
        service_tier: "default",
        system_fingerprint: null,
        choices,
        ...(includeUsage ? { usage: null } : {}),
        ...extra,
      });
    const delta = (d: Json, finish: string | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
    delta({ role: "assistant", content: text === null ? null : "", refusal: null });
    for (const piece of pieces(text ?? "")) delta({ content: piece });
    toolCalls.forEach((call, index) => {
      // The first delta of a call names it with empty arguments; the arguments follow in pieces.
      delta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] });
      for (const args of pieces(call.function.arguments)) delta({ tool_calls: [{ index, function: { arguments: args } }] });
    });
    delta({}, finishReason);
    if (includeUsage) chunk([], { usage: usageBody });
    sse.send("[DONE]");
    sse.end();
  };

  const { server, origin } = await listen(handle);
  return {
    url: `${origin}/v1`,
    requests,
    reset() {
      requests.length = 0;
      caches.clear();
      // The cache holds hashes of segment ids, so the id interner starts over with it, as in a new emulator.
      ctx = new WireContext(options.encoding);
      script.rewind();
      completionIds.reset();
      callIds.reset();
      requestIds.reset();
      responses.reset();
    },
    close: closer(server),
  };
}
