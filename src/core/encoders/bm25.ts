/**
 * Sparse BM25 over tool texts: an inverted index (term → postings), not dense vectors, so memory grows with the
 * number of distinct (term, tool) pairs — a few MB at 10,000 tools — and a query touches only the postings of
 * its own terms.
 *
 * Scores are normalized per query to [0, 1]: the BM25 score divided by the largest score any document could get
 * for that query (every query term present and saturated). It reads as "the share of the query's idf mass this
 * tool matches", so one threshold or one mixing weight means the same for short and long queries.
 *
 * Tools are described by weighted fields (BM25F-style: a field's term counts are multiplied by its weight), so a
 * word in the tool's name counts more than the same word deep in its description.
 *
 * Cryptic names and abbreviations are caught three ways:
 * - prefixes (discounted): a query word matches a longer name word it starts (`repo` → `repository`), and a
 *   short name word matches a query word that starts with it (`aus` in AusSurfReport ← `australia`);
 * - acronyms of consecutive name words (`list_pull_requests` also indexes `pr` and `lpr`), so "PRs" finds it;
 * - CJK text is indexed as characters and character bigrams (see `lexicalTokens`), so a tool described in Chinese
 *   is found by its (usually ASCII) name and by Chinese words alike.
 */
import { lexicalTokens, type LexicalTokenOptions } from "./lexical.js";

/** One weighted text field of a document. */
export interface Bm25Field {
  text: string;
  /** Multiplies the field's term counts. Default 1. */
  weight?: number;
  /**
   * The field is an identifier (a tool name): also index acronyms of consecutive words, and let its words take
   * part in prefix matching. Prefix matching is kept to names because abbreviations live there; in prose it
   * mostly adds noise (`recipe` would reach `recipient`). Default false.
   */
  identifier?: boolean;
}

/** One weighted part of a query (e.g. the latest user message, an earlier turn, a tool result). */
export interface WeightedText {
  text: string;
  /** Relative weight of the part. Default 1. */
  weight?: number;
  /**
   * False: the part is matched by the lexical channel only and never embedded. For text whose exact tokens are
   * what matters and whose embedding would cost more than it adds, such as a tool's raw result (identifiers,
   * paths, JSON keys) when the model stated no plan. Default true.
   */
  dense?: boolean;
}

export interface Bm25Options {
  /** Term-frequency saturation. Default 1.2. */
  k1?: number;
  /** Length normalization (0 = none, 1 = full). Default 0.75. */
  b?: number;
  /** Weight of a prefix match relative to an exact one (0 disables prefix matching). Default 0.6. */
  prefixWeight?: number;
  /** Shortest word that takes part in prefix matching. Default 3. */
  minPrefix?: number;
  /** Tokenizer options (stemming, stopwords, CJK bigrams). */
  tokens?: LexicalTokenOptions;
}

interface Postings {
  docs: Int32Array;
  /** BM25 term weight of the term in each doc: tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)), in [0, k1+1). */
  weights: Float64Array;
  idf: number;
}

/** Longest field text whose tokens a build keeps for the next tool with the same text. */
const BUILD_MEMO_MAX_CHARS = 160;

/** Magic of `toBytes` output ("TABM25" + format version 1). */
const SNAPSHOT_MAGIC = "TABM25\u0001";

/** A copy of `a` in a new array of `length` (≥ a.length), the rest set to `fill` (default 0). */
function grown<T extends Int32Array | Float64Array>(a: T, length: number, fill?: number): T {
  const b = new (a.constructor as new (len: number) => T)(length);
  if (fill !== undefined) b.fill(fill, a.length);
  b.set(a);
  return b;
}

/** Acronyms of 2 and 3 consecutive words: ["list","pull","request"] → lp, pr, lpr. */
export function acronymsOf(words: readonly string[]): string[] {
  const ascii = words.filter((w) => /^[a-z]/.test(w));
  const out: string[] = [];
  for (let n = 2; n <= 3; n++)
    for (let i = 0; i + n <= ascii.length; i++) out.push(ascii.slice(i, i + n).map((w) => w[0]).join(""));
  return out;
}

