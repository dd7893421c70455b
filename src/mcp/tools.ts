/**
 * LangChain tools whose execution goes through the live MCP client. Tool Attention only routes and gates;
 * the call itself is the server's. Every call gets exactly one answer: the server's result, or an error result
 * that says what went wrong (server dead, tool removed, server-side error) and what the model can do next.
 */
import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import { ToolMessage } from "@langchain/core/messages";
import type { ToolSpec } from "../core/types.js";
import type { McpCallToolResult, McpServerConnection } from "./connection.js";

/** Where a catalog tool lives: its server and the name the server knows it by. */
export interface McpToolBinding {
  /** The name the model calls (server-qualified when two servers share a name). */
  name: string;
  server: string;
  /** The name on the server. */
  mcpName: string;
  spec: ToolSpec;
}

export interface McpToolOptions {
  /** Per-call timeout (ms). Default: the connection's. */
  timeoutMs?: number;
  /** Returns false once the tool was removed by its server (list_changed), so stale calls get a clear error. */
  isCurrent?: () => boolean;
  /**
   * Awaited after each call before the result is returned: the session waits here for tool-list changes the
   * call caused (list_changed arrives before the result), so the model's next turn already sees them.
   */
  afterCall?: () => Promise<void>;
}

/** Renders MCP content blocks as the text a model reads. */
export function mcpResultText(result: McpCallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content) {
    const b = block as { type?: string; text?: unknown; resource?: { uri?: string; text?: string }; mimeType?: string; uri?: string };
    if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b?.type === "resource" && b.resource) parts.push(typeof b.resource.text === "string" ? b.resource.text : `[resource ${b.resource.uri ?? ""}]`);
    else if (b?.type === "resource_link") parts.push(`[resource link ${b.uri ?? ""}]`);
    else if (b?.type === "image" || b?.type === "audio") parts.push(`[${b.type} ${b.mimeType ?? ""}]`.replace(" ]", "]"));
    else parts.push(JSON.stringify(block));
  }
  if (parts.length === 0 && result.structuredContent) return JSON.stringify(result.structuredContent);
  return parts.join("\n");
}

/** The error payload a call to an unusable server's tool receives. */
export interface McpToolUnavailable {
  error: "mcp_server_unavailable" | "mcp_tool_removed" | "mcp_call_failed";
  server: string;
  tool: string;
  reason: string;
}

function answer(
  content: string,
  status: "success" | "error",
  name: string,
  toolCallId: string | undefined,
  artifact?: unknown,
): ToolMessage | string {
  if (toolCallId) return new ToolMessage({ content, status, name, tool_call_id: toolCallId, artifact });
  if (status === "error") throw new Error(content);
  return content;
}

/** One LangChain tool that calls `binding.mcpName` on `connection`. The schema is the server's own. */
export function mcpToolFor(binding: McpToolBinding, connection: McpServerConnection, options: McpToolOptions = {}): StructuredToolInterface {
  const fail = (kind: McpToolUnavailable["error"], reason: string, next: string, id: string | undefined) => {
    const payload: McpToolUnavailable = { error: kind, server: binding.server, tool: binding.name, reason };
    return answer(`${JSON.stringify(payload)}\n${next}`, "error", binding.name, id);
  };
  const unavailable = (id: string | undefined) =>
    fail(
      "mcp_server_unavailable",
      connection.describeForModel(),
      connection.state === "restarting"
        ? `"${binding.server}" is restarting: try this tool again in a moment, or use tools of other servers.`
        : `Tools of "${binding.server}" cannot run now; use tools of other servers or tell the user.`,
      id,
    );
  return new DynamicStructuredTool({
    name: binding.name,
    description: binding.spec.description ?? "",
    schema: (binding.spec.inputSchema ?? { type: "object", properties: {} }) as Record<string, unknown>,
    metadata: { toolAttention: { server: binding.server }, mcp: { server: binding.server, name: binding.mcpName } },
    func: async (args: Record<string, unknown>, _run, config) => {
      const id = (config as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
      if (options.isCurrent && !options.isCurrent())
        return fail("mcp_tool_removed", `server "${binding.server}" no longer offers "${binding.mcpName}"`, "Use another available tool.", id);
      if (connection.state !== "ready") return unavailable(id);
      let result: McpCallToolResult;
      try {
        result = await connection.callTool(binding.mcpName, args ?? {}, { signal: config?.signal, timeoutMs: options.timeoutMs });
      } catch (err) {
        // A server that died during the call closes the connection first and is marked dead a moment later
        // (its last stderr lines are collected meanwhile): wait for that, so the one answer says what happened.
        await connection.settled();
        if ((connection.state as string) !== "ready") return unavailable(id);
        return fail("mcp_call_failed", (err as Error).message, "Check the arguments against the tool's schema and try again, or use another tool.", id);
      }
      await options.afterCall?.();
      const text = mcpResultText(result);
      const artifact = { structuredContent: result.structuredContent, content: result.content };
      return answer(text, result.isError ? "error" : "success", binding.name, id, artifact);
    },
  }) as unknown as StructuredToolInterface;
}
