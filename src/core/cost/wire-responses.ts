/**
 * OpenAI Responses API request bodies (`POST /v1/responses`) → prompt segments, in prefix order: tools, then
 * `instructions`, then the input items, with the checks the real API makes on the parts that matter for tool
 * delivery. Companion of `openaiPrompt` (Chat Completions) in `wire.ts`; same token counting, same `WireContext`.
 *
 * Tool billing follows the tool-search guide (developers.openai.com/api/docs/guides/tools-tool-search): a
 * deferred function outside a namespace still shows its name and description ("in practice tool search is
 * mostly deferring the parameter schema"); a namespace shows only its own name and description until tool
 * search loads its deferred functions, which then arrive in `tool_search_output` items at the end of the
 * context (billed where those items sit). `additional_tools` items are billed where they sit as well.
 *
 * Rejections throw `ProviderRequestError` with two extra properties, `param` and `code`, for the API's error
 * object; the message wording follows the API's where it is known (see the emulator's report for sources).
 */
import type { PromptSegment } from "./prefix-cache.js";
import { ProviderRequestError, type WireContext } from "./wire.js";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

const NAME = /^[a-zA-Z0-9_-]+$/;
const NAME_MAX = 64;

/** Input item types of the Responses API (openai 7.57.0 `ResponseInputItem`). */
const INPUT_TYPES = [
  "additional_tools",
  "apply_patch_call",
  "apply_patch_call_output",
  "code_interpreter_call",
  "compaction",
  "compaction_trigger",
  "computer_call",
  "computer_call_output",
  "configuration_update",
  "custom_tool_call",
  "custom_tool_call_output",
  "file_search_call",
  "function_call",
  "function_call_output",
  "image_generation_call",
  "item_reference",
  "local_shell_call",
  "local_shell_call_output",
  "mcp_approval_request",
  "mcp_approval_response",
  "mcp_call",
  "mcp_list_tools",
  "message",
  "program",
  "program_output",
  "reasoning",
  "shell_call",
  "shell_call_output",
  "tool_search_call",
  "tool_search_output",
  "web_search_call",
];
/** The input item types priced and checked here; the others are valid for the API but not modelled. */
const MODELLED_INPUT = new Set(["message", "function_call", "function_call_output", "reasoning", "additional_tools", "tool_search_call", "tool_search_output"]);

/** Tool types of the Responses API (openai 7.57.0 `Tool`). */
const TOOL_TYPES = [
  "apply_patch",
  "code_interpreter",
  "computer",
  "computer_use_preview",
  "custom",
  "file_search",
  "function",
  "image_generation",
  "local_shell",
  "mcp",
  "namespace",
  "programmatic_tool_calling",
  "shell",
  "tool_search",
  "web_search",
  "web_search_2025_08_26",
  "web_search_preview",
  "web_search_preview_2025_03_11",
];
const MODELLED_TOOLS = new Set(["function", "namespace", "tool_search"]);

const ROLES = ["assistant", "system", "developer", "user"];
const USER_PARTS = ["input_text", "input_image", "input_file"];
const ASSISTANT_PARTS = ["output_text", "refusal"];

function reject(message: string, param: string | null, code: string | null): never {
  throw Object.assign(new ProviderRequestError("invalid_request_error", message), { param, code });
}

/** The API's enumeration wording: 'a', 'b', and 'c'. */
function supported(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  if (quoted.length <= 2) return quoted.join(" and ");
  return `${quoted.slice(0, -1).join(", ")}, and ${quoted.at(-1)}`;
}

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a decimal";
  if (typeof v === "boolean") return "a boolean";
  return typeof v;
}

const missing = (param: string): never => reject(`Missing required parameter: '${param}'.`, param, "missing_required_parameter");
const badType = (param: string, expected: string, got: unknown): never =>
  reject(`Invalid type for '${param}': expected ${expected}, but got ${kind(got)} instead.`, param, "invalid_type");
const badValue = (param: string, value: unknown, values: readonly string[]): never =>
  reject(`Invalid value: '${String(value)}'. Supported values are: ${supported(values)}.`, param, "invalid_value");

/**
 * Whether a model has tool search (`tool_search`, and with it `defer_loading`): "Only gpt-5.4 and later models
 * support tool_search" (tool-search guide); gpt-5.4-nano answers "Tool 'tool_search' is not supported with
 * gpt-5.4-nano." (live probe, Oaklight/llm-rosetta#394).
 */
function hasToolSearch(model: string): boolean {
  const m = /(?:^|[/:])gpt-(\d+)(?:\.(\d+))?/i.exec(model);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = Number(m[2] ?? 0);
  if (/gpt-5\.4-nano/i.test(model)) return false;
  return major > 5 || (major === 5 && minor >= 4);
}

