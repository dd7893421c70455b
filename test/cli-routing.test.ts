/**
 * The CLI's routing options as a real process: --encoder hybrid/lexical, --margin, --tags-only, --tool-text,
 * eval --simulate, and clear errors for bad values.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CATALOG = join(ROOT, "data/demo-catalog.json");

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("route: hybrid is the default, lexical works without a model, margin and tags cut the active set", async () => {
  const q = ["route", "--catalog", CATALOG, "--query", "what's the weather in Paris tomorrow?", "--json"];
  const hybrid = JSON.parse((await cli(q)).stdout);
  assert.equal(hybrid.active[0].name, "get_weather");
  const lexical = JSON.parse((await cli([...q, "--encoder", "lexical"])).stdout);
  assert.equal(lexical.active[0].name, "get_weather");
  assert.equal(lexical.theta, 0.02);
  const tight = JSON.parse((await cli([...q, "--margin", "0.05", "--theta", "0"])).stdout);
  assert.deepEqual(tight.active.map((a: { name: string }) => a.name), ["get_weather"]);
  const onlySlack = JSON.parse((await cli([...q, "--tags-only", "slack"])).stdout);
  assert.ok(onlySlack.active.every((a: { server: string }) => a.server === "slack"));
  const bad = await cli([...q, "--tool-text", "server,colour"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--tool-text: unknown part "colour"/);
});

test("eval --simulate reports the multi-turn union and its flag", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-sim-"));
  const tasks = join(dir, "tasks.jsonl");
  writeFileSync(
    tasks,
    [
      { id: "a", query: "read config.yaml then change the port", gold: ["read_file", "edit_file"], steps: ["read the file config.yaml", "edit the port line in the file"] },
      { id: "b", query: "what's the weather in Oslo?", gold: ["get_weather"] },
    ]
      .map((t) => JSON.stringify(t))
      .join("\n"),
  );
  const res = await cli(["eval", "--catalog", CATALOG, "--tasks", tasks, "--simulate", "--k", "3", "--json"]);
  assert.equal(res.code, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out.simulate, true);
  assert.equal(out.perStep, true);
  assert.equal(out.tasks, 2);
  assert.ok(out.avgUnion >= 1);
});

test("eval decomposes multi-request queries by default; --no-decompose routes them whole", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-dec-"));
  const tasks = join(dir, "tasks.jsonl");
  const query = "what's the weather in Paris tomorrow, and also list the tables of the analytics database";
  writeFileSync(tasks, JSON.stringify({ id: "two", query, gold: ["get_weather", "list_tables"] }));
  const args = ["eval", "--catalog", CATALOG, "--tasks", tasks, "--k", "1", "--json"];
  const on = JSON.parse((await cli(args)).stdout);
  const off = JSON.parse((await cli([...args, "--no-decompose"])).stdout);
  assert.equal(off.decompose, false);
  assert.equal(on.decompose, undefined);
  // k 1 holds one tool either way; routed with both clauses, the simulation reaches both.
  assert.equal(on.recall, 0.5);
  const sim = JSON.parse((await cli([...args, "--simulate"])).stdout);
  assert.equal(sim.recall, 1);
  const simOff = JSON.parse((await cli([...args, "--simulate", "--no-decompose"])).stdout);
  assert.equal(simOff.recall, 0.5);
});
