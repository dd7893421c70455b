import assert from "node:assert/strict";
import { describe, it, test } from "node:test";
import { FaissIndex, loadFaiss, type FaissModule } from "../src/core/index/faiss-index.js";
import { FlatIndex } from "../src/core/index/flat-index.js";
import {
  createVectorIndex,
  describeIndexBackend,
  describeIndexFor,
  FAISS_MIN_ROWS,
  normalizeInPlace,
  type SearchHit,
  type VectorIndex,
} from "../src/core/index/vector-index.js";

/** mulberry32: small seeded PRNG so the random tests are reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomVectors(rand: () => number, n: number, dim: number): number[][] {
  return Array.from({ length: n }, () => Array.from({ length: dim }, () => rand() * 2 - 1));
}

const ids = (hits: SearchHit[]) => hits.map((h) => h.id);

describe("normalizeInPlace", () => {
  it("scales to unit length and leaves zero vectors alone", () => {
    const v = normalizeInPlace(new Float32Array([3, 4]));
    assert.ok(Math.abs(v[0]! - 0.6) < 1e-7 && Math.abs(v[1]! - 0.8) < 1e-7);
    assert.deepEqual(Array.from(normalizeInPlace(new Float32Array(3))), [0, 0, 0]);
  });
});

describe("FlatIndex", () => {
  const build = (rows: number[][], dim = rows[0]?.length ?? 2) => {
    const ix = new FlatIndex(dim, 2); // small initial capacity exercises growth
    ix.add(rows);
    return ix;
  };

  it("returns top-k best first, with cosine scores", () => {
    const ix = build([
      [1, 0],
      [0, 1],
      [1, 1],
      [-1, 0],
      [2, 0.1],
    ]);
    assert.equal(ix.kind, "flat");
    assert.equal(ix.size, 5);
    const hits = ix.search([1, 0], 3);
    assert.deepEqual(ids(hits), [0, 4, 2]);
    assert.ok(Math.abs(hits[0]!.score - 1) < 1e-6);
    assert.ok(Math.abs(hits[2]!.score - Math.SQRT1_2) < 1e-6);
    // the query is normalized too: scale does not matter
    assert.deepEqual(ids(ix.search([10, 0], 3)), [0, 4, 2]);
    assert.deepEqual(ids(ix.search([-1, 0], 5)), [3, 1, 2, 4, 0]);
  });

  it("breaks ties by lower id, also across the top-k boundary", () => {
    const ix = build([
      [0, 1],
      [1, 0],
      [0, 2],
      [1, 0],
      [3, 0],
      [0.5, 0.5],
    ]);
    assert.deepEqual(ids(ix.search([1, 0], 2)), [1, 3]);
    assert.deepEqual(ids(ix.search([1, 0], 3)), [1, 3, 4]);
    assert.deepEqual(ids(ix.search([1, 0], 6)), [1, 3, 4, 5, 0, 2]);
    assert.deepEqual(ids(ix.search([0, 1], 1)), [0]);
  });

  it("clamps k to size and returns [] for k <= 0", () => {
    const ix = build([
      [1, 0],
      [0, 1],
    ]);
    assert.equal(ix.search([1, 0], 10).length, 2);
    assert.deepEqual(ix.search([1, 0], 0), []);
    assert.deepEqual(ix.search([1, 0], -3), []);
    assert.deepEqual(ids(ix.search([1, 0], 1.7)), [0]);
  });

  it("returns [] when empty", () => {
    const ix = new FlatIndex(3);
    assert.equal(ix.size, 0);
    assert.deepEqual(ix.search([1, 2, 3], 5), []);
    assert.equal(ix.scoreAll([1, 2, 3]).length, 0);
  });

  it("throws on a dimension mismatch, naming expected and got", () => {
    const ix = build([[1, 0, 0]]);
    assert.throws(() => ix.add([[1, 2]]), /expected 3, got 2/);
    assert.throws(() => ix.search([1, 2, 3, 4], 1), /expected 3, got 4/);
    assert.throws(() => ix.scoreAll([1]), /expected 3, got 1/);
    assert.equal(ix.size, 1, "a rejected batch adds nothing");
  });

  it("rejects non-finite values without changing the index", () => {
    const ix = build([[1, 0]]);
    assert.throws(() => ix.add([[0, 1], [NaN, 1]]), /non-finite/);
    assert.equal(ix.size, 1);
  });

  it("handles zero vectors without NaN", () => {
    const ix = build([
      [0, 0],
      [1, 0],
    ]);
    const hits = ix.search([1, 0], 2);
    assert.deepEqual(ids(hits), [1, 0]);
    assert.equal(hits[1]!.score, 0);
    const zeroQuery = ix.search([0, 0], 2);
    assert.deepEqual(zeroQuery, [
      { id: 0, score: 0 },
      { id: 1, score: 0 },
    ]);
    for (const s of ix.scoreAll([0, 0])) assert.equal(s, 0);
  });

  it("scoreAll gives every row's score in insertion order, consistent with search", () => {
    const rand = prng(7);
    const rows = randomVectors(rand, 50, 8);
    const ix = new FlatIndex(8, 1);
    ix.add(rows.slice(0, 20));
    ix.add(rows.slice(20));
    const q = randomVectors(rand, 1, 8)[0]!;
    const all = ix.scoreAll(q);
    assert.ok(all instanceof Float32Array);
    assert.equal(all.length, 50);
    const qn = Math.hypot(...q);
    rows.forEach((r, i) => {
      const expected = r.reduce((s, x, j) => s + x * q[j]!, 0) / (Math.hypot(...r) * qn);
      assert.ok(Math.abs(all[i]! - expected) < 1e-5, `row ${i}: ${all[i]} vs ${expected}`);
    });
    const sorted = Array.from(all, (score, id) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
    for (const k of [1, 2, 5, 10, 17, 49, 50, 80]) assert.deepEqual(ix.search(q, k), sorted.slice(0, k), `k=${k}`);
  });
});

describe("createVectorIndex", () => {
  it("creates a flat index on request, and honours TOOL_ATTENTION_INDEX for auto", async () => {
    const flat = await createVectorIndex(4, "flat");
    assert.equal(flat.kind, "flat");
    assert.equal(flat.dim, 4);
    const saved = process.env.TOOL_ATTENTION_INDEX;
    try {
      process.env.TOOL_ATTENTION_INDEX = "flat";
      assert.equal((await createVectorIndex(4)).kind, "flat");
      assert.match(describeIndexBackend(), /^index: pure-TS flat \(TOOL_ATTENTION_INDEX=flat\)$/);
      process.env.TOOL_ATTENTION_INDEX = "bogus";
      await assert.rejects(createVectorIndex(4), /TOOL_ATTENTION_INDEX/);
    } finally {
      if (saved === undefined) delete process.env.TOOL_ATTENTION_INDEX;
      else process.env.TOOL_ATTENTION_INDEX = saved;
    }
    await assert.rejects(createVectorIndex(0), /positive integer/);
  });

  it("auto picks faiss exactly when faiss-node loads and the catalog is large enough to pay; faiss throws clearly otherwise", async () => {
    const saved = process.env.TOOL_ATTENTION_INDEX;
    delete process.env.TOOL_ATTENTION_INDEX;
    try {
      const loaded = loadFaiss();
      const auto = await createVectorIndex(3, "auto", { rows: FAISS_MIN_ROWS });
      assert.equal(auto.kind, loaded.ok ? "faiss" : "flat");
      // Below FAISS_MIN_ROWS the flat scan ranks the same without loading libfaiss.
      assert.equal((await createVectorIndex(3, "auto", { rows: FAISS_MIN_ROWS - 1 })).kind, "flat");
      assert.equal((await createVectorIndex(3)).kind, "flat");
      assert.match(describeIndexFor(500), /^index: pure-TS flat \(500 tools < 2000;/);
      assert.match(describeIndexBackend(), /^index: (faiss IndexFlatIP|pure-TS flat \(faiss-node not loadable: .+\))/);
      if (loaded.ok) assert.equal((await createVectorIndex(3, "faiss")).kind, "faiss");
      else await assert.rejects(createVectorIndex(3, "faiss"), /faiss-node is not loadable/);
    } finally {
      if (saved !== undefined) process.env.TOOL_ATTENTION_INDEX = saved;
    }
  });
});

describe("FaissIndex wrapper (with a fake native module)", () => {
  /** Stand-in for faiss-node's IndexFlatIP that breaks ties the "wrong" way (higher id first). */
  function fakeFaiss(calls: number[]): FaissModule {
    class IndexFlatIP {
      private rows: number[][] = [];
      constructor(private readonly d: number) {}
      ntotal() {
        return this.rows.length;
      }
      getDimension() {
        return this.d;
      }
      add(x: number[]) {
        for (let i = 0; i < x.length; i += this.d) this.rows.push(x.slice(i, i + this.d));
      }
      search(x: number[], k: number) {
        calls.push(k);
        if (k > this.rows.length) throw new Error("k > ntotal");
        const scored = this.rows.map((r, id) => ({ id, s: Math.fround(r.reduce((acc, v, j) => acc + v * x[j]!, 0)) }));
        scored.sort((a, b) => b.s - a.s || b.id - a.id);
        const top = scored.slice(0, k);
        return { distances: top.map((h) => h.s), labels: top.map((h) => h.id) };
      }
    }
    return { IndexFlatIP };
  }

  it("asks for k+1 rows, widens only on a tie at the k-th place, and orders ties by lower id", () => {
    const calls: number[] = [];
    const ix = new FaissIndex(2, fakeFaiss(calls));
    ix.add([[1, 0], [0, 1], [1, 0], [1, 0], [0.9, 0.1], [0, 1]]);
    assert.deepEqual(ids(ix.search([0.8, 0.2], 1)), [4]);
    assert.deepEqual(ids(ix.search([0.8, 0.2], 4)), [4, 0, 2, 3]);
    assert.deepEqual(calls, [2, 5], "no tie at the k-th place: one call for k+1 rows");
    calls.length = 0;
    assert.deepEqual(ids(ix.search([1, 0], 2)), [0, 2]);
    assert.deepEqual(calls, [3, 6], "tie at the k-th place: widened");
    assert.deepEqual(ids(ix.search([0, 1], 10)), [1, 5, 4, 0, 2, 3]);
    const all = ix.scoreAll([0, 1]);
    assert.deepEqual(Array.from(all, (x) => Math.round(x * 1e6) / 1e6), [0, 1, 0, 0, Math.round(Math.fround(0.1 / Math.hypot(0.9, 0.1)) * 1e6) / 1e6, 1]);
    assert.deepEqual(new FaissIndex(2, fakeFaiss([])).search([1, 0], 3), []);
  });
});

