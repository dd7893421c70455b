/**
 * Tool delivery for the LangChain adapters: plans each model call with `planDelivery` (core) and shapes the
 * request so the provider's cached prefix survives:
 * - tools in a stable order (tools outside the catalog first, then `search_tools`, then the plan's bound tools in
 *   binding order), or
 *   on Anthropic under `deferred` every catalog tool declared `defer_loading` with a non-deferred `search_tools`;
 * - the pool appended to the system prompt, byte-identical on every call, with the user's prompt kept in its
 *   shape (a string stays a string; on Anthropic the pool becomes its own block so it can carry a breakpoint);
 * - Anthropic breakpoints after the system prompt and on the last message block (the conversation is then
 *   cached incrementally), and after the last bound tool;
 * - deferred additions re-inserted where they were first placed, as `role: "system"` `tool_addition` blocks.
 */
import { AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCatalog } from "../../core/catalog/catalog.js";
import type { ToolAttentionRouter } from "../../core/router/router.js";
import { DEFAULT_PROFILES, resolveProfile, type ProfileSpec, type ProviderProfile } from "../../core/cost/profiles.js";
import { planDelivery, resolveDeliveryMode, type DeferredOptions, type DeliveryAddition, type DeliveryOption, type DeliveryPlan, type DeliveryState, type StableOptions } from "../../core/delivery/plan.js";
import { capabilitiesOf, type ModelCapabilities } from "../../core/providers/capabilities.js";
import { identifyModel } from "../../core/providers/model-id.js";
import { countTokens } from "../../core/tokens/count.js";
import { callableFromSignature } from "../../core/render/signature.js";
import { estimatedCatalogSchemaTokens } from "../../core/tokens/estimate.js";
import { anthropicDef, CALL_TOOL_ANTHROPIC, CALL_TOOL_DEF, CALL_TOOL_NAME, CALL_TOOL_NATIVE_ANTHROPIC, deferredDecl, dispatchText, SEARCH_TOOL_DEF, SEARCH_TOOL_LC, SEARCH_TOOL_NAME, unwrapDispatch } from "./dispatch.js";
import { toolNameOf } from "./compact-tools.js";
import { lastObservations, messageText, stateViewOf } from "./messages.js";
import { firstSentence } from "../../core/catalog/text.js";
import { SEARCH_K } from "../../core/router/intent.js";
import type { DeliveryEvent, DeliveryLatency } from "../../core/events/events.js";

export { CALL_TOOL_DEF, CALL_TOOL_NAME, CALL_TOOL_NATIVE_ANTHROPIC, DISPATCH_HEADER, dispatchTextOf, SEARCH_TOOL_DEF, SEARCH_TOOL_LC, SEARCH_TOOL_NAME, unwrapDispatch } from "./dispatch.js";

/** The Anthropic beta that allows `tool_addition` blocks in mid-conversation system messages. */
export const MID_CONVERSATION_TOOLS_BETA = "mid-conversation-tool-changes-2026-07-01";
/** Delivery options both adapters take. */
export interface DeliveryOptions {
  /**
   * How routed tools reach the model across a thread's calls (see `DeliveryMode`). Default "auto": `deferred` on
   * Anthropic, `stable` elsewhere, `all` when the catalog is small enough that every schema cached costs no more.
   */
  delivery?: DeliveryOption;
  /**
   * The provider's caching profile (prices, minimum cacheable length). Default: detected from the chat model
   * (`ChatAnthropic` → Anthropic, `ChatOpenAI` → OpenAI, by model name); other models get "other" (no cache).
   */
  provider?: ProfileSpec;
  /** Settings of `stable` delivery. */
  stable?: StableOptions;
  /** Settings of `deferred` delivery (`perCall`: new tools delivered per call at most, default k). */
  deferred?: DeferredOptions;
  /** Add Anthropic `cache_control` breakpoints (tools, system, last message). Default true. */
  cacheBreakpoints?: boolean;
  /**
   * Bind `search_tools` under `rebind` and `stable` delivery too (`deferred` always binds it; `all` never does, every
   * tool is bound there): the way back when routing missed the tool the model needs. The model describes what it
   * wants; the answer lists the router's 5 best matches, and they are bound on the next call. Its definition is
   * constant and comes before the routed tools, so the cached prefix does not move when they change. Default true.
   */
  searchTool?: boolean;
  /**
   * Never let a thread bill more than every schema with caching would: once the running estimate says routing
   * has cost the thread more, it binds every schema from then on (and says so in its delivery event). Default
   * true; `false` keeps the chosen mode whatever it costs.
   */
  guarantee?: boolean;
  /**
   * Overrides of the model's capability row (see `MODEL_CAPABILITIES`): for a model released after the table, or to
   * force a path, e.g. `{ midConversationTools: true }`. Default: the row of the detected model (an unknown model gets
   * the conservative row and one warning).
   */
  capabilities?: Partial<ModelCapabilities>;
}

