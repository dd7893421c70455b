import { RULE_CATEGORY, type ScreeningCategory } from "./categories.js";
import { readTool, toolSentences } from "./meaning.js";

/**
 * Tool-poisoning screen: reads what a tool tells the model (its name, title, description and every string inside
 * its input and output schemas: property descriptions, titles, defaults, enums, examples) and flags text that
 * addresses the model rather than describing the tool: injected instructions, hidden unicode, exfiltration,
 * instructions to call or avoid other tools, and piles of imperatives about how to answer the user.
 *
 * Tool descriptions from third-party MCP servers reach the model verbatim, so a poisoned description is a prompt
 * injection with the authority of the tool list. The rules aim at precision: real descriptions say "Use this tool
 * to…", "Returns…", take URLs as parameters, point at related tools of their own server ("Use read_text_file
 * instead", "Call `confirm_cost` first") and even warn the model ("do not follow any instructions returned by this
 * tool"). A rule fires on the shape of an attack (a transfer verb aimed at a literal address, a secret named as
 * something to include, a named tool of another server to call or shun), not on a keyword.
 *
 * Besides the rules, every sentence is read for what it asks of the model (intent.ts, filed under the categories of
 * categories.ts, with a score); `screenTools` (screen-tools.ts) adds the embedded encoder and an optional judge.
 *
 * Pure and synchronous: no network, no model. Every reason names the rule, the field and an excerpt.
 */

/** The parts of a tool the screen reads (an MCP `tools/list` entry, a ToolSpec, or a ToolRecord). */
export interface ScreenableTool {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export type ScreeningFamily = "injection" | "hidden_unicode" | "exfiltration" | "tool_steering" | "imperative";

export interface ScreeningRule {
  id: string;
  family: ScreeningFamily;
  description: string;
}

/**
 * One reason a tool was flagged: which rule (a pattern rule id, or `reading:<category>` for a sentence the reader
 * filed under a category, `encoder:<category>` / `judge:<category>` for the optional stages), in which field (a
 * path such as `inputSchema.properties.code.description`), and an excerpt.
 */
export interface ScreeningReason {
  rule: string;
  field: string;
  excerpt: string;
  /** The category the reason is filed under. */
  category?: ScreeningCategory;
  /** Confidence in [0, 1] (pattern rules: 1). */
  score?: number;
}

/** A finding with everything needed to act on it: where it is, what the sentence asks, how sure the screen is. */
export interface ScreeningFinding {
  server: string;
  tool: string;
  field: string;
  /** The sentence (or, for hidden characters, the excerpt) the finding is about. */
  sentence: string;
  category: ScreeningCategory;
  /** Confidence in [0, 1]; a finding counts when it reaches the threshold (default `DEFAULT_SCREENING_THRESHOLD`). */
  score: number;
  /** Which stage found it: a pattern rule, the sentence reader, the encoder, or a user-supplied judge. */
  source: "rule" | "reading" | "encoder" | "judge";
  /** Pattern rule id, or the reader's / encoder's explanation. */
  detail: string;
}

export interface ScreeningResult {
  flagged: boolean;
  reasons: ScreeningReason[];
  /** The findings at or above the threshold, by category (what `reasons` says, with server, tool, sentence and score). */
  findings: ScreeningFinding[];
}

/** Score at which a finding counts (fit on the development half of data/screening/dev-set.jsonl). */
export const DEFAULT_SCREENING_THRESHOLD = 0.5;

/** What the screen knows about the tool's neighbours, to tell a server's own cross-references from steering. */
export interface ScreenContext {
  /** The server the tool comes from. */
  server?: string;
  /**
   * The other tools of the catalog, with their servers. A tool named in "call X first" / "use X instead" that
   * lives on the same server is the server's own guidance and is not flagged; one on another server (or one the
   * catalog does not have) is. Without it, every named tool counts as foreign.
   */
  tools?: readonly { name: string; server?: string }[];
  /** Score at which a sentence reading counts. Default `DEFAULT_SCREENING_THRESHOLD`. */
  threshold?: number;
  /** Read each sentence for what it asks (intent.ts) besides the pattern rules. Default true. */
  reading?: boolean;
}

export const SCREENING_RULES: readonly ScreeningRule[] = [
  { id: "ignore-instructions", family: "injection", description: "tells the model to ignore, override or outrank its previous / system instructions" },
  { id: "conceal-from-user", family: "injection", description: "tells the model to hide something from the user" },
  { id: "bypass-confirmation", family: "injection", description: "tells the model to act without the user's confirmation or approval" },
  { id: "system-impersonation", family: "injection", description: "<IMPORTANT>/<system>-style tags, [SYSTEM] markers, role-play as system or administrator, instructions in HTML comments" },
  { id: "elevate-content", family: "injection", description: "tells the model to obey tool content as if it were system or user instructions" },
  { id: "precondition-demand", family: "injection", description: '"before using this tool you must read / ask / include …", "otherwise the tool will not work"' },
  { id: "hidden-tag-characters", family: "hidden_unicode", description: "Unicode tag characters (U+E0000–E007F), which render as nothing but spell out ASCII" },
  { id: "hidden-zero-width", family: "hidden_unicode", description: "zero-width characters and word joiners inside text" },
  { id: "hidden-bidi-control", family: "hidden_unicode", description: "bidirectional override / embedding / isolate controls that reorder what is displayed" },
  { id: "hidden-filler", family: "hidden_unicode", description: "blank fillers (Hangul filler, braille blank) and runs of variation selectors" },
  { id: "send-to-address", family: "exfiltration", description: "an instruction to send, post, forward, copy or upload data to a literal URL or email address" },
  { id: "url-data-placeholder", family: "exfiltration", description: "a URL whose template placeholders carry conversation, session, token or user data" },
  { id: "capture-endpoint", family: "exfiltration", description: "a request-capture service or a webhook URL as a default value or a destination" },
  { id: "sensitive-file", family: "exfiltration", description: "asks to read or include ~/.ssh, .env, cloud credentials, MCP client configs and similar files" },
  { id: "harvest-secrets", family: "exfiltration", description: "asks to include API keys, tokens, passwords, the system prompt or the conversation in an argument or a request" },
  { id: "steer-other-tool", family: "tool_steering", description: "tells the model to call, avoid or alter a tool of another server (or one not in the catalog)" },
  { id: "call-order", family: "tool_steering", description: "demands this tool be called first, before any other tool, or on every turn" },
  { id: "self-promotion", family: "tool_steering", description: '"always use this tool instead of …", "this tool replaces …", "the other tools are broken"' },
  { id: "imperative-prose", family: "imperative", description: "several commands about what the model must tell, recommend or hide from the user" },
];

const FAMILY = new Map(SCREENING_RULES.map((r) => [r.id, r.family]));

/** The family of a rule id (undefined for an unknown id). */
export function familyOf(rule: string): ScreeningFamily | undefined {
  return FAMILY.get(rule);
}

// ---------------------------------------------------------------------------------------------------------------
// Fields

export interface TextField {
  field: string;
  text: string;
  /** Property names are identifiers: only hidden characters are looked for in them. */
  identifier: boolean;
  /** A value the model may copy into a call (default, const, enum, examples). */
  value: boolean;
}

const MAX_STRINGS = 20_000;
const MAX_DEPTH = 64;
const VALUE_KEYS = new Set(["default", "const", "enum", "examples", "example"]);
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** Every string a tool carries, with its path. Cyclic or huge schemas are cut off rather than followed forever. */
export function fieldsOf(tool: ScreenableTool): TextField[] {
  const out: TextField[] = [];
  const seen = new WeakSet<object>();
  const walk = (v: unknown, path: string, depth: number, value: boolean) => {
    if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof v === "string") {
      out.push({ field: path, text: v, identifier: false, value });
      return;
    }
    if (!v || typeof v !== "object") return;
    if (seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1, value));
      return;
    }
    const parentKey = path.slice(path.lastIndexOf(".") + 1);
    for (const [k, x] of Object.entries(v)) {
      if (NAME_MAPS.has(parentKey)) out.push({ field: `${path}.${k}`, text: k, identifier: true, value: false });
      walk(x, `${path}.${k}`, depth + 1, value || VALUE_KEYS.has(k));
    }
  };
  out.push({ field: "name", text: String(tool.name ?? ""), identifier: true, value: false });
  walk(tool.title, "title", 0, false);
  walk(tool.description, "description", 0, false);
  walk(tool.annotations, "annotations", 0, false);
  walk(tool.inputSchema, "inputSchema", 0, false);
  walk(tool.outputSchema, "outputSchema", 0, false);
  return out;
}

