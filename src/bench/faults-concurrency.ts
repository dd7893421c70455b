/**
 * Many threads on one router and one agent: `threads` concurrent `agent.invoke` calls on one createAgent agent with
 * a checkpointer, each thread (its own `thread_id`) asking for a different tool of the demo catalog, with the
 * scopes and milestones that tool needs and nothing else. The model answers each thread from that thread's own
 * request (which step of its plan comes next), never from a queue the threads share.
 *
 * All threads run at once, then every thread again alone (the baseline; second, so that the concurrent run pays for
 * its own query encodes rather than finding them cached). A thread leaks when, run concurrently, any of
 * its model calls is bound to different tools than alone, its final routing and delivery state differ, or it sees
 * an answer to another thread's call. Every tool call must be answered exactly once and every allowed call must run
 * exactly once.
 */
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { createAgent } from "langchain";
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { toolAttentionMiddleware } from "../adapters/langchain/middleware.js";
import type { CatalogFile } from "../core/catalog/catalog.js";
import type { DeliveryOption } from "../core/delivery/plan.js";
import type { DeclarativePreconditions, JsonSchema } from "../core/types.js";
import { FunctionChatModel, type ModelTurn } from "./faults-model.js";

const DEMO_CATALOG = new URL("../../data/demo-catalog.json", import.meta.url);

/** What one thread asks for and what it needs to get it. */
export interface ThreadPlan {
  thread: number;
  request: string;
  /** The tool the request is about. */
  target: string;
  /** Tools the model calls in order (a prerequisite named by `afterTool` first). */
  steps: string[];
  scopes: string[];
  milestones: string[];
}

/** What one thread did. */
export interface ThreadTrace {
  thread: number;
  /** Tools bound on each of the thread's model calls, in order. */
  bound: string[][];
  calls: { id: string; name: string }[];
  answers: { id: string; name: string; status: string }[];
  /** Call ids the tools actually executed. */
  executed: string[];
  /** The thread's routing and delivery state at the end (turn id left out: it numbers routes router-wide). */
  finalState: unknown;
  finalText: string;
}

export interface ConcurrencyRun {
  delivery: string;
  encoder: string;
  threads: number;
  /** Wall time of all threads at once, and of the same threads one after another. */
  wallMs: number;
  sequentialMs: number;
  modelCalls: number;
  toolCalls: number;
  /** Threads whose bound tools or final state differ from the thread run alone, or that saw another's answer. */
  leaks: number;
  /** Tool calls without an answer, or with more than one. */
  unanswered: number;
  duplicateAnswers: number;
  /** Allowed calls that did not run exactly once, or runs of calls that were not allowed. */
  wrongExecutions: number;
  /** Threads that did not end with the model's final answer after running their tools. */
  unfinished: number;
  traces: ThreadTrace[];
  baseline: ThreadTrace[];
}

export interface ConcurrencyReport {
  threads: number;
  runs: Omit<ConcurrencyRun, "traces" | "baseline">[];
}

interface DemoTool {
  name: string;
  server: string;
  description: string;
  inputSchema: JsonSchema;
  tags?: string[];
  preconditions?: DeclarativePreconditions;
}

function demoCatalog(): DemoTool[] {
  const file = JSON.parse(readFileSync(DEMO_CATALOG, "utf8")) as CatalogFile;
  return file.servers.flatMap((s) => s.tools.map((t) => ({ ...t, server: s.name }) as DemoTool));
}

/** Arguments that satisfy a schema's required fields. */
function argsFor(schema: JsonSchema, thread: number): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const out: Record<string, unknown> = {};
  for (const name of (schema.required ?? []) as string[]) {
    const p = props[name] ?? {};
    if (Array.isArray(p.enum) && p.enum.length > 0) out[name] = p.enum[0];
    else if (p.type === "number" || p.type === "integer") out[name] = thread + 1;
    else if (p.type === "boolean") out[name] = true;
    else if (p.type === "array") out[name] = [];
    else if (p.type === "object") out[name] = {};
    else out[name] = `${name}-${thread}`;
  }
  return out;
}

/** One plan per thread: thread i asks for tool i mod 27, in that tool's own words. */
export function threadPlans(threads: number): ThreadPlan[] {
  const tools = demoCatalog();
  return Array.from({ length: threads }, (_, i) => {
    const t = tools[i % tools.length];
    const pre = t.preconditions ?? {};
    const after = typeof pre.afterTool === "string" ? [pre.afterTool] : [];
    return {
      thread: i,
      request: `[thread ${i}] ${t.description} (${t.name.replace(/_/g, " ")})`,
      target: t.name,
      steps: [...after, t.name],
      scopes: pre.requiresScopes ?? [],
      milestones: typeof pre.milestone === "string" ? [pre.milestone] : (pre.milestone ?? []),
    };
  });
}