/** The caching profile of a chat model (or the user's override). String model ids (`"anthropic:…"`) are recognized. */
export function profileOfModel(model: unknown, spec?: ProfileSpec): ProviderProfile {
  const id = identifyModel(model);
  if (spec) return resolveProfile(spec, id.model);
  if (id.provider === "anthropic" || id.provider === "openai") return resolveProfile(id.provider, id.model);
  return DEFAULT_PROFILES.other;
}

const warnedUnknown = new Set<string>();
/**
 * The capabilities of a chat model: its row of the table, LangChain's profile flags over it, the user's overrides
 * over both. An unknown model of a known provider gets the conservative row and one warning per model id.
 */
export function capabilitiesOfModel(model: unknown, profile: ProviderProfile, overrides?: Partial<ModelCapabilities>, log?: (line: string) => void): ModelCapabilities {
  // Once per model object and settings: this runs before every model call.
  const memo = model && typeof model === "object" ? capsMemo.get(model) : undefined;
  if (memo && memo.profile === profile && memo.overrides === overrides) return memo.caps;
  const caps = modelCapabilities(model, profile, overrides, log);
  if (model && typeof model === "object") capsMemo.set(model, { profile, overrides, caps });
  return caps;
}
const capsMemo = new WeakMap<object, { profile: ProviderProfile; overrides?: Partial<ModelCapabilities>; caps: ModelCapabilities }>();

function modelCapabilities(model: unknown, profile: ProviderProfile, overrides?: Partial<ModelCapabilities>, log?: (line: string) => void): ModelCapabilities {
  const id = identifyModel(model);
  const provider = profile.provider;
  const { caps, known } = capabilitiesOf(provider, id.model, { overrides, profile: id.profile });
  if (!known && provider !== "other" && !id.profile) {
    const key = `${provider}:${id.model ?? "?"}`;
    if (!warnedUnknown.has(key)) {
      warnedUnknown.add(key);
      log?.(
        `tool-attention: model "${id.model ?? "(unnamed)"}" is not in the ${provider} capability table; using the path every documented ` +
          `${provider} model accepts (no mid-conversation tool changes). Set capabilities: { midConversationTools: true } if it supports them.`,
      );
    }
  }
  return caps;
}

/** Token counts the planner needs, computed once per catalog. */
interface CatalogTokens {
  fullSchemas: number;
  pool: number;
  byName: Map<string, number>;
  names: string[];
  /** Whether the model can call a tool right from the pool (its lines name the parameters and such calls run). */
  callableFromPool: (name: string) => boolean;
}
const catalogTokens = new WeakMap<ToolCatalog, CatalogTokens>();

/** Tools counted between two yields to the event loop: the count of a 10,000-tool catalog takes seconds. */
const COUNT_SLICE = 250;
const counting = new WeakMap<ToolCatalog, Promise<CatalogTokens>>();
const estimates = new WeakMap<ToolCatalog, CatalogTokens>();

function callableFromPoolOf(router: ToolAttentionRouter, catalog: ToolCatalog): (name: string) => boolean {
  // With runValidCalls the pool names each tool's required parameters (and the form of non-plain values); such a
  // tool can then be called right from the pool, so missing it rarely costs a round trip.
  const fromPool = new Set(router.poolOptions.runValidCalls === true && router.poolShowsParameters() ? catalog.listed.filter((t) => callableFromSignature(t.inputSchema)).map((t) => t.name) : []);
  return (name: string) => fromPool.has(name);
}

