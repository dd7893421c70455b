/**
 * A chat model whose answers come from a function of what it is sent: the fault suite drives real createAgent
 * loops with it, and answers per conversation (a thread's own request), never from a queue shared by threads.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** One model call: the messages it got and the names of the tools bound for it. */
export interface ModelTurn {
  messages: BaseMessage[];
  tools: string[];
}

export type Respond = (turn: ModelTurn) => AIMessage | Promise<AIMessage>;

function toolName(t: unknown): string {
  const o = t as { name?: unknown; function?: { name?: unknown } } | undefined;
  if (typeof o?.name === "string") return o.name;
  if (typeof o?.function?.name === "string") return o.function.name;
  return String(t);
}

export class FunctionChatModel extends BaseChatModel {
  constructor(
    private readonly respond: Respond,
    private readonly bound: string[] = [],
    /** Every call, across all bound copies. */
    readonly turns: ModelTurn[] = [],
  ) {
    super({});
  }

  _llmType(): string {
    return "function";
  }

  override bindTools(tools: unknown[]): FunctionChatModel {
    return new FunctionChatModel(this.respond, tools.map(toolName), this.turns);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const turn: ModelTurn = { messages: [...messages], tools: [...this.bound] };
    this.turns.push(turn);
    const message = await this.respond(turn);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}
