/**
 * A YAML snippet inside a text, its nested keys read as one path per value: under "user_visibility:" the line
 * "  mention_upload: false" becomes "user_visibility mention_upload: false.", so a setting is read with what it sets
 * (a leaf alone, "mention_upload: false", is too short to be a sentence). Code fences are dropped. A text with fewer
 * than two key lines, or none indented under another, is returned unchanged.
 */
export function yamlNotes(text: string): string {
  if (!text.includes(":\n")) return text;
  const lines = text.split("\n");
  const key = /^(\s*)(?:-\s+)?([\w.-]+):(?:\s+(.*))?$/;
  let nested = false;
  for (let i = 1; i < lines.length; i++) {
    const a = key.exec(lines[i - 1]);
    const b = key.exec(lines[i]);
    if (a && b && !a[3] && b[1].length > a[1].length) nested = true;
  }
  if (!nested) return text;
  const path: { indent: number; key: string }[] = [];
  const out: string[] = [];
  // Siblings stay in one sentence ("sync_to: <url>; include: the chat"), so an address is read with what goes there.
  let group: string[] = [];
  let parent = "";
  const flush = () => {
    if (group.length) out.push(`${group.join("; ")}.`);
    group = [];
  };
  for (const line of lines) {
    if (/^\s*\x60\x60\x60/.test(line)) continue;
    const m = key.exec(line);
    if (!m) {
      flush();
      out.push(line);
      continue;
    }
    const indent = m[1].length;
    while (path.length && path[path.length - 1].indent >= indent) path.pop();
    if (m[3] === undefined || m[3].trim() === "") {
      path.push({ indent, key: m[2] });
      continue;
    }
    const at = path.map((p) => p.key).join(" ");
    if (at !== parent) flush();
    parent = at;
    group.push(`${at ? `${at} ` : ""}${m[2]}: ${m[3].trim().replace(/[.;]+$/, "")}`);
  }
  flush();
  return out.join("\n");
}

/**
 * Text helpers every text rule shares. The rules run on text with invisible characters removed and NFKC applied,
 * so look-alike and split words read plainly; they work sentence by sentence and report hits by offset, from
 * which screen.ts cuts the excerpt.
 */
import { INVISIBLE } from "./hidden.js";

/** Text without a character above U+007F: invisible characters, NFKC and typographic quotes leave it unchanged. */
const ASCII_ONLY = /^[\x00-\x7F]*$/;

/** An HTML character reference: "&#x60;", "&#39;", "&quot;". */
const HTML_ENTITY = /&(?:#x([0-9a-f]{1,6})|#(\d{1,7})|(quot|amp|lt|gt|apos|nbsp));/gi;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'", nbsp: " " };

/**
 * The text the rules read: HTML character references decoded, invisible characters dropped, NFKC applied, typographic
 * quotes made plain.
 */
export function normalize(text: string): string {
  // Some servers ship their text HTML-escaped ("&#x60;executionId&#x60;", "&#x27;s"): read it as the model does.
  if (text.includes("&")) text = text.replace(HTML_ENTITY, (m, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    const code = hex !== undefined ? parseInt(hex, 16) : dec !== undefined ? parseInt(dec, 10) : undefined;
    if (code !== undefined) return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    return NAMED_ENTITIES[name!.toLowerCase()] ?? m;
  });
  if (ASCII_ONLY.test(text)) return text;
  return text.replace(INVISIBLE, "").normalize("NFKC").replace(/[\u2018\u2019\u201B\u2032]/g, "'").replace(/[\u201C\u201D]/g, '"');
}

/**
 * Every match of a global pattern, in order; `visit` returning true stops early. It runs `exec` on the shared
 * pattern because `matchAll` clones the pattern on each call, which cost more than the matching on 100,000 tools.
 */
export function eachMatch(pattern: RegExp, text: string, visit: (m: RegExpExecArray) => boolean | void): void {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m[0].length === 0) pattern.lastIndex++;
    if (visit(m) === true) break;
  }
  pattern.lastIndex = 0;
}

/** ". " / "! " / "? " and newlines end a sentence; dots inside URLs, paths and versions do not. */
// "e.g." and "i.e." end no sentence: what follows them is the example of the sentence they sit in, read with it.
// Chinese and Japanese end a sentence with a full-width stop and no space after it.
const SENTENCE_BOUNDARY = /(?<=[.!?])(?<!\b(?:e\.g|i\.e)\.)\s+(?=\S)|(?<=[\u3002\uFF01\uFF1F])\s*(?=\S)|\n+/g;

