/**
 * Provider request bodies → prompt segments, in each provider's prefix order (tools → system → messages), with
 * the checks the real APIs make that matter for tool delivery. The provider emulators price what the real
 * LangChain clients send with these functions, and the conversation-cost replay prices its requests with the
 * same ones, so both count a request the same way.
 *
 * Tokens are counted on the serialized parts with js-tiktoken (cl100k_base by default): a tool definition as
 * the JSON of its name, description and schema, text blocks as their text, tool calls as the JSON of their name
 * and input. Providers' own tokenizers differ by a few percent; the cache arithmetic does not depend on it.
 */
import { countTokens, type TokenEncoding } from "../tokens/count.js";
import { SegmentInterner, type PromptSegment } from "./prefix-cache.js";

/** A request the real API would reject (HTTP 400), with the provider's error type and a message naming the part. */
export class ProviderRequestError extends Error {
  readonly status = 400;
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** Shared state for turning bodies into segments: the interner and memoized token counts. */
export class WireContext {
  readonly interner = new SegmentInterner();
  private readonly counts = new Map<string, number>();
  private readonly memo = new WeakMap<object, { key: string; tokens: number }>();
  constructor(readonly encoding: TokenEncoding = "cl100k_base") {}

  tokens(text: string): number {
    let n = this.counts.get(text);
    if (n === undefined) {
      n = countTokens(text, this.encoding);
      this.counts.set(text, n);
    }
    return n;
  }

  /** Key and token count of an object's serialized part, memoized on the object (bodies reuse tool objects). */
  part(obj: object, serialize: () => { key: string; text: string }): { key: string; tokens: number } {
    let hit = this.memo.get(obj);
    if (!hit) {
      const { key, text } = serialize();
      hit = { key, tokens: this.tokens(text) };
      this.memo.set(obj, hit);
    }
    return hit;
  }

  segment(key: string, tokens: number, breakpoint?: boolean): PromptSegment {
    return { id: this.interner.idOf(key), tokens, ...(breakpoint ? { breakpoint: true } : {}) };
  }
}

const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** Plain text of a block list or string (text blocks only). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (isObj(b) && typeof b.text === "string" ? b.text : "")).join("\n");
}

// ---------------------------------------------------------------------------------------------------------
// Anthropic Messages API
// ---------------------------------------------------------------------------------------------------------

/** The segments of an Anthropic request, and which tools it declared deferred. */
export interface AnthropicPrompt {
  segments: PromptSegment[];
  /** Names of tools declared with `defer_loading: true`. */
  deferred: string[];
  /** Names of tools rendered in the prefix (not deferred). */
  loaded: string[];
  /** Tools made available mid-conversation (`tool_addition` blocks and `tool_reference` results), in order. */
  added: string[];
}

function anthropicToolDef(tool: Json): string {
  return JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.input_schema });
}

/**
 * Segments of an Anthropic Messages request. Throws `ProviderRequestError` for what the API rejects here:
 * malformed tools, duplicate names, more than 4 breakpoints, every tool deferred, and `tool_reference` /
 * `tool_addition` blocks naming a tool the request does not declare (or, for additions, does not defer).
 */
