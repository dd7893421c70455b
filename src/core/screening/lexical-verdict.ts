/**
 * What the lexical model (lexical.ts) does with a tool the rules and the readers have read: set their findings aside
 * when the tool's words read as plainly honest, or file a finding of its own when they read as plainly hostile and
 * nothing else fired. It sits apart from screen.ts, which calls it last, so the screen reads as its pipeline and the
 * conditions of the model's two acts are in one place.
 */
import type { ScreeningCategory } from "./categories.js";
import { ADDRESS, ALTERNATIVES, CONVERSATION, DISPARAGE, OTHER_TOOLS, PREFERENCE, SECRET, SIDE_CHANNEL, UNIVERSAL } from "./concepts-objects.js";
import { CONCEAL } from "./concepts-parties.js";
import type { TextField } from "./fields.js";
import {
  heaviestSentence,
  knownShare,
  LEXICAL_ALONE,
  LEXICAL_ALONE_SENTENCE,
  LEXICAL_MIN_FEATURES,
  LEXICAL_MIN_KNOWN,
  LEXICAL_MIN_SENTENCE_FEATURES,
  LEXICAL_SENTENCE_KEEP,
  LEXICAL_SHORT_ALONE,
  LEXICAL_SHORT_SENTENCE,
  LEXICAL_VETO,
  lexicalLogit,
  sentenceLogit,
  shippedLexicalModel,
  strongestSentence,
  toolFeatures,
  type LexicalModel,
} from "./lexical.js";
import type { SentenceFinding } from "./meaning.js";
import { OVERREACH_CUE } from "./overreach.js";
import { KEPT_CUE } from "./concealment-reader.js";
import { ESCALATED_CUE } from "./calm-directives.js";
import type { ScreeningFinding } from "./types.js";

/** The model's verdict on one tool. */
export type LexicalVerdict =
  /** A short tool the model files nothing on: the rules and readers decide alone. */
  | { act: "none" }
  /** Weighed; nothing to set aside or add. */
  | { act: "keep"; logit: number }
  /** The findings are set aside (their detail says why): the tool is not flagged. */
  | { act: "set-aside"; logit: number }
  /** A finding of the model's own, for a tool nothing else flagged. */
  | { act: "file"; logit: number; finding: ScreeningFinding };

/**
 * Rules whose findings the model never sets aside: a forged system or <IMPORTANT> tag, which an honest server almost
 * never writes; a parameter's name, which the model does not see; a value that is a private file or the conversation,
 * which reads as no sentence; an order to send a copy to a literal address, a recipient or copy parameter whose
 * default names a party, and a directive set off by another server's named tool, none of which fired on any honest
 * tool the project holds (about 13,500 with the real servers, 2026-11-28), where the model's table has seen few of
 * their words; and the orders to act past the user (overreach.ts), a retry with more privilege (calm-directives.ts
 * `ESCALATED_CUE`) and the narrow forms of concealment (concealment-reader.ts `KEPT_CUE`), which name an act no honest
 * tool asks for and fired on no honest tool either.
 */
/** The tool or address a reading names after its cue: "… another server's tool (read_file)". */
const NAMED_IN_DETAIL = / \([^)]*\)$/;
const NEVER_SET_ASIDE: ReadonlySet<string> = new Set([
  "system-impersonation",
  "parameter-name-reach",
  "parameter-name-outbound",
  "private-value",
  "send-to-address",
  "default-recipient",
  "spelled-choice",
  "a directive set off by another server's tool",
  ESCALATED_CUE,
  // Orders to act past the user (overreach.ts), but for a partner's copy, which fired on one honest tool.
  ...Object.values(OVERREACH_CUE).filter((cue) => cue !== OVERREACH_CUE.partner),
  ...Object.values(KEPT_CUE),
]);

/**
 * What the model may set aside: not hidden characters or the text decoded from them or from an encoding, which it
 * does not see, nor the findings of `NEVER_SET_ASIDE`, nor a finding whose own sentence, read alone, reads as an attack.
 */
function overrulable(f: ScreeningFinding, model: LexicalModel, family: (rule: string) => string | undefined): boolean {
  if (family(f.detail) === "hidden_unicode" || NEVER_SET_ASIDE.has(f.detail.replace(NAMED_IN_DETAIL, "")) || /\((?:hidden|encoded) text\)$/.test(f.field)) return false;
  return sentenceLogit(model, f.sentence, f.field) <= LEXICAL_SENTENCE_KEEP;
}

/** Hushing words the concealment reader wants more around: "keep it quiet", "leave this out", "don't list". */
const HUSH = /\b(?:hide|hidden|silent(?:ly)?|quiet(?:ly)?|omit|leave (?:it |this |that |them )?out|left out|without (?:telling|mentioning|notifying|informing|showing)|(?:don't|do not|never|no need to|needn't|not) (?:tell|mention|show|notify|inform|report|surface|bring up|say|disclose|reveal|list|display))\b/i;
/** A tool named as tools are: snake_case, or two hyphens or more. */
const TOOL_SHAPED = /\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]+-[a-z]+-[a-z-]+\b/;

