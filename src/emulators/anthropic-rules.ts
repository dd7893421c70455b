/**
 * The Messages API rules that depend on the model and on the beta headers, as one pure function the Anthropic
 * emulator applies before it prices a request. The wire module (`anthropicPrompt`) keeps the checks the cost model
 * shares; these are the ones a strict emulator adds so that a request it answers is one the real API would answer:
 *
 * - mid-conversation `role: "system"` messages: which models accept them, and where they may sit;
 * - mid-conversation tool changes (`tool_addition` / `tool_removal`): system messages only, models with
 *   `midConversationTools`, the beta header, and a reference that resolves to a declared tool;
 * - `tool_reference` blocks in a `tool_result` (client-side tool search): the tool must be declared deferred;
 * - deferred tools: at least one tool non-deferred, and no `cache_control` on a deferred one;
 * - prompt-cache breakpoints: at most 4 (a top-level `cache_control` takes a slot), `ttl` "5m" or "1h", and no
 *   1-hour breakpoint after a 5-minute one in prompt order (tools → system → messages).
 *
 * Messages use the API's wording where it is documented or observed, and name the part (`messages.3.content.0`).
 * Sources: platform.claude.com build-with-claude/mid-conversation-system-messages (2026-09-26 snapshot),
 * agents-and-tools/tool-use/tool-search-tool, build-with-claude/prompt-caching, and the @anthropic-ai/sdk types.
 */
import { capabilitiesOf, type ModelCapabilities } from "../core/providers/capabilities.js";

type Json = Record<string, unknown>;

/** Request headers, lower-cased (a recorded request's, or node's `IncomingHttpHeaders`). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** The beta that tool changes by reference need when the capability row names none. */
const TOOL_CHANGES_BETA = "mid-conversation-tool-changes-2026-07-01";
/** Tool changes by value; the docs say it "also covers adding and removing tools by reference". */
const INLINE_TOOLS_BETA = "inline-tools-2026-09-15";

const TTL_ORDER_NOTE = "Note that blocks are processed in the following order: `tools`, `system`, `messages`.";

/**
 * Why the real API would reject this request with a 400 `invalid_request_error`, or `undefined` when these rules
 * accept it. `body` has passed the emulator's field checks (model, max_tokens, messages as a list of objects).
 */
export function anthropicRequestProblem(body: Json, headers: RequestHeaders = {}): string | undefined {
  const { caps } = capabilitiesOf("anthropic", typeof body.model === "string" ? body.model : undefined);
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return (
    deferredToolsProblem(tools) ??
    systemMessagesProblem(messages, caps) ??
    toolReferencesProblem(messages, tools, caps, betasOf(headers)) ??
    cacheControlProblem(body)
  );
}

/** The `anthropic-beta` values (comma-separated, possibly repeated as an array). */
function betasOf(headers: RequestHeaders): Set<string> {
  const raw = headers["anthropic-beta"];
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return new Set(values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean));
}

/** A marker is present unless absent or null (the SDK types allow `cache_control: null`). */
const hasMarker = (block: Json) => block.cache_control !== undefined && block.cache_control !== null;

// ---------------------------------------------------------------------------------------------------------
// Deferred tools
// ---------------------------------------------------------------------------------------------------------

/**
 * A deferred tool is rendered where a tool search or a `tool_addition` surfaces it, never in the cached prefix, so
 * a breakpoint on it could mark nothing; and with every tool deferred the prompt would start differently on each
 * surfacing. (The mid-conversation page accepts an all-deferred `tools` under `inline-tools-2026-09-15`, but
 * `anthropicPrompt` rejects it regardless and the emulator does not define tools by value.)
 */
