/**
 * Real MCP servers from npm (devDependencies), started over stdio from the shipped config
 * data/mcp/real-servers.json: a createAgent loop with the Tool Attention middleware and the real USE-lite
 * encoder routes the turn, the scripted model calls a routed tool, and the real server's result comes back.
 * Also: gitlab through the tolerant listing, and a catalog built from an existing MultiServerMCPClient.
 * No network: the servers only list tools and act on local files.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent } from "langchain";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import { loadMcpConfig, type McpConfig, type McpStdioServerConfig } from "../src/mcp/config.js";
import { McpSession } from "../src/mcp/session.js";
import { ScriptedChatModel, callTools, type ScriptedCall } from "./helpers/scripted-model.js";

const CONFIG = fileURLToPath(new URL("../data/mcp/real-servers.json", import.meta.url));
const installed = existsSync(fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/package.json", import.meta.url)));
const skip = installed ? false : "MCP server devDependencies are not installed (npm ci)";

function realConfig(names: string[], dir: string): McpConfig {
  // ${TMPDIR} in the shipped config → a fresh directory: filesystem's allowed dir and memory's file live there.
  const full = loadMcpConfig(CONFIG, { env: { ...process.env, TMPDIR: dir } });
  return { ...full, servers: Object.fromEntries(names.map((n) => [n, full.servers[n]])) };
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

test("real servers: the agent routes, the model calls a routed tool, the real server answers", { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-mcp-"));
  writeFileSync(join(dir, "notes.txt"), "The launch code is tangerine-42.\n");
  const session = await McpSession.start(realConfig(["everything", "filesystem", "memory"], dir));
  try {
    assert.deepEqual(session.failures(), []);
    assert.equal(session.catalog.size, 13 + 14 + 9);
    const { router, resolveTool } = session.middlewareOptions({ k: 5, log: false });
    const bound: string[][] = [];
    const pick = (wanted: string[], args: (name: string) => Record<string, unknown>) => (call: ScriptedCall) => {
      bound.push(call.tools);
      const name = wanted.find((w) => call.tools.includes(w));
      assert.ok(name, `none of ${wanted} was routed; bound: ${call.tools}`);
      return callTools({ name, args: args(name) });
    };
    const model = new ScriptedChatModel([
      pick(["read_text_file", "read_file"], () => ({ path: join(dir, "notes.txt") })),
      new AIMessage("It says the launch code is tangerine-42."),
      pick(["create_entities"], () => ({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] })),
      new AIMessage("Saved."),
      pick(["echo"], () => ({ message: "hello from the agent" })),
    ]);
    const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ router, resolveTool })] });

    const read = await agent.invoke({ messages: [new HumanMessage("Read the text file notes.txt and tell me what it says.")] });
    assert.match(String(toolMessages(read.messages)[0].content), /tangerine-42/);
    const remember = await agent.invoke({
      messages: [new HumanMessage("Create an entity in the knowledge graph: Ada, a person who wrote the first program.")],
    });
    assert.match(String(toolMessages(remember.messages)[0].content), /"name": ?"Ada"/);
    assert.ok(existsSync(join(dir, "tool-attention-memory.jsonl")), "memory server wrote its file");
    const echo = await agent.invoke({ messages: [new HumanMessage("Echo back the message: hello from the agent")] });
    assert.equal(toolMessages(echo.messages)[0].content, "Echo: hello from the agent");

    // Routing, not the whole catalog: at most k routed tools bound on each turn (besides the middleware's search_tools).
    for (const b of bound) assert.ok(b.filter((n) => n !== "search_tools").length <= 5, `bound ${b.length}: ${b}`);
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("real gitlab server as a standalone install lays it out: the SDK rejects its list, the session keeps every tool", { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-mcp-"));
  const base = realConfig(["gitlab", "everything"], dir);
  const gitlab = base.servers.gitlab as McpStdioServerConfig;
  // The zod layout of `npx @modelcontextprotocol/server-gitlab` (see the fixture): every inputSchema is only "$schema".
  const preload = fileURLToPath(new URL("./fixtures/gitlab-standalone-zod.mjs", import.meta.url));
  const cfg: McpConfig = { ...base, servers: { ...base.servers, gitlab: { ...gitlab, args: ["--import", preload, ...gitlab.args] } } };
  const warnings: string[] = [];
  const session = await McpSession.start(cfg, { onWarning: (w) => warnings.push(w) });
  try {
    const conn = session.connections.get("gitlab");
    // What every client built on Client.listTools() (MultiServerMCPClient included) gets: the whole list rejected.
    await assert.rejects(conn?.sdkClient?.listTools() as Promise<unknown>, /inputSchema|expected "object"/);
    const listing = session.listing("gitlab");
    assert.equal(listing?.tools.length, 9);
    assert.equal(listing?.skipped.length, 0);
    for (const { spec, raw } of listing?.tools ?? []) {
      assert.deepEqual(raw.inputSchema, { $schema: "http://json-schema.org/draft-07/schema#" });
      assert.deepEqual(spec.inputSchema, { $schema: "http://json-schema.org/draft-07/schema#", type: "object" });
      assert.ok(warnings.some((w) => w.startsWith(`server "gitlab", tool "${spec.name}": "inputSchema" has no "type"`)), `no warning for ${spec.name}`);
    }
    assert.equal(session.catalog.size, 9 + 13);

    // The agent routes to a gitlab tool; the call reaches the real server, which answers with an error (its own
    // argument check fails before any request to gitlab.com); the other server keeps working.
    const { router, resolveTool } = session.middlewareOptions({ k: 5, log: false });
    const model = new ScriptedChatModel([
      (call) => {
        assert.ok(call.tools.includes("create_issue"), `bound: ${call.tools}`);
        return callTools({ name: "create_issue", args: {} });
      },
      new AIMessage("The project id is missing."),
      (call) => {
        assert.ok(call.tools.includes("echo"), `bound: ${call.tools}`);
        return callTools({ name: "echo", args: { message: "still here" } });
      },
    ]);
    const agent = createAgent({ model, tools: [], middleware: [toolAttentionMiddleware({ router, resolveTool })] });
    const first = await agent.invoke({ messages: [new HumanMessage("Create a new issue in my GitLab project.")] });
    const [issue] = toolMessages(first.messages);
    assert.equal(issue.status, "error");
    assert.match(String(issue.content), /"server":"gitlab"/);
    // The server's own JSON-RPC error for the missing arguments (its zod 3 error formatting trips on zod 4).
    assert.match(String(issue.content), /"error":"mcp_call_failed".*MCP error -32603/);
    const second = await agent.invoke({ messages: [new HumanMessage("Echo back the message: still here")] });
    assert.equal(toolMessages(second.messages)[0].content, "Echo: still here");
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a MultiServerMCPClient: the catalog keeps raw schemas and survives a server the adapter rejects", { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-mcp-"));
  const everything = realConfig(["everything"], dir).servers.everything as McpStdioServerConfig;
  const client = new MultiServerMCPClient({
    mcpServers: {
      everything: { transport: "stdio", command: everything.command, args: everything.args },
      broken: { transport: "stdio", command: process.execPath, args: [fileURLToPath(new URL("./fixtures/broken-schema-server.mjs", import.meta.url))] },
    },
    onConnectionError: "ignore",
  });
  try {
    const adapterTools = await client.getTools();
    // The adapter drops the whole broken server (its SDK listTools rejects one schema).
    assert.ok(!adapterTools.some((t) => t.name === "search_pages"));
    const session = await McpSession.fromMultiServerClient(client, { onWarning: () => undefined });
    assert.deepEqual(session.failures(), []);
    assert.equal(session.listing("everything")?.tools.length, adapterTools.length);
    const search = session.catalog.getById("search_pages");
    const filter = (search?.inputSchema?.properties as Record<string, { anyOf?: unknown[] }>).filter;
    assert.deepEqual(filter.anyOf?.[0], { $ref: "#/$defs/parent" }, "anyOf/$ref kept as declared");
    assert.ok(search?.outputSchema, "outputSchema kept");
    // Execution goes through the adapter's own live connection.
    assert.equal(await session.resolveTool("echo")?.invoke({ message: "via adapter" }), "Echo: via adapter");
    assert.equal(await session.resolveTool("search_pages")?.invoke({ query: "q" }), 'search_pages called with {"query":"q"}');
    await session.close();
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
