/**
 * Anticipation: the likely next tools of a workflow (the catalog's co-usage edges and the thread's transitions)
 * gain a score boost on the route after a tool ran, in the router and through a real createAgent loop.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { tool } from "@langchain/core/tools";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { z } from "zod";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { CoUsage, EDGE_WEIGHTS, resourceWords, transitionsOf } from "../src/core/anticipation/co-usage.js";
import { threadAnticipation } from "../src/adapters/langchain/messages.js";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import type { RoutingEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import type { ToolSpec } from "../src/core/types.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";

const spec = (name: string, description: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({
  name,
  description,
  inputSchema: { type: "object", properties: {} },
  ...extra,
});

function catalog(): ToolCatalog {
  return ToolCatalog.fromMcpTools({
    jira: [
      spec("jira_get_transitions", "List the workflow transitions available for an issue in its current status."),
      spec("jira_transition_issue", "Move an issue through its workflow.", {
        inputSchema: { type: "object", properties: { transition_id: { type: "string", description: "Transition id." } }, required: ["transition_id"] },
        preconditions: { afterTool: "jira_get_transitions" },
      }),
      spec("jira_get_issue", "Show one issue with its fields."),
      spec("jira_update_issue", "Change the fields of an issue."),
      spec("jira_create_issue", "File a new issue.", {
        outputSchema: { type: "object", properties: { issue_key: { type: "string" } } },
      }),
      spec("jira_add_worklog", "Log time spent on an issue.", {
        inputSchema: { type: "object", properties: { issue_key: { type: "string" }, minutes: { type: "number" } }, required: ["issue_key", "minutes"] },
      }),
    ],
    github: [
      spec("create_branch", "Create a branch in a repository."),
      spec("push_files", "Commit several files in one commit.", {
        inputSchema: { type: "object", properties: { branch: { type: "string", description: "Branch to push to (from create_branch)." } } },
      }),
      spec("get_issue", "Show one GitHub issue."),
    ],
    mail: [spec("send_email", "Send an email message to a recipient.")],
  });
}

describe("co-usage edges", () => {
  const g = CoUsage.fromTools(catalog().tools);
  const edge = (from: string, to: string) => g.successorsOf(from).find((s) => s.id === to);

  it("a declared afterTool order is the strongest edge", () => {
    assert.deepEqual(edge("jira_get_transitions", "jira_transition_issue"), { id: "jira_transition_issue", weight: EDGE_WEIGHTS["after-tool"], edge: "after-tool" });
    // The order is one way.
    assert.notEqual(edge("jira_transition_issue", "jira_get_transitions")?.edge, "after-tool");
  });

  it("a parameter description naming a tool of the same server links them", () => {
    assert.equal(edge("create_branch", "push_files")?.edge, "mentions");
  });

  it("a declared output field that another tool requires links them", () => {
    assert.equal(edge("jira_create_issue", "jira_add_worklog")?.edge, "output-input");
  });

  it("same server, same resource: a family edge scaled by the share of the resource in common", () => {
    assert.deepEqual(resourceWords("get_pull_request"), ["pull", "request"]);
    assert.deepEqual(resourceWords("list_pull_requests"), ["pull", "request"]);
    const family = edge("jira_get_issue", "jira_update_issue");
    assert.equal(family?.edge, "family");
    // "jira issue" on both sides: the whole resource is shared.
    assert.equal(family?.weight, EDGE_WEIGHTS.family);
    // The same words on another server say nothing about order.
    assert.equal(edge("jira_get_issue", "get_issue"), undefined);
    assert.equal(edge("get_issue", "jira_get_issue"), undefined);
    assert.equal(edge("send_email", "jira_get_issue"), undefined);
  });

  it("an unknown tool has no successors", () => {
    assert.deepEqual(g.successorsOf("nope"), []);
  });
});

describe("thread transitions", () => {
  it("pairs tools of consecutive turns, newest first, without repeats or self-pairs", () => {
    assert.deepEqual(transitionsOf([["a"], ["b", "c"], ["b"], ["a"]]), [
      ["b", "a"],
      ["c", "b"],
      ["a", "b"],
      ["a", "c"],
    ]);
    assert.deepEqual(transitionsOf([["a"], ["a"]]), []);
    assert.deepEqual(transitionsOf([]), []);
  });

  it("reads what just ran, and earlier turns, from the messages; failed calls are left out", () => {
    const call = (id: string, name: string) => ({ id, name, args: {} });
    const messages = [
      new HumanMessage("do it"),
      new AIMessage({ content: "", tool_calls: [call("1", "a")] }),
      new ToolMessage({ content: "ok", tool_call_id: "1", name: "a" }),
      new AIMessage({ content: "", tool_calls: [call("2", "b"), call("3", "c")] }),
      new ToolMessage({ content: "ok", tool_call_id: "2", name: "b" }),
      new ToolMessage({ content: "failed", tool_call_id: "3", name: "c", status: "error" }),
    ];
    assert.deepEqual(threadAnticipation(messages), { after: ["b"], transitions: [["a", "b"]] });
    // Once the model has answered in words, nothing has just run.
    assert.deepEqual(threadAnticipation([...messages, new AIMessage("done")]).after, []);
  });
});

describe("the router boosts what is anticipated", () => {
  const scoreOf = (d: { candidates: { name: string; score: number }[] }, name: string) => d.candidates.find((c) => c.name === name)?.score;

  it("successors of the tools that just ran, and tools that followed them earlier in the thread", async () => {
    const router = new ToolAttentionRouter(catalog(), { encoder: "lexical", slate: 50, log: false });
    await router.prepare();
    const query = "move the issue along its workflow";
    const plain = await router.route(query);
    const anticipated = await router.route(query, undefined, {
      anticipate: { after: ["jira_get_transitions"], transitions: [["jira_get_transitions", "send_email"], ["create_branch", "get_issue"]] },
    });
    const gain = (name: string) => (scoreOf(anticipated, name) ?? NaN) - (scoreOf(plain, name) ?? NaN);
    assert.ok(Math.abs(gain("jira_transition_issue") - 0.1 * EDGE_WEIGHTS["after-tool"]) < 1e-6, `after-tool gain ${gain("jira_transition_issue")}`);
    assert.ok(Math.abs(gain("send_email") - 0.1 * EDGE_WEIGHTS.thread) < 1e-6, `thread gain ${gain("send_email")}`);
    // A transition from a tool that did not just run, the tool itself, and unrelated tools gain nothing.
    assert.equal(gain("get_issue"), 0);
    assert.equal(gain("jira_get_transitions"), 0);
    assert.equal(gain("create_branch"), 0);
    await router.close();
  });

  it("anticipationBoost 0 turns it off; a bad value fails at construction", async () => {
    const router = new ToolAttentionRouter(catalog(), { encoder: "lexical", slate: 50, anticipationBoost: 0, log: false });
    const a = await router.route("move the issue along its workflow", undefined, { anticipate: { after: ["jira_get_transitions"] } });
    const b = await router.route("move the issue along its workflow");
    assert.deepEqual(a.candidates, b.candidates);
    await router.close();
    assert.throws(() => new ToolAttentionRouter(catalog(), { encoder: "lexical", anticipationBoost: -1 }), /anticipationBoost/);
  });
});

describe("createAgent: the route after a tool ran anticipates its successor", () => {
  function jiraTools(ran: string[]) {
    const mk = (name: string, description: string, extra: object = {}) =>
      tool(
        async () => {
          ran.push(name);
          return `${name} ok`;
        },
        { name, description, schema: z.object({ issue: z.string().optional() }), ...extra },
      );
    return [
      mk("jira_get_transitions", "List the workflow transitions available for an issue in its current status."),
      mk("jira_transition_issue", "Move an issue through its workflow with a transition id.", {
        metadata: { toolAttention: { preconditions: { afterTool: "jira_get_transitions" } } },
      }),
      mk("get_weather", "Get the weather forecast for a city."),
      mk("send_email", "Send an email message to a recipient."),
      mk("read_file", "Read the contents of a text file."),
      mk("search_web", "Search the web for pages."),
    ];
  }

  async function run(anticipationBoost?: number) {
    const ran: string[] = [];
    const events: ToolAttentionEvent[] = [];
    const tools = jiraTools(ran);
    const model = new ScriptedChatModel([callTools({ name: "jira_get_transitions", args: { issue: "PROJ-7" } }), new AIMessage("PROJ-7 can go to Done.")]);
    const middleware = toolAttentionMiddleware({ tools, k: 2, cacheDir: false, onEvent: (e) => events.push(e), ...(anticipationBoost !== undefined ? { anticipationBoost } : {}) });
    const agent = createAgent({ model, tools, middleware: [middleware] });
    await agent.invoke({ messages: [new HumanMessage("what can I do with ticket PROJ-7?")] });
    assert.deepEqual(ran, ["jira_get_transitions"]);
    return events.filter((e): e is RoutingEvent => e.type === "tool_attention.route");
  }

  it("gains exactly the boost on the second route, nothing on the first", async () => {
    const on = await run();
    const off = await run(0);
    assert.equal(on.length, 2);
    assert.equal(off.length, 2);
    const score = (e: RoutingEvent) => e.candidates.find((c) => c.id === "jira_transition_issue")?.score ?? NaN;
    assert.equal(score(on[0]), score(off[0]), "no tool has run before the first model call");
    assert.ok(Math.abs(score(on[1]) - score(off[1]) - 0.1) < 0.002, `gain ${score(on[1]) - score(off[1])}`);
  });
});
