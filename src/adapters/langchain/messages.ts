/**
 * Helpers shared by the createAgent middleware and the LangGraph hooks: reading the turn's intent and the
 * precondition view out of a message list, and turning gate rejections into ToolMessages.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import type { ToolCatalog } from "../../core/catalog/catalog.js";
import { gateToolCalls, type GateResult, type RenamedCall, type ToolCallLike } from "../../core/gate/gate.js";
import { closestTools } from "../../core/gate/closest.js";
import { argumentFit } from "../../core/gate/arguments.js";
import { resolveCallName } from "../../core/catalog/names.js";
import { checkPreconditions } from "../../core/preconditions/preconditions.js";
import type { AgentStateView } from "../../core/types.js";
import type { ToolAttentionEvent } from "../../core/events/events.js";
import { DEFAULT_INTENT, type IntentOptions } from "../../core/router/intent.js";
import { transitionsOf, type AnticipationInput } from "../../core/anticipation/co-usage.js";

/** Plain text of a message's content (string or content blocks). */
export function messageText(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => (typeof block === "string" ? block : block && typeof block === "object" && "text" in block ? String(block.text) : ""))
    .filter(Boolean)
    .join("\n");
}

/** The turn's intent: the text of the latest user message ("" when there is none). */
export function latestUserText(messages: readonly BaseMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (HumanMessage.isInstance(messages[i])) return messageText(messages[i]);
  return "";
}

/** Names of tools whose successful output is in the history (error results do not count). */
export function toolOutputsOf(messages: readonly BaseMessage[]): Set<string> {
  const out = new Set<string>();
  for (const m of messages) if (ToolMessage.isInstance(m) && m.status !== "error" && m.name) out.add(m.name);
  return out;
}

/** The precondition view of a LangChain/LangGraph state. */
export function stateViewOf(state: { messages?: BaseMessage[]; scopes?: string[]; milestones?: string[] }): AgentStateView {
  return {
    scopes: new Set(state.scopes ?? []),
    milestones: new Set(state.milestones ?? []),
    toolOutputs: toolOutputsOf(state.messages ?? []),
    raw: state,
  };
}

/** The last AI message, if it is the last message (i.e. the model just answered). */
export function pendingAIMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  const last = messages.at(-1);
  return last && AIMessage.isInstance(last) ? last : undefined;
}

export interface GateMessagesResult extends GateResult<ToolCallLike> {
  /** One error ToolMessage per rejected call, same tool_call_id. */
  messages: ToolMessage[];
}

export interface GateOptions {
  /** Names active this turn. */
  active: readonly string[];
  catalog: ToolCatalog;
  state: AgentStateView;
  /** Tools bound by other middleware or the app, outside the catalog: allowed as they are. */
  passthrough?: ReadonlySet<string>;
  /** Resolve names the catalog does not have to the tool the model meant (see `resolveCallName`). Default true. */
  resolveNames?: boolean;
  /** Run a call to a catalog tool that is not active when its arguments fit the tool's schema (see `runValidCalls`). */
  runValidCalls?: boolean;
}

