/**
 * A document-embedding cache in front of any STATELESS encoder (one whose vector for a text never depends on other
 * texts: USE-lite, MiniLM, OpenAI, Ollama...). Tool catalogs are embedded once per machine instead of once per run.
 *
 * Do NOT wrap `LexicalEmbeddings` (or any encoder that fits corpus statistics): its document vectors change with the
 * corpus, and a cache keyed by text alone would serve stale vectors. `resolveEncoder` never wraps it.
 *
 * Disk format: one file per model id, `<cacheDir>/<sanitized model id>-<sha256(model id)[0..8]>.f32`:
 *   16-byte header: magic "TAE1", uint32 LE version (1), uint32 LE dimension, uint32 LE record count,
 *   then `count` records of [32-byte sha256 key][dimension × float32 LE].
 * Loading 10,000 × 512 vectors is one read (~20 MB) and zero-copy Float32Array views. Writes rewrite the file to a
 * temporary name and rename it over the old one (atomic on POSIX), after merging records another process may have
 * added meanwhile. A corrupt or truncated file is ignored with one warning line and replaced on the next write.
 * Vectors are stored as float32: every vector this class returns (hit or miss) is rounded to float32, so a cached
 * and a fresh result are identical.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, stat, unlink, writeFile } from "node:fs/promises";
import { endianness } from "node:os";
import path from "node:path";
import { Embeddings, type EmbeddingsInterface, type EmbeddingsParams } from "@langchain/core/embeddings";
import { embedQueryBatch, type QueryBatchEmbeddings } from "./query-batch.js";

const MAGIC = "TAE1";
const VERSION = 1;
const HEADER_BYTES = 16;
const KEY_BYTES = 32;

/** Options of {@link CachedEmbeddings}. The LangChain `EmbeddingsParams` fields are accepted but unused. */
export interface CachedEmbeddingsOptions extends EmbeddingsParams {
  /**
   * Identifies the inner encoder AND its configuration (model, dimension, truncation...). It is hashed into every
   * key and names the cache file, so two encoders must never share an id unless they return the same vectors.
   */
  modelId: string;
  /**
   * Directory of the on-disk cache. Default: env `TOOL_ATTENTION_CACHE_DIR` if set (the values "off", "false", "0"
   * disable the disk cache), else `<cwd>/.cache/tool-attention/embeddings`. `false`: memory only.
   */
  cacheDir?: string | false;
  /**
   * How many recent queries `embedQuery` keeps in memory (never on disk), as float32. The rolling turn intent
   * re-routes the same user message at every model call of a turn, and an evaluation routes the same texts under
   * many settings, so recent queries recur. 0 disables. Default 4096 (8 MB at 512 dimensions).
   */
  queryCacheSize?: number;
  /** Where the (rare, one-line) warnings go. Default `console.warn`. */
  warn?: (message: string) => void;
}

/** Hit/miss counters of `embedDocuments` (queries are not counted). */
export interface CacheStats {
  /** Texts served from memory or disk. */
  hits: number;
  /** Texts sent to the inner encoder. */
  misses: number;
}

/** The cache directory used when none is given: env `TOOL_ATTENTION_CACHE_DIR`, else `<cwd>/.cache/tool-attention/embeddings`. */
export function defaultEmbeddingCacheDir(): string | false {
  const env = process.env.TOOL_ATTENTION_CACHE_DIR;
  if (env !== undefined && env.trim() !== "") {
    return /^(off|false|0|no)$/i.test(env.trim()) ? false : path.resolve(env.trim());
  }
  return path.join(process.cwd(), ".cache", "tool-attention", "embeddings");
}

/** The cache key of one text: sha256(modelId + "\0" + text), hex. */
export function embeddingCacheKey(modelId: string, text: string): string {
  return createHash("sha256").update(modelId).update("\0").update(text).digest("hex");
}

/** File name of a model id's cache inside the cache directory. */
export function embeddingCacheFileName(modelId: string): string {
  const safe = modelId.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "model";
  return `${safe}-${createHash("sha256").update(modelId).digest("hex").slice(0, 8)}.f32`;
}

/**
 * `EmbeddingsInterface` wrapper caching document vectors in memory and on disk (see the module comment).
 * `embedDocuments` serves each text from memory, then from the disk file (loaded once, lazily), and sends only the
 * misses, de-duplicated, to the inner encoder in ONE call, then writes them back. `embedQuery` passes through with
 * a small in-memory LRU.
 */
/** Default size of the in-memory query LRU. */
export const DEFAULT_QUERY_CACHE_SIZE = 4096;

/**
 * An encoder that can embed a few texts ahead of the work it has queued (`UseLiteEmbeddings`: ahead of a catalog
 * build's batches in its worker pool).
 */