/**
 * A content list's billed text and identity key. Text, output text and refusal parts count as their text; other
 * parts (images, files) as a short placeholder (their pixels or bytes are not text tokens), while their full JSON
 * stays in the key so that a different image is a different segment.
 */
function contentOf(value: unknown): { key: string; text: string } {
  if (typeof value === "string") return { key: value, text: value };
  if (!Array.isArray(value)) return { key: "", text: "" };
  const keys: string[] = [];
  const texts: string[] = [];
  for (const p of value) {
    if (!isObj(p)) continue;
    const t = typeof p.text === "string" ? p.text : typeof p.refusal === "string" ? p.refusal : undefined;
    if (t !== undefined) {
      keys.push(t);
      texts.push(t);
      continue;
    }
    // The breakpoint marker is not content: moving it must not change the part's identity.
    const { prompt_cache_breakpoint: _marker, ...rest } = p;
    keys.push(JSON.stringify(rest));
    texts.push(`[${String(p.type)}]`);
  }
  return { key: keys.join("\n"), text: texts.join("\n") };
}

interface ToolScan {
  /** Deferred function names (`ns.name` inside a namespace). */
  deferred: string[];
  /** Function names rendered in full. */
  loaded: string[];
  /** Whether a `tool_search` tool is present. */
  toolSearch: boolean;
  /** Where the first deferred function is declared (for the error). */
  firstDeferred?: string;
  segments: PromptSegment[];
}

/**
 * Checks and prices a tool list. `mode` "declared": the request's `tools` or an `additional_tools` item
 * (deferral honoured); "loaded": a `tool_search_output` item (everything in it is loaded, billed in full).
 */
function scanTools(tools: unknown[], where: string, mode: "declared" | "loaded", ctx: WireContext): ToolScan {
  const names = new Set<string>();
  const scan: ToolScan = { deferred: [], loaded: [], toolSearch: false, segments: [] };
  const push = (key: string, text: string) => scan.segments.push(ctx.segment(`tool\0${key}\0${text}`, ctx.tokens(text)));
  const fn = (tool: Json, param: string, ns?: string) => {
    const name = tool.name;
    if (name === undefined) missing(`${param}.name`);
    if (typeof name !== "string") return badType(`${param}.name`, "a string", name);
    if (name.length > NAME_MAX)
      reject(
        `Invalid '${param}.name': string too long. Expected a string with maximum length ${NAME_MAX}, but got a string with length ${name.length} instead.`,
        `${param}.name`,
        "string_above_max_length",
      );
    if (!NAME.test(name))
      reject(`Invalid '${param}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${param}.name`, "invalid_value");
    if (!("parameters" in tool)) missing(`${param}.parameters`);
    const params = tool.parameters;
    if (params !== null && !isObj(params)) badType(`${param}.parameters`, "an object", params);
    if (isObj(params) && params.type !== undefined && params.type !== "object")
      reject(
        `Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(params.type)}"'.`,
        `${param}.parameters`,
        "invalid_function_parameters",
      );
    if (tool.strict !== undefined && tool.strict !== null && typeof tool.strict !== "boolean") badType(`${param}.strict`, "a boolean", tool.strict);
    if (tool.description !== undefined && tool.description !== null && typeof tool.description !== "string")
      badType(`${param}.description`, "a string", tool.description);
    if (tool.defer_loading !== undefined && typeof tool.defer_loading !== "boolean") badType(`${param}.defer_loading`, "a boolean", tool.defer_loading);
    const full = ns ? `${ns}.${name}` : name;
    if (names.has(full)) reject(`Duplicate tool name: '${full}'. Tool names must be unique.`, param, "invalid_value");
    names.add(full);
    const deferred = mode === "declared" && tool.defer_loading === true;
    if (deferred) {
      scan.deferred.push(full);
      scan.firstDeferred ??= `${param}.defer_loading`;
      // A deferred function outside a namespace still shows its name and description; inside one, nothing.
      if (!ns) push(`deferred\0${full}`, JSON.stringify({ name, description: tool.description ?? undefined }));
      return;
    }
    scan.loaded.push(full);
    push(`fn\0${full}`, JSON.stringify({ name, description: tool.description ?? undefined, parameters: params ?? undefined }));
  };

  tools.forEach((tool, i) => {
    const param = `${where}[${i}]`;
    if (!isObj(tool)) return badType(param, "an object", tool);
    const type = tool.type;
    if (type === undefined) missing(`${param}.type`);
    if (typeof type !== "string" || !TOOL_TYPES.includes(type)) return badValue(`${param}.type`, type, TOOL_TYPES);
    if (!MODELLED_TOOLS.has(type))
      reject(`The emulator does not model tools of type '${type}' (${param}); only 'function', 'namespace' and 'tool_search' are supported.`, `${param}.type`, null);
    if (type === "function") return fn(tool, param);
    if (type === "tool_search") {
      if (tool.execution !== undefined && tool.execution !== "server" && tool.execution !== "client")
        badValue(`${param}.execution`, tool.execution, ["server", "client"]);
      if (mode === "declared") scan.toolSearch = true;
      push("tool_search", JSON.stringify({ type, execution: tool.execution ?? "server", description: tool.description ?? undefined, parameters: tool.parameters ?? undefined }));
      return;
    }
    // namespace
    const name = tool.name;
    if (name === undefined) missing(`${param}.name`);
    if (typeof name !== "string") return badType(`${param}.name`, "a string", name);
    if (!NAME.test(name) || name.length > NAME_MAX)
      reject(`Invalid '${param}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${param}.name`, "invalid_value");
    if (mode === "declared" && tool.description === undefined) missing(`${param}.description`);
    if (tool.description !== undefined && typeof tool.description !== "string") badType(`${param}.description`, "a string", tool.description);
    // "For namespaces, defer_loading applies to the functions inside the namespace, not to the namespace object itself."
    if ("defer_loading" in tool && mode === "declared")
      reject(
        `Unknown parameter: '${param}.defer_loading'. For namespaces, defer_loading applies to the functions inside the namespace, not to the namespace object itself.`,
        `${param}.defer_loading`,
        "unknown_parameter",
      );
    if (tool.tools === undefined) missing(`${param}.tools`);
    if (!Array.isArray(tool.tools)) return badType(`${param}.tools`, "an array", tool.tools);
    push(`namespace\0${name}`, JSON.stringify({ namespace: name, description: tool.description }));
    tool.tools.forEach((inner, j) => {
      const p = `${param}.tools[${j}]`;
      if (!isObj(inner)) return badType(p, "an object", inner);
      if (inner.type === undefined) missing(`${p}.type`);
      if (inner.type !== "function" && inner.type !== "custom") return badValue(`${p}.type`, inner.type, ["function", "custom"]);
      if (inner.type === "custom") reject(`The emulator does not model tools of type 'custom' (${p}).`, `${p}.type`, null);
      fn(inner, p, name);
    });
  });
  return scan;
}

