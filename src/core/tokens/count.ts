/**
 * Token accounting over js-tiktoken's rank files (cl100k_base, o200k_base) with the encoder of bpe.ts (js-tiktoken's
 * tokens, a lighter table). Encoders are loaded once per encoding (the rank tables are large) and counts of
 * identical texts are memoized, because the Phase-1 pool and the full catalog are counted every turn with the same
 * text.
 */
import { createRequire } from "node:module";
import { BytePairEncoder, type RankFile } from "./bpe.js";

export type TokenEncoding = "cl100k_base" | "o200k_base";

export const DEFAULT_ENCODING: TokenEncoding = "cl100k_base";

/**
 * The rank file of each encoding, loaded on its first use rather than when this module is imported: each is a
 * megabytes-long string (cl100k_base 1.1 MB, o200k_base 2.3 MB, each held twice: the module's source and the
 * string), and most processes count in one encoding only.
 */
const RANK_MODULES: Record<TokenEncoding, string> = { cl100k_base: "js-tiktoken/ranks/cl100k_base", o200k_base: "js-tiktoken/ranks/o200k_base" };
const requireRanks = createRequire(import.meta.url);

function loadRanks(encoding: TokenEncoding): RankFile {
  const mod = requireRanks(RANK_MODULES[encoding]) as RankFile | { default: RankFile };
  return "default" in mod ? mod.default : mod;
}
const encoders = new Map<TokenEncoding, BytePairEncoder>();
const memo = new Map<string, number>();
const MEMO_LIMIT = 4096;

export function isTokenEncoding(value: string): value is TokenEncoding {
  return value === "cl100k_base" || value === "o200k_base";
}

export function getEncoder(encoding: TokenEncoding = DEFAULT_ENCODING): BytePairEncoder {
  let enc = encoders.get(encoding);
  if (!enc) {
    if (!isTokenEncoding(encoding)) throw new Error(`Unknown token encoding "${encoding}"; use cl100k_base or o200k_base.`);
    const ranks = loadRanks(encoding);
    enc = new BytePairEncoder(ranks);
    encoders.set(encoding, enc);
    pieceCaches.set(enc, { pattern: new RegExp(ranks.pat_str, "gu"), ids: new Map() });
  }
  return enc;
}

/**
 * Runs of letters, punctuation or spaces longer than MAX_RUN are encoded in slices of RUN_SLICE characters.
 * Byte-pair merging (bpe.ts, the same algorithm as js-tiktoken's) is worse than quadratic in the length of one pre-tokenized piece: a 16,000-letter
 * word takes 28 s to count, a 2 MB one hours. Slicing changes the count by at most a token per slice, and only for
 * such runs (a blob, a padded field); ordinary text, URLs included, is encoded in one piece as before.
 */
const MAX_RUN = 256;
/** Slice length of an over-long run: the cheapest per character (each encode call has a fixed cost of its own). */
const RUN_SLICE = 64;
// What the encodings' pre-tokenizers keep in one piece: runs of letters (with marks), of punctuation, of spaces.
const LONG_RUN = new RegExp(`[\\p{L}\\p{M}]{${MAX_RUN + 1},}|[^\\s\\p{L}\\p{N}]{${MAX_RUN + 1},}|\\s{${MAX_RUN + 1},}`, "gu");

/** Longest token of both encodings, in bytes (checked over their rank tables). */
const MAX_TOKEN_CHARS = 128;

/**
 * Token ids of the pre-tokenizer's pieces, kept per encoder. Tiktoken encodes each piece (a word with its leading
 * space, a number, a run of punctuation) on its own, so a piece has the same ids in every text; words repeat across
 * tool texts and schemas, and an encode (UTF-8 bytes, then byte-pair merging through string keys) costs far more per
 * call than a map lookup.
 */
const pieceCaches = new WeakMap<BytePairEncoder, { pattern: RegExp; ids: Map<string, number[]> }>();
/** Pieces longer than this are encoded each time (they seldom repeat). */
const PIECE_CACHE_MAX_CHARS = 64;
/** Pieces kept per encoding; the cache starts over when full (a few MB). */
const PIECE_CACHE_LIMIT = 65_536;