/** Counts every tool's schema tokens, yielding to the event loop between slices. */
async function countCatalogTokens(router: ToolAttentionRouter, catalog: ToolCatalog): Promise<CatalogTokens> {
  // A catalog screening in the background is counted once screened (the schema lookups below would otherwise screen
  // it here, on this thread); quarantined tools are not counted.
  await catalog.whenScreened();
  const byName = new Map<string, number>();
  let i = 0;
  for (const t of catalog.listed) {
    byName.set(t.name, await router.schemaTokens([t.id]));
    if (++i % COUNT_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { fullSchemas: await router.fullSchemaTokens(), pool: router.poolTokens(), byName, names: catalog.listed.map((t) => t.name), callableFromPool: callableFromPoolOf(router, catalog) };
}

/** The same figures estimated from the schemas' JSON size (no tokenizer): what a progressive start plans on meanwhile. */
function estimatedCatalogTokens(router: ToolAttentionRouter, catalog: ToolCatalog): CatalogTokens {
  let hit = estimates.get(catalog);
  if (!hit) {
    const { byName, total } = estimatedCatalogSchemaTokens(catalog);
    hit = { fullSchemas: total, pool: router.poolTokens(), byName, names: catalog.listed.map((t) => t.name), callableFromPool: callableFromPoolOf(router, catalog) };
    estimates.set(catalog, hit);
  }
  return hit;
}

/**
 * Schema tokens of every catalog tool (once per catalog; call before planning). While a progressive start routes on
 * its lexical channel, the count (seconds on 10,000 tools) runs in slices behind the first calls, which plan on an
 * estimate from the schemas' JSON size; every later call plans on the count.
 */
export async function prepareCatalogTokens(router: ToolAttentionRouter): Promise<CatalogTokens> {
  const catalog = router.catalog;
  const hit = catalogTokens.get(catalog);
  if (hit) return hit;
  let count = counting.get(catalog);
  if (!count) {
    count = countCatalogTokens(router, catalog).then(
      (stats) => {
        catalogTokens.set(catalog, stats);
        counting.delete(catalog);
        return stats;
      },
      (err: unknown) => {
        // A failed count is not kept: the next call counts again.
        counting.delete(catalog);
        throw err;
      },
    );
    counting.set(catalog, count);
    // Awaited below or by a later call; never an unhandled rejection while the router starts.
    count.catch(() => undefined);
  }
  // The count started above runs meanwhile.
  await router.whenRoutable();
  const counted = catalogTokens.get(catalog);
  if (counted) return counted;
  // The count waits for a catalog's background screening too: meanwhile calls plan on the estimate.
  if (router.routesLexicallyWhileEmbedding() || catalog.screeningProgress().pending > 0) return estimatedCatalogTokens(router, catalog);
  return count;
}

/** The figures a call plans on: the count, else (a progressive start's lexical phase) the estimate. */
function plannedTokens(router: ToolAttentionRouter): CatalogTokens | undefined {
  return catalogTokens.get(router.catalog) ?? estimates.get(router.catalog);
}

/** Whether `prepareCatalogTokens` has run for the router's current catalog. */
export function catalogTokensReady(router: ToolAttentionRouter): boolean {
  return plannedTokens(router) !== undefined;
}

const messageTokenMemo = new WeakMap<BaseMessage, number>();
/** Tokens of a message's text and tool calls (memoized per message object). */
export function messageTokens(m: BaseMessage): number {
  let n = messageTokenMemo.get(m);
  if (n === undefined) {
    const calls = AIMessage.isInstance(m) && m.tool_calls?.length ? JSON.stringify(m.tool_calls.map((c) => ({ name: c.name, args: c.args }))) : "";
    n = countTokens(messageText(m)) + (calls ? countTokens(calls) : 0);
    messageTokenMemo.set(m, n);
  }
  return n;
}

export interface CallPlanInput {
  router: ToolAttentionRouter;
  previous?: DeliveryState;
  /** Routed tools of the call, best first. */
  active: readonly string[];
  /** The router's fused scores of `active` (same order), for deferred's expected-cost selection. */
  scores?: readonly number[];
  promoted?: readonly string[];
  messages: readonly BaseMessage[];
  systemText: string;
  profile: ProviderProfile;
  options: DeliveryOptions;
  /** Tokens of the system text and messages, when the caller counted them already (see `contextTokens`). */
  context?: number;
}

/** Tokens of the system text and the conversation, as the plan prices them (messages memoized per object). */
export function contextTokens(systemText: string, messages: readonly BaseMessage[]): number {
  let context = countTokens(systemText);
  for (const m of messages) context += messageTokens(m);
  return context;
}

/**
 * The model's calls since the previous model call to tools it had not been given (neither bound nor delivered by
 * the previous plan): those whose result came back ran, those the gate promoted were refused. What the expected-cost
 * delivery learns from (see `PlanInput.poolCalls`).
 */
export function poolCallsSince(messages: readonly BaseMessage[], previous: DeliveryState | undefined, promoted: readonly string[] = []): { ran: string[]; refused: string[] } {
  const out = { ran: [] as string[], refused: [] as string[] };
  if (!previous || previous.mode === "all") return out;
  let at = messages.length - 1;
  while (at >= 0 && ToolMessage.isInstance(messages[at])) at--;
  const last = messages[at];
  if (!last || !AIMessage.isInstance(last) || !last.tool_calls?.length) return out;
  const given = new Set(previous.mode === "deferred" ? previous.additions.flatMap((a) => a.tools) : previous.bound);
  const results = new Map(messages.slice(at + 1).map((m) => [(m as ToolMessage).tool_call_id, m as ToolMessage]));
  for (const call of unwrapDispatch(last.tool_calls)) {
    if (given.has(call.name) || call.name === SEARCH_TOOL_NAME || call.name === CALL_TOOL_NAME) continue;
    const result = call.id ? results.get(call.id) : undefined;
    if (promoted.includes(call.name)) out.refused.push(call.name);
    else if (result && result.status !== "error") out.ran.push(call.name);
  }
  return out;
}

/** Plans one model call (the catalog tokens must have been prepared). */
export function planCall(input: CallPlanInput): DeliveryPlan {
  const { router, profile } = input;
  const stats = plannedTokens(router);
  if (!stats) throw new Error("planCall: prepareCatalogTokens(router) must run first");
  const k = router.k;
  const mode =
    input.previous?.mode ??
    resolveDeliveryMode(input.options.delivery ?? "auto", profile, { fullSchemas: stats.fullSchemas, pool: stats.pool, tools: stats.names.length, k });
  const context = input.context ?? contextTokens(input.systemText, input.messages);
  return planDelivery({
    mode,
    previous: input.previous,
    active: input.active,
    promoted: input.promoted,
    catalog: stats.names,
    messageCount: input.messages.length,
    lastMessageId: input.messages.at(-1)?.id,
    tokens: { fullSchemas: stats.fullSchemas, pool: stats.pool, schema: (n) => stats.byName.get(n) ?? 0, context },
    profile,
    stable: input.options.stable,
    deferred: input.options.deferred,
    k,
    guarantee: input.options.guarantee,
    scores: input.scores ? new Map(input.active.map((n, i) => [n, input.scores?.[i] ?? Number.NaN] as const).filter(([, s]) => Number.isFinite(s))) : undefined,
    // Every deferred request binds call_tool (beside native deferral too), so any listed tool is one call away.
    callableFromPool: stats.callableFromPool,
    poolCalls: poolCallsSince(input.messages, input.previous, input.promoted),
  });
}

const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Re-inserts every deferred addition where it was first placed, so the conversation up to the newest one is
 * byte-identical to what the provider cached. An addition sits right after the message it was anchored to (by id),
 * wherever that message is now: another middleware may have trimmed or summarized the history in between. When the
 * anchor is gone (summarized away), the addition goes after the last message, where a new delivery would go (the
 * cache was rewritten by the summary anyway). An addition without an anchor (its message had no id) goes after the
 * message its index names. A tool its server removed since is left out: referencing an undeclared tool is rejected.
 */
function withAdditions(
  messages: readonly BaseMessage[],
  additions: readonly DeliveryAddition[],
  catalog: ToolCatalog,
  render: (names: string[]) => BaseMessage,
): BaseMessage[] {
  if (additions.length === 0) return [...messages];
  const position = new Map<string, number>();
  messages.forEach((m, i) => {
    if (m.id) position.set(m.id, i);
  });
  // Inserts after original index i (−1: before everything; messages.length − 1: at the end), in addition order.
  const after = new Map<number, BaseMessage[]>();
  for (const a of additions) {
    const names = a.tools.filter((n) => catalog.getByName(n).length > 0);
    if (names.length === 0) continue;
    const i = a.after !== undefined ? (position.get(a.after) ?? messages.length - 1) : Math.min(a.at, messages.length) - 1;
    const list = after.get(i) ?? [];
    list.push(render(names));
    after.set(i, list);
  }
  const out: BaseMessage[] = [...(after.get(-1) ?? [])];
  messages.forEach((m, i) => {
    out.push(m);
    const here = after.get(i);
    if (here) out.push(...here);
  });
  return out;
}

/** Adds a breakpoint to a copy of a message's last content block (string content becomes one text block). */
function withBreakpoint(m: BaseMessage, marker: Record<string, unknown> = EPHEMERAL): BaseMessage {
  const content = m.content;
  let blocks: Record<string, unknown>[];
  if (typeof content === "string") {
    if (!content) return m;
    blocks = [{ type: "text", text: content }];
  } else if (Array.isArray(content) && content.length > 0) blocks = content.map((b) => (typeof b === "string" ? { type: "text", text: b } : { ...(b as object) }));
  else return m;
  blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: marker };
  const fields = { content: blocks as never, id: m.id, name: m.name, additional_kwargs: m.additional_kwargs, response_metadata: m.response_metadata };
  if (ToolMessage.isInstance(m)) return new ToolMessage({ ...fields, tool_call_id: m.tool_call_id, status: m.status, artifact: m.artifact });
  if (AIMessage.isInstance(m)) return new AIMessage({ ...fields, tool_calls: m.tool_calls, invalid_tool_calls: m.invalid_tool_calls });
  if (HumanMessage.isInstance(m)) return new HumanMessage(fields);
  if (SystemMessage.isInstance(m)) return new SystemMessage(fields);
  return m;
}

/** Counts cache_control breakpoints already present in a message list and system message. */
function breakpointsIn(messages: readonly BaseMessage[], system?: BaseMessage): number {
  let n = 0;
  for (const m of system ? [system, ...messages] : messages)
    if (Array.isArray(m.content)) for (const b of m.content) if (b && typeof b === "object" && "cache_control" in b && b.cache_control) n++;
  return n;
}

/** The system message with the pool: same shape as the user's (string stays string), or a separate Anthropic block with a breakpoint. */
export function systemWithPool(
  system: SystemMessage | undefined,
  pool: string | undefined,
  opts: { anthropicBlocks: boolean; marker?: Record<string, unknown> },
): SystemMessage | undefined {
  if (!opts.anthropicBlocks) {
    if (!pool) return system;
    if (!system) return new SystemMessage(pool);
    if (typeof system.content === "string") return new SystemMessage({ content: system.content ? `${system.content}\n\n${pool}` : pool, id: system.id });
    return new SystemMessage({ content: [...(system.content as never[]), { type: "text", text: pool }] as never, id: system.id });
  }
  const userBlocks: Record<string, unknown>[] =
    system === undefined
      ? []
      : typeof system.content === "string"
        ? system.content
          ? [{ type: "text", text: system.content }]
          : []
        : (system.content as Record<string, unknown>[]).map((b) => ({ ...b }));
  const blocks = pool ? [...userBlocks, { type: "text", text: pool }] : userBlocks;
  if (blocks.length === 0) return undefined;
  blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: opts.marker ?? EPHEMERAL };
  return new SystemMessage({ content: blocks as never, id: system?.id });
}

