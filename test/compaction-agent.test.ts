/**
 * Phase-2 compaction and the TERSE pool in real agent loops: createAgent with toolAttentionMiddleware, and the
 * LangGraph hooks' bindActiveTools, driven by a scripted model that records the tool definitions it was bound with.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { tool } from "@langchain/core/tools";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { createToolAttentionHooks } from "../src/adapters/langgraph/hooks.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { renderFullSchema, renderPool, SchemaTokenCounter } from "../src/core/render/render.js";
import { countTokens } from "../src/core/tokens/count.js";
import type { JsonSchema } from "../src/core/types.js";
import { ScriptedChatModel, callTools, type ScriptStep } from "./helpers/scripted-model.js";
import { linearLike, notionLike } from "./helpers/compaction-fixtures.js";

class RecordingModel extends ScriptedChatModel {
  readonly bindings: unknown[][];
  constructor(script: ScriptStep[], private readonly llmType = "scripted", bindings: unknown[][] = []) {
    super(script);
    this.bindings = bindings;
  }
  override _llmType(): string {
    return this.llmType;
  }
  override bindTools(tools: unknown[]): ScriptedChatModel {
    this.bindings.push(tools);
    return super.bindTools(tools);
  }
}

/** LangChain tools over the Notion-like schemas (JSON schema with $defs), recording their runs. */
function notionTools() {
  const runs: unknown[] = [];
  const tools = notionLike(3).map((spec) =>
    tool(async (args) => { runs.push(args); return `ran ${spec.name}`; }, {
      name: spec.name,
      description: spec.description as string,
      schema: spec.inputSchema as JsonSchema & { type: "object" },
    }),
  );
  return { runs, tools };
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

const parent = { page_id: "0f6c2a4e-1b1e-4a7a-9d2b-111111111111" };

test("createAgent: phase2 compaction binds compacted definitions and the registered tool still runs", async () => {
  const { runs, tools } = notionTools();
  const model = new RecordingModel([callTools({ name: "notion_op_1", args: { parent } })], "chat-google-generative-ai");
  const middleware = toolAttentionMiddleware({ tools, k: 2, cacheDir: false, phase2: { shortList: true }, delivery: "rebind" });
  const agent = createAgent({ model, tools, middleware: [middleware] });
  const out = await agent.invoke({ messages: [new HumanMessage("notion operation 1 on a page")] });

  // The routed tools (search_tools, the middleware's own, is bound next to them).
  const bound = (model.bindings[0] as { name: string; schema?: JsonSchema }[]).filter((b) => b.name !== "search_tools");
  assert.ok(bound.length > 0 && bound.length <= 2);
  for (const def of bound) {
    assert.ok(!tools.includes(def as never), "a plain definition, not the tool instance");
    const text = JSON.stringify(def.schema);
    assert.ok(!text.includes("$schema") && !text.includes("additionalProperties"), "short list applied");
    // The model is a Google one (provider read from _llmType): refs are inlined, not deduped.
    assert.ok(!text.includes("$ref"), `refs inlined for google: ${text.slice(0, 120)}`);
  }
  assert.deepEqual(runs, [{ parent }]);
  assert.equal(toolMessages(out.messages)[0].content, "ran notion_op_1");
});

test("createAgent: for an OpenAI model existing $defs are kept, and with phase2: false the tool instances are bound", async () => {
  const { tools } = notionTools();
  const model = new RecordingModel([callTools({ name: "notion_op_0", args: { parent } })], "openai");
  const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 1, cacheDir: false, phase2: { shortList: true } })] });
  await agent.invoke({ messages: [new HumanMessage("notion operation 0 on a page")] });
  const [def] = model.bindings[0] as { schema: JsonSchema }[];
  assert.ok(def.schema.$defs, "$defs kept where the provider resolves refs");

  const plain = new RecordingModel([callTools({ name: "notion_op_0", args: { parent } })], "openai");
  const agent2 = createAgent({ model: plain, tools, middleware: [toolAttentionMiddleware({ tools, k: 1, cacheDir: false, phase2: false })] });
  await agent2.invoke({ messages: [new HumanMessage("notion operation 0 on a page")] });
  assert.ok(tools.includes(plain.bindings[0][0] as never), "no compaction: the registered instance is bound");
});

test("createAgent: the TERSE pool lists parameter names and is identical across model calls", async () => {
  const { tools } = notionTools();
  const model = new RecordingModel([callTools({ name: "notion_op_2", args: { parent } })]);
  // guarantee off: on three tools the pool's header alone outweighs their schemas, and the guarantee would switch
  // the thread to every schema (no pool) on the second call.
  const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ tools, k: 2, cacheDir: false, pool: { format: "terse" }, delivery: "rebind", guarantee: false })] });
  await agent.invoke({ messages: [new HumanMessage("notion operation 2")] });
  const system = model.calls[0].system;
  for (const t of tools) assert.ok(system.includes(`TOOL ${t.name}: `), `pool misses ${t.name}`);
  assert.ok(system.includes("| IN parent, title?, field_2?"), system.slice(0, 400));
  assert.equal(model.calls[1].system, system);
});

