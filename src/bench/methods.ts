/**
 * The methods the benchmark compares, each turned into per-task outcomes (what the model could call, and what
 * each turn's tool payload costs in tokens) on the same catalog and tasks:
 *
 * - B1 Full-Schema: every tool's full schema every turn, as raw MCP JSON and as LangChain's OpenAI-tool rendering.
 * - B2 Static Pruning: a fixed 30-tool subset chosen without looking at tasks (see `staticSubset`).
 * - B3 Simple Retrieval: top-10 full schemas by cosine; no θ, no preconditions, no pool.
 * - B4 CLI-style lazy discovery: a names list plus the `--help` text of the tools the task needs.
 * - LLM selector: the prompt of one selection call as LangChain's `llmToolSelectorMiddleware` builds it.
 * - Tool Attention: the real router — Phase-1 pool + Phase-2 schemas of the routed, gated top-k.
 */
import { callableFromSignature } from "../core/render/signature.js";
import { tool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { llmSelectorSchema, LLM_SELECTOR_SYSTEM_PROMPT } from "../eval/llm-selector.js";
import { ToolCatalog, type CatalogEntry } from "../core/catalog/catalog.js";
import type { EncoderName } from "../core/encoders/index.js";
import { checkPreconditions } from "../core/preconditions/preconditions.js";
import { ToolAttentionRouter, type RouteQuery, type RouterOptions } from "../core/router/router.js";
import { renderFullSchema } from "../core/render/render.js";
import { countTokens, type TokenEncoding } from "../core/tokens/count.js";
import type { AgentStateView, JsonSchema, ToolRecord } from "../core/types.js";
import type { FullToolSchema } from "../core/loader/schema-loader.js";
import { embedRoutedQueries, routedQueries, routedText, stateOf } from "../eval/evaluate.js";
import type { EvalTask } from "../eval/tasks.js";
import { contextUtilization, gateTriggerRate, summarizeOutcomes, type ContextAssumptions, type GateTriggerStats, type MethodSummary, type TaskOutcome } from "./metrics.js";

/** A catalog and its tasks, benchmarked together. */
export interface BenchSet {
  name: string;
  catalog: ToolCatalog;
  tasks: EvalTask[];
}

/** One row of a results table. */
export interface MethodRow {
  key: string;
  label: string;
  /** Measured values; absent when the row was skipped. */
  summary?: MethodSummary;
  /** Hallucination-gate trigger rate for a simulated model calling each gold tool (router-based rows). */
  gate?: GateTriggerStats;
  /** Why the row could not be measured here. */
  skipped?: string;
  /** How to read the row (what the cells mean for this method). */
  note?: string;
  /** For router rows: the encoder, θ and k used. */
  config?: { encoder: string; theta: number; k: number; index?: string };
}

export interface MethodOptions {
  encoding: TokenEncoding;
  /** Encoder of the Tool Attention router; B3 retrieves with the same one. */
  encoder: EncoderName;
  context: ContextAssumptions;
  /** Route long-horizon tasks once per plan step (query + step) as an agent would per turn. Default true. */
  perStep?: boolean;
  /** Embedding cache directory for the routers (default: the encoders' default). */
  cacheDir?: string | false;
  /** Progress lines (stderr). */
  log?: (line: string) => void;
  /** Query vectors of the tasks' routed texts from the same encoder (see `runRouter`); skips re-embedding them. */
  queryVectors?: readonly (readonly number[])[];
}

/** The number of tools B2 keeps. */
export const STATIC_SUBSET_SIZE = 30;
/** The number of schemas B3 sends. */
export const SIMPLE_RETRIEVAL_K = 10;

/** The same tools without their preconditions (B3 and the −preconditions ablation). */
export function withoutPreconditions(catalog: ToolCatalog, encoding: TokenEncoding): ToolCatalog {
  const entries: CatalogEntry[] = catalog.tools.map((t) => ({
    server: t.server,
    spec: { name: t.name, description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema, annotations: t.annotations, tags: t.tags },
  }));
  return new ToolCatalog(entries, { encoding });
}

function schemaOf(t: ToolRecord): FullToolSchema {
  return { name: t.name, description: t.description, inputSchema: t.inputSchema ?? { type: "object", properties: {} } };
}

/** Tokens of one tool's raw MCP JSON `{name, description, inputSchema}` (the router's Phase-2 rendering). */
export function rawSchemaTokens(t: ToolRecord, encoding: TokenEncoding): number {
  return countTokens(renderFullSchema(schemaOf(t)), encoding);
}

/**
 * Tokens of the `tools` array a LangChain chat model sends for these tools: each tool is built with LangChain's
 * `tool()` from its JSON schema and converted with `convertToOpenAITool`, as `bindTools` does for OpenAI.
 */
export function langChainOpenAiToolsTokens(tools: readonly ToolRecord[], encoding: TokenEncoding): { tokens: number; failed: string[] } {
  const rendered: unknown[] = [];
  const failed: string[] = [];
  for (const t of tools) {
    try {
      const lc = tool(async () => "", { name: t.name, description: t.description, schema: schemaOf(t).inputSchema as never });
      rendered.push(convertToOpenAITool(lc));
    } catch (err) {
      failed.push(`${t.id}: ${(err as Error).message}`);
    }
  }
  return { tokens: countTokens(JSON.stringify(rendered), encoding), failed };
}

/**
 * B2's curated subset, chosen by a fixed rule that never looks at tasks: each server gets a share of the 30 slots
 * proportional to its tool count (largest remainder, ties to the earlier server); within a server, tools that need
 * no precondition (reads and lists a developer would expose by default) come first, then the rest, in declared order.
 */
export function staticSubset(catalog: ToolCatalog, size = STATIC_SUBSET_SIZE): ToolRecord[] {
  if (catalog.size <= size) return [...catalog.tools];
  const byServer = new Map<string, ToolRecord[]>();
  for (const t of catalog.tools) {
    const list = byServer.get(t.server) ?? [];
    list.push(t);
    byServer.set(t.server, list);
  }
  const servers = [...byServer.entries()];
  const exact = servers.map(([, list]) => (list.length * size) / catalog.size);
  const quota = exact.map(Math.floor);
  let left = size - quota.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rem: x - Math.floor(x) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    quota[i]++;
    left--;
  }
  const out: ToolRecord[] = [];
  servers.forEach(([, list], i) => {
    const free = list.filter((t) => t.preconditions.length === 0);
    const gated = list.filter((t) => t.preconditions.length > 0);
    out.push(...[...free, ...gated].slice(0, quota[i]));
  });
  return out;
}