/**
 * The category a sentence's words point to when no reading filed it: a literal address or a side channel is
 * exfiltration, hushing concealment, a preference or a claim over the alternatives tool choice, another tool named
 * shadowing, a secret or the conversation a reach; else undefined. The concept vocabularies are the readers' own.
 */
function cueCategory(s: string): ScreeningCategory | undefined {
  if (ADDRESS.test(s) || SIDE_CHANNEL.test(s)) return "exfiltration";
  if (CONCEAL.test(s) || HUSH.test(s)) return "concealment";
  if (PREFERENCE.test(s) || UNIVERSAL.test(s) || DISPARAGE.test(s) || ALTERNATIVES.test(s)) return "tool-choice";
  if (OTHER_TOOLS.test(s) || TOOL_SHAPED.test(s)) return "shadowing";
  if (SECRET.test(s) || CONVERSATION.test(s)) return "resource-reach";
  return undefined;
}

/**
 * The category of the model's own finding: the reader's strongest reading (below the threshold) of the sentence it
 * points at, else what that sentence's words point to (`cueCategory`), else the strongest reading of any sentence of
 * the tool, else an address to the assistant. Over the never-fit sets' attacks found by the model alone, 119 of 255
 * get their set's category this way, 70 without the cues.
 */
function categoryOf(at: { field: string; sentence: string }, readings: readonly SentenceFinding[]): ScreeningCategory {
  let best: SentenceFinding | undefined;
  for (const r of readings) if (r.field === at.field && r.sentence.trim() === at.sentence && (!best || r.score > best.score)) best = r;
  if (best) return best.category;
  const cue = cueCategory(at.sentence);
  if (cue) return cue;
  for (const r of readings) if (!best || r.score > best.score) best = r;
  return best?.category ?? "assistant-directive";
}

/** The model's own finding, at the sentence it points to. */
function ownFinding(at: { field: string; sentence: string }, logit: number, readings: readonly SentenceFinding[], who: { server: string; tool: string }): ScreeningFinding {
  return {
    server: who.server,
    tool: who.tool,
    field: at.field,
    sentence: at.sentence,
    category: categoryOf(at, readings),
    score: 1 / (1 + Math.exp(-logit)),
    source: "lexical",
    detail: `the tool's words read as an attack (lexical ${logit.toFixed(2)})`,
  };
}

/**
 * Weighs a tool's words. `findings` are what the rules and readers filed (set aside in place: their detail says so),
 * `readings` every reading above zero, `family` the pattern rules' families (screen.ts).
 */
export function lexicalVerdict(
  fields: readonly TextField[],
  findings: ScreeningFinding[],
  readings: readonly SentenceFinding[],
  who: { server: string; tool: string },
  family: (rule: string) => string | undefined,
): LexicalVerdict {
  const features = toolFeatures(fields);
  const model = shippedLexicalModel();
  if (features.size < LEXICAL_MIN_FEATURES) return findings.length > 0 ? { act: "none" } : shortVerdict(model, features, fields, readings, who);
  const logit = lexicalLogit(model, features);
  if (findings.length > 0) {
    // A sentence read two ways files its first reading only: one of its other readings may be one never set aside.
    if (logit >= LEXICAL_VETO || !findings.every((f) => overrulable(f, model, family)) || readings.some((r) => NEVER_SET_ASIDE.has(r.cue.replace(NAMED_IN_DETAIL, "")))) return { act: "keep", logit };
    for (const f of findings) f.detail = `${f.detail}; set aside: the tool's words read as honest (lexical ${logit.toFixed(2)})`;
    return { act: "set-aside", logit };
  }
  if (logit <= LEXICAL_ALONE || knownShare(model, features) < LEXICAL_MIN_KNOWN) return { act: "keep", logit };
  const at = heaviestSentence(model, fields);
  if (!at || at.features.size < LEXICAL_MIN_SENTENCE_FEATURES || lexicalLogit(model, at.features) <= LEXICAL_ALONE_SENTENCE) return { act: "keep", logit };
  return { act: "file", logit, finding: ownFinding(at, logit, readings, who) };
}

/** A short tool nothing else flagged: a finding of the model's own when the tool and its strongest sentence read hostile. */
function shortVerdict(model: LexicalModel, features: ReadonlySet<number>, fields: readonly TextField[], readings: readonly SentenceFinding[], who: { server: string; tool: string }): LexicalVerdict {
  const logit = lexicalLogit(model, features);
  if (logit <= LEXICAL_SHORT_ALONE || knownShare(model, features) < LEXICAL_MIN_KNOWN) return { act: "none" };
  const at = strongestSentence(model, fields, LEXICAL_MIN_SENTENCE_FEATURES);
  if (!at || at.logit <= LEXICAL_SHORT_SENTENCE) return { act: "none" };
  return { act: "file", logit, finding: ownFinding(at, logit, readings, who) };
}