/** Gates tool calls and turns each rejection into an error ToolMessage with the same tool_call_id. */
export function gateCalls(calls: readonly ToolCallLike[], opts: GateOptions): GateMessagesResult {
  // A tool removed from the catalog since the turn was routed (e.g. by its MCP server) is no longer active.
  const current = opts.active.filter((name) => opts.catalog.getByName(name).length > 0);
  const active = new Set(current);
  for (const name of opts.passthrough ?? []) active.add(name);
  const usable = (name: string) => {
    const tool = opts.catalog.getByName(name)[0];
    return !!tool && checkPreconditions(tool, opts.state).allow;
  };
  const result = gateToolCalls(calls, {
    active,
    available: current,
    exists: (name) => opts.catalog.getByName(name).length > 0,
    resolve: opts.resolveNames === false ? undefined : (name) => resolveCallName(opts.catalog, name, current),
    // Only tools the model could use now: a closest tool behind a missing scope would be one more refusal.
    closest: (call) => closestTools(opts.catalog, call, { usable, exclude: [call.name] }),
    // Rules and fields only: an excerpt would hand the model a piece of the very text that was quarantined.
    quarantineReason: (name) => {
      const q = opts.catalog.quarantineOf(name);
      if (!q) return undefined;
      const fields = [...new Set(q.reasons.map((r) => r.field))].slice(0, 3).join(", ");
      return `server "${q.server}": ${[...new Set(q.reasons.map((r) => r.rule))].join(", ")} in ${fields}`;
    },
    heldReason: (name) => {
      const h = opts.catalog.quarantineOf(name)?.held;
      return h ? `server "${h.server}": ${h.changed.includes("new") ? "a new tool, not yet approved" : `${h.changed.join(" and ")} changed`}` : undefined;
    },
    validArgs: opts.runValidCalls
      ? (call) => {
          const tool = opts.catalog.getByName(call.name)[0];
          return argumentFit(tool?.inputSchema, call.args) ?? "its schema is not loaded, so the call cannot be checked";
        }
      : undefined,
    preconditionReason: (name) => {
      const tool = opts.catalog.getByName(name)[0];
      if (!tool) return undefined;
      const check = checkPreconditions(tool, opts.state);
      return check.allow ? undefined : check.reason;
    },
  });
  const messages = result.rejected.map(
    (r) => new ToolMessage({ content: r.content, tool_call_id: r.toolCallId, name: r.call.name, status: "error" }),
  );
  return { ...result, messages };
}

/**
 * The model's message with resolved call names written in (same id, so the messages reducer replaces it in
 * state): the tool node then runs the tool the model meant, and the history shows the name it really has. A
 * `call_tool` call keeps its dispatcher name; the tool it names is rewritten in its arguments. Tool-use blocks
 * in the content and provider-format calls in `additional_kwargs` are rewritten too, so a provider that replays
 * them sees one name per call.
 */
export function withResolvedNames(message: AIMessage, renamed: readonly RenamedCall[], dispatcher?: string): AIMessage {
  if (renamed.length === 0) return message;
  const to = new Map(renamed.map((r) => [r.toolCallId, r.to]));
  const rename = <T extends { id?: string; name?: string; args?: Record<string, unknown> }>(c: T): T => {
    const name = c.id ? to.get(c.id) : undefined;
    if (!name) return c;
    if (dispatcher && c.name === dispatcher) return { ...c, args: { ...c.args, name } };
    return { ...c, name };
  };
  const content = Array.isArray(message.content)
    ? (message.content as unknown[]).map((b) => {
        const block = b as { type?: string; id?: string; name?: string; input?: Record<string, unknown> };
        if (!block || typeof block !== "object" || block.type !== "tool_use" || !block.id || !to.has(block.id)) return b;
        const name = to.get(block.id) as string;
        return dispatcher && block.name === dispatcher ? { ...block, input: { ...block.input, name } } : { ...block, name };
      })
    : message.content;
  const kwargs = message.additional_kwargs as { tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] } | undefined;
  const additional_kwargs = kwargs?.tool_calls
    ? {
        ...kwargs,
        tool_calls: kwargs.tool_calls.map((c) => {
          const name = c.id ? to.get(c.id) : undefined;
          if (!name || !c.function) return c;
          if (dispatcher && c.function.name === dispatcher) {
            try {
              return { ...c, function: { ...c.function, arguments: JSON.stringify({ ...JSON.parse(c.function.arguments ?? "{}"), name }) } };
            } catch {
              return c;
            }
          }
          return { ...c, function: { ...c.function, name } };
        }),
      }
    : message.additional_kwargs;
  return new AIMessage({
    content: content as never,
    id: message.id,
    name: message.name,
    tool_calls: (message.tool_calls ?? []).map(rename),
    invalid_tool_calls: message.invalid_tool_calls,
    additional_kwargs: additional_kwargs as AIMessage["additional_kwargs"],
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
  });
}

