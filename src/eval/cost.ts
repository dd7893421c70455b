/**
 * Conversation-cost replay: what a user is billed per conversation under each way of handing tools to the model.
 *
 * Providers bill input per request and cache the prompt prefix in the order tools → system → messages, so the
 * per-turn token count of a tools array says little about the bill: a tools array that changes between calls
 * re-bills the whole history, and every extra round trip (a search, a selection call, a gate retry) re-reads it.
 * The replay runs a scripted agent through real request bodies in each provider's wire shape and prices every
 * request with the same functions the provider emulators use (`anthropicPrompt` / `openaiPrompt` and a
 * `PrefixCache` per conversation, cold at its start).
 *
 * The script: tasks are laid end to end in file order and cut into conversations of `calls` model calls. Each plan
 * step of a task is one model call (a task without steps is one call that calls all its gold tools in parallel);
 * a new task starts with a new user message. At each call the model calls the step's gold tool(s). A tool it can
 * see runs and returns a deterministic result sized so that the call and its result add `historyTokens` to the
 * history. A tool it cannot see is answered the way each method answers it (the Tool Attention gate's promotion
 * error and one more call; a second search for tool search). Gold tools whose preconditions fail in the task's
 * state are not called (a correct agent must not run them); that call answers with a short text.
 *
 * Routing is the adapters': the intent the adapters would build (`simulatedIntent`), sticky tools from
 * `nextSticky` (reset at each new user message), the task's scopes and milestones, and the tool outputs so far.
 */
import { Rng } from "../core/util/rng.js";
import { ToolMessage } from "@langchain/core/messages";
import { CALL_TOOL_DEF, CALL_TOOL_NAME, CALL_TOOL_NATIVE_ANTHROPIC, SEARCH_TOOL_DEF, SEARCH_TOOL_LC, dispatchTextOf, searchToolBound } from "../adapters/langchain/delivery.js";
import { nextSticky, promotedContent, stickyConfig, type ToolAttentionDecisionState } from "../adapters/langchain/turn.js";
import { llmSelectorSchema, LLM_SELECTOR_SYSTEM_PROMPT } from "./llm-selector.js";
import { splitIdentifier } from "../core/catalog/text.js";
import { transitionsOf, type AnticipationInput } from "../core/anticipation/co-usage.js";
import { PrefixCache, segmentCharges, type CallUsage } from "../core/cost/prefix-cache.js";
import { resolveProfile, type ProfileSpec, type ProviderProfile } from "../core/cost/profiles.js";
import { anthropicPrompt, openaiPrompt, WireContext } from "../core/cost/wire.js";
import { openaiResponsesPrompt } from "../core/cost/wire-responses.js";
import { capabilitiesOf } from "../core/providers/capabilities.js";
import { availableTools, planDelivery, resolveDeliveryMode, type DeliveryAddition, type DeferredOptions, type DeliveryMode, type DeliveryState } from "../core/delivery/plan.js";
import { checkPreconditions, emptyStateView, stateViewFrom } from "../core/preconditions/preconditions.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import { renderPoolTiered } from "../core/render/render.js";
import type { AgentStateView, JsonSchema, ToolRecord } from "../core/types.js";
import { DEFAULT_SIMULATE, simulatedIntent, type SimulateOptions } from "./evaluate.js";
import { callableFromSignature, requiredParams } from "../core/render/signature.js";
import type { EvalTask } from "./tasks.js";

/** The methods the replay compares. */
export const COST_METHODS = [
  "no-tools",
  "oracle",
  "all-uncached",
  "all-cached",
  "provider-tool-search",
  "llm-tool-selector",
  "tool-attention-rebind",
  "tool-attention-stable",
  "tool-attention-deferred",
  "tool-attention",
] as const;
export type CostMethod = (typeof COST_METHODS)[number];

export interface ReplayCostOptions {
  /** The router (its catalog is the tool set; its encoder routes the Tool Attention rows). */
  router: ToolAttentionRouter;
  tasks: readonly EvalTask[];
  provider: "anthropic" | "openai";
  /** Model name: picks the provider profile (cache minimum, read price). */
  model?: string;
  /** A full profile or overrides; wins over `model`. */
  profile?: ProfileSpec;
  /** Model calls per conversation (plan steps; extra calls a method makes come on top). */
  calls: number;
  /** Tokens one call adds to the history: the assistant's tool call plus the tool's result. */
  historyTokens: number;
  /** Tokens of the user's own system prompt. Default 1,000. */
  systemTokens?: number;
  /** Which rows (default: all; `tool-attention-deferred` only on Anthropic). */
  methods?: readonly CostMethod[];
  /** Active tools per routing. Default: the router's k. */
  k?: number;
  /**
   * The delivery guarantee of the Tool Attention rows (switch a thread to every schema once routing cost it more).
   * Default true, as in the adapters; false measures each mode on its own.
   */
  guarantee?: boolean;
  /**
   * The adapters' `searchTool` delivery option: the Tool Attention rows' `rebind` and `stable` requests carry the
   * constant `search_tools` definition before the routed tools, as the adapters send them. Default true.
   */
  searchTool?: boolean;
  /**
   * The adapters' `runValidCalls`: a call to a tool that was not delivered runs when its arguments fit. The replayed
   * model gets them right only when the pool lists the tool's parameters (terse pool) or it has no required ones;
   * otherwise the call is promoted and costs a round trip. Default true, as in the adapters.
   */
  runValidCalls?: boolean;
  /** The adapters' `deferred` options (how deferred delivery picks each call's new tools). */
  deferred?: DeferredOptions;
  /**
   * How the routed intent is simulated (see `SimulateOptions`). Default `DEFAULT_SIMULATE`; `{ planWeight: 0 }`
   * replays a model that states no plan before its calls, so routing sees only the request and the tool results.
   */
  simulate?: SimulateOptions;
}

/**
 * Where a method's bill goes, per conversation, in billed-equivalent tokens (the parts sum to
 * `billedPerConversation`): each request's segments are priced as the cache served them (see `segmentCharges`).
 */
export interface CostBreakdown {
  /** The tool pool (the summary lines in the system prompt). */
  pool: number;
  /** Full schemas of tools the conversation called once they had arrived (bound, added, or found by a search). */
  neededSchemas: number;
  /** Full schemas of tools the conversation never called after they arrived. */
  unneededSchemas: number;
  /** Everything else: the user's system prompt, the history, the fixed tools (dispatcher, search). */
  rest: number;
  /** Distinct tools whose full schema reached the model, per conversation. */
  toolsDelivered: number;
  /** Of those, the tools the conversation called once they had arrived. */
  toolsNeeded: number;
}