export interface UrgentEmbeddings {
  embedDocumentsUrgently(documents: string[]): Promise<number[][]>;
}

export class CachedEmbeddings extends Embeddings implements QueryBatchEmbeddings {
  readonly inner: EmbeddingsInterface;
  readonly modelId: string;
  /** Resolved cache directory, or `undefined` when the disk cache is disabled. */
  readonly cacheDir: string | undefined;
  /** Resolved cache file, or `undefined` when the disk cache is disabled. */
  readonly cacheFile: string | undefined;
  /** Document hit/miss counters since construction. */
  readonly stats: CacheStats = { hits: 0, misses: 0 };

  private readonly memory = new Map<string, Float32Array>();
  private readonly queries = new Map<string, Float32Array>();
  private readonly queryCacheSize: number;
  private readonly warnFn: (message: string) => void;
  private loaded: Promise<void> | undefined;
  /** `${mtimeMs}:${size}` of the file as last read or written by us; used to detect other writers. */
  private diskSignature: string | undefined;
  private dirty = false;
  private writeChain: Promise<void> = Promise.resolve();
  private diskBroken = false;

  constructor(inner: EmbeddingsInterface, options: CachedEmbeddingsOptions) {
    const { modelId, cacheDir, queryCacheSize = DEFAULT_QUERY_CACHE_SIZE, warn, ...params } = options;
    super(params);
    if (typeof modelId !== "string" || modelId === "") throw new TypeError("CachedEmbeddings: options.modelId must be a non-empty string");
    this.inner = inner;
    this.modelId = modelId;
    this.queryCacheSize = Math.max(0, Math.floor(queryCacheSize));
    this.warnFn = warn ?? ((m) => console.warn(m));
    let dir = cacheDir === undefined ? defaultEmbeddingCacheDir() : cacheDir === false ? false : path.resolve(cacheDir);
    if (dir !== false && endianness() !== "LE") {
      this.warnFn(`[tool-attention] embedding cache: big-endian platform, disk cache disabled (memory cache only).`);
      dir = false;
    }
    this.cacheDir = dir === false ? undefined : dir;
    this.cacheFile = dir === false ? undefined : path.join(dir, embeddingCacheFileName(modelId));
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return (await this.embedDocumentVectors(documents)).map((v) => Array.from(v));
  }

  /**
   * `embedDocuments` without the copy: the vectors as this cache holds them (float32), for a caller that keeps them
   * (a router keys its tool vectors by text). They are the cache's own arrays, shared with every later caller: read
   * them, never write to them. A catalog's vectors are then held once in memory instead of once here and once more
   * by each caller, and no `number[]` per vector (twice the bytes) is made on the way.
   *
   * `urgent`: a few texts a route waits for, embedded ahead of the work the encoder has queued when it can
   * (`UrgentEmbeddings`), and kept in memory until the next write of the file instead of writing it now.
   */
  async embedDocumentVectors(documents: readonly string[], opts: { urgent?: boolean } = {}): Promise<Float32Array[]> {
    if (documents.length === 0) return [];
    const urgent = opts.urgent === true;
    await this.ensureLoaded();
    const keys = documents.map((d) => embeddingCacheKey(this.modelId, d));
    const missIndex = new Map<string, number>(); // key → position in missTexts
    const missTexts: string[] = [];
    for (let i = 0; i < documents.length; i++) {
      const k = keys[i]!;
      if (this.memory.has(k)) {
        this.stats.hits++;
      } else if (!missIndex.has(k)) {
        missIndex.set(k, missTexts.length);
        missTexts.push(documents[i]!);
      }
    }
    // An urgent call reads and writes no file: its few vectors go out with the next write (the build's next chunk).
    if (missTexts.length > 0 && !urgent && (await this.mergeNewerDisk())) {
      // Another process wrote the file since we read it: it may hold some of the misses already.
      const still = [...missIndex].filter(([k]) => !this.memory.has(k));
      this.stats.hits += missIndex.size - still.length;
      const texts = still.map(([, j]) => missTexts[j]!);
      missIndex.clear();
      still.forEach(([k], j) => missIndex.set(k, j));
      missTexts.splice(0, missTexts.length, ...texts);
    }
    if (missTexts.length > 0) {
      this.stats.misses += missTexts.length;
      const inner = this.inner as EmbeddingsInterface & Partial<UrgentEmbeddings>;
      const vectors = urgent && typeof inner.embedDocumentsUrgently === "function" ? await inner.embedDocumentsUrgently(missTexts) : await inner.embedDocuments(missTexts);
      if (!Array.isArray(vectors) || vectors.length !== missTexts.length) {
        throw new Error(
          `CachedEmbeddings(${this.modelId}): inner encoder returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${missTexts.length} texts.`,
        );
      }
      for (const [k, j] of missIndex) this.memory.set(k, Float32Array.from(vectors[j]!));
      if (this.cacheFile) {
        this.dirty = true;
        if (!urgent) await this.flush();
      }
    }
    return keys.map((k) => this.memory.get(k)!);
  }

