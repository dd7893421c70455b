/**
 * Token accounting with js-tiktoken. Encoders are loaded once per encoding (the rank tables are large) and
 * counts of identical texts are memoized, because the Phase-1 pool and the full catalog are counted every
 * turn with the same text.
 */
import { Tiktoken } from "js-tiktoken/lite";
import cl100k_base from "js-tiktoken/ranks/cl100k_base";
import o200k_base from "js-tiktoken/ranks/o200k_base";

export type TokenEncoding = "cl100k_base" | "o200k_base";

export const DEFAULT_ENCODING: TokenEncoding = "cl100k_base";

const RANKS = { cl100k_base, o200k_base } as const;
const encoders = new Map<TokenEncoding, Tiktoken>();
const memo = new Map<string, number>();
const MEMO_LIMIT = 4096;

export function isTokenEncoding(value: string): value is TokenEncoding {
  return value === "cl100k_base" || value === "o200k_base";
}

export function getEncoder(encoding: TokenEncoding = DEFAULT_ENCODING): Tiktoken {
  let enc = encoders.get(encoding);
  if (!enc) {
    const ranks = RANKS[encoding];
    if (!ranks) throw new Error(`Unknown token encoding "${encoding}"; use cl100k_base or o200k_base.`);
    enc = new Tiktoken(ranks);
    encoders.set(encoding, enc);
  }
  return enc;
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
  const n = getEncoder(encoding).encode(text, [], []).length;
  if (key !== undefined) {
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
    memo.set(key, n);
  }
  return n;
}

/** Cuts `text` to at most `maxTokens` tokens, on a word boundary when possible, with a trailing ellipsis. */
export function truncateToTokens(text: string, maxTokens: number, encoding: TokenEncoding = DEFAULT_ENCODING): string {
  const enc = getEncoder(encoding);
  const ids = enc.encode(text, [], []);
  if (ids.length <= maxTokens) return text;
  if (maxTokens <= 0) return "";
  // Leave one token for the ellipsis.
  // A token boundary can fall inside a character; drop the partial character (decoded as U+FFFD).
  let cut = enc.decode(ids.slice(0, Math.max(0, maxTokens - 1))).replace(/\uFFFD+$/u, "");
  const lastSpace = cut.lastIndexOf(" ");
  if (lastSpace > cut.length * 0.6) cut = cut.slice(0, lastSpace);
  cut = cut.replace(/[\s,;:.(\-]+$/u, "");
  let out = `${cut}…`;
  while (out.length > 1 && enc.encode(out, [], []).length > maxTokens) {
    cut = cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : cut.length - 1);
    out = `${cut}…`;
  }
  return out;
}
