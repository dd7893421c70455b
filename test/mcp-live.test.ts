/**
 * MCP sessions against servers this test starts (test/fixtures): tolerant listing with per-tool repair and
 * pagination, list_changed applied incrementally to the catalog and router inside a real createAgent loop,
 * a server that dies mid-session, and a server that never starts. No network.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createAgent } from "langchain";
import { Embeddings } from "@langchain/core/embeddings";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { gateCalls, stateViewOf } from "../src/adapters/langchain/messages.js";
import { UseLiteEmbeddings } from "../src/core/encoders/use-lite.js";
import { McpSession } from "../src/mcp/session.js";
import type { McpConfig } from "../src/mcp/config.js";
import type { McpServerFailure } from "../src/mcp/connection.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const stdio = (file: string) => ({ transport: "stdio" as const, command: process.execPath, args: [fixture(file)], env: {} });

function config(servers: McpConfig["servers"]): McpConfig {
  return { source: "test", servers };
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

function assertEveryCallAnsweredOnce(messages: BaseMessage[]) {
  const answers = new Map<string, number>();
  for (const t of toolMessages(messages)) answers.set(t.tool_call_id, (answers.get(t.tool_call_id) ?? 0) + 1);
  for (const m of messages)
    for (const call of (m as { tool_calls?: { id?: string; name: string }[] }).tool_calls ?? [])
      assert.equal(answers.get(call.id as string), 1, `tool call ${call.name} answered ${answers.get(call.id as string) ?? 0} times`);
}

/** The real USE-lite encoder, counting how many texts it is asked to embed as documents. */
class CountingEmbeddings extends Embeddings {
  readonly inner = new UseLiteEmbeddings();
  documents = 0;
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.documents += texts.length;
    return this.inner.embedDocuments(texts);
  }
  embedQuery(text: string): Promise<number[]> {
    return this.inner.embedQuery(text);
  }
}

test("a malformed tools/list is repaired per tool over all pages; the rest of the server stays", async () => {
  const warnings: string[] = [];
  const session = await McpSession.start(config({ broken: stdio("broken-schema-server.mjs") }), { onWarning: (w) => warnings.push(w) });
  try {
    assert.deepEqual(session.catalog.tools.map((t) => t.name), ["create_issue", "search_pages"]);
    const repaired = session.catalog.getById("create_issue");
    assert.equal(repaired?.inputSchema?.type, "object");
    assert.equal(repaired?.inputSchema?.$schema, "http://json-schema.org/draft-07/schema#");
    assert.ok(warnings.some((w) => w.includes('server "broken", tool "create_issue"') && w.includes("repaired")), warnings.join("\n"));
    assert.ok(warnings.some((w) => w.includes('tool "scalar_input": skipped') && w.includes('"string"')), warnings.join("\n"));
    assert.ok(warnings.some((w) => w.includes("tool #2") && w.includes('no "name"')), warnings.join("\n"));
    assert.ok(warnings.some((w) => w.includes('"create_issue": skipped: listed twice')), warnings.join("\n"));
    // The second page (behind nextCursor) keeps what the server declared: anyOf, $ref/$defs, outputSchema.
    const search = session.catalog.getById("search_pages");
    const props = search?.inputSchema?.properties as Record<string, { anyOf?: unknown[] }>;
    assert.deepEqual(props.filter.anyOf?.[0], { $ref: "#/$defs/parent" });
    assert.ok((search?.inputSchema?.$defs as Record<string, unknown>).parent);
    assert.deepEqual(search?.outputSchema, { type: "object", properties: { results: { type: "array" } } });
    assert.deepEqual(search?.annotations, { readOnlyHint: true });
    // The repaired tool still executes through the server.
    const out = await session.resolveTool("create_issue")?.invoke({ title: "x" });
    assert.equal(out, 'create_issue called with {"title":"x"}');
  } finally {
    await session.close();
  }
});