const THREAD_TAG = /^\[thread (\d+)\]/;

function textOf(m: BaseMessage): string {
  return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}

/** The thread a model call belongs to, from its first user message. */
function threadOf(messages: readonly BaseMessage[]): number {
  const human = messages.find((m) => HumanMessage.isInstance(m));
  const m = human ? THREAD_TAG.exec(textOf(human)) : null;
  if (!m) throw new Error("a model call without a thread's request");
  return Number(m[1]);
}

/**
 * The next step of a thread, decided from its own conversation: the first planned tool without a successful
 * result is called (again after a refusal, at most 3 times), then the model answers.
 */
function nextMessage(plan: ThreadPlan, messages: readonly BaseMessage[], argsOf: (tool: string) => Record<string, unknown>): AIMessage {
  const done = new Set(messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m) && m.status !== "error").map((m) => m.name));
  const step = plan.steps.find((s) => !done.has(s));
  if (!step) return new AIMessage(`done ${plan.thread}`);
  const tries = messages.filter((m) => AIMessage.isInstance(m) && (m.tool_calls ?? []).some((c) => c.name === step)).length;
  if (tries >= 3) return new AIMessage(`gave up ${plan.thread} at ${step}`);
  return new AIMessage({
    content: "",
    tool_calls: [{ id: `t${plan.thread}-${step}-${tries}`, name: step, args: argsOf(step), type: "tool_call" }],
  });
}

function traceOf(thread: number, bound: string[][], messages: BaseMessage[], executed: string[], state: unknown): ThreadTrace {
  const calls: ThreadTrace["calls"] = [];
  const answers: ThreadTrace["answers"] = [];
  for (const m of messages) {
    if (AIMessage.isInstance(m)) for (const c of m.tool_calls ?? []) calls.push({ id: c.id as string, name: c.name });
    if (ToolMessage.isInstance(m)) answers.push({ id: m.tool_call_id, name: m.name ?? "", status: m.status ?? "success" });
  }
  const { turnId: _t, ...finalState } = (state ?? {}) as Record<string, unknown>;
  const last = messages.at(-1);
  return { thread, bound, calls, answers, executed, finalState, finalText: last ? textOf(last) : "" };
}

/** Checks one thread's trace (and, when given, its baseline); adds what is wrong to `run`. */
function judge(plan: ThreadPlan, trace: ThreadTrace, baseline: ThreadTrace | undefined, run: ConcurrencyRun): void {
  const own = (id: string) => id.startsWith(`t${plan.thread}-`);
  let leaked = baseline !== undefined && (!isDeepStrictEqual(trace.bound, baseline.bound) || !isDeepStrictEqual(trace.finalState, baseline.finalState));
  const answersById = new Map<string, number>();
  for (const a of trace.answers) {
    if (!own(a.id)) leaked = true;
    answersById.set(a.id, (answersById.get(a.id) ?? 0) + 1);
  }
  if (leaked) run.leaks++;
  for (const c of trace.calls) {
    const n = answersById.get(c.id) ?? 0;
    if (n === 0) run.unanswered++;
    if (n > 1) run.duplicateAnswers++;
  }
  run.toolCalls += trace.calls.length;
  run.modelCalls += trace.bound.length;
  const succeeded = new Set(trace.answers.filter((a) => a.status !== "error").map((a) => a.id));
  const runs = new Map<string, number>();
  for (const id of trace.executed) runs.set(id, (runs.get(id) ?? 0) + 1);
  for (const id of succeeded) if (runs.get(id) !== 1) run.wrongExecutions++;
  for (const id of runs.keys()) if (!succeeded.has(id) || !own(id)) run.wrongExecutions++;
  if (trace.finalText !== `done ${plan.thread}`) run.unfinished++;
}

export interface ConcurrencyOptions {
  threads?: number;
  /** Delivery mode (default: the middleware's default, "auto"). */
  delivery?: DeliveryOption;
  /** Encoder of the shared router. Default "lexical" (fast, deterministic). */
  encoder?: "lexical" | "hybrid";
}

