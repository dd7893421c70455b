/**
 * How vectors and keys are written by the stores: float32 little-endian bytes (the disk cache's format, so a vector
 * reads back bit-identical whichever store held it), base64 where the store only holds JSON, and a 64-bit advisory
 * lock key derived from a text's hash. Also the blob keys' rule and the digest every chunked blob store checks.
 */
import { createHash } from "node:crypto";
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

/** Blob keys: safe as a file name, a SQL text value and a LangGraph item key without escaping. */
export const BLOB_KEY_PATTERN = /^[A-Za-z0-9._-]{1,200}$/;

/** Checks a blob key argument; names the key when it is bad. */
export function checkBlobKey(where: string, key: unknown): string {
  if (typeof key !== "string" || !BLOB_KEY_PATTERN.test(key))
    throw new Error(`${where}: invalid blob key ${JSON.stringify(key)}: a key is 1 to 200 characters of A-Z a-z 0-9 . _ -`);
  return key;
}

/** How often at most a store marks a blob as used (`pruneBlobs`): marking on every read would make every start write. */
export const BLOB_USE_MARK_MS = 3_600_000;

/** The `unusedForMs` of `pruneBlobs`, checked: a finite number ≥ 0, or an error naming the store and the field. */
export function checkUnusedForMs(where: string, options: { unusedForMs?: unknown } | undefined): number {
  const ms = options?.unusedForMs;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0)
    throw new Error(`${where}: options.unusedForMs must be a finite number of milliseconds ≥ 0 (got ${String(ms)})`);
  return ms;
}

/** The `keep` of `pruneCatalogVersions`, checked: an integer ≥ 1, or an error naming the store and the field. */
export function checkKeep(where: string, options: { keep?: unknown } | undefined): number {
  const keep = options?.keep;
  if (typeof keep !== "number" || !Number.isInteger(keep) || keep < 1)
    throw new Error(`${where}: options.keep must be an integer ≥ 1, the number of latest versions to keep (got ${String(keep)})`);
  return keep;
}

/** Checks a blob argument (a Uint8Array, Buffers included). */
export function checkBlobBytes(where: string, key: string, bytes: unknown): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${where}: the blob of key "${key}" must be a Uint8Array (got ${typeof bytes})`);
  return bytes;
}

/** sha256 (hex) of a blob: what the chunked stores keep in a blob's head and verify on every read. */
export const blobDigest = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * `bytes` at a byteOffset that is a multiple of 4 (itself when it already is): a blob is typically viewed as
 * Float32Array / Int32Array sections, which need that alignment.
 */
export function alignedBlob(bytes: Uint8Array): Uint8Array {
  // new Uint8Array(typed array) copies into a fresh buffer (Buffer#slice would only make another view).
  return bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
}