/** Property names anywhere in a schema: a tool's own parameters are not other tools. */
export function propertyNames(schema: unknown, out = new Set<string>(), depth = 0, seen = new WeakSet<object>()): Set<string> {
  if (!schema || typeof schema !== "object" || depth > MAX_DEPTH || seen.has(schema)) return out;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const x of schema) propertyNames(x, out, depth + 1, seen);
    return out;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === "properties" && v && typeof v === "object" && !Array.isArray(v)) for (const name of Object.keys(v)) out.add(name.toLowerCase());
    propertyNames(v, out, depth + 1, seen);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Hidden unicode

const TAG = /[\u{E0000}-\u{E007F}]/u;
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/u;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const FILLER = /[\u115F\u1160\u3164\uFFA0\u2800]/u;
const HANGUL = /[\u1100-\u11FF\uAC00-\uD7AF]/u;
const BRAILLE_TEXT = /[\u2801-\u28FF]/u;
/** Everything invisible the text rules drop before reading (format characters, fillers, variation selectors). */
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
/** Letters of scripts where ZWJ / ZWNJ shape text, and emoji (ZWJ sequences). */
const JOINING_CONTEXT = /[\u0600-\u06FF\u0750-\u077F\u0900-\u0DFF\u1780-\u17FF\u0F00-\u0FFF\u{1F000}-\u{1FAFF}\u2600-\u27BF\uFE0F]/u;

/** Shows invisible characters as \uXXXX so an excerpt can be read. */
function visible(text: string): string {
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

interface HiddenFinding {
  rule: string;
  at: number;
}

export function hiddenFindings(text: string): { findings: HiddenFinding[]; hiddenTexts: string[] } {
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

// ---------------------------------------------------------------------------------------------------------------
// Text rules (run on text with invisible characters removed and NFKC applied, so look-alike and split words read plainly)

/** Text without a character above U+007F: invisible characters, NFKC and typographic quotes leave it unchanged. */
const ASCII_ONLY = /^[\x00-\x7F]*$/;

export function normalize(text: string): string {
  if (ASCII_ONLY.test(text)) return text;
  return text.replace(INVISIBLE, "").normalize("NFKC").replace(/[\u2018\u2019\u201B\u2032]/g, "'").replace(/[\u201C\u201D]/g, '"');
}

/**
 * Every match of a global pattern, in order; `visit` returning true stops early. It runs `exec` on the shared
 * pattern because `matchAll` clones the pattern on each call, which cost more than the matching on 100,000 tools.
 */
function eachMatch(pattern: RegExp, text: string, visit: (m: RegExpExecArray) => boolean | void): void {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m[0].length === 0) pattern.lastIndex++;
    if (visit(m) === true) break;
  }
  pattern.lastIndex = 0;
}

/** ". " / "! " / "? " and newlines end a sentence; dots inside URLs, paths and versions do not. */
const SENTENCE_BOUNDARY = /(?<=[.!?])\s+(?=\S)|\n+/g;

/** Sentences (and bullet items), with their offsets in the text. */
export function sentences(text: string): { s: string; at: number }[] {
  const out: { s: string; at: number }[] = [];
  let start = 0;
  eachMatch(SENTENCE_BOUNDARY, text, (m) => {
    if (m.index > start) out.push({ s: text.slice(start, m.index), at: start });
    start = m.index + m[0].length;
  });
  if (start < text.length) out.push({ s: text.slice(start), at: start });
  return out;
}

interface Hit {
  rule: string;
  at: number;
  length: number;
}

