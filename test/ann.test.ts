/**
 * Approximate search for large catalogs: the pure-TS HNSW index (recall against exact search, determinism,
 * storage rules shared with the exact indexes) and the router's candidate path above `ann.threshold`.
 * Performance is measured by the bench (`npm run bench`, Scaling), never asserted here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { LexicalEmbeddings } from "../src/core/encoders/index.js";
import { FlatIndex } from "../src/core/index/flat-index.js";
import { defaultEfConstruction, defaultEfSearch, HnswIndex } from "../src/core/index/hnsw-index.js";
import { createVectorIndex, DEFAULT_ANN_THRESHOLD, describeIndexFor, hnswBuildFor, INDEX_ENV_VAR, usesAnn } from "../src/core/index/vector-index.js";
import { candidateScores, topPositive } from "../src/core/router/candidates.js";
import { topIndices } from "../src/core/router/ranking.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { Rng } from "../src/core/util/rng.js";
import { expandCatalog } from "../src/bench/synthetic/expand.js";
import { loadTasks } from "../src/eval/tasks.js";
import { stateOf } from "../src/eval/evaluate.js";

function randomUnit(rng: Rng, dim: number): number[] {
  const v: number[] = [];
  let s = 0;
  for (let d = 0; d < dim; d++) {
    const u = rng.next() || 1e-12;
    const g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
    v.push(g);
    s += g * g;
  }
  return v.map((x) => x / Math.sqrt(s));
}

describe("HnswIndex", () => {
  const dim = 24;
  const rng = new Rng(11);
  const rows = Array.from({ length: 3000 }, () => randomUnit(rng, dim));
  const queries = Array.from({ length: 100 }, () => randomUnit(rng, dim));

  it("finds at least 99 % of the exact top 10 on random unit vectors", () => {
    const exact = new FlatIndex(dim);
    exact.add(rows);
    const ann = new HnswIndex(dim);
    ann.add(rows);
    let hits = 0;
    for (const q of queries) {
      const truth = new Set(exact.search(q, 10).map((h) => h.id));
      for (const h of ann.search(q, 10)) if (truth.has(h.id)) hits++;
    }
    const recall = hits / (10 * queries.length);
    assert.ok(recall >= 0.99, `recall@10 ${recall}`);
  });

  it("is deterministic: the same rows and seed build the same graph and return the same hits", () => {
    const a = new HnswIndex(dim, { seed: 5 });
    const b = new HnswIndex(dim, { seed: 5 });
    a.add(rows.slice(0, 1500));
    b.add(rows.slice(0, 700));
    b.add(rows.slice(700, 1500)); // added in two batches: same insertion order, same graph
    for (const q of queries.slice(0, 30)) assert.deepEqual(a.search(q, 10), b.search(q, 10));
  });

  it("returns exact scores best first, ties by lower id, and an exact scoreAll", () => {
    const ann = new HnswIndex(3);
    ann.add([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0.6, 0.8, 0]]);
    assert.deepEqual(
      ann.search([1, 0, 0], 3).map((h) => h.id),
      [0, 2, 3],
    );
    const all = ann.scoreAll([0, 2, 0]);
    assert.deepEqual(Array.from(all).map((x) => Math.round(x * 1000) / 1000), [0, 1, 0, 0.8]);
    const ids = new Int32Array(2);
    const sc = new Float32Array(2);
    assert.equal(ann.searchInto([0, 1, 0], 5, ids, sc), 2, "clamped to the buffers");
    assert.deepEqual(Array.from(ids), [1, 3]);
  });

  it("rejects a bad batch without changing the index", () => {
    const ann = new HnswIndex(2);
    ann.add([[1, 0]]);
    assert.throws(() => ann.add([[0, 1], [Number.NaN, 1]]), /non-finite/);
    assert.throws(() => ann.add([[0, 1, 2]]), /wrong dimension/);
    assert.equal(ann.size, 1);
    assert.deepEqual(ann.search([0, 1], 5).map((h) => h.id), [0]);
  });

  it("is chosen by createVectorIndex from the ANN threshold on (auto), never when exact is asked for", async () => {
    assert.equal(DEFAULT_ANN_THRESHOLD, 5_000);
    assert.equal(usesAnn(4_999, undefined), false);
    assert.equal(usesAnn(5_000, undefined), true);
    assert.equal(usesAnn(1_000_000, false), false);
    const saved = process.env[INDEX_ENV_VAR];
    delete process.env[INDEX_ENV_VAR];
    try {
      assert.equal((await createVectorIndex(8, "auto", { rows: 10, ann: { threshold: 10 } })).kind, "hnsw");
      assert.notEqual((await createVectorIndex(8, "auto", { rows: 9, ann: { threshold: 10 } })).kind, "hnsw");
      assert.equal((await createVectorIndex(8, "flat", { rows: 10, ann: { threshold: 10 } })).kind, "flat");
      assert.equal((await createVectorIndex(8, "hnsw")).kind, "hnsw");
      assert.match(describeIndexFor(20_000), /HNSW, approximate \(20000 tools ≥ ann\.threshold 5000/);
      process.env[INDEX_ENV_VAR] = "hnsw";
      assert.equal((await createVectorIndex(8)).kind, "hnsw");
    } finally {
      if (saved === undefined) delete process.env[INDEX_ENV_VAR];
      else process.env[INDEX_ENV_VAR] = saved;
    }
  });

  it("builds a larger index with a wider insertion beam and searches it with a wider beam, unless told otherwise", async () => {
    const saved = process.env[INDEX_ENV_VAR];
    delete process.env[INDEX_ENV_VAR];
    try {
      const built = async (rows: number, ann?: { efConstruction?: number }) =>
        (await createVectorIndex(8, "hnsw", { rows, ...(ann ? { ann } : {}) })) as HnswIndex;
      assert.equal((await built(1_000)).efConstruction, 100);
      assert.equal((await built(10_000)).efConstruction, 100);
      assert.equal((await built(100_000)).efConstruction, 200);
      assert.equal((await built(100_000, { efConstruction: 64 })).efConstruction, 64);
      assert.equal(hnswBuildFor(100_000, { efConstruction: 64 }).efConstruction, 64);
      assert.equal(hnswBuildFor(1_000_000, undefined).efConstruction, defaultEfConstruction(1_000_000));
      assert.ok(defaultEfConstruction(1_000_000) > 200 && defaultEfConstruction(1e9) <= 1_000);
      assert.deepEqual([defaultEfSearch(1_000), defaultEfSearch(10_000), defaultEfSearch(100_000)], [64, 128, 322]);
    } finally {
      if (saved === undefined) delete process.env[INDEX_ENV_VAR];
      else process.env[INDEX_ENV_VAR] = saved;
    }
  });
});

describe("candidate generation", () => {
  it("topPositive keeps the m largest positive scores", () => {
    const ids = Array.from(topPositive(Float32Array.from([0, 0.5, 0.1, 0.9, -1, 0.5]), 3)).sort();
    assert.deepEqual(ids, [1, 3, 5]);
    assert.equal(topPositive(new Float32Array(4), 3).length, 0);
    // Restricted to the listed ids (a sparse channel's touched documents), in any order.
    assert.deepEqual(Array.from(topPositive(Float32Array.from([0, 0.5, 0.1, 0.9, -1, 0.5]), 2, [5, 2, 1])).sort(), [1, 5]);
  });

  it("topIndices over a listed subset ranks like the full scan, ties by lower index", () => {
    const scores = Float32Array.from([0.2, 0.9, Number.NEGATIVE_INFINITY, 0.5, 0.9, 0.5, 0.1]);
    assert.deepEqual(topIndices(scores, 4), [1, 4, 3, 5]);
    assert.deepEqual(topIndices(scores, 4, [6, 5, 4, 3, 2, 1, 0]), [1, 4, 3, 5]);
    assert.deepEqual(topIndices(scores, 3, [5, 0, 3]), [3, 5, 0]);
  });

  it("scores the HNSW's top C and the lexical top C exactly, everything else -Infinity", () => {
    const rng = new Rng(3);
    const rows = Array.from({ length: 200 }, () => randomUnit(rng, 8));
    const ann = new HnswIndex(8);
    ann.add(rows);
    const q = randomUnit(rng, 8);
    const lexical = new Float32Array(200);
    lexical[199] = 0.7; // a lexical-only candidate
    const { scores: out, ids } = candidateScores(ann, q, { scores: lexical, docs: [199] }, 5);
    const exact = ann.scoreAll(q);
    const scored = [...out.keys()].filter((i) => out[i] !== Number.NEGATIVE_INFINITY);
    assert.ok(scored.includes(199));
    assert.deepEqual([...ids].sort((a, b) => a - b), scored, "the returned ids are exactly the scored rows");
    for (const i of scored) assert.ok(Math.abs(out[i] - exact[i]) < 1e-6);
    const top5 = [...exact.keys()].sort((a, b) => exact[b] - exact[a]).slice(0, 5);
    for (const i of top5) assert.notEqual(out[i], Number.NEGATIVE_INFINITY, `exact top-5 row ${i} is a candidate`);
  });
});

describe("router: approximate path above ann.threshold", () => {
  it("switches to HNSW candidates above the threshold and routes the synthetic tasks like the exact path", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(1_200, 42));
    const tasks = (await loadTasks("data/synthetic/tasks.jsonl")).slice(0, 60);
    const encoder = new LexicalEmbeddings({ dim: 256 });
    const opts = { encoder, lexical: true, cacheDir: false as const, log: false as const };
    const approx = new ToolAttentionRouter(catalog, { ...opts, ann: { threshold: 1_000 } });
    const exact = new ToolAttentionRouter(catalog, { ...opts, ann: false });
    const below = new ToolAttentionRouter(catalog, { ...opts }); // default threshold 5,000: exact
    await Promise.all([approx.prepare(), exact.prepare(), below.prepare()]);
    assert.equal(approx.indexKind, "hnsw");
    assert.notEqual(exact.indexKind, "hnsw");
    assert.notEqual(below.indexKind, "hnsw");
    const vectors = await exact.embedQueries(tasks.map((t) => t.query));
    let same = 0;
    let top1 = 0;
    for (const [i, t] of tasks.entries()) {
      const o = { queryVector: vectors[i] };
      const [a, e, b] = await Promise.all([approx.route(t.query, stateOf(t), o), exact.route(t.query, stateOf(t), o), below.route(t.query, stateOf(t), o)]);
      // Below the threshold nothing changed: identical decisions.
      assert.deepEqual(b.active, e.active);
      assert.deepEqual(b.candidates, e.candidates);
      if (a.active[0]?.id === e.active[0]?.id) top1++;
      if (a.active.map((x) => x.id).join() === e.active.map((x) => x.id).join()) same++;
      // Scores of the tools both return are the same fused scores, up to the HNSW's half-precision rows: a cosine
      // moves by at most 2^-11 (half.ts).
      const es = new Map(e.candidates.map((c) => [c.id, c.score]));
      for (const c of a.active) if (es.has(c.id)) assert.ok(Math.abs(c.score - (es.get(c.id) as number)) < 2 ** -11);
    }
    // Hashed lexical vectors are sparse (most query–tool cosines near 0), the hardest case for a graph index; on
    // them 59 of these 60 routes match the exact path (the bench measures USE-lite vectors, README Scaling).
    assert.ok(same / tasks.length >= 0.95, `same active set on ${same} of ${tasks.length} tasks`);
    assert.ok(top1 / tasks.length >= 0.95, `same top tool on ${top1} of ${tasks.length} tasks`);
  });

  it("routes concurrently as it routes one at a time (each route's reused score arrays are its own)", async () => {
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(1_200, 42));
    const tasks = (await loadTasks("data/synthetic/tasks.jsonl")).slice(0, 24);
    const router = new ToolAttentionRouter(catalog, { encoder: new LexicalEmbeddings({ dim: 256 }), lexical: true, cacheDir: false, log: false, ann: { threshold: 1_000 } });
    await router.prepare();
    assert.equal(router.indexKind, "hnsw");
    const vectors = await router.embedQueries(tasks.map((t) => t.query));
    const pick = (d: { active: { id: string; score: number }[]; candidates: { id: string; score: number }[] }) => ({ active: d.active, candidates: d.candidates });
    const oneByOne = [];
    for (const [i, t] of tasks.entries()) oneByOne.push(pick(await router.route(t.query, stateOf(t), { queryVector: vectors[i] })));
    // Single queries and multi-clause requests together, all in flight at once, twice (the second round on arrays
    // the first gave back).
    for (let round = 0; round < 2; round++) {
      const together = await Promise.all(tasks.map((t, i) => router.route(t.query, stateOf(t), { queryVector: vectors[i] })));
      assert.deepEqual(together.map(pick), oneByOne, `round ${round}`);
    }
    await router.close();
  });
});
