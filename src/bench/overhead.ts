/**
 * What the middleware adds to each model call of a real `createAgent` loop, and to the process's memory.
 *
 * The loop: the captured real MCP catalog (data/mcp/real-servers.json), padded with synthetic tools to `tools`
 * (default 500), every tool a LangChain tool with its declared schema that answers with a short result; the gold tasks over it (data/mcp/real-tasks.jsonl),
 * each scripted as "call the gold tools one per model call, then answer". The same agent runs with the middleware
 * and without it (every tool bound), warm (router prepared, one unrecorded run first), with the embedded default
 * encoder.
 *
 * Per model call, the time outside the model's own wait is measured: from the end of the previous model call's wait
 * (or the invoke's start) to the start of this one's, plus the tail after the last one. The wait is the scripted
 * model's `_generate` body (nothing), or for the real clients the `fetch` of the request (the emulator's work falls
 * inside the wait and is not counted; the client's request building and serialization fall outside it and are). The
 * added time of a call is its time with the middleware minus the median time of the
 * same call of the same task without it.
 *
 * The loop runs in two styles: the worst case (tools answer at once and the model states nothing with its calls, so
 * every model call waits for one query encode) and the typical one (each tool takes 100 ms, an MCP round trip, and the
 * model states its step with each call, which the middleware embeds while the tool runs).
 *
 * Configurations: a scripted chat model (the middleware alone), in both styles, and in the worst case again with
 * tool results matched lexically only (`intent.embedResults: false`); `@langchain/anthropic` against the
 * Anthropic emulator (deferred delivery: the whole catalog declared `defer_loading` on every request) and
 * `@langchain/openai` against the OpenAI emulator, in the typical style. The emulators run in child processes, so
 * their parsing and token counting of 500 KB requests never runs (or collects garbage) in the measured process.
 * Phases come from the routing and delivery events' `latencyMs` and from timing the middleware's hooks.
 *
 * Memory (`addedRssMiB`): each configuration runs in a fresh child process sampling its RSS every 10 ms: without the
 * middleware, with it on an empty embedding cache (cold: the catalog is embedded), and with it again on the cache the
 * cold run filled (warm). Each run with the middleware ends once its router is fully built (`prepare()`): the cold
 * peak includes the background build, and the end readings are the steady state. Added = with minus without. Parts: the main thread's heap and external memory against the
 * run without the middleware, and the RSS released by terminating the encoder workers at the end.
 *
 * Run alone: `node --import tsx src/bench/overhead.ts [--tools N] [--tasks N] [--reps N] [--only scripted,anthropic,openai]
 * [--no-providers] [--no-memory] [--memory-only] [--markdown] [--out DIR]` (prints the result as JSON, or the report's section, and with
 * `--out` writes DIR/overhead.json and DIR/overhead.md; progress on stderr).
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createAgent } from "langchain";
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool as lcTool, type StructuredToolInterface } from "@langchain/core/tools";
import { runIfEntry } from "../cli/entry.js";
import { closeUseLiteWorkers, sharedUseLiteWorkerPool } from "../core/encoders/use-lite-pool.js";
import type { CatalogFile } from "../core/catalog/catalog.js";
import type { DeliveryEvent, RoutingEvent, ToolAttentionEvent } from "../core/events/events.js";
import type { JsonSchema } from "../core/types.js";
import { toolAttentionMiddleware } from "../adapters/langchain/middleware.js";
import { startAnthropicEmulator, startOpenAIEmulator, type Emulator, type EmulatorReply } from "../emulators/index.js";
import { loadTasks, type EvalTask } from "../eval/tasks.js";
import { captureCatalog } from "../mcp/capture.js";
import { REAL_SERVERS_CONFIG, REAL_TASKS } from "./real-catalog.js";
import { markdownTable } from "./report.js";

export const OVERHEAD_TOOLS = 500;
const SYNTHETIC_CATALOG = "data/synthetic/catalog.json";
/** A system prompt of ordinary length (the user's own; the middleware appends the pool to it). */
const SYSTEM_PROMPT =
  "You are the operations assistant of a software team. Use the tools to act on the team's repositories, " +
  "trackers, chat, databases and cloud accounts. Confirm destructive actions, keep answers short, and say which tool " +
  "you used. ".repeat(1);

export interface OverheadOptions {
  /** Catalog size (the real catalog padded with synthetic tools, or cut). Default 500. */
  tools?: number;
  /** Tasks per repetition (an even sample of the real gold tasks). Default 24. */
  tasks?: number;
  /** Repetitions of the task list per configuration (with and without the middleware, interleaved). Default 3. */
  reps?: number;
  /** Also measure the real Anthropic and OpenAI clients against the emulators. Default true. */
  providers?: boolean;
  /** Only these configurations (default: every one `providers` allows). */
  only?: readonly Provider[];
  /** Measure `addedRssMiB` in child processes. Default true. */
  memory?: boolean;
  log?: (line: string) => void;
}

/** Median and 95th percentile, in milliseconds. */
export interface Percentiles {
  p50: number;
  p95: number;
}

/** One configuration's added time per model call. */
export interface OverheadConfig {
  name: string;
  /** The delivery mode the middleware chose. */
  delivery: string;
  /** Model calls measured (with the middleware). */
  calls: number;
  /** Added time per model call (with minus without). */
  p50Ms: number;
  p95Ms: number;
  /** The same call's time without the middleware (the agent loop and the client alone). */
  baselineP50Ms: number;
  /** Added p50 of the first model call of a request (its new user message is embedded) and of the later ones. */
  firstCallP50Ms: number;
  laterCallsP50Ms: number;
  /** Request body sizes in KB, median, with and without the middleware (real clients only). */
  requestKB?: { with: number; without: number };
  /** Per-phase time of each model call with the middleware. */
  phases?: Record<string, Percentiles>;
}

