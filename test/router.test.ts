import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ToolCatalog, type CatalogFile } from "../src/core/catalog/catalog.js";
import { DEFAULT_K, DEFAULT_MIN_ACTIVE, DEFAULT_THETA, slateSize, ToolAttentionRouter } from "../src/core/router/router.js";
import { emptyStateView, stateViewFrom } from "../src/core/preconditions/preconditions.js";
import { renderFullSchema } from "../src/core/render/render.js";
import { countTokens } from "../src/core/tokens/count.js";
import type { ToolAttentionEvent } from "../src/core/events/events.js";
import type { RoutingDecision, ToolRecord } from "../src/core/types.js";

const DEMO_PATH = new URL("../data/demo-catalog.json", import.meta.url).pathname;
const demoData = () => JSON.parse(readFileSync(DEMO_PATH, "utf8")) as CatalogFile;
const WEATHER = "What's the weather going to be like in Paris tomorrow?";
const UNRELATED = "bake a chocolate cake recipe";

/** Tokens of a tool's Phase-2 JSON, computed from the catalog record, independently of the router's loader. */
const fullTokensOf = (t: ToolRecord) =>
  countTokens(renderFullSchema({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? { type: "object", properties: {} } }));

const ids = (xs: { id: string }[]) => xs.map((x) => x.id);

let tmpRoot: string;
let catalog: ToolCatalog;
let router: ToolAttentionRouter;
const events: ToolAttentionEvent[] = [];