export function anthropicPrompt(body: Json, ctx: WireContext): AnthropicPrompt {
  const segments: PromptSegment[] = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const byName = new Map<string, Json>();
  const deferred: string[] = [];
  const loaded: string[] = [];
  let breakpoints = 0;
  tools.forEach((tool, i) => {
    if (!isObj(tool)) throw new ProviderRequestError("invalid_request_error", `tools.${i}: expected an object`);
    const name = tool.name;
    if (typeof name !== "string" || !ANTHROPIC_NAME.test(name))
      throw new ProviderRequestError("invalid_request_error", `tools.${i}.name: ${JSON.stringify(name)} does not match ${ANTHROPIC_NAME}`);
    if (byName.has(name)) throw new ProviderRequestError("invalid_request_error", `tools: tool names must be unique ("${name}")`);
    byName.set(name, tool);
    const custom = tool.type === undefined || tool.type === "custom";
    if (custom) {
      const schema = tool.input_schema;
      if (!isObj(schema) || schema.type !== "object")
        throw new ProviderRequestError("invalid_request_error", `tools.${i}.input_schema: tool "${name}" needs a JSON schema with type "object"`);
    }
    if (tool.cache_control) breakpoints++;
    if (tool.defer_loading === true) {
      deferred.push(name);
      return;
    }
    loaded.push(name);
    const part = ctx.part(tool, () => {
      const text = custom ? anthropicToolDef(tool) : JSON.stringify({ type: tool.type, name });
      return { key: `tool\0${text}`, text };
    });
    segments.push(ctx.segment(part.key, part.tokens, !!tool.cache_control));
  });
  if (tools.length > 0 && loaded.length === 0)
    throw new ProviderRequestError("invalid_request_error", "tools: at least one tool must not have defer_loading set (every tool is deferred)");

  const system = body.system;
  const systemBlocks = typeof system === "string" ? (system ? [{ type: "text", text: system }] : []) : Array.isArray(system) ? system : [];
  for (const block of systemBlocks) {
    if (!isObj(block)) continue;
    if (block.cache_control) breakpoints++;
    const text = String(block.text ?? "");
    segments.push(ctx.segment(`system\0${text}`, ctx.tokens(text), !!block.cache_control));
  }

  const added: string[] = [];
  const available = (name: unknown, where: string, mustDefer: boolean) => {
    const tool = typeof name === "string" ? byName.get(name) : undefined;
    if (!tool)
      throw new ProviderRequestError("invalid_request_error", `${where}: tool "${String(name)}" is referenced but not declared in tools`);
    if (mustDefer && tool.defer_loading !== true)
      throw new ProviderRequestError("invalid_request_error", `${where}: tool "${String(name)}" is added mid-conversation but not declared with defer_loading`);
    return tool;
  };
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((message, mi) => {
    if (!isObj(message)) throw new ProviderRequestError("invalid_request_error", `messages.${mi}: expected an object`);
    const role = String(message.role);
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : Array.isArray(message.content) ? message.content : [];
    blocks.forEach((block, bi) => {
      if (!isObj(block)) return;
      const where = `messages.${mi}.content.${bi}`;
      // A breakpoint on a tool result's last content block marks the end of that result.
      const nested = block.type === "tool_result" && Array.isArray(block.content) && block.content.some((c) => isObj(c) && !!c.cache_control);
      const breakpoint = !!block.cache_control || nested;
      if (breakpoint) breakpoints++;
      let key: string;
      let tokens: number;
      if (block.type === "text") {
        const text = String(block.text ?? "");
        key = `${role}\0text\0${text}`;
        tokens = ctx.tokens(text);
      } else if (block.type === "tool_use") {
        const text = JSON.stringify({ name: block.name, input: block.input ?? {} });
        key = `${role}\0tool_use\0${String(block.id)}\0${text}`;
        tokens = ctx.tokens(text);
      } else if (block.type === "tool_result") {
        const content = block.content;
        let text = textOf(content);
        if (Array.isArray(content))
          for (const c of content)
            if (isObj(c) && c.type === "tool_reference") {
              const tool = available(c.tool_name, `${where}.tool_reference`, false);
              added.push(String(c.tool_name));
              text += `\n${anthropicToolDef(tool)}`;
            }
        key = `${role}\0tool_result\0${String(block.tool_use_id)}\0${block.is_error ? "error\0" : ""}${text}`;
        tokens = ctx.tokens(text);
      } else if (block.type === "tool_search_tool_result") {
        // Server-side tool search, inside the assistant's turn: its references expand to the found tools'
        // definitions where the result sits (tools declared deferred), as a client tool_reference does.
        const content = isObj(block.content) ? block.content : {};
        const refs = Array.isArray(content.tool_references) ? content.tool_references : [];
        let text = `tool_search_tool_result ${String(block.tool_use_id)}`;
        for (const r of refs)
          if (isObj(r)) {
            const tool = available(r.tool_name, `${where}.tool_references`, false);
            added.push(String(r.tool_name));
            text += `\n${anthropicToolDef(tool)}`;
          }
        key = `${role}\0tool_search_tool_result\0${text}`;
        tokens = ctx.tokens(text);
      } else if (block.type === "tool_addition" || block.type === "tool_removal") {
        const ref = isObj(block.tool) ? block.tool : {};
        const tool = available(ref.name, `${where}.${block.type}`, block.type === "tool_addition");
        // An added tool's definition is rendered where it is added (inside the conversation, after the cached prefix).
        const text = block.type === "tool_addition" ? anthropicToolDef(tool) : String(ref.name);
        if (block.type === "tool_addition") added.push(String(ref.name));
        key = `${role}\0${block.type}\0${text}`;
        tokens = ctx.tokens(text);
      } else {
        // The breakpoint marker is not content: moving it must not change the block's identity.
        const { cache_control: _marker, ...rest } = block;
        const text = JSON.stringify(rest);
        key = `${role}\0${text}`;
        tokens = ctx.tokens(text);
      }
      segments.push(ctx.segment(key, tokens, breakpoint));
    });
  });
  if (breakpoints > 4)
    throw new ProviderRequestError("invalid_request_error", `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
  return { segments, deferred, loaded, added };
}

// ---------------------------------------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------------------------------------

/** Segments of an OpenAI Chat Completions request. Throws `ProviderRequestError` for malformed tools. */
export function openaiPrompt(body: Json, ctx: WireContext): { segments: PromptSegment[]; tools: string[] } {
  const segments: PromptSegment[] = [];
  const names: string[] = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  tools.forEach((tool, i) => {
    const fn = isObj(tool) && tool.type === "function" && isObj(tool.function) ? tool.function : undefined;
    if (!fn) throw new ProviderRequestError("invalid_request_error", `tools[${i}]: expected {"type":"function","function":{...}}`);
    const name = fn.name;
    if (typeof name !== "string" || !OPENAI_NAME.test(name))
      throw new ProviderRequestError("invalid_request_error", `tools[${i}].function.name: ${JSON.stringify(name)} does not match ${OPENAI_NAME}`);
    if (names.includes(name)) throw new ProviderRequestError("invalid_request_error", `tools: duplicate function name "${name}"`);
    if (fn.parameters !== undefined && (!isObj(fn.parameters) || (fn.parameters.type !== undefined && fn.parameters.type !== "object")))
      throw new ProviderRequestError("invalid_request_error", `tools[${i}].function.parameters: "${name}" needs an object schema`);
    names.push(name);
    const part = ctx.part(tool, () => {
      const text = JSON.stringify({ name, description: fn.description, parameters: fn.parameters });
      return { key: `fn\0${text}`, text };
    });
    segments.push(ctx.segment(part.key, part.tokens));
  });
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m, i) => {
    if (!isObj(m)) throw new ProviderRequestError("invalid_request_error", `messages[${i}]: expected an object`);
    const part = ctx.part(m, () => {
      const calls = Array.isArray(m.tool_calls)
        ? m.tool_calls.map((c) => (isObj(c) && isObj(c.function) ? { name: c.function.name, arguments: c.function.arguments } : c))
        : undefined;
      const text = `${textOf(m.content)}${calls ? JSON.stringify(calls) : ""}`;
      return { key: `${String(m.role)}\0${String(m.tool_call_id ?? "")}\0${text}`, text };
    });
    segments.push(ctx.segment(part.key, part.tokens));
  });
  return { segments, tools: names };
}