function typeLabel(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "value";
  const s = schema as JsonSchema;
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map(String).join("|");
  if (s.type === "array") return `${typeLabel(s.items)}[]`;
  if (typeof s.type === "string") return s.type;
  if (Array.isArray(s.type)) return (s.type as unknown[]).join("|");
  return "json";
}

/**
 * The `--help` text a CLI-style tool would print: usage line, description, one line per top-level option with
 * its type, required flag and description. Nested objects are shown as JSON-typed options.
 */
export function renderCliHelp(t: ToolRecord): string {
  const schema = schemaOf(t).inputSchema;
  const props = (schema.properties && typeof schema.properties === "object" ? schema.properties : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const lines = [`Usage: ${t.name}${Object.keys(props).length ? " [options]" : ""}`, t.description.trim()];
  const names = Object.keys(props);
  if (names.length) lines.push("Options:");
  for (const name of names) {
    const p = props[name] as JsonSchema | undefined;
    const desc = typeof p?.description === "string" ? ` ${p.description}` : "";
    lines.push(`  --${name} <${typeLabel(p)}>${required.has(name) ? " (required)" : ""}${desc}`);
  }
  return lines.join("\n");
}

/** B4's always-present part: the list a `tools list` command prints, one name per line. */
export function renderCliNames(catalog: ToolCatalog): string {
  return ["Available tools (run `<tool> --help` for usage):", ...catalog.tools.map((t) => t.name)].join("\n");
}

// The selector's prompt and schema live with the cost replay, which prices its call too.
export { LLM_SELECTOR_SYSTEM_PROMPT, llmSelectorSchema };

/** Tokens of the selection call's input for one user message: system prompt + response schema + the message. */
export function llmSelectorCallTokens(schemaJson: string, userMessage: string, encoding: TokenEncoding): number {
  return countTokens(LLM_SELECTOR_SYSTEM_PROMPT, encoding) + countTokens(schemaJson, encoding) + countTokens(userMessage, encoding);
}

/**
 * Gold tools the task's state forbids: their preconditions fail (as the catalog declares them). A correct agent
 * must not run them, so they are scored apart from the reachable gold. Tasks files may list them as `blocked`;
 * deriving them from the catalog works for any task file.
 */
export function blockedGold(catalog: ToolCatalog, task: EvalTask): string[] {
  const state = stateOf(task);
  return [...new Set(task.gold)].filter((g) => {
    const t = catalog.getByName(g)[0];
    return t !== undefined && !checkPreconditions(t, state).allow;
  });
}

/** Tools whose preconditions hold in a state, by name (for the gate's precondition reasons). */
function preconditionReasonFn(catalog: ToolCatalog, state: AgentStateView) {
  return (name: string): string | undefined => {
    for (const t of catalog.getByName(name)) {
      const c = checkPreconditions(t, state);
      if (c.allow) return undefined;
      return c.reason;
    }
    return undefined;
  };
}

export interface RouterRunOptions {
  k: number;
  theta: number;
  /** Send the Phase-1 pool (Tool Attention) or not (B3). */
  includePool: boolean;
  perStep: boolean;
  /** Query vectors of every routed text, in task order, embedded beforehand by the same encoder. */
  queryVectors?: readonly (readonly number[])[];
}

/** Runs a router over every task (batched query embedding, then one route per turn). */
export async function runRouter(router: ToolAttentionRouter, tasks: readonly EvalTask[], gateCatalog: ToolCatalog, opts: RouterRunOptions) {
  await router.prepare();
  const queries: RouteQuery[] = [];
  const offsets: number[] = [];
  for (const task of tasks) {
    offsets.push(queries.length);
    queries.push(...routedQueries(task, opts.perStep));
  }
  if (opts.queryVectors && opts.queryVectors.length !== queries.length)
    throw new Error(`runRouter: ${opts.queryVectors.length} query vectors for ${queries.length} routed queries`);
  const vectors = opts.queryVectors ?? (await embedRoutedQueries(router, queries));
  // As the adapters gate it (runValidCalls on, the default): a call to an unexposed tool runs when the pool names its
  // required parameters and they are plain values (the simulated model fills them right from their names).
  const fromPool = router.poolOptions.runValidCalls === true && router.poolShowsParameters();
  const runsFromPool = (name: string) => fromPool && gateCatalog.getByName(name).some((t) => callableFromSignature(t.inputSchema));
  const outcomes: TaskOutcome[] = [];
  const gateInputs: Parameters<typeof gateTriggerRate>[0][number][] = [];
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t];
    const state = stateOf(task);
    const n = routedQueries(task, opts.perStep).length;
    const seen = new Set<string>();
    const active: string[] = [];
    const turns = [];
    for (let j = 0; j < n; j++) {
      const i = offsets[t] + j;
      const d = await router.route(queries[i], state, { k: opts.k, theta: opts.theta, queryVector: vectors[i], turnId: task.id });
      for (const a of d.active) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        active.push(a.name);
      }
      const pool = opts.includePool ? d.phase1Tokens : 0;
      turns.push({ toolTokens: pool + d.phase2Tokens, poolExcludedTokens: d.phase2Tokens });
    }
    const blocked = blockedGold(gateCatalog, task);
    outcomes.push({ id: task.id, gold: task.gold, blocked, active, turns });
    gateInputs.push({ active, gold: task.gold, blocked, preconditionReason: preconditionReasonFn(gateCatalog, state), runsFromPool });
  }
  const gate = gateTriggerRate(gateInputs, (name) => gateCatalog.getByName(name).length > 0);
  return { outcomes, gate };
}

