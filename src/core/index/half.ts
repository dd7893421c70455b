/**
 * IEEE 754 half precision (binary16) for index rows: a 512-d row takes 1 KB instead of 2 KB in a snapshot, so a
 * 100,000-tool index reads from a store in about half the time. Rows are rounded once, when they enter the index
 * (`roundToHalf`), so the index searches the very values its snapshot holds and a process that loads the snapshot
 * scores exactly like the process that built it.
 *
 * Why the precision is enough: a half keeps 11 significant bits (relative error at most 2^-11 ≈ 4.9e-4 per
 * component), so rounding a unit row moves its cosine with a unit query by at most 2^-11 (Cauchy–Schwarz), and on
 * dense 512-d sentence vectors, whose rounding errors cancel, by about 1e-5: far below the gaps that decide a
 * ranking or θ.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The binary16 bits nearest to `x` (round to nearest, ties to even; overflow to ±Infinity; NaN stays NaN). */
export function toHalfBits(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 112; // the exponent re-biased for binary16 (127 - 15)
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // A binary16 subnormal (or zero): the value is h · 2^-24 with h = mantissa (implicit bit included) >> (14 - e).
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rest > half || (rest === half && (h & 1) === 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa steps the exponent up, as rounding should (and to Infinity past the largest half).
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1) === 1)) h++;
  return sign | h;
}

let table: Float32Array | undefined;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The value of every binary16 bit pattern (256 KB, built on first use). */
export function halfTable(): Float32Array {
  if (table) return table;
  const t = new Float32Array(65_536);
  for (let h = 0; h < 65_536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >>> 10) & 0x1f;
    const mant = h & 0x3ff;
    t[h] = exp === 0 ? sign * mant * 2 ** -24 : exp === 0x1f ? (mant ? NaN : sign * Infinity) : sign * (1 + mant / 1024) * 2 ** (exp - 15);
  }
  return (table = t);
}

/** Rounds `rows[start, end)` to the nearest binary16 values, in place (they stay float32 numbers). */
export function roundToHalf(rows: Float32Array, start = 0, end = rows.length): void {
  const t = halfTable();
  for (let i = start; i < end; i++) rows[i] = t[toHalfBits(rows[i]!)]!;
}

/** `out[i]` = the binary16 bits of `src[i]`. */
export function encodeHalf(src: Float32Array, out: Uint16Array): void {
  for (let i = 0; i < src.length; i++) out[i] = toHalfBits(src[i]!);
}

/** `out[i]` = the value of the binary16 bits `src[i]`. */
export function decodeHalf(src: Uint16Array, out: Float32Array): void {
  const t = halfTable();
  let i = 0;
  if (LITTLE_ENDIAN && src.byteOffset % 4 === 0) {
    // Two halves per 32-bit read (little-endian: the first is the low half): a third faster on 100,000 × 512 rows.
    const pairs = new Uint32Array(src.buffer, src.byteOffset, src.length >> 1);
    for (let p = 0; p < pairs.length; p++, i += 2) {
      const w = pairs[p]!;
      out[i] = t[w & 0xffff]!;
      out[i + 1] = t[w >>> 16]!;
    }
  }
  for (; i < src.length; i++) out[i] = t[src[i]!]!;
}