function deferredToolsProblem(tools: unknown[]): string | undefined {
  const declared = tools.filter(isObj);
  for (const [i, tool] of tools.entries())
    if (isObj(tool) && tool.defer_loading === true && hasMarker(tool))
      return `tools.${i}.cache_control: a deferred tool (defer_loading: true) can't carry cache_control`;
  if (declared.length > 0 && declared.every((t) => t.defer_loading === true))
    return "All tools have defer_loading set. At least one tool must be non-deferred.";
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Mid-conversation system messages
// ---------------------------------------------------------------------------------------------------------

/**
 * Role "system" in `messages` is accepted only on models whose capability row says so (earlier models answer 400),
 * and only where the placement rules allow. Consecutive system messages form one section, judged as a whole.
 */
function systemMessagesProblem(messages: unknown[], caps: ModelCapabilities): string | undefined {
  const roleAt = (i: number) => (isObj(messages[i]) ? messages[i].role : undefined);
  for (let first = 0; first < messages.length; first++) {
    if (roleAt(first) !== "system") continue;
    if (!caps.midConversationSystemMessages) return `messages.${first}.role: role 'system' is not supported on this model`;
    let last = first;
    while (roleAt(last + 1) === "system") last++;
    const problem = sectionProblem(messages, first, last);
    if (problem) return problem;
    first = last;
  }
  return undefined;
}

/**
 * The placement of the system section `messages[first..last]`: not first; right after a `user` turn (one carrying
 * tool results counts) or an `assistant` turn ending in a server tool result; then an `assistant` turn or the end.
 * Tool changes are refused after such a paused assistant turn (text is not). A section of effort-only messages
 * (empty content, `output_config` set) renders nothing and may sit anywhere.
 */
function sectionProblem(messages: unknown[], first: number, last: number): string | undefined {
  const section = messages.slice(first, last + 1).filter(isObj);
  if (section.every(effortOnly)) return undefined;
  if (first === 0) return "messages.0: a system message cannot be the first message; use the top-level system parameter instead";
  const before = messages[first - 1] as Json;
  const after = messages[last + 1] as Json | undefined;
  // Between a tool_use and its tool_result the generic rule would fire too; say what is actually wrong.
  if (before.role === "assistant" && blocksOf(before).some((b) => b.type === "tool_use"))
    return `messages.${first}: a system message cannot sit between a tool_use block and its tool_result`;
  const paused = before.role === "assistant" && isServerToolResult(blocksOf(before).at(-1));
  if (before.role !== "user" && !paused)
    return `messages.${first}: a system message must immediately follow a user turn (or an assistant turn ending in a server tool result)`;
  if (paused)
    for (const [k, m] of section.entries())
      for (const [b, block] of blocksOf(m).entries())
        if (block.type === "tool_addition" || block.type === "tool_removal")
          return `messages.${first + k}.content.${b}: ${block.type} is not accepted right after a paused assistant turn (one ending in a server tool result); resume the turn first`;
  if (after !== undefined && after.role !== "assistant")
    return `messages.${last}: a system message must be followed by an assistant turn or end the messages array`;
  return undefined;
}

/** A system message that only changes the effort level: no content, `output_config` set. */
const effortOnly = (m: Json) => isObj(m.output_config) && (m.content === "" || (Array.isArray(m.content) && m.content.length === 0));

/** The content blocks of a message (a string is one text block). */
function blocksOf(m: Json): Json[] {
  if (typeof m.content === "string") return [{ type: "text", text: m.content }];
  return Array.isArray(m.content) ? m.content.filter(isObj) : [];
}

/** A server tool's result (`web_search_tool_result`, `tool_search_tool_result`, ...), not a client `tool_result`. */
const isServerToolResult = (b: Json | undefined) => !!b && typeof b.type === "string" && b.type !== "tool_result" && b.type.endsWith("_tool_result");

// ---------------------------------------------------------------------------------------------------------
// Tool changes and tool references
// ---------------------------------------------------------------------------------------------------------

/**
 * `tool_addition` / `tool_removal` blocks (system messages only, on models with mid-conversation tool changes, with
 * the beta header) and `tool_reference` results must name a declared tool; an addition or a search result surfaces
 * a deferred one. (The docs also let a `tool_addition` re-offer a non-deferred tool an earlier `tool_removal`
 * withdrew; `anthropicPrompt` rejects that, so this keeps the same rule.)
 */
function toolReferencesProblem(messages: unknown[], tools: unknown[], caps: ModelCapabilities, betas: Set<string>): string | undefined {
  const byName = new Map<unknown, Json>();
  for (const t of tools) if (isObj(t)) byName.set(t.name, t);
  const beta = caps.midConversationToolsBeta ?? TOOL_CHANGES_BETA;
  for (const [mi, m] of messages.entries()) {
    if (!isObj(m)) continue;
    for (const [bi, block] of blocksOf(m).entries()) {
      const where = `messages.${mi}.content.${bi}`;
      if (block.type === "tool_addition" || block.type === "tool_removal") {
        if (m.role !== "system") return `${where}: ${block.type} blocks are only accepted in role 'system' messages`;
        if (!caps.midConversationTools) return `${where}: ${block.type} is not supported on this model (no mid-conversation tool changes)`;
        if (!betas.has(beta) && !betas.has(INLINE_TOOLS_BETA)) return `${where}: ${block.type} requires the anthropic-beta header '${beta}'`;
        const ref = isObj(block.tool) ? block.tool : undefined;
        // Other reference kinds (MCP, by-value definitions) are not emulated: anthropicPrompt rejects them.
        if (ref?.type !== "tool_reference") continue;
        const problem = referenceProblem(byName.get(ref.name), ref.name, block.type === "tool_addition");
        if (problem) return `${where}.tool: ${problem}`;
      } else if (block.type === "tool_result" && Array.isArray(block.content)) {
        for (const [ci, c] of block.content.entries()) {
          if (!isObj(c) || c.type !== "tool_reference") continue;
          const problem = referenceProblem(byName.get(c.tool_name), c.tool_name, true);
          if (problem) return `${where}.content.${ci}: ${problem}`;
        }
      }
    }
  }
  return undefined;
}

/** The tool search page's wording; the mid-conversation page names the error code `tool_reference_unresolved`. */
function referenceProblem(tool: Json | undefined, name: unknown, mustDefer: boolean): string | undefined {
  if (!tool) return `Tool reference '${String(name)}' has no corresponding tool definition (tool_reference_unresolved)`;
  if (mustDefer && tool.defer_loading !== true)
    return `Tool reference '${String(name)}' has no corresponding tool definition with defer_loading: true`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Cache breakpoints
// ---------------------------------------------------------------------------------------------------------

/** A `cache_control` marker and where it sits. */
interface Marker {
  where: string;
  block: Json;
}

/**
 * Every marker in prompt order: tools, system blocks, message blocks. A tool result's own marker comes after
 * those in its content, since the block ends after its content.
 */
function markersOf(body: Json): Marker[] {
  const out: Marker[] = [];
  const add = (where: string, block: unknown) => {
    if (isObj(block) && hasMarker(block)) out.push({ where, block });
  };
  if (Array.isArray(body.tools)) body.tools.forEach((t, i) => add(`tools.${i}`, t));
  if (Array.isArray(body.system)) body.system.forEach((b, i) => add(`system.${i}`, b));
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m, mi) => {
    if (!isObj(m) || !Array.isArray(m.content)) return;
    m.content.forEach((b, bi) => {
      const where = `messages.${mi}.content.${bi}`;
      if (isObj(b) && b.type === "tool_result" && Array.isArray(b.content)) b.content.forEach((c, ci) => add(`${where}.content.${ci}`, c));
      add(where, b);
    });
  });
  return out;
}