/**
 * A constant-cost method's summary: the same payload and active set on every turn of every task. A catalog
 * without tasks still gets its token figures (no retrieval scores).
 */
function constantSummary(set: BenchSet, perStep: boolean, tokens: number, active: string[], ctx: ContextAssumptions): MethodSummary {
  if (set.tasks.length === 0) return { tokensPerTurn: tokens, poolExcludedTokensPerTurn: tokens, rho: contextUtilization(tokens, ctx), turns: 0, tasks: 0 };
  return summarizeOutcomes(constantOutcomes(set, perStep, tokens, tokens, active), ctx);
}

const NO_TASKS = "skipped: this catalog has no tasks to route";

function constantOutcomes(set: BenchSet, perStep: boolean, tokens: number, poolExcluded: number, active: string[] | undefined): TaskOutcome[] {
  return set.tasks.map((task) => ({
    id: task.id,
    gold: task.gold,
    blocked: blockedGold(set.catalog, task),
    active,
    turns: routedQueries(task, perStep).map(() => ({ toolTokens: tokens, poolExcludedTokens: poolExcluded })),
  }));
}

export interface RouterSpec {
  encoder: EncoderName | "hybrid";
  theta?: number;
  k?: number;
  /** Route over the catalog with preconditions removed. */
  noPreconditions?: boolean;
  /** Routing mechanisms to turn off or tune (ablations). */
  routing?: Pick<RouterOptions, "multiVector" | "servers" | "minActive">;
}

