/**
 * How vectors and keys are written by the stores: float32 little-endian bytes (the disk cache's format, so a vector
 * reads back bit-identical whichever store held it), base64 where the store only holds JSON, and a 64-bit advisory
 * lock key derived from a text's hash.
 */
import { endianness } from "node:os";
import { embeddingCacheKey } from "../encoders/cache.js";

const LITTLE_ENDIAN = endianness() === "LE";

/** A vector as float32 little-endian bytes. */
export function vectorToBytes(v: ArrayLike<number>): Buffer {
  const buf = Buffer.allocUnsafe(v.length * 4);
  for (let i = 0; i < v.length; i++) buf.writeFloatLE(v[i], i * 4);
  return buf;
}

/** Float32 little-endian bytes back to a vector. Throws naming `field` when the length is not a multiple of 4. */
export function bytesToVector(bytes: Uint8Array, field = "vector"): Float32Array {
  if (bytes.byteLength % 4 !== 0) throw new Error(`Invalid stored ${field}: ${bytes.byteLength} bytes is not a whole number of float32 values`);
  if (LITTLE_ENDIAN) {
    // One aligned copy (a Buffer from a driver may sit at any offset of a shared pool).
    const out = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export const vectorToBase64 = (v: ArrayLike<number>): string => vectorToBytes(v).toString("base64");
export const base64ToVector = (s: string, field = "vector"): Float32Array => bytesToVector(Buffer.from(s, "base64"), field);

/** The key of one text under one model: the disk cache's sha256(modelId + "\0" + text), hex. */
export const textKey = embeddingCacheKey;

/**
 * A PostgreSQL advisory lock key (signed bigint, as a decimal string) from a hex hash: its first 64 bits. The hash
 * already covers the model id, so keys of different models do not collide; a collision with another application's
 * advisory lock would only make one wait for the other, never share a row.
 */
export function advisoryKey(hexHash: string): string {
  return BigInt.asIntN(64, BigInt(`0x${hexHash.slice(0, 16)}`)).toString();
}

/** Checks that an encoder answered `n` finite vectors of one dimension; names the model and the problem. */
export function checkVectors(modelId: string, vectors: unknown, n: number): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== n)
    throw new Error(`Encoder ${modelId} returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${n} texts`);
  const dim = (vectors[0] as ArrayLike<number> | undefined)?.length;
  for (const v of vectors as ArrayLike<number>[]) {
    if (!v || v.length !== dim || dim === 0) throw new Error(`Encoder ${modelId} returned vectors of differing or zero dimension`);
  }
  return vectors as number[][];
}