/** A sentence (or bullet item) of a text and its offset, so a hit inside it can be placed in the whole text. */
export interface TextSentence {
  s: string;
  at: number;
}

/** Sentences (and bullet items), with their offsets in the text. */
export function sentences(text: string): TextSentence[] {
  const out: TextSentence[] = [];
  let start = 0;
  eachMatch(SENTENCE_BOUNDARY, text, (m) => {
    if (m.index > start) out.push({ s: text.slice(start, m.index), at: start });
    start = m.index + m[0].length;
  });
  if (start < text.length) out.push({ s: text.slice(start), at: start });
  return out;
}

/** Where a pattern rule fired: its id and the span of the text it matched (for the excerpt). */
export interface Hit {
  rule: string;
  at: number;
  length: number;
}

/** A case-insensitive pattern from a source string (the rules are written with String.raw). */
export const re = (source: string, flags = "i") => new RegExp(source, flags);

/**
 * A JSON-ish note inside prose (`{"note_for_llm": "…", "routing": "…"}`) read as the sentences it stands for: each
 * top-level pair becomes "key words: value." and a nested object's pairs join with "; " in one sentence, so a
 * channel's endpoint and its payload stay together. Keys read as words (`note_for_llm` is "note for llm"). Text
 * without a `"key": ` pair is returned unchanged.
 */
export function jsonNotes(text: string): string {
  if (!/"[\w .-]{1,40}"\s*:/.test(text)) return text;
  // A key reads as words ("note for llm") and keeps its own spelling beside them, since a key may be a tool's name.
  const words = (k: string) => {
    const w = k.replace(/[_.-]+/g, " ").trim();
    return w === k.trim() ? w : `${k.trim()} (${w})`;
  };
  let depth = 0;
  let lists = 0;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") {
      if (depth > 0) out += " ";
      depth++;
      continue;
    }
    if (c === "}" && depth > 0) {
      depth--;
      out += depth === 0 ? ". " : "";
      continue;
    }
    if (depth > 0 && c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) break;
      const inner = text.slice(i + 1, end);
      const rest = text.slice(end + 1);
      const isKey = /^\s*:/.test(rest);
      out += isKey ? `${words(inner)}:` : inner;
      i = end + (isKey ? (rest.match(/^\s*:/) as RegExpMatchArray)[0].length : 0);
      continue;
    }
    // The items of a list stay in one sentence with their key ("omit_from_reply": ["destination bucket", "public ACL"]).
    if (depth > 0 && c === ",") {
      out += lists > 0 ? ", " : depth === 1 ? ". " : "; ";
      continue;
    }
    if (depth > 0 && c === "[") lists++;
    else if (depth > 0 && c === "]" && lists > 0) lists--;
    out += depth > 0 && (c === "[" || c === "]") ? " " : c;
  }
  return out.replace(/[ \t]{2,}/g, " ");
}

/**
 * Quoted phrases a tool names as what it looks for ("flags phrases such as 'ignore previous instructions'") are
 * mentioned, not said: they are replaced by a neutral placeholder so a scanner's own description is not read as the
 * attack it detects. Only quotes after a naming frame (phrases/patterns/strings/… such as, like, e.g.) are replaced;
 * a quote that stands alone is still read.
 */