/** Gates the tool calls of an AI message. */
export function gateAIMessage(message: AIMessage, opts: GateOptions): GateMessagesResult {
  return gateCalls(message.tool_calls ?? [], opts);
}

/** Sends an event to LangChain callbacks (as a custom event) when a run is active; never throws. */
export async function emitToCallbacks(event: ToolAttentionEvent): Promise<void> {
  try {
    await dispatchCustomEvent(event.type, event);
  } catch {
    // Outside a LangChain run there is no callback manager to receive it; onEvent still got the event.
  }
}

export { DEFAULT_INTENT, type IntentOptions } from "../../core/router/intent.js";

/** The trailing tool results: the ToolMessages after the last AI message (what the model has not seen yet). */
export function lastObservations(messages: readonly BaseMessage[]): ToolMessage[] {
  const out: ToolMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!ToolMessage.isInstance(m)) break;
    out.unshift(m);
  }
  return out;
}

/** Messages read back for the thread's transitions (a long thread must not make every turn walk all of it). */
const ANTICIPATION_WINDOW = 200;

/**
 * What the thread says about the next tool (see anticipation/co-usage.ts): the tools whose results the model has
 * just read, and the pairs of tools that ran in consecutive turns before (a workflow run once in a thread often
 * runs again). Failed calls are left out: an error says nothing about what comes next.
 */
export function threadAnticipation(messages: readonly BaseMessage[]): AnticipationInput {
  const turns: string[][] = [];
  // The successful results of the current run of tool messages (undefined once another message ends the run).
  let current: string[] | undefined;
  for (let i = Math.max(0, messages.length - ANTICIPATION_WINDOW); i < messages.length; i++) {
    const m = messages[i];
    if (!ToolMessage.isInstance(m)) {
      current = undefined;
      continue;
    }
    current ??= [];
    if (m.status === "error" || !m.name || current.includes(m.name)) continue;
    if (current.length === 0) turns.push(current);
    current.push(m.name);
  }
  // The run the thread ends with is what the model has just read.
  return { after: current ?? [], transitions: transitionsOf(turns) };
}

function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max) : t;
}

/**
 * The turn's intent as weighted parts: the latest user message (weight 1), earlier user messages, the latest
 * tool results and the model's stated plan. Routing again with this after every tool observation lets a
 * multi-step task reach the tool that only becomes relevant after an intermediate result.
 * With `false`, only the latest user message.
 */
export function turnIntent(messages: readonly BaseMessage[], options: IntentOptions | false = {}): { text: string; weight: number; dense?: boolean }[] {
  if (options === false) return [{ text: latestUserText(messages), weight: 1 }];
  const o = { ...DEFAULT_INTENT, ...options };
  const parts: { text: string; weight: number; dense?: boolean }[] = [];
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--)
    if (HumanMessage.isInstance(messages[i])) {
      lastUser = i;
      break;
    }
  if (lastUser >= 0) parts.push({ text: messageText(messages[lastUser]), weight: 1 });
  // Earlier user turns, most recent first, each half as heavy as the one after it.
  let w = o.historyWeight;
  for (let i = lastUser - 1, taken = 0; i >= 0 && taken < o.history && w > 0; i--) {
    if (!HumanMessage.isInstance(messages[i])) continue;
    const text = clip(messageText(messages[i]), o.maxChars);
    if (text) parts.push({ text, weight: w });
    w /= 2;
    taken++;
  }
  let plan = "";
  if (o.planWeight > 0)
    for (let i = messages.length - 1; i > lastUser; i--) {
      const m = messages[i];
      if (!AIMessage.isInstance(m)) continue;
      plan = clip(messageText(m), o.maxChars);
      break;
    }
  if (o.toolResultWeight > 0 && (!plan || o.resultsWithPlan))
    for (const m of lastObservations(messages)) {
      const text = clip(messageText(m), o.maxChars);
      if (text && m.status !== "error") parts.push(o.embedResults ? { text, weight: o.toolResultWeight } : { text, weight: o.toolResultWeight, dense: false });
    }
  if (plan) parts.push({ text: plan, weight: o.planWeight });
  return parts;
}