before(async () => {
  tmpRoot = await mkdtemp(path.join(tmpdir(), "tool-attention-router-"));
  catalog = ToolCatalog.fromFile(DEMO_PATH);
  // The real default encoder (USE-lite), with its on-disk embedding cache in a temp dir.
  router = new ToolAttentionRouter(catalog, { cacheDir: path.join(tmpRoot, "emb"), onEvent: (e) => events.push(e) });
  await router.prepare();
});
after(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

function assertDecisionInvariants(d: RoutingDecision) {
  // Scores best first, actives above θ, no duplicates, at most k.
  for (let i = 1; i < d.candidates.length; i++) assert.ok(d.candidates[i - 1].score >= d.candidates[i].score);
  for (let i = 1; i < d.active.length; i++) assert.ok(d.active[i - 1].score >= d.active[i].score);
  // Below θ only to fill the active set up to minActive (never bind nothing).
  const above = d.active.filter((a) => a.score >= d.theta).length;
  if (above < d.active.length) assert.ok(d.active.length <= Math.min(d.k, DEFAULT_MIN_ACTIVE), `filled past minActive: ${ids(d.active)}`);
  for (const g of d.gatedOut) assert.ok(g.score >= d.theta && g.reason.length > 0);
  assert.ok(d.active.length <= d.k);
  assert.equal(new Set(ids(d.active)).size, d.active.length);
  assert.equal(d.belowTheta, d.candidates.filter((c) => c.score < d.theta).length);
  for (const x of [...d.active, ...d.gatedOut]) assert.ok(catalog.getById(x.id), x.id);
}

describe("ToolAttentionRouter (USE-lite over the demo catalog)", () => {
  it("prepares the default encoder", () => {
    assert.match(router.describe(), /use-lite/);
    assert.match(router.describe(), /tools: 27/);
    assert.equal(router.theta, DEFAULT_THETA);
    assert.equal(router.k, DEFAULT_K);
  });

  it("puts get_weather first for a weather query", async () => {
    const d = await router.route(WEATHER);
    assert.equal(d.active[0]?.id, "get_weather");
    assert.equal(d.candidates[0].id, "get_weather");
    assert.equal(d.query, WEATHER);
    assertDecisionInvariants(d);
  });

  it("is deterministic for the same query", async () => {
    const a = await router.route(WEATHER);
    const b = await router.route(WEATHER);
    assert.deepEqual(a.candidates, b.candidates);
    assert.deepEqual(a.active, b.active);
    assert.equal(a.queryHash, b.queryHash);
    assert.notEqual(a.turnId, b.turnId);
  });

  it("never binds nothing: θ above every score still leaves the best minActive tools, best first", async () => {
    const d = await router.route(WEATHER, emptyStateView(), { theta: 0.99 });
    assert.equal(d.active.length, DEFAULT_MIN_ACTIVE);
    assert.deepEqual(ids(d.active), ids(d.candidates).slice(0, DEFAULT_MIN_ACTIVE));
    assert.equal(d.active[0].id, "get_weather");
    assert.equal(d.belowTheta, d.candidates.length);
    // Capped by k, and preconditions still apply to the filled tools.
    assert.equal((await router.route(WEATHER, emptyStateView(), { theta: 0.99, k: 1 })).active.length, 1);
    const filled = await router.route("send an email to the team", emptyStateView(), { theta: 0.99 });
    assert.ok(!ids(filled.active).includes("send_email"), "send_email needs mail:send");
    assert.equal(filled.active.length, DEFAULT_MIN_ACTIVE);
    // "remember that Bob is a person": nothing clears θ on this catalog, yet the route is not empty.
    assert.ok((await router.route("remember that Bob is a person")).active.length >= 1);
    assert.throws(() => new ToolAttentionRouter(catalog, { minActive: -1 }), /minActive/);
  });

  it("θ above every score → no active tools with minActive 0; belowTheta counts the whole slate", async () => {
    const d = await router.route(WEATHER, emptyStateView(), { theta: 0.99, minActive: 0 });
    assert.deepEqual(d.active, []);
    assert.deepEqual(d.gatedOut, []);
    assert.equal(d.candidates.length, Math.min(catalog.size, slateSize(DEFAULT_K)));
    assert.equal(d.belowTheta, d.candidates.length);
    assert.equal(d.theta, 0.99);
  });

  it("slateSize(k) = max(4k, 20), and the router scores that many candidates", async () => {
    assert.equal(slateSize(0), 20);
    assert.equal(slateSize(1), 20);
    assert.equal(slateSize(5), 20);
    assert.equal(slateSize(6), 24);
    assert.equal(slateSize(10), 40);
    assert.equal((await router.route(WEATHER, emptyStateView(), { k: 2 })).candidates.length, 20);
    assert.equal((await router.route(WEATHER, emptyStateView(), { k: 10 })).candidates.length, 27);
  });

  it("respects k, keeping the best-scoring allowed tools", async () => {
    const q = "read the file, list the directory and search for files";
    const wide = await router.route(q, emptyStateView(), { theta: 0, k: 27 });
    const allowed = wide.active;
    assert.ok(allowed.length > 5);
    for (const k of [0, 1, 3, 5]) {
      const d = await router.route(q, emptyStateView(), { theta: 0, k });
      assert.equal(d.active.length, k);
      assert.equal(d.k, k);
      assert.deepEqual(ids(d.active), ids(allowed.slice(0, k)));
      assertDecisionInvariants(d);
    }
  });

  it("gates the demo's scoped tools by state and unlocks them when the scope is held", async () => {
    const q = "send an email to bob";
    const without = await router.route(q, emptyStateView(), { theta: 0.3 });
    const gated = without.gatedOut.find((g) => g.id === "send_email");
    assert.ok(gated, JSON.stringify(without.gatedOut));
    assert.equal(gated.reason, "missing scope: mail:send");
    assert.ok(!ids(without.active).includes("send_email"));
    const withScope = await router.route(q, stateViewFrom({ scopes: ["mail:send"] }), { theta: 0.3 });
    assert.equal(withScope.active[0].id, "send_email");
    assert.ok(!ids(withScope.gatedOut).includes("send_email"));
  });

  it("alwaysInclude adds a tool for an unrelated query, outside k; unknown names throw naming them", async () => {
    const r = new ToolAttentionRouter(catalog, { alwaysInclude: ["web_search"], cacheDir: false, minActive: 0 });
    const d = await r.route(UNRELATED);
    assert.deepEqual(ids(d.active), ["web_search"]);
    const d2 = await r.route(WEATHER, emptyStateView(), { k: 1 });
    assert.deepEqual(ids(d2.active), ["web_search", "get_weather"]);
    // Still subject to preconditions.
    const gatedAlways = new ToolAttentionRouter(catalog, { alwaysInclude: ["send_email"], cacheDir: false, minActive: 0 });
    const d3 = await gatedAlways.route(UNRELATED);
    assert.deepEqual(d3.active, []);
    assert.deepEqual(d3.gatedOut.map((g) => [g.id, g.reason]), [["send_email", "missing scope: mail:send"]]);
    assert.throws(() => new ToolAttentionRouter(catalog, { alwaysInclude: ["web_search", "no_such_tool"] }), /"no_such_tool"/);
  });

  it("rejects invalid θ and k", async () => {
    // θ is checked against the encoder's score range: hybrid scores reach 1 + 1.5 (cosine + 1.5 × BM25).
    for (const theta of [2.6, -2, Number.NaN, Number.POSITIVE_INFINITY]) assert.throws(() => new ToolAttentionRouter(catalog, { theta }), /theta/);
    assert.equal(new ToolAttentionRouter(catalog, { theta: 1.5 }).theta, 1.5);
    assert.throws(() => new ToolAttentionRouter(catalog, { theta: 1.5, encoder: "use-lite" }), /cosine similarities from -1 to 1/);
    for (const k of [-1, Number.NaN, 1e9]) assert.throws(() => new ToolAttentionRouter(catalog, { k }), /\bk\b/);
    assert.throws(() => new ToolAttentionRouter(catalog, { slate: 0 }), /slate/);
    await assert.rejects(router.route(WEATHER, emptyStateView(), { theta: 3 }), /theta: 3 \(hybrid scores are cosine \+ 1\.5 × BM25, from -1 to 2\.5/);
    await assert.rejects(router.route(WEATHER, emptyStateView(), { k: -3 }), /\bk\b/);
  });

  it("an empty or blank query activates nothing but alwaysInclude", async () => {
    for (const q of ["", "   \n "]) {
      const d = await router.route(q);
      assert.deepEqual(d.active, []);
      assert.deepEqual(d.candidates, []);
      assert.equal(d.belowTheta, 0);
    }
    const r = new ToolAttentionRouter(catalog, { alwaysInclude: ["list_channels"], cacheDir: false });
    assert.deepEqual(ids((await r.route("")).active), ["list_channels"]);
  });

  it("routes over an empty catalog without error", async () => {
    const empty = ToolCatalog.fromCatalogObject({ servers: [] });
    const r = new ToolAttentionRouter(empty, { cacheDir: false });
    const d = await r.route(WEATHER);
    assert.deepEqual(d.active, []);
    assert.deepEqual(d.candidates, []);
    assert.equal(d.phase2Tokens, 0);
    assert.equal(d.fullSchemaTokens, 0);
    assert.equal(d.phase1Tokens, countTokens(r.pool()));
  });

  it("accounts tokens: Phase 1 = the pool, Phase 2 = active schemas, full = every schema", async () => {
    const d = await router.route("merge the pull request after reading it", stateViewFrom({ scopes: ["repo:write"], toolOutputs: ["get_pull_request"] }));
    assert.ok(d.active.length > 0);
    assert.equal(d.phase1Tokens, countTokens(router.pool()));
    const phase2 = d.active.reduce((n, a) => n + fullTokensOf(catalog.getById(a.id)!), 0);
    assert.equal(d.phase2Tokens, phase2);
    const full = catalog.tools.reduce((n, t) => n + fullTokensOf(t), 0);
    assert.equal(d.fullSchemaTokens, full);
    assert.ok(d.phase2Tokens < d.fullSchemaTokens);
    assert.equal(await router.schemaTokens([]), 0);
    // No active tools → no Phase-2 tokens, same full count.
    const none = await router.route(WEATHER, emptyStateView(), { theta: 0.99, minActive: 0 });
    assert.equal(none.phase2Tokens, 0);
    assert.equal(none.fullSchemaTokens, full);
  });

  it("emits exactly one tool_attention.route event per route() with the decision's active ids", async () => {
    events.length = 0;
    const decisions = [await router.route(WEATHER), await router.route(UNRELATED), await router.route("")];
    assert.equal(events.length, 3);
    decisions.forEach((d, i) => {
      const e = events[i];
      assert.equal(e.type, "tool_attention.route");
      if (e.type !== "tool_attention.route") return;
      assert.equal(e.turnId, d.turnId);
      assert.equal(e.queryHash, d.queryHash);
      assert.deepEqual(e.active.map((a) => a.id), ids(d.active));
      assert.deepEqual(e.candidates.map((c) => c.id), ids(d.candidates));
      assert.deepEqual(e.gatedOutByState, d.gatedOut.map((g) => ({ id: g.id, reason: g.reason })));
      assert.equal(e.belowTheta, d.belowTheta);
      assert.equal(e.phase2Tokens, d.phase2Tokens);
      // The query text itself is not in the event.
      if (d.query) assert.ok(!JSON.stringify(e).includes(d.query));
    });
    assert.equal(decisions[0].active[0].id, "get_weather");
  });

  it("uses turnId from route options", async () => {
    const d = await router.route(WEATHER, emptyStateView(), { turnId: "my-turn" });
    assert.equal(d.turnId, "my-turn");
  });
});

describe("preconditions that remove every candidate", () => {
  let gatedCatalog: ToolCatalog;
  let gatedRouter: ToolAttentionRouter;
  before(async () => {
    const data = demoData();
    for (const s of data.servers) for (const t of s.tools) t.preconditions = { requiresScopes: ["ops:all"] };
    gatedCatalog = ToolCatalog.fromCatalogObject(data);
    gatedRouter = new ToolAttentionRouter(gatedCatalog, { cacheDir: false });
  });

  it("leaves active empty and lists the gated tools with reasons; the scope makes them active", async () => {
    const d = await gatedRouter.route(WEATHER);
    assert.deepEqual(d.active, []);
    const aboveTheta = d.candidates.filter((c) => c.score >= d.theta);
    assert.ok(aboveTheta.length >= 1);
    assert.deepEqual(ids(d.gatedOut), ids(aboveTheta));
    assert.equal(d.gatedOut[0].id, "get_weather");
    for (const g of d.gatedOut) assert.equal(g.reason, "missing scope: ops:all");
    assert.equal(d.gatedOut.length + d.belowTheta, d.candidates.length);
    assert.equal(d.phase2Tokens, 0);

    const open = await gatedRouter.route(WEATHER, stateViewFrom({ scopes: ["ops:all"] }));
    // The tools above θ, then (never fewer than minActive) the best ones below it.
    assert.deepEqual(ids(open.active).slice(0, d.gatedOut.length), ids(d.gatedOut));
    assert.equal(open.active.length, Math.max(d.gatedOut.length, DEFAULT_MIN_ACTIVE));
    assert.deepEqual(open.gatedOut, []);
  });
});

describe("lexical encoder", () => {
  let lexical: ToolAttentionRouter;
  before(async () => {
    lexical = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_PATH), { encoder: "lexical", theta: 0.05, cacheDir: false });
    await lexical.prepare();
  });

  it("also routes the weather query to get_weather", async () => {
    assert.match(lexical.describe(), /lexical/);
    const d = await lexical.route(WEATHER);
    assert.equal(d.candidates[0].id, "get_weather");
    assert.equal(d.active[0]?.id, "get_weather");
    assertDecisionInvariants(d);
  });

  it(
    "activates get_weather for the weather query at the default θ",
    async () => {
      const r = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_PATH), { encoder: "lexical", cacheDir: false });
      const d = await r.route(WEATHER);
      assert.equal(d.active[0]?.id, "get_weather");
    },
  );
});
