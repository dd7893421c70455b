/**
 * requireOutput: the pure filter (structured results, JSON text, MCP results, errors) and the createAgent
 * middleware in a real agent loop with a scripted model that records the tool definitions it was bound with.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { tool } from "@langchain/core/tools";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { z } from "zod/v3";
import {
  checkRequiredOutput,
  filterToolResult,
  outputFields,
  pickFields,
  REQUIRE_OUTPUT_ARG,
  withRequireOutputParameter,
} from "../src/core/compaction/require-output.js";
import { requireOutputMiddleware } from "../src/adapters/langchain/require-output.js";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { ScriptedChatModel, callTools, type ScriptStep } from "./helpers/scripted-model.js";
import type { JsonSchema } from "../src/core/types.js";

const issueOutput: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    identifier: { type: "string" },
    title: { type: "string" },
    state: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
    labels: { type: "array", items: { type: "object", properties: { name: { type: "string" }, color: { type: "string" } } } },
    history: { type: "array", items: { type: "object" } },
  },
  required: ["id"],
};
const issue = {
  id: "a1",
  identifier: "ENG-7",
  title: "Crash on start",
  state: { id: "s1", name: "In Progress" },
  labels: [{ name: "bug", color: "red" }, { name: "p1", color: "orange" }],
  history: Array.from({ length: 20 }, (_, i) => ({ at: i, change: "edited" })),
};

test("pickFields keeps requested fields, dotted paths and array elements", () => {
  assert.deepEqual(pickFields(issue, ["identifier", "state.name", "labels.name"]), {
    identifier: "ENG-7",
    state: { name: "In Progress" },
    labels: [{ name: "bug" }, { name: "p1" }],
  });
  assert.deepEqual(pickFields([issue, issue], ["id"]), [{ id: "a1" }, { id: "a1" }]);
  assert.equal(pickFields("plain text", ["id"]), "plain text");
});

test("filterToolResult handles MCP results, JSON text, content blocks and keeps error results whole", () => {
  const mcp = { content: [{ type: "text", text: JSON.stringify(issue) }], structuredContent: issue };
  const filtered = filterToolResult(mcp, ["title"]) as typeof mcp;
  assert.deepEqual(filtered.structuredContent, { title: "Crash on start" });
  assert.deepEqual(JSON.parse(filtered.content[0].text), { title: "Crash on start" });
  assert.equal(filterToolResult("not json", ["title"]), "not json");
  assert.equal(filterToolResult(JSON.stringify(issue), ["id"]), '{"id":"a1"}');
  const failed = { content: [{ type: "text", text: '{"id":"x","why":"boom"}' }], isError: true };
  assert.deepEqual(filterToolResult(failed, ["id"]), failed);
  const image = [{ type: "image", data: "AAA", mimeType: "image/png" }, { type: "text", text: '{"id":1,"x":2}' }];
  assert.deepEqual(filterToolResult(image, ["id"]), [image[0], { type: "text", text: '{"id":1}' }]);
});

test("checkRequiredOutput names the tool, the unknown fields and the valid ones", () => {
  assert.equal(checkRequiredOutput("get_issue", issueOutput, ["id", "state.name", "labels.color"]), undefined);
  const err = checkRequiredOutput("get_issue", issueOutput, ["id", "assignee", "state.color"]);
  assert.ok(err);
  assert.equal(err.error, "invalid_output_fields");
  assert.equal(err.tool, "get_issue");
  assert.deepEqual(err.invalid, ["assignee", "state.color"]);
  assert.deepEqual(err.valid, ["id", "identifier", "title", "state", "labels", "history"]);
  assert.match(err.message, /get_issue/);
  assert.match(err.message, /"assignee"/);
  const notAList = checkRequiredOutput("get_issue", issueOutput, "id");
  assert.equal(notAList?.error, "invalid_output_fields");
  // Output fields are found through $refs and anyOf branches too.
  const viaRef = { $defs: { I: issueOutput }, anyOf: [{ $ref: "#/$defs/I" }, { type: "null" }] };
  assert.deepEqual(outputFields(viaRef), outputFields(issueOutput));
  assert.equal(checkRequiredOutput("t", viaRef, ["state.name"]), undefined);
});

test("withRequireOutputParameter adds an optional argument listing the fields, without touching the input", () => {
  const input = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
  const out = withRequireOutputParameter(input, ["id", "title"]);
  assert.deepEqual(out.required, ["id"]);
  const param = (out.properties as Record<string, JsonSchema>)[REQUIRE_OUTPUT_ARG];
  assert.equal(param.type, "array");
  assert.match(String(param.description), /id, title/);
  assert.equal((input.properties as Record<string, unknown>)[REQUIRE_OUTPUT_ARG], undefined);
});

/** A scripted model that also keeps the raw tool definitions of every bindTools call. */
class RecordingModel extends ScriptedChatModel {
  readonly bindings: unknown[][];
  constructor(script: ScriptStep[], bindings: unknown[][] = []) {
    super(script);
    this.bindings = bindings;
  }
  override bindTools(tools: unknown[]): ScriptedChatModel {
    this.bindings.push(tools);
    return super.bindTools(tools);
  }
}