/**
 * Segments of an OpenAI Responses request, in prefix order (tools → instructions → input items), with the tool
 * names it declared deferred, rendered in full, and made available in the conversation (`tool_search_output`
 * and `additional_tools` items). Throws `ProviderRequestError` (with `param` and `code`) for what the API rejects.
 */
export function openaiResponsesPrompt(
  body: Json,
  ctx: WireContext,
): { segments: PromptSegment[]; deferred: string[]; loaded: string[]; added: string[] } {
  const model = body.model;
  if (model === undefined || model === null || model === "") missing("model");
  if (typeof model !== "string") return badType("model", "a string", model);

  // Tools come first in the prompt prefix.
  const tools = body.tools ?? [];
  if (!Array.isArray(tools)) return badType("tools", "an array", tools);
  const declared = scanTools(tools, "tools", "declared", ctx);
  const segments = [...declared.segments];
  if (!hasToolSearch(model)) {
    if (declared.toolSearch) reject(`Tool 'tool_search' is not supported with ${model}.`, "tools", null);
    if (declared.firstDeferred)
      reject(
        `Invalid value: '${declared.firstDeferred}'. Deferred loading needs tool search, and tool search is only supported on gpt-5.4 and later models; ${model} does not support it.`,
        declared.firstDeferred,
        "invalid_value",
      );
  }
  if (declared.deferred.length > 0 && !declared.toolSearch)
    reject("Invalid Value: 'tools.defer_loading'. Deferred tools require tools.tool_search.", "tools", "invalid_value");
  if (declared.toolSearch && declared.deferred.length === 0)
    reject("Invalid Value: 'tools.tool_search'. tools.tool_search requires at least one deferred tool.", "tools", "invalid_value");

  const instructions = body.instructions;
  if (instructions !== undefined && instructions !== null) {
    if (typeof instructions !== "string") return badType("instructions", "a string", instructions);
    if (instructions) segments.push(ctx.segment(`instructions\0${instructions}`, ctx.tokens(instructions)));
  }

  const input = body.input;
  if (input === undefined || input === null) missing("input");
  if (typeof input === "string") {
    segments.push(ctx.segment(`user\0message\0${input}`, ctx.tokens(input)));
    return { segments, deferred: declared.deferred, loaded: declared.loaded, added: [] };
  }
  if (!Array.isArray(input)) return badType("input", "a string or an array of input items", input);

  const added: string[] = [];
  const calls = new Set<string>();
  const text = (key: string, t: string) => segments.push(ctx.segment(key, ctx.tokens(t)));
  const part = (key: string, c: { key: string; text: string }) => segments.push(ctx.segment(`${key}\0${c.key}`, ctx.tokens(c.text)));
  input.forEach((item, i) => {
    const param = `input[${i}]`;
    if (!isObj(item)) return badType(param, "an input item object", item);
    // Easy input messages ({role, content}) may omit the type.
    const type = item.type ?? (item.role !== undefined ? "message" : undefined);
    if (type === undefined) missing(`${param}.type`);
    if (typeof type !== "string" || !INPUT_TYPES.includes(type)) return badValue(param, type, INPUT_TYPES);
    if (!MODELLED_INPUT.has(type)) reject(`The emulator does not model input items of type '${type}' (${param}).`, param, null);

    if (type === "message") {
      const role = item.role;
      if (role === undefined) missing(`${param}.role`);
      if (typeof role !== "string" || !ROLES.includes(role)) return badValue(`${param}.role`, role, ROLES);
      const content = item.content;
      if (content === undefined) missing(`${param}.content`);
      if (typeof content !== "string" && !Array.isArray(content)) return badType(`${param}.content`, "one of a string or array of objects", content);
      if (Array.isArray(content)) {
        const allowed = role === "assistant" ? ASSISTANT_PARTS : USER_PARTS;
        content.forEach((block, j) => {
          const p = `${param}.content[${j}]`;
          if (!isObj(block)) return badType(p, "an object", block);
          if (!allowed.includes(String(block.type))) badValue(p, block.type, allowed);
        });
      }
      return part(`${role}\0message`, contentOf(content));
    }

    if (type === "function_call") {
      for (const field of ["call_id", "name", "arguments"]) {
        if (item[field] === undefined) missing(`${param}.${field}`);
        if (typeof item[field] !== "string") badType(`${param}.${field}`, "a string", item[field]);
      }
      calls.add(String(item.call_id));
      const t = JSON.stringify({ ...(item.namespace ? { namespace: item.namespace } : {}), name: item.name, arguments: item.arguments });
      return text(`function_call\0${String(item.call_id)}\0${t}`, t);
    }

    if (type === "function_call_output") {
      if (item.call_id === undefined) missing(`${param}.call_id`);
      if (typeof item.call_id !== "string") return badType(`${param}.call_id`, "a string", item.call_id);
      if (item.output === undefined) missing(`${param}.output`);
      if (typeof item.output !== "string" && !Array.isArray(item.output)) return badType(`${param}.output`, "one of a string or array of objects", item.output);
      if (!calls.has(item.call_id)) reject(`No tool call found for function call output with call_id ${item.call_id}.`, "input", null);
      return part(`function_call_output\0${item.call_id}`, contentOf(item.output));
    }

    if (type === "reasoning") {
      if (item.summary === undefined) missing(`${param}.summary`);
      if (!Array.isArray(item.summary)) return badType(`${param}.summary`, "an array", item.summary);
      return part("reasoning", contentOf(item.summary));
    }

    if (type === "additional_tools") {
      // "The role that provided the additional tools. Only `developer` is supported." (openai 7.57.0 types)
      if (item.role === undefined) missing(`${param}.role`);
      if (item.role !== "developer") badValue(`${param}.role`, item.role, ["developer"]);
      if (item.tools === undefined) missing(`${param}.tools`);
      if (!Array.isArray(item.tools)) return badType(`${param}.tools`, "an array", item.tools);
      const scan = scanTools(item.tools, `${param}.tools`, "declared", ctx);
      if (scan.toolSearch && !hasToolSearch(model)) reject(`Tool 'tool_search' is not supported with ${model}.`, `${param}.tools`, null);
      added.push(...scan.loaded);
      segments.push(...scan.segments);
      return;
    }

    if (type === "tool_search_call") {
      if (!("arguments" in item)) missing(`${param}.arguments`);
      if (item.execution !== undefined && item.execution !== "server" && item.execution !== "client") badValue(`${param}.execution`, item.execution, ["server", "client"]);
      const t = JSON.stringify(item.arguments ?? null);
      return text(`tool_search_call\0${String(item.call_id ?? "")}\0${t}`, t);
    }

    // tool_search_output: the definitions it loads are billed where the item sits (the end of the context).
    if (item.execution !== undefined && item.execution !== "server" && item.execution !== "client") badValue(`${param}.execution`, item.execution, ["server", "client"]);
    if (item.tools === undefined) missing(`${param}.tools`);
    if (!Array.isArray(item.tools)) return badType(`${param}.tools`, "an array", item.tools);
    const scan = scanTools(item.tools, `${param}.tools`, "loaded", ctx);
    added.push(...scan.loaded);
    segments.push(...scan.segments);
  });
  return { segments, deferred: declared.deferred, loaded: declared.loaded, added };
}