export interface CostRow {
  method: CostMethod;
  provider: "anthropic" | "openai";
  /** Tool Attention rows: the delivery mode the thread started in (the default's is resolved per provider). */
  mode?: DeliveryMode;
  /** Billed-equivalent input tokens per conversation (base input price = 1). */
  billedPerConversation: number;
  /** billedPerConversation divided by the scripted calls per conversation. */
  billedPerCall: number;
  /** Input tokens per conversation, whatever their price. */
  inputTokensPerConversation: number;
  /** Share of input tokens read from the cache. */
  cacheHitShare: number;
  /** Requests per conversation whose tools array differed from the previous request's (each rewrites the cache). */
  toolSetChanges: number;
  /**
   * Share of (callable) gold tools the model called right on the first try, with no extra model call: delivered
   * at its step, or run from the pool (`fromPool`). null when it needs a live model.
   */
  recall: number | null;
  /**
   * Share of gold tools whose schema the model had at its step: delivered (bound or loaded), or found by the
   * first search. `recall − delivered = fromPool`.
   */
  delivered: number | null;
  /** Share of calls with every gold tool called right on the first try. */
  allGold: number | null;
  /**
   * Tool Attention rows: share of gold tools that were not delivered but ran at once from the pool through the
   * dispatcher (their required parameters and the form of their values named there, the call's arguments fitting:
   * `runValidCalls`). The replay assumes the model fills such values right. null for the other rows.
   */
  fromPool: number | null;
  /**
   * Share of calls where a gold tool was not callable on the first try: the gate answered (a round trip), or the
   * provider's first search missed it. Calls run from the pool are not counted.
   */
  gateTrigger: number | null;
  conversations: number;
  /** Requests billed per conversation (scripted calls plus searches, selection calls and gate retries). */
  calls: number;
  /** Extra model calls per conversation a missed tool cost (promotion round trips; 0 for in-turn searches). */
  roundTrips: number;
  /** Where the bill goes: pool, needed and unneeded schemas, the rest. */
  breakdown: CostBreakdown;
}

export interface CostReport {
  methods: CostRow[];
  /** The pricing profile used. */
  profile: string;
  /** Scripted calls per conversation (the `calls` option, or fewer when the tasks hold fewer). */
  callsPerConversation: number;
  historyTokens: number;
  systemTokens: number;
  k: number;
}

// ---------------------------------------------------------------------------------------------------------
// Script
// ---------------------------------------------------------------------------------------------------------

/** One scripted model call: a plan step of a task (or a whole task without steps). */
interface ScriptCall {
  task: EvalTask;
  taskIndex: number;
  step: number;
  /** The step's words (the query for a task without steps). */
  text: string;
  /** Gold tool names this call makes. */
  gold: string[];
  /** What the model says it will do next (its stated plan), "" at the end of the task. */
  next: string;
}

/**
 * The gold tools of each plan step. Task files list one gold tool per step in step order; when the counts differ
 * the gold list is spread over the steps in order (a step left without one repeats its neighbour's).
 */
function stepGold(task: EvalTask): string[][] {
  const steps = task.steps ?? [];
  const gold = [...new Set(task.gold)];
  if (steps.length === 0) return [gold];
  if (gold.length === 0) return steps.map(() => []);
  if (steps.length === gold.length) return gold.map((g) => [g]);
  return steps.map((_, i) => {
    const from = Math.floor((i * gold.length) / steps.length);
    const to = Math.floor(((i + 1) * gold.length) / steps.length);
    return to > from ? gold.slice(from, to) : [gold[Math.min(from, gold.length - 1)]];
  });
}

function scriptOf(tasks: readonly EvalTask[]): ScriptCall[] {
  const out: ScriptCall[] = [];
  tasks.forEach((task, taskIndex) => {
    const steps = task.steps ?? [];
    stepGold(task).forEach((gold, step) => {
      out.push({ task, taskIndex, step, text: steps[step] ?? task.query, gold, next: steps[step + 1] ?? "" });
    });
  });
  return out;
}

/** Conversations of exactly `calls` calls; the last partial one is dropped unless it is the only one. */
function conversationsOf(script: readonly ScriptCall[], calls: number): ScriptCall[][] {
  if (script.length <= calls) return script.length ? [[...script]] : [];
  const out: ScriptCall[][] = [];
  for (let i = 0; i + calls <= script.length; i += calls) out.push(script.slice(i, i + calls));
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Deterministic content
// ---------------------------------------------------------------------------------------------------------

function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}


const FILLER = (
  "the a service request customer report build deploy release branch config update review pending owner team " +
  "latency error retry queue worker payment invoice ticket label channel migration table index cache region " +
  "summary priority incident metric alert schedule backlog sprint account project version commit file path"
).split(" ");
const STATUSES = ["open", "closed", "in_progress", "merged", "pending", "resolved", "blocked", "done"];
const PEOPLE = ["alice", "bob", "carol", "dmitri", "erin", "farah", "gus", "hana", "ivan", "jun"];

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 1);
}

/** Plausible arguments for a tool call: its required parameters (at most 4) filled from the step's words. */
function argsFor(schema: JsonSchema | undefined, text: string): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : Object.keys(props).slice(0, 2);
  const words = wordsOf(text);
  const phrase = words.slice(0, 5).join(" ") || "default";
  const out: Record<string, unknown> = {};
  for (const name of required.slice(0, 4)) {
    const type = Array.isArray(props[name]?.type) ? (props[name].type as unknown[])[0] : props[name]?.type;
    if (type === "integer" || type === "number") out[name] = 1 + (hash32(`${name}\0${text}`) % 500);
    else if (type === "boolean") out[name] = true;
    else if (type === "array") out[name] = [phrase];
    else if (type === "object") out[name] = {};
    else out[name] = phrase;
  }
  return out;
}

/**
 * A tool result of about `budget` tokens: a JSON object with records derived from the task, step and tool
 * (same inputs → same bytes, so every method's history is identical).
 */
function resultText(seed: string, stepText: string, tool: string, budget: number, tokens: (s: string) => number): string {
  const rng = new Rng(hash32(seed));
  const next = () => rng.next();
  const pick = <T>(xs: readonly T[]) => rng.pick(xs);
  const vocab = [...wordsOf(stepText), ...wordsOf(splitIdentifier(tool)), ...FILLER];
  const prefix = (wordsOf(tool)[0] ?? "rec").slice(0, 4).toUpperCase();
  const head = `{"tool":"${tool}","status":"ok","records":[`;
  const tail = "]}";
  const records: string[] = [];
  let used = tokens(head) + tokens(tail);
  while (used < budget) {
    const title = Array.from({ length: 4 + Math.floor(next() * 5) }, () => pick(vocab)).join(" ");
    const day = 1 + Math.floor(next() * 28);
    const rec = JSON.stringify({
      id: `${prefix}-${1000 + Math.floor(next() * 9000)}`,
      title,
      status: pick(STATUSES),
      owner: pick(PEOPLE),
      updated_at: `2026-${String(1 + Math.floor(next() * 11)).padStart(2, "0")}-${String(day).padStart(2, "0")}T${String(Math.floor(next() * 24)).padStart(2, "0")}:00:00Z`,
      score: Math.round(next() * 1000) / 10,
    });
    const t = tokens(rec) + 1;
    if (used + t > budget && records.length > 0) {
      // Fill the rest with a note of single-token words rather than overshooting by a whole record.
      const room = budget - used - 6;
      if (room > 0) records.push(JSON.stringify({ note: Array.from({ length: room }, () => pick(FILLER)).join(" ") }));
      break;
    }
    records.push(rec);
    used += t;
  }
  return `${head}${records.join(",")}${tail}`;
}