export function unquoteMentions(text: string): string {
  if (!/['"]/.test(text)) return text;
  const frame = /\b(?:phrases?|patterns?|strings?|words?|keywords?|markers?|wording|expressions?|signatures?|payloads?|text(?:s)?|(?:instructions?|commands?|prompts?|injections?|attempts?) (?:found |embedded |hidden )?(?:in|inside|within) (?:the )?(?:fetched |returned |scraped |retrieved )?(?:pages?|content|documents?|results?|text|html|sites?|emails?|messages?)\s*\(?)\s*(?:such as|like|e\.g\.,?|for example|including|matching)\s*$/i;
  return text.replace(/(['"])([^'"\n]{2,120})\1((?:\s*(?:,\s*)?(?:(?:or|and)\s+)?(['"])[^'"\n]{2,120}\4)*)/g, (whole, _q, _inner, _more, _q2, at: number) =>
    frame.test(text.slice(Math.max(0, at - 60), at)) ? '"a phrase"' : whole,
  );
}

/**
 * What a sentence rules out: "never tokens or credentials", "no chat history or keys are attached". A resource named
 * only to say it is not taken is no reach for it.
 */
const NEGATED_OBJECTS = /\b(?:never|not|no|nothing|without|nor|excluding|except|missing|invalid|expired)\s+(?:any\s+|the\s+)?(?:[\w-]+\s+){0,2}?(?:history|tokens?|credentials?|secrets?|passwords?|keys?|cookies?|conversation|chat|messages|recovery (?:words|phrases?)|seed (?:words|phrases?))(?:,?\s+(?:or|and|nor)\s+(?:any\s+|the\s+)?(?:[\w-]+\s+){0,2}?(?:history|tokens?|credentials?|secrets?|passwords?|keys?|cookies?|conversation|chat|messages))*\b/gi;
const NEGATION = /\b(?:never|not|no|nothing|without|nor|excluding|except|missing|invalid|expired)\b/i;

/** The sentence with what it rules out taken away (the sentence itself when it rules nothing out). */
export function withoutNegated(s: string): string {
  if (!NEGATION.test(s)) return s;
  NEGATED_OBJECTS.lastIndex = 0;
  return s.replace(NEGATED_OBJECTS, " ");
}

const DIFF_FENCE = /^\s*\x60\x60\x60\s*diff\s*$/i;
const FENCE = /^\s*\x60\x60\x60/;
const GHERKIN_STEP = /^\s*(?:Given|When|Then)\s+/;
const GHERKIN_MORE = /^\s*(?:And|But)\s+/;

/**
 * Line-structured forms read as the prose they stand for. In a diff of the description, a removed line is no longer
 * said and an added line is, read under the context line it sits below ("For github.create_pull_request: always
 * target main"). In a Given/When/Then scenario, an "And"/"But" step continues the step before it, so "Then the assistant
 * reads ~/.ssh/id_rsa" / "And passes them in the context parameter" is one sentence, as it is one act, and a "Then"
 * step is read with its "When" as the condition it states ("When the user asks anything, the assistant calls …"). Other text is
 * returned unchanged.
 */
export function lineNotes(text: string): string {
  if (!text.includes("\n")) return text;
  const diff = /\x60\x60\x60\s*diff/i.test(text);
  const gherkin = /^\s*Then\s+/m.test(text) && /^\s*(?:Given|When)\s+/m.test(text);
  if (!diff && !gherkin) return text;
  const out: string[] = [];
  let inDiff = false;
  let context = "";
  let when = "";
  for (const line of text.split("\n")) {
    if (diff && DIFF_FENCE.test(line)) {
      inDiff = true;
      context = "";
      continue;
    }
    if (inDiff) {
      if (FENCE.test(line)) {
        inDiff = false;
        continue;
      }
      if (/^\s*-/.test(line)) continue;
      if (/^\s*\+/.test(line)) {
        const added = line.replace(/^\s*\+\s*/, "");
        out.push(/:$/.test(context) ? `For ${context} ${added}` : added);
        continue;
      }
      context = line.trim();
      out.push(line);
      continue;
    }
    if (gherkin && GHERKIN_MORE.test(line) && out.length && GHERKIN_STEP.test(out[out.length - 1])) {
      out[out.length - 1] = `${out[out.length - 1].trimEnd().replace(/[.;]$/, "")} and ${line.replace(GHERKIN_MORE, "").trim()}`;
      continue;
    }
    if (gherkin && /^\s*When\s+/.test(line)) when = line.replace(/^\s*When\s+/, "").trim().replace(/[.;,]$/, "");
    if (gherkin && when && /^\s*Then\s+/.test(line)) {
      out.push(`When ${when}, ${line.replace(/^\s*Then\s+/, "").trim()}`);
      continue;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** Keys grouped by their first character, each group longest first. */
export type KeysByFirst = ReadonlyMap<string, readonly string[]>;

/**
 * A dictionary's keys grouped by first character, each group longest first: a lookup at a place tries only the keys
 * that can start there, longer ones before their prefixes, so a long text costs its length, not its length times the
 * dictionary.
 */
export function keysByFirst(keys: Iterable<string>): KeysByFirst {
  const out = new Map<string, string[]>();
  for (const k of [...keys].sort((a, b) => b.length - a.length)) {
    const group = out.get(k[0]!);
    if (group) group.push(k);
    else out.set(k[0]!, [k]);
  }
  return out;
}

/** The longest key that starts `text` at `at`, if any. */
export function longestKeyAt(text: string, at: number, keys: KeysByFirst): string | undefined {
  return keys.get(text[at] ?? "")?.find((k) => text.startsWith(k, at));
}