  async embedQuery(document: string): Promise<number[]> {
    if (this.queryCacheSize > 0) {
      const hit = this.queries.get(document);
      if (hit) {
        this.queries.delete(document);
        this.queries.set(document, hit);
        return Array.from(hit);
      }
    }
    // Rounded to float32 like every document vector, so a hit and a miss give the same scores.
    const v = Float32Array.from(await this.inner.embedQuery(document));
    this.rememberQuery(document, v);
    return Array.from(v);
  }

  private rememberQuery(query: string, v: Float32Array): void {
    if (this.queryCacheSize === 0) return;
    this.queries.delete(query);
    this.queries.set(query, v);
    if (this.queries.size > this.queryCacheSize) this.queries.delete(this.queries.keys().next().value!);
  }

  /**
   * Query-side vectors of many texts, through the same recent-query memory as `embedQuery`; the misses go to the
   * inner encoder in one `embedQueries` call when it has one (batched, e.g. `TransformersEmbeddings`), else one
   * `embedQuery` each. Never through `embedDocuments`: for an asymmetric encoder (prefixes) that is another space.
   */
  async embedQueries(queries: string[]): Promise<number[][]> {
    const out = new Array<Float32Array | undefined>(queries.length);
    const missIndex = new Map<string, number[]>();
    queries.forEach((q, i) => {
      const hit = this.queryCacheSize > 0 ? this.queries.get(q) : undefined;
      if (hit) out[i] = hit;
      else missIndex.set(q, [...(missIndex.get(q) ?? []), i]);
    });
    if (missIndex.size > 0) {
      const texts = [...missIndex.keys()];
      const vectors = await embedQueryBatch(this.inner, texts);
      texts.forEach((q, j) => {
        const v = Float32Array.from(vectors[j]!);
        for (const i of missIndex.get(q)!) out[i] = v;
        this.rememberQuery(q, v);
      });
    }
    return out.map((v) => Array.from(v!));
  }

  /**
   * The cached vectors of these texts (memory, then the disk file), `undefined` for a text not cached. Never calls
   * the inner encoder and does not count hits or misses: a lookup for stores and tools, not a routing path.
   */
  async peek(documents: readonly string[]): Promise<(Float32Array | undefined)[]> {
    await this.ensureLoaded();
    return documents.map((d) => this.memory.get(embeddingCacheKey(this.modelId, d)));
  }

  /** Waits until pending disk writes are done (they are also awaited by `embedDocuments`). Never rejects. */
  flush(): Promise<void> {
    this.writeChain = this.writeChain.then(() => this.writeIfDirty());
    return this.writeChain;
  }

  /** Number of document vectors held in memory (loaded from disk or embedded). */
  get size(): number {
    return this.memory.size;
  }

  // -------------------------------------------------------------------------------------------------------------

  private ensureLoaded(): Promise<void> {
    if (!this.loaded) this.loaded = this.cacheFile ? this.loadFromDisk() : Promise.resolve();
    return this.loaded;
  }

  private async loadFromDisk(): Promise<void> {
    const file = this.cacheFile!;
    const records = await this.readCacheFile(file);
    if (!records) return;
    for (const [k, v] of records.entries) if (!this.memory.has(k)) this.memory.set(k, v);
  }

