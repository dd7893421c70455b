/**
 * An MCP server killed in the middle of a tool call, inside a real createAgent loop: the stdio fixture
 * test/fixtures/flaky-server.mjs exits while answering `die`. Measured: how the cut-off call is answered (exactly
 * one error ToolMessage naming the server), how long the restart takes with the session's backoff (also when the
 * first restarts fail, and when every one does), whether the re-listed tools reach the router, and whether a later
 * call in the same conversation succeeds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "langchain";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { toolAttentionMiddleware } from "../adapters/langchain/middleware.js";
import { McpSession, restartDelays, type McpRestartEvent, type McpRestartOptions } from "../mcp/session.js";
import type { McpServerFailure } from "../mcp/connection.js";
import { FunctionChatModel } from "./faults-model.js";
import { fixturePath } from "./faults.js";

export interface McpRestartScenario {
  name: string;
  /** Restarts the fixture refuses before one comes up. */
  failRestarts: number;
  restart: McpRestartOptions;
  /** Planned delays of the backoff, ms. */
  delaysMs: number[];
  /** Answers the cut-off call got (must be 1), its status, and whether its text names the server. */
  dieAnswers: number;
  dieStatus: string;
  dieNamesServer: boolean;
  /** The restart as reported (undefined when every attempt failed). */
  restarted?: McpRestartEvent;
  /** Failure reports, by phase. */
  failures: McpServerFailure["phase"][];
  /** Whether the tool the restarted server added was bound for the model afterwards. */
  newToolBound: boolean;
  /** The later call in the same conversation: its status and text. */
  laterStatus?: string;
  laterText?: string;
  /** Every tool call of the conversation answered exactly once. */
  everyCallAnsweredOnce: boolean;
  wallMs: number;
}

export interface McpRestartReport {
  scenarios: McpRestartScenario[];
}

function answersPerCall(messages: BaseMessage[]): boolean {
  const answers = new Map<string, number>();
  for (const m of messages) if (ToolMessage.isInstance(m)) answers.set(m.tool_call_id, (answers.get(m.tool_call_id) ?? 0) + 1);
  return messages.every((m) => !AIMessage.isInstance(m) || (m.tool_calls ?? []).every((c) => answers.get(c.id as string) === 1));
}

/** One conversation: the model calls `die`, waits for the server to be back (or given up on), then calls `status`. */
export async function runMcpRestartScenario(name: string, failRestarts: number, restart: McpRestartOptions = {}): Promise<McpRestartScenario> {
  const dir = mkdtempSync(join(tmpdir(), "tool-attention-flaky-"));
  const failures: McpServerFailure[] = [];
  let restarted: McpRestartEvent | undefined;
  let settle: () => void = () => undefined;
  const backOrGivenUp = new Promise<void>((resolve) => (settle = resolve));
  const t0 = performance.now();
  const session = await McpSession.start(
    {
      source: "fault suite",
      servers: {
        flaky: {
          transport: "stdio",
          command: process.execPath,
          args: [fixturePath("flaky-server.mjs")],
          env: { FLAKY_STATE: join(dir, "starts"), FLAKY_FAIL_RESTARTS: String(failRestarts) },
        },
      },
    },
    {
      restart,
      onRestart: (e) => {
        restarted = e;
        settle();
      },
      onServerFailure: (f) => {
        failures.push(f);
        if (f.phase === "restart") settle();
      },
    },
  );
  try {
    const { router, resolveTool } = session.middlewareOptions({ encoder: "lexical", theta: -1, k: 10, log: false });
    const bound: string[][] = [];
    let step = 0;
    const model = new FunctionChatModel(async (turn) => {
      bound.push(turn.tools);
      step++;
      if (step === 1) return new AIMessage({ content: "", tool_calls: [{ id: "die-1", name: "die", args: {}, type: "tool_call" }] });
      if (step === 2) {
        await backOrGivenUp;
        // The session's catalog change reaches the router before onRestart; route again by calling a tool.
        return new AIMessage({ content: "", tool_calls: [{ id: "echo-1", name: "echo", args: { message: "back?" }, type: "tool_call" }] });
      }
      if (step === 3 && restarted) return new AIMessage({ content: "", tool_calls: [{ id: "status-1", name: "status", args: {}, type: "tool_call" }] });
      return new AIMessage("done");
    });
    const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ router, resolveTool, delivery: "rebind", guarantee: false })] });
    const out = await agent.invoke({ messages: [new HumanMessage("Stop the flaky server, then check that it came back.")] }, { recursionLimit: 30 });
    const messages = out.messages as BaseMessage[];
    const answers = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    const die = answers.filter((m) => m.tool_call_id === "die-1");
    const later = answers.find((m) => m.tool_call_id === (restarted ? "status-1" : "echo-1"));
    const text = (m?: ToolMessage) => (m ? (typeof m.content === "string" ? m.content : JSON.stringify(m.content)) : undefined);
    return {
      name,
      failRestarts,
      restart,
      delaysMs: restartDelays(restart),
      dieAnswers: die.length,
      dieStatus: die[0]?.status ?? "",
      dieNamesServer: /"server":"flaky"/.test(text(die[0]) ?? ""),
      restarted,
      failures: failures.map((f) => f.phase),
      newToolBound: bound.slice(2).some((b) => b.includes("status")),
      laterStatus: later?.status,
      laterText: text(later)?.split("\n")[0].slice(0, 200),
      everyCallAnsweredOnce: answersPerCall(messages),
      wallMs: Math.round(performance.now() - t0),
    };
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The MCP part of the fault suite: a restart at the first attempt, one after two failed starts, and a give-up. */
export async function runMcpRestartFault(): Promise<McpRestartReport> {
  return {
    scenarios: [
      await runMcpRestartScenario("restart at once", 0),
      await runMcpRestartScenario("two failed restarts first", 2),
      await runMcpRestartScenario("every restart fails", 99, { initialDelayMs: 50, maxAttempts: 3 }),
    ],
  };
}