function issueTools() {
  const runs: Record<string, unknown>[] = [];
  const getIssue = tool(
    async (args) => {
      runs.push(args as Record<string, unknown>);
      return JSON.stringify(issue);
    },
    { name: "get_issue", description: "Get a Linear issue by id.", schema: z.object({ id: z.string().describe("Issue id") }) },
  );
  const ping = tool(async () => "pong", { name: "ping", description: "Check the service is up.", schema: z.object({}) });
  return { runs, tools: [getIssue, ping] };
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

function assertEveryCallAnsweredOnce(messages: BaseMessage[]) {
  const answers = new Map<string, number>();
  for (const t of toolMessages(messages)) answers.set(t.tool_call_id, (answers.get(t.tool_call_id) ?? 0) + 1);
  for (const m of messages)
    for (const call of (m as { tool_calls?: { id?: string; name: string }[] }).tool_calls ?? [])
      assert.equal(answers.get(call.id as string), 1, `${call.name} answered ${answers.get(call.id as string) ?? 0} times`);
}

test("createAgent: the argument is advertised on tools with an output schema and the result is filtered", async () => {
  const { runs, tools } = issueTools();
  const model = new RecordingModel([callTools({ name: "get_issue", args: { id: "a1", requireOutput: ["identifier", "state.name"] } })]);
  const agent = createAgent({ model, tools, middleware: [requireOutputMiddleware({ outputSchemas: { get_issue: issueOutput } })] });
  const out = await agent.invoke({ messages: [new HumanMessage("what state is issue a1 in?")] });

  // Advertised: get_issue is bound as a plain definition with the extra argument; ping stays the tool instance.
  const bound = model.bindings[0];
  const def = bound.find((t) => (t as { name: string }).name === "get_issue") as { schema: JsonSchema };
  const props = def.schema.properties as Record<string, JsonSchema>;
  assert.ok(props.id, "the tool's own parameter is kept");
  assert.match(String(props[REQUIRE_OUTPUT_ARG].description), /identifier/);
  assert.ok(bound.includes(tools[1]), "a tool without output schema is bound unchanged");

  // The tool ran once, without the argument; the model saw only the requested fields.
  assert.deepEqual(runs, [{ id: "a1" }]);
  const [answer] = toolMessages(out.messages);
  assert.deepEqual(JSON.parse(String(answer.content)), { identifier: "ENG-7", state: { name: "In Progress" } });
  assertEveryCallAnsweredOnce(out.messages);
});

test("createAgent: unknown fields get one error ToolMessage, the tool is not run, and the retry works", async () => {
  const { runs, tools } = issueTools();
  const model = new RecordingModel([
    callTools({ name: "get_issue", args: { id: "a1", requireOutput: ["status"] } }),
    callTools({ name: "get_issue", args: { id: "a1", requireOutput: ["state"] } }),
  ]);
  const agent = createAgent({ model, tools, middleware: [requireOutputMiddleware({ outputSchemas: { get_issue: issueOutput } })] });
  const out = await agent.invoke({ messages: [new HumanMessage("status of a1?")] });
  const [first, second] = toolMessages(out.messages);
  assert.equal(first.status, "error");
  const err = JSON.parse(String(first.content));
  assert.equal(err.tool, "get_issue");
  assert.deepEqual(err.invalid, ["status"]);
  assert.ok(err.valid.includes("state"));
  assert.deepEqual(JSON.parse(String(second.content)), { state: issue.state });
  assert.equal(runs.length, 1, "the rejected call did not run the tool");
  assertEveryCallAnsweredOnce(out.messages);
});

test("createAgent: a call without requireOutput gets the whole result; a tool without output schema ignores it", async () => {
  const { tools } = issueTools();
  const model = new RecordingModel([callTools({ name: "get_issue", args: { id: "a1" } }, { name: "ping", args: { requireOutput: ["x"] } })]);
  const agent = createAgent({ model, tools, middleware: [requireOutputMiddleware({ outputSchemas: { get_issue: issueOutput } })] });
  const out = await agent.invoke({ messages: [new HumanMessage("a1 please")] });
  const answers = toolMessages(out.messages);
  assert.deepEqual(JSON.parse(String(answers.find((m) => m.name === "get_issue")?.content)), issue);
  assert.equal(answers.find((m) => m.name === "ping")?.content, "pong");
  assertEveryCallAnsweredOnce(out.messages);
});

test("createAgent with toolAttentionMiddleware: routing still binds only active tools, rewritten ones included", async () => {
  const { runs, tools } = issueTools();
  const model = new RecordingModel([callTools({ name: "get_issue", args: { id: "a1", requireOutput: ["title"] } })]);
  const agent = createAgent({
    model,
    tools,
    middleware: [
      toolAttentionMiddleware({ tools, k: 1, cacheDir: false, delivery: "rebind" }),
      requireOutputMiddleware({ outputSchemas: { get_issue: issueOutput }, compaction: { shortList: true } }),
    ],
  });
  const out = await agent.invoke({ messages: [new HumanMessage("get the linear issue a1")] });
  const names = model.bindings[0].map((t) => (t as { name: string }).name).filter((n) => n !== "search_tools");
  assert.deepEqual(names, ["get_issue"]);
  assert.deepEqual(runs, [{ id: "a1" }]);
  assert.deepEqual(JSON.parse(String(toolMessages(out.messages)[0].content)), { title: "Crash on start" });
  assertEveryCallAnsweredOnce(out.messages);
});

test("createAgent: MCP-style content_and_artifact results have their structured artifact filtered", async () => {
  const mcpTool = tool(
    async () => [JSON.stringify(issue), { structuredContent: issue, content: [{ type: "text", text: JSON.stringify(issue) }] }],
    { name: "get_issue", description: "Get an issue.", schema: z.object({ id: z.string() }), responseFormat: "content_and_artifact" },
  );
  const model = new RecordingModel([callTools({ name: "get_issue", args: { id: "a1", requireOutput: ["id"] } })]);
  const agent = createAgent({ model, tools: [mcpTool], middleware: [requireOutputMiddleware({ outputSchemas: { get_issue: issueOutput } })] });
  const out = await agent.invoke({ messages: [new HumanMessage("a1")] });
  const [answer] = toolMessages(out.messages);
  assert.deepEqual(JSON.parse(String(answer.content)), { id: "a1" });
  assert.deepEqual((answer.artifact as { structuredContent: unknown }).structuredContent, { id: "a1" });
});

test("LangGraph createReactAgent: withRequireOutput tools advertise the argument and filter results", async () => {
  const { createReactAgent } = await import("@langchain/langgraph/prebuilt");
  const { withRequireOutput } = await import("../src/adapters/langchain/require-output.js");
  const { runs, tools } = issueTools();
  const wrapped = [withRequireOutput(tools[0], issueOutput), tools[1]];
  const model = new RecordingModel([
    callTools({ name: "get_issue", args: { id: "a1", requireOutput: ["nope"] } }),
    callTools({ name: "get_issue", args: { id: "a1", requireOutput: ["identifier", "labels.name"] } }),
  ]);
  const agent = createReactAgent({ llm: model, tools: wrapped });
  const out = await agent.invoke({ messages: [new HumanMessage("labels of a1?")] });
  const bound = model.bindings[0][0] as { schema: unknown };
  assert.ok(JSON.stringify(bound.schema).includes(REQUIRE_OUTPUT_ARG), "the wrapped tool's schema has the argument");
  const [first, second] = toolMessages(out.messages);
  assert.deepEqual(JSON.parse(String(first.content)).invalid, ["nope"]);
  assert.deepEqual(JSON.parse(String(second.content)), { identifier: "ENG-7", labels: [{ name: "bug" }, { name: "p1" }] });
  assert.deepEqual(runs, [{ id: "a1" }], "the original ran once, without the argument");
  assertEveryCallAnsweredOnce(out.messages);
});
