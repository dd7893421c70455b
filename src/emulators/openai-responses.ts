/**
 * The OpenAI Responses API (`POST /v1/responses`) of the OpenAI emulator, for the real `ChatOpenAI` with
 * `useResponsesApi: true` (or a model that prefers it, such as `gpt-5.6`, or `createAgent({ model: "openai:…" })`,
 * which always uses it). Requests are checked and priced with `openaiResponsesPrompt` against the emulator's
 * per-model prompt caches, shared with its Chat Completions endpoint, as are the script and the request records.
 *
 * Answers follow the openai 7.57.0 types: a `response` object whose `output` holds an assistant `message` item
 * (`output_text` content) when the reply has text and one `function_call` item per tool call; streamed, the
 * documented event sequence (`response.created`, `response.in_progress`, per item `response.output_item.added`,
 * content part / text delta / function-call argument events, `response.output_item.done`, `response.completed`),
 * each event with its `sequence_number`. The emulator is stateless: `previous_response_id` and `conversation`
 * are answered as not found.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallUsage } from "../core/cost/prefix-cache.js";
import { ProviderRequestError, type WireContext } from "../core/cost/wire.js";
import { openaiResponsesPrompt } from "../core/cost/wire-responses.js";
import {
  IdCounter,
  isObject,
  openEventStream,
  pieces,
  readJson,
  newRecord,
  sendJson,
  type EmulatorReply,
  type ModelCaches,
  type RecordedRequest,
  type ScriptCursor,
} from "./common.js";

type Json = Record<string, unknown>;

/** A fixed `created_at` (2026-01-01T00:00:00Z), as the Chat Completions endpoint uses: identical runs, identical bytes. */
const CREATED = 1767225600;

/** What the Responses endpoint shares with the rest of the OpenAI emulator. */
export interface ResponsesEndpointState {
  requests: RecordedRequest[];
  caches: ModelCaches;
  script: ScriptCursor;
  /** The current wire context (replaced on reset). */
  context(): WireContext;
  /** `call_emu_…` ids, shared with Chat Completions tool calls. */
  callIds: IdCounter;
  requestIds: IdCounter;
}

/** The Responses API usage object for an accounted request. */
function usageJson(usage: CallUsage, outputTokens: number) {
  return {
    input_tokens: usage.total,
    input_tokens_details: { cached_tokens: usage.cacheRead, cache_write_tokens: usage.cacheWrite },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.total + outputTokens,
  };
}

