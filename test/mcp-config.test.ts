/** MCP config files: the shapes Claude Desktop / Cursor write, placeholders, and errors naming server and field. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadMcpConfig, parseMcpConfig, McpConfigError } from "../src/mcp/config.js";

test("stdio and streamable HTTP servers, with placeholders", () => {
  const cfg = parseMcpConfig(
    {
      mcpServers: {
        files: { command: "node", args: ["${configDir}/server.js", "${TMPDIR}/data", 3], env: { TOKEN: "${env:MY_TOKEN}", N: 2 }, cwd: "sub" },
        remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${MY_TOKEN}" } },
        off: { command: "x", disabled: true },
      },
    },
    { baseDir: "/etc/app", env: { MY_TOKEN: "t0k", TMPDIR: "/scratch" } },
  );
  assert.deepEqual(cfg.servers.files, {
    transport: "stdio",
    command: "node",
    args: ["/etc/app/server.js", "/scratch/data", "3"],
    env: { TOKEN: "t0k", N: "2" },
    cwd: "/etc/app/sub",
  });
  assert.deepEqual(cfg.servers.remote, { transport: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer t0k" } });
  assert.deepEqual(Object.keys(cfg.servers), ["files", "remote"]);
});

test("errors name the file, server and field", () => {
  const bad = (servers: unknown, re: RegExp) =>
    assert.throws(() => parseMcpConfig({ mcpServers: servers }, { source: "cfg.json", env: {} }), (err: unknown) => {
      assert.ok(err instanceof McpConfigError);
      assert.match((err as Error).message, re);
      return true;
    });
  bad({ a: { command: 1 } }, /cfg\.json: server "a", field "command": expected a string, got number/);
  bad({ a: { command: "x", args: "y" } }, /server "a", field "args": expected an array/);
  bad({ a: { command: "x", env: { K: "${env:NOPE}" } } }, /server "a", field "env\.K": .*"NOPE", which is not set/);
  bad({ a: { url: "not a url" } }, /server "a", field "url": "not a url" is not a valid URL/);
  bad({ a: { url: "https://x", type: "websocket" } }, /server "a", field "type": "websocket" is not supported/);
  bad({ a: {} }, /server "a": needs "command" \(stdio\) or "url"/);
  bad({ a: { command: "x", url: "https://x" } }, /server "a": has both/);
  assert.throws(() => parseMcpConfig({ servers: 3 }), /expected "mcpServers"/);
});

test("loadMcpConfig resolves ${configDir} to the file's directory and names unreadable files", () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-cfg-"));
  try {
    writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { s: { command: "node", args: ["${configDir}/x.js"] } } }));
    const cfg = loadMcpConfig(join(dir, "mcp.json"));
    assert.deepEqual((cfg.servers.s as { args: string[] }).args, [join(dir, "x.js")]);
    assert.equal(cfg.source, join(dir, "mcp.json"));
    writeFileSync(join(dir, "bad.json"), "{");
    assert.throws(() => loadMcpConfig(join(dir, "bad.json")), /Cannot read MCP config .*bad\.json/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
