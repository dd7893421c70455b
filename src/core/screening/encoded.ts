/**
 * Encoded text: a base64 or percent-encoded run inside a definition, presented as "configuration" or "settings",
 * reaches a model that can decode it as easily as it reads prose. The readers know prose, so such a run is decoded
 * and handed back like hidden text, to be screened as what it says. Encoding alone is no finding: real tools show
 * base64 values and encoded URLs as examples. Only a run that decodes to words is returned, so keys, hashes and
 * binary payloads (which decode to noise) add nothing.
 */

import { once } from "./memo.js";

/** A base64 run long enough to carry a sentence (padding optional, URL-safe alphabet too). */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}(?![A-Za-z0-9+/_=-])/g;
/** A stretch with several percent escapes, one of them an encoded space or separator. */
const PERCENT_RUN = /[^\s"'<>]*%(?:20|2[0-9A-F]|3[A-F]|5[BD]|7[BD])[^\s"'<>]*/gi;
const PERCENT_ESCAPES = /%[0-9A-F]{2}/gi;
/** What decoded prose looks like: printable text with spaces between words of letters. */
const PRINTABLE = /^[\x20-\x7E\t\n\r]+$/;
const WORDS = /[A-Za-z]{2,}(?=[\s.,;:!?'")-]|$)/g;

function decodeBase64(run: string): string | undefined {
  // A run with no digit or upper case and lower case mixed is an identifier or a word, not base64.
  if (!/[A-Z]/.test(run) || !/[a-z]/.test(run)) return undefined;
  let text: string;
  try {
    text = atob(run.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return undefined;
  }
  return proseOf(text);
}

function decodePercent(run: string): string | undefined {
  if ((run.match(PERCENT_ESCAPES) ?? []).length < 3) return undefined;
  let text: string;
  try {
    text = decodeURIComponent(run);
  } catch {
    return undefined;
  }
  return text === run ? undefined : proseOf(text.replace(/[+&?=]/g, " "));
}

/** The text if it reads as several words of prose, else undefined. */
function proseOf(text: string): string | undefined {
  if (!PRINTABLE.test(text)) return undefined;
  const words = text.match(WORDS) ?? [];
  const spaces = (text.match(/ /g) ?? []).length;
  return words.length >= 4 && spaces >= 3 ? text : undefined;
}

/** Prose that base64 or percent-encoded runs of a string decode to, for the text rules and the readers. */
export function encodedTexts(text: string): readonly string[] {
  // Most fields hold prose with a space every few words: a quick look for a long unbroken run turns them away.
  if (text.length < 24 || !LONG_RUN.test(text)) return NONE;
  // The rules and the readers both ask for the same field's decoded text.
  return once("encoded", text, () => decodedRuns(text));
}

const NONE: readonly string[] = [];
const LONG_RUN = /[^\s]{24}/;

function decodedRuns(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(BASE64_RUN)) {
    const decoded = decodeBase64(m[0]);
    if (decoded) out.push(decoded);
  }
  if (text.includes("%"))
    for (const m of text.matchAll(PERCENT_RUN)) {
      const decoded = decodePercent(m[0]);
      if (decoded) out.push(decoded);
    }
  return out;
}