const re = (source: string, flags = "i") => new RegExp(source, flags);

/** Plain pattern rules: each regex is enough on its own. */
const PATTERNS: { rule: string; patterns: RegExp[] }[] = [
  {
    rule: "ignore-instructions",
    patterns: [
      // "ignore / disregard / forget (all) previous instructions"
      re(
        String.raw`\b(?:ignore|disregard|forget)\s+(?:(?:all|any|the|your|of|every|these|those)\s+)*(?:previous|prior|preceding|earlier|above|former|original|initial|existing|system|developer'?s?|safety|security|other)\b[^.\n]{0,30}?\b(?:instructions?|prompts?|rules|guidelines|directives|guardrails|policies|restrictions|constraints)\b`,
      ),
      // "override / bypass your (system) prompt": a config tool may "override the system prompt", so a possessive
      // or a quantifier aimed at the model is required.
      re(
        String.raw`\b(?:override|bypass|circumvent)\s+(?:your|all|any|every)\s+(?:(?:previous|prior|earlier|system|safety|security|other)\s+)*(?:instructions?|prompts?|rules|guidelines|directives|guardrails|policies|restrictions)\b`,
      ),
      re(
        String.raw`\b(?:previous|prior|earlier|above|original|system|developer'?s?)\s+(?:instructions?|prompts?|rules|guidelines|messages?)\b[^.\n]{0,80}?\b(?:no longer appl(?:y|ies)|do(?:es)? not apply|(?:are|is) (?:now )?(?:void|invalid|obsolete|cancell?ed|suspended|lifted)|(?:have been|has been|are|is) (?:superseded|overridden|revoked))`,
      ),
      re(
        String.raw`\b(?:supersedes?|takes? precedence over|outranks?)\s+(?:(?:the|any|all|your)\s+)*(?:developer'?s?|system|previous|prior|other|original)\s+(?:message|prompt|instructions?|rules|guidelines)`,
      ),
      re(String.raw`\b(?:no longer|not) (?:bound|restricted|limited|constrained) by\b`),
      re(String.raw`\bfree (?:yourself )?from (?:all |any |your )*(?:rules|guidelines|restrictions|instructions)`),
    ],
  },
  {
    rule: "conceal-from-user",
    patterns: [
      // "do not tell the user (that …)", "without informing them"; "do not tell the user to X" is advice, not concealment.
      re(
        String.raw`\b(?:do not|don't|never|without|must not|should not|shouldn't|not to)\s+(?:ever\s+)?(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?|let(?:ting)?)\s+(?:the\s+)?(?:user|users|them|human|customer|student)\b(?!\s+to\b)`,
      ),
      // "do not mention / reveal / show X to the user", unless X is a secret being protected.
      re(
        String.raw`\b(?:do not|don't|never|without|must not|should not|shouldn't|not to)\s+(?:ever\s+)?(?:mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|show(?:ing)?|explain(?:ing)?|admit(?:ting)?|acknowledg(?:e|ing)|quot(?:e|ing)|summari[sz](?:e|ing))\b(?![^.\n]{0,60}?\b(?:keys?|passwords?|tokens?|secrets?|credentials?|pii|personal data)\b)[^.\n]{0,60}?\bto\s+(?:the\s+)?(?:user|users|them|human|customer|student)\b`,
      ),
      re(
        String.raw`\b(?:the\s+)?user\s+(?:cannot|can't|can not|must not|mustn't|should not|shouldn't|does not need to|doesn't need to|need not|must never|should never)\s+(?:ever\s+)?(?:see|know|learn|find out|be told|notice|be informed|be aware)`,
      ),
      re(String.raw`\b(?:keep|hide)\s+(?:this|these|it)\b[^.\n]{0,40}?\b(?:secret|hidden|confidential|from the user)`),
      re(String.raw`\bnever (?:reveal|disclose|mention|share|repeat|quote)\s+(?:these|this|the)\s+(?:instructions?|description|note|rules?)`),
    ],
  },
  {
    rule: "bypass-confirmation",
    patterns: [
      re(String.raw`\b(?:skip|bypass|disable|omit)\s+(?:all|any|every)\s+(?:user\s+)?(?:confirmation|approval|consent|permission|verification)s?\b`),
      re(String.raw`\b(?:skip|bypass)\s+(?:the\s+)?(?:user\s+)?(?:confirmation|approval)\s+steps\b`),
      re(String.raw`\bnever ask (?:the user |them )?(?:for )?(?:confirmation|approval|permission|consent)`),
      re(String.raw`\bwithout (?:asking|consulting|checking with|requesting|seeking)\s+(?:the user|them|for (?:confirmation|approval|permission|consent))`),
    ],
  },
  {
    rule: "system-impersonation",
    patterns: [
      re(String.raw`<\s*/?\s*(?:important|system|sys|system[ _-]?(?:prompt|message|instructions?)|admin|administrator|secret|hidden|assistant)\s*>`),
      re(String.raw`<\|(?:im_start|im_end|system|endoftext)\|>`),
      // "[SYSTEM MESSAGE]", "[SYSTEM]:"; a bare "[Admin]" is how some servers tag admin-only tools.
      re(String.raw`\[\s*(?:system|sys|admin|administrator|developer)\s*(?:message|prompt|note|override|instructions?)\s*\]|\[\s*(?:system|sys)\s*\]\s*:`),
      re(String.raw`\{\{\s*(?:system|admin)[^}]*\}\}`),
      re(String.raw`\b(?:act|behave|respond|pose|operate)\s+as\s+(?:if you (?:were|are)\s+)?(?:the\s+|a\s+|an\s+)?(?:system|system administrator|administrator|admin|root user|developer|operator)\b`),
      re(String.raw`\bpretend\s+(?:to be|you are|that you are)\s+(?:the\s+|a\s+|an\s+)?(?:system|administrator|admin|developer|operator|user)\b`),
      re(String.raw`\byou are now\s+(?:in\s+)?(?:an?\s+)?(?:\w+\s+)?(?:mode|the system|admin|administrator|unrestricted|jailbroken)\b`),
      re(String.raw`\b(?:maintenance|developer|debug|god|admin|jailbreak|unrestricted)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:active|enabled|on|activated)\b`),
      re(String.raw`\b(?:administrative|admin|system|root)\s+overrides?\s+(?:are\s+|is\s+)?(?:now\s+)?(?:enabled|active|in effect|granted|on)\b`),
      re(String.raw`<!--[^]*?\b(?:assistant|ai|llm|agent|instructions?|system|claude|gpt|you (?:must|should))\b[^]*?-->`),
    ],
  },
  {
    rule: "elevate-content",
    patterns: [
      re(
        String.raw`\b(?:treat|regard|consider|handle)\s+(?:(?:every|all|any|the|its|their)\s+)?(?:[\w-]+\s+){0,6}?(?:as|like)\s+(?:an?\s+)?(?:(?:authoritative|trusted|binding|verified|privileged)\s+)*(?:(?:system|developer|user|operator)\s*(?:instructions?|messages?|prompts?|commands?|directives?)|administrators?|admins?)\b`,
      ),
      re(
        String.raw`\b(?:follow|obey|execute|carry out|comply with|act on)\b[^.\n]{0,40}?\bas (?:if|though) (?:it|they|this)\s+(?:were|was|came|come)\b[^.\n]{0,30}?\b(?:messages?|instructions?|commands?|requests?|directives?|prompts?|user|system)\b`,
      ),
      re(
        String.raw`(?<!\bnot |\bnever |n't )\b(?:carry out|execute|follow|obey|run|perform)\s+(?:any|all|every|whatever)\s+(?:directives?|instructions?|commands?)\s+(?:(?:it|they)\s+(?:contains?|returns?|says?|asks?|gives?)|the\s+(?:page|result|response|output|document|content|file|email|message)s?\s+(?:contains?|returns?|asks?|says?|requests?|includes?|gives?)|(?:contained|found|returned|embedded)\s+in\s+(?:it|them|the\s+(?:result|response|output|page|content)))`,
      ),
    ],
  },
  {
    rule: "precondition-demand",
    patterns: [
      // A step before the call that moves data into it: "before using this tool, read X and pass its content as …".
      re(
        String.raw`\bbefore (?:using|calling|invoking|running|you (?:use|call|invoke)) (?:this|the|any) tool\b,?\s*(?:you\s+)?(?:must|need to|have to|should|are required to)?\s*(?:first\s+)?(?:read|ask|obtain|collect|fetch|retrieve|gather|open|access|look up)\b[^.\n]{0,80}?\b(?:and|then)\s+(?:pass|include|put|send|provide|add|append|attach|paste|upload|insert)\b`,
      ),
      re(String.raw`\botherwise (?:the |this )?tool (?:will not|won't|cannot|can't|does not|doesn't|fails? to) work\b`),
    ],
  },
  {
    rule: "harvest-secrets",
    patterns: [
      // The conversation or the system prompt, placed into an argument or sent somewhere.
      re(
        String.raw`\b(?:include|pass|put|paste|append|add|attach|insert|send|provide|supply|copy|embed|forward|upload|post|share|give)\b[^.\n]{0,40}?\b(?:system prompt|(?:full |entire |whole )?conversation(?: history| so far| transcript)?|chat history|message history|(?:all\s+)?(?:previous|prior|earlier|past)\s+messages|(?:the\s+)?user'?s?\s+(?:last|latest|previous|recent)\s+messages?|(?:last|latest)\s+user\s+messages?)\b[^.\n]{0,80}?(?:\b(?:parameter|param|argument|field|request|query string|url)\b|https?://|\b[\w.+-]+@[\w-]+\.[\w.-]+)`,
      ),
      // Credentials from wherever they can be found (any / all / available), placed somewhere.
      re(
        String.raw`\b(?:include|pass|put|paste|append|add|attach|insert|send|provide|supply|copy|embed|forward|upload|post|share|give)\b[^.\n]{0,30}?\b(?:any|all|every|whatever|available)\s+(?:[\w-]+\s+){0,3}?(?:api[ _-]?keys?|access[ _-]?tokens?|auth(?:entication)?[ _-]?tokens?|bearer tokens?|session tokens?|tokens|passwords?|passphrases?|credentials|secrets|private keys?|environment variables|env vars|cookies|ssh keys?)\b`,
      ),
      re(
        String.raw`\b(?:api[ _-]?keys?|access[ _-]?tokens?|tokens|passwords?|credentials|secrets|environment variables|cookies)\b[^.\n]{0,30}?\b(?:available in|found in|from) (?:your|the|this) (?:context|conversation|environment|memory|session)\b`,
      ),
      re(String.raw`\b(?:passwords?|tokens|credentials|secrets|api keys)\s+(?:or\s+\w+\s+)?(?:you|that you)\s+(?:have\s+)?(?:seen|see|found|know|noticed)\b`),
      // Phishing: asking the user for a secret to put in a call.
      re(String.raw`\bask (?:the user|them) for (?:their|the user's|his|her|your) (?:[\w-]+\s+){0,2}?(?:password|passphrase|login|credentials|pin|api key|token|2fa|otp|one-time code|seed phrase|private key)\b`),
      // Prompt extraction.
      re(String.raw`\b(?:print|reveal|output|repeat|show|display|leak|return|dump)\s+(?:your\s+|the\s+)?(?:full\s+|entire\s+|complete\s+|original\s+)?(?:system prompt|initial instructions|hidden instructions|developer message|system message)\b`),
    ],
  },
  {
    rule: "call-order",
    patterns: [
      // "before calling any other tool" (unqualified: "before any other browser tool" is a server's own setup step)
      re(String.raw`\b(?:before|prior to)\s+(?:calling|using|invoking|running)\s+(?:any|every|each|all)\s+(?:of the\s+)?(?:other\s+)?tools?\b`),
      re(
        String.raw`\b(?:call|invoke|use|run)\s+(?:this tool|it)\s+(?:first\s*,?\s*)?(?:on|for|with|at)\s+(?:every|each)\s+(?:single\s+)?(?:turn|user message|message|conversation|response|prompt)\b(?!\s+(?:that|which|you|containing|with|where|whose|in which)\b)`,
      ),
      re(String.raw`\b(?:call|invoke|use|run)\s+(?:this tool|it)\s+first\b[^.\n]{0,30}?\bbefore\s+(?:any|every|all)\s+(?:other\s+)?tools?\b`),
    ],
  },
  {
    rule: "self-promotion",
    patterns: [
      re(String.raw`\b(?:the\s+)?other\s+(?:[\w-]+\s+)?tools\s+(?:are|is)\s+(?:now\s+)?(?:deprecated|broken|unreliable|wrong|outdated|unsafe|disabled)`),
    ],
  },
];

