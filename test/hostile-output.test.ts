/**
 * Hostile MCP servers, each a real stdio server (test/fixtures/hostile-server.mjs, written with the MCP SDK): names
 * outside MCP's grammar, a `tools/list` that never ends, a schema nested 10,000 levels deep, a server that never
 * answers, control characters meant for the store, line separators meant for the prompt, secrets in stderr and in
 * config errors. Each server fails alone, with an error naming it, and every child process is gone afterwards.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpSession } from "../src/mcp/session.js";
import { loadMcpConfig, parseMcpConfig, McpConfigError, type McpStdioServerConfig } from "../src/mcp/config.js";
import type { McpServerFailure } from "../src/mcp/connection.js";
import { formatAudit, runAudit } from "../src/cli/audit.js";
import { renderPool } from "../src/core/render/render.js";
import { dispatchTextOf } from "../src/adapters/langchain/delivery.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { PostgresRoutingStore } from "../src/core/store/postgres.js";
import { startPostgres, type TestPostgres } from "./helpers/postgres.js";
import { CountingEmbeddings } from "./helpers/store-fixtures.js";

const hostile = fileURLToPath(new URL("./fixtures/hostile-server.mjs", import.meta.url));
const named = fileURLToPath(new URL("./fixtures/named-tools-server.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "ta-hostile-"));
const pidFile = (label: string) => join(dir, `${label}.pid`);

function hostileServer(mode: string, label = mode): McpStdioServerConfig {
  return { transport: "stdio", command: process.execPath, args: [hostile], env: { MODE: mode, PID_FILE: pidFile(label) } };
}
const goodServer = (label: string, tools: string[]): McpStdioServerConfig => ({
  transport: "stdio",
  command: process.execPath,
  args: [named],
  env: { LABEL: label, TOOLS: JSON.stringify(tools) },
});

/** Whether the process of a fixture that wrote its PID is still alive (a few tries: exit takes a moment). */
async function alive(label: string): Promise<boolean> {
  const pid = Number(readFileSync(pidFile(label), "utf8"));
  assert.ok(pid > 0, `no PID for ${label}`);
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const quiet = { onWarning: () => undefined, onServerFailure: () => undefined, restart: false as const };

test("names outside MCP's grammar are left out with a warning naming server and position; the rest of the server stays", async () => {
  const warnings: string[] = [];
  const session = await McpSession.start(
    { source: "test", servers: { bank: goodServer("bank", ["transfer_funds"]), trivia: hostileServer("names") } },
    { ...quiet, onWarning: (w) => warnings.push(w) },
  );
  try {
    assert.deepEqual(session.catalog.tools.map((t) => t.name).sort(), ["ns/tool.v2-beta", "transfer_funds", "valid_tool"]);
    for (const position of [0, 1, 2, 3, 4])
      assert.ok(
        warnings.some((w) => w.startsWith(`server "trivia", tool "#${position}": skipped: tool #${position} `) && /is not a valid MCP tool name/.test(w)),
        `position ${position}:\n${warnings.join("\n")}`,
      );
    // The warning says what is wrong, escaped: no warning line carries a raw line break.
    assert.ok(warnings.every((w) => !w.includes("\n")), warnings.join("\n"));
    assert.match(warnings.join("\n"), /holds "е" \(U\+0435\)/);
    assert.match(warnings.join("\n"), /129 characters/);
    // Nothing the names held reaches the pool, and valid names still work end to end.
    const pool = renderPool(session.catalog);
    assert.ok(!/SYSTEM|<\/tools>|Show the account balance/.test(pool), pool);
    assert.equal(pool.split("\n").filter((l) => l.startsWith("- ")).length, 3, pool);
    assert.equal(String(await session.resolveTool("transfer_funds")?.invoke({ amount: 1 })), 'bank ran transfer_funds with {"amount":1}');
    assert.equal(String(await session.resolveTool("valid_tool")?.invoke({})), "valid_tool ran");
    assert.equal(session.resolveTool("get weather"), undefined);
  } finally {
    await session.close();
  }
});

test("tools/list is bounded in tools, bytes and time per server: past a bound that server alone fails, naming it and the bound", async () => {
  const cases = [
    { mode: "flood", limits: { maxTools: 2_500 }, expect: /tools\/list of server "bad" went past listLimits\.maxTools = 2,500 \(3,000 tools after 3 pages\)/ },
    { mode: "flood", limits: { maxBytes: 200_000 }, expect: /tools\/list of server "bad" went past listLimits\.maxBytes = 200,000/ },
    { mode: "silent", limits: { timeoutMs: 400 }, expect: /tools\/list of server "bad" went past listLimits\.timeoutMs = 400/ },
  ];
  for (const c of cases) {
    const failures: McpServerFailure[] = [];
    const session = await McpSession.start(
      { source: "test", servers: { good: goodServer("good", ["get_balance"]), bad: hostileServer(c.mode, `bound-${c.mode}`) } },
      { ...quiet, onServerFailure: (f) => failures.push(f), listLimits: c.limits },
    );
    try {
      assert.deepEqual(session.catalog.tools.map((t) => t.name), ["get_balance"], c.mode);
      assert.equal(failures.length, 1, c.mode);
      assert.equal(failures[0].server, "bad");
      assert.equal(failures[0].phase, "list");
      assert.match(failures[0].message, c.expect);
    } finally {
      await session.close();
    }
    // The failed server was started, so it is stopped too.
    assert.equal(await alive(`bound-${c.mode}`), false, `${c.mode}: child still alive after close()`);
  }
  await assert.rejects(() => McpSession.start({ source: "test", servers: {} }, { listLimits: { maxTools: 0 } }), /Invalid listLimits\.maxTools: 0/);
});

test("audit survives every hostile server at once: the others are reported, and every child process is gone", async () => {
  const config = join(dir, "audit.json");
  const servers = { good: goodServer("good", ["get_balance", "transfer_funds"]), deep: hostileServer("deep"), silent: hostileServer("silent"), flood: hostileServer("flood") };
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: Object.fromEntries(Object.entries(servers).map(([n, s]) => [n, { command: s.command, args: s.args, env: s.env }])) }),
  );
  // Starting four servers at once on a loaded machine can take seconds: a generous start timeout, a short listing bound.
  const report = await runAudit({ config, timeoutMs: 30_000, listLimits: { timeoutMs: 10_000 }, concurrency: 4 });
  const by = Object.fromEntries(report.servers.map((s) => [s.server, s]));
  assert.equal(by.good.ok, true);
  assert.equal(by.good.tools, 2);
  assert.ok(by.good.rawTokens > 0 && by.good.poolTokens > 0);
  // The 10,000-level schema is cut at the catalog's depth cap; the server's report stands, with a warning.
  assert.equal(by.deep.ok, true, JSON.stringify(by.deep.failure));
  assert.equal(by.deep.tools, 2);
  assert.ok(by.deep.rawTokens > 0);
  assert.match(by.deep.warnings.join("\n"), /server "deep", tool "deep_tool": nested 20,00\d levels deep, deeper than 100 levels/);
  assert.equal(by.silent.ok, false);
  assert.equal(by.silent.failure?.phase, "list");
  assert.match(by.silent.failure?.message ?? "", /tools\/list failed: tools\/list of server "silent" went past listLimits\.timeoutMs = 10,000/);
  assert.equal(by.flood.ok, false);
  assert.match(by.flood.failure?.message ?? "", /listLimits\.maxTools = 5,000/);
  assert.equal(report.total.tools, 4);
  const text = formatAudit(report);
  assert.match(text, /\| good \| 2 \|/);
  assert.match(text, /- flood \(list\): .*listLimits\.maxTools/);
  for (const label of ["deep", "silent", "flood"]) assert.equal(await alive(label), false, `${label}: child still alive after the audit`);
});