/** The `POST /v1/responses` handler and the reset of its own id counters. */
export function responsesEndpoint(state: ResponsesEndpointState): {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  reset(): void;
} {
  const responseIds = new IdCounter("resp_emu_");
  const messageIds = new IdCounter("msg_emu_");
  const functionIds = new IdCounter("fc_emu_");

  const fail = (res: ServerResponse, record: RecordedRequest, status: number, type: string, message: string, param: string | null = null, code: string | null = null) => {
    record.error = { status, type, message };
    state.requests.push(record);
    sendJson(res, status, { error: { message, type, param, code } }, { "x-request-id": state.requestIds.next() });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { body, problem } = await readJson(req);
    const record = newRecord(body, req.headers);
    if (!body) return fail(res, record, 400, "invalid_request_error", problem ?? "Invalid request body");
    // Stateless: nothing is stored, so a referenced response or conversation is never found.
    if (typeof body.previous_response_id === "string")
      return fail(res, record, 400, "invalid_request_error", `Previous response with id '${body.previous_response_id}' not found.`, "previous_response_id", "previous_response_not_found");
    if (body.conversation !== undefined && body.conversation !== null) {
      const id = isObject(body.conversation) ? String(body.conversation.id) : String(body.conversation);
      return fail(res, record, 400, "invalid_request_error", `Conversation with id '${id}' not found (the emulator stores no conversations).`, "conversation", null);
    }

    const ctx = state.context();
    let prompt: ReturnType<typeof openaiResponsesPrompt>;
    try {
      prompt = openaiResponsesPrompt(body, ctx);
    } catch (e) {
      if (e instanceof ProviderRequestError) {
        const { param = null, code = null } = e as ProviderRequestError & { param?: string | null; code?: string | null };
        return fail(res, record, e.status, e.type, e.message, param, code);
      }
      throw e;
    }
    Object.assign(record, { segments: prompt.segments.length, deferred: prompt.deferred, loaded: prompt.loaded, added: prompt.added });

    let reply: EmulatorReply | undefined;
    try {
      reply = state.script.next(body);
    } catch (e) {
      return fail(res, record, 500, "server_error", `Emulator script failed: ${(e as Error).message}`);
    }
    if (!reply) return fail(res, record, 500, "server_error", `Emulator script exhausted: ${state.script.exhausted}`);

    // Only answered requests write the cache, as only those are processed by the provider.
    const model = String(body.model);
    const cache = state.caches.for(model);
    const usage = cache.account(prompt.segments);
    const calls = (reply.toolCalls ?? []).map((call) => ({
      id: functionIds.next(),
      call_id: state.callIds.next(),
      name: call.name,
      arguments: JSON.stringify(call.input ?? {}),
    }));
    const text = typeof reply.text === "string" && (reply.text !== "" || calls.length === 0) ? reply.text : calls.length === 0 ? "" : undefined;
    const outputTokens = ctx.tokens(text ?? "") + calls.reduce((n, c) => n + ctx.tokens(c.arguments), 0);
    Object.assign(record, { usage, billed: usage.billed, profile: cache.profile.name, reply, outputTokens });
    state.requests.push(record);

    const messageId = text !== undefined ? messageIds.next() : undefined;
    const outputText = (t: string) => ({ type: "output_text", annotations: [], logprobs: [], text: t });
    const messageItem = (status: string, content: unknown[]) => ({ id: messageId, type: "message", status, content, role: "assistant" });
    const callItem = (c: (typeof calls)[number], status: string, args: string) => ({
      id: c.id,
      type: "function_call",
      status,
      arguments: args,
      call_id: c.call_id,
      name: c.name,
    });
    const output: Json[] = [
      ...(text !== undefined ? [messageItem("completed", [outputText(text)])] : []),
      ...calls.map((c) => callItem(c, "completed", c.arguments)),
    ];
    const usageBody = usageJson(usage, outputTokens);
    const id = responseIds.next();
    const response = (status: "in_progress" | "completed"): Json => ({
      id,
      object: "response",
      created_at: CREATED,
      status,
      background: false,
      completed_at: status === "completed" ? CREATED : null,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      max_tool_calls: body.max_tool_calls ?? null,
      model,
      output: status === "completed" ? output : [],
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      previous_response_id: null,
      prompt_cache_key: body.prompt_cache_key ?? null,
      reasoning: { effort: null, summary: null },
      safety_identifier: body.safety_identifier ?? null,
      service_tier: "default",
      store: body.store ?? true,
      temperature: body.temperature ?? 1,
      text: { format: { type: "text" }, verbosity: "medium" },
      tool_choice: body.tool_choice ?? "auto",
      tools: body.tools ?? [],
      top_p: body.top_p ?? 1,
      truncation: body.truncation ?? "disabled",
      usage: status === "completed" ? usageBody : null,
      user: body.user ?? null,
      metadata: body.metadata ?? {},
    });
    const headers = { "x-request-id": state.requestIds.next() };
    if (body.stream !== true) return sendJson(res, 200, response("completed"), headers);

    const sse = openEventStream(res, headers);
    let sequence = 0;
    const event = (type: string, data: Json) => sse.send({ type, sequence_number: sequence++, ...data }, type);
    event("response.created", { response: response("in_progress") });
    event("response.in_progress", { response: response("in_progress") });
    let index = 0;
    if (text !== undefined) {
      const ref = { item_id: messageId, output_index: index, content_index: 0 };
      event("response.output_item.added", { output_index: index, item: messageItem("in_progress", []) });
      event("response.content_part.added", { ...ref, part: outputText("") });
      for (const delta of pieces(text)) event("response.output_text.delta", { ...ref, delta, logprobs: [] });
      event("response.output_text.done", { ...ref, text, logprobs: [] });
      event("response.content_part.done", { ...ref, part: outputText(text) });
      event("response.output_item.done", { output_index: index, item: messageItem("completed", [outputText(text)]) });
      index++;
    }
    for (const c of calls) {
      // The item is announced with empty arguments; they follow in pieces.
      event("response.output_item.added", { output_index: index, item: callItem(c, "in_progress", "") });
      for (const delta of pieces(c.arguments)) event("response.function_call_arguments.delta", { item_id: c.id, output_index: index, delta });
      event("response.function_call_arguments.done", { item_id: c.id, output_index: index, arguments: c.arguments });
      event("response.output_item.done", { output_index: index, item: callItem(c, "completed", c.arguments) });
      index++;
    }
    event("response.completed", { response: response("completed") });
    sse.end();
  };

  return {
    handle,
    reset() {
      responseIds.reset();
      messageIds.reset();
      functionIds.reset();
    },
  };
}