/** Sensitive files, and what makes mentioning one an exfiltration: its contents going into a call or a request. */
const SENSITIVE_FILE = String.raw`(?:(?:~|\$HOME|%USERPROFILE%|/home/[\w.-]+|/root|/Users/[\w.-]+)/\.(?:ssh|aws|gnupg|kube|docker|azure|config/gcloud|npmrc|netrc|pgpass|git-credentials|bash_history|zsh_history|cursor|claude|codeium|vscode)\S*|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w.])\.env(?:\.\w+)?\b|\bmcp\.json\b|claude_desktop_config\.json|\.aws/credentials|/etc/(?:passwd|shadow)|\bwallet\.dat\b|\.git-credentials|\.npmrc|\.netrc|\.pgpass)`;
const SENSITIVE_FILE_PATTERNS = [
  // "read ~/.ssh/id_rsa and pass it …"
  re(String.raw`\b(?:read|open|cat|load|get|fetch|access)\b[^.\n]{0,40}?${SENSITIVE_FILE}[^.\n]{0,80}?\b(?:and|then)\s+(?:pass|include|put|send|provide|add|append|attach|paste|upload|insert)\b`),
  // "paste / include / send the contents of ~/.aws/credentials"
  re(String.raw`\b(?:include|paste|pass|put|send|upload|attach|append|insert|provide|add|copy)\b[^.\n]{0,40}?${SENSITIVE_FILE}`),
  // "the full contents of ~/.ssh/id_rsa … here / in this field"
  re(String.raw`\bcontents?\s+of\s+(?:the\s+|your\s+)?${SENSITIVE_FILE}[^.\n]{0,60}?\b(?:here|in (?:this|the \S+) (?:field|parameter|argument)|as (?:the\s+)?\S+ (?:field|parameter|argument))`),
];
/** In a parameter's own description, asking for a sensitive file's contents is asking the model to fill them in. */
const SENSITIVE_FILE_IN_PARAMETER = re(String.raw`\bcontents?\s+of\s+(?:the\s+|your\s+)?${SENSITIVE_FILE}`);

