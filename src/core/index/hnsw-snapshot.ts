/**
 * The HNSW snapshot format (layout in the module comment of hnsw-index.ts): writing a graph's state as one buffer,
 * and reading one back with every header field, section size and link checked, so that a damaged or foreign
 * snapshot fails with an Error starting "HNSW snapshot:" instead of searching out of bounds.
 *
 * Reading is split in two, header then sections, because the index is constructed in between: its constructor
 * validates the search-time settings a caller passes, and those errors come before any link is read.
 */
import { endianness } from "node:os";
import { encodeHalf } from "./half.js";
import type { HnswOptions } from "./hnsw-options.js";

/** Magic of a serialized index ("TAHNSW") and its format version. */
const SNAPSHOT_MAGIC = "TAHNSW";
const SNAPSHOT_VERSION = 1;
const SNAPSHOT_HEADER_BYTES = 80;
const pad4 = (n: number) => (n + 3) & ~3;

/** Typed-array sections are copied byte for byte: the format is little-endian, so only such hosts can view them. */
function checkLittleEndian(what: string): void {
  if (endianness() !== "LE") throw new Error(`HNSW snapshot: ${what} needs a little-endian host (this one is big-endian)`);
}

/** Section offsets (bytes) of a snapshot with these sizes; `total` is the snapshot's length. */
function snapshotLayout(count: number, dim: number, M0: number, upperInts: number, rowBytes: 2 | 4) {
  const levels = SNAPSHOT_HEADER_BYTES;
  const deg0 = levels + pad4(count);
  const links0 = deg0 + pad4(count);
  const upper = links0 + count * M0 * 4;
  const data = upper + upperInts * 4;
  return { levels, deg0, links0, upper, data, total: data + count * dim * rowBytes };
}

/** The state of a graph that a snapshot holds (the index's own arrays, read, never written). */
export interface HnswGraphState {
  dim: number;
  M: number;
  M0: number;
  efConstruction: number;
  efSearch: number | undefined;
  upperBeam: number | undefined;
  seed: number;
  keepPruned: boolean;
  rowPrecision: "float16" | "float32";
  /** PRNG state, so a later `add()` draws the levels the original would have drawn. */
  rngState: number;
  count: number;
  entry: number;
  maxLevel: number;
  levels: Uint8Array;
  deg0: Uint8Array;
  links0: Int32Array;
  upper: readonly (Int32Array | undefined)[];
  /** The normalized rows, count · dim. */
  data: Float32Array;
}

/** One buffer holding `g` (see the module comment of hnsw-index.ts). Copies the rows and links once. */
export function encodeHnswSnapshot(g: HnswGraphState): Uint8Array {
  checkLittleEndian("toBytes");
  const n = g.count;
  const stride = g.M + 1;
  let upperInts = 0;
  for (let i = 0; i < n; i++) upperInts += g.levels[i]! * stride;
  const half = g.rowPrecision === "float16";
  const at = snapshotLayout(n, g.dim, g.M0, upperInts, half ? 2 : 4);
  const out = new Uint8Array(at.total);
  const h = new DataView(out.buffer, out.byteOffset, SNAPSHOT_HEADER_BYTES);
  for (let i = 0; i < SNAPSHOT_MAGIC.length; i++) h.setUint8(i, SNAPSHOT_MAGIC.charCodeAt(i));
  h.setUint32(8, SNAPSHOT_VERSION, true);
  h.setUint32(12, SNAPSHOT_HEADER_BYTES, true);
  h.setUint32(16, g.dim, true);
  h.setUint32(20, n, true);
  h.setUint32(24, g.M, true);
  h.setUint32(28, g.M0, true);
  h.setUint32(32, g.efConstruction, true);
  h.setUint32(36, (g.keepPruned ? 1 : 0) | (half ? 2 : 0), true);
  h.setFloat64(40, g.seed, true);
  h.setInt32(48, g.entry, true);
  h.setInt32(52, g.maxLevel, true);
  h.setInt32(56, g.efSearch ?? -1, true);
  h.setInt32(60, g.upperBeam ?? -1, true);
  h.setUint32(64, g.rngState, true);
  h.setUint32(68, upperInts, true);
  h.setFloat64(72, at.total, true);
  const bytesOf = (a: Int32Array | Float32Array | Uint8Array, elements: number) => new Uint8Array(a.buffer, a.byteOffset, elements * a.BYTES_PER_ELEMENT);
  out.set(g.levels.subarray(0, n), at.levels);
  out.set(g.deg0.subarray(0, n), at.deg0);
  out.set(bytesOf(g.links0, n * g.M0), at.links0);
  let off = at.upper;
  for (let i = 0; i < n; i++) {
    const u = g.upper[i];
    if (!u || g.levels[i] === 0) continue;
    out.set(bytesOf(u, u.length), off);
    off += u.byteLength;
  }
  // Half rows are exact: they were rounded when added.
  if (half) encodeHalf(g.data.subarray(0, n * g.dim), new Uint16Array(out.buffer, out.byteOffset + at.data, n * g.dim));
  else out.set(bytesOf(g.data, n * g.dim), at.data);
  return out;
}

