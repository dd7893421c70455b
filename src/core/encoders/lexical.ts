/**
 * A BM25-style lexical encoder behind the same `EmbeddingsInterface` seam as the neural encoders, so it can be used
 * alone (no model at all) or next to one (exact tool names, abbreviations, rare identifiers).
 *
 * Vectors are sparse BM25 weights projected by signed feature hashing into a fixed dense dimension, L2-normalized:
 * cosine(query, doc) is then a normalized BM25-like score in [0, 1] (negative only through rare hash collisions).
 *
 * Unlike neural encoders it is STATEFUL: `embedDocuments` fits idf and average length on the texts it is given,
 * so a document's vector depends on the whole corpus. Never put it behind `CachedEmbeddings`.
 */
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";

// ---------------------------------------------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------------------------------------------

/**
 * Small English stopword list: function words only. Deliberately absent: "we"/"us"/"our" (they occur inside
 * identifiers: getWeReadRank), particles that change a tool's meaning ("up", "down", "out", "off"), negations
 * ("no", "not") and any verb a tool name might use ("get", "set", "list", "make").
 */
export const LEXICAL_STOPWORDS: ReadonlySet<string> = new Set([
  "a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for", "from", "with", "into",
  "onto", "as", "is", "are", "was", "were", "be", "been", "being", "am", "it", "its", "this", "that", "these",
  "those", "there", "here", "than", "then", "so", "such", "if", "else", "can", "could", "should", "would", "will",
  "shall", "may", "might", "must", "do", "does", "did", "i", "me", "my", "you", "your", "yours", "he", "she",
  "him", "her", "his", "they", "them", "their", "what", "which", "who", "whom", "whose", "how", "when", "where",
  "why", "also", "just", "very", "please", "via", "per", "etc", "e", "g", "ie", "eg",
]);

/** Options of {@link lexicalTokens}. */
export interface LexicalTokenOptions {
  /** Apply the light suffix stemmer (plural / -ing / -ed / final -e). Default true. */
  stem?: boolean;
  /** Drop {@link LEXICAL_STOPWORDS}. Default true. */
  removeStopwords?: boolean;
  /** Emit CJK bigrams next to CJK single characters. Default true. */
  cjkBigrams?: boolean;
}

// Han (incl. extensions and compatibility ideographs), Hiragana, Katakana (+ phonetic ext., half-width), Hangul,
// plus the kana prolonged sound marks (ー, ｰ), whose Unicode script is "Common" (タワー must stay one run).
const CJK_CLASS = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc\\uff70";
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, "u");
const CJK_RUN = new RegExp(`([${CJK_CLASS}]+)`, "u");
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII_WORD = /^[a-z]+$/;
const VOWEL = /[aeiouy]/;

/**
 * Tokens used by the lexical encoder (and reusable by other modules: keyword gates, name matching...).
 *
 * 1. NFKC; identifiers are split at camelCase humps (`getWeReadRank` → get we read rank, `HTTPServer` → http
 *    server) and at letter/digit boundaries (`oauth2` → oauth 2); `_`, `-`, `.`, `/` and every other
 *    non-letter/non-digit character separate words (`get_weread_rank` → get weread rank).
 * 2. Lowercase; words are maximal runs of Unicode letters, digits and combining marks (`\p{L}\p{N}\p{M}`).
 * 3. CJK (Han, kana, Hangul) runs become single-character tokens plus adjacent-character bigrams, since those
 *    scripts do not separate words with spaces (`微信读书` → 微 信 读 书 微信 信读 读书).
 * 4. English stopwords dropped, then a light stemmer on ASCII words (see {@link lightStem}).
 */
export function lexicalTokens(text: string, options: LexicalTokenOptions = {}): string[] {
  const stem = options.stem ?? true;
  const removeStopwords = options.removeStopwords ?? true;
  const cjkBigrams = options.cjkBigrams ?? true;
  const str = String(text ?? "");
  if (ASCII_TEXT.test(str)) return asciiTokens(str, stem, removeStopwords);
  const split = str
    .normalize("NFKC")
    // fooBar → foo Bar, foo2Bar → foo2 Bar
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    // HTTPServer → HTTP Server
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    // oauth2 → oauth 2, 3d → 3 d (letters of non-CJK scripts only; CJK is handled per character below)
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .replace(/(\p{N})(\p{L})/gu, "$1 $2")
    .toLowerCase();
  const out: string[] = [];
  for (const m of split.matchAll(WORD)) {
    const word = m[0];
    if (!CJK_CHAR.test(word)) {
      pushWord(word, out, stem, removeStopwords);
      continue;
    }
    // Mixed word such as "微信读书app": alternate CJK runs and other runs.
    for (const part of word.split(CJK_RUN)) {
      if (!part) continue;
      if (CJK_CHAR.test(part)) {
        const chars = Array.from(part);
        for (const c of chars) out.push(c);
        if (cjkBigrams) for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
      } else {
        pushWord(part, out, stem, removeStopwords);
      }
    }
  }
  return out;
}