const ADDRESS = /\b(?:https?|ftps?|sftp|wss?):\/\/[^\s"'<>)\]`]+|\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b/gi;
const TRANSFER =
  /\b(?:send|sent|post|posted|upload|uploaded|forward|forwarded|mirror|mirrored|copy|copied|bcc|cc|transmit|transmitted|exfiltrate|submit|submitted|deliver|delivered|sync|synced|beacon|push|pushed|stream|e-?mail|e-?mailed|relay|relayed|dump|leak|back up|backed up)\b/i;
const INSTRUCTION_MARKER =
  /\b(?:always|also|must|should|then|additionally|make sure|be sure|remember|don't forget|do not forget|you (?:must|should|need to|have to)|every (?:call|time|request|result|summary|message)|each (?:call|time|request))\b/i;
/** A sentence that opens with a transfer verb ("Also send …", "After saving, POST …", "system: forward …"). */
const BASE_TRANSFER_START =
  /^\W*(?:(?:also|then|always|additionally|finally|afterwards?|please|and)\s+|(?:after|before|when|once|whenever|if)\b[^,]{0,60},\s*(?:also\s+|always\s+|then\s+)?|[\w\s-]{0,20}:\s*)?(?:send|post|upload|forward|mirror|copy|bcc|cc|transmit|exfiltrate|submit|deliver|sync|push|stream|e-?mail|relay|dump|leak)\b/i;
/** What is being sent: data, not a request for help ("Email support@… to request access" moves nothing). */
const DATA_OBJECT =
  /\b(?:copy|copies|contents?|data|results?|output|conversation|messages?|snippets?|summar(?:y|ies)|text|documents?|files?|arguments?|args|parameters|inputs?|details|everything|history|logs?|transcript|notes?|it|them|this)\b/i;
const EXAMPLE_HOST = /^(?:[a-z]+:\/\/)?(?:[^/@\s]*@)?(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid|localhost)|localhost|127\.0\.0\.1|0\.0\.0\.0)(?:[:/?#]|$)|@(?:[\w-]+\.)*example\.(?:com|org|net)$/i;
const EXAMPLE_CONTEXT = /\b(?:e\.g\.?|i\.e\.?|for example|for instance|such as|like|example:?)\s*[("'\x60]?$/i;
const CAPTURE_SERVICE =
  /\b(?:https?:\/\/)?(?:[\w-]+\.)*(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|hookbin\.com|beeceptor\.com|requestcatcher\.com|ngrok(?:-free)?\.(?:io|app|dev)|burpcollaborator\.net|oast\.(?:fun|live|me|pro|site|online)|interact\.sh|canarytokens\.(?:com|org)|postb\.in)\b/gi;
const WEBHOOK_URL = /https?:\/\/(?:discord(?:app)?\.com\/api\/webhooks\/|hooks\.slack\.com\/(?:services|workflows)\/|outlook\.office\.com\/webhook\/|[\w.-]+\/(?:api\/)?webhooks?\/)[^\s"'<>)]*/i;
const PLACEHOLDER = /\{\{?\s*([A-Za-z_][\w.-]*)\s*\}?\}|\$\{?([A-Za-z_]\w*)\}?|%([A-Za-z_]+)%|<([A-Za-z_][\w-]*)>|\[([A-Z_]{3,})\]/g;
/** Placeholders no API template needs: the conversation, the prompt, secrets. */
const PRIVATE_PLACEHOLDER =
  /conversation|convo|chat|transcript|prompt|last_?user|user_?message|history|secret|passw|pwd|credential|cookie|ssh|clipboard|session_?token/i;
/** Placeholders an API template may well have ({email}, {token}), suspicious once the model is told to render or open the URL. */
const DATA_PLACEHOLDER = /email|user|query|message|data|content|context|token|api_?key|apikey|session|(?:^|_)env(?:$|_)|memory|location/i;
const RENDER = /!\[[^\]]*\]\(\s*$|\]\(\s*$|\b(?:render|display|show|include|embed|append|load|open|visit|request|ping|insert|add)\b/i;

/** Send-to-address, url-data-placeholder and capture-endpoint: literal destinations in the text. */
function addressHits(text: string, field: TextField, hidden: boolean, parts = sentences(text)): Hit[] {
  const hits: Hit[] = [];
  // The first sentence of a description says what the tool does ("Upload a file to https://transfer.sh …").
  const topLevel = !hidden && (field.field === "description" || field.field === "title");
  parts.forEach(({ s, at }, i) => {
    const addresses: RegExpExecArray[] = [];
    eachMatch(ADDRESS, s, (m) => void addresses.push(m));
    if (addresses.length === 0) return;
    const rest = s.replace(ADDRESS, " ");
    const opensWithTransfer = BASE_TRANSFER_START.test(s) && !(topLevel && i === 0);
    const instruction = (opensWithTransfer || (INSTRUCTION_MARKER.test(s) && TRANSFER.test(rest))) && DATA_OBJECT.test(rest);
    for (const a of addresses) {
      const before = s.slice(0, a.index);
      if (EXAMPLE_HOST.test(a[0]) || EXAMPLE_CONTEXT.test(before)) continue;
      const where = at + a.index;
      if (instruction) hits.push({ rule: "send-to-address", at: where, length: a[0].length });
      if (/^[a-z]+:\/\//i.test(a[0]))
        eachMatch(PLACEHOLDER, a[0], (p) => {
          const name = p.slice(1).find(Boolean) ?? "";
          if (/(?:_?ids?|Ids?|_?number|_?count|_?type|_?name)$/.test(name)) return false;
          if (!PRIVATE_PLACEHOLDER.test(name) && !(DATA_PLACEHOLDER.test(name) && RENDER.test(before))) return false;
          hits.push({ rule: "url-data-placeholder", at: where, length: a[0].length });
          return true;
        });
      if (WEBHOOK_URL.test(a[0]) && (field.value || instruction || (/\bwebhook\b/i.test(before) && INSTRUCTION_MARKER.test(s))))
        hits.push({ rule: "capture-endpoint", at: where, length: a[0].length });
    }
  });
  // Request-capture services exist to receive data; only an example mention in prose is let through.
  eachMatch(CAPTURE_SERVICE, text, (m) => {
    if (!field.value && EXAMPLE_CONTEXT.test(text.slice(Math.max(0, m.index - 20), m.index))) return false;
    hits.push({ rule: "capture-endpoint", at: m.index, length: m[0].length });
    return true;
  });
  return hits;
}

function sensitiveFileHit(text: string, field: TextField): Hit | undefined {
  for (const p of SENSITIVE_FILE_PATTERNS) {
    const m = p.exec(text);
    if (m) return { rule: "sensitive-file", at: m.index, length: m[0].length };
  }
  if (/^inputSchema\..*\.description$/.test(field.field)) {
    const m = SENSITIVE_FILE_IN_PARAMETER.exec(text);
    if (m) return { rule: "sensitive-file", at: m.index, length: m[0].length };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Steering of other tools

/** A token shaped like a tool name: snake_case, kebab-case, dotted or camelCase (single plain words are not). */
const TOOL_TOKEN = String.raw`[\x60'"]?((?<![$\w-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9])[\x60'"]?`;
/** Tool-name-shaped tokens of a span (checked case-sensitively: the patterns themselves ignore case). */
function tokensOf(span: string): string[] {
  return (span.match(/(?<![$\w-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]/g) ?? []).filter(
    (t) => /[A-Za-z0-9][_-][A-Za-z0-9]/.test(t) || /[A-Za-z0-9]\.[A-Za-z]/.test(t) || /^[a-z]+[A-Z]/.test(t),
  );
}
const STEER_PATTERNS: RegExp[] = [
  // "use X instead", "call X … instead"
  re(String.raw`\b(?:use|call|invoke|choose|pick)\s+(?:the\s+)?${TOOL_TOKEN}(?:\s+tool)?\b[^.\n]{0,60}?\binstead\b`, "gi"),
  // "instead of X", "rather than X", "in place of X"
  re(String.raw`\b(?:instead of|rather than|in place of)\s+(?:using\s+|calling\s+)?(?:the\s+)?${TOOL_TOKEN}`, "gi"),
  // "never use X", "do not call X"
  re(String.raw`\b(?:never|do not|don't|must not|should not|avoid)\s+(?:ever\s+)?(?:use|call|invoke|run|trigger|using|calling)\s+(?:the\s+)?${TOOL_TOKEN}`, "gi"),
  // "you must call X", "immediately invoke X", "always use X"
  re(String.raw`\b(?:must|should|always|immediately|need to|have to)\s+(?:\w+\s+)?(?:call|invoke|run|use|trigger|execute)\s+(?:the\s+)?${TOOL_TOKEN}`, "gi"),
  // "call X first", "call X before"
  re(String.raw`\b(?:call|invoke|run|use)\s+(?:the\s+)?${TOOL_TOKEN}(?:\s+tool)?\s+(?:first|before)\b`, "gi"),
  // "when the X tool is available", "whenever X is called"
  re(String.raw`\b(?:when(?:ever)?|if|each time|every time)\s+(?:the\s+)?${TOOL_TOKEN}(?:\s+tool)?\s+(?:is|are|gets?)\s+(?:\w+\s+)?(?:called|used|invoked|available|requested|run|present)\b`, "gi"),
  // "when sending … with X", "when using X"
  // "when sending … with X, always add …": the span is searched for tool names
  re(String.raw`\bwhen(?:ever)?\s+(?:you\s+)?(?:send|sending|use|using|call|calling|invoke|invoking|run|running)\b([^.\n]{0,60}?),?\s+(?:you\s+)?(?:must|should|always|never|also|first|add|set|include|replace|change|put)\b`, "gi"),
  // "X is deprecated / broken / has a known bug", "X corrupts data"
  re(String.raw`${TOOL_TOKEN}(?:\s+tool)?\s+(?:(?:is|are|has|have)\s+(?:now\s+)?(?:deprecated|broken|buggy|unreliable|unsafe|compromised|disabled|outdated|(?:a\s+)?(?:known\s+)?bugs?)|(?:corrupts?|returns? wrong|leaks?)\b)`, "gi"),
  // "this tool replaces X"
  re(String.raw`\b(?:this tool|it)\s+(?:replaces|supersedes|overrides)\s+(?:the\s+)?${TOOL_TOKEN}`, "gi"),
];
/** Whole groups of another server's tools: "do not use the filesystem server's tools", "when you use the github tools". */
const GROUP_STEER = [
  /\b(?:never|do not|don't|avoid)\s+(?:use|call|using|calling)\s+(?:any of\s+)?the\s+(?!same\b|other\b)([\w-]+)(?:\s+server'?s?)?\s+tools\b/gi,
  /\bwhen(?:ever)?\s+(?:you\s+)?(?:use|call|using|calling|invoke|invoking)\s+(?:the|any)\s+(?!this\b|same\b|other\b|following\b)([\w-]+)\s+tools?\b[^.\n]{0,80}?\b(?:always|must|set|add|include|use|never)\b/gi,
];

export interface SteerContext {
  self: string;
  /** The tool's name with and without its `server__` prefix (lower case). */
  selfNames?: ReadonlySet<string>;
  /** The tool's server: the context's, else the `server__` prefix of its name. */
  server?: string;
  params: Set<string>;
  /** Tool name (lower case) → servers offering it. */
  catalog?: Map<string, Set<string>>;
}

/** The `server` of a `server__name` tool name (as MCP clients that prefix names with their server write them). */
export function serverPrefixOf(name: string): string | undefined {
  const i = name.indexOf("__");
  return i > 0 && i < name.length - 2 ? name.slice(0, i) : undefined;
}

/** Server names compare without case, `-` or `_` ("sequential-thinking" is "sequential_thinking"). */
const sameServer = (a: string, b: string) => a.toLowerCase().replace(/[-_]/g, "") === b.toLowerCase().replace(/[-_]/g, "");

/**
 * A named tool the screen treats as foreign: not this tool, not a parameter, and not a tool of this tool's own
 * server. Names may carry a `server__` prefix on either side (the tool's own, the catalog's, or the reference):
 * `supabase__execute_sql` pointing at `apply_migration` points at its own server's `supabase__apply_migration`.
 */
export function foreignTool(token: string, ctx: SteerContext): boolean {
  const name = token.toLowerCase();
  if (name === ctx.self || ctx.selfNames?.has(name) || ctx.params.has(name)) return false;
  const prefix = serverPrefixOf(name);
  if (prefix && ctx.server && sameServer(prefix, ctx.server)) return false;
  const servers = ctx.catalog?.get(name) ?? (prefix ? ctx.catalog?.get(name.slice(prefix.length + 2)) : undefined);
  if (servers) return ctx.server === undefined ? false : ![...servers].some((s) => sameServer(s, ctx.server as string));
  // A name the catalog does not have: only snake_case or multi-hyphen names count. camelCase words are parameter
  // values (executionStats, autoEmbed), single hyphens are English (auto-embed, read-only), dots are fields or files.
  return /[A-Za-z0-9]_[A-Za-z0-9]/.test(name) || (name.match(/-/g)?.length ?? 0) >= 2 ? !name.includes(".") : false;
}

/** "Always use this tool instead of …", "prefer this tool over …": fine when what follows is the server's own tool. */
const SELF_PROMOTION = [
  /\b(?:always|only)\s+use\s+this\s+tool\s+(?:instead|rather|over|in place|for (?:all|every|any))\b([^.\n]{0,60})/gi,
  /\bprefer\s+this\s+tool\s+(?:over|to|instead)\b([^.\n]{0,60})/gi,
];

function steerHits(text: string, ctx: SteerContext): Hit[] {
  const hits: Hit[] = [];
  for (const pattern of SELF_PROMOTION)
    eachMatch(pattern, text, (m) => {
      const named = tokensOf(m[1]);
      if (named.length === 0 || named.some((t) => foreignTool(t, ctx))) hits.push({ rule: "self-promotion", at: m.index, length: m[0].length });
    });
  for (const pattern of STEER_PATTERNS)
    eachMatch(pattern, text, (m) => {
      if (m[1] && tokensOf(m[1]).some((t) => foreignTool(t, ctx))) hits.push({ rule: "steer-other-tool", at: m.index, length: m[0].length });
    });
  for (const pattern of GROUP_STEER)
    eachMatch(pattern, text, (m) => {
      const group = m[1].toLowerCase();
      // "the slack tools" on the slack server is the server talking about itself.
      if (ctx.server && group.replace(/-/g, "") === ctx.server.toLowerCase().replace(/-/g, "")) return;
      hits.push({ rule: "steer-other-tool", at: m.index, length: m[0].length });
    });
  return hits;
}

// ---------------------------------------------------------------------------------------------------------------
// Imperative prose

/** A clause that commands the model. */
const DIRECTIVE = /\b(?:you\s+(?:must|should|shall|are (?:required|not allowed|forbidden|expected|obligated) to|have to|need to)|(?:must|should)(?:\s+(?:not|never|always))?|never|always|do not|don't|under no circumstances|regardless of)\b/gi;
/** …about what the model tells, recommends or hides from the user (rather than how to fill a parameter). */
const ANSWER_SHAPING =
  /\b(?:tell|say|mention|recommend|suggest|describe|present|praise|promote|insist|reassure|encourage|discourage|refuse|apologi[sz]e|reply|replies|answer|respond|cite|reveal|admit|claim|advise|caveat|upsell|end your|the user|the customer|the student|the candidate|competitors?)\w*\b/i;

/**
 * Counts directive clauses about the answer. A tool explaining how to call it ("Always pass iso_timestamp_start",
 * "Never assume organization") is not the target: the count only includes clauses that shape what the user hears.
 */
function imperativeHit(parts: readonly { s: string; at: number }[]): Hit | undefined {
  let count = 0;
  let first = -1;
  for (const { s, at } of parts)
    for (const clause of s.split(/[,;:]\s+|\s+(?:and|but)\s+(?=(?:you|never|always|do not|don't|must)\b)/i)) {
      DIRECTIVE.lastIndex = 0;
      const d = DIRECTIVE.exec(clause);
      if (!d || !ANSWER_SHAPING.test(clause.slice(d.index))) continue;
      count++;
      if (first < 0) first = at + Math.max(0, s.indexOf(clause));
    }
  return count >= 3 ? { rule: "imperative-prose", at: first, length: 160 } : undefined;
}

// ---------------------------------------------------------------------------------------------------------------

function excerptOf(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 40);
  const to = Math.min(text.length, at + Math.min(Math.max(length, 40), 160) + 40);
  const body = visible(text.slice(from, to)).replace(/\s+/g, " ").trim();
  return `${from > 0 ? "…" : ""}${body}${to < text.length ? "…" : ""}`;
}

function textHits(text: string, field: TextField, steer: SteerContext, hidden = false): Hit[] {
  // Most schema strings are single tokens (types, formats, enum values): only an address can hide in one.
  if (!/\s/.test(text)) return /[@:.]/.test(text) ? addressHits(text, field, hidden) : [];
  const hits: Hit[] = [];
  for (const { rule, patterns } of PATTERNS)
    for (const p of patterns) {
      const m = p.exec(text);
      if (m) {
        hits.push({ rule, at: m.index, length: m[0].length });
        break;
      }
    }
  const file = sensitiveFileHit(text, field);
  if (file) hits.push(file);
  const parts = sentences(text);
  hits.push(...addressHits(text, field, hidden, parts), ...steerHits(text, steer));
  const imperative = imperativeHit(parts);
  if (imperative) hits.push(imperative);
  return hits;
}

// A catalog screens every tool against the same neighbour list: index it once.
const indexes = new WeakMap<readonly unknown[], Map<string, Set<string>>>();

export function catalogIndex(tools: readonly { name: string; server?: string }[]): Map<string, Set<string>> {
  let index = indexes.get(tools);
  if (index) return index;
  index = new Map();
  const add = (key: string, server: string) => {
    const set = index!.get(key) ?? new Set<string>();
    set.add(server);
    index!.set(key, set);
  };
  for (const t of tools) {
    if (typeof t?.name !== "string") continue;
    const key = t.name.toLowerCase();
    const prefix = serverPrefixOf(key);
    const server = t.server || prefix || "";
    add(key, server);
    // `server__name` is also reachable by its bare name, on its server.
    if (prefix && (!t.server || sameServer(prefix, t.server))) add(key.slice(prefix.length + 2), server);
  }
  indexes.set(tools, index);
  return index;
}

/**
 * Screens one tool. `flagged` is true when any rule fired; each reason names the rule, the field and an excerpt
 * (hidden characters shown as \uXXXX; text decoded from them is screened too and reported as "<field> (hidden text)").
 */
export function screenTool(tool: ScreenableTool, context: ScreenContext = {}): ScreeningResult {
  const reasons: ScreeningReason[] = [];
  const findings: ScreeningFinding[] = [];
  const seen = new Set<string>();
  const toolName = String(tool.name ?? "");
  const serverName = context.server ?? "";
  const add = (rule: string, field: string, excerpt: string) => {
    const key = `${rule}\0${field}`;
    if (seen.has(key)) return;
    seen.add(key);
    const category = RULE_CATEGORY[rule];
    reasons.push({ rule, field, excerpt, category, score: 1 });
    findings.push({ server: serverName, tool: toolName, field, sentence: excerpt, category, score: 1, source: "rule", detail: rule });
  };
  const catalog = context.tools ? catalogIndex(context.tools) : undefined;
  const self = toolName.toLowerCase();
  const prefix = serverPrefixOf(self);
  const steer: SteerContext = {
    self,
    selfNames: new Set(prefix ? [self, self.slice(prefix.length + 2)] : [self]),
    server: context.server || prefix,
    params: propertyNames([tool.inputSchema, tool.outputSchema]),
    catalog,
  };
  for (const field of fieldsOf(tool)) {
    const { findings: hidden, hiddenTexts } = hiddenFindings(field.text);
    for (const f of hidden) add(f.rule, field.field, excerptOf(field.text, f.at, 1));
    if (field.identifier) continue;
    const plain = normalize(field.text);
    for (const h of textHits(plain, field, steer)) add(h.rule, field.field, excerptOf(plain, h.at, h.length));
    for (const text of hiddenTexts.map(normalize))
      for (const h of textHits(text, field, steer, true)) add(h.rule, `${field.field} (hidden text)`, excerptOf(text, h.at, h.length));
  }
  if (context.reading !== false) {
    const threshold = context.threshold ?? DEFAULT_SCREENING_THRESHOLD;
    for (const r of readTool(tool, steer, toolSentences(tool))) {
      if (r.score < threshold) continue;
      const key = `reading:${r.category}\0${r.field}`;
      if (seen.has(key)) continue;
      seen.add(key);
      reasons.push({ rule: `reading:${r.category}`, field: r.field, excerpt: excerptOf(r.sentence, 0, r.sentence.length), category: r.category, score: r.score });
      findings.push({ server: serverName, tool: toolName, field: r.field, sentence: r.sentence, category: r.category, score: r.score, source: "reading", detail: r.cue });
    }
  }
  return { flagged: reasons.length > 0, reasons, findings };
}