/** A system prompt of about `n` tokens (stands in for the user's own instructions; the same bytes every call). */
function systemPromptText(n: number, tokens: (s: string) => number): string {
  const rules = [
    "You are an operations assistant for an engineering organization.",
    "Work through the user's request step by step and use the tools attached to the request.",
    "Before each tool call, say in one sentence what you will do next.",
    "Never invent identifiers, file paths or channel names; look them up with a tool when unsure.",
    "Prefer read-only tools until the user has confirmed a change.",
    "Summarize tool results briefly; quote identifiers exactly as returned.",
    "When a tool fails, read the error, fix the arguments and try once more before asking the user.",
    "Keep answers short and in plain English; use lists for several items.",
  ];
  const parts: string[] = [];
  let used = 0;
  for (let i = 0; used < n; i++) {
    const line = `${i + 1}. ${rules[i % rules.length]}${i >= rules.length ? ` (Applies to section ${Math.floor(i / rules.length) + 1}.)` : ""}`;
    const t = tokens(`${line}\n`);
    if (used + t > n && parts.length > 0) break;
    parts.push(line);
    used += t;
  }
  return parts.join("\n");
}

// ---------------------------------------------------------------------------------------------------------
// Conversation messages (provider-neutral) and their wire shapes
// ---------------------------------------------------------------------------------------------------------

interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Made through call_tool (a tool not delivered, beside native deferral). */
  dispatch?: boolean;
}
interface ToolResult {
  id: string;
  name: string;
  text: string;
  error?: boolean;
  /** Tool search results: tools whose definitions the result carries (Anthropic `tool_reference`). */
  refs?: string[];
}
type Msg =
  | { role: "user"; text: string }
  /** `dispatch`: the calls were made through call_tool (dispatcher delivery). */
  | { role: "assistant"; text: string; calls: ToolCall[]; dispatch?: boolean; searches?: ServerSearch[] }
  | { role: "tool"; results: ToolResult[] };

/** A provider's server-side tool search inside the assistant's turn (no client round trip): its query and finds. */
interface ServerSearch {
  id: string;
  query: string;
  found: string[];
}

type Json = Record<string, unknown>;
const EPHEMERAL = { type: "ephemeral" } as const;

/** Where a tool's objects and numbers live: wire name, schema, the provider objects reused across requests. */
interface ToolInfo {
  id: string;
  /** Name on the wire (unique in the catalog: the tool name, or its id when the name occurs on several servers). */
  name: string;
  record: ToolRecord;
  schema: JsonSchema;
  schemaTokens: number;
  anthropic: Json;
  anthropicCached: Json;
  anthropicDeferred: Json;
  openai: Json;
}

function wireName(name: string, id: string, duplicate: boolean): string {
  const raw = duplicate ? id : name;
  return raw.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) || "tool";
}


// ---------------------------------------------------------------------------------------------------------
// The replay
// ---------------------------------------------------------------------------------------------------------

/** Routes are deterministic for a router, so the replay reuses them across methods and replays. */
/** One routing: the active tools' wire names, best first, and their fused scores. */
interface Routed {
  names: string[];
  scores: ReadonlyMap<string, number>;
}
const routeMemo = new WeakMap<ToolAttentionRouter, Map<string, Routed>>();
const searchRouters = new WeakMap<ToolAttentionRouter, ToolAttentionRouter>();

/** Tool search results: how many definitions one search returns. */
const SEARCH_TOP = 5;

interface Totals {
  billed: number;
  input: number;
  read: number;
  requests: number;
  changes: number;
  gold: number;
  /** Gold tools the model called right on the first try: delivered (or found, or bound), or run from the pool. */
  goldFirstTry: number;
  /** Gold tools delivered (bound, loaded, or found by the first search) at their step. */
  goldDelivered: number;
  /** Gold tools that were not delivered and ran from the pool (runValidCalls): no round trip, no schema. */
  fromPool: number;
  goldCalls: number;
  allGoldCalls: number;
  gateCalls: number;
  /** Steps where a tool that was not delivered cost the model an extra call (promotion). */
  roundTrips: number;
  pool: number;
  neededSchemas: number;
  unneededSchemas: number;
  toolsDelivered: number;
  toolsNeeded: number;
}

/**
 * Replays the tasks as conversations under each method and prices every request. Deterministic: the same
 * inputs give the same report.
 */
