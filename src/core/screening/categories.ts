/**
 * What a sentence of a tool definition can ask of the model, beyond describing the tool. Every finding of the
 * screen (a pattern rule, the sentence reading, the encoder or a user-supplied judge) is filed under one of these,
 * and the policy decides per category whether a finding quarantines the tool, only warns, or is allowed.
 */

export type ScreeningCategory =
  /** Speaks to the assistant about its own behaviour (its instructions, persona, answers, permissions) rather than describing the tool. */
  | "assistant-directive"
  /** Reaches for resources outside the tool's declared purpose: credentials, keys, environment, files, the conversation, other tools' arguments. */
  | "resource-reach"
  /** Hides something from the user: what the tool does, what it returned, text in invisible characters. */
  | "concealment"
  /** Directives about other servers' tools: how to call them, what to change in their arguments (shadowing). */
  | "shadowing"
  /** An exfiltration channel: data sent to a literal URL or address, or a side-channel parameter that carries it away. */
  | "exfiltration"
  /** Manipulates tool choice: "always use this first", "the other tools are deprecated or broken". */
  | "tool-choice";

export const SCREENING_CATEGORIES: readonly ScreeningCategory[] = [
  "assistant-directive",
  "resource-reach",
  "concealment",
  "shadowing",
  "exfiltration",
  "tool-choice",
];

/** One line per category, for audit output and error messages. */
export const CATEGORY_DESCRIPTIONS: Readonly<Record<ScreeningCategory, string>> = {
  "assistant-directive": "addressed to the assistant rather than describing the tool",
  "resource-reach": "reaches for credentials, keys, environment, files, the conversation or other tools' arguments",
  concealment: "hides something from the user",
  shadowing: "directs how other servers' tools are used",
  exfiltration: "sends data to a literal address or through a side-channel parameter",
  "tool-choice": "manipulates which tool the model chooses",
};

/** The category each pattern rule of screen.ts files its findings under. */
export const RULE_CATEGORY: Readonly<Record<string, ScreeningCategory>> = {
  "ignore-instructions": "assistant-directive",
  "system-impersonation": "assistant-directive",
  "elevate-content": "assistant-directive",
  "precondition-demand": "resource-reach",
  "bypass-confirmation": "concealment",
  "conceal-from-user": "concealment",
  "imperative-prose": "assistant-directive",
  "lure-the-user": "assistant-directive",
  "hidden-tag-characters": "concealment",
  "hidden-zero-width": "concealment",
  "hidden-bidi-control": "concealment",
  "hidden-filler": "concealment",
  "send-to-address": "exfiltration",
  "url-data-placeholder": "exfiltration",
  "capture-endpoint": "exfiltration",
  "sensitive-file": "resource-reach",
  "harvest-secrets": "resource-reach",
  "steer-other-tool": "shadowing",
  "call-order": "tool-choice",
  "planted-recipient": "exfiltration",
  "default-recipient": "exfiltration",
  "spelled-choice": "assistant-directive",
  "parameter-name-reach": "resource-reach",
  "private-value": "resource-reach",
  "parameter-name-outbound": "exfiltration",
  "self-promotion": "tool-choice",
};

export function isScreeningCategory(value: unknown): value is ScreeningCategory {
  return typeof value === "string" && (SCREENING_CATEGORIES as readonly string[]).includes(value);
}