/** Whether a call planned in `mode` binds `search_tools`: always under `deferred`, never under `all`, else by option. */
export function searchToolBound(mode: DeliveryPlan["mode"], options: Pick<DeliveryOptions, "searchTool">): boolean {
  return mode === "deferred" || (mode !== "all" && (options.searchTool ?? true));
}

export interface ShapedRequest {
  tools: unknown[];
  systemMessage?: SystemMessage;
  messages: BaseMessage[];
  /** Extra model settings (Anthropic betas for deferred delivery). */
  modelSettings?: Record<string, unknown>;
  /** Tool names the model can call after this request (bound, added so far, outside the catalog). */
  available: string[];
  /** Milliseconds spent rendering the system message with the pool (for the delivery event's latency split). */
  renderMs?: number;
}

/**
 * Shapes one request from a plan. `tools` are the request's tools (registered ones; catalog tools are looked up
 * by name, others pass through in their order); `resolve` supplies catalog tools that were not registered.
 */
export function shapeRequest(args: {
  plan: DeliveryPlan;
  profile: ProviderProfile;
  catalog: ToolCatalog;
  tools: readonly unknown[];
  resolve?: (name: string) => unknown;
  systemMessage?: SystemMessage;
  messages: readonly BaseMessage[];
  pool?: string;
  modelSettings?: Record<string, unknown>;
  options: DeliveryOptions;
  /** What the model accepts (default: the conservative row of the profile's provider). */
  caps?: ModelCapabilities;
}): ShapedRequest {
  const { plan, profile, catalog } = args;
  const anthropic = profile.provider === "anthropic";
  const caps = args.caps ?? capabilitiesOf(profile.provider, undefined).caps;
  const breakpoints = anthropic && (args.options.cacheBreakpoints ?? true);
  // A top-level cache_control (anthropicPromptCachingMiddleware sets one) marks the last cacheable block and takes one
  // of the 4 breakpoints. Ours then use its TTL (a 1-hour breakpoint may not follow a 5-minute one) and leave the
  // last message to it.
  const top = anthropic ? (args.modelSettings?.cache_control as { type?: string; ttl?: string } | undefined) : undefined;
  const marker: Record<string, unknown> = top?.ttl ? { type: "ephemeral", ttl: top.ttl } : EPHEMERAL;
  const passthrough: unknown[] = [];
  const byName = new Map<string, unknown>();
  for (const t of args.tools) {
    const name = toolNameOf(t);
    if ((name === SEARCH_TOOL_NAME || name === CALL_TOOL_NAME) && catalog.getByName(name).length === 0) continue;
    // The catalog's tools (and a registered tool that screening quarantined, never bound, not even as a tool outside
    // the catalog) are kept by name without a lookup: a catalog screening in the background screens a tool when it
    // is looked up to be sent (find), not every registered tool on every call.
    if (name && catalog.covers(name)) byName.set(name, t);
    else passthrough.push(t);
  }
  const find = (name: string) => (catalog.getByName(name).length > 0 ? byName.get(name) : undefined) ?? args.resolve?.(name);
  const available = passthrough.map(toolNameOf).filter((n): n is string => !!n);
  let tools: unknown[];
  let messages = [...args.messages];
  let modelSettings = args.modelSettings;
  if (plan.mode === "deferred") {
    // The tools array is constant. Where the model takes tool changes mid-conversation (Anthropic from Opus 4.8
    // on), every catalog tool is declared deferred and a routed one arrives as a `tool_addition`, with `call_tool`
    // beside them for tools not delivered yet; elsewhere a fixed dispatcher (`call_tool`) is bound and a routed
    // tool's schema arrives as text, in a system message where the model accepts one mid-conversation and as user
    // text where it does not (Claude before Opus 4.8 answers 400).
    const native = anthropic && caps.midConversationTools;
    const decls: unknown[] = [];
    if (native)
      for (const name of catalog.tools.map((t) => t.name)) {
        // Every tool is declared: each is screened first (a catalog screening in the background), quarantined ones skipped.
        if (catalog.getByName(name).length === 0) continue;
        const decl = deferredDecl(catalog, name, find(name));
        if (decl) decls.push(decl);
      }
    // Native deferral keeps call_tool too: a tool not delivered yet is one call away when its pool line suffices.
    tools = native ? [...passthrough, SEARCH_TOOL_DEF, CALL_TOOL_NATIVE_ANTHROPIC, ...decls] : anthropic ? [...passthrough, SEARCH_TOOL_DEF, CALL_TOOL_ANTHROPIC] : [...passthrough, SEARCH_TOOL_LC, CALL_TOOL_DEF];
    available.push(SEARCH_TOOL_NAME);
    messages = withAdditions(messages, plan.additions, catalog, (names) =>
      native
        ? new SystemMessage({ content: names.map((name) => ({ type: "tool_addition", tool: { type: "tool_reference", name } })) as never })
        : caps.midConversationSystemMessages
          ? new SystemMessage(dispatchText(catalog, names, find))
          : new HumanMessage(dispatchText(catalog, names, find)),
    );
    for (const a of plan.additions) available.push(...a.tools.filter((n) => catalog.getByName(n).length > 0));
    if (native) {
      const betas = new Set<string>([...((modelSettings?.betas as string[] | undefined) ?? []), caps.midConversationToolsBeta ?? MID_CONVERSATION_TOOLS_BETA]);
      modelSettings = { ...modelSettings, betas: [...betas] };
    }
  } else {
    const bound: unknown[] = [];
    for (const name of plan.bound) {
      const t = find(name);
      if (!t) continue;
      bound.push(anthropic ? (anthropicDef(t) ?? t) : t);
      available.push(name);
    }
    if (breakpoints && bound.length > 0) {
      const last = bound[bound.length - 1] as Record<string, unknown>;
      if (last && typeof last === "object" && "input_schema" in last) bound[bound.length - 1] = { ...last, cache_control: marker };
    }
    // The way back when routing misses: a constant search_tools before the routed tools (see DeliveryOptions).
    const search = searchToolBound(plan.mode, args.options) && catalog.getByName(SEARCH_TOOL_NAME).length === 0;
    if (search) available.push(SEARCH_TOOL_NAME);
    tools = [...passthrough, ...(search ? [anthropic ? SEARCH_TOOL_DEF : SEARCH_TOOL_LC] : []), ...bound];
  }
  const pool = plan.mode === "all" ? undefined : args.pool;
  const used = breakpoints ? breakpointsIn(messages, args.systemMessage) + (top ? 1 : 0) : 0;
  const tRender = performance.now();
  const systemMessage = systemWithPool(args.systemMessage, pool, { anthropicBlocks: breakpoints && used < 3, marker });
  const renderMs = performance.now() - tRender;
  if (breakpoints && !top && used < 2 && messages.length > 0) messages[messages.length - 1] = withBreakpoint(messages[messages.length - 1], marker);
  return { tools, systemMessage, messages, modelSettings, available, renderMs };
}

