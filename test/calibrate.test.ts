/**
 * θ calibration: the sweep arithmetic on hand-made routes, agreement of the one-route sweep with real
 * routing at each θ, and the `calibrate` command run as a real process.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { activeAt, calibrate, DEFAULT_THETAS, sweep } from "../src/eval/calibrate.js";
import { evaluate } from "../src/eval/evaluate.js";
import type { EvalTask } from "../src/eval/tasks.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CATALOG = join(ROOT, "data/demo-catalog.json");

const s = (name: string, score: number, id = name) => ({ id, name, score });

test("the default sweep is 0.10 to 0.50 in steps of 0.02", () => {
  assert.equal(DEFAULT_THETAS.length, 21);
  assert.equal(DEFAULT_THETAS[0], 0.1);
  assert.equal(DEFAULT_THETAS[1], 0.12);
  assert.equal(DEFAULT_THETAS[20], 0.5);
});

test("activeAt keeps tools scoring ≥ θ and unions routed texts without duplicates", () => {
  const routes = [
    [s("a", 0.9), s("b", 0.3), s("c", 0.12)],
    [s("b", 0.5), s("d", 0.25)],
  ];
  assert.deepEqual(activeAt(routes, 0.1), ["a", "b", "c", "d"]);
  assert.deepEqual(activeAt(routes, 0.26), ["a", "b"]);
  assert.deepEqual(activeAt(routes, 0.3), ["a", "b"], "a score equal to θ is kept");
  assert.deepEqual(activeAt(routes, 0.95), []);
  // Two servers exposing one name: both copies are active (ids differ), as in routing.
  assert.deepEqual(activeAt([[s("x", 0.5, "s1__x"), s("x", 0.4, "s2__x")]], 0.3), ["x", "x"]);
});

test("sweep: recall, precision, F1, all-gold and avg active per θ on a hand-made case", () => {
  // Task 1: gold {a, b}; task 2: gold {c}.
  const routes = [[[s("a", 0.9), s("x", 0.35), s("b", 0.2)]], [[s("y", 0.45), s("c", 0.3)]]];
  const gold = [["a", "b"], ["c"]];
  const { curve, best } = sweep(routes, gold, [0.4, 0.1, 0.3]);
  assert.deepEqual(curve.map((p) => p.theta), [0.1, 0.3, 0.4], "ascending θ");
  const [p10, p30, p40] = curve;
  // θ 0.10: task 1 active [a, x, b] → R 1, P 2/3; task 2 active [y, c] → R 1, P 1/2.
  assert.equal(p10.recall, 1);
  assert.ok(Math.abs(p10.precision - (2 / 3 + 1 / 2) / 2) < 1e-12);
  assert.ok(Math.abs(p10.f1 - (2 * p10.precision * 1) / (p10.precision + 1)) < 1e-12);
  assert.equal(p10.allGold, 1);
  assert.equal(p10.avgActive, 2.5);
  // θ 0.30: task 1 [a, x] → R 1/2, P 1/2; task 2 [y, c] → R 1, P 1/2.
  assert.equal(p30.recall, 0.75);
  assert.equal(p30.precision, 0.5);
  assert.equal(p30.allGold, 0.5);
  assert.equal(p30.avgActive, 2);
  // θ 0.40: task 1 [a] → R 1/2, P 1; task 2 [y] → R 0, P 0.
  assert.equal(p40.recall, 0.25);
  assert.equal(p40.precision, 0.5);
  assert.equal(p40.avgActive, 1);
  assert.equal(best.theta, 0.1);
});

test("sweep: equal F1 goes to the higher recall", () => {
  const routes = [[[s("a", 0.9), s("b", 0.2), s("x", 0.15), s("y", 0.12)]]];
  const gold = [["a", "b"]];
  // θ 0.10 → [a, b, x, y]: R 1, P 1/2, F1 2/3. θ 0.50 → [a]: R 1/2, P 1, F1 2/3.
  const { curve, best } = sweep(routes, gold, [0.5, 0.1]);
  assert.ok(Math.abs(curve[0].f1 - curve[1].f1) < 1e-12);
  assert.equal(best.theta, 0.1);
  assert.equal(best.recall, 1);
  assert.throws(() => sweep(routes, [], [0.1]), /1 routed tasks but 0 gold sets/);
});

const TASKS: EvalTask[] = [
  { id: "w", query: "will it rain in Berlin tomorrow?", gold: ["get_weather"] },
  { id: "s", query: "post the release notes to the #general Slack channel", gold: ["post_message"] },
  { id: "m", query: "fix the typo in README.md", gold: ["read_file", "edit_file"], steps: ["read the file", "edit the file to fix the typo"], state: { toolOutputs: ["read_file"] } },
  { id: "g", query: "merge pull request 42 in acme/api", gold: ["get_pull_request", "merge_pull_request"], state: { scopes: ["repo:write"] } },
  { id: "d", query: "what columns does the orders table have", gold: ["describe_table"] },
];

test("calibrate agrees with real routing at every θ, with and without per-step routing", async () => {
  const router = new ToolAttentionRouter(ToolCatalog.fromFile(CATALOG), { log: false });
  for (const perStep of [false, true]) {
    const result = await calibrate(router, TASKS, { k: 4, perStep, thetas: [0.1, 0.2, 0.3, 0.4, 0.5] });
    assert.equal(result.tasks, TASKS.length);
    assert.equal(result.k, 4);
    for (const point of result.curve) {
      const real = await evaluate(router, TASKS, { k: 4, theta: point.theta, perStep, latencySample: 0 });
      assert.ok(Math.abs(real.recall - point.recall) < 1e-12, `θ ${point.theta} perStep ${perStep}: recall`);
      assert.ok(Math.abs(real.precision - point.precision) < 1e-12, `θ ${point.theta}: precision`);
      assert.ok(Math.abs(real.allGold - point.allGold) < 1e-12, `θ ${point.theta}: all-gold`);
      assert.ok(Math.abs(real.avgActive - point.avgActive) < 1e-12, `θ ${point.theta}: avg active`);
    }
    assert.equal(result.best.f1, Math.max(...result.curve.map((p) => p.f1)));
  }
  await assert.rejects(calibrate(router, []), /empty/);
  await assert.rejects(calibrate(router, TASKS, { thetas: [3] }), /outside -1\.\.2\.5 \(hybrid scores/);
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("CLI calibrate prints the curve and the max-F1 θ on the demo catalog", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ta-cal-"));
  const tasks = join(dir, "tasks.jsonl");
  writeFileSync(tasks, TASKS.map((t) => JSON.stringify(t)).join("\n"));

  const r = await cli(["calibrate", "--catalog", CATALOG, "--tasks", tasks, "--k", "5", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.tasks, TASKS.length);
  assert.equal(out.k, 5);
  assert.deepEqual(out.curve.map((p: { theta: number }) => p.theta), [...DEFAULT_THETAS]);
  const maxF1 = Math.max(...out.curve.map((p: { f1: number }) => p.f1));
  assert.equal(out.best.f1, maxF1);
  const tied = out.curve.filter((p: { f1: number }) => p.f1 === maxF1);
  assert.equal(out.best.recall, Math.max(...tied.map((p: { recall: number }) => p.recall)));
  // Raising θ can only shrink active sets.
  for (let i = 1; i < out.curve.length; i++) assert.ok(out.curve[i].avgActive <= out.curve[i - 1].avgActive);
  assert.match(r.stderr, /calibrate: 5\/5/);

  const text = await cli(["calibrate", "--catalog", CATALOG, "--tasks", tasks, "--k", "5"]);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(text.stdout.match(/← best F1/g)?.length, 1);
  assert.match(text.stdout, new RegExp(`best θ ${out.best.theta.toFixed(2)}: F1 ${out.best.f1.toFixed(4)}`));
  assert.equal(text.stdout.split("\n").filter((l) => /^\s+0\.\d\d\s/.test(l)).length, 21);

  const noTasks = await cli(["calibrate", "--catalog", CATALOG]);
  assert.equal(noTasks.code, 2);
  assert.match(noTasks.stderr, /--tasks is required/);
  const withTheta = await cli(["calibrate", "--catalog", CATALOG, "--tasks", tasks, "--theta", "0.3"]);
  assert.equal(withTheta.code, 2);
  assert.match(withTheta.stderr, /calibrate sweeps θ itself/);
});