/** A sparse BM25 index over documents made of weighted fields. Build once, query many times. */
export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  readonly prefixWeight: number;
  readonly minPrefix: number;
  private readonly tokenOptions: LexicalTokenOptions;
  private postings = new Map<string, Postings>();
  /** Words of identifier fields, sorted for prefix look-ups. */
  private vocab: string[] = [];
  private n = 0;
  private maxIdf = 0;
  private scratch = new Float32Array(0);

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.prefixWeight = options.prefixWeight ?? 0.6;
    this.minPrefix = options.minPrefix ?? 3;
    if (!(this.k1 > 0)) throw new RangeError(`Bm25Index: k1 must be > 0, got ${this.k1}`);
    if (!(this.b >= 0 && this.b <= 1)) throw new RangeError(`Bm25Index: b must be in [0, 1], got ${this.b}`);
    if (!(this.prefixWeight >= 0 && this.prefixWeight <= 1))
      throw new RangeError(`Bm25Index: prefixWeight must be in [0, 1], got ${this.prefixWeight}`);
    this.tokenOptions = { ...options.tokens };
  }

  /** The packed postings (see `build`), kept for `toBytes`. */
  private packed?: { terms: readonly string[]; offsets: Int32Array; docs: Int32Array; weights: Float64Array; idf: Float64Array };

  /** The options that shape the index: a snapshot only loads into an index with the same. */
  private optionsJson(): string {
    return JSON.stringify({ k1: this.k1, b: this.b, prefixWeight: this.prefixWeight, minPrefix: this.minPrefix, tokens: this.tokenOptions });
  }

  /**
   * The built index as one buffer, for a process that would otherwise tokenize the whole catalog again: a JSON
   * header (options, sizes, terms, identifier words), then term offsets (int32), idf (float64), postings' docs
   * (int32) and weights (float64), each 8-byte aligned. `Bm25Index.fromBytes` loads it with views, not copies.
   */
  toBytes(): Uint8Array {
    const p = this.packed ?? { terms: [], offsets: new Int32Array(1), docs: new Int32Array(0), weights: new Float64Array(0), idf: new Float64Array(0) };
    const header = Buffer.from(JSON.stringify({ options: this.optionsJson(), n: this.n, terms: p.terms, vocab: this.vocab, postings: p.docs.length }), "utf8");
    const pad = (x: number) => (x + 7) & ~7;
    const magic = Buffer.from(SNAPSHOT_MAGIC, "latin1");
    let at = pad(magic.length + 4 + header.length);
    const sections: [ArrayBufferView, number][] = [];
    for (const a of [p.offsets, p.idf, p.docs, p.weights]) {
      sections.push([a, at]);
      at = pad(at + a.byteLength);
    }
    const out = new Uint8Array(at);
    out.set(magic, 0);
    new DataView(out.buffer).setUint32(magic.length, header.length, true);
    out.set(header, magic.length + 4);
    for (const [a, off] of sections) out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), off);
    return out;
  }

  /**
   * An index from `toBytes` output, built with `options` (which must equal the snapshot's: a different tokenizer
   * would not match its terms). Throws an Error starting "BM25 snapshot:" when the bytes are not a snapshot.
   */
  static fromBytes(bytes: Uint8Array, options: Bm25Options = {}): Bm25Index {
    const index = new Bm25Index(options);
    const fail = (why: string) => new Error(`BM25 snapshot: ${why}`);
    const magic = Buffer.from(SNAPSHOT_MAGIC, "latin1");
    if (bytes.length < magic.length + 4 || !Buffer.from(bytes.buffer, bytes.byteOffset, magic.length).equals(magic)) throw fail("not a BM25 snapshot (bad magic)");
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = view.getUint32(magic.length, true);
    if (magic.length + 4 + headerLength > bytes.length) throw fail(`truncated header (${bytes.length} bytes)`);
    let header: { options: string; n: number; terms: string[]; vocab: string[]; postings: number };
    try {
      header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + magic.length + 4, headerLength).toString("utf8"));
    } catch (err) {
      throw fail(`corrupt header (${(err as Error).message})`);
    }
    if (header.options !== index.optionsJson()) throw fail(`built with options ${header.options}, this index has ${index.optionsJson()}`);
    const t = header.terms.length;
    const pad = (x: number) => (x + 7) & ~7;
    let at = pad(magic.length + 4 + headerLength);
    const take = <T extends Int32Array | Float64Array>(Ctor: { new (b: ArrayBufferLike, o: number, l: number): T; new (l: number): T; BYTES_PER_ELEMENT: number }, length: number): T => {
      const size = length * Ctor.BYTES_PER_ELEMENT;
      if (at + size > bytes.length) throw fail(`truncated (expected at least ${at + size} bytes, got ${bytes.length})`);
      const off = bytes.byteOffset + at;
      let arr: T;
      if (off % Ctor.BYTES_PER_ELEMENT === 0) arr = new Ctor(bytes.buffer, off, length);
      else {
        arr = new Ctor(length);
        new Uint8Array(arr.buffer).set(bytes.subarray(at, at + size));
      }
      at = pad(at + size);
      return arr;
    };
    const offsets = take(Int32Array, t + 1);
    const idf = take(Float64Array, t);
    const docs = take(Int32Array, header.postings);
    const weights = take(Float64Array, header.postings);
    if (offsets[0] !== 0 || offsets[t] !== header.postings) throw fail("term offsets do not cover the postings");
    for (let i = 0; i < t; i++) if (offsets[i + 1]! < offsets[i]!) throw fail(`term offsets decrease at term ${i}`);
    for (let j = 0; j < docs.length; j++) if (!(docs[j]! >= 0 && docs[j]! < header.n)) throw fail(`posting ${j} names document ${docs[j]} of ${header.n}`);
    index.install(header.n, header.terms, offsets, docs, weights, idf, header.vocab);
    return index;
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.n;
  }

  /** Number of distinct indexed terms. */
  get vocabularySize(): number {
    return this.postings.size;
  }

  /** Tokens exactly as the index sees them. */
  tokenize(text: string): string[] {
    // A plural acronym is one word: "PRs" → "PR" (the camelCase split would read it as "P Rs").
    return lexicalTokens(text.replace(/\b(\p{Lu}{2,})s\b/gu, "$1"), this.tokenOptions);
  }

  /** Indexes the documents (replacing anything indexed before). Document i gets id i. */
  build(documents: readonly (readonly Bm25Field[])[]): void {
    const n = documents.length;
    // Terms get ids in order of first appearance; each document's (term, tf) pairs are appended to flat typed
    // arrays. No Map per document: at 100,000 tools those maps were most of a build's garbage.
    const ids = new Map<string, number>();
    const terms: string[] = [];
    let df = new Int32Array(1024);
    // Per-term scratch for the document being read: its tf, and the document that last touched the term.
    let tfOf = new Float64Array(1024);
    let lastDoc = new Int32Array(1024).fill(-1);
    const touched: number[] = [];
    let pairTerm = new Int32Array(Math.max(1024, n * 16));
    let pairTf = new Float64Array(pairTerm.length);
    const docStart = new Int32Array(n + 1);
    const lengths = new Float64Array(n);
    let pairs = 0;
    let total = 0;
    const identifierTerms = new Set<string>();
    const idOf = (t: string): number => {
      let id = ids.get(t);
      if (id === undefined) {
        id = terms.length;
        ids.set(t, id);
        terms.push(t);
        if (id >= df.length) {
          df = grown(df, df.length * 2);
          tfOf = grown(tfOf, tfOf.length * 2);
          lastDoc = grown(lastDoc, lastDoc.length * 2, -1);
        }
      }
      return id;
    };
    // Term ids per distinct short field text: parameter lists, tags and server names repeat across a catalog's tools
    // (a server's tools share its name; rebranded copies share their parameters), and tokenizing is most of a build.
    // Long texts (descriptions, mostly unique) are not kept, so the build's transient memory stays small.
    const idsOf = new Map<string, Int32Array>();
    const identifierIdsOf = new Map<string, Int32Array>();
    for (let d = 0; d < n; d++) {
      let dl = 0;
      touched.length = 0;
      for (const f of documents[d]!) {
        const w = f.weight ?? 1;
        if (!(w > 0) || !f.text) continue;
        const seen = f.identifier ? identifierIdsOf : idsOf;
        let toks = seen.get(f.text);
        if (toks === undefined) {
          const fresh = this.tokenize(f.text);
          if (f.identifier) {
            fresh.push(...acronymsOf(fresh));
            for (const t of fresh) identifierTerms.add(t);
          }
          toks = Int32Array.from(fresh, idOf);
          if (f.text.length <= BUILD_MEMO_MAX_CHARS) seen.set(f.text, toks);
        }
        for (let i = 0; i < toks.length; i++) {
          const t = toks[i]!;
          if (lastDoc[t] !== d) {
            lastDoc[t] = d;
            tfOf[t] = 0;
            touched.push(t);
          }
          tfOf[t] += w;
        }
        dl += toks.length * w;
      }
      if (pairs + touched.length > pairTerm.length) {
        const size = Math.max(pairTerm.length * 2, pairs + touched.length);
        pairTerm = grown(pairTerm, size);
        pairTf = grown(pairTf, size);
      }
      for (const t of touched) {
        pairTerm[pairs] = t;
        pairTf[pairs++] = tfOf[t]!;
        df[t]!++;
      }
      docStart[d + 1] = pairs;
      lengths[d] = dl;
      total += dl;
    }
    const avgdl = n > 0 && total > 0 ? total / n : 1;
    // Postings are packed: one docs array and one weights array for the whole index, a view per term. At 100,000
    // tools that is a few million postings; per-term JS arrays would cost twice the memory and a slow reload.
    const offsets = new Int32Array(terms.length + 1);
    for (let i = 0; i < terms.length; i++) offsets[i + 1] = offsets[i]! + df[i]!;
    const docs = new Int32Array(offsets[terms.length]!);
    const weights = new Float64Array(docs.length);
    const fill = offsets.slice(0, terms.length);
    for (let d = 0; d < n; d++) {
      const norm = this.k1 * (1 - this.b + (this.b * lengths[d]!) / avgdl);
      for (let p = docStart[d]!; p < docStart[d + 1]!; p++) {
        const tf = pairTf[p]!;
        const at = fill[pairTerm[p]!]!++;
        docs[at] = d;
        weights[at] = (tf * (this.k1 + 1)) / (tf + norm);
      }
    }
    const idf = new Float64Array(terms.length);
    for (let i = 0; i < terms.length; i++) {
      const dfi = offsets[i + 1]! - offsets[i]!;
      idf[i] = Math.log(1 + (n - dfi + 0.5) / (dfi + 0.5));
    }
    this.install(n, terms, offsets, docs, weights, idf, [...identifierTerms].sort());
  }

  /** Sets the index from packed postings (a build or a snapshot). */
  private install(n: number, terms: readonly string[], offsets: Int32Array, docs: Int32Array, weights: Float64Array, idf: Float64Array, vocab: string[]): void {
    const postings = new Map<string, Postings>();
    let maxIdf = 0;
    for (let i = 0; i < terms.length; i++) {
      postings.set(terms[i]!, { docs: docs.subarray(offsets[i]!, offsets[i + 1]!), weights: weights.subarray(offsets[i]!, offsets[i + 1]!), idf: idf[i]! });
      if (idf[i]! > maxIdf) maxIdf = idf[i]!;
    }
    this.packed = { terms, offsets, docs, weights, idf };
    this.postings = postings;
    this.vocab = vocab;
    this.n = n;
    this.maxIdf = maxIdf > 0 ? maxIdf : Math.log(1 + (n + 0.5) / 0.5);
    this.scratch = new Float32Array(n);
    this.touched = new Int32Array(n);
    this.prefixDocs = new Int32Array(n);
  }

  /**
   * Normalized BM25 score of every document for a query (one text or weighted parts), in [0, 1].
   * Returns a fresh array of length `size`; all zeros for an empty query.
   */
  scoreAll(query: string | readonly WeightedText[]): Float32Array {
    return this.scoreSparse(query).scores;
  }

  /**
   * `scoreAll`, plus the documents with a positive score (in no particular order). The work is proportional to the
   * postings of the query's terms, never to the catalog: on 100,000 tools a query touches a few thousand.
   */
  scoreSparse(query: string | readonly WeightedText[]): { scores: Float32Array; docs: Int32Array } {
    const out = new Float32Array(this.n);
    if (this.n === 0) return { scores: out, docs: new Int32Array(0) };
    const k = this.scoreInto(out, query);
    return { scores: out, docs: this.touched.slice(0, k) };
  }

  /**
   * `scoreSparse` into buffers the index keeps and reuses: valid only until the next call on this index, for a
   * caller that reads them at once and keeps nothing (the router's approximate path). On a large catalog a fresh
   * score array per query costs more than the scoring: at 100,000 tools its first writes fault in about 400 KB of
   * new pages (about a millisecond), where resetting the entries the previous query touched costs microseconds.
   */
  scoreSparseTransient(query: string | readonly WeightedText[]): { scores: Float32Array; docs: Int32Array } {
    let out = this.transient;
    if (!out || out.length !== this.n) out = this.transient = new Float32Array(this.n);
    else for (let j = 0; j < this.transientCount; j++) out[this.transientDocs![j]!] = 0;
    this.transientCount = 0;
    if (this.n === 0) return { scores: out, docs: new Int32Array(0) };
    const k = this.scoreInto(out, query);
    // The touched list is overwritten by the next query: the next call resets from a copy of its own.
    if (!this.transientDocs || this.transientDocs.length !== this.n) this.transientDocs = new Int32Array(this.n);
    this.transientDocs.set(this.touched.subarray(0, k));
    this.transientCount = k;
    return { scores: out, docs: this.transientDocs.subarray(0, k) };
  }
  private transient?: Float32Array;
  private transientDocs?: Int32Array;
  private transientCount = 0;

  /** Scores a query into `out` (all zeros on entry); returns how many documents scored above 0, listed in `touched`. */
  private scoreInto(out: Float32Array, query: string | readonly WeightedText[]): number {
    const parts = typeof query === "string" ? [{ text: query, weight: 1 }] : query;
    // Query term weights: part weight × count; the same term in several parts adds up.
    const qtf = new Map<string, number>();
    for (const p of parts) {
      const w = p.weight ?? 1;
      if (!(w > 0)) continue;
      for (const t of this.tokenize(p.text)) qtf.set(t, (qtf.get(t) ?? 0) + w);
    }
    this.touchedCount = 0;
    let maxScore = 0;
    for (const [term, q] of qtf) {
      const exact = this.postings.get(term);
      // A term no tool uses still counts in the maximum (with the largest idf): a query that is mostly
      // unknown words should not look like a confident match.
      const idf = exact?.idf ?? this.maxIdf;
      maxScore += q * idf * (this.k1 + 1);
      if (exact) this.accumulate(out, exact, q * exact.idf);
      if (this.prefixWeight > 0 && term.length >= this.minPrefix && /^[a-z]/.test(term)) this.prefixMatches(out, term, q, idf);
    }
    const touched = this.touched;
    const m = this.touchedCount;
    if (maxScore > 0) for (let j = 0; j < m; j++) out[touched[j]!] = Math.min(1, out[touched[j]!]! / maxScore);
    let k = 0;
    for (let j = 0; j < m; j++) if (out[touched[j]!]! > 0) touched[k++] = touched[j]!;
    return k;
  }

  /**
   * Documents a query has touched so far (`touched[0..touchedCount)`, each once). Every term adds a positive amount
   * (idf > 0, weight > 0), so a document is new exactly when its score is still 0: no separate marks to keep.
   */
  private touched = new Int32Array(0);
  private touchedCount = 0;
  /** Documents with a prefix score for the current query term (reset after each term). */
  private prefixDocs = new Int32Array(0);

  /** Adds discounted scores of vocabulary words that extend `term`, or that `term` extends. */
  private prefixMatches(out: Float32Array, term: string, q: number, idf: number): void {
    // Per document, only the best prefix match of this query term counts.
    const best = this.scratch;
    let count = 0;
    const add = (p: Postings) => {
      // The rarer of the two words decides how informative the match is.
      const weight = Math.min(idf, p.idf);
      for (let j = 0; j < p.docs.length; j++) {
        const d = p.docs[j];
        const s = weight * p.weights[j];
        if (s > best[d]) {
          if (best[d] === 0) this.prefixDocs[count++] = d;
          best[d] = s;
        }
      }
    };
    // Longer vocabulary words starting with the query word (repo → repository).
    const lo = this.lowerBound(term);
    for (let i = lo; i < this.vocab.length && i < lo + 64; i++) {
      const v = this.vocab[i];
      if (!v.startsWith(term)) break;
      if (v === term) continue;
      add(this.postings.get(v) as Postings);
    }
    // Shorter name words the query word starts with (aus ← australia).
    for (let len = this.minPrefix; len < term.length; len++) {
      const prefix = term.slice(0, len);
      if (!this.isIdentifierTerm(prefix)) continue;
      add(this.postings.get(prefix) as Postings);
    }
    const w = q * this.prefixWeight;
    const docs = this.prefixDocs;
    const touched = this.touched;
    let m = this.touchedCount;
    for (let j = 0; j < count; j++) {
      const d = docs[j]!;
      const b = best[d]!;
      if (b > 0) {
        const prev = out[d]!;
        if (prev === 0) touched[m++] = d;
        out[d] = prev + w * b;
      }
      best[d] = 0;
    }
    this.touchedCount = m;
  }

  private isIdentifierTerm(term: string): boolean {
    return this.vocab[this.lowerBound(term)] === term;
  }

  /** Index of the first vocabulary word (sorted) not below `term`. */
  private lowerBound(term: string): number {
    let lo = 0;
    let hi = this.vocab.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.vocab[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private accumulate(out: Float32Array, p: Postings, factor: number): void {
    // Locals in the loop: it runs over tens of thousands of postings per query on a large catalog, each a random
    // access into the scores, so one array fewer per posting is what saves time.
    const { docs, weights } = p;
    const touched = this.touched;
    let m = this.touchedCount;
    for (let j = 0; j < docs.length; j++) {
      const d = docs[j]!;
      const prev = out[d]!;
      if (prev === 0) touched[m++] = d;
      out[d] = prev + factor * weights[j]!;
    }
    this.touchedCount = m;
  }
}