test("LangGraph hooks: bindActiveTools applies phase2 compaction to the active tools only", () => {
  const { tools } = notionTools();
  const hooks = createToolAttentionHooks({ tools, cacheDir: false, phase2: { shortList: true, provider: "openai" } });
  const model = new RecordingModel([]);
  const state = { messages: [], toolAttention: { turnId: "t", queryHash: "h", active: ["notion_op_1"], gatedOut: [], rejectedRounds: 0 } };
  hooks.bindActiveTools(model, state as never);
  const bound = model.bindings[0] as { name: string; schema: JsonSchema }[];
  assert.deepEqual(bound.map((b) => b.name), ["notion_op_1"]);
  assert.equal(bound[0].schema.$schema, undefined);
  // Compacted definitions are cached per tool: the next turn binds the same object.
  hooks.bindActiveTools(model, state as never);
  assert.equal(model.bindings[1][0], bound[0]);
});

test("renderPool terse format: separate cache entry, parameter names and output fields, TERSE header", () => {
  const catalog = ToolCatalog.fromMcpTools({ linear: linearLike(3), notion: notionLike(2) });
  const line = renderPool(catalog);
  const terse = renderPool(catalog, { format: "terse" });
  assert.notEqual(line, terse);
  assert.equal(renderPool(catalog, { format: "terse" }), terse, "memoized");
  assert.ok(line.includes("- linear_op_0: "));
  assert.ok(terse.includes("TOOL linear_op_0: Linear operation 0 on issues. | IN issueId, limit?, includeArchived?, query? | OUT issue, related"));
  assert.ok(terse.startsWith("Tool catalog:") && terse.includes("? = optional"));
  assert.ok(terse.includes("[notion]"), "grouped by server like the line format");
});

test("renderFullSchema terse: fewer tokens than the JSON for the same tool", () => {
  const [n] = notionLike(1);
  const full = { name: n.name, description: n.description as string, inputSchema: n.inputSchema as JsonSchema };
  const json = renderFullSchema(full);
  const terse = renderFullSchema(full, "terse");
  assert.ok(terse.startsWith("TOOL notion_op_0\n"));
  assert.ok(countTokens(terse) < countTokens(json), `${countTokens(terse)} vs ${countTokens(json)}`);
});

test("compactBoundTools leaves provider tools and schemaless definitions as they are", async () => {
  const { compactBoundTools } = await import("../src/adapters/langchain/compact-tools.js");
  const { tools } = notionTools();
  const serverTool = { type: "web_search_preview" };
  const named = { name: "other", description: "x" };
  const out = compactBoundTools([tools[0], serverTool, named], { shortList: true });
  assert.notEqual(out[0], tools[0]);
  assert.equal(out[1], serverTool);
  assert.equal(out[2], named);
  assert.equal(compactBoundTools(tools, false), tools, "phase2: false: the same array");
  assert.equal(compactBoundTools(tools, {}), tools, "nothing enabled: the same array");
});

test("createAgent: requireOutput listed before toolAttention with phase2 — routing, advertising and filtering all hold", async () => {
  const { requireOutputMiddleware } = await import("../src/adapters/langchain/require-output.js");
  const { tools } = notionTools();
  const outputSchemas = { notion_op_1: { type: "object", properties: { id: { type: "string" }, url: { type: "string" } } } };
  const runner = tool(async () => JSON.stringify({ id: "p1", url: "https://x", extra: 1 }), {
    name: "notion_op_1",
    description: "Fetch the public URL and id of a Notion page.",
    schema: notionLike(2)[1].inputSchema as JsonSchema & { type: "object" },
  });
  const all = [tools[0], runner, tools[2]];
  const model = new RecordingModel([callTools({ name: "notion_op_1", args: { parent, requireOutput: ["url"] } })], "openai");
  const agent = createAgent({
    model,
    tools: all,
    middleware: [requireOutputMiddleware({ outputSchemas }), toolAttentionMiddleware({ tools: all, k: 1, cacheDir: false, delivery: "rebind", phase2: { shortList: true } })],
  });
  const out = await agent.invoke({ messages: [new HumanMessage("fetch the public url of my notion page")] });
  const bound = (model.bindings[0] as { name: string; schema: JsonSchema }[]).filter((b) => b.name !== "search_tools");
  assert.deepEqual(bound.map((b) => b.name), ["notion_op_1"], "routing still filters the rewritten definitions");
  assert.ok((bound[0].schema.properties as Record<string, unknown>).requireOutput, "advertised");
  assert.deepEqual(JSON.parse(String(toolMessages(out.messages)[0].content)), { url: "https://x" });
});

test("SchemaTokenCounter with compaction counts what Phase 2 sends", () => {
  const [n] = linearLike(1);
  const full = { name: n.name, description: n.description as string, inputSchema: n.inputSchema as JsonSchema };
  const plain = new SchemaTokenCounter().count(full);
  const compacted = new SchemaTokenCounter("cl100k_base", { shortList: true }).count(full);
  assert.equal(plain, countTokens(renderFullSchema(full)));
  assert.ok(compacted < plain, `${compacted} < ${plain}`);
  assert.equal(new SchemaTokenCounter("cl100k_base", {}).count(full), plain, "no technique enabled: same count");
});