/** Every text new, tools instant, no stated step: each model call waits for one query encode. */
export const WORST_LOOP: LoopStyle = { toolMs: 0, states: false };
/** Tools take 100 ms (an MCP round trip) and the model states its step with each call. */
export const TYPICAL_LOOP: LoopStyle = { toolMs: 100, states: true };

/** The worst case with tool results matched lexically only (`intent.embedResults: false`): nothing left to embed. */
export const WORST_LOOP_LEXICAL_RESULTS: LoopStyle = { ...WORST_LOOP, embedResults: false };

export function styleName(s: LoopStyle): string {
  return `${s.toolMs ? `tools ${s.toolMs} ms` : "instant tools"}, ${s.states ? "model states its step" : "no stated step"}${s.embedResults === false ? ", embedResults: false" : ""}`;
}

function summarize(samples: Record<string, number[]>): Record<string, Percentiles> {
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, { p50: round2(percentile(v, 50)), p95: round2(percentile(v, 95)) }]));
}

/**
 * Parts of the memory a run added, MiB: the main thread's V8 heap in use and external memory (catalog, index, token
 * counting, caches) minus the run without the middleware, from `process.memoryUsage()`; and the RSS the encoder's
 * worker threads held (RSS at the end minus RSS once they were terminated: a lower bound, the allocator may keep
 * some of their pages). Heap in use is not RSS (the heap's free space and code are resident too), so the parts
 * need not add up to the total.
 */
export interface MemoryParts {
  mainHeap: number;
  mainExternal: number;
  workers: number;
}

/** RSS readings of one child, MiB. */
export interface PeakEnd {
  peak: number;
  end: number;
}

export interface OverheadMemory {
  /** Peak RSS with the middleware on an empty embedding cache (the background build included), minus peak RSS without it. */
  coldPeak: number;
  /** RSS after the loop and the router's build with the middleware on a filled cache, minus the same without it. */
  warm: number;
  /** The raw readings, MiB. */
  rss: { none: PeakEnd; cold: PeakEnd; warm: PeakEnd };
  /** Where the added memory sits at the end of the cold and warm runs, MiB (see {@link MemoryParts}). */
  parts: { cold: MemoryParts; warm: MemoryParts };
  /** Seconds from building the catalog and agent (modules loaded) to the end of the first answered request, cold and warm. */
  firstCallS: { cold: number; warm: number };
  /** Encoder worker threads running at the end of the cold and warm runs (each holds a model copy). */
  encoderWorkers: { cold: number; warm: number };
}

export interface OverheadReport {
  tools: number;
  /** Headline: the Anthropic configuration (request serialization included) when measured, else the scripted one. */
  p50Ms: number;
  p95Ms: number;
  /** Which configuration the headline is. */
  headline: string;
  /** Per-phase time of each model call with the middleware (p50/p95, ms), of the headline configuration. */
  phases: Record<string, Percentiles>;
  configs: OverheadConfig[];
  addedRssMiB?: { coldPeak: number; warm: number } | { skipped: string };
  memory?: OverheadMemory;
  cpus: number;
  /** The machine's 1-minute load average when the measurement started and ended (other processes share the cores). */
  loadAverage: [number, number];
  encoder: string;
  source: string;
  targets: { p50Ms: number; p95Ms: number; coldPeakMiB: number; warmMiB: number };
  date: string;
}

export const OVERHEAD_TARGETS = { p50Ms: 15, p95Ms: 40, coldPeakMiB: 200, warmMiB: 120 } as const;

// ---------------------------------------------------------------------------------------------------------------
// Catalog, tools and scripted tasks
// ---------------------------------------------------------------------------------------------------------------

/** The loop's catalog: the captured real servers, padded (or cut) to `n` tools with synthetic ones. */
export async function overheadCatalog(n: number): Promise<{ file: CatalogFile; source: string } | { skipped: string }> {
  if (!existsSync(REAL_SERVERS_CONFIG)) return { skipped: `no server config at ${REAL_SERVERS_CONFIG}` };
  let captured;
  try {
    captured = await captureCatalog(REAL_SERVERS_CONFIG);
  } catch (err) {
    return { skipped: `real catalog not captured: ${(err as Error).message.split("\n")[0]}` };
  }
  // One tool per name: the agent registers tools by name.
  const seen = new Set<string>();
  const servers: CatalogFile["servers"] = [];
  let count = 0;
  const take = (server: CatalogFile["servers"][number]) => {
    const tools = server.tools.filter((t) => count < n && !seen.has(t.name) && (seen.add(t.name), ++count));
    if (tools.length) servers.push({ ...server, tools });
  };
  for (const s of captured.catalog.servers) take(s);
  const real = count;
  if (count < n && existsSync(SYNTHETIC_CATALOG)) for (const s of (JSON.parse(readFileSync(SYNTHETIC_CATALOG, "utf8")) as CatalogFile).servers) take({ ...s, name: `synthetic-${s.name}` });
  return { file: { servers }, source: `${REAL_SERVERS_CONFIG} (${real} real tools${count > real ? ` + ${count - real} from ${SYNTHETIC_CATALOG}` : ""})` };
}