test("list_changed: the catalog and router update incrementally and the agent sees the new tool list", async () => {
  const encoder = new CountingEmbeddings();
  const changes: { added: string[]; changed: string[]; removed: string[] }[] = [];
  // Changed definitions are let through here (pins.changed "allow"): this test is about the incremental update;
  // holding them until approved is pinned-definitions.test.ts.
  const session = await McpSession.start(config({ live: stdio("changing-server.mjs") }), { pins: { dir: false, changed: "allow" } });
  try {
    session.onChange((c) => changes.push({ added: c.added, changed: c.changed, removed: c.removed }));
    // Whole-text rows only: the count below is of tool texts (multi-vector rows are counted in routing-channels.test.ts).
    const { router, resolveTool } = session.middlewareOptions({ encoder, cacheDir: false, theta: -1, k: 10, log: false, multiVector: false });
    await router.prepare();
    assert.equal(encoder.documents, 4); // echo, add, evolve, crash
    const model = new ScriptedChatModel([
      callTools({ name: "evolve" }),
      (call) => {
        // Re-routed after the change: the new tool is bound, the removed one is not.
        assert.ok(call.tools.includes("multiply"), `bound: ${call.tools}`);
        assert.ok(!call.tools.includes("add"), `bound: ${call.tools}`);
        assert.ok(call.system.includes("shouting"), `the pool shows echo's new description: ${call.system}`);
        return callTools({ name: "add", args: { a: 2, b: 3 } });
      },
      callTools({ name: "multiply", args: { a: 6, b: 7 } }),
    ]);
    // MCP tools are not registered with createAgent: the middleware binds and runs them through resolveTool.
    const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ router, resolveTool, delivery: "rebind", guarantee: false })] });
    const out = await agent.invoke({ messages: [new HumanMessage("Evolve the server, then add 2 and 3 and multiply 6 by 7.")] });

    assert.deepEqual(changes, [{ added: ["multiply"], changed: ["echo"], removed: ["add"] }]);
    // Only the added and the reworded tool were embedded again.
    assert.equal(encoder.documents, 4 + 2);
    assert.deepEqual(router.catalog.tools.map((t) => t.name).sort(), ["crash", "echo", "evolve", "multiply"]);

    const results = toolMessages(out.messages);
    assert.equal(results[0].content, "evolved");
    const rejected = JSON.parse(String(results[1].content).split("\n")[0]);
    assert.equal(rejected.error, "tool_not_available");
    assert.equal(rejected.tool, "add");
    assert.ok(!rejected.available.includes("add"));
    assert.equal(results[1].status, "error");
    assert.equal(results[2].content, "42");
    assertEveryCallAnsweredOnce(out.messages);

    // A decision taken before the change no longer lets the removed tool through.
    const stale = gateCalls([{ id: "c1", name: "add", args: {} }], {
      active: ["add", "echo"],
      catalog: router.catalog,
      state: stateViewOf({ messages: [] }),
    });
    assert.equal(stale.rejected.length, 1);
    assert.equal(stale.allowed.length, 0);
    // The reworded tool executes its new behaviour through the server.
    const echoed = await resolveTool("echo")?.invoke({ message: "hi" });
    assert.equal(echoed, "ECHO: HI");
  } finally {
    await session.close();
  }
});

test("a server that dies mid-session (restart off): its calls get one clear error each, other servers keep working", async () => {
  const failures: McpServerFailure[] = [];
  const session = await McpSession.start(
    config({ doomed: stdio("changing-server.mjs"), steady: stdio("broken-schema-server.mjs") }),
    { onServerFailure: (f) => failures.push(f), onWarning: () => undefined, restart: false },
  );
  try {
    const { router, resolveTool } = session.middlewareOptions({ encoder: "lexical", theta: -1, k: 10, log: false });
    const model = new ScriptedChatModel([
      callTools({ name: "crash" }),
      callTools({ name: "echo", args: { message: "still there?" } }, { name: "create_issue", args: { title: "t" } }),
    ]);
    const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ router, resolveTool })] });
    // The crash result arrives before the process exits; give the exit a moment to be noticed.
    const first = await agent.invoke({ messages: [new HumanMessage("crash the server, then echo and create an issue")] });
    assert.equal(toolMessages(first.messages)[0].content, "crashing");
    for (let i = 0; i < 100 && session.connections.get("doomed")?.state === "ready"; i++) await new Promise((r) => setTimeout(r, 20));
    const model2 = new ScriptedChatModel([callTools({ name: "echo", args: { message: "still there?" } }, { name: "create_issue", args: { title: "t" } })]);
    const agent2 = createAgent({ model: model2, tools: [], middleware: [toolAttentionMiddleware({ router, resolveTool })] });
    const out = await agent2.invoke({ messages: [new HumanMessage("echo a message and create an issue")] });
    const [echo, issue] = toolMessages(out.messages);
    assert.equal(echo.status, "error");
    const payload = JSON.parse(String(echo.content).split("\n")[0]);
    assert.equal(payload.error, "mcp_server_unavailable");
    assert.equal(payload.server, "doomed");
    assert.match(payload.reason, /exited unexpectedly/);
    // The server's stderr is for the operator (failures below), never for the model.
    assert.doesNotMatch(String(echo.content), /crashing on request|stderr/);
    assert.equal(issue.content, 'create_issue called with {"title":"t"}');
    assertEveryCallAnsweredOnce(out.messages);
    assert.equal(failures.length, 1);
    assert.equal(failures[0].phase, "exited");
    assert.match(failures[0].stderrTail, /crashing on request/);
  } finally {
    await session.close();
  }
});

