/**
 * A library is a guest: a router that works prints nothing on its own. The line naming the index and encoder goes
 * only to a `log` the application passes (the CLI passes stderr).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

test("a router prepared and routed with default options writes nothing to stderr or stdout; a log function gets the backend line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-quiet-"));
  try {
    const src = resolve("src/core/router/router.ts");
    const catalog = resolve("data/demo-catalog.json");
    const catalogMod = resolve("src/core/catalog/catalog.ts");
    const script = join(dir, "app.mts");
    writeFileSync(
      script,
      `import { ToolAttentionRouter } from ${JSON.stringify(src)};
import { ToolCatalog } from ${JSON.stringify(catalogMod)};
const catalog = ToolCatalog.fromFile(${JSON.stringify(catalog)});
const quiet = new ToolAttentionRouter(catalog, { encoder: "lexical", cacheDir: false });
await quiet.prepare();
await quiet.route("merge pull request 42");
const lines: string[] = [];
const told = new ToolAttentionRouter(catalog, { encoder: "hybrid", cacheDir: false, log: (l) => lines.push(l) });
await told.prepare();
if (!lines.some((l) => /^tool-attention: index: /.test(l))) throw new Error("no backend line: " + JSON.stringify(lines));
`,
    );
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", script], { cwd: resolve("."), timeout: 120_000 });
    assert.equal(stdout, "");
    assert.equal(stderr, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
