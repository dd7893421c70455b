/**
 * Half precision for index rows (src/core/index/half.ts): exact for every binary16 value, round to nearest with
 * ties to even, and within 2^-11 relative error of any float32 in the binary16 normal range.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeHalf, encodeHalf, halfTable, roundToHalf, toHalfBits } from "../src/core/index/half.js";
import { Rng } from "../src/core/util/rng.js";

describe("half precision", () => {
  it("decodes the documented bit patterns and round-trips every binary16 value", () => {
    const t = halfTable();
    assert.deepEqual([t[0x3c00], t[0xc000], t[0x7bff], t[0x0001], t[0x0400], t[0x3555], t[0x8000]], [1, -2, 65504, 2 ** -24, 2 ** -14, 0.333251953125, -0]);
    assert.equal(t[0x7c00], Infinity);
    assert.equal(t[0xfc00], -Infinity);
    assert.ok(Number.isNaN(t[0x7e00]));
    for (let h = 0; h < 65_536; h++) {
      if (Number.isNaN(t[h])) assert.ok(Number.isNaN(t[toHalfBits(t[h])]), `NaN ${h.toString(16)} stays NaN`);
      else assert.equal(toHalfBits(t[h]), h, `bits ${h.toString(16)}`);
    }
  });

  it("rounds to nearest, ties to even, with carries, overflow and subnormals", () => {
    const ulp = 2 ** -10; // spacing of halves in [1, 2)
    assert.equal(toHalfBits(1 + ulp / 2), 0x3c00, "a tie rounds to the even neighbour (down)");
    assert.equal(toHalfBits(1 + (3 * ulp) / 2), 0x3c02, "a tie rounds to the even neighbour (up)");
    assert.equal(toHalfBits(1 + ulp / 2 + 2 ** -20), 0x3c01, "just above a tie rounds up");
    assert.equal(toHalfBits(2 - ulp / 4), 0x4000, "a mantissa carry steps the exponent");
    assert.equal(toHalfBits(65520), 0x7c00, "past the largest half: Infinity");
    assert.equal(toHalfBits(65519), 0x7bff);
    assert.equal(toHalfBits(-3 * 2 ** -25), 0x8002, "subnormal tie to even");
    assert.equal(toHalfBits(2 ** -26), 0x0000, "below half the smallest subnormal: zero");
    assert.equal(toHalfBits(2 ** -25 + 2 ** -35), 0x0001);
    assert.equal(toHalfBits(-0), 0x8000);
  });

  it("keeps float32 values of unit vectors within 2^-11 relative error, and rounding twice changes nothing", () => {
    const rng = new Rng(5);
    const rows = Float32Array.from({ length: 20_000 }, () => (rng.next() * 2 - 1) * 0.2);
    const rounded = rows.slice();
    roundToHalf(rounded);
    for (let i = 0; i < rows.length; i++) {
      const x = rows[i];
      if (Math.abs(x) >= 2 ** -14) assert.ok(Math.abs(rounded[i] - x) <= Math.abs(x) * 2 ** -11, `${x} → ${rounded[i]}`);
      else assert.ok(Math.abs(rounded[i] - x) <= 2 ** -25);
    }
    const again = rounded.slice();
    roundToHalf(again);
    assert.deepEqual(again, rounded);
    const bits = new Uint16Array(rows.length);
    encodeHalf(rounded, bits);
    const back = new Float32Array(rows.length);
    decodeHalf(bits, back);
    assert.deepEqual(back, rounded, "encode then decode gives the rounded rows back");
    // Any offset and length (the fast path reads two halves at a time from 4-byte aligned input).
    for (const [from, to] of [[1, 2002], [2, 1003], [0, 7]]) {
      const part = new Float32Array(to - from);
      decodeHalf(bits.subarray(from, to), part);
      assert.deepEqual(part, rounded.subarray(from, to), `halves ${from}..${to}`);
    }
  });
});
