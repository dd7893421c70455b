/**
 * Progressive start with the real USE-lite encoder: a catalog is routable on its BM25 channel before it is embedded,
 * the dense channels join when the background build is done, each decision says which channels served it, a large
 * catalog change is swapped in the same way, and a failing encoder (one that cannot load, or whose worker dies
 * mid-build) leaves the router routing lexically, reporting it, with what was embedded kept on disk. With a shared
 * PostgreSQL store, two processes' routers starting at once embed each text once.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { CachedEmbeddings } from "../src/core/encoders/cache.js";
import { resolveEncoder } from "../src/core/encoders/index.js";
import { UseLiteEmbeddings } from "../src/core/encoders/use-lite.js";
import { sharedUseLiteWorkerPool } from "../src/core/encoders/use-lite-pool.js";
import type { EncoderEvent, ToolAttentionEvent } from "../src/core/events/events.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { PostgresRoutingStore } from "../src/core/store/postgres.js";
import { expandCatalog } from "../src/bench/synthetic/expand.js";
import { startPostgres, type TestPostgres } from "./helpers/postgres.js";

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "ta-progressive-"));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function encoderEvents(events: ToolAttentionEvent[]): EncoderEvent[] {
  return events.filter((e): e is EncoderEvent => e.type === "tool_attention.encoder");
}

async function until(what: string, cond: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("progressive start (USE-lite, cold cache)", () => {
  it("routes lexically before the catalog is embedded, then on every channel once prepare() resolves", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(300, 7));
    const events: ToolAttentionEvent[] = [];
    const router = new ToolAttentionRouter(catalog, {
      cacheDir: tempDir(),
      multiVector: false,
      // BM25 alone (the static channel is tested below).
      progressive: { minTools: 100, staticChannel: false },
      log: false,
      onEvent: (e) => events.push(e),
    });
    assert.equal(router.health().routable, false);
    const first = await router.route("create a new branch in the git repository");
    // The lexical route did not wait for the encoder: its build had not ended when the route returned.
    assert.equal(encoderEvents(events).length, 0, "no encoder event before the first route returned");
    // Routed before the encoder embedded anything: BM25 alone, on the lexical θ, not marked degraded.
    assert.deepEqual(first.channels, ["lexical"]);
    assert.equal(first.theta, 0.02);
    assert.equal(first.degraded, undefined);
    assert.ok(first.active.length > 0, "the lexical route binds tools");
    assert.ok(first.active.some((a) => /branch/.test(a.name)), first.active.map((a) => a.name).join(", "));
    const building = router.health();
    assert.equal(building.state, "building");
    assert.deepEqual(building.channels, ["lexical"]);
    assert.equal(building.routable, true);
    const routeEvent = events.find((e) => e.type === "tool_attention.route");
    assert.deepEqual(routeEvent && "channels" in routeEvent ? routeEvent.channels : undefined, ["lexical"]);

    await router.prepare();
    const ready = router.health();
    assert.equal(ready.state, "ready");
    assert.equal(ready.encoder, "use-lite-512+bm25");
    assert.equal(ready.total, 300);
    assert.equal(ready.embedded, 300);
    const hybrid = await router.route("create a new branch in the git repository");
    assert.deepEqual(hybrid.channels, ["dense", "server", "lexical"]);
    assert.equal(hybrid.theta, 0.28);
    // The first route did not wait for the full-schema count either: counted already, or estimated and flagged.
    const counted = await router.fullSchemaTokens();
    if (first.fullSchemaTokensEstimated) assert.ok(Math.abs(first.fullSchemaTokens - counted) < 0.3 * counted, `${first.fullSchemaTokens} vs ${counted}`);
    else assert.equal(first.fullSchemaTokens, counted);
    assert.equal(hybrid.fullSchemaTokens, counted);
    assert.equal(hybrid.fullSchemaTokensEstimated, undefined);
    const built = encoderEvents(events);
    assert.equal(built.length, 1);
    assert.equal(built[0]!.state, "ready");
    assert.equal(built[0]!.embedded, 300);
  });

  it("with multi-vector rows, the whole-text rows join first and the multi-vector rows after", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(150, 5));
    const router = new ToolAttentionRouter(catalog, { cacheDir: tempDir(), progressive: { minTools: 0, staticChannel: false }, log: false });
    assert.deepEqual((await router.route("send a message to the team channel")).channels, ["lexical"]);
    await until("the whole-text rows", () => router.health().channels.includes("dense"));
    const mid = router.health();
    assert.equal(mid.state, "building");
    assert.deepEqual(mid.channels, ["dense", "server", "lexical"]);
    const d = await router.route("send a message to the team channel");
    assert.deepEqual(d.channels, ["dense", "server", "lexical"]);
    assert.equal(d.theta, 0.28, "the dense θ: whole-text rows are on the cosine scale");
    await router.prepare();
    assert.equal(router.health().state, "ready");
    assert.ok(router.health().total > 2 * catalog.size, `multi-vector rows counted: ${router.health().total}`);
    assert.deepEqual((await router.route("send a message to the team channel")).channels, ["dense", "multiVector", "server", "lexical"]);
  });

  it("below progressive.minTools a route waits for the whole build, as before", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(40, 7));
    const router = new ToolAttentionRouter(catalog, { cacheDir: tempDir(), multiVector: false, log: false });
    const d = await router.route("send a message to the team channel");
    assert.deepEqual(d.channels, ["dense", "server", "lexical"]);
    assert.equal(router.health().state, "ready");
  });

  it("a catalog change bringing many new texts is routable at once and embedded after; a small one is embedded before the swap", async () => {
    const base = expandCatalog(200, 7);
    const router = new ToolAttentionRouter(ToolCatalog.fromCatalogObject(base), { cacheDir: tempDir(), multiVector: false, progressive: { minTools: 50, staticChannel: false }, log: false });
    await router.prepare();
    const bigger = expandCatalog(320, 7);
    const big = await router.replaceCatalog(ToolCatalog.fromCatalogObject(bigger));
    assert.equal(big.added.length, 120);
    assert.equal(big.embedded, 0, "nothing embedded before the swap");
    assert.equal(router.health().state, "building");
    const newTool = router.catalog.tools.find((t) => big.added.includes(t.id))!;
    const lexical = await router.route(newTool.name.replace(/_/g, " "));
    assert.deepEqual(lexical.channels, ["lexical"]);
    assert.ok(lexical.active.some((a) => a.id === newTool.id), `new tool ${newTool.id} routable at once`);
    await router.prepare();
    assert.equal(router.health().state, "ready");
    assert.deepEqual((await router.route(newTool.name.replace(/_/g, " "))).channels, ["dense", "server", "lexical"]);

    const small = await router.replaceCatalog(ToolCatalog.fromCatalogObject(expandCatalog(330, 7)));
    assert.equal(small.added.length, 10);
    assert.equal(small.embedded, 10, "a small change is embedded before the swap");
    assert.deepEqual((await router.route("list open issues")).channels, ["dense", "server", "lexical"]);
  });
});

describe("the static channel (progressive.staticChannel)", () => {
  it("joins BM25 while the catalog embeds: scored against the encoder's query vector, on the lexical θ, named in decisions and health()", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(300, 7));
    const options = { cacheDir: tempDir(), multiVector: false as const, log: false as const };
    // A long wait: the first route waits for the channel (the encoder's load) however slow the machine.
    const router = new ToolAttentionRouter(catalog, { ...options, progressive: { minTools: 100, staticWaitMs: 120_000 } });
    const lexicalOnly = new ToolAttentionRouter(catalog, { ...options, cacheDir: tempDir(), progressive: { minTools: 100, staticChannel: false } });
    try {
      const query = "create a new branch in the git repository";
      const d = await router.route(query);
      assert.equal(router.health().state, "building", "routed before the build finished");
      assert.deepEqual(d.channels, ["static", "lexical"]);
      assert.deepEqual(router.health().channels, ["static", "lexical"]);
      assert.equal(d.theta, 0.02, "the lexical θ: the static rows are not on the dense channel's scale");
      assert.equal(d.degraded, undefined);
      assert.equal(router.routesLexicallyWhileEmbedding(), true, "callers still plan on estimates");
      assert.equal(router.denseIndex, undefined, "the static rows are not the dense index");
      assert.ok(d.active.some((a) => /branch/.test(a.name)), d.active.map((a) => a.name).join(", "));
      // The static channel changes the scores: BM25 alone ranks the same slate with other scores.
      const l = await lexicalOnly.route(query);
      assert.deepEqual(l.channels, ["lexical"]);
      const scoresOf = (x: typeof d) => x.candidates.slice(0, 10).map((c) => `${c.name}:${c.score.toFixed(4)}`).join();
      assert.notEqual(scoresOf(d), scoresOf(l));
      await router.prepare();
      assert.deepEqual((await router.route(query)).channels, ["dense", "server", "lexical"]);
    } finally {
      await Promise.all([router.close(), lexicalOnly.close()]);
    }
  });

  it("only with the encoder it was distilled from: another encoder's progressive phase routes on BM25 alone", async () => {
    // Another model as far as the router can tell (its id): the static table is not in its space.
    const inner = new UseLiteEmbeddings();
    const other = { modelId: "other-model", embedDocuments: (t: string[]) => inner.embedDocuments(t), embedQuery: (t: string) => inner.embedQuery(t) };
    const router = new ToolAttentionRouter(ToolCatalog.fromCatalogObject(expandCatalog(300, 7)), {
      encoder: other,
      cacheDir: false,
      multiVector: false,
      progressive: { minTools: 100, staticWaitMs: 120_000 },
      log: false,
    });
    try {
      const d = await router.route("create a new branch in the git repository");
      assert.deepEqual(d.channels, ["lexical"]);
    } finally {
      await router.close();
    }
  });

  it("is not made on a warm start: with the catalog in the embedding cache the first route waits for the dense channels", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(300, 7));
    const options = { cacheDir: tempDir(), progressive: { minTools: 100, staticWaitMs: 120_000 }, log: false as const };
    const cold = new ToolAttentionRouter(catalog, options);
    try {
      assert.deepEqual((await cold.route("list open issues")).channels, ["static", "lexical"]);
      await cold.prepare();
    } finally {
      await cold.close();
    }
    // A new router on the same cache: nothing is left to embed, so its progressive phase ends as soon as the
    // encoder has loaded and the cached vectors are read, and the first route is on the dense channels.
    const warm = new ToolAttentionRouter(catalog, options);
    try {
      const d = await warm.route("list open issues");
      assert.ok(d.channels.includes("dense") && !d.channels.includes("static"), d.channels.join(", "));
    } finally {
      await warm.close();
    }
  });

  it("reorders a route's best tools by their real vectors, embedded ahead of the build's queue and not again by the build", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(300, 7));
    const query = "create a new branch in the git repository";
    // Whole-text rows and BM25 only, so that the built router scores every tool the way the reorder keys them.
    const options = { multiVector: false as const, servers: false as const, log: false as const };
    const top = 20;
    const plain = new ToolAttentionRouter(catalog, { ...options, cacheDir: tempDir(), progressive: { minTools: 100, staticWaitMs: 120_000, rerankTop: 0 } });
    let before: { name: string; score: number }[];
    try {
      const d = await plain.route(query);
      assert.deepEqual(d.channels, ["static", "lexical"]);
      before = d.candidates.slice(0, top);
    } finally {
      await plain.close();
    }
    const cacheDir = tempDir();
    const router = new ToolAttentionRouter(catalog, { ...options, cacheDir, progressive: { minTools: 100, staticWaitMs: 120_000, rerankTop: top, rerankWaitMs: 120_000 } });
    // The router's embedding cache (one per model and directory): what it holds, and how many texts it sent the encoder.
    const cache = (await resolveEncoder("use-lite", { cacheDir })).embeddings as CachedEmbeddings;
    try {
      const d = await router.route(query);
      assert.equal(router.health().state, "building", "routed before the build finished");
      assert.deepEqual(d.channels, ["static", "lexical"]);
      const after = d.candidates.slice(0, top);
      // Only the order of the best tools changes: the same tools, the same scores slot by slot (the static phase's scale).
      assert.deepEqual(after.map((c) => c.score), before.map((c) => c.score));
      assert.deepEqual(after.map((c) => c.name).sort(), before.map((c) => c.name).sort());
      assert.notDeepEqual(after.map((c) => c.name), before.map((c) => c.name), "the real vectors reorder them");
      const texts = router.toolTexts();
      const textOf = new Map(catalog.tools.map((t, i) => [t.name, texts[i]!]));
      // The texts of the best tools went ahead of the build's batches: they have vectors, most of the catalog not yet.
      assert.ok((await cache.peek(after.map((c) => textOf.get(c.name)!))).every((v) => v !== undefined));
      const embeddedSoFar = (await cache.peek(texts)).filter((v) => v !== undefined).length;
      assert.ok(embeddedSoFar < texts.length / 2, `${embeddedSoFar} of ${texts.length} texts embedded at the first route`);
      await router.prepare();
      // The built router (cos(q, whole text) + lexical weight · BM25) ranks those tools in the order the route gave them.
      const built = await router.route(query, undefined, { k: 100 });
      assert.deepEqual(built.channels, ["dense", "lexical"]);
      const scoreOf = new Map(built.candidates.map((c) => [c.name, c.score]));
      assert.equal(scoreOf.size, catalog.size, "every tool scored");
      for (let i = 1; i < top; i++) {
        const [a, b] = [after[i - 1]!.name, after[i]!.name];
        assert.ok(scoreOf.get(a)! >= scoreOf.get(b)! - 1e-5, `${a} (${scoreOf.get(a)}) before ${b} (${scoreOf.get(b)})`);
      }
      // The build took the rows the route had made instead of sending those texts again. Only texts in the batches
      // the worker was already running when the route asked may have been embedded twice; plus the one query.
      const encoder = cache.inner as UseLiteEmbeddings;
      assert.ok(encoder.stats.reused > 0, JSON.stringify(encoder.stats));
      const twice = encoder.stats.embedded - 1 - new Set(texts).size;
      assert.ok(twice >= 0 && twice <= sharedUseLiteWorkerPool().size * encoder.batchSize, JSON.stringify(encoder.stats));
    } finally {
      await router.close();
    }
  });

  it("is dropped when the build stops: a closed router routes on BM25 alone", async () => {
    const router = new ToolAttentionRouter(ToolCatalog.fromCatalogObject(expandCatalog(700, 17)), {
      cacheDir: tempDir(),
      multiVector: false,
      progressive: { minTools: 0, staticWaitMs: 120_000 },
      log: false,
    });
    assert.deepEqual((await router.route("list open issues")).channels, ["static", "lexical"]);
    await router.close();
    await until("the build to stop", () => router.health().state !== "building");
    assert.deepEqual(router.health().channels, ["lexical"]);
    assert.deepEqual((await router.route("list open issues")).channels, ["lexical"]);
  });
});

describe("degraded, not dead", () => {
  it("an encoder that cannot load: routes stay lexical and say so; prepare() resolves; health() and an event carry the error", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(120, 7));
    const events: ToolAttentionEvent[] = [];
    const logs: string[] = [];
    const router = new ToolAttentionRouter(catalog, {
      encoder: "hf:/nonexistent/tool-attention-model",
      cacheDir: false,
      log: (l) => logs.push(l),
      onEvent: (e) => events.push(e),
    });
    await router.prepare();
    const d = await router.route("send a message to the team channel");
    assert.deepEqual(d.channels, ["lexical"]);
    assert.equal(d.degraded, "lexical");
    assert.equal(d.theta, 0.02);
    assert.ok(d.active.length > 0);
    const h = router.health();
    assert.equal(h.state, "degraded");
    assert.match(h.error ?? "", /transformers/i);
    const failed = encoderEvents(events);
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.state, "degraded");
    assert.equal(failed[0]!.error, h.error);
    assert.equal(logs.filter((l) => /failed to load/.test(l)).length, 1, logs.join("\n"));
    assert.match(logs.find((l) => /failed to load/.test(l))!, /encoder "hf:\/nonexistent\/tool-attention-model" failed to load .*routing 120 tools on the lexical channel/);
  });

  it("strict mode (encoderFallback: false): the load error rejects prepare() and route()", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(60, 7));
    const router = new ToolAttentionRouter(catalog, { encoder: "hf:/nonexistent/tool-attention-model", cacheDir: false, log: false, encoderFallback: false });
    await assert.rejects(router.prepare(), /transformers/i);
    await assert.rejects(router.route("send a message"), /transformers/i);
  });

  it("a worker that dies mid-build: the router degrades to lexical, and the chunks embedded before are on disk", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(600, 11));
    const cacheDir = tempDir();
    const events: ToolAttentionEvent[] = [];
    const router = new ToolAttentionRouter(catalog, { cacheDir, multiVector: false, progressive: { minTools: 0, staticChannel: false }, log: false, onEvent: (e) => events.push(e) });
    assert.deepEqual((await router.route("read a file")).channels, ["lexical"]);
    // The first chunk (256 texts) is written before the second one starts; kill the worker during the second.
    await until("the first chunk", () => router.health().embedded >= 256);
    await Promise.all(sharedUseLiteWorkerPool().workers.map((w) => w.terminate()));
    await router.prepare();
    const h = router.health();
    assert.equal(h.state, "degraded", JSON.stringify(h));
    assert.match(h.error ?? "", /stopped unexpectedly/);
    const d = await router.route("read a file");
    assert.deepEqual(d.channels, ["lexical"]);
    assert.equal(d.degraded, "lexical");
    assert.equal(encoderEvents(events).at(-1)?.state, "degraded");
    // Nothing embedded is lost: a fresh cache over the same directory holds the first chunk's vectors.
    const texts = router.toolTexts();
    const cached = await new CachedEmbeddings(new UseLiteEmbeddings(), { modelId: "use-lite-512", cacheDir }).peek(texts);
    const kept = cached.filter((v) => v !== undefined).length;
    assert.ok(kept >= 256 && kept < texts.length, `kept ${kept} of ${texts.length}`);
    // The next build (a catalog change) embeds only the rest, and the router is whole again.
    const again = await router.replaceCatalog(ToolCatalog.fromCatalogObject(expandCatalog(600, 11)));
    assert.equal(again.embedded, 0);
    await router.prepare();
    assert.equal(router.health().state, "ready");
    assert.deepEqual((await router.route("read a file")).channels, ["dense", "server", "lexical"]);
  });
});

describe("close()", () => {
  it("stops a background build at its next chunk; the router keeps routing lexically and nothing is reported as an encoder failure", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(700, 17));
    const events: ToolAttentionEvent[] = [];
    const logs: string[] = [];
    const router = new ToolAttentionRouter(catalog, {
      cacheDir: tempDir(),
      multiVector: false,
      progressive: { minTools: 0, staticChannel: false },
      log: (l) => logs.push(l),
      onEvent: (e) => events.push(e),
    });
    assert.deepEqual((await router.route("list open issues")).channels, ["lexical"]);
    await router.close();
    const h = router.health();
    assert.equal(h.state, "degraded");
    assert.match(h.error ?? "", /closed while embedding the catalog/);
    assert.ok(h.embedded < h.total, `stopped early: ${h.embedded} of ${h.total}`);
    assert.deepEqual(h.channels, ["lexical"]);
    assert.equal(h.routable, true);
    assert.equal(encoderEvents(events).length, 0);
    assert.deepEqual(logs.filter((l) => /failed/.test(l)), []);
  });
});

describe("options", () => {
  it("are checked at construction", () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(10, 7));
    assert.throws(() => new ToolAttentionRouter(catalog, { progressive: { minTool: 5 } as never }), /unknown option "minTool" \(did you mean "minTools"\?\)/);
    assert.throws(() => new ToolAttentionRouter(catalog, { progressive: { minTools: -1 } }), /Invalid progressive\.minTools: -1/);
    assert.throws(() => new ToolAttentionRouter(catalog, { progressive: "yes" as never }), /option "progressive" must be an object or a boolean/);
    assert.throws(() => new ToolAttentionRouter(catalog, { progressive: { staticChannel: "yes" as never } }), /Invalid progressive\.staticChannel: "yes" \(expected a boolean\)/);
    assert.throws(() => new ToolAttentionRouter(catalog, { progressive: { staticWaitMs: -1 } }), /Invalid progressive\.staticWaitMs: -1/);
    assert.throws(() => new ToolAttentionRouter(catalog, { progressive: { rerankTop: 2.5 } }), /Invalid progressive\.rerankTop: 2\.5 \(expected an integer from 0 to 1000\)/);
    assert.throws(() => new ToolAttentionRouter(catalog, { progressive: { rerankWaitMs: -1 } }), /Invalid progressive\.rerankWaitMs: -1/);
    assert.throws(
      () => new ToolAttentionRouter(catalog, { progressive: true, encoderFallback: false }),
      /progressive needs the lexical fallback .* remove encoderFallback: false \(strict mode\) or progressive/,
    );
  });
});

describe("shared PostgreSQL store", () => {
  let pg: TestPostgres;
  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    await pg?.stop();
  });

  /** USE-lite counting the texts it embeds (the real encoder underneath). */
  class CountingUseLite extends UseLiteEmbeddings {
    texts = 0;
    override async embedDocuments(documents: string[]): Promise<number[][]> {
      this.texts += documents.length;
      return super.embedDocuments(documents);
    }
  }

  it("two routers starting progressively at once embed each text once, and both end up whole", async () => {
    const file = expandCatalog(300, 13);
    const encoders = [new CountingUseLite(), new CountingUseLite()];
    const stores = [0, 1].map(() => new PostgresRoutingStore({ connectionString: pg.url, schema: "progressive", warn: () => {} }));
    try {
      const routers = encoders.map(
        (encoder, i) =>
          new ToolAttentionRouter(ToolCatalog.fromCatalogObject(file), { encoder, lexical: true, multiVector: false, progressive: { minTools: 0, staticChannel: false }, store: stores[i]!, log: false }),
      );
      const firsts = await Promise.all(routers.map((r) => r.route("create a branch in the repository")));
      for (const d of firsts) assert.deepEqual(d.channels, ["lexical"]);
      await Promise.all(routers.map((r) => r.prepare()));
      for (const r of routers) assert.equal(r.health().state, "ready");
      assert.equal(encoders[0]!.texts + encoders[1]!.texts, 300, `embedded ${encoders.map((e) => e.texts).join(" + ")}`);
      const ds = await Promise.all(routers.map((r) => r.route("create a branch in the repository")));
      assert.deepEqual(ds[0]!.active.map((a) => a.id), ds[1]!.active.map((a) => a.id));
      assert.deepEqual(ds[0]!.channels, ["dense", "server", "lexical"]);
      await Promise.all(routers.map((r) => r.close()));
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});

describe("progressive start under createAgent", () => {
  it("the first model calls plan on estimated schema tokens instead of waiting for the catalog's count; later ones on the count", async () => {
    const { createAgent, tool } = await import("langchain");
    const { z } = await import("zod");
    const { HumanMessage, AIMessage } = await import("@langchain/core/messages");
    const { toolAttentionMiddleware } = await import("../src/adapters/langchain/middleware.js");
    const { catalogFromLangChainTools } = await import("../src/adapters/langchain/tools.js");
    const { ScriptedChatModel } = await import("./helpers/scripted-model.js");
    const tools = expandCatalog(300, 7).servers.flatMap((s) =>
      s.tools.map((t) => tool(async () => `${t.name} ok`, { name: t.name, description: t.description ?? t.name, schema: z.object({ id: z.string().optional() }) })),
    );
    const events: ToolAttentionEvent[] = [];
    const router = new ToolAttentionRouter(catalogFromLangChainTools(tools), { cacheDir: tempDir(), multiVector: false, progressive: { minTools: 100, staticChannel: false }, log: false });
    const model = new ScriptedChatModel([new AIMessage("First."), new AIMessage("Second.")]);
    const agent = createAgent({ model, tools, middleware: [toolAttentionMiddleware({ router, onEvent: (e) => events.push(e) })] });
    try {
      await agent.invoke({ messages: [new HumanMessage("create a new branch in the git repository")] });
      const route = events.find((e) => e.type === "tool_attention.route") as { channels: string[] } | undefined;
      const delivery = events.find((e) => e.type === "tool_attention.delivery") as { schemaTokensEstimated?: true } | undefined;
      assert.deepEqual(route?.channels, ["lexical"], "routed before the catalog was embedded");
      assert.equal(delivery?.schemaTokensEstimated, true, "planned on the estimate, not the count");
      await router.prepare();
      events.length = 0;
      await agent.invoke({ messages: [new HumanMessage("list the open pull requests")] });
      const later = events.find((e) => e.type === "tool_attention.delivery") as { schemaTokensEstimated?: true } | undefined;
      assert.ok(later, "a delivery event");
      assert.equal(later.schemaTokensEstimated, undefined, "once built, calls plan on the count");
    } finally {
      await router.close();
    }
  });
});
