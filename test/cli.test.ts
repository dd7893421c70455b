/**
 * The `tool-attention` CLI run as a real process (route, eval, demo, errors), and the eval metric arithmetic.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { aggregate, quantile, scoreTask } from "../src/eval/metrics.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CATALOG = join(ROOT, "data/demo-catalog.json");
const METATOOL = join(ROOT, "../shared/benchmarks/metatool-dev");

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("scoreTask: recall, precision, top1 and allGold on hand-made cases", () => {
  assert.deepEqual(scoreTask(["a", "b", "c", "d"], ["b", "x"]), { recall: 0.5, precision: 0.25, top1: 0, allGold: 0, active: 4 });
  assert.deepEqual(scoreTask(["x", "b"], ["b", "x"]), { recall: 1, precision: 1, top1: 1, allGold: 1, active: 2 });
  assert.deepEqual(scoreTask([], ["a"]), { recall: 0, precision: 0, top1: 0, allGold: 0, active: 0 });
  // Two servers exposing the same name: both active copies count as gold for precision.
  assert.equal(scoreTask(["a", "a", "z"], ["a"]).precision, 2 / 3);
  const agg = aggregate([scoreTask(["a"], ["a"]), scoreTask(["b", "c"], ["a"])]);
  assert.equal(agg.recall, 0.5);
  assert.equal(agg.precision, 0.5);
  assert.equal(agg.f1, 0.5);
  assert.equal(agg.avgActive, 1.5);
  assert.equal(quantile([5, 1, 3], 0.5), 3);
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
});

test("route --json prints active tools with scores, gated-out tools with reasons and the three token counts", async () => {
  const r = await cli(["route", "--catalog", CATALOG, "--query", "merge pull request 42 in acme/api", "--k", "5", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.active.length > 0 && out.active.length <= 5);
  for (const a of out.active) assert.deepEqual(Object.keys(a).sort(), ["id", "name", "score", "server"]);
  assert.ok(out.gatedOut.some((g: { name: string; reason: string }) => g.name === "merge_pull_request" && /repo:write/.test(g.reason)));
  assert.ok(out.phase1Tokens > 0 && out.phase2Tokens > 0 && out.fullSchemaTokens > out.phase2Tokens);
  assert.match(r.stderr, /^tool-attention: index: (faiss IndexFlatIP|pure-TS flat)/m, "one line says which index is in use");

  const withScope = await cli([
    "route", "--catalog", CATALOG, "--query", "merge pull request 42 in acme/api", "--json",
    "--state", JSON.stringify({ scopes: ["repo:write"], toolOutputs: ["get_pull_request"] }),
  ]);
  assert.equal(withScope.code, 0, withScope.stderr);
  assert.equal(JSON.parse(withScope.stdout).active[0].name, "merge_pull_request");
});

test("eval reports the documented fields, and its metrics agree with the per-task routes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-eval-"));
  const tasks = join(dir, "tasks.jsonl");
  writeFileSync(
    tasks,
    [
      { id: "w", query: "will it rain in Berlin tomorrow?", gold: ["get_weather"] },
      { id: "s", query: "post the release notes to the #general Slack channel", gold: ["post_message"] },
      { id: "m", query: "fix the typo in README.md", gold: ["read_file", "edit_file"], steps: ["read the file", "edit the file to fix the typo"], state: { toolOutputs: ["read_file"] } },
    ].map((t) => JSON.stringify(t)).join("\n"),
  );
  const r = await cli(["eval", "--catalog", CATALOG, "--tasks", tasks, "--k", "5", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  for (const key of ["tasks", "k", "theta", "recall", "precision", "f1", "top1", "allGold", "avgActive", "poolTokens", "activeSchemaTokens", "fullSchemaTokens", "routeMsP50"])
    assert.ok(key in out, `missing ${key}`);
  assert.equal(out.tasks, 3);
  assert.equal(out.k, 5);
  assert.ok(out.recall > 0 && out.recall <= 1);
  assert.ok(out.avgActive <= 5);
  assert.ok(Math.abs(out.f1 - (2 * out.precision * out.recall) / (out.precision + out.recall)) < 1e-3);

  // Per-step routing can only add tools, so recall cannot drop.
  const p = await cli(["eval", "--catalog", CATALOG, "--tasks", tasks, "--k", "5", "--per-step", "--json"]);
  assert.equal(p.code, 0, p.stderr);
  const per = JSON.parse(p.stdout);
  assert.ok(per.recall >= out.recall);
  assert.ok(per.avgUnion >= out.avgActive);
});

test("eval on metatool-dev (first 300 tasks) runs end to end", { skip: !existsSync(METATOOL) && "../shared/benchmarks/metatool-dev not present" }, async () => {
  const r = await cli(["eval", "--catalog", join(METATOOL, "catalog.json"), "--tasks", join(METATOOL, "tasks.jsonl"), "--k", "5", "--limit", "300", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.tasks, 300);
  assert.ok(out.recall > 0.3, `recall ${out.recall}`);
  assert.match(r.stderr, /eval: 300\/300/);
});

test("bad input gets a clear error naming the flag, file or line", async () => {
  const noCatalog = await cli(["route", "--query", "x"]);
  assert.equal(noCatalog.code, 2);
  assert.match(noCatalog.stderr, /--catalog is required/);

  const missing = await cli(["route", "--catalog", "/nonexistent/catalog.json", "--query", "x"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /\/nonexistent\/catalog\.json/);

  const badK = await cli(["route", "--catalog", CATALOG, "--query", "x", "--k", "ten"]);
  assert.equal(badK.code, 2);
  assert.match(badK.stderr, /--k expects a number/);

  const badState = await cli(["route", "--catalog", CATALOG, "--query", "x", "--state", "{\"scopes\":\"a\"}"]);
  assert.equal(badState.code, 2);
  assert.match(badState.stderr, /"scopes" must be an array of strings/);

  const dir = mkdtempSync(join(tmpdir(), "ta-bad-"));
  const tasks = join(dir, "tasks.jsonl");
  writeFileSync(tasks, `${JSON.stringify({ query: "ok", gold: ["a"] })}\n{"query": "no gold"}\n`);
  const badTasks = await cli(["eval", "--catalog", CATALOG, "--tasks", tasks]);
  assert.equal(badTasks.code, 1);
  assert.match(badTasks.stderr, /tasks\.jsonl:2: "gold" must be an array/);

  const unknown = await cli(["frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
});

test("argument errors say what is wrong with the value, and no command is an error", async () => {
  // A negative count used to reach node:util's parser as an option ("argument is ambiguous").
  const negative = await cli(["route", "--catalog", CATALOG, "--query", "x", "--k", "-3", "--encoder", "lexical"]);
  assert.equal(negative.code, 2);
  assert.match(negative.stderr, /--k expects a positive integer \(the number of tools to keep\), got "-3"/);
  assert.doesNotMatch(negative.stderr, /ambiguous/);

  // k = 0 would route nothing: refused, not accepted.
  const zero = await cli(["route", "--catalog", CATALOG, "--query", "x", "--k", "0", "--encoder", "lexical"]);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--k expects a positive integer \(the number of tools to keep\), got "0"/);

  // A negative value where one is meaningful reaches its own check (θ below the lexical score range).
  const theta = await cli(["route", "--catalog", CATALOG, "--query", "x", "--theta", "-5", "--encoder", "lexical"]);
  assert.notEqual(theta.code, 0);
  assert.doesNotMatch(theta.stderr, /ambiguous/);
  assert.match(theta.stderr, /theta|θ/);

  // No arguments: the usage on stderr, a non-zero exit; --help is a request and exits 0 with the usage on stdout.
  const none = await cli([]);
  assert.equal(none.code, 2);
  assert.equal(none.stdout, "");
  assert.match(none.stderr, /^Usage:/);
  const help = await cli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage:/);
});

test("--catalog demo names the demo catalog shipped with the package, from any directory", async () => {
  const elsewhere = mkdtempSync(join(tmpdir(), "ta-app-"));
  // tsx by its absolute URL: the app directory has no node_modules.
  const tsx = import.meta.resolve("tsx");
  const { stdout } = await run(process.execPath, ["--import", tsx, join(ROOT, "src/cli/main.ts"), "route", "--catalog", "demo", "--query", "merge PR 42", "--encoder", "lexical", "--json"], {
    cwd: elsewhere,
  });
  const out = JSON.parse(stdout);
  assert.ok(out.active.length > 0);
  assert.ok(out.gatedOut.some((g: { name: string; reason: string }) => g.name === "merge_pull_request" && /repo:write/.test(g.reason)));
});

test("demo runs on the embedded defaults and shows tokens against the full-schema baseline", async () => {
  const r = await cli(["demo", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const turns = JSON.parse(r.stdout);
  assert.ok(turns.length >= 5);
  for (const t of turns) assert.ok(t.phase1Tokens + t.phase2Tokens < t.fullSchemaTokens);
  assert.ok(turns.some((t: { gatedOut: unknown[] }) => t.gatedOut.length > 0));
});