export async function replayCost(opts: ReplayCostOptions): Promise<CostReport> {
  const { router, provider } = opts;
  if (provider !== "anthropic" && provider !== "openai") throw new Error(`Unknown provider "${String(provider)}" (expected anthropic or openai)`);
  for (const [name, v] of [["calls", opts.calls], ["historyTokens", opts.historyTokens]] as const)
    if (!Number.isInteger(v) || v <= 0) throw new Error(`Invalid ${name}: ${v} (expected a positive integer)`);
  const systemTokens = opts.systemTokens ?? 1000;
  if (!Number.isInteger(systemTokens) || systemTokens < 0) throw new Error(`Invalid systemTokens: ${systemTokens} (expected an integer ≥ 0)`);
  const k = opts.k ?? router.k;
  const simulate: Required<SimulateOptions> = { ...DEFAULT_SIMULATE, ...opts.simulate };
  if (!Number.isInteger(k) || k <= 0) throw new Error(`Invalid k: ${k} (expected a positive integer)`);
  const profile: ProviderProfile = opts.profile ? resolveProfile(opts.profile, opts.model) : resolveProfile(provider, opts.model);
  if (profile.provider !== provider) throw new Error(`The profile "${profile.name}" is for ${profile.provider}, not ${provider}`);
  const methods = opts.methods ?? COST_METHODS;
  for (const m of methods) if (!COST_METHODS.includes(m)) throw new Error(`Unknown method "${m}" (expected one of ${COST_METHODS.join(", ")})`);

  await router.prepare();
  const catalog = router.catalog;
  if (catalog.size === 0) throw new Error("The catalog has no tools");
  const ctx = new WireContext(router.encoding);
  const tokens = (s: string) => ctx.tokens(s);

  // Tools: wire names, schemas and the request objects (reused, so token counts are memoized per object).
  const nameCount = new Map<string, number>();
  for (const t of catalog.tools) nameCount.set(t.name, (nameCount.get(t.name) ?? 0) + 1);
  const schemas = await router.loader.getMany(catalog.tools.map((t) => t.id));
  const infos: ToolInfo[] = [];
  for (let i = 0; i < catalog.tools.length; i++) {
    const record = catalog.tools[i];
    const name = wireName(record.name, record.id, (nameCount.get(record.name) ?? 0) > 1);
    const schema = schemas[i].inputSchema ?? { type: "object", properties: {} };
    const anthropic = { name, description: record.description, input_schema: schema };
    infos.push({
      id: record.id,
      name,
      record,
      schema,
      schemaTokens: await router.schemaTokens([record.id]),
      anthropic,
      anthropicCached: { ...anthropic, cache_control: EPHEMERAL },
      anthropicDeferred: { ...anthropic, defer_loading: true },
      openai: { type: "function", function: { name, description: record.description, parameters: schema } },
    });
  }
  const byWire = new Map(infos.map((t) => [t.name, t]));
  const byId = new Map(infos.map((t) => [t.id, t]));
  const byToolName = new Map<string, ToolInfo[]>();
  for (const t of infos) byToolName.set(t.record.name, [...(byToolName.get(t.record.name) ?? []), t]);
  const allNames = infos.map((t) => t.name);
  const fullSchemas = await router.fullSchemaTokens();
  // The pool as the adapters render it: they tell the model that unattached calls with fitting arguments run
  // (runValidCalls), and the line format then names each tool's required parameters.
  const runValid = opts.runValidCalls ?? true;
  const rendered = renderPoolTiered(catalog, { runValidCalls: runValid, ...router.poolOptions, encoding: router.encoding });
  const poolText = rendered.text;
  const poolTokens = rendered.tokens;
  const prompt = systemPromptText(systemTokens, tokens);
  const promptTokens = tokens(prompt);

  // Fixed request parts.
  const sys = {
    anthropicPlain: [{ type: "text", text: prompt, cache_control: EPHEMERAL }],
    anthropicPool: [{ type: "text", text: prompt }, { type: "text", text: poolText, cache_control: EPHEMERAL }],
    openaiPlain: { role: "system", content: prompt },
    openaiPool: { role: "system", content: `${prompt}\n\n${poolText}` },
  };
  const searchSchema = { type: "object", properties: { query: { type: "string", description: "What the tool should do" } }, required: ["query"] };
  const providerSearch =
    provider === "anthropic"
      ? { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25", cache_control: EPHEMERAL }
      : { type: "function", function: { name: "tool_search", description: "Search the available tools by keyword; returns the matching tools' definitions.", parameters: searchSchema } };
  const providerSearchName = provider === "anthropic" ? "tool_search_tool_bm25" : "tool_search";
  // LangChain's llmToolSelectorMiddleware: structured output (a tool named "extract" on Anthropic) over the names.
  const selectorSchema = llmSelectorSchema(infos.map((t) => t.name));
  const selectorTool =
    provider === "anthropic"
      ? { name: "extract", description: "A function available to call.", input_schema: selectorSchema }
      : { type: "function", function: { name: "extract", description: "A function available to call.", parameters: selectorSchema } };
  const anthropicAllDeferred = infos.map((t) => t.anthropicDeferred);
  // Deferred delivery as the adapters send it for this model: where it takes tool changes mid-conversation, their
  // search tool and call_tool (the non-deferred tools) and every catalog tool deferred; elsewhere the constant
  // dispatcher.
  const caps = capabilitiesOf(provider, opts.model).caps;
  const nativeAdditions = provider === "anthropic" && caps.midConversationTools;
  const deferredTools: Json[] = nativeAdditions
    ? [SEARCH_TOOL_DEF, CALL_TOOL_NATIVE_ANTHROPIC, ...anthropicAllDeferred]
    : [SEARCH_TOOL_DEF, { name: CALL_TOOL_NAME, description: CALL_TOOL_DEF.description, input_schema: CALL_TOOL_DEF.schema }];
  const anthropicAll = [...infos.slice(0, -1).map((t) => t.anthropic), infos[infos.length - 1].anthropicCached];
  const openaiAll = infos.map((t) => t.openai);
  const allTools = provider === "anthropic" ? anthropicAll : openaiAll;
  // Tool search: every catalog tool deferred plus the search tool (OpenAI: namespaced deferral bills none of them).
  const searchTools = provider === "anthropic" ? [...anthropicAllDeferred, providerSearch] : [providerSearch];
  const selectorRequest = (user: Json): Json =>
    provider === "anthropic"
      ? { tools: [selectorTool], system: [{ type: "text", text: LLM_SELECTOR_SYSTEM_PROMPT }], messages: [user] }
      : { tools: [selectorTool], messages: [{ role: "system", content: LLM_SELECTOR_SYSTEM_PROMPT }, user] };

  const toolsFor = (names: readonly string[]): Json[] => {
    const list = names.map((n) => byWire.get(n)).filter((t): t is ToolInfo => !!t);
    if (provider === "openai") return list.map((t) => t.openai);
    return list.map((t, i) => (i === list.length - 1 ? t.anthropicCached : t.anthropic));
  };

  // Search (tool search rows): BM25 over the catalog, top 5, preconditions not applied (the provider knows none).
  let searcher = searchRouters.get(router);
  if (!searcher) {
    searcher = new ToolAttentionRouter(catalog, { encoder: "lexical", k: SEARCH_TOP, theta: -1, decompose: false, log: false, encoding: router.encoding, cacheDir: false });
    searchRouters.set(router, searcher);
  }
  const searchMemo = new Map<string, string[]>();
  const search = async (query: string): Promise<string[]> => {
    let hit = searchMemo.get(query);
    if (!hit) {
      const d = await (searcher as ToolAttentionRouter).route(query, emptyStateView(), { k: SEARCH_TOP, theta: -1, turnId: "search" });
      hit = d.candidates.slice(0, SEARCH_TOP).map((c) => (byId.get(c.id) as ToolInfo).name);
      searchMemo.set(query, hit);
    }
    return hit;
  };

  let memo = routeMemo.get(router);
  if (!memo) routeMemo.set(router, (memo = new Map()));
  const routeMemoized = async (parts: { text: string; weight: number }[], view: AgentStateView, include: string[], anticipate: AnticipationInput): Promise<Routed> => {
    const key = JSON.stringify([k, parts, include, [...view.scopes], [...view.milestones], [...view.toolOutputs].sort(), anticipate]);
    let hit = (memo as Map<string, Routed>).get(key);
    if (!hit) {
      const d = await router.route(parts, view, { k, include, anticipate, turnId: "replay" });
      hit = { names: d.active.map((a) => (byId.get(a.id) as ToolInfo).name), scores: new Map(d.active.map((a) => [(byId.get(a.id) as ToolInfo).name, a.score])) };
      (memo as Map<string, Routed>).set(key, hit);
    }
    return hit;
  };

  // Results: the same bytes for every method.
  const resultMemo = new Map<string, string>();
  const resultFor = (call: ScriptCall, tool: string, budget: number): string => {
    const key = `${call.task.id}\0${call.step}\0${tool}\0${budget}`;
    let text = resultMemo.get(key);
    if (text === undefined) {
      text = resultText(key, call.text, tool, budget, tokens);
      resultMemo.set(key, text);
    }
    return text;
  };

  // Wire messages, built once per message object (OpenAI token counts are memoized on the object).
  const anthropicWire = new WeakMap<Msg, Json>();
  const openaiWire = new WeakMap<Msg, Json[]>();
  const refDefs = (refs: readonly string[]) => refs.map((n) => JSON.stringify((byWire.get(n) as ToolInfo).openai.function)).join("\n");
  const toAnthropic = (m: Msg): Json => {
    let w = anthropicWire.get(m);
    if (!w) {
      if (m.role === "user") w = { role: "user", content: [{ type: "text", text: m.text }] };
      else if (m.role === "assistant")
        w = {
          role: "assistant",
          content: [
            ...(m.text ? [{ type: "text", text: m.text }] : []),
            // Server-side tool search runs inside the turn: its call and result are blocks of the assistant message.
            ...(m.searches ?? []).flatMap((q) => [
              { type: "server_tool_use", id: q.id, name: providerSearchName, input: { query: q.query } },
              {
                type: "tool_search_tool_result",
                tool_use_id: q.id,
                content: { type: "tool_search_tool_search_result", tool_references: q.found.map((n) => ({ type: "tool_reference", tool_name: n })) },
              },
            ]),
            ...m.calls.map((c) =>
              m.dispatch || c.dispatch
                ? { type: "tool_use", id: c.id, name: CALL_TOOL_NAME, input: { name: c.name, arguments: c.input } }
                : { type: "tool_use", id: c.id, name: c.name, input: c.input },
            ),
          ],
        };
      else
        w = {
          role: "user",
          content: m.results.map((r) => ({
            type: "tool_result",
            tool_use_id: r.id,
            content: r.refs ? [{ type: "text", text: r.text }, ...r.refs.map((n) => ({ type: "tool_reference", tool_name: n }))] : r.text,
            ...(r.error ? { is_error: true } : {}),
          })),
        };
      anthropicWire.set(m, w);
    }
    return w;
  };
  const toOpenai = (m: Msg): Json[] => {
    let w = openaiWire.get(m);
    if (!w) {
      if (m.role === "user") w = [{ role: "user", content: m.text }];
      else if (m.role === "assistant")
        w = [
          {
            role: "assistant",
            content: m.text || null,
            // Under dispatcher delivery the model calls the tool through call_tool.
            tool_calls: m.calls.map((c) =>
              m.dispatch || c.dispatch
                ? { id: c.id, type: "function", function: { name: CALL_TOOL_NAME, arguments: JSON.stringify({ name: c.name, arguments: c.input }) } }
                : { id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } },
            ),
          },
        ];
      else w = m.results.map((r) => ({ role: "tool", tool_call_id: r.id, content: r.refs ? `${r.text}\n${refDefs(r.refs)}` : r.text }));
      openaiWire.set(m, w);
    }
    return w;
  };
  // OpenAI tool search is a Responses API feature (gpt-5.4 and later): every catalog function declared deferred at
  // the top level (each bills its name and description) plus the hosted tool_search tool; a search runs inside the
  // model's turn, and its call and output (the found tools' full definitions) are input items from then on.
  const responsesFn = (n: string): Json => {
    const f = (byWire.get(n) as ToolInfo).openai.function as Json;
    return { type: "function", name: f.name, description: f.description, parameters: f.parameters };
  };
  const responsesSearchTools: Json[] = [...infos.map((t) => ({ ...responsesFn(t.name), defer_loading: true })), { type: "tool_search" }];
  const responsesWire = new WeakMap<Msg, Json[]>();
  const toResponses = (m: Msg): Json[] => {
    let w = responsesWire.get(m);
    if (!w) {
      if (m.role === "user") w = [{ type: "message", role: "user", content: m.text }];
      else if (m.role === "assistant")
        w = [
          ...(m.searches ?? []).flatMap((q) => [
            { type: "tool_search_call", call_id: q.id, execution: "server", status: "completed", arguments: { query: q.query } },
            { type: "tool_search_output", call_id: q.id, execution: "server", status: "completed", tools: q.found.map(responsesFn) },
          ]),
          ...(m.text ? [{ type: "message", role: "assistant", content: [{ type: "output_text", text: m.text, annotations: [] }] }] : []),
          ...m.calls.map((c) => ({ type: "function_call", call_id: c.id, name: c.name, arguments: JSON.stringify(c.input) })),
        ];
      else w = m.results.map((r) => ({ type: "function_call_output", call_id: r.id, output: r.text }));
      responsesWire.set(m, w);
    }
    return w;
  };
  // The model id only makes the request valid (tool search needs gpt-5.4 or later); prices are the replay's profile.
  const responsesBody = (msgs: readonly Msg[]): Json => ({ model: "gpt-5.4", instructions: prompt, tools: responsesSearchTools, input: msgs.flatMap(toResponses) });

  // Schema texts sent as dispatcher additions, with the tools each carries (for the bill's breakdown).
  const dispatchTexts = new Map<string, readonly string[]>();
  const dispatchTextFor = (a: DeliveryAddition): string => {
    const text = dispatchTextOf(catalog, a.tools.map((n) => (byWire.get(n) as ToolInfo).record.name));
    dispatchTexts.set(text, a.tools);
    return text;
  };
  // Dispatcher delivery (OpenAI): each addition is a system message with the tools' schemas as text.
  const openaiAdditionMemo = new Map<string, Json>();
  const openaiAddition = (a: DeliveryAddition): Json => {
    const key = `${a.at}\0${a.tools.join("\0")}`;
    let w = openaiAdditionMemo.get(key);
    if (!w) {
      w = { role: "system", content: dispatchTextFor(a) };
      openaiAdditionMemo.set(key, w);
    }
    return w;
  };
  const openaiMessages = (msgs: readonly Msg[], additions: readonly DeliveryAddition[]): Json[] => {
    const out: Json[] = [];
    let a = 0;
    for (let i = 0; i < msgs.length; i++) {
      while (a < additions.length && additions[a].at <= i) out.push(openaiAddition(additions[a++]));
      out.push(...toOpenai(msgs[i]));
    }
    while (a < additions.length) out.push(openaiAddition(additions[a++]));
    return out;
  };
  const dispatcherTools: Json[] = [SEARCH_TOOL_LC, CALL_TOOL_DEF].map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.schema } }));
  // search_tools as the adapters bind it under rebind and stable (before the routed tools), in the provider's shape.
  const boundSearch: Json[] = [provider === "anthropic" ? SEARCH_TOOL_DEF : dispatcherTools[0]];
  const additionMemo = new Map<string, Json>();
  const additionMessage = (a: DeliveryAddition): Json => {
    const key = `${a.at}\0${a.tools.join("\0")}`;
    let w = additionMemo.get(key);
    if (!w) {
      if (nativeAdditions) w = { role: "system", content: a.tools.map((name) => ({ type: "tool_addition", tool: { type: "tool_reference", name } })) };
      else {
        // The dispatcher path of models without mid-conversation tool changes (as the adapters send it).
        w = { role: caps.midConversationSystemMessages ? "system" : "user", content: [{ type: "text", text: dispatchTextFor(a) }] };
      }
      additionMemo.set(key, w);
    }
    return w;
  };
  const anthropicMessages = (msgs: readonly Msg[], additions: readonly DeliveryAddition[]): Json[] => {
    const out: Json[] = [];
    let a = 0;
    for (let i = 0; i < msgs.length; i++) {
      while (a < additions.length && additions[a].at <= i) out.push(additionMessage(additions[a++]));
      out.push(toAnthropic(msgs[i]));
    }
    while (a < additions.length) out.push(additionMessage(additions[a++]));
    // The breakpoint on the last block: a copy, so the shared objects stay unmarked.
    const last = out[out.length - 1];
    if (last) {
      const content = [...(last.content as Json[])];
      content[content.length - 1] = { ...content[content.length - 1], cache_control: EPHEMERAL };
      out[out.length - 1] = { ...last, content };
    }
    return out;
  };
  const msgTokens = (m: Msg): number =>
    m.role === "user"
      ? tokens(m.text)
      : m.role === "assistant"
        ? tokens(m.text) + m.calls.reduce((s, c) => s + tokens(JSON.stringify({ name: c.name, input: c.input })), 0)
        : m.results.reduce((s, r) => s + tokens(r.text) + (r.refs ? r.refs.reduce((x, n) => x + (byWire.get(n) as ToolInfo).schemaTokens, 0) : 0), 0);

  // What a segment carries, for the breakdown: a share of the pool, catalog tools' schemas (weighted by their
  // tokens), or neither. Read back from the segment's key (the wire functions key a block by its content).
  type Carried = { pool: number; tools: readonly (readonly [string, number])[] };
  const carriedMemo = new Map<number, Carried>();
  const toolWeights = (names: readonly string[], tokens: number): (readonly [string, number])[] => {
    const sum = names.reduce((x, n) => x + (byWire.get(n)?.schemaTokens ?? 0), 0) || 1;
    // A dispatcher text carries a short header besides the schemas: the schemas' share is capped at the text.
    const scale = Math.min(1, sum / Math.max(1, tokens));
    return names.map((n) => [n, (scale * (byWire.get(n)?.schemaTokens ?? 0)) / sum] as const);
  };
  // The catalog tool a JSON definition names, if any.
  const nameIn = (json: string): string | undefined => {
    try {
      const name = (JSON.parse(json) as Json).name;
      return typeof name === "string" && byWire.has(name) ? name : undefined;
    } catch {
      return undefined;
    }
  };
  const carried = (seg: { id: number; tokens: number }): Carried => {
    let hit = carriedMemo.get(seg.id);
    if (hit) return hit;
    const key = ctx.interner.keyOf(seg.id) ?? "";
    hit = { pool: 0, tools: [] };
    // A definition bound or added (Anthropic, Chat Completions, a Responses tool loaded by tool search), or the
    // definitions a server-side tool search result expands to (one per line after its header).
    const definition = /^(?:tool|fn|system\0tool_addition|tool\0fn\0[^\0]*)\0(\{.*)$/s.exec(key);
    const found = key.startsWith("assistant\0tool_search_tool_result\0") ? key.split("\n").slice(1).map(nameIn).filter((n): n is string => !!n) : [];
    if (definition) {
      const name = nameIn(definition[1]);
      if (name) hit = { pool: 0, tools: [[name, 1]] };
    } else if (found.length) hit = { pool: 0, tools: toolWeights(found, seg.tokens) };
    else if (poolTokens > 0 && key.includes(poolText)) hit = { pool: Math.min(1, poolTokens / Math.max(1, seg.tokens)), tools: [] };
    else
      for (const [text, names] of dispatchTexts)
        if (key.endsWith(text)) {
          hit = { pool: 0, tools: toolWeights(names, seg.tokens) };
          break;
        }
    carriedMemo.set(seg.id, hit);
    return hit;
  };

  const poolShowsParams = rendered.params;
  // As the adapters decide it: a tool the model can call right from the pool (its miss rarely costs a round trip).
  const callableFromPool = (name: string) => runValid && poolShowsParams && callableFromSignature((byWire.get(name) as ToolInfo).schema);
  const script = scriptOf(opts.tasks);
  const conversations = conversationsOf(script, opts.calls);
  const callsPerConversation = conversations[0]?.length ?? 0;
  const defaultMode = resolveDeliveryMode("auto", profile, { fullSchemas, pool: poolTokens, tools: catalog.size, k });
  const uncachedProfile: ProviderProfile = { ...profile, name: `${profile.name} (no caching)`, cache: "none" };
  const sticky = stickyConfig(undefined);

  const rows: CostRow[] = [];
  for (const method of methods) {
    const tot: Totals = { billed: 0, input: 0, read: 0, requests: 0, changes: 0, gold: 0, goldFirstTry: 0, goldDelivered: 0, fromPool: 0, goldCalls: 0, allGoldCalls: 0, gateCalls: 0, roundTrips: 0, pool: 0, neededSchemas: 0, unneededSchemas: 0, toolsDelivered: 0, toolsNeeded: 0 };
    // The oracle: the default delivery with a perfect router (exactly the step's gold tools routed, at their step):
    // what delivery mechanics cost apart from routing quality.
    const taMode: DeliveryMode | undefined =
      method === "tool-attention" || method === "oracle"
        ? defaultMode
        : method === "tool-attention-rebind"
          ? "rebind"
          : method === "tool-attention-stable"
            ? "stable"
            : method === "tool-attention-deferred"
              ? "deferred"
              : undefined;
    const routed = taMode !== undefined || method === "llm-tool-selector";

    for (let ci = 0; ci < conversations.length; ci++) {
      const conv = conversations[ci];
      const cache = new PrefixCache(method === "all-uncached" ? uncachedProfile : profile);
      const msgs: Msg[] = [];
      let history = 0;
      let ids = 0;
      let delivery: DeliveryState | undefined;
      // Calls to tools the model had not been given, since the last plan (see PlanInput.poolCalls).
      let poolSince: { ran: string[]; refused: string[] } = { ran: [], refused: [] };
      // The model calls through call_tool while the thread is on dispatcher delivery (deferred without tool_addition).
      let dispatchNow = false;
      let prevToolsKey: string | undefined;
      let stickyState: ToolAttentionDecisionState["sticky"] = [];
      let promotedSince: string[] = [];
      let lastObs: ToolMessage[] = [];
      // Per model turn of this conversation, the tools that ran (the thread's transitions, for anticipation).
      const ranTurns: string[][] = [];
      let usedBefore: { name: string; description: string }[] = [];
      let firstOfRequest = true;
      let selectorUser: Json = {};
      const outputs = new Set<string>();
      const loaded = new Set<string>();
      // For the breakdown: the last call each tool is called at in this conversation, the call it first arrived at.
      const lastGold = new Map<string, number>();
      conv.forEach((c, at) => {
        for (const g of c.gold) for (const t of byToolName.get(g) ?? []) lastGold.set(t.name, at);
      });
      const arrived = new Map<string, number>();
      let callIndex = 0;
      const neededTool = (name: string) => (lastGold.get(name) ?? -1) >= (arrived.get(name) ?? Infinity);

      const push = (m: Msg) => {
        if (m.role === "assistant" && dispatchNow && m.calls.length > 0) m.dispatch = true;
        msgs.push(m);
        history += msgTokens(m);
      };
      const price = (body: Json, main: boolean) => {
        const segments =
          provider === "anthropic" ? anthropicPrompt(body, ctx).segments : "input" in body ? openaiResponsesPrompt(body, ctx).segments : openaiPrompt(body, ctx).segments;
        const u: CallUsage = cache.account(segments);
        const charges = segmentCharges(segments, u, cache.profile);
        segments.forEach((seg, si) => {
          const what = carried(seg);
          tot.pool += charges[si] * what.pool;
          for (const [name, share] of what.tools) {
            if (!arrived.has(name)) arrived.set(name, callIndex);
            if (neededTool(name)) tot.neededSchemas += charges[si] * share;
            else tot.unneededSchemas += charges[si] * share;
          }
        });
        tot.billed += u.billed;
        tot.input += u.total;
        tot.read += u.cacheRead;
        tot.requests++;
        if (main) {
          const key = (body.tools as Json[]).map((t) => `${t.defer_loading ? "~" : ""}${String(t.name ?? (t.function as Json | undefined)?.name)}`).join("\n");
          if (prevToolsKey !== undefined && key !== prevToolsKey) tot.changes++;
          prevToolsKey = key;
        }
      };
      const body = (tools: Json[], withPool: boolean, additions: readonly DeliveryAddition[] = []): Json =>
        provider === "anthropic"
          ? { tools, system: withPool ? sys.anthropicPool : sys.anthropicPlain, messages: anthropicMessages(msgs, additions) }
          : { tools, messages: [withPool ? sys.openaiPool : sys.openaiPlain, ...openaiMessages(msgs, additions)] };
      const newId = () => `call_${ci}_${++ids}`;

      for (let i = 0; i < conv.length; i++) {
        callIndex = i;
        const call = conv[i];
        const task = call.task;
        if (i === 0 || conv[i - 1].taskIndex !== call.taskIndex) {
          push({ role: "user", text: task.query });
          // A new request: sticky tools and the rolling intent start over.
          stickyState = [];
          promotedSince = [];
          lastObs = [];
          usedBefore = [];
          firstOfRequest = true;
          selectorUser = provider === "anthropic" ? { role: "user", content: [{ type: "text", text: task.query }] } : { role: "user", content: task.query };
        }
        const view = stateViewFrom({
          scopes: task.state?.scopes,
          milestones: task.state?.milestones,
          toolOutputs: [...(task.state?.toolOutputs ?? []), ...outputs],
          raw: task.state,
        });
        // The gold tools this call makes: each name with the catalog tools that carry it and may run now.
        const gold = call.gold
          .map((g) => ({ name: g, tools: (byToolName.get(g) ?? []).filter((t) => checkPreconditions(t.record, view).allow) }))
          .filter((g) => g.tools.length > 0);

        let active: string[] = [];
        let scores: ReadonlyMap<string, number> | undefined;
        if (routed) {
          stickyState = nextSticky({ sticky: stickyState, promoted: promotedSince } as ToolAttentionDecisionState, lastObs, sticky);
          promotedSince = [];
          // The first call of a request routes on the request alone; later ones also on the plan the model stated.
          const step = firstOfRequest || !task.steps?.length ? 0 : call.step + 1;
          const parts = simulatedIntent(task, step, usedBefore, simulate);
          if (method === "oracle") active = gold.map((g) => g.tools[0].name);
          else {
            // What the adapters anticipate: the successors of the tools that just ran, and pairs seen in the thread.
            const anticipate = { after: lastObs.map((m) => m.name as string), transitions: transitionsOf(ranTurns) };
            ({ names: active, scores } = await routeMemoized(parts, view, stickyState.map((s) => s.name), anticipate));
          }
        }
        firstOfRequest = false;

        const assistantText = call.next;
        const calls = gold.map((g) => ({ g, id: newId(), input: argsFor(g.tools[0].schema, call.text) }));
        const assistantTokens =
          tokens(assistantText) + calls.reduce((s, c) => s + tokens(JSON.stringify({ name: c.g.tools[0].name, input: c.input })), 0);
        const budget = Math.max(16, Math.floor((opts.historyTokens - assistantTokens) / Math.max(1, calls.length)));

        // 1. Calls before the model's own: the selection call, or a search for tools the model has not loaded.
        let firstTry = gold.length;
        if (method === "llm-tool-selector") price(selectorRequest(selectorUser), false);
        // Server-side searches this turn (Anthropic's tool search tool, OpenAI's hosted tool_search): they run inside
        // the model's turn, so they add blocks to its message, not requests.
        const searches: ServerSearch[] = [];
        if (method === "provider-tool-search" && gold.length > 0) {
          const has = (g: (typeof gold)[number]) => g.tools.some((t) => loaded.has(t.name));
          const searchCall = (query: string, found: readonly string[]) => {
            searches.push({ id: `srvtoolu_${ci}_${++ids}`, query, found: [...found] });
            for (const n of found) loaded.add(n);
          };
          if (!gold.every(has)) searchCall(call.text, await search(call.text));
          firstTry = gold.filter(has).length;
          // A search that missed: the model searches again with the tool's own words (and finds it).
          for (const g of gold.filter((x) => !has(x))) {
            const query = splitIdentifier(g.name);
            const found = await search(query);
            searchCall(query, found.includes(g.tools[0].name) ? found : [...found.slice(0, SEARCH_TOP - 1), g.tools[0].name]);
          }
        }

        // 2. The model's call: what it is sent, and which tools it can call.
        let available: ReadonlySet<string> | "all" = "all";
        let plan: ReturnType<typeof planDelivery> | undefined;
        const tokensOf = () => ({ fullSchemas, pool: poolTokens, schema: (n: string) => byWire.get(n)?.schemaTokens ?? 0, context: promptTokens + history });
        const planned = (p: ReturnType<typeof planDelivery>): Json =>
          p.mode === "deferred"
            ? body(provider === "anthropic" ? deferredTools : dispatcherTools, true, p.additions)
            : body([...(searchToolBound(p.mode, opts) ? boundSearch : []), ...toolsFor(p.bound)], p.mode !== "all");
        if (method === "all-uncached" || method === "all-cached") price(body(allTools, false), true);
        else if (method === "no-tools") {
          // The floor: the same conversation with no tool definitions and no pool at all (its calls still run).
          price(body([], false), true);
        }
        else if (method === "provider-tool-search") {
          // The request as sent, before the turn's searches (a lower bound: the in-turn continuation after a
          // search is not billed here).
          price(provider === "anthropic" ? body(searchTools, false) : responsesBody(msgs), true);
          available = loaded;
        } else if (method === "llm-tool-selector") {
          // Optimistic: the selector picks the gold tools, then the router's picks up to k; bound in catalog order.
          const picked = new Set(gold.map((g) => g.tools[0].name));
          for (const n of active) if (picked.size < Math.max(k, gold.length) && !picked.has(n)) picked.add(n);
          price(body(toolsFor(infos.filter((t) => picked.has(t.name)).map((t) => t.name)), false), true);
          available = picked;
        } else if (taMode !== undefined) {
          plan = planDelivery({ mode: taMode, previous: delivery, active, scores, callableFromPool, poolCalls: poolSince, catalog: allNames, messageCount: msgs.length, tokens: tokensOf(), profile, k, guarantee: opts.guarantee, deferred: opts.deferred });
          poolSince = { ran: [], refused: [] };
          delivery = plan.state;
          dispatchNow = !nativeAdditions && plan.mode === "deferred";
          price(planned(plan), true);
          available = plan.mode === "all" ? "all" : new Set(availableTools(plan));
        }

        if (gold.length === 0) {
          // Nothing callable (the step's tools are forbidden in this state, or not in the catalog): a short answer.
          push({ role: "assistant", text: `I can't do that here: ${call.text}`, calls: [] });
          lastObs = [];
          usedBefore = [];
          continue;
        }

        // 3. The tool calls: callable ones run; the others get the gate's promotion error and one more call.
        const chosen = calls.map((c) => ({ c, tool: available === "all" ? c.g.tools[0] : c.g.tools.find((t) => available.has(t.name)) }));
        // A tool that was not delivered runs at once when the model's arguments fit its schema (runValidCalls). The
        // model can only know them from the pool: every parameter when the pool lists them (terse format), else
        // only a tool without required parameters is called right.
        // Only through call_tool (bound on every deferred request) can the model reach a tool it was not given: a
        // bound tool list (stable, rebind) holds only the delivered tools, and a deferred tool not loaded cannot be
        // called by its own name.
        const knowsArgs = (t: ToolInfo) => taMode !== undefined && plan?.mode === "deferred" && runValid && (!requiredParams(t.schema).length || (poolShowsParams && callableFromSignature(t.schema)));
        for (const x of chosen) if (!x.tool && knowsArgs(x.c.g.tools[0])) Object.assign(x, { tool: x.c.g.tools[0], unbound: true });
        const missing = chosen.filter((x) => !x.tool).map((x) => ({ c: x.c, name: x.c.g.tools[0].name }));
        const ranUnbound = chosen.filter((x) => (x as { unbound?: boolean }).unbound).length;
        // What the adapters read from the history at the next call: the calls that ran from the pool.
        poolSince = { ran: chosen.filter((x) => (x as { unbound?: boolean }).unbound).map((x) => (x.tool as ToolInfo).name), refused: [] };
        // The gate's answer lists what is available after the promotion: the routed tools plus the promoted ones.
        const afterPromotion = [...new Set([...active, ...missing.map((m) => m.name)])];
        push({
          role: "assistant",
          text: assistantText,
          calls: chosen.map((x) => ({ id: x.c.id, name: (x.tool ?? x.c.g.tools[0]).name, input: x.c.input, ...((x as { unbound?: boolean }).unbound ? { dispatch: true } : {}) })),
          ...(searches.length ? { searches } : {}),
        });
        push({
          role: "tool",
          results: chosen.map(({ c, tool }) =>
            tool
              ? { id: c.id, name: tool.name, text: resultFor(call, c.g.name, budget) }
              : { id: c.id, name: c.g.tools[0].name, text: promotedContent(c.g.tools[0].name, afterPromotion), error: true },
          ),
        });
        if (taMode !== undefined) firstTry = gold.length - missing.length;
        tot.roundTrips += missing.length > 0 && taMode !== undefined ? 1 : 0;
        if (method !== "llm-tool-selector") {
          tot.gold += gold.length;
          tot.goldFirstTry += firstTry;
          tot.goldDelivered += firstTry - ranUnbound;
          if (taMode !== undefined) tot.fromPool += ranUnbound;
          tot.goldCalls++;
          if (firstTry === gold.length) tot.allGoldCalls++;
          else tot.gateCalls++;
        }
        if (missing.length > 0 && taMode !== undefined) {
          // Promoted: the next call binds them (no new routing, as after the gate's jump back to the model).
          const names = missing.map((m) => m.name);
          plan = planDelivery({ mode: taMode, previous: delivery, active: [...new Set([...active, ...names])], promoted: names, scores, callableFromPool, poolCalls: { ran: poolSince.ran, refused: names }, catalog: allNames, messageCount: msgs.length, tokens: tokensOf(), profile, k, guarantee: opts.guarantee, deferred: opts.deferred });
          poolSince = { ran: [], refused: [] };
          delivery = plan.state;
          dispatchNow = !nativeAdditions && plan.mode === "deferred";
          price(planned(plan), true);
          const again = missing.map((m) => ({ id: newId(), name: m.name, input: m.c.input }));
          push({ role: "assistant", text: "", calls: again });
          push({ role: "tool", results: again.map((a, j) => ({ id: a.id, name: a.name, text: resultFor(call, missing[j].c.g.name, budget) })) });
          promotedSince = names;
        }
        for (const g of gold) outputs.add(g.name);
        // What the next routing sees: the results after the model's last call, and the tools used at this step.
        const last = msgs[msgs.length - 1];
        lastObs = last.role === "tool" ? last.results.filter((r) => !r.error).map((r) => new ToolMessage({ content: "ok", tool_call_id: r.id, name: r.name })) : [];
        if (lastObs.length > 0) ranTurns.push(lastObs.map((m) => m.name as string));
        usedBefore = gold.map((g) => ({ name: g.name, description: g.tools[0].record.description }));
      }
      tot.toolsDelivered += arrived.size;
      for (const name of arrived.keys()) if (neededTool(name)) tot.toolsNeeded++;
    }

    const n = conversations.length || 1;
    const billed = tot.billed / n;
    rows.push({
      method,
      provider,
      ...(taMode ? { mode: taMode } : {}),
      billedPerConversation: billed,
      billedPerCall: callsPerConversation ? billed / callsPerConversation : 0,
      inputTokensPerConversation: tot.input / n,
      cacheHitShare: tot.input ? tot.read / tot.input : 0,
      toolSetChanges: tot.changes / n,
      recall: method === "llm-tool-selector" || method === "no-tools" ? null : tot.gold ? tot.goldFirstTry / tot.gold : 1,
      delivered: method === "llm-tool-selector" || method === "no-tools" ? null : tot.gold ? tot.goldDelivered / tot.gold : 1,
      allGold: method === "llm-tool-selector" || method === "no-tools" ? null : tot.goldCalls ? tot.allGoldCalls / tot.goldCalls : 1,
      fromPool: taMode === undefined ? null : tot.gold ? tot.fromPool / tot.gold : 0,
      gateTrigger: method === "llm-tool-selector" || method === "no-tools" ? null : tot.goldCalls ? tot.gateCalls / tot.goldCalls : 0,
      roundTrips: tot.roundTrips / n,
      conversations: conversations.length,
      calls: tot.requests / n,
      breakdown: {
        pool: tot.pool / n,
        neededSchemas: tot.neededSchemas / n,
        unneededSchemas: tot.unneededSchemas / n,
        rest: (tot.billed - tot.pool - tot.neededSchemas - tot.unneededSchemas) / n,
        toolsDelivered: tot.toolsDelivered / n,
        toolsNeeded: tot.toolsNeeded / n,
      },
    });
  }
  return { methods: rows, profile: profile.name, callsPerConversation, historyTokens: opts.historyTokens, systemTokens, k };
}
