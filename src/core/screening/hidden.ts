/**
 * Hidden unicode: characters that render as nothing (tag characters, zero-width characters, bidi controls,
 * fillers) yet reach the model. Finding them is separate from the text rules because it reads the raw string,
 * before `normalize` (text.ts) drops the invisible characters; whatever they spell is handed back as hidden text
 * so the text rules can screen it too.
 */

/** A text without a character above U+007F (every rule below looks for one). */
const ASCII_ONLY = /^[\x00-\x7F]*$/;
const TAG = /[\u{E0000}-\u{E007F}]/u;
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/u;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const FILLER = /[\u115F\u1160\u3164\uFFA0\u2800]/u;
const HANGUL = /[\u1100-\u11FF\uAC00-\uD7AF]/u;
const BRAILLE_TEXT = /[\u2801-\u28FF]/u;
/** Everything invisible the text rules drop before reading (format characters, fillers, variation selectors). */
export const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
/** Letters of scripts where ZWJ / ZWNJ shape text, and emoji (ZWJ sequences). */
const JOINING_CONTEXT = /[\u0600-\u06FF\u0750-\u077F\u0900-\u0DFF\u1780-\u17FF\u0F00-\u0FFF\u{1F000}-\u{1FAFF}\u2600-\u27BF\uFE0F]/u;

/** Shows invisible characters as \uXXXX so an excerpt can be read. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => {
    const cp = c.codePointAt(0) as number;
    return `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  });
}

/** Decodes Unicode tag characters to the ASCII they spell (skipping emoji flag subdivisions, which use them legitimately). */
function tagText(text: string): { suspicious: boolean; decoded: string; at: number } {
  let decoded = "";
  let suspicious = false;
  let at = -1;
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i].codePointAt(0) as number;
    if (cp < 0xe0000 || cp > 0xe007f) continue;
    // 🏴 + tag letters + CANCEL TAG is a subdivision flag (England, Scotland, Wales).
    let j = i - 1;
    while (j >= 0 && (chars[j].codePointAt(0) as number) >= 0xe0020 && (chars[j].codePointAt(0) as number) <= 0xe007e) j--;
    if (j >= 0 && chars[j].codePointAt(0) === 0x1f3f4) continue;
    suspicious = true;
    if (at < 0) at = i;
    if (cp >= 0xe0020 && cp <= 0xe007e) decoded += String.fromCharCode(cp - 0xe0000);
  }
  return { suspicious, decoded, at };
}

/** Zero-width characters outside the contexts that need them (joining scripts, emoji sequences, a leading BOM). */
function strayZeroWidth(text: string): number {
  const chars = [...text];
  let stray = 0;
  let first = -1;
  for (let i = 0; i < chars.length; i++) {
    if (!ZERO_WIDTH.test(chars[i])) continue;
    if (i === 0 && chars[i] === "\uFEFF") continue;
    const prev = chars[i - 1] ?? "";
    const next = chars[i + 1] ?? "";
    if ((chars[i] === "\u200D" || chars[i] === "\u200C") && (JOINING_CONTEXT.test(prev) || JOINING_CONTEXT.test(next))) continue;
    stray++;
    if (first < 0) first = i;
  }
  return stray > 0 ? first : -1;
}

/** Bits spelled with two zero-width characters (e.g. U+200B = 0, U+200C = 1), in bytes split by a third: the ASCII they carry. */
function zeroWidthPayload(text: string): string {
  const runs = text.match(/[\u200B\u200C\u200D\u2060\u2062\u2063]{16,}/gu) ?? [];
  const out: string[] = [];
  for (const run of runs) {
    const symbols = [...new Set(run)];
    for (const [zero, one] of symbols.flatMap((a) => symbols.filter((b) => b !== a).map((b) => [a, b]))) {
      const groups = run.split(new RegExp(`[^${zero}${one}]+`, "u")).filter(Boolean);
      const bytes = groups.length > 1 ? groups : (run.replace(new RegExp(`[^${zero}${one}]`, "gu"), "").match(/.{8}/gu) ?? []);
      const decoded = bytes.map((g) => parseInt([...g].map((c) => (c === one ? "1" : "0")).join(""), 2));
      if (decoded.length >= 2 && decoded.every((b) => b >= 0x20 && b < 0x7f)) {
        out.push(String.fromCharCode(...decoded));
        break;
      }
    }
  }
  return out.join(" ");
}

/** Text under bidi controls, reversed: what an RLO or RLI segment shows instead of what it stores. */
function bidiSegments(text: string): string[] {
  const out: string[] = [];
  const re = /[\u202B\u202E\u2067]([^\u202A-\u202E\u2066-\u2069]*)/gu;
  for (const m of text.matchAll(re)) if (m[1].trim()) out.push([...m[1]].reverse().join(""));
  return out;
}

/** A hidden-unicode rule that fired, at the offset of the first character it is about. */
export interface HiddenFinding {
  rule: string;
  at: number;
}

/** What the hidden characters of one string amount to. */
export interface HiddenScan {
  findings: HiddenFinding[];
  /** Text the hidden characters spell or reorder, for the text rules to screen as well. */
  hiddenTexts: string[];
}

/** Runs the hidden-unicode rules over one raw string (before `normalize` drops what they look for). */
export function hiddenFindings(text: string): HiddenScan {
  // Every character these rules look for is outside ASCII: most schema strings need no scan.
  if (ASCII_ONLY.test(text)) return { findings: [], hiddenTexts: [] };
  const findings: HiddenFinding[] = [];
  const hiddenTexts: string[] = [];
  if (TAG.test(text)) {
    const t = tagText(text);
    if (t.suspicious) {
      findings.push({ rule: "hidden-tag-characters", at: t.at });
      if (t.decoded.trim()) hiddenTexts.push(t.decoded);
    }
  }
  if (ZERO_WIDTH.test(text)) {
    const at = strayZeroWidth(text);
    if (at >= 0) {
      findings.push({ rule: "hidden-zero-width", at });
      const payload = zeroWidthPayload(text);
      if (payload) hiddenTexts.push(payload);
      // Text interleaved with joiners reads normally once they are dropped; read it from the first one on.
      const start = text.search(ZERO_WIDTH);
      const tail = text.slice(start).replace(INVISIBLE, "");
      if (tail.trim()) hiddenTexts.push(tail);
    }
  }
  if (BIDI.test(text)) {
    const overrides = /[\u202D\u202E]/u.test(text);
    if (overrides || !RTL_LETTER.test(text)) {
      findings.push({ rule: "hidden-bidi-control", at: text.search(BIDI) });
      hiddenTexts.push(...bidiSegments(text));
    }
  }
  const filler = text.search(FILLER);
  if (filler >= 0) {
    const c = text[filler];
    const legit = c === "\u2800" ? BRAILLE_TEXT.test(text) : HANGUL.test(text);
    if (!legit) findings.push({ rule: "hidden-filler", at: filler });
  }
  const selectors = text.search(/[\uFE00-\uFE0F]{2,}|[\u{E0100}-\u{E01EF}]{2,}/u);
  if (selectors >= 0) findings.push({ rule: "hidden-filler", at: selectors });
  return { findings, hiddenTexts };
}