/** A snapshot's header, checked, with the options a caller gave checked against it. */
export interface HnswSnapshotHeader {
  dim: number;
  count: number;
  M: number;
  M0: number;
  efConstruction: number;
  seed: number;
  keepPruned: boolean;
  rowPrecision: "float16" | "float32";
  entry: number;
  maxLevel: number;
  /** Explicit efSearch / upperBeam of the snapshot; -1: the size default. */
  efSearch: number;
  upperBeam: number;
  rngState: number;
  upperInts: number;
  /** Rows in half precision. */
  half: boolean;
  /** Section offsets. */
  at: ReturnType<typeof snapshotLayout>;
}

/**
 * Reads and checks a snapshot's header and its total size. `options`: the build-time settings (M, efConstruction,
 * seed, keepPruned, rowPrecision) may be given only with the snapshot's values (a different graph needs a rebuild).
 */
export function readHnswHeader(bytes: Uint8Array, options: HnswOptions): HnswSnapshotHeader {
  checkLittleEndian("fromBytes");
  if (!(bytes instanceof Uint8Array)) throw new TypeError("HNSW snapshot: expected a Uint8Array");
  if (bytes.byteLength < SNAPSHOT_HEADER_BYTES)
    throw new Error(`HNSW snapshot: truncated (expected at least ${SNAPSHOT_HEADER_BYTES} bytes of header, got ${bytes.byteLength})`);
  const h = new DataView(bytes.buffer, bytes.byteOffset, SNAPSHOT_HEADER_BYTES);
  let magic = "";
  for (let i = 0; i < SNAPSHOT_MAGIC.length; i++) magic += String.fromCharCode(h.getUint8(i));
  if (magic !== SNAPSHOT_MAGIC) throw new Error(`HNSW snapshot: bad magic (expected "${SNAPSHOT_MAGIC}", got ${JSON.stringify(magic)}): not a serialized HnswIndex`);
  const version = h.getUint32(8, true);
  if (version !== SNAPSHOT_VERSION) throw new Error(`HNSW snapshot: unsupported format version ${version} (this build reads version ${SNAPSHOT_VERSION})`);
  const headerBytes = h.getUint32(12, true);
  if (headerBytes !== SNAPSHOT_HEADER_BYTES) throw new Error(`HNSW snapshot: corrupt header (header size ${headerBytes}, expected ${SNAPSHOT_HEADER_BYTES})`);
  const dim = h.getUint32(16, true);
  const count = h.getUint32(20, true);
  const M = h.getUint32(24, true);
  const M0 = h.getUint32(28, true);
  const efConstruction = h.getUint32(32, true);
  const flags = h.getUint32(36, true);
  const seed = h.getFloat64(40, true);
  const entry = h.getInt32(48, true);
  const maxLevel = h.getInt32(52, true);
  const efSearch = h.getInt32(56, true);
  const upperBeam = h.getInt32(60, true);
  const rngState = h.getUint32(64, true);
  const upperInts = h.getUint32(68, true);
  const total = h.getFloat64(72, true);
  const corrupt = (what: string) => new Error(`HNSW snapshot: corrupt header (${what})`);
  if (dim === 0) throw corrupt("dim 0");
  if (M < 2 || M > 100 || M0 !== 2 * M) throw corrupt(`M ${M}, M0 ${M0}`);
  if (efConstruction < 1 || efConstruction > 10_000) throw corrupt(`efConstruction ${efConstruction}`);
  if (efSearch !== -1 && (efSearch < 1 || efSearch > 100_000)) throw corrupt(`efSearch ${efSearch}`);
  if (upperBeam !== -1 && (upperBeam < 1 || upperBeam > 100_000)) throw corrupt(`upperBeam ${upperBeam}`);
  if (flags > 3) throw corrupt(`flags ${flags}`);
  if (!Number.isFinite(seed)) throw corrupt(`seed ${seed}`);
  if (count === 0 ? entry !== -1 || maxLevel !== -1 : entry < 0 || entry >= count || maxLevel < 0 || maxLevel > 30)
    throw corrupt(`entry ${entry}, maxLevel ${maxLevel} with ${count} rows`);
  const half = (flags & 2) !== 0;
  const at = snapshotLayout(count, dim, M0, upperInts, half ? 2 : 4);
  if (total !== at.total) throw corrupt(`total size ${total} disagrees with the sections' ${at.total}`);
  if (bytes.byteLength < at.total) throw new Error(`HNSW snapshot: truncated (expected ${at.total} bytes, got ${bytes.byteLength})`);
  if (bytes.byteLength > at.total) throw new Error(`HNSW snapshot: ${bytes.byteLength - at.total} unexpected bytes after the expected ${at.total}`);

  const keepPruned = (flags & 1) !== 0;
  const rowPrecision = half ? "float16" : "float32";
  for (const [name, given, stored] of [
    ["M", options.M, M],
    ["efConstruction", options.efConstruction, efConstruction],
    ["seed", options.seed, seed],
    ["keepPruned", options.keepPruned, keepPruned],
    ["rowPrecision", options.rowPrecision, rowPrecision],
  ] as const)
    if (given !== undefined && given !== stored)
      throw new Error(`HNSW snapshot: built with ${name} ${stored}, options ask for ${given} (a different ${name} needs a rebuilt index)`);
  return { dim, count, M, M0, efConstruction, seed, keepPruned, rowPrecision, entry, maxLevel, efSearch, upperBeam, rngState, upperInts, half, at };
}

