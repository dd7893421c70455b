/**
 * The HNSW graph's inner product: the WebAssembly SIMD kernel and the JavaScript fallback give bit-identical f32
 * results (so a graph, and a snapshot key, do not depend on which one ran), and both are the inner product.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { RowSpace } from "../src/core/index/row-space.js";
import { Rng } from "../src/core/util/rng.js";

function filled(space: RowSpace, rows: number, seed: number): void {
  const rng = new Rng(seed);
  for (let i = 0; i < space.query.length; i++) space.query[i] = rng.next() - 0.5;
  for (let i = 0; i < rows * space.dim; i++) space.rows[i] = rng.next() - 0.5;
}

test("RowSpace: the SIMD kernel runs here and matches the JavaScript lanes bit for bit", () => {
  for (const dim of [4, 12, 16, 20, 32, 384, 512, 516, 1540]) {
    const rows = 50;
    const simd = new RowSpace(dim, rows);
    const js = new RowSpace(dim, rows, false);
    assert.equal(simd.kernel, "wasm-simd", `dim ${dim}: WebAssembly SIMD is available in this Node`);
    assert.equal(js.kernel, "js");
    filled(simd, rows, dim);
    filled(js, rows, dim);
    for (let a = 0; a < rows; a++) {
      const qa = simd.dot(0, simd.base + a * dim);
      assert.equal(Object.is(qa, js.dot(0, js.base + a * dim)), true, `dim ${dim}: query · row ${a}`);
      let exact = 0;
      for (let j = 0; j < dim; j++) exact += simd.query[j]! * simd.rows[a * dim + j]!;
      assert.ok(Math.abs(qa - exact) < 1e-5, `dim ${dim}: ${qa} is the inner product ${exact}`);
      const b = (a * 7 + 3) % rows;
      assert.equal(Object.is(simd.dot(simd.base + a * dim, simd.base + b * dim), js.dot(js.base + a * dim, js.base + b * dim)), true);
    }
  }
  // A dimension that is not a multiple of 4 uses the JavaScript product (the kernel reads 4 floats at a time).
  assert.equal(new RowSpace(30, 4).kernel, "js");
});

test("RowSpace: a new space is independent (views of an older one stay readable)", () => {
  const a = new RowSpace(8, 4);
  a.rows.set([1, 2, 3, 4, 5, 6, 7, 8]);
  const view = a.rows.subarray(0, 8);
  const b = new RowSpace(8, 64);
  b.rows.set(a.rows.subarray(0, 8));
  assert.deepEqual([...view], [1, 2, 3, 4, 5, 6, 7, 8]);
  b.query.set([1, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(b.dot(0, b.base), 9);
});