  /** Reads and validates a cache file. `undefined` when absent or unusable (one warning when corrupt). */
  private async readCacheFile(file: string): Promise<{ dim: number; entries: Map<string, Float32Array> } | undefined> {
    let ab: ArrayBuffer;
    let signature: string;
    try {
      ({ ab, signature } = await readAligned(file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code !== "ENOENT") this.warnOnce(`cannot read ${file} (${(err as Error)?.message ?? err}); ignoring it.`);
      return undefined;
    }
    const buf = Buffer.from(ab);
    const problem = validate(buf);
    if (problem) {
      this.warnOnce(`ignoring corrupt cache file ${file} (${problem}); it will be rewritten.`);
      this.diskSignature = signature;
      return undefined;
    }
    const dim = buf.readUInt32LE(8);
    const count = buf.readUInt32LE(12);
    // Zero-copy views per record into the buffer the file was read into.
    const recordBytes = KEY_BYTES + 4 * dim;
    const entries = new Map<string, Float32Array>();
    for (let r = 0, off = HEADER_BYTES; r < count; r++, off += recordBytes) {
      entries.set(buf.toString("hex", off, off + KEY_BYTES), new Float32Array(ab, off + KEY_BYTES, dim));
    }
    this.diskSignature = signature;
    return { dim, entries };
  }

  /** Merges the disk file when another writer changed it since we last read or wrote it; true when it did. */
  private async mergeNewerDisk(): Promise<boolean> {
    if (!this.cacheFile || this.diskBroken) return false;
    const st = await stat(this.cacheFile).catch(() => undefined);
    if (!st || `${st.mtimeMs}:${st.size}` === this.diskSignature) return false;
    const other = await this.readCacheFile(this.cacheFile);
    if (!other) return false;
    for (const [k, v] of other.entries) if (!this.memory.has(k)) this.memory.set(k, v);
    return true;
  }

  private async writeIfDirty(): Promise<void> {
    if (!this.dirty || !this.cacheFile || this.diskBroken) return;
    this.dirty = false;
    const file = this.cacheFile;
    try {
      // Merge what another process (or instance) wrote since we last looked.
      const st = await stat(file).catch(() => undefined);
      if (st && `${st.mtimeMs}:${st.size}` !== this.diskSignature) {
        const other = await this.readCacheFile(file);
        if (other) for (const [k, v] of other.entries) if (!this.memory.has(k)) this.memory.set(k, v);
      }
      // One dimension per file: the most recently embedded vectors decide it.
      let dim = 0;
      for (const v of this.memory.values()) dim = v.length;
      const entries = [...this.memory].filter(([, v]) => v.length === dim);
      if (dim === 0 || entries.length === 0) return;
      if (entries.length < this.memory.size) {
        this.warnOnce(`vectors of another dimension found for model id "${this.modelId}"; keeping only ${dim}-d vectors on disk.`);
      }
      const recordBytes = KEY_BYTES + 4 * dim;
      const out = Buffer.allocUnsafe(HEADER_BYTES + entries.length * recordBytes);
      out.write(MAGIC, 0, "latin1");
      out.writeUInt32LE(VERSION, 4);
      out.writeUInt32LE(dim, 8);
      out.writeUInt32LE(entries.length, 12);
      let off = HEADER_BYTES;
      for (const [k, v] of entries) {
        out.write(k, off, KEY_BYTES, "hex");
        out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), off + KEY_BYTES);
        off += recordBytes;
      }
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await writeFile(tmp, out);
        await rename(tmp, file);
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        throw err;
      }
      const after = await stat(file);
      this.diskSignature = `${after.mtimeMs}:${after.size}`;
    } catch (err) {
      this.diskBroken = true;
      this.warnOnce(`cannot write ${file} (${(err as Error)?.message ?? err}); continuing with the memory cache only.`);
    }
  }

  private warned = new Set<string>();
  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.warnFn(`[tool-attention] embedding cache: ${message}`);
  }
}

/** Why a buffer is not a valid cache file, or `undefined` when it is. */
/**
 * The whole file read into a fresh ArrayBuffer of its size (4-byte aligned for the vectors' views), with its
 * `${mtimeMs}:${size}` signature. One buffer instead of a read buffer and an aligned copy of it: the copy doubled
 * the memory a warm start takes to read the cache, and the freed read buffer stayed in the allocator's heap.
 */
async function readAligned(file: string): Promise<{ ab: ArrayBuffer; signature: string }> {
  const fh = await open(file, "r");
  try {
    const st = await fh.stat();
    const ab = new ArrayBuffer(st.size);
    const bytes = new Uint8Array(ab);
    for (let at = 0; at < bytes.length; ) {
      const { bytesRead } = await fh.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) throw new Error(`${file} ended at ${at} of ${bytes.length} bytes (changed while read?)`);
      at += bytesRead;
    }
    return { ab, signature: `${st.mtimeMs}:${st.size}` };
  } finally {
    await fh.close();
  }
}

function validate(buf: Buffer): string | undefined {
  if (buf.length < HEADER_BYTES) return `${buf.length} bytes, shorter than the header`;
  if (buf.toString("latin1", 0, 4) !== MAGIC) return "bad magic";
  const version = buf.readUInt32LE(4);
  if (version !== VERSION) return `unsupported version ${version}`;
  const dim = buf.readUInt32LE(8);
  const count = buf.readUInt32LE(12);
  if (dim === 0 || dim > 1 << 20) return `implausible dimension ${dim}`;
  const expected = HEADER_BYTES + count * (KEY_BYTES + 4 * dim);
  if (buf.length !== expected) return `size ${buf.length} bytes, expected ${expected} for ${count} × ${dim}-d records (truncated?)`;
  return undefined;
}