/** A value of a JSON schema's type (the first enum value, else a plain value of the type). */
function sampleValue(schema: JsonSchema | undefined): unknown {
  if (!schema || typeof schema !== "object") return "x";
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "number" || type === "integer") return typeof schema.minimum === "number" ? schema.minimum : 1;
  if (type === "boolean") return true;
  if (type === "array") return [];
  if (type === "object") return sampleArgs(schema);
  return "example";
}

/** Arguments holding every required parameter of a tool's schema. */
export function sampleArgs(schema: JsonSchema | undefined): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((k) => [k, sampleValue(props[k])]));
}

/**
 * Counts every request and tool result of the process: each text the router sees is new, as in a live deployment,
 * so no query cache (one configuration's, one repetition's) hides an encode.
 */
let serial = 0;

/** What a tool answers: a short result naming its arguments (distinct per call). */
function resultText(name: string, args: unknown): string {
  return JSON.stringify({ ok: true, tool: name, request: ++serial, args, items: [{ id: `${name}-${serial}`, status: "done", updated: "2026-11-25T10:00:00Z" }] });
}

/** LangChain tools for every catalog tool (JSON schemas as declared); each answers after `toolMs` (an MCP round trip). */
export function loopTools(file: CatalogFile, toolMs = 0): StructuredToolInterface[] {
  return file.servers.flatMap((s) =>
    s.tools.map((t) =>
      lcTool(async (args: unknown) => (toolMs > 0 ? new Promise<string>((r) => setTimeout(() => r(resultText(t.name, args)), toolMs)) : resultText(t.name, args)), {
        name: t.name,
        description: t.description ?? "",
        schema: (t.inputSchema ?? { type: "object", properties: {} }) as never,
      }) as unknown as StructuredToolInterface,
    ),
  );
}

/** The user's request of one run of a task, numbered so that no two runs send the same text. */
function requestText(task: LoopTask): string {
  return `${task.query} (#${++serial})`;
}

/** One scripted task: the user's request and the calls the model makes, one per model call. */
export interface LoopTask {
  id: string;
  query: string;
  /** `say`: what the model states with the call (the task's plan step, or a short sentence naming the action). */
  calls: { name: string; args: Record<string, unknown>; say: string }[];
}

/** The gold tasks as scripts: each gold tool called once, in order, with arguments holding its required parameters. */
export function loopTasks(tasks: readonly EvalTask[], file: CatalogFile): LoopTask[] {
  const schemas = new Map(file.servers.flatMap((s) => s.tools.map((t) => [t.name, t.inputSchema as JsonSchema | undefined] as const)));
  return tasks.map((t) => ({
    id: t.id,
    query: t.query,
    calls: t.gold.filter((g) => schemas.has(g)).map((g, j) => ({ name: g, args: sampleArgs(schemas.get(g)), say: t.steps?.[j] ?? `I'll ${g.replace(/[_-]+/g, " ")} for this.` })),
  }));
}

/** How the scripted loop behaves: tool latency and whether the model states its step with each call. */
export interface LoopStyle {
  /** Milliseconds each tool takes (0: instant). */
  toolMs: number;
  /** The model states its step (a plan) with each tool call, as assistants usually do. */
  states: boolean;
  /** The middleware's `intent.embedResults` (default true). */
  embedResults?: boolean;
}

/** The scripted reply of a task at `step`. */
function replyOf(task: LoopTask | undefined, step: number, states: boolean): EmulatorReply {
  const call = task?.calls[step];
  if (!call) return { text: "done" };
  return { ...(states ? { text: call.say } : {}), toolCalls: [{ name: call.name, input: call.args }] };
}

// ---------------------------------------------------------------------------------------------------------------
// The loop driver: scripted replies and the time line of each invoke
// ---------------------------------------------------------------------------------------------------------------

/** Scripts the model's replies for the task running and records where each model call waited. */
class LoopDriver {
  constructor(private readonly states = false) {}
  private task?: LoopTask;
  private step = 0;
  private start = 0;
  private waits: [number, number][] = [];
  /** Request body sizes (bytes) of the current invoke. */
  bodies: number[] = [];

  begin(task: LoopTask): void {
    this.task = task;
    this.step = 0;
    this.waits = [];
    this.bodies = [];
    this.start = performance.now();
  }

  /** The next scripted reply of the task running. */
  next(): EmulatorReply {
    return replyOf(this.task, this.step++, this.states);
  }

  waitStart(): number {
    const t = performance.now();
    this.waits.push([t, t]);
    return this.waits.length - 1;
  }

  waitEnd(i: number): void {
    this.waits[i]![1] = performance.now();
  }

  /** Time outside the model's waits, per model call (the tail after the last call added to it). */
  end(): number[] {
    const endAt = performance.now();
    const out: number[] = [];
    let from = this.start;
    for (const [s, e] of this.waits) {
      out.push(s - from);
      from = e;
    }
    if (out.length) out[out.length - 1]! += endAt - from;
    return out;
  }

  /** A fetch that records its wait and the request body's size. */
  fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const i = this.waitStart();
    try {
      // Sized inside the wait: the harness's own pass over a 500 KB string is not the middleware's time.
      if (typeof init?.body === "string") this.bodies.push(Buffer.byteLength(init.body));
      const res = await fetch(input, init);
      // The body is read here, so its transfer counts as waiting too.
      const text = await res.text();
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      this.waitEnd(i);
    }
  };
}