/** How a plan's tools reach the model on this request (see `DeliveryEvent.via`). */
export function deliveryPath(plan: DeliveryPlan, profile: ProviderProfile, caps?: ModelCapabilities): DeliveryEvent["via"] {
  if (plan.mode !== "deferred") return "bound";
  if (profile.provider === "anthropic" && caps?.midConversationTools) return "tool_addition";
  return caps?.midConversationSystemMessages ? "dispatcher" : "dispatcher-user-text";
}

export function deliveryEventOf(turnId: string, profile: ProviderProfile, plan: DeliveryPlan, previous?: DeliveryState, caps?: ModelCapabilities, latencyMs?: DeliveryLatency): DeliveryEvent {
  const before = previous?.estimate ?? { plan: 0, allCached: 0 };
  return {
    type: "tool_attention.delivery",
    turnId,
    profile: profile.name,
    ...(caps ? { model: caps.family } : {}),
    mode: plan.mode,
    via: deliveryPath(plan, profile, caps),
    cacheBroken: plan.changed,
    bound: plan.bound.length,
    added: plan.added,
    keptUnrouted: plan.keptUnrouted,
    unboundRouted: plan.deferredMisses,
    billedEstimate: Math.round(plan.state.estimate.plan - before.plan),
    allCachedEstimate: Math.round(plan.state.estimate.allCached - before.allCached),
    toolSetChanges: plan.state.changes,
    reason: plan.reason,
    ...(latencyMs ? { latencyMs } : {}),
  };
}