/** Builds (and prepares) a router; a built-in encoder this build lacks comes back as a skip reason. */
export async function buildRouter(
  catalog: ToolCatalog,
  spec: RouterSpec,
  opts: Pick<MethodOptions, "encoding" | "cacheDir">,
): Promise<ToolAttentionRouter | { skipped: string }> {
  const routerOptions: RouterOptions = {
    encoder: spec.encoder as EncoderName,
    encoding: opts.encoding,
    log: false,
    ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}),
    ...(spec.theta !== undefined ? { theta: spec.theta } : {}),
    ...(spec.k !== undefined ? { k: spec.k } : {}),
    ...spec.routing,
  };
  let router: ToolAttentionRouter;
  try {
    router = new ToolAttentionRouter(catalog, routerOptions);
    await router.prepare();
  } catch (err) {
    return { skipped: `skipped: encoder "${spec.encoder}" not available (${firstLine((err as Error).message)})` };
  }
  return router;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0].trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function round(x: number, d = 1): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

/** Measures every method on one set. `ta` is the prepared Tool Attention router (default settings). */
export async function runMethods(set: BenchSet, ta: ToolAttentionRouter, opts: MethodOptions): Promise<MethodRow[]> {
  const { catalog, tasks } = set;
  const perStep = opts.perStep ?? true;
  const enc = opts.encoding;
  const log = opts.log ?? (() => {});
  const rows: MethodRow[] = [];
  const allNames = catalog.tools.map((t) => t.name);
  const ctx = opts.context;

  // B1: raw MCP JSON.
  let raw = 0;
  for (const t of catalog.tools) raw += rawSchemaTokens(t, enc);
  rows.push({
    key: "b1-raw",
    label: "B1 Full-Schema (raw MCP JSON)",
    summary: constantSummary(set, perStep, raw, allNames, ctx),
    note: "every tool's {name, description, inputSchema} as JSON, every turn",
  });

  // B1: LangChain's OpenAI tools rendering.
  const lc = langChainOpenAiToolsTokens(catalog.tools, enc);
  rows.push({
    key: "b1-langchain",
    label: "B1 Full-Schema (LangChain OpenAI tools)",
    summary: constantSummary(set, perStep, lc.tokens, allNames, ctx),
    note: `tool() + convertToOpenAITool for every tool, JSON array${lc.failed.length ? `; ${lc.failed.length} tools failed to convert and are not counted` : ""}`,
  });
  log(`  B1 done (raw ${raw}, LangChain ${lc.tokens} tokens)`);

  // B2: static subset.
  const subset = staticSubset(catalog);
  let subsetTokens = 0;
  for (const t of subset) subsetTokens += rawSchemaTokens(t, enc);
  rows.push({
    key: "b2-static",
    label: `B2 Static Pruning (${subset.length} tools)`,
    summary: constantSummary(set, perStep, subsetTokens, subset.map((t) => t.name), ctx),
    note: "fixed subset: per-server share of 30 slots by tool count, precondition-free tools first, declared order",
  });

  if (tasks.length === 0) {
    for (const [key, label] of [["b3-retrieval", "B3 Simple Retrieval (top-10)"], ["b4-cli", "B4 CLI-style lazy discovery"], ["llm-selector", "LLM selector (selection call only)"], ["tool-attention", "Tool Attention"]])
      rows.push({ key, label, skipped: NO_TASKS });
    const pool = ta.poolTokens();
    rows[rows.length - 1].note = `summary pool alone: ${pool} tokens`;
    return rows;
  }

  // Every router-based row routes the same texts with the same encoder: embed them once.
  const queryVectors = opts.queryVectors ?? (await embedRoutedQueries(ta, tasks.flatMap((t) => routedQueries(t, perStep))));

  // B3: top-10 by plain cosine (the dense channel alone when Tool Attention is hybrid), no θ, no preconditions,
  // no pool. Its query vectors are the same: hybrid's dense channel is that encoder.
  const plainCatalog = withoutPreconditions(catalog, enc);
  const plainEncoder = opts.encoder === "hybrid" ? "use-lite" : opts.encoder;
  const plain = await buildRouter(plainCatalog, { encoder: plainEncoder, k: SIMPLE_RETRIEVAL_K, theta: -1 }, opts);
  if ("skipped" in plain) rows.push({ key: "b3-retrieval", label: "B3 Simple Retrieval (top-10)", skipped: plain.skipped });
  else {
    // Blocked gold and gate answers are judged against the real preconditions (B3 itself ignores them).
    const r = await runRouter(plain, tasks, catalog, { k: SIMPLE_RETRIEVAL_K, theta: -1, includePool: false, perStep, queryVectors });
    rows.push({
      key: "b3-retrieval",
      label: "B3 Simple Retrieval (top-10)",
      summary: summarizeOutcomes(r.outcomes, ctx),
      gate: r.gate,
      note: "top-10 full schemas by cosine; no θ, no preconditions, no summary pool",
      config: { encoder: plainEncoder, theta: -1, k: SIMPLE_RETRIEVAL_K, index: plain.indexKind },
    });
  }
  log("  B3 done");

  // B4: names list + help text of the gold tools (the discovery a model needs at best).
  const namesTokens = countTokens(renderCliNames(catalog), enc);
  const helpTokens = new Map<string, number>();
  const helpOf = (name: string) => {
    let n = helpTokens.get(name);
    if (n === undefined) {
      const t = catalog.getByName(name)[0];
      n = t ? countTokens(renderCliHelp(t), enc) : 0;
      helpTokens.set(name, n);
    }
    return n;
  };
  const b4: TaskOutcome[] = tasks.map((task) => {
    const help = [...new Set(task.gold)].reduce((a, g) => a + helpOf(g), 0);
    return { id: task.id, gold: task.gold, blocked: blockedGold(catalog, task), active: [...new Set(task.gold)], turns: [{ toolTokens: namesTokens + help, poolExcludedTokens: help }] };
  });
  rows.push({
    key: "b4-cli",
    label: "B4 CLI-style lazy discovery",
    summary: summarizeOutcomes(b4, ctx),
    note: `names list (${namesTokens} tokens) + --help of the task's gold tools; the model is assumed to ask for exactly the gold tools' help (oracle discovery: recall 1 by construction, no wrong --help calls counted; blocked gold tools are fetched and exposed too, as nothing gates them)`,
  });

  // LLM selector: one selection call's input per turn (names as schema literals + system prompt + user message).
  const selectorSchema = JSON.stringify(llmSelectorSchema(allNames));
  const sel: TaskOutcome[] = tasks.map((task) => ({
    id: task.id,
    gold: task.gold,
    turns: routedQueries(task, perStep).map((query) => {
      const n = llmSelectorCallTokens(selectorSchema, routedText(query), enc);
      return { toolTokens: n, poolExcludedTokens: n };
    }),
  }));
  rows.push({
    key: "llm-selector",
    label: "LLM selector (selection call only)",
    summary: summarizeOutcomes(sel, ctx),
    note:
      "input tokens of the extra selection call per model call (llmToolSelectorMiddleware, langchain 1.5.x: system prompt + " +
      "structured-output schema with one literal per tool name + last user message); the main call's schemas come on top; " +
      "recall needs a live model and is not measured; ρ is of the selection call's context",
  });

  // Tool Attention.
  const r = await runRouter(ta, tasks, catalog, { k: ta.k, theta: ta.theta, includePool: true, perStep, queryVectors });
  rows.push({
    key: "tool-attention",
    label: "Tool Attention",
    summary: summarizeOutcomes(r.outcomes, ctx),
    gate: r.gate,
    note: "Phase-1 summary pool + Phase-2 schemas of the routed, precondition-gated top-k",
    config: { encoder: opts.encoder, theta: ta.theta, k: ta.k, index: ta.indexKind },
  });
  log(`  Tool Attention done (${round(rows[rows.length - 1].summary?.tokensPerTurn ?? 0)} tokens/turn)`);
  return rows;
}