/** The shape of one marker (`where` is its block's path, "" for the top-level one). */
function markerProblem(where: string, control: unknown): string | undefined {
  const at = where ? `${where}.cache_control` : "cache_control";
  if (!isObj(control) || control.type !== "ephemeral") return `${at}.type: Input should be 'ephemeral'`;
  if (control.ttl !== undefined && control.ttl !== "5m" && control.ttl !== "1h") return `${at}.ttl: Input should be '5m' or '1h'`;
  return undefined;
}

const ttlOf = (control: unknown): "5m" | "1h" => (isObj(control) && control.ttl === "1h" ? "1h" : "5m");

/**
 * Breakpoints: each marker well-formed and on a non-empty block, at most 4 counting the top-level one, and the
 * longer TTL first. The top-level marker is applied to the last cacheable block, so it is checked as sitting there:
 * a different TTL already on that block is a conflict, and it is always counted (the docs call it a no-op on a block
 * with the same TTL but also refuse it once 4 explicit breakpoints exist; the stricter reading is kept).
 */
function cacheControlProblem(body: Json): string | undefined {
  const markers = markersOf(body);
  for (const { where, block } of markers) {
    const problem = markerProblem(where, block.cache_control);
    if (problem) return problem;
    if (block.type === "text" && block.text === "") return `${where}.text: cache_control cannot be set for empty text blocks`;
  }
  const top = body.cache_control ?? undefined;
  if (top !== undefined) {
    const problem = markerProblem("", top);
    if (problem) return problem;
  }
  const count = markers.length + (top !== undefined ? 1 : 0);
  if (count > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${count}.`;

  const order = markers.map(({ where, block }) => ({ at: `${where}.cache_control.ttl`, ttl: ttlOf(block.cache_control) }));
  if (top !== undefined) {
    const target = lastCacheableBlock(body);
    if (target && hasMarker(target.block) && ttlOf(target.block.cache_control) !== ttlOf(top))
      return `cache_control.ttl: the top-level cache_control (ttl '${ttlOf(top)}') conflicts with the ttl '${ttlOf(target.block.cache_control)}' already set on ${target.where}, the last cacheable block`;
    order.push({ at: "cache_control.ttl", ttl: ttlOf(top) });
  }
  let shorter = false;
  for (const { at, ttl } of order) {
    if (ttl === "5m") shorter = true;
    else if (shorter) return `${at}: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. ${TTL_ORDER_NOTE}`;
  }
  return undefined;
}

/**
 * Where a top-level marker lands: the last block that can carry a breakpoint, walking back past thinking blocks,
 * empty text blocks and turn-scoped system messages (which the API skips), then into system and the loaded tools.
 */
function lastCacheableBlock(body: Json): Marker | undefined {
  const eligible = (b: unknown): b is Json =>
    isObj(b) && b.type !== "thinking" && b.type !== "redacted_thinking" && !(b.type === "text" && b.text === "");
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let mi = messages.length - 1; mi >= 0; mi--) {
    const m = messages[mi];
    if (!isObj(m) || m.clear_at === "next_user_message") continue;
    if (typeof m.content === "string" && m.content !== "") return { where: `messages.${mi}`, block: {} };
    const blocks = Array.isArray(m.content) ? m.content : [];
    for (let bi = blocks.length - 1; bi >= 0; bi--) if (eligible(blocks[bi])) return { where: `messages.${mi}.content.${bi}`, block: blocks[bi] as Json };
  }
  const system = body.system;
  if (typeof system === "string" && system !== "") return { where: "system", block: {} };
  const systemBlocks = Array.isArray(system) ? system : [];
  for (let i = systemBlocks.length - 1; i >= 0; i--) if (eligible(systemBlocks[i])) return { where: `system.${i}`, block: systemBlocks[i] as Json };
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (let i = tools.length - 1; i >= 0; i--) {
    const t = tools[i];
    if (isObj(t) && t.defer_loading !== true) return { where: `tools.${i}`, block: t };
  }
  return undefined;
}