/**
 * Answers a `search_tools` call: the router's 5 best matches for the model's own words, one line each. The names
 * ride in the result's artifact; the next routing promotes them (see `foundBySearch`), so they are delivered on
 * the next call without touching the cached prefix.
 */
export async function answerSearch(
  router: ToolAttentionRouter,
  call: { id?: string; args?: Record<string, unknown> },
  state: { messages?: BaseMessage[]; scopes?: string[]; milestones?: string[] },
): Promise<ToolMessage> {
  const query = typeof call.args?.query === "string" ? call.args.query : "";
  if (!query.trim())
    return new ToolMessage({ content: 'search_tools needs a "query": say what you want to do.', tool_call_id: call.id ?? "", name: SEARCH_TOOL_NAME, status: "error" });
  const d = await router.route(query, stateViewOf(state), { k: SEARCH_K });
  const names = d.active.map((a) => a.name);
  const lines = d.active.map((a) => `- ${a.name}: ${firstSentence(router.catalog.getById(a.id)?.description ?? "")}`);
  const content = names.length ? `${lines.join("\n")}\nThese tools are callable on your next step.` : "No tool matches; rephrase what you want to do.";
  return new ToolMessage({ content, tool_call_id: call.id ?? "", name: SEARCH_TOOL_NAME, artifact: { tools: names } });
}

