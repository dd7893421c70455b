/**
 * The conversation-cost replay (`replayCost`, `tool-attention cost`): every method priced through the provider
 * wire shapes and prefix cache, on the demo catalog (27 tools) and a small multi-step task file; the delivery
 * guarantee's switch rule and the small-catalog default it relies on.
 */
import { describe, it, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { resolveProfile } from "../src/core/cost/profiles.js";
import { PrefixCache, segmentCharges } from "../src/core/cost/prefix-cache.js";
import { planDelivery, preferAll, resolveDeliveryMode, type DeliveryState } from "../src/core/delivery/plan.js";
import { loadTasks } from "../src/eval/tasks.js";
import { replayCost, type CostReport, type CostRow } from "../src/eval/cost.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CATALOG = join(ROOT, "data/demo-catalog.json");
const TASKS = join(ROOT, "test/fixtures/cost-tasks.jsonl");
const tasks = loadTasks(TASKS);

const lexical = (k?: number) => new ToolAttentionRouter(ToolCatalog.fromFile(CATALOG), { encoder: "lexical", cacheDir: false, log: false, ...(k ? { k } : {}) });
const row = (r: CostReport, method: string): CostRow => {
  const found = r.methods.find((m) => m.method === method);
  assert.ok(found, `${method} in ${r.methods.map((m) => m.method)}`);
  return found;
};

describe("replayCost on the demo catalog", () => {
  it("every schema uncached costs more than cached; the default never costs more than every schema cached (real encoder, 5/15/30 calls, 500/2000 history, both providers)", async () => {
    const router = new ToolAttentionRouter(ToolCatalog.fromFile(CATALOG), { cacheDir: false, log: false });
    for (const provider of ["anthropic", "openai"] as const)
      for (const calls of [5, 15, 30])
        for (const historyTokens of [500, 2000]) {
          const r = await replayCost({ router, tasks, provider, calls, historyTokens, methods: ["all-uncached", "all-cached", "tool-attention"] });
          const where = `${provider}, ${calls} calls, ${historyTokens} history`;
          const uncached = row(r, "all-uncached");
          const cached = row(r, "all-cached");
          const ta = row(r, "tool-attention");
          assert.ok(uncached.billedPerConversation > cached.billedPerConversation, `${where}: uncached ${uncached.billedPerConversation} vs cached ${cached.billedPerConversation}`);
          assert.equal(uncached.cacheHitShare, 0);
          assert.ok(cached.cacheHitShare > 0.5, `${where}: cache hit ${cached.cacheHitShare}`);
          assert.ok(ta.billedPerConversation <= cached.billedPerConversation, `${where}: tool-attention (${ta.mode}) ${ta.billedPerConversation} > all-cached ${cached.billedPerConversation}`);
          // Every length covers the same calls: whole conversations only (30 calls: the one conversation there is).
          assert.equal(r.callsPerConversation, Math.min(calls, 30));
          assert.equal(uncached.conversations, Math.max(1, Math.floor(30 / calls)));
        }
  });

  it("rebind changes the tools array on a multi-step conversation, deferred never does, stable less often than rebind; both keep rebind's recall", async () => {
    const router = lexical(3);
    for (const provider of ["anthropic", "openai"] as const) {
      // The guarantee off: each mode on its own (with it, rebind and stable switch to every schema early).
      const r = await replayCost({ router, tasks, provider, calls: 30, historyTokens: 500, guarantee: false });
      const rebind = row(r, "tool-attention-rebind");
      const stable = row(r, "tool-attention-stable");
      assert.ok(rebind.toolSetChanges > 0, `${provider}: rebind changes ${rebind.toolSetChanges}`);
      assert.ok(stable.toolSetChanges < rebind.toolSetChanges, `${provider}: stable ${stable.toolSetChanges} vs rebind ${rebind.toolSetChanges}`);
      assert.ok((stable.recall as number) >= (rebind.recall as number) - 0.01, `${provider}: stable recall ${stable.recall} vs rebind ${rebind.recall}`);
      // A tool set that changes is a cache rewrite: rebind reads less of its prompt from the cache.
      assert.ok(stable.cacheHitShare > rebind.cacheHitShare);
      // Deferred on both providers: native on Anthropic, the call_tool dispatcher on OpenAI.
      const deferred = row(r, "tool-attention-deferred");
      assert.equal(deferred.toolSetChanges, 0);
      assert.ok((deferred.recall as number) >= (rebind.recall as number) - 0.01, `${provider}: deferred recall ${deferred.recall} vs rebind ${rebind.recall}`);
      assert.ok(deferred.billedPerConversation < rebind.billedPerConversation, `${provider}: deferred ${deferred.billedPerConversation} vs rebind ${rebind.billedPerConversation}`);
    }
  });

  it("the baselines and the competitors: provider tool search searches inside the turn, the LLM selector pays its extra calls", async () => {
    const r = await replayCost({ router: lexical(), tasks, provider: "anthropic", calls: 15, historyTokens: 500 });
    const cached = row(r, "all-cached");
    assert.equal(cached.calls, 15);
    assert.equal(cached.toolSetChanges, 0);
    assert.deepEqual([cached.recall, cached.allGold, cached.gateTrigger], [1, 1, 0]);
    for (const provider of ["anthropic", "openai"] as const) {
      const search = row(provider === "anthropic" ? r : await replayCost({ router: lexical(), tasks, provider, calls: 15, historyTokens: 500 }), "provider-tool-search");
      // Server-side search (Anthropic's tool search tool, OpenAI's hosted tool_search) runs within the model's turn:
      // no extra request; what it found is billed in the history from then on.
      assert.equal(search.calls, 15, `${provider}: in-turn searches are not extra requests`);
      assert.equal(search.toolSetChanges, 0, "every tool declared deferred: the tools array never changes");
      assert.ok((search.recall as number) > 0 && (search.recall as number) <= 1);
      assert.ok(search.billedPerConversation > 0);
    }
    const selector = row(r, "llm-tool-selector");
    assert.equal(selector.calls, 30, "one selection call per model call");
    assert.equal(selector.recall, null, "its recall needs a live model");
    assert.ok(selector.toolSetChanges > 0);
    for (const m of r.methods) assert.ok(m.billedPerCall > 0 && Number.isFinite(m.billedPerConversation), m.method);
  });

  it("each call adds about historyTokens to the history", async () => {
    const twoSteps = tasks.filter((t) => t.id === "c-3").map((t) => ({ ...t, steps: t.steps?.slice(0, 2), gold: t.gold.slice(0, 2) }));
    for (const historyTokens of [500, 2000]) {
      const both = await replayCost({ router: lexical(), tasks: twoSteps, provider: "openai", calls: 2, historyTokens, methods: ["all-uncached"] });
      const single = await replayCost({ router: lexical(), tasks: twoSteps, provider: "openai", calls: 1, historyTokens, methods: ["all-uncached"] });
      // Two calls in one conversation = two first calls + what the first call added (its tool call and result).
      const added = row(both, "all-uncached").inputTokensPerConversation - 2 * row(single, "all-uncached").inputTokensPerConversation;
      assert.ok(Math.abs(added - historyTokens) <= historyTokens * 0.05, `added ${added} for ${historyTokens}`);
    }
  });

  it("breaks each bill down: the parts sum to it; the floor carries no tools; every schema cached carries the catalog; the oracle only needed tools", async () => {
    // The 120-tool synthetic catalog, where the default (and so the oracle) delivers routed tools, not every schema.
    const router = new ToolAttentionRouter(ToolCatalog.fromFile(join(ROOT, "data/synthetic/catalog.json")), { encoder: "lexical", cacheDir: false, log: false });
    const long = loadTasks(join(ROOT, "data/synthetic/tasks.jsonl")).filter((t) => (t.steps?.length ?? 0) > 1).slice(0, 8);
    const size = router.catalog.size;
    for (const provider of ["anthropic", "openai"] as const) {
      const r = await replayCost({ router, tasks: long, provider, calls: 10, historyTokens: 500, methods: ["no-tools", "oracle", "all-cached", "provider-tool-search", "tool-attention-deferred"] });
      for (const m of r.methods) {
        const b = m.breakdown;
        const sum = b.pool + b.neededSchemas + b.unneededSchemas + b.rest;
        assert.ok(Math.abs(sum - m.billedPerConversation) < 1e-6 * m.billedPerConversation, `${provider} ${m.method}: parts ${sum} vs billed ${m.billedPerConversation}`);
        for (const part of [b.pool, b.neededSchemas, b.unneededSchemas, b.rest]) assert.ok(part >= 0, `${provider} ${m.method}: ${JSON.stringify(b)}`);
        assert.ok(b.toolsNeeded <= b.toolsDelivered, `${provider} ${m.method}`);
      }
      const floor = row(r, "no-tools").breakdown;
      assert.deepEqual([floor.pool, floor.neededSchemas, floor.unneededSchemas, floor.toolsDelivered], [0, 0, 0, 0]);
      const all = row(r, "all-cached").breakdown;
      assert.equal(all.pool, 0);
      assert.equal(all.toolsDelivered, size);
      assert.ok(all.unneededSchemas > all.neededSchemas, `${provider}: most of the catalog is not needed (${JSON.stringify(all)})`);
      const oracle = row(r, "oracle").breakdown;
      assert.equal(oracle.unneededSchemas, 0);
      assert.ok(oracle.neededSchemas > 0 && oracle.toolsNeeded === oracle.toolsDelivered, `${provider}: ${JSON.stringify(oracle)}`);
      // Tool search pays for the definitions its searches load.
      const search = row(r, "provider-tool-search").breakdown;
      assert.ok(search.toolsDelivered > 0 && search.neededSchemas > 0, `${provider}: ${JSON.stringify(search)}`);
      // The oracle and deferred delivery send the same pool in the same place: the same part of the bill.
      const deferred = row(r, "tool-attention-deferred").breakdown;
      assert.ok(oracle.pool > 0 && Math.abs(deferred.pool - oracle.pool) < 1e-6 * oracle.pool, `${provider}: pool ${deferred.pool} vs ${oracle.pool}`);
    }
  });

  it("is deterministic: two runs give the same report", async () => {
    const a = await replayCost({ router: lexical(5), tasks, provider: "anthropic", calls: 5, historyTokens: 500 });
    const b = await replayCost({ router: lexical(5), tasks, provider: "anthropic", calls: 5, historyTokens: 500 });
    assert.deepEqual(a, b);
  });

  it("rejects bad options with the option's name", async () => {
    const router = lexical();
    await assert.rejects(replayCost({ router, tasks, provider: "openai", calls: 0, historyTokens: 500 }), /calls/);
    await assert.rejects(replayCost({ router, tasks, provider: "openai", calls: 5, historyTokens: -1 }), /historyTokens/);
    await assert.rejects(replayCost({ router, tasks, provider: "gemini" as never, calls: 5, historyTokens: 500 }), /provider/);
  });
});

test("segmentCharges: each segment priced as the cache served it; the charges sum to the bill", () => {
  for (const profile of [resolveProfile("anthropic", "claude-sonnet-4-5"), resolveProfile("openai", "gpt-5"), { ...resolveProfile("openai", "gpt-5"), cache: "none" as const }]) {
    const cache = new PrefixCache(profile);
    const seg = (id: number, tokens: number, breakpoint = false) => ({ id, tokens, ...(breakpoint ? { breakpoint } : {}) });
    const first = [seg(1, 3000), seg(2, 1500, true), seg(3, 700, true)];
    const second = [...first.slice(0, 2), seg(4, 900, true)];
    let charges: number[] = [];
    for (const segments of [first, second]) {
      const usage = cache.account(segments);
      charges = segmentCharges(segments, usage, profile);
      assert.equal(charges.length, segments.length);
      assert.ok(Math.abs(charges.reduce((x, c) => x + c, 0) - usage.billed) < 1e-9, `${profile.name}: ${charges} vs ${usage.billed}`);
    }
    // The second request re-reads the first two segments: each is billed at the read rate (where the cache reads).
    if (profile.cache !== "none") {
      assert.ok(Math.abs(charges[0] - 3000 * profile.cacheRead) < 1e-9, `${profile.name}: ${charges[0]}`);
      assert.ok(charges[2] > 900 * profile.cacheRead, `${profile.name}: the new segment is not read from the cache`);
    } else assert.deepEqual(charges, [3000, 1500, 900].map((t) => t * profile.uncached));
  }
});

describe("delivery guarantee and the small-catalog default", () => {
  const anthropic = resolveProfile("anthropic", "claude-sonnet-4-5");
  const openai = resolveProfile("openai", "gpt-5");

  it("a deferred thread a little over the baseline keeps its cached prefix instead of paying a full-history rewrite", () => {
    const catalog = Array.from({ length: 27 }, (_, i) => `t${i}`);
    let state: DeliveryState | undefined;
    const modes: string[] = [];
    for (let call = 0; call < 30; call++) {
      // Every tool gets delivered over the thread: pool + deliveries end up above the full schemas.
      const plan = planDelivery({
        mode: "deferred",
        previous: state,
        active: [catalog[call % 27], catalog[(call * 7 + 3) % 27]],
        catalog,
        messageCount: call * 2 + 1,
        tokens: { fullSchemas: 2000, pool: 480, schema: () => 74, context: 1000 + call * 2000 },
        profile: anthropic,
        k: 2,
      });
      modes.push(plan.mode);
      state = plan.state;
    }
    assert.ok(state && state.estimate.plan > state.estimate.allCached, "the thread is over the baseline");
    assert.ok(modes.every((m) => m === "deferred"), `modes: ${modes}`);
  });

  it("a stable thread switches on a call that rewrites its prefix anyway, not on the quiet call after it", () => {
    const catalog = Array.from({ length: 40 }, (_, i) => `t${i}`);
    let state: DeliveryState | undefined;
    for (let call = 0; call < 30; call++) {
      // Odd calls bring a new top pick (a stable rewrite); even calls route what is already bound.
      const fresh = catalog[Math.floor((call + 1) / 2) + 1];
      const plan = planDelivery({
        mode: "stable",
        previous: state,
        active: call % 2 === 1 ? [fresh, catalog[0]] : [catalog[0]],
        catalog,
        messageCount: call * 2 + 1,
        tokens: { fullSchemas: 6000, pool: 300, schema: () => 150, context: 1500 + call * 2000 },
        profile: openai,
        k: 2,
      });
      if (plan.mode === "all") {
        assert.equal(call % 2, 1, `switched on call ${call}, a call whose tool set would not have changed`);
        return;
      }
      state = plan.state;
    }
    assert.fail("never switched");
  });

  it("with caching, a catalog the pool plus a thread's routed set covers gets every schema; without caching the per-call rule stands", () => {
    // The demo catalog's numbers: 27 tools, 2,008 schema tokens, a 481-token pool, k = 10.
    assert.equal(preferAll(2008, 481, 2008 / 27, 10), false);
    assert.equal(preferAll(2008, 481, 2008 / 27, 10, true), true);
    const demo = { fullSchemas: 2008, pool: 481, tools: 27, k: 10 };
    assert.equal(resolveDeliveryMode("auto", anthropic, demo), "all");
    assert.equal(resolveDeliveryMode("auto", openai, demo), "all");
    // A large catalog still routes: deferred on Anthropic (native) and OpenAI (dispatcher), stable without a known cache.
    const big = { fullSchemas: 47305, pool: 2656, tools: 120, k: 10 };
    assert.equal(resolveDeliveryMode("auto", anthropic, big), "deferred");
    assert.equal(resolveDeliveryMode("auto", openai, big), "deferred");
    assert.equal(resolveDeliveryMode("auto", resolveProfile("other"), big), "stable");
  });
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("CLI: cost --json prints one row per method with the documented keys; errors name the flag or file", async (t) => {
  const r = await cli(["cost", "--catalog", CATALOG, "--tasks", TASKS, "--encoder", "lexical", "--provider", "openai", "--calls", "10", "--history", "800", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { methods: Record<string, unknown>[]; callsPerConversation: number; historyTokens: number };
  assert.deepEqual(
    out.methods.map((m) => m.method),
    ["no-tools", "oracle", "all-uncached", "all-cached", "provider-tool-search", "llm-tool-selector", "tool-attention-rebind", "tool-attention-stable", "tool-attention-deferred", "tool-attention"],
  );
  for (const m of out.methods) {
    for (const key of ["method", "provider", "billedPerConversation", "cacheHitShare", "toolSetChanges", "recall", "allGold", "gateTrigger", "calls", "conversations", "callsRatio", "roundTrips", "missRate", "toolOverhead", "breakdown"])
      assert.ok(key in m, `${String(m.method)} has ${key}`);
    const b = m.breakdown as Record<string, number>;
    // The breakdown's parts are rounded separately: they sum to the rounded bill within a token per part.
    assert.ok(Math.abs(b.pool + b.neededSchemas + b.unneededSchemas + b.rest - (m.billedPerConversation as number)) <= 4, `${String(m.method)}: ${JSON.stringify(b)}`);
    assert.equal(m.provider, "openai");
    assert.equal(typeof m.billedPerConversation, "number");
  }
  const byMethod = new Map(out.methods.map((m) => [m.method, m]));
  // The floor bills least and has no tool overhead; every schema cached has all of it; the oracle finds every tool.
  assert.equal(byMethod.get("no-tools")?.toolOverhead, 0);
  assert.equal(byMethod.get("all-cached")?.toolOverhead, 1);
  for (const m of out.methods) assert.ok((m.billedPerConversation as number) >= (byMethod.get("no-tools")?.billedPerConversation as number), String(m.method));
  assert.equal(byMethod.get("oracle")?.recall, 1);
  assert.equal(byMethod.get("oracle")?.roundTrips, 0);
  // Present (recall) = delivered + run from the pool; only the dispatcher reaches a tool that was not delivered.
  for (const m of out.methods.filter((x) => String(x.method).startsWith("tool-attention"))) {
    assert.ok(Math.abs((m.recall as number) - (m.delivered as number) - (m.fromPool as number)) < 1e-3, `${String(m.method)}: recall = delivered + fromPool`);
    if (m.mode !== "deferred") assert.equal(m.fromPool, 0, `${String(m.method)}: a native tool list holds only the delivered tools`);
  }
  // A miss is a call whose needed tool was not callable: with no search inside the turn, each one costs a round trip.
  const ta = byMethod.get("tool-attention") as Record<string, number>;
  assert.ok(Math.abs(ta.missRate * (ta.calls - ta.roundTrips) - ta.roundTrips) < 0.5, `misses ${ta.missRate} × calls vs round trips ${ta.roundTrips}`);
  assert.equal(byMethod.get("all-cached")?.callsRatio, 1);
  assert.equal(out.callsPerConversation, 10);
  assert.equal(out.historyTokens, 800);

  const table = await cli(["cost", "--catalog", CATALOG, "--tasks", TASKS, "--encoder", "lexical", "--calls", "5"]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /anthropic:sonnet/);
  assert.match(table.stdout, /all-cached\s+[\d,]+\s+1\.000/);
  assert.match(table.stdout, /tool-attention-deferred/);
  assert.match(table.stdout, /Where the bill goes/);
  assert.match(table.stdout, /no-tools\s+0\s+0\s+0\s+[\d,]+\s+0\.0\s+0\.0/);

  const bad = await cli(["cost", "--catalog", CATALOG, "--tasks", TASKS, "--provider", "gemini"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--provider must be anthropic or openai/);
  // --model names the provider when --provider is absent; a contradiction is refused rather than priced.
  const byModel = await cli(["cost", "--catalog", CATALOG, "--tasks", TASKS, "--encoder", "lexical", "--model", "gpt-4o", "--calls", "5", "--json"]);
  assert.equal(byModel.code, 0, byModel.stderr);
  assert.match((JSON.parse(byModel.stdout) as { profile: string }).profile, /^openai:/);
  const clash = await cli(["cost", "--catalog", CATALOG, "--tasks", TASKS, "--provider", "anthropic", "--model", "gpt-4o"]);
  assert.equal(clash.code, 2);
  assert.match(clash.stderr, /--model gpt-4o is an OpenAI model, but --provider is anthropic/);
  for (const [flag, value] of [["--calls", "0"], ["--history", "1.5"], ["--k", "0"]]) {
    const r2 = await cli(["cost", "--catalog", CATALOG, "--tasks", TASKS, `${flag}=${value}`]);
    assert.equal(r2.code, 2, `${flag}=${value}`);
    assert.match(r2.stderr, new RegExp(`${flag} expects a positive integer`));
  }
  const dir = mkdtempSync(join(tmpdir(), "cost-cli-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "empty.jsonl"), "\n");
  writeFileSync(join(dir, "empty.json"), JSON.stringify({ servers: [] }));
  const noTasks = await cli(["cost", "--catalog", CATALOG, "--tasks", join(dir, "empty.jsonl"), "--encoder", "lexical"]);
  assert.equal(noTasks.code, 1);
  assert.match(noTasks.stderr, /empty\.jsonl: no tasks/);
  const noTools = await cli(["cost", "--catalog", join(dir, "empty.json"), "--tasks", TASKS, "--encoder", "lexical"]);
  assert.equal(noTools.code, 1);
  assert.match(noTools.stderr, /empty\.json: the catalog has no tools/);
  const missing = await cli(["cost", "--catalog", join(dir, "nope.json"), "--tasks", TASKS]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /Cannot read catalog .*nope\.json/);
  const noFlag = await cli(["cost", "--catalog", CATALOG]);
  assert.equal(noFlag.code, 2);
  assert.match(noFlag.stderr, /--tasks is required/);
});
