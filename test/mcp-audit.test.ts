/**
 * `tool-attention audit` and `captureCatalog` over servers this test starts (test/fixtures) plus one that
 * fails to start: counts, token columns against independent arithmetic, failures with stderr, the cache.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { countTokens } from "../src/core/tokens/count.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { captureCatalog } from "../src/mcp/capture.js";
import type { AuditReport } from "../src/cli/audit.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

function writeConfig(dir: string): string {
  const file = join(dir, "mcp.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        live: { command: process.execPath, args: [join(ROOT, "test/fixtures/changing-server.mjs")] },
        broken: { command: process.execPath, args: [join(ROOT, "test/fixtures/broken-schema-server.mjs")] },
        nostart: { command: process.execPath, args: ["-e", "console.error('missing token: set NOSTART_TOKEN'); process.exit(1)"] },
      },
    }),
  );
  return file;
}

test("audit --json: per-server and total figures, adapter failures and start failures with reasons", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-audit-"));
  try {
    const config = writeConfig(dir);
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "audit", "--config", config, "--k", "2", "--json"], { cwd: ROOT });
    const report = JSON.parse(stdout) as AuditReport;
    const by = Object.fromEntries(report.servers.map((s) => [s.server, s]));
    assert.equal(report.k, 2);
    assert.equal(by.live.tools, 4);
    assert.equal(by.broken.tools, 2);
    assert.equal(by.broken.skipped.length, 3);
    assert.equal(report.total.tools, 6);
    assert.equal(report.total.failed, 1);
    // The adapter loads the well-formed server and rejects the malformed one as a whole.
    assert.equal(by.live.langchainTools, 4);
    assert.ok((by.live.langchainTokens ?? 0) > 0);
    assert.ok(by.broken.langchainError, "the adapter's failure is reported");
    assert.equal(by.broken.langchainTokens, undefined);
    // The failed server: reason and stderr tail.
    assert.equal(by.nostart.ok, false);
    assert.equal(by.nostart.failure?.phase, "start");
    assert.equal(by.nostart.failure?.stderrTail, "missing token: set NOSTART_TOKEN");
    // Columns add up.
    for (const s of report.servers) assert.equal(s.toolAttentionTokens, s.poolTokens + s.topKTokens);
    assert.equal(report.total.rawTokens, report.servers.reduce((n, s) => n + s.rawTokens, 0));
    assert.equal(report.total.toolAttentionTokens, report.total.poolTokens + report.total.topKTokens);
    // A handful of small tools: with prompt caching, delivery "auto" binds every schema, and the audit says so
    // instead of claiming a saving the runtime never makes.
    assert.deepEqual(report.total.delivery, { cached: "all", uncached: report.total.delivery.uncached });
    // Raw MCP JSON of the repaired-schema tool is what the server sent, unrepaired.
    const raw = { name: "create_issue", description: "Create a new issue in a project.", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" } };
    assert.ok(by.broken.rawTokens >= countTokens(JSON.stringify(raw)));
    assert.ok(by.broken.compaction && by.broken.compaction.shortList > 0, "outputSchema/annotations dropped by the short list");

    const text = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "audit", "--config", config], { cwd: ROOT });
    assert.match(text.stdout, /\| live \| 4 \|/);
    assert.match(text.stdout, /nostart \(start\): failed to start/);
    assert.match(text.stdout, /missing token: set NOSTART_TOKEN/);
    assert.match(text.stdout, /server "broken", tool "scalar_input": skipped/);
    assert.match(text.stdout, /on Anthropic and OpenAI, which cache the prompt, it binds every schema/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("audit without --config is a usage error", async () => {
  await assert.rejects(run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "audit"], { cwd: ROOT }), (err: unknown) => {
    const e = err as { code: number; stderr: string };
    assert.equal(e.code, 2);
    assert.match(e.stderr, /--config is required/);
    return true;
  });
});

test("captureCatalog writes the shared catalog format once and reads it back; failures are not cached", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-capture-"));
  try {
    const cacheFile = join(dir, "capture.json");
    const ok = join(dir, "ok.json");
    writeFileSync(ok, JSON.stringify({ mcpServers: { live: { command: process.execPath, args: [join(ROOT, "test/fixtures/changing-server.mjs")] } } }));
    const first = await captureCatalog(ok, { cacheFile });
    assert.equal(first.fromCache, false);
    assert.ok(existsSync(cacheFile));
    // The key covers the version of the package that holds the server script (here this repository's).
    const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
    assert.equal(first.catalog.capture.packages.live, `${own.name}@${own.version}`);
    const catalog = ToolCatalog.fromCatalogObject(JSON.parse(readFileSync(cacheFile, "utf8")));
    assert.deepEqual(catalog.tools.map((t) => t.name), ["echo", "add", "evolve", "crash"]);
    const second = await captureCatalog(ok, { cacheFile });
    assert.equal(second.fromCache, true);
    assert.deepEqual(second.catalog.servers, first.catalog.servers);

    const failing = writeConfig(dir);
    const withFailure = await captureCatalog(failing, { cacheFile: join(dir, "failing.json"), onWarning: () => undefined });
    assert.equal(withFailure.catalog.capture.failures[0].server, "nostart");
    assert.equal(existsSync(join(dir, "failing.json")), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
