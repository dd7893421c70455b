/**
 * A scripted tool-calling chat model for offline agent tests. It records, for every call, which tools it
 * was bound with and the messages it received, and answers with the next scripted step.
 */
import { BaseChatModel, type BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

export interface ScriptedCall {
  tools: string[];
  /** The tool objects as bound (instances or plain definitions). */
  rawTools: unknown[];
  messages: BaseMessage[];
  system: string;
}

/** A step may wait (e.g. for a server to come back) before it answers. */
export type ScriptStep = AIMessage | ((call: ScriptedCall) => AIMessage | Promise<AIMessage>);

interface Shared {
  script: ScriptStep[];
  calls: ScriptedCall[];
}

function toolName(t: unknown): string {
  if (t && typeof t === "object") {
    const o = t as { name?: unknown; function?: { name?: unknown } };
    if (typeof o.name === "string") return o.name;
    if (o.function && typeof o.function.name === "string") return o.function.name;
  }
  return String(t);
}

export class ScriptedChatModel extends BaseChatModel {
  private readonly shared: Shared;
  private readonly bound: string[];
  private readonly raw: unknown[];

  constructor(script: ScriptStep[] | Shared, bound: string[] = [], params: BaseChatModelParams = {}, raw: unknown[] = []) {
    super(params);
    this.shared = Array.isArray(script) ? { script: [...script], calls: [] } : script;
    this.bound = bound;
    this.raw = raw;
  }

  /** Every call made so far, across all bound copies. */
  get calls(): ScriptedCall[] {
    return this.shared.calls;
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: unknown[]): ScriptedChatModel {
    return new ScriptedChatModel(this.shared, tools.map(toolName), {}, [...tools]);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const system = messages
      .filter((m) => m.getType() === "system")
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
      .join("\n");
    const call: ScriptedCall = { tools: [...this.bound], rawTools: [...this.raw], messages: [...messages], system };
    this.shared.calls.push(call);
    const step = this.shared.script.shift();
    const message = step === undefined ? new AIMessage("done") : typeof step === "function" ? await step(call) : step;
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

let seq = 0;
/** An AI message that calls the given tools. */
export function callTools(...calls: { name: string; args?: Record<string, unknown> }[]): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: calls.map((c) => ({ id: `call_${++seq}`, name: c.name, args: c.args ?? {}, type: "tool_call" as const })),
  });
}