test("a server that fails to start is reported with its stderr tail; the others are served", async () => {
  const failures: McpServerFailure[] = [];
  const session = await McpSession.start(
    config({
      broken_start: { transport: "stdio", command: process.execPath, args: ["-e", "console.error('need API_KEY'); process.exit(2)"], env: {} },
      missing: { transport: "stdio", command: "/nonexistent/mcp-server-binary", args: [], env: {} },
      live: stdio("changing-server.mjs"),
    }),
    { onServerFailure: (f) => failures.push(f) },
  );
  try {
    assert.deepEqual(failures.map((f) => f.server).sort(), ["broken_start", "missing"]);
    const bad = failures.find((f) => f.server === "broken_start") as McpServerFailure;
    assert.equal(bad.phase, "start");
    assert.equal(bad.stderrTail, "need API_KEY");
    assert.match((failures.find((f) => f.server === "missing") as McpServerFailure).message, /ENOENT|spawn/);
    assert.deepEqual(session.catalog.tools.map((t) => t.server), ["live", "live", "live", "live"]);
    assert.equal(await session.resolveTool("add")?.invoke({ a: 1, b: 2 }), "3");
  } finally {
    await session.close();
  }
});

test("lazy schemas: the router's loader fetches Phase-2 schemas from the live server's tools/list", async () => {
  const session = await McpSession.start(config({ broken: stdio("broken-schema-server.mjs") }), { lazySchemas: true, onWarning: () => undefined });
  try {
    assert.equal(session.catalog.getById("search_pages")?.inputSchema, undefined, "the catalog holds summaries only");
    const router = session.createRouter({ encoder: "lexical", log: false });
    const [schema] = await router.loader.getMany(["search_pages"]);
    const filter = (schema.inputSchema.properties as Record<string, { anyOf?: unknown[] }>).filter;
    assert.deepEqual(filter.anyOf?.[0], { $ref: "#/$defs/parent" });
    assert.equal(router.loader.stats.loads, 1);
    await router.loader.getMany(["search_pages"]);
    assert.equal(router.loader.stats.hits, 1, "served from the LRU the second time");
    // The bound LangChain tool still carries the full schema the server declared.
    assert.deepEqual((session.resolveTool("search_pages") as unknown as { schema: { required: string[] } }).schema.required, ["query"]);
  } finally {
    await session.close();
  }
});

test("a streamable HTTP server from a config with headers: listed and called over HTTP", async () => {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [fixture("http-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(Number(m[1]));
      });
      child.on("exit", (code) => reject(new Error(`http fixture exited with ${code}`)));
    });
    const { parseMcpConfig } = await import("../src/mcp/config.js");
    const cfg = parseMcpConfig(
      { mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: "Bearer ${env:FIXTURE_TOKEN}" } } } },
      { env: { FIXTURE_TOKEN: "s3cret" } },
    );
    const session = await McpSession.start(cfg);
    try {
      assert.deepEqual(session.failures(), []);
      assert.deepEqual(session.catalog.tools.map((t) => t.name), ["whoami", "reverse"]);
      assert.equal(await session.resolveTool("whoami")?.invoke({}), "authorization: Bearer s3cret");
      assert.equal(await session.resolveTool("reverse")?.invoke({ text: "abc" }), "cba");
    } finally {
      await session.close();
    }
  } finally {
    child.kill();
  }
});