test("faiss and flat agree (ids, order, scores)", (t) => {
  const loaded = loadFaiss();
  if (!loaded.ok) {
    t.skip(`faiss-node not loadable: ${loaded.reason}`);
    return;
  }
  const dim = 48;
  const rand = prng(20240611);
  const rows = randomVectors(rand, 400, dim);
  // Exact ties must be broken by lower id in both backends: an exact duplicate, a copy scaled by 2 (a power of
  // two, so it normalizes to the bit-identical row) and a zero row. (A copy scaled by e.g. 2.5 normalizes to a
  // row that differs in the last float32 bits: its cosine differs by ~1 ulp, and the two backends, which sum
  // in different orders, may then rank it differently. That is float rounding, not a tie.)
  rows.push(rows[3]!.slice(), rows[3]!.map((x) => x * 2), new Array<number>(dim).fill(0));
  const flat: VectorIndex = new FlatIndex(dim);
  const faiss: VectorIndex = new FaissIndex(dim, loaded.module);
  assert.equal(faiss.kind, "faiss");
  // add in two batches to check that ids are insertion positions across calls
  for (const ix of [flat, faiss]) {
    ix.add(rows.slice(0, 150));
    ix.add(rows.slice(150));
  }
  assert.equal(faiss.size, rows.length);
  assert.equal(flat.size, rows.length);

  const queries = [...randomVectors(rand, 25, dim), rows[3]!, rows[100]!, new Array<number>(dim).fill(0)];
  let compared = 0;
  for (const [qi, q] of queries.entries()) {
    for (const k of [1, 3, 10, 50, rows.length, rows.length + 5]) {
      const a = flat.search(q, k);
      const b = faiss.search(q, k);
      assert.equal(b.length, Math.min(k, rows.length));
      assert.equal(a.length, b.length);
      for (let i = 0; i < a.length; i++) {
        assert.ok(Math.abs(a[i]!.score - b[i]!.score) < 1e-5, `query ${qi} k=${k} rank ${i}: ${a[i]!.score} vs ${b[i]!.score}`);
        compared++;
      }
      assert.deepEqual(ids(b), ids(a), `query ${qi} k=${k}: same ids in the same order`);
    }
    const sa = flat.scoreAll(q);
    const sb = faiss.scoreAll(q);
    assert.equal(sb.length, rows.length);
    for (let i = 0; i < sa.length; i++) assert.ok(Math.abs(sa[i]! - sb[i]!) < 1e-5, `scoreAll query ${qi} row ${i}`);
  }
  // the duplicate rows of row 3 tie exactly; lower id first
  assert.deepEqual(ids(faiss.search(rows[3]!, 3)), [3, 400, 401]);
  assert.deepEqual(ids(faiss.search(new Array<number>(dim).fill(0), 3)), [0, 1, 2]);
  assert.ok(compared > 1000);
  // shared error behaviour
  assert.throws(() => faiss.search([1, 2], 1), /expected 48, got 2/);
  assert.deepEqual(new FaissIndex(dim, loaded.module).search(rows[0]!, 5), []);
});