const ASCII_TEXT = /^[\x00-\x7f]*$/;
const ASCII_WORD_RUN = /[A-Za-z0-9]+/g;

/**
 * `lexicalTokens` of an ASCII text, the common case (tool names, English descriptions), with the same steps over
 * ASCII classes: NFKC leaves ASCII unchanged, and on ASCII the Unicode classes are [a-z], [A-Z], [A-Za-z] and [0-9],
 * with no combining marks and no CJK. Same tokens, several times faster on a large catalog's build.
 */
function asciiTokens(text: string, stem: boolean, removeStopwords: boolean): string[] {
  const split = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([A-Za-z])/g, "$1 $2")
    .toLowerCase();
  const out: string[] = [];
  for (const m of split.matchAll(ASCII_WORD_RUN)) {
    const word = m[0];
    if (removeStopwords && LEXICAL_STOPWORDS.has(word)) continue;
    out.push(stem ? lightStem(word) : word);
  }
  return out;
}

function pushWord(word: string, out: string[], stem: boolean, removeStopwords: boolean): void {
  // A combining mark alone (left over by a split) carries no meaning.
  if (/^\p{M}+$/u.test(word)) return;
  if (removeStopwords && LEXICAL_STOPWORDS.has(word)) return;
  out.push(stem ? lightStem(word) : word);
}

/**
 * A light, conservative English suffix stemmer for lowercase ASCII words (others are returned unchanged). It only
 * needs to map inflections of one word onto one token, not to produce real words:
 * queries/query → query, boxes/box → box, tools → tool, creating/created/creates/create → creat,
 * running → run, stopped → stop. Words of three letters or fewer, and -ss/-us/-is endings (class, status,
 * analysis) are left alone.
 */
