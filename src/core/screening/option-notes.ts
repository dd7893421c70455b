/**
 * Sentences that describe one of the tool's own options, which the concealment and resource-reach readings would
 * otherwise file:
 *
 * - a notification switch ("Set `notify_attendees: false` to delete without notifying them", "The user is not
 *   notified automatically; use notify=true to send an email", the description of a `disable_notification`
 *   parameter): who hears of the tool's action is the caller's choice, offered and named, not something the model is
 *   told to keep from the user;
 * - a key file's conventional path as the default of a key-path parameter of a tool that works with keys ("Private
 *   key path. Default: ~/.ssh/id_ed25519" on an SSH tool): the tool takes a path it declares, not the key's contents.
 *
 * An option is only offered when nothing obliges the model to pick it ("always set", "never enable", "make sure"),
 * and nothing in the sentence deceives the user.
 */
import { CONVERSATION } from "./concepts-objects.js";
import { DECEIVE } from "./concepts-parties.js";

/** What an option note needs to know of its tool. */
export interface OptionContext {
  /** The tool's parameter names (lower case). */
  params: ReadonlySet<string>;
  /** The tool's name and the first sentence of its description, lower case (`purposeOf`). */
  purpose: string;
}

export type OptionNote = "a notification option" | "a key path the tool declares";

/** The model obliged to choose: "always set", "never enable", "make sure to pass", "you must". */
const OBLIGED = /\b(?:always|must|should|make sure|be sure|remember to|(?:never|do not|don't)\s+(?:\w+\s+)?(?:set|use|pass|turn|enable|disable|leave|change)|by default,?\s+(?:set|use|pass))\b/i;
/** Notification and visibility words. */
const NOTIFY = /\b(?:notif\w*|notice|alert\w*|sound|silent\w*|quiet\w*|mute\w*|email(?:ed|s)?|public|private|internal|visible|visibility|sees?|cc)\b/i;
/** A parameter whose name is a notification switch (its own description speaks of notifying). */
const SWITCH_PARAM = /(?:^|_)(?:notify|notification|notifications|silent|quiet|mute|sound|send_email|send_notification|alert|alerts)(?:_|$)/i;
/** What such a parameter's description says: notifying, not who can see the data. */
const NOTIFY_ONLY = /\b(?:notif\w*|alert\w*|sound|silent\w*|quiet\w*|mute\w*|ping\w*|push)\b/i;
/** A parameter of the tool named as set to a value: "`notify_attendees: false`", "notify=true", "set `public` to false". */
const SET_PARAM = /[\x60'"]?([a-z][\w]*)[\x60'"]?\s*(?:[:=]\s*[\x60'"]?(?:true|false|yes|no|on|off|\d+)\b|\s+to\s+[\x60'"]?(?:true|false|yes|no|on|off)\b)|\b(?:set|use|pass|enable|disable)\s+[\x60'"]([a-z][\w]*)[\x60'"]/gi;

/** The parameter a field belongs to: `inputSchema.properties.x.description` → "x". */
export function parameterOfField(field: string): string | undefined {
  return /^inputSchema\.(?:[^.]+\.)*?properties\.([^.]+)\.[^.]+(?:\[\d+\])?$/.exec(field)?.[1]?.toLowerCase();
}

/** Whether the sentence names one of the tool's parameters as set to a value. */
function namesOwnSwitch(s: string, params: ReadonlySet<string>): boolean {
  for (const m of s.matchAll(SET_PARAM)) {
    const name = (m[1] ?? m[2] ?? "").toLowerCase();
    if (params.has(name)) return true;
  }
  return false;
}

/** A key file's path ("~/.ssh/id_ed25519", "~/.gnupg/…", "./certs/client.pem"). */
const KEY_PATH = /(?:~|\$HOME|\/home\/\w+|\/root|\.)\/[\w./-]*(?:\.ssh|\.gnupg|certs?|keys?)\/[\w.-]+|\bid_(?:rsa|ed25519|ecdsa|dsa)\b/i;
/** A parameter that holds a key's path. */
const KEY_PATH_PARAM = /(?:identity|key|cert|certificate|pem|ssh)(?:_?(?:file|path|location))$|^(?:identity|key_file|keyfile|key_path|cert_path|pem_path)$/i;
/** A tool whose declared work needs a key. */
const KEY_PURPOSE = /\b(?:ssh|sftp|scp|rsync|git|key ?pairs?|keys?|certificates?|gpg|pgp|sign\w*|tls|x\.?509|identity)\b/i;

/** Whether `sentence` (in `field`) is an option note for a reading of `category`, and which. */
export function optionNote(category: string, field: string, sentence: string, ctx: OptionContext): OptionNote | undefined {
  const s = sentence;
  if (OBLIGED.test(s) || DECEIVE.test(s) || CONVERSATION.test(s)) return undefined;
  const param = parameterOfField(field);
  if (category === "concealment" && NOTIFY.test(s) && (namesOwnSwitch(s, ctx.params) || (param !== undefined && SWITCH_PARAM.test(param) && /\.description$/.test(field) && NOTIFY_ONLY.test(s))))
    return "a notification option";
  if (category === "resource-reach" && param !== undefined && /\.(?:default|examples?)(?:\[\d+\])?$/.test(field) && KEY_PATH_PARAM.test(param) && KEY_PATH.test(s) && KEY_PURPOSE.test(ctx.purpose))
    return "a key path the tool declares";
  return undefined;
}
