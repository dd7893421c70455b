/**
 * HnswIndex.toBytes / HnswIndex.fromBytes: a loaded index searches and grows exactly like the original, decodes a
 * half-precision snapshot's rows only as searches reach them, and rejects damaged input with an error naming the problem.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HnswIndex } from "../src/core/index/hnsw-index.js";
import { Rng } from "../src/core/util/rng.js";

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

/** Internal arrays of an index, for the no-copy checks. */
const internals = (ix: HnswIndex) => ix as unknown as { data: Float32Array; links0: Int32Array; undecoded: number; decoded?: Uint8Array };

describe("HnswIndex serialization", () => {
  const dim = 32;
  const rng = new Rng(7);
  const rows = Array.from({ length: 4000 }, () => randomUnit(rng, dim));
  const more = Array.from({ length: 700 }, () => randomUnit(rng, dim));
  const queries = Array.from({ length: 200 }, () => randomUnit(rng, dim));
  const original = new HnswIndex(dim, { seed: 3 });
  original.add(rows);
  const bytes = original.toBytes();

  it("writes the documented header and 4-byte aligned sections", () => {
    assert.equal(Buffer.from(bytes.subarray(0, 6)).toString("latin1"), "TAHNSW");
    const h = new DataView(bytes.buffer, bytes.byteOffset, 80);
    assert.deepEqual([h.getUint32(8, true), h.getUint32(16, true), h.getUint32(20, true), h.getUint32(24, true)], [1, dim, 4000, 16]);
    assert.equal(h.getFloat64(72, true), bytes.byteLength);
    // flags: keepPruned off, rows in half precision (the default); rows are the last section, count · dim binary16
    // at a 4-aligned offset
    assert.equal(h.getUint32(36, true), 2);
    assert.equal((bytes.byteLength - 4000 * dim * 2) % 4, 0);
    const full = new HnswIndex(dim, { seed: 3, rowPrecision: "float32" });
    full.add(rows);
    const fullBytes = full.toBytes();
    assert.equal(new DataView(fullBytes.buffer).getUint32(36, true), 0);
    assert.equal(fullBytes.byteLength - bytes.byteLength, 4000 * dim * 2, "float32 rows take twice the bytes");
    // The float32 rows are the normalized inputs as given; the half rows are those rounded, so scores stay within
    // 2^-11 of them.
    const f32rows = new Float32Array(fullBytes.buffer, fullBytes.byteLength - 4000 * dim * 4, 4000 * dim);
    assert.deepEqual(Array.from(f32rows.subarray(0, dim)), rows[0].map((x) => Math.fround(x / Math.hypot(...rows[0]))));
    const [a, b] = [original.scoreAll(queries[0]), full.scoreAll(queries[0])];
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    assert.ok(worst > 0 && worst < 2 ** -11, `largest score change ${worst}`);
  });

  it("loads a float32 index as float32 and refuses to load either as the other", () => {
    const full = new HnswIndex(dim, { seed: 3, rowPrecision: "float32" });
    full.add(rows.slice(0, 300));
    const fullBytes = full.toBytes();
    const loaded = HnswIndex.fromBytes(fullBytes);
    assert.equal(loaded.rowPrecision, "float32");
    assert.deepEqual(loaded.scoreAll(queries[0]), full.scoreAll(queries[0]));
    assert.deepEqual(loaded.toBytes(), fullBytes);
    assert.equal(HnswIndex.fromBytes(bytes).rowPrecision, "float16");
    assert.throws(() => HnswIndex.fromBytes(fullBytes, { rowPrecision: "float16" }), /^Error: HNSW snapshot: built with rowPrecision float32, options ask for float16/);
    assert.throws(() => HnswIndex.fromBytes(bytes, { rowPrecision: "float32" }), /built with rowPrecision float16, options ask for float32/);
    assert.throws(() => new HnswIndex(dim, { rowPrecision: "float64" as never }), /hnsw: rowPrecision must be "float16" or "float32", got "float64"/);
  });

  it("loads an index that returns the same hits and scores for every query", () => {
    const loaded = HnswIndex.fromBytes(bytes);
    assert.equal(loaded.size, original.size);
    assert.deepEqual([loaded.M, loaded.efConstruction, loaded.seed, loaded.keepPruned], [16, 100, 3, false]);
    for (const q of queries) {
      assert.deepEqual(loaded.search(q, 10), original.search(q, 10));
      assert.deepEqual(loaded.search(q, 60), original.search(q, 60));
    }
    const ids = [new Int32Array(10), new Int32Array(10)];
    const sc = [new Float32Array(10), new Float32Array(10)];
    assert.equal(original.searchInto(queries[0], 10, ids[0], sc[0], [5, 17]), loaded.searchInto(queries[0], 10, ids[1], sc[1], [5, 17]));
    assert.deepEqual(ids[1], ids[0]);
    assert.deepEqual(sc[1], sc[0]);
    assert.deepEqual(loaded.scoreAll(queries[1]), original.scoreAll(queries[1]));
    assert.deepEqual(loaded.toBytes(), bytes, "serializing the loaded index gives the same bytes");
  });

  it("copies links and float32 rows into the index's own arrays, so a float32 snapshot's buffer can be freed", () => {
    const full = new HnswIndex(dim, { seed: 3, rowPrecision: "float32" });
    full.add(rows.slice(0, 500));
    const copy = full.toBytes().slice();
    const loaded = HnswIndex.fromBytes(copy);
    assert.notEqual(internals(loaded).data.buffer, copy.buffer);
    assert.notEqual(internals(loaded).links0.buffer, copy.buffer);
    const before = loaded.search(queries[0], 10);
    copy.fill(0);
    assert.deepEqual(loaded.search(queries[0], 10), before, "the loaded index no longer reads the buffer");
    assert.deepEqual(before, full.search(queries[0], 10));
  });

  it("decodes a half-precision snapshot's rows as searches reach them, reading the buffer until then and never writing it", () => {
    const copy = bytes.slice();
    const loaded = HnswIndex.fromBytes(copy);
    assert.notEqual(internals(loaded).links0.buffer, copy.buffer);
    assert.equal(internals(loaded).undecoded, rows.length, "nothing is decoded at load");
    assert.deepEqual(loaded.search(queries[0], 10), original.search(queries[0], 10));
    const afterOne = internals(loaded).undecoded;
    assert.ok(afterOne > 0 && afterOne < rows.length, `one search decodes the rows it reaches (${rows.length - afterOne} of ${rows.length})`);
    // A row read for a whole-catalog pass comes out the same without being decoded into the index.
    const undecodedRow = internals(loaded).decoded!.indexOf(0);
    const before = internals(loaded).undecoded;
    assert.deepEqual(loaded.readRow(undecodedRow, new Float32Array(dim)), original.rowView(undecodedRow));
    assert.equal(internals(loaded).undecoded, before);
    assert.deepEqual(loaded.rowView(undecodedRow), original.rowView(undecodedRow));
    assert.equal(internals(loaded).undecoded, before - 1, "rowView decodes the row it views");
    for (const q of queries.slice(0, 40)) assert.deepEqual(loaded.search(q, 10), original.search(q, 10));
    assert.deepEqual(copy, bytes, "the index never writes into the snapshot it was loaded from");
    // A scan decodes the rest; from then on the buffer is not read any more.
    assert.deepEqual(loaded.scoreAll(queries[1]), original.scoreAll(queries[1]));
    assert.equal(internals(loaded).decoded, undefined);
    copy.fill(0);
    for (const q of queries.slice(0, 50)) assert.deepEqual(loaded.search(q, 10), original.search(q, 10));
  });

  it("add() after load builds the same graph as adding the rows to the original, leaving the buffer untouched", () => {
    const copy = bytes.slice();
    const loaded = HnswIndex.fromBytes(copy);
    const grown = new HnswIndex(dim, { seed: 3 });
    grown.add(rows);
    grown.add(more.slice(0, 300));
    grown.add(more.slice(300));
    loaded.add(more.slice(0, 300));
    loaded.add(more.slice(300));
    assert.deepEqual(copy, bytes, "the index never writes into the snapshot it was loaded from");
    assert.notEqual(internals(loaded).data.buffer, copy.buffer, "the first add grows into its own arrays");
    assert.deepEqual(loaded.toBytes(), grown.toBytes(), "same levels (PRNG state carried over), same links");
    for (const q of queries.slice(0, 50)) assert.deepEqual(loaded.search(q, 10), grown.search(q, 10));
  });

  it("works from a misaligned buffer (one copy)", () => {
    const shifted = new Uint8Array(bytes.byteLength + 1);
    shifted.set(bytes, 1);
    const view = shifted.subarray(1);
    assert.equal(view.byteOffset % 4, 1);
    const loaded = HnswIndex.fromBytes(view);
    for (const q of queries.slice(0, 50)) assert.deepEqual(loaded.search(q, 10), original.search(q, 10));
    const buf = Buffer.from(shifted.buffer, 1, bytes.byteLength); // a Buffer, whose slice() would not copy
    assert.deepEqual(HnswIndex.fromBytes(buf).search(queries[1], 10), original.search(queries[1], 10));
    // A view at an aligned offset inside a larger ArrayBuffer.
    const big = new Uint8Array(bytes.byteLength + 8);
    big.set(bytes, 8);
    const inner = HnswIndex.fromBytes(big.subarray(8));
    assert.deepEqual(inner.search(queries[0], 10), original.search(queries[0], 10));
  });

  it("takes search-time settings from options, and refuses different build-time ones", () => {
    assert.equal(HnswIndex.fromBytes(bytes).efSearch, undefined, "the size default stays the default");
    const tuned = new HnswIndex(dim, { efSearch: 40, upperBeam: 4 });
    tuned.add(rows.slice(0, 500));
    const t = tuned.toBytes();
    assert.deepEqual([HnswIndex.fromBytes(t).efSearch, HnswIndex.fromBytes(t).upperBeam], [40, 4]);
    const over = HnswIndex.fromBytes(t, { efSearch: 300, upperBeam: 20, M: 16, efConstruction: 100, seed: 42 });
    assert.deepEqual([over.efSearch, over.upperBeam], [300, 20]);
    assert.throws(() => HnswIndex.fromBytes(bytes, { M: 32 }), /^Error: HNSW snapshot: built with M 16, options ask for 32/);
    assert.throws(() => HnswIndex.fromBytes(bytes, { efConstruction: 200 }), /built with efConstruction 100/);
    assert.throws(() => HnswIndex.fromBytes(bytes, { seed: 42 }), /built with seed 3/);
    assert.throws(() => HnswIndex.fromBytes(bytes, { keepPruned: true }), /built with keepPruned false/);
    assert.throws(() => HnswIndex.fromBytes(bytes, { efSearch: 0 }), /efSearch must be an integer/);
  });

  it("round-trips an empty index and a one-row index", () => {
    const empty = HnswIndex.fromBytes(new HnswIndex(4).toBytes());
    assert.equal(empty.size, 0);
    assert.deepEqual(empty.search([1, 0, 0, 0], 3), []);
    empty.add([[1, 0, 0, 0], [0, 1, 0, 0]]);
    assert.deepEqual(empty.search([0, 1, 0, 0], 1).map((h) => h.id), [1]);
    const one = new HnswIndex(4);
    one.add([[0, 0, 1, 0]]);
    const loaded = HnswIndex.fromBytes(one.toBytes());
    loaded.add([[0, 0, 0, 1]]);
    one.add([[0, 0, 0, 1]]);
    assert.deepEqual(loaded.toBytes(), one.toBytes());
  });

  it("rejects damaged input with an error naming the problem", () => {
    const damaged = (edit: (b: Uint8Array, h: DataView) => void) => {
      const b = bytes.slice();
      edit(b, new DataView(b.buffer));
      return b;
    };
    assert.throws(() => HnswIndex.fromBytes(bytes.subarray(0, bytes.byteLength - 1)), {
      message: `HNSW snapshot: truncated (expected ${bytes.byteLength} bytes, got ${bytes.byteLength - 1})`,
    });
    assert.throws(() => HnswIndex.fromBytes(bytes.subarray(0, 40)), /HNSW snapshot: truncated \(expected at least 80 bytes of header, got 40\)/);
    const longer = new Uint8Array(bytes.byteLength + 4);
    longer.set(bytes);
    assert.throws(() => HnswIndex.fromBytes(longer), /HNSW snapshot: 4 unexpected bytes after the expected/);
    assert.throws(() => HnswIndex.fromBytes(damaged((b) => (b[0] = 0x58))), /HNSW snapshot: bad magic/);
    assert.throws(() => HnswIndex.fromBytes(damaged((_, h) => h.setUint32(8, 2, true))), /HNSW snapshot: unsupported format version 2/);
    assert.throws(() => HnswIndex.fromBytes(damaged((_, h) => h.setUint32(20, 5000, true))), /HNSW snapshot: corrupt header \(total size/);
    assert.throws(() => HnswIndex.fromBytes(damaged((_, h) => h.setUint32(28, 20, true))), /HNSW snapshot: corrupt header \(M 16, M0 20\)/);
    assert.throws(() => HnswIndex.fromBytes(damaged((_, h) => h.setInt32(48, 4000, true))), /HNSW snapshot: corrupt header \(entry 4000/);
    assert.throws(() => HnswIndex.fromBytes(damaged((_, h) => h.setUint32(32, 0, true))), /HNSW snapshot: corrupt header \(efConstruction 0\)/);
    assert.throws(() => HnswIndex.fromBytes(damaged((_, h) => h.setInt32(56, 0, true))), /HNSW snapshot: corrupt header \(efSearch 0\)/);
    // A layer-0 link of node 0 pointing past the rows.
    const links0 = 80 + 2 * 4000;
    assert.throws(() => HnswIndex.fromBytes(damaged((_, h) => h.setInt32(links0, 4000, true))), /HNSW snapshot: node 0 links to 4000 on layer 0/);
    assert.throws(() => HnswIndex.fromBytes(damaged((b) => (b[80 + 4000] = 99))), /HNSW snapshot: node 0 has 99 layer-0 links/);
    assert.throws(() => HnswIndex.fromBytes("nope" as never), /expected a Uint8Array/);
  });
});