/** A scripted chat model whose answers come from the driver (no network; its wait is its `_generate`). */
class LoopModel extends BaseChatModel {
  constructor(private readonly driver: LoopDriver) {
    super({});
  }

  _llmType(): string {
    return "scripted-loop";
  }

  override bindTools(): LoopModel {
    return new LoopModel(this.driver);
  }

  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const i = this.driver.waitStart();
    const reply = this.driver.next();
    const message = reply.toolCalls
      ? new AIMessage({ content: reply.text ?? "", tool_calls: reply.toolCalls.map((c, j) => ({ id: `call_${i}_${j}`, name: c.name, args: c.input, type: "tool_call" as const })) })
      : new AIMessage(reply.text ?? "");
    this.driver.waitEnd(i);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Timing the middleware's hooks
// ---------------------------------------------------------------------------------------------------------------

/** Time spent in each hook of the current invoke (wrap hooks without their handler). */
interface HookTimes {
  beforeModel: number[];
  wrapModelCall: number[];
  afterModel: number[];
  wrapToolCall: number;
}

type Hook = (...args: never[]) => unknown;
type WrapHook = (req: unknown, handler: (r: unknown) => Promise<unknown>) => Promise<unknown>;

/** A hook timed into `record`. */
function timedHook(hook: Hook, record: (ms: number) => void): Hook {
  return async (...args: never[]) => {
    const t = performance.now();
    try {
      return await hook(...args);
    } finally {
      record(performance.now() - t);
    }
  };
}

/** A wrap hook timed into `record`, without the time spent in the handler it wraps. */
function timedWrap(wrap: WrapHook, record: (ms: number) => void): WrapHook {
  return async (req, handler) => {
    const t = performance.now();
    let inner = 0;
    try {
      return await wrap(req, async (r) => {
        const h = performance.now();
        try {
          return await handler(r);
        } finally {
          inner += performance.now() - h;
        }
      });
    } finally {
      record(performance.now() - t - inner);
    }
  };
}

/** The middleware with every hook timed into `times` (the handler's time excluded from the wrap hooks). */
function timedMiddleware<M extends object>(mw: M, times: () => HookTimes): M {
  const m = mw as unknown as Record<string, unknown>;
  const after = m.afterModel as { hook: Hook; canJumpTo: string[] };
  return {
    ...m,
    beforeModel: timedHook(m.beforeModel as Hook, (ms) => times().beforeModel.push(ms)),
    wrapModelCall: timedWrap(m.wrapModelCall as WrapHook, (ms) => times().wrapModelCall.push(ms)),
    afterModel: { ...after, hook: timedHook(after.hook, (ms) => times().afterModel.push(ms)) },
    wrapToolCall: timedWrap(m.wrapToolCall as WrapHook, (ms) => {
      times().wrapToolCall += ms;
    }),
  } as unknown as M;
}

// ---------------------------------------------------------------------------------------------------------------
// One configuration
// ---------------------------------------------------------------------------------------------------------------

export type Provider = "scripted" | "anthropic" | "openai";
const PROVIDERS: readonly Provider[] = ["scripted", "anthropic", "openai"];

interface ConfigRun {
  config: OverheadConfig;
  /** Per-phase samples of every model call with the middleware. */
  phases: Record<string, number[]>;
}

/** Nearest-rank percentile of unsorted samples (NaN for none). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function modelFor(provider: Provider, driver: LoopDriver, url?: string): BaseChatModel {
  if (provider === "anthropic")
    return new ChatAnthropic({ model: "claude-opus-4-8", apiKey: "bench", anthropicApiUrl: url, maxRetries: 0, clientOptions: { fetch: driver.fetch as typeof fetch } });
  if (provider === "openai") return new ChatOpenAI({ model: "gpt-5-mini", apiKey: "bench", maxRetries: 0, configuration: { baseURL: url, fetch: driver.fetch as typeof fetch } });
  return new LoopModel(driver);
}

/** The text of a request's first user message and how many assistant turns precede the reply (either API's shape). */
export function conversationOf(body: Record<string, unknown>): { query: string; step: number } {
  const items = (Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : []) as { role?: string; type?: string; content?: unknown }[];
  const textOf = (c: unknown): string =>
    typeof c === "string" ? c : Array.isArray(c) ? c.map((b) => (typeof b === "string" ? b : typeof (b as { text?: unknown })?.text === "string" ? (b as { text: string }).text : "")).join("") : "";
  const user = items.find((m) => m.role === "user");
  // One assistant turn per model call so far: a message, or (Responses API) a run of function_call items.
  let step = 0;
  let inCalls = false;
  for (const m of items) {
    const call = m.type === "function_call";
    if (m.role === "assistant" || (call && !inCalls)) step++;
    inCalls = call;
  }
  return { query: textOf(user?.content), step };
}

/**
 * Child side: an emulator in its own process (its JSON parsing and token counting of 500 KB requests must not run,
 * or collect garbage, in the measured process). Replies follow the task whose request opens the conversation.
 */
async function emulatorChild(provider: "anthropic" | "openai", tasksFile: string, states: boolean): Promise<void> {
  const tasks = JSON.parse(readFileSync(tasksFile, "utf8")) as LoopTask[];
  const byQuery = new Map(tasks.map((t) => [t.query, t]));
  let emulator: Emulator | undefined;
  const script = (body: Record<string, unknown>): EmulatorReply => {
    const { query, step } = conversationOf(body);
    // A new conversation: the records of the previous ones are not needed (they hold whole request bodies).
    if (step === 0) emulator?.requests.splice(0);
    const task = byQuery.get(query.replace(/ \(#\d+\)$/, ""));
    return replyOf(task, step, states);
  };
  emulator = provider === "anthropic" ? await startAnthropicEmulator({ script }) : await startOpenAIEmulator({ script });
  process.stdout.write(`${emulator.url}\n`);
}

/** Starts an emulator child process; resolves with its URL and a way to stop it. */
function emulatorInChild(provider: "anthropic" | "openai", tasksFile: string, states: boolean): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, [...selfCommand(), "--emulator-child", provider, "--tasks-file", tasksFile, ...(states ? ["--states"] : [])], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${provider} emulator exited (code ${code}) before it listened`)));
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n")) resolve({ url: line!.trim(), close: () => child.kill() });
    });
  });
}

async function runConfig(provider: Provider, style: LoopStyle, file: CatalogFile, tasks: readonly LoopTask[], reps: number, log: (line: string) => void): Promise<ConfigRun> {
  const driver = new LoopDriver(style.states);
  let emulator: { url: string; close(): void } | undefined;
  const dir = mkdtempSync(join(tmpdir(), "tool-attention-overhead-"));
  try {
    if (provider !== "scripted") {
      const tasksFile = join(dir, "tasks.json");
      writeFileSync(tasksFile, JSON.stringify(tasks));
      emulator = await emulatorInChild(provider, tasksFile, style.states);
    }
    const tools = loopTools(file, style.toolMs);
    const events: ToolAttentionEvent[] = [];
    let times: HookTimes = { beforeModel: [], wrapModelCall: [], afterModel: [], wrapToolCall: 0 };
    const mw = toolAttentionMiddleware({ tools, log: false, onEvent: (e) => events.push(e), ...(style.embedResults === false ? { intent: { embedResults: false } } : {}) });
    await mw.router.prepare();
    const model = () => modelFor(provider, driver, emulator?.url);
    const withMw = createAgent({ model: model(), tools, middleware: [timedMiddleware(mw, () => times)], systemPrompt: SYSTEM_PROMPT });
    const without = createAgent({ model: model(), tools, systemPrompt: SYSTEM_PROMPT });
    const run = async (agent: typeof without, task: LoopTask) => {
      driver.begin(task);
      await agent.invoke({ messages: [new HumanMessage(requestText(task))] }, { recursionLimit: 100 });
      return { segments: driver.end(), bodies: [...driver.bodies] };
    };
    // Warm-up: JIT, the encoder worker, token tables, memoized catalog data (not recorded).
    for (const task of tasks.slice(0, 3)) {
      await run(without, task);
      await run(withMw as unknown as typeof without, task);
    }
    const base = new Map<string, number[][]>();
    const measured: { task: string; segments: number[]; phases: Record<string, number>[] }[] = [];
    const bodies = { with: [] as number[], without: [] as number[] };
    for (let r = 0; r < reps; r++) {
      for (const task of tasks) {
        const b = await run(without, task);
        base.set(task.id, [...(base.get(task.id) ?? []), b.segments]);
        bodies.without.push(...b.bodies);
        events.length = 0;
        times = { beforeModel: [], wrapModelCall: [], afterModel: [], wrapToolCall: 0 };
        const w = await run(withMw as unknown as typeof without, task);
        bodies.with.push(...w.bodies);
        measured.push({ task: task.id, segments: w.segments, phases: phasesOf(events, times) });
      }
      log(`overhead ${provider}: repetition ${r + 1}/${reps} done`);
    }
    const added: number[] = [];
    const first: number[] = [];
    const later: number[] = [];
    const baseline: number[] = [];
    const phases: Record<string, number[]> = {};
    for (const m of measured) {
      const runs = base.get(m.task) ?? [];
      m.segments.forEach((seg, i) => {
        const same = runs.map((s) => s[i]).filter((x): x is number => x !== undefined);
        if (same.length === 0) return;
        const b = percentile(same, 50);
        added.push(seg - b);
        (i === 0 ? first : later).push(seg - b);
        baseline.push(b);
        const ph = m.phases[i];
        if (ph) for (const [k, v] of Object.entries(ph)) (phases[k] ??= []).push(v);
      });
    }
    const delivery = (events.find((e) => e.type === "tool_attention.delivery") as DeliveryEvent | undefined)?.mode ?? "?";
    const config: OverheadConfig = {
      name: `${provider === "scripted" ? "scripted model" : provider === "anthropic" ? "@langchain/anthropic → emulator" : "@langchain/openai → emulator"}, ${styleName(style)}`,
      delivery,
      calls: added.length,
      p50Ms: round2(percentile(added, 50)),
      p95Ms: round2(percentile(added, 95)),
      baselineP50Ms: round2(percentile(baseline, 50)),
      firstCallP50Ms: round2(percentile(first, 50)),
      laterCallsP50Ms: round2(percentile(later, 50)),
      ...(provider !== "scripted" ? { requestKB: { with: Math.round(percentile(bodies.with, 50) / 1024), without: Math.round(percentile(bodies.without, 50) / 1024) } } : {}),
    };
    return { config, phases };
  } finally {
    emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The phases of each model call of one invoke, from its events and hook times (index = model call). */
function phasesOf(events: readonly ToolAttentionEvent[], times: HookTimes): Record<string, number>[] {
  const routes = events.filter((e): e is RoutingEvent => e.type === "tool_attention.route");
  const deliveries = events.filter((e): e is DeliveryEvent => e.type === "tool_attention.delivery");
  const n = Math.max(routes.length, deliveries.length);
  const out: Record<string, number>[] = [];
  for (let i = 0; i < n; i++) {
    const r = routes[i]?.latencyMs;
    const d = deliveries[i]?.latencyMs;
    const phase: Record<string, number> = {};
    if (r) {
      phase.queryEmbedding = r.encode;
      phase.search = r.search;
      if (r.fusion !== undefined) phase.fusion = r.fusion;
      phase.gate = r.gate + (times.afterModel[i] ?? 0);
      phase.tokens = (r.tokens ?? 0) + (d?.tokens ?? 0);
      phase.route = r.total;
    }
    if (d) {
      phase.render = d.render;
      phase.delivery = d.delivery;
    }
    phase.beforeModel = times.beforeModel[i] ?? 0;
    phase.wrapModelCall = times.wrapModelCall[i] ?? 0;
    phase.afterModel = times.afterModel[i] ?? 0;
    phase.hooks = phase.beforeModel + phase.wrapModelCall + phase.afterModel + (i === n - 1 ? times.wrapToolCall : 0);
    out.push(phase);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Memory, in child processes
// ---------------------------------------------------------------------------------------------------------------

interface MemoryChildResult {
  peakMiB: number;
  endMiB: number;
  firstCallS: number;
  /** Encoder worker threads running at the end (each holds its own model copy). */
  encoderWorkers: number;
  /** The main thread's V8 heap in use and its memory outside the heap (buffers) at the end, MiB. */
  mainHeapMiB: number;
  mainExternalMiB: number;
  /** RSS after the encoder workers were terminated (and a short pause), MiB; `endMiB` without workers. */
  afterWorkersMiB: number;
}

/** How a memory child runs: without the middleware, or with it (the default encoder). */
export type MemoryChildMode = "none" | "with";
const MEMORY_CHILD_MODES: readonly MemoryChildMode[] = ["none", "with"];

/** Child side: build the agent (with or without the middleware), run the tasks, report RSS peak and end. */
async function memoryChild(mode: MemoryChildMode, n: number, taskCount: number): Promise<MemoryChildResult> {
  // Modules are loaded by now: the clock starts where an application builds its agent.
  const started = performance.now();
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const cat = await overheadCatalog(n);
    if ("skipped" in cat) throw new Error(cat.skipped);
    const tasks = loopTasks(evenTasks(goldTasks(cat.file), taskCount), cat.file);
    const driver = new LoopDriver();
    const tools = loopTools(cat.file);
    const attention = mode === "none" ? undefined : toolAttentionMiddleware({ tools, log: false });
    const middleware = attention ? [attention] : [];
    const agent = createAgent({ model: new LoopModel(driver), tools, middleware, systemPrompt: SYSTEM_PROMPT });
    let firstCallS = 0;
    for (const task of tasks) {
      driver.begin(task);
      await agent.invoke({ messages: [new HumanMessage(requestText(task))] }, { recursionLimit: 100 });
      // From building the catalog and the agent to the first answered request: what a user waits for at start-up.
      firstCallS ||= (performance.now() - started) / 1000;
      peak = Math.max(peak, process.memoryUsage.rss());
    }
    // The tasks end within seconds, while the catalog is still embedded in the background (a progressive start):
    // the cold peak includes that build, and the end readings are the steady state with every channel serving.
    await attention?.router.prepare();
    const end = process.memoryUsage();
    const encoderWorkers = mode === "with" ? sharedUseLiteWorkerPool().workers.length : 0;
    clearInterval(sampler);
    // What the worker threads held: RSS once they are gone (a lower bound: the allocator may keep some pages).
    if (encoderWorkers > 0) {
      await closeUseLiteWorkers();
      await new Promise((r) => setTimeout(r, 500));
    }
    return {
      peakMiB: Math.max(peak, end.rss) / 2 ** 20,
      endMiB: end.rss / 2 ** 20,
      firstCallS,
      encoderWorkers,
      mainHeapMiB: end.heapUsed / 2 ** 20,
      mainExternalMiB: end.external / 2 ** 20,
      afterWorkersMiB: process.memoryUsage.rss() / 2 ** 20,
    };
  } finally {
    clearInterval(sampler);
  }
}

function selfCommand(): string[] {
  const self = fileURLToPath(import.meta.url);
  return self.endsWith(".ts") ? ["--import", import.meta.resolve("tsx"), self] : [self];
}

function memoryInChild(mode: MemoryChildMode, n: number, tasks: number, cacheDir: string): Promise<MemoryChildResult> {
  const args = [...selfCommand(), "--memory-child", mode, "--tools", String(n), "--tasks", String(tasks)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 600_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, TOOL_ATTENTION_CACHE_DIR: cacheDir } }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`overhead memory child (${mode}) failed: ${err.message}\n${String(stderr).trim().split("\n").slice(-5).join("\n")}`));
      try {
        resolve(JSON.parse(String(stdout).trim().split("\n").at(-1) ?? "") as MemoryChildResult);
      } catch {
        reject(new Error(`overhead memory child (${mode}) printed no JSON: ${String(stdout).slice(0, 200)}`));
      }
    });
  });
}

/** RSS without the middleware, with it cold (empty embedding cache) and warm (the cache the cold run filled). */
export async function measureOverheadMemory(n: number, tasks: number, log: (line: string) => void): Promise<OverheadMemory> {
  const dir = mkdtempSync(join(tmpdir(), "tool-attention-overhead-"));
  try {
    log("overhead memory: without the middleware…");
    const none = await memoryInChild("none", n, tasks, dir);
    log("overhead memory: with the middleware, empty embedding cache (cold)…");
    const cold = await memoryInChild("with", n, tasks, dir);
    log("overhead memory: with the middleware, filled cache (warm)…");
    const warm = await memoryInChild("with", n, tasks, dir);
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const part = (c: MemoryChildResult) => ({
      mainHeap: r1(c.mainHeapMiB - none.mainHeapMiB),
      mainExternal: r1(c.mainExternalMiB - none.mainExternalMiB),
      workers: r1(c.endMiB - c.afterWorkersMiB),
    });
    return {
      coldPeak: r1(cold.peakMiB - none.peakMiB),
      warm: r1(warm.endMiB - none.endMiB),
      rss: {
        none: { peak: r1(none.peakMiB), end: r1(none.endMiB) },
        cold: { peak: r1(cold.peakMiB), end: r1(cold.endMiB) },
        warm: { peak: r1(warm.peakMiB), end: r1(warm.endMiB) },
      },
      parts: { cold: part(cold), warm: part(warm) },
      firstCallS: { cold: r1(cold.firstCallS), warm: r1(warm.firstCallS) },
      encoderWorkers: { cold: cold.encoderWorkers, warm: warm.encoderWorkers },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The section
// ---------------------------------------------------------------------------------------------------------------

/** The gold tasks whose every gold tool is in the catalog. */
function goldTasks(file: CatalogFile): EvalTask[] {
  const names = new Set(file.servers.flatMap((s) => s.tools.map((t) => t.name)));
  return loadTasks(REAL_TASKS).filter((t) => t.gold.every((g) => names.has(g)));
}

/** An even sample of n tasks (every (len/n)-th), keeping order. */
function evenTasks<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

/** Measures the added latency per model call (and the added memory) at `tools` tools. */
export async function measureOverhead(opts: OverheadOptions = {}): Promise<OverheadReport | { skipped: string }> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const n = opts.tools ?? OVERHEAD_TOOLS;
  const cat = await overheadCatalog(n);
  if ("skipped" in cat) return { skipped: cat.skipped };
  if (!existsSync(REAL_TASKS)) return { skipped: `no gold tasks at ${REAL_TASKS}` };
  const taskCount = opts.tasks ?? 24;
  const tasks = loopTasks(evenTasks(goldTasks(cat.file), taskCount), cat.file);
  const reps = opts.reps ?? 3;
  const providers: Provider[] = opts.only?.length ? [...opts.only] : opts.providers === false ? ["scripted"] : ["scripted", "anthropic", "openai"];
  const loadStart = loadavg()[0]!;
  const configs: OverheadConfig[] = [];
  // The scripted model also runs the worst case: instant tools and no stated step, so every call waits for an encode.
  const runs: [Provider, LoopStyle][] = providers.flatMap((p): [Provider, LoopStyle][] => (p === "scripted" ? [[p, WORST_LOOP], [p, WORST_LOOP_LEXICAL_RESULTS], [p, TYPICAL_LOOP]] : [[p, TYPICAL_LOOP]]));
  for (const [p, style] of runs) {
    log(`overhead: ${p}, ${styleName(style)} (${tasks.length} tasks × ${reps}, ${n} tools)…`);
    const r = await runConfig(p, style, cat.file, tasks, reps, log);
    configs.push({ ...r.config, phases: summarize(r.phases) });
  }
  let memory: OverheadMemory | undefined;
  let addedRssMiB: OverheadReport["addedRssMiB"];
  if (opts.memory ?? true) {
    try {
      memory = await measureOverheadMemory(n, Math.min(taskCount, 12), log);
      addedRssMiB = { coldPeak: memory.coldPeak, warm: memory.warm };
    } catch (err) {
      addedRssMiB = { skipped: (err as Error).message.split("\n")[0]! };
    }
  }
  const headline = configs.find((c) => c.name.includes("anthropic")) ?? configs.at(-1)!;
  return {
    tools: cat.file.servers.reduce((s, x) => s + x.tools.length, 0),
    p50Ms: headline.p50Ms,
    p95Ms: headline.p95Ms,
    headline: headline.name,
    phases: headline.phases ?? {},
    configs,
    ...(addedRssMiB ? { addedRssMiB } : {}),
    ...(memory ? { memory } : {}),
    cpus: availableParallelism(),
    loadAverage: [round2(loadStart), round2(loadavg()[0]!)],
    encoder: "hybrid (USE-lite + BM25), the default",
    source: `${cat.source}; tasks ${REAL_TASKS} (${tasks.length}, ${reps} repetitions)`,
    targets: { ...OVERHEAD_TARGETS },
    date: new Date().toISOString(),
  };
}

/** The report's section. */
export function renderOverheadMarkdown(r: OverheadReport | { skipped: string }): string {
  if ("skipped" in r) return `## Added latency per model call\n\nSkipped: ${r.skipped}\n`;
  const t = r.targets;
  const lines = [
    "## Added latency per model call",
    "",
    `What the middleware adds to each model call of a real \`createAgent\` loop at ${r.tools} tools (measured ${r.date.slice(0, 16).replace("T", " ")} UTC, ` +
      `${r.cpus} cores shared with other processes, 1-min load average ${r.loadAverage[0]} → ${r.loadAverage[1]}, encoder ${r.encoder}, warm): ` +
      "the call's time outside the model's wait with the middleware minus without it. " +
      `Headline (${r.headline}): p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms (targets ≤ ${t.p50Ms} / ≤ ${t.p95Ms} ms).`,
    "",
    markdownTable(
      ["configuration", "delivery", "calls", "added p50 ms", "added p95 ms", "p50 first / later calls", "without p50 ms", "request KB (with / without)"],
      r.configs.map((c) => [
        c.name,
        c.delivery,
        String(c.calls),
        String(c.p50Ms),
        String(c.p95Ms),
        `${c.firstCallP50Ms} / ${c.laterCallsP50Ms}`,
        String(c.baselineP50Ms),
        c.requestKB ? `${c.requestKB.with} / ${c.requestKB.without}` : "—",
      ]),
    ),
    "",
    "Per phase, each model call with the middleware (p50 / p95 ms):",
    "",
    markdownTable(
      ["phase", ...r.configs.map((c) => c.name)],
      Object.keys(r.configs[0]?.phases ?? {}).map((k) => [k, ...r.configs.map((c) => (c.phases?.[k] ? `${c.phases[k].p50} / ${c.phases[k].p95}` : "—"))]),
    ),
    "",
  ];
  if (r.addedRssMiB && "skipped" in r.addedRssMiB) lines.push(`Memory: skipped (${r.addedRssMiB.skipped})`, "");
  else if (r.memory)
    lines.push(
      `Memory added by the middleware (RSS, child processes): cold peak +${r.memory.coldPeak} MiB (target ≤ ${t.coldPeakMiB}), warm +${r.memory.warm} MiB ` +
        `(target ≤ ${t.warmMiB}); without it ${r.memory.rss.none.peak} MiB peak. From building the agent to the first answered request: ${r.memory.firstCallS.cold} s cold, ${r.memory.firstCallS.warm} s warm; ` +
        `encoder worker threads at the end: ${r.memory.encoderWorkers.cold} cold, ${r.memory.encoderWorkers.warm} warm (each holds its own model copy). ` +
        (r.memory.parts
          ? `Parts at the end, warm: main-thread heap +${r.memory.parts.warm.mainHeap} MiB, external +${r.memory.parts.warm.mainExternal} MiB, encoder workers ${r.memory.parts.warm.workers} MiB RSS ` +
            `(cold: ${r.memory.parts.cold.mainHeap} / ${r.memory.parts.cold.mainExternal} / ${r.memory.parts.cold.workers}).`
          : ""),
      "",
    );
  lines.push(`Source: ${r.source}.`, "");
  return lines.join("\n");
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      tools: { type: "string" },
      tasks: { type: "string" },
      reps: { type: "string" },
      "no-providers": { type: "boolean" },
      "no-memory": { type: "boolean" },
      "memory-only": { type: "boolean" },
      "memory-child": { type: "string" },
      only: { type: "string" },
      "emulator-child": { type: "string" },
      states: { type: "boolean" },
      "tasks-file": { type: "string" },
      markdown: { type: "boolean" },
      out: { type: "string" },
    },
    strict: true,
  });
  const int = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const x = Number(v);
    if (!Number.isInteger(x) || x < 1) throw new Error(`--${name} expects a positive integer, got "${v}"`);
    return x;
  };
  const tools = int(values.tools, "tools") ?? OVERHEAD_TOOLS;
  const emu = values["emulator-child"];
  if (emu) {
    if ((emu !== "anthropic" && emu !== "openai") || !values["tasks-file"]) throw new Error("--emulator-child takes anthropic or openai, with --tasks-file");
    await emulatorChild(emu, values["tasks-file"], values.states === true);
    return 0;
  }
  if (values["memory-child"]) {
    const mode = values["memory-child"] as MemoryChildMode;
    if (!MEMORY_CHILD_MODES.includes(mode)) throw new Error(`--memory-child takes ${MEMORY_CHILD_MODES.join(", ")}; got "${mode}"`);
    const r = await memoryChild(mode, tools, int(values.tasks, "tasks") ?? 12);
    // A child process of the bench: exit once the line is written (idle encoder workers need not be waited for).
    process.stdout.write(`${JSON.stringify(r)}\n`, () => process.exit(0));
    return 0;
  }
  if (values["memory-only"]) {
    // The memory part alone (three child processes, no latency loop): cheap enough to rerun after a memory change.
    const m = await measureOverheadMemory(tools, int(values.tasks, "tasks") ?? 12, (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(`${JSON.stringify({ addedRssMiB: { coldPeak: m.coldPeak, warm: m.warm }, memory: m }, null, 2)}\n`);
    return 0;
  }
  const only = values.only?.split(",").map((x) => x.trim()) ?? [];
  const unknown = only.filter((x) => !PROVIDERS.includes(x as Provider));
  if (unknown.length) throw new Error(`--only takes ${PROVIDERS.join(", ")}; got ${unknown.join(", ")}`);
  const r = await measureOverhead({ only: only as Provider[], tools, tasks: int(values.tasks, "tasks"), reps: int(values.reps, "reps"), providers: !values["no-providers"], memory: !values["no-memory"] });
  process.stdout.write(values.markdown ? renderOverheadMarkdown(r) : `${JSON.stringify(r, null, 2)}\n`);
  if (values.out) {
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, "overhead.json"), `${JSON.stringify(r, null, 2)}\n`);
    writeFileSync(join(values.out, "overhead.md"), renderOverheadMarkdown(r));
  }
  return 0;
}

runIfEntry(import.meta.url, () => main());