/**
 * Appends `enc.encode(text, [], [])` (special tokens as plain text) to `out`, piece by piece through the cache.
 * Appended one by one: a spread of a huge array would overflow the call stack.
 */
function encodePlain(enc: BytePairEncoder, text: string, out: number[]): number[] {
  // Every encoder here comes from getEncoder, which gives it its cache.
  const { pattern, ids } = pieceCaches.get(enc)!;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const piece = m[0];
    if (piece.length === 0) {
      pattern.lastIndex++;
      continue;
    }
    let got = ids.get(piece);
    if (got === undefined) {
      got = enc.encode(piece);
      if (piece.length <= PIECE_CACHE_MAX_CHARS) {
        if (ids.size >= PIECE_CACHE_LIMIT) ids.clear();
        ids.set(piece, got);
      }
    }
    for (let k = 0; k < got.length; k++) out.push(got[k]!);
  }
  return out;
}

/** Token ids of `text`, encoding over-long runs in slices (see MAX_RUN). */
function encodeIds(enc: BytePairEncoder, text: string): number[] {
  const ids: number[] = [];
  if (text.length <= MAX_RUN) return encodePlain(enc, text, ids);
  let at = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    const start = m.index as number;
    if (start > at) encodePlain(enc, text.slice(at, start), ids);
    const end = start + m[0].length;
    for (let i = start; i < end; ) {
      let j = Math.min(end, i + RUN_SLICE);
      // Never split a surrogate pair: each half would encode as U+FFFD.
      const code = text.charCodeAt(j - 1);
      if (j < end && code >= 0xd800 && code <= 0xdbff) j++;
      encodePlain(enc, text.slice(i, j), ids);
      i = j;
    }
    at = end;
  }
  if (at < text.length) encodePlain(enc, text.slice(at), ids);
  return ids;
}

/** Token ids of `text` as every count here sees it (special tokens as plain text, over-long runs in slices). */
export function encodeTokens(text: string, encoding: TokenEncoding = DEFAULT_ENCODING): number[] {
  return encodeIds(getEncoder(encoding), text);
}

/** Number of tokens of `text` in the given encoding (special tokens are counted as plain text). */
export function countTokens(text: string, encoding: TokenEncoding = DEFAULT_ENCODING): number {
  if (text.length === 0) return 0;
  // Only long texts are memoized: short ones are cheaper to encode than to hash into a key.
  const key = text.length > 256 ? `${encoding}\0${text}` : undefined;
  if (key !== undefined) {
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
  }
  const n = encodeIds(getEncoder(encoding), text).length;
  if (key !== undefined) {
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
    memo.set(key, n);
  }
  return n;
}

/** Cuts `text` to at most `maxTokens` tokens, on a word boundary when possible, with a trailing ellipsis. */
export function truncateToTokens(text: string, maxTokens: number, encoding: TokenEncoding = DEFAULT_ENCODING): string {
  const enc = getEncoder(encoding);
  // No token spans more than 128 bytes (so 128 UTF-16 units), so a prefix that long per token holds more than
  // maxTokens whole tokens before its last piece (at most MAX_RUN characters, the only one the cut can change):
  // the kept tokens are the text's own, and a text longer than the prefix cannot fit. A 2 MB text then costs what
  // a short one does.
  const span = (maxTokens + 1) * MAX_TOKEN_CHARS + 2 * MAX_RUN;
  const prefix = text.length > span ? text.slice(0, span) : text;
  const ids = encodeIds(enc, prefix);
  if (ids.length <= maxTokens && prefix === text) return text;
  if (maxTokens <= 0) return "";
  // Leave one token for the ellipsis.
  // A token boundary can fall inside a character; drop the partial character (decoded as U+FFFD).
  let cut = enc.decode(ids.slice(0, Math.max(0, maxTokens - 1))).replace(/\uFFFD+$/u, "");
  const lastSpace = cut.lastIndexOf(" ");
  if (lastSpace > cut.length * 0.6) cut = cut.slice(0, lastSpace);
  cut = cut.replace(/[\s,;:.(\-]+$/u, "");
  let out = `${cut}…`;
  while (out.length > 1 && encodeIds(enc, out).length > maxTokens) {
    cut = cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : cut.length - 1);
    out = `${cut}…`;
  }
  return out;
}