let pgServer: TestPostgres | undefined;
after(async () => {
  await pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("NUL and other control characters never reach storage: a NUL in a description routes on the PostgreSQL store", async () => {
  pgServer = await startPostgres();
  const session = await McpSession.start({ source: "test", servers: { notes: hostileServer("nul"), bank: goodServer("bank", ["get_balance"]) } }, quiet);
  const store = new PostgresRoutingStore({ connectionString: pgServer.url, schema: "hostile_nul", warn: () => {} });
  try {
    const record = session.catalog.getById("read_notes");
    assert.ok(record);
    assert.equal(record.description, "Read the user's notes. Returns them as text.");
    assert.ok(!/[\u0000-\u0008]/.test(JSON.stringify(record.inputSchema).replace(/\\u0000/g, "\u0000")), JSON.stringify(record.inputSchema));
    assert.equal((record.inputSchema?.properties as Record<string, { description: string }>).folder.description, "Folder to read.");
    assert.ok(!record.routingText.includes("\u0000"));
    assert.match(session.warnings.join("\n"), /server "notes", tool "read_notes": "description" holds control characters \(NUL and the like\); removed/);
    // The whole batch goes into PostgreSQL and the router warm-starts from it.
    const encoder = new CountingEmbeddings();
    const router = new ToolAttentionRouter(session.catalog, { encoder, log: false, store, multiVector: false, theta: -1, k: 1 });
    await router.prepare();
    assert.equal(encoder.texts.length, 2);
    const route = await router.route("read my notes");
    assert.deepEqual(route.active.map((a) => a.id), ["read_notes"]);
    // Belt and braces: the store itself never sends a NUL to a text column, whoever calls it.
    const direct = await store.embedThrough("m-direct", ["with a \u0000 NUL"], async (texts) => texts.map(() => new Float32Array([1, 0])));
    assert.equal(direct.embedded, 1);
  } finally {
    await store.close();
    await session.close();
  }
});

test("the dispatcher's system-role tool list: no description can start a line, whatever separator it uses", async () => {
  const session = await McpSession.start({ source: "test", servers: { files: hostileServer("separators") } }, quiet);
  try {
    const text = dispatchTextOf(session.catalog, ["list_files", "read_file"]);
    const lines = text.split(/\r\n|[\n\r\u2028\u2029\u0085\u000b\u000c]/);
    assert.match(lines[0], /^Tools you can call through call_tool/);
    // Every other line is one the TERSE rendering writes (a tool, its purpose, a parameter or its continuation):
    // nothing from the server starts a line, so exactly the two tools asked for appear.
    for (const line of lines.slice(1)) assert.match(line, /^(TOOL |PURPOSE |IN |OUT |ERR |WHEN |TAGS |DEF | {2,})/, JSON.stringify(line));
    assert.deepEqual(lines.filter((l) => l.startsWith("TOOL ")), ["TOOL list_files", "TOOL read_file"], text);
    // The description is still there, its separators flattened to spaces (the forged entry stays inside the line).
    assert.match(text, /PURPOSE Read a file\. \{"name":"transfer_funds"/);
  } finally {
    await session.close();
  }
});

test("a server's stderr never reaches the model, and reaches the operator redacted", async () => {
  const { ToolMessage } = await import("@langchain/core/messages");
  const failures: McpServerFailure[] = [];
  const session = await McpSession.start({ source: "test", servers: { leaky: hostileServer("leaky") } }, { ...quiet, onServerFailure: (f) => failures.push(f) });
  try {
    const tool = session.resolveTool("explode");
    assert.ok(tool);
    await tool.invoke({ id: "c1", name: "explode", args: {}, type: "tool_call" });
    for (let i = 0; i < 100 && session.connections.get("leaky")?.state === "ready"; i++) await new Promise((r) => setTimeout(r, 20));
    const answer = (await tool.invoke({ id: "c2", name: "explode", args: {}, type: "tool_call" })) as InstanceType<typeof ToolMessage>;
    assert.equal(answer.status, "error");
    const content = String(answer.content);
    assert.match(content, /"error":"mcp_server_unavailable"/);
    assert.match(content, /server \\"leaky\\" exited unexpectedly/);
    for (const leak of ["sk-live", "ghp_", "SYSTEM", "fatal", "stderr"]) assert.ok(!content.includes(leak), `${leak} in ${content}`);
    // The operator still gets the server's last words, with the secrets redacted.
    assert.equal(failures.length, 1);
    assert.match(failures[0].stderrTail, /fatal: cannot reach https:\/\/api\.example\.com\/v1\?api_key=\[redacted\] with --token=\[redacted\]/);
    assert.ok(!/sk-live|ghp_/.test(failures[0].stderrTail));
    assert.ok(!/sk-live|ghp_/.test(session.connections.get("leaky")?.describeFailure() ?? ""));
  } finally {
    await session.close();
  }
});

test("config errors never print an expanded secret or a fragment of the file", () => {
  const env = { HOST: "not a host", API_KEY: "sk-live-0123456789abcdef" };
  let err: unknown;
  try {
    parseMcpConfig({ mcpServers: { remote: { url: "${env:HOST}/mcp?key=${env:API_KEY}" } } }, { source: "mcp.json", env });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof McpConfigError);
  assert.match(err.message, /mcp\.json: server "remote", field "url": "\$\{env:HOST\}\/mcp\?key=\[redacted\]" is not a valid URL/);
  assert.ok(!err.message.includes("sk-live"), err.message);
  // A key written into the file itself is redacted the same way.
  assert.throws(
    () => parseMcpConfig({ mcpServers: { remote: { url: "bad url?token=abc123456789" } } }, { source: "mcp.json", env }),
    (e: Error) => /\?token=\[redacted\]" is not a valid URL/.test(e.message) && !e.message.includes("abc123456789"),
  );
  const broken = join(dir, "broken.json");
  writeFileSync(broken, '{"mcpServers": {"remote": {"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer sk-live-0123456789abcdef"} x}}}');
  assert.throws(
    () => loadMcpConfig(broken),
    (e: Error) => /Cannot read MCP config .*broken\.json: not valid JSON at line 1, column \d+/.test(e.message) && !/sk-live|Bearer|Authorization/.test(e.message),
  );
});

test("names are never trimmed: the catalog keys a tool by the exact string the gate and the middleware look up", async () => {
  const { ToolCatalog } = await import("../src/core/catalog/catalog.js");
  const { usableToolName } = await import("../src/adapters/langchain/tools.js");
  const catalog = ToolCatalog.fromCatalogObject({ servers: [{ name: "trivia", tools: [{ name: "get_trivia ", description: "Trivia." }, { name: "get_quiz", description: "A quiz." }] }] }, { screening: false });
  assert.deepEqual(catalog.tools.map((t) => t.name), ["get_trivia ", "get_quiz"]);
  assert.equal(catalog.getByName("get_trivia").length, 0);
  assert.match(catalog.warnings.join("\n"), /tool "get_trivia ": the name has surrounding whitespace/);
  // The adapters take in only names they can use as they are.
  assert.equal(usableToolName("get_trivia "), false);
  assert.equal(usableToolName("get_quiz"), true);
});