/** Runs every thread alone, then all at once, on one agent and one router; see the module comment. */
export async function runConcurrencyThreads(options: ConcurrencyOptions = {}): Promise<ConcurrencyRun> {
  const threads = options.threads ?? 100;
  const plans = threadPlans(threads);
  const catalog = demoCatalog();
  const byName = new Map(catalog.map((t) => [t.name, t]));
  const executed = new Map<number, string[]>();
  const tools = catalog.map((t) =>
    tool(
      async (args: Record<string, unknown>, config?: { toolCall?: { id?: string } }) => {
        const id = config?.toolCall?.id ?? "";
        const thread = Number(/^t(\d+)-/.exec(id)?.[1] ?? -1);
        const list = executed.get(thread) ?? [];
        list.push(id);
        executed.set(thread, list);
        // A short wait lets other threads' steps interleave with this one.
        await new Promise((r) => setTimeout(r, 1 + (thread % 5)));
        return JSON.stringify({ ok: true, tool: t.name, id, args });
      },
      {
        name: t.name,
        description: t.description,
        schema: t.inputSchema as Record<string, unknown>,
        metadata: { toolAttention: { server: t.server, tags: t.tags, preconditions: t.preconditions } },
      },
    ),
  );
  const bound = new Map<string, string[][]>();
  let phase = "warm-up";
  const respond = (turn: ModelTurn) => {
    const thread = threadOf(turn.messages);
    const key = `${phase}:${thread}`;
    const list = bound.get(key) ?? [];
    list.push([...turn.tools].sort());
    bound.set(key, list);
    return nextMessage(plans[thread], turn.messages, (name) => argsFor(byName.get(name)?.inputSchema ?? {}, thread));
  };
  const model = new FunctionChatModel(respond);
  const agent = createAgent({
    model,
    tools,
    middleware: [
      toolAttentionMiddleware({ tools, encoder: options.encoder ?? "lexical", log: false, cacheDir: false, ...(options.delivery ? { delivery: options.delivery } : {}) }),
    ],
    checkpointer: new MemorySaver(),
  });
  const invoke = async (plan: ThreadPlan, threadId: string) => {
    const out = await agent.invoke(
      { messages: [new HumanMessage(plan.request)], scopes: plan.scopes, milestones: plan.milestones },
      { configurable: { thread_id: threadId }, recursionLimit: 50 },
    );
    return out as unknown as { messages: BaseMessage[]; toolAttention?: unknown };
  };

  const run: ConcurrencyRun = {
    delivery: options.delivery ?? "auto (default)",
    encoder: options.encoder ?? "lexical",
    threads,
    wallMs: 0,
    sequentialMs: 0,
    modelCalls: 0,
    toolCalls: 0,
    leaks: 0,
    unanswered: 0,
    duplicateAnswers: 0,
    wrongExecutions: 0,
    unfinished: 0,
    traces: [],
    baseline: [],
  };

  // The first model call checks the agent's tools and the first route builds the index: not part of the timing.
  await agent.invoke({ messages: [new HumanMessage("[thread 0] warm up")] }, { configurable: { thread_id: "warm-up" } });

  // All at once.
  phase = "concurrent";
  executed.clear();
  const t1 = performance.now();
  const outs = await Promise.all(plans.map((plan) => invoke(plan, `thread-${plan.thread}`)));
  run.wallMs = Math.round(performance.now() - t1);
  const concurrent = plans.map((plan, i) =>
    traceOf(plan.thread, bound.get(`concurrent:${plan.thread}`) ?? [], outs[i].messages, executed.get(plan.thread) ?? [], outs[i].toolAttention),
  );

  // Alone, one after another.
  phase = "alone";
  executed.clear();
  const t0 = performance.now();
  for (const plan of plans) {
    const out = await invoke(plan, `alone-${plan.thread}`);
    run.baseline.push(traceOf(plan.thread, bound.get(`alone:${plan.thread}`) ?? [], out.messages, executed.get(plan.thread) ?? [], out.toolAttention));
  }
  run.sequentialMs = Math.round(performance.now() - t0);

  plans.forEach((plan, i) => {
    run.traces.push(concurrent[i]);
    judge(plan, concurrent[i], run.baseline[i], run);
  });
  return run;
}

/**
 * The concurrency part of the fault suite: rebind and the default delivery on the lexical encoder, and rebind on
 * the default hybrid encoder (USE-lite in its worker thread, queries not cached), 100 threads each.
 */
export async function runConcurrencyFault(options: { threads?: number } = {}): Promise<ConcurrencyReport> {
  const threads = options.threads ?? 100;
  const runs: ConcurrencyReport["runs"] = [];
  const settings: ConcurrencyOptions[] = [{ delivery: "rebind" }, {}, { delivery: "rebind", encoder: "hybrid" }];
  for (const s of settings) {
    const { traces: _t, baseline: _b, ...summary } = await runConcurrencyThreads({ threads, ...s });
    runs.push(summary);
  }
  return { threads, runs };
}