/** The sections of a snapshot, checked: views of its buffer (of a copy when misaligned), except `upper`, a copy. */
export interface HnswSnapshotSections {
  levels: Uint8Array;
  deg0: Uint8Array;
  links0: Int32Array;
  upper: (Int32Array | undefined)[];
  /** The rows, binary16 or float32. */
  rows: Uint16Array | Float32Array;
}

/** Reads a snapshot's sections and checks every level and link against the header (count > 0). */
export function readHnswSections(bytes: Uint8Array, head: HnswSnapshotHeader): HnswSnapshotSections {
  const { dim, count, M, M0, maxLevel, entry, upperInts, half, at } = head;
  // The validation reads typed views, which need 4-byte alignment: a misaligned input (a Buffer slice, say) is
  // copied first. (new Uint8Array(typed array) copies into a fresh buffer; Buffer#slice would only make a view.)
  const src = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  const buf = src.buffer;
  const base = src.byteOffset;
  const levels = new Uint8Array(buf, base + at.levels, count);
  const deg0 = new Uint8Array(buf, base + at.deg0, count);
  const links0 = new Int32Array(buf, base + at.links0, count * M0);
  const rows = half ? new Uint16Array(buf, base + at.data, count * dim) : new Float32Array(buf, base + at.data, count * dim);
  // Links out of range would read past the rows (NaN scores) instead of failing: check them all.
  const stride = M + 1;
  let ints = 0;
  for (let i = 0; i < count; i++) {
    const lv = levels[i]!;
    if (lv > maxLevel) throw new Error(`HNSW snapshot: node ${i} has level ${lv} above the top level ${maxLevel}`);
    ints += lv * stride;
    const d = deg0[i]!;
    if (d > M0) throw new Error(`HNSW snapshot: node ${i} has ${d} layer-0 links (at most ${M0})`);
    for (let j = i * M0, end = j + d; j < end; j++) {
      const nb = links0[j]!;
      if (nb < 0 || nb >= count) throw new Error(`HNSW snapshot: node ${i} links to ${nb} on layer 0 (rows 0..${count - 1})`);
    }
  }
  if (ints !== upperInts) throw new Error(`HNSW snapshot: the levels need ${ints} upper-link ints, the header says ${upperInts}`);
  if (levels[entry] !== maxLevel) throw new Error(`HNSW snapshot: entry node ${entry} has level ${levels[entry]}, not the top level ${maxLevel}`);
  const upperAll = new Int32Array(upperInts);
  upperAll.set(new Int32Array(buf, base + at.upper, upperInts));
  const upper: (Int32Array | undefined)[] = new Array(count);
  for (let i = 0, off = 0; i < count; i++) {
    const lv = levels[i]!;
    if (lv === 0) continue;
    const u = upperAll.subarray(off, off + lv * stride);
    off += lv * stride;
    for (let l = 0; l < lv; l++) {
      const b = l * stride;
      const deg = u[b]!;
      if (deg < 0 || deg > M) throw new Error(`HNSW snapshot: node ${i} has ${deg} links on layer ${l + 1} (at most ${M})`);
      for (let j = 1; j <= deg; j++) {
        const nb = u[b + j]!;
        if (nb < 0 || nb >= count || levels[nb]! <= l) throw new Error(`HNSW snapshot: node ${i} links to ${nb} on layer ${l + 1}, which is not a node of that layer`);
      }
    }
    upper[i] = u;
  }
  return { levels, deg0, links0, upper, rows };
}