/** Catalog tools found by the `search_tools` results among the latest tool results (to promote on this call). */
export function foundBySearch(messages: readonly BaseMessage[], catalog: ToolCatalog): string[] {
  const found: string[] = [];
  for (const m of lastObservations(messages))
    if (m.name === SEARCH_TOOL_NAME) for (const n of (m.artifact as { tools?: unknown[] } | undefined)?.tools ?? []) if (typeof n === "string") found.push(n);
  return [...new Set(found.filter((n) => catalog.getByName(n).length > 0))];
}

/** One model call's delivery: its caching profile, its plan and the request shaped from it. */
export interface DeliveredCall {
  profile: ProviderProfile;
  /** What the model accepts (its capability row). */
  caps: ModelCapabilities;
  plan: DeliveryPlan;
  shaped: ShapedRequest;
}

/**
 * Plans and shapes one model call and emits its `tool_attention.delivery` event: what both adapters do before
 * the model runs (the createAgent middleware from the request, the LangGraph hooks from graph state).
 */
export function deliverCall(args: {
  router: ToolAttentionRouter;
  decision: { turnId: string; active: readonly string[]; scores?: readonly number[]; promoted?: readonly string[]; delivery?: DeliveryState };
  /** The chat model, read for its caching profile. */
  model: unknown;
  options: DeliveryOptions;
  tools: readonly unknown[];
  resolve?: (name: string) => unknown;
  systemMessage?: SystemMessage;
  messages: readonly BaseMessage[];
  pool?: string;
  modelSettings?: Record<string, unknown>;
  emit: (event: DeliveryEvent) => void;
  /** Where a warning about an unknown model goes (the router's `log`). */
  log?: (line: string) => void;
  /** A last step over the shaped tools (the middleware's schema compaction), timed with the delivery. */
  bind?: (tools: unknown[], plan: DeliveryPlan) => unknown[];
}): DeliveredCall {
  const { router, decision, options } = args;
  const t0 = performance.now();
  const profile = profileOfModel(args.model, options.provider);
  const caps = capabilitiesOfModel(args.model, profile, options.capabilities, args.log);
  const systemText = args.systemMessage ? args.systemMessage.text : "";
  const tTokens = performance.now();
  const context = contextTokens(systemText, args.messages);
  const tokensMs = performance.now() - tTokens;
  const plan = planCall({
    router,
    previous: decision.delivery,
    active: decision.active,
    scores: decision.scores,
    promoted: decision.promoted,
    messages: args.messages,
    systemText,
    profile,
    options,
    context,
  });
  const shaped = shapeRequest({
    plan,
    profile,
    catalog: router.catalog,
    tools: args.tools,
    resolve: args.resolve,
    systemMessage: args.systemMessage,
    messages: args.messages,
    pool: args.pool,
    modelSettings: args.modelSettings,
    options,
    caps,
  });
  // OpenAI routes requests with the same prompt_cache_key to the same cache: every thread over this catalog starts
  // with the same tools and pool, so they share one key (unless the app set its own on the model or the call).
  const m = args.model as { promptCacheKey?: unknown; _defaultConfig?: { promptCacheKey?: unknown } } | undefined;
  if (profile.provider === "openai" && m?.promptCacheKey === undefined && m?._defaultConfig?.promptCacheKey === undefined && shaped.modelSettings?.promptCacheKey === undefined)
    shaped.modelSettings = { ...shaped.modelSettings, promptCacheKey: `tool-attention-${router.catalog.fingerprint.slice(0, 16)}` };
  if (args.bind) shaped.tools = args.bind(shaped.tools, plan);
  const total = performance.now() - t0;
  const render = shaped.renderMs ?? 0;
  const latencyMs: DeliveryLatency = { tokens: tokensMs, render, delivery: Math.max(0, total - tokensMs - render), total };
  const event = deliveryEventOf(decision.turnId, profile, plan, decision.delivery, caps, latencyMs);
  // Planned on the JSON-size estimate while a progressive start's count runs (see prepareCatalogTokens).
  if (!catalogTokens.has(router.catalog)) event.schemaTokensEstimated = true;
  args.emit(event);
  return { profile, plan, shaped, caps };
}
