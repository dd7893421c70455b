/**
 * Tool errors answer the model. Without any `wrapToolCall` middleware, LangChain's tool node turns an error a tool
 * throws into an error ToolMessage and the run goes on; once a middleware wraps tool calls, the same error rejects
 * the whole `agent.invoke`. The adapters catch what the tool itself threw and answer the call the way the tool node
 * would without middleware, so adding Tool Attention changes nothing for a tool that fails.
 */
import { ToolMessage, type MessageContent } from "@langchain/core/messages";
import { isGraphBubbleUp } from "@langchain/langgraph";

/** The call a tool error belongs to. */
export interface FailedCall {
  id?: string;
  name: string;
  args?: unknown;
}

/**
 * What happens when a tool throws:
 * - `true` (default): an error ToolMessage with the error's text, as LangChain's tool node writes it without middleware;
 * - `false`: the error propagates and `agent.invoke` rejects (LangChain's behaviour with `handleToolErrors: false`);
 * - a function: its return value is the error ToolMessage's content (or the ToolMessage itself); returning nothing
 *   propagates the error.
 */
export type ToolErrorPolicy =
  | boolean
  | ((error: unknown, call: FailedCall) => MessageContent | ToolMessage | void | undefined | Promise<MessageContent | ToolMessage | void | undefined>);

/**
 * Errors that are not the tool's to report: LangGraph's control flow (interrupts, `Command` to a parent graph) and
 * errors another middleware raised (LangChain wraps those in `MiddlewareError`; a genuine middleware error stays
 * fatal, as it is without Tool Attention). An aborted run is not answered either.
 */
function mustPropagate(error: unknown, signal?: AbortSignal): boolean {
  if (isGraphBubbleUp(error)) return true;
  if (signal?.aborted) return true;
  return (error as { "~brand"?: unknown } | undefined)?.["~brand"] === "MiddlewareError";
}

/** LangChain's own text for a tool error (its tool node's default handler), so transcripts read the same. */
export function defaultToolErrorContent(error: unknown): string {
  // A tool-input validation error (ToolInvocationError) already says what to fix.
  if ((error as { name?: unknown } | undefined)?.name === "ToolInvocationError") return (error as Error).message;
  return `${error}\n Please fix your mistakes.`;
}

/**
 * The error ToolMessage answering `call` whose tool threw `error`, or undefined when the error must propagate (see
 * `ToolErrorPolicy` and `mustPropagate`).
 */
export async function toolErrorAnswer(
  error: unknown,
  call: FailedCall,
  policy: ToolErrorPolicy = true,
  signal?: AbortSignal,
): Promise<ToolMessage | undefined> {
  if (policy === false || mustPropagate(error, signal)) return undefined;
  const content = policy === true ? defaultToolErrorContent(error) : await policy(error, call);
  if (content === undefined || content === null) return undefined;
  if (ToolMessage.isInstance(content)) {
    content.status ??= "error";
    return content;
  }
  return new ToolMessage({ content: content as MessageContent, tool_call_id: call.id ?? "", name: call.name, status: "error" });
}

/** Runs a tool call through `run`, answering an error the tool throws as `policy` says. */
export async function answeringToolErrors<T>(
  run: () => Promise<T>,
  call: FailedCall,
  policy: ToolErrorPolicy | undefined,
  signal?: AbortSignal,
): Promise<T | ToolMessage> {
  try {
    return await run();
  } catch (error) {
    const answer = await toolErrorAnswer(error, call, policy, signal);
    if (answer) return answer;
    throw error;
  }
}
