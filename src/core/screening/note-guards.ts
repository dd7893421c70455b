/**
 * What the note modules (option-notes.ts, protective-notes.ts) share: the checks that keep a sentence from being a
 * note whatever else it says, and the parameter a field belongs to.
 */
import { CONVERSATION } from "./concepts-objects.js";
import { DECEIVE } from "./concepts-parties.js";

/** The model obliged to choose: "always set", "never enable", "make sure to pass", "you must". */
export const OBLIGED = /\b(?:always|must|should|make sure|be sure|remember to|(?:never|do not|don't)\s+(?:\w+\s+)?(?:set|use|pass|turn|enable|disable|leave|change)|by default,?\s+(?:set|use|pass))\b/i;
/** An obligation whose subject is the user. */
const USER_OBLIGED = /\b(?:the user|users|the customer|the person|the account owner)\s+(?:should|must)\b/gi;
/** A thing to be kept private, which obliges no one to fetch anything: "so the bucket must not be publicly readable". */
const KEPT_PRIVATE = /\b(?:must|should)\s+(?:not|never)\s+be\s+(?:made\s+)?(?:public(?:ly\s+\w+)?|shared|exposed|committed|logged|published|world-readable)\b/gi;
/** Data handed to someone outside: an option that keeps that quiet is no notification preference. */
export const OUTSIDE_PARTY = /\b(?:external|outside|third[- ]part(?:y|ies)|public link|anyone|another (?:account|address|user|organi[sz]ation))\b/i;
/** Where a value would be fetched from: the machine, the environment, files, the conversation. */
export const FETCHED_FROM = /\b(?:from|in|under|inside|out of)\s+(?:the\s+|your\s+|their\s+|this\s+)?(?:user'?s?\s+)?(?:machine|computer|environment|env|shell|disk|home|files?|folder|directory|config(?:uration)?|settings|conversation|chat|history|context|keychain|browser|clipboard|earlier|previous|other tools?)\b|~\/|\$[A-Z_]{3,}|(?<!\b(?:is|are|be|been|was|were|only|never|not|no way to|cannot|can't)\s)\b(?:read|look up|locate|find|extract|copy|grab|collect)\b(?!\s+(?:locally|by (?:the|this) server|on the (?:client|host)))/i;
/** The conversation named only as where a value does not go: "without appearing in the transcript". */
export const NOT_INTO_CONVERSATION = /\b(?:without|never|not|instead of|rather than)\s+(?:\w+\s+){0,3}?(?:in|into|to|through)\s+(?:the\s+)?(?:transcript|conversation|chat(?: history)?|context|logs?)\b|\bnot (?:this|the|your) (?:full |whole |entire )?(?:conversation|chat(?: history)?|transcript)\b/i;

/** Quoted text, a mention rather than something said ("its own system prompt, 'Follow the user's instructions …'"). */
export const QUOTED_TEXT = /"[^"\n]{0,200}"|\u201c[^\u201d\n]{0,200}\u201d|'(?:[^'\n]|(?<=\w)'(?=\w)){2,200}'(?!\w)/g;

/** The parameter a field belongs to: `inputSchema.properties.x.description` → "x". */
export function parameterOfField(field: string): string | undefined {
  return /^inputSchema\.(?:[^.]+\.)*?properties\.([^.]+)\.[^.]+(?:\[\d+\])?$/.exec(field)?.[1]?.toLowerCase();
}

/** The model obliged to pick something, or the user deceived: no note, whatever else the sentence says. */
export function obligesOrDeceives(s: string): boolean {
  // What the user should do ("the user should put it in their app's config") obliges the user, not the model.
  return OBLIGED.test(s.replace(USER_OBLIGED, " ").replace(KEPT_PRIVATE, " ")) || DECEIVE.test(s);
}

/** The conversation as the sentence's object, unless it is named only as where a value does not go. */
export function namesConversation(s: string): boolean {
  return CONVERSATION.test(s.replace(NOT_INTO_CONVERSATION, " "));
}