export function lightStem(word: string): string {
  if (word.length <= 3 || !ASCII_WORD.test(word)) return word;
  let w = word;
  // Plurals / 3rd person.
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:[sxz]|ch|sh)es$/.test(w) && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // -ing / -ed (only when a vowel-bearing stem of 3+ letters remains).
  let strippedVerb = false;
  if (w.endsWith("ied") && w.length > 4) {
    w = w.slice(0, -3) + "y";
  } else {
    for (const suffix of ["ing", "ed"]) {
      if (w.endsWith(suffix)) {
        const s = w.slice(0, -suffix.length);
        if (s.length >= 3 && VOWEL.test(s)) {
          w = s;
          strippedVerb = true;
        }
        break;
      }
    }
  }
  // running → runn → run, stopped → stopp → stop (but fill → fill, pass → pass, buzz → buzz).
  if (strippedVerb && w.length >= 4 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  // create / creates / created → creat.
  if (w.length >= 4 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

// ---------------------------------------------------------------------------------------------------------------
// Feature hashing
// ---------------------------------------------------------------------------------------------------------------

const utf8 = new TextEncoder();

/** 32-bit FNV-1a over the UTF-8 bytes of `s` (unsigned). */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (const byte of utf8.encode(s)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3 finalizer: decorrelates the sign bit from the bucket bits of the same FNV hash. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Encoder
// ---------------------------------------------------------------------------------------------------------------

/** Options of {@link LexicalEmbeddings}. The LangChain `EmbeddingsParams` fields are accepted but unused. */
export interface LexicalEmbeddingsOptions extends EmbeddingsParams {
  /** Hashed feature dimension. More dimensions, fewer collisions; each vector is a dense array of this length. Default 4096. */
  dim?: number;
  /** BM25 term-frequency saturation. Default 1.2. */
  k1?: number;
  /** BM25 length normalization (0 = none, 1 = full). Default 0.75. */
  b?: number;
  /** Tokenizer options, see {@link lexicalTokens}. */
  tokens?: LexicalTokenOptions;
}

interface CorpusStats {
  /** Number of fitted documents. */
  n: number;
  /** Average document length in tokens. */
  avgdl: number;
  /** Document frequency per token. */
  df: Map<string, number>;
}

/**
 * BM25 lexical encoder with the `EmbeddingsInterface` shape.
 *
 * - `embedDocuments(texts)` FITS the corpus statistics on exactly `texts` (replacing any previous fit) and returns
 *   their document vectors: per token `idf · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl))`, hashed, L2-normalized.
 *   Embedding documents in several calls therefore gives vectors from different fits: embed a catalog in one call.
 * - `embedQuery(text)` returns `idf · qtf` per query token, hashed and L2-normalized, using the last fit.
 *   Before any fit every idf is 1 (plain term-count vector), so queries still work and compare consistently.
 *   A query token absent from the corpus gets the largest idf: it matches nothing but lowers every score equally,
 *   so a query that is mostly unknown words does not look like a confident match.
 *
 * `idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))` (never negative). Empty texts give a zero vector (cosine 0).
 */
export class LexicalEmbeddings extends Embeddings {
  /** `lexical-bm25-h<dim>`. Identifies the vector space only: vectors also depend on the fitted corpus. */
  readonly modelId: string;
  readonly dim: number;
  readonly k1: number;
  readonly b: number;
  private readonly tokenOptions: LexicalTokenOptions;
  private stats: CorpusStats | undefined;
  private readonly featureCache = new Map<string, number>();

  constructor(options: LexicalEmbeddingsOptions = {}) {
    const { dim = 4096, k1 = 1.2, b = 0.75, tokens = {}, ...params } = options;
    super(params);
    if (!Number.isInteger(dim) || dim < 1) throw new RangeError(`LexicalEmbeddings: dim must be a positive integer, got ${dim}`);
    if (!(k1 >= 0)) throw new RangeError(`LexicalEmbeddings: k1 must be >= 0, got ${k1}`);
    if (!(b >= 0 && b <= 1)) throw new RangeError(`LexicalEmbeddings: b must be in [0, 1], got ${b}`);
    this.dim = dim;
    this.k1 = k1;
    this.b = b;
    this.tokenOptions = { ...tokens };
    this.modelId = `lexical-bm25-h${dim}`;
  }

  /** Whether corpus statistics have been fitted (by {@link fit} or {@link embedDocuments}). */
  get fitted(): boolean {
    return this.stats !== undefined;
  }

  /** Number of documents of the last fit (0 before any fit). */
  get corpusSize(): number {
    return this.stats?.n ?? 0;
  }

  /** Tokens exactly as this encoder sees them. */
  tokenize(text: string): string[] {
    return lexicalTokens(text, this.tokenOptions);
  }

  /** The idf the encoder uses for a (already tokenized) term; 1 before any fit. */
  idf(term: string): number {
    const s = this.stats;
    if (!s) return 1;
    const df = s.df.get(term) ?? 0;
    return Math.log(1 + (s.n - df + 0.5) / (df + 0.5));
  }

  /** Fits document frequencies and average length on `texts`, replacing any previous fit. */
  fit(texts: string[]): void {
    this.stats = this.computeStats(texts.map((t) => this.tokenize(t)));
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    const tokenized = documents.map((t) => this.tokenize(t));
    const stats = this.computeStats(tokenized);
    this.stats = stats;
    const { k1, b } = this;
    const avgdl = stats.avgdl > 0 ? stats.avgdl : 1;
    return tokenized.map((tokens) => {
      const weights = new Map<string, number>();
      const dl = tokens.length;
      for (const [term, tf] of counts(tokens)) {
        const norm = tf + k1 * (1 - b + (b * dl) / avgdl);
        weights.set(term, (this.idf(term) * (tf * (k1 + 1))) / (norm > 0 ? norm : 1));
      }
      return this.project(weights);
    });
  }

  async embedQuery(document: string): Promise<number[]> {
    const weights = new Map<string, number>();
    for (const [term, qtf] of counts(this.tokenize(document))) weights.set(term, this.idf(term) * qtf);
    return this.project(weights);
  }

  private computeStats(tokenized: string[][]): CorpusStats {
    const df = new Map<string, number>();
    let total = 0;
    for (const tokens of tokenized) {
      total += tokens.length;
      for (const term of new Set(tokens)) df.set(term, (df.get(term) ?? 0) + 1);
    }
    return { n: tokenized.length, avgdl: tokenized.length > 0 ? total / tokenized.length : 0, df };
  }

  /** Signed hashing of sparse weights into a dense unit vector (zero vector when there are no weights). */
  private project(weights: Map<string, number>): number[] {
    const v = new Array<number>(this.dim).fill(0);
    for (const [term, w] of weights) {
      const f = this.feature(term);
      // Encoded as (bucket + 1) * sign to keep a single number per cached term.
      const bucket = Math.abs(f) - 1;
      v[bucket] += f > 0 ? w : -w;
    }
    let s = 0;
    for (const x of v) s += x * x;
    if (s > 0) {
      const n = Math.sqrt(s);
      for (let i = 0; i < v.length; i++) v[i] /= n;
    }
    return v;
  }

  private feature(term: string): number {
    let f = this.featureCache.get(term);
    if (f === undefined) {
      const h = fnv1a32(term);
      const bucket = h % this.dim;
      const sign = fmix32(h) & 1 ? -1 : 1;
      f = (bucket + 1) * sign;
      if (this.featureCache.size > 200_000) this.featureCache.clear();
      this.featureCache.set(term, f);
    }
    return f;
  }
}

function counts(tokens: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}
