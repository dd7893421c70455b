/**
 * Sentences that describe one of the tool's own options or parameters, which the concealment, resource-reach and
 * assistant-directive readings would otherwise file:
 *
 * - a notification switch ("Set `notify_attendees: false` to delete without notifying them", "The user is not
 *   notified automatically; use notify=true to send an email", the description of a `disable_notification`
 *   parameter): who hears of the tool's action is the caller's choice, offered and named, not something the model is
 *   told to keep from the user (unless data goes to an outside party);
 * - a parameter's own switch described ("Archived projects are hidden by default; set to true to include them");
 * - a key file's conventional path as the default of a key-path parameter of a tool that works with keys ("Private
 *   key path. Default: ~/.ssh/id_ed25519" on an SSH tool): the tool takes a path it declares, not the key's contents;
 * - the description of a parameter named for a secret, naming that secret and nowhere to fetch it from ("Plaid access
 *   token for the Item" on `access_token` of a Plaid tool): the parameter's own declaration, not a reach;
 * - a prompt parameter described by name ("Optional system prompt for the second model." on `system_prompt`), and
 *   system prompts in a tool whose work is prompts.
 *
 * An option is only offered when nothing obliges the model to pick it ("always set", "never enable", "make sure"),
 * and nothing in the sentence deceives the user (note-guards.ts).
 */
import { has } from "./memo.js";
import { ADDRESS, CALLS_A_MODEL, CONVERSATION, SECRET } from "./concepts-objects.js";
import { KEPT_FROM_KNOWING, PARAM_LINE, USER_SIDE } from "./concepts-structure.js";
import { FETCHED_FROM, namesConversation, OBLIGED, obligesOrDeceives, OUTSIDE_PARTY, parameterOfField, QUOTED_TEXT } from "./note-guards.js";

export { parameterOfField } from "./note-guards.js";

/** What an option note needs to know of its tool. */
export interface OptionContext {
  /** The tool's parameter names (lower case). */
  params: ReadonlySet<string>;
  /** The tool's name and the first sentence of its description, lower case (`purposeOf`). */
  purpose: string;
}

export type OptionNote =
  | "a notification option"
  | "a key path the tool declares"
  | "the secret the parameter is named for"
  | "the prompt the parameter is named for"
  | "an option of this parameter"
  | "a prompt tool's own object"
  | "a handle, not what it names"
  | "a connection string's own password"
  | "a conversation tool's own object"
  | "a cloud CLI profile the tool declares"
  | "what this switch includes"
  | "what the call does without this parameter"
  | "a filter of the tool's own output";

/** Notification and visibility words. */
const NOTIFY = /\b(?:notif\w*|notice|alert\w*|sound|silent\w*|quiet\w*|mute\w*|email(?:ed|s)?|public|private|internal|visible|visibility|sees?|cc)\b/i;
/** A parameter whose name is a notification switch (its own description speaks of notifying). */
const SWITCH_PARAM = /(?:^|_)(?:notify|notification|notifications|silent|quiet|mute|sound|send_email|send_notification|alert|alerts)(?:_|$)/i;
/** What such a parameter's description says: notifying, not who can see the data. */
const NOTIFY_ONLY = /\b(?:notif\w*|alert\w*|sound|silent\w*|quiet\w*|mute\w*|ping\w*|push)\b/i;
/** A parameter of the tool named as set to a value: "`notify_attendees: false`", "notify=true", "set `public` to false". */
const SET_PARAM = /[\x60'"]?([a-z][\w]*)[\x60'"]?\s*(?:[:=]\s*[\x60'"]?(?:true|false|yes|no|on|off|\d+)\b|\s+to\s+[\x60'"]?(?:true|false|yes|no|on|off)\b)|\b(?:set|use|pass|enable|disable)\s+[\x60'"]([a-z][\w]*)[\x60'"]/gi;

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
/** The key (or what it holds) sent somewhere: then its path is no mere default. */
const SENT_ON = /\b(?:sent|send|sends|upload\w*|post(?:s|ed)?|forward\w*|shar(?:e|es|ed)|attach\w*|includ\w*|transmit\w*|report\w*|contents?|text of)\b/i;
/** A tool whose declared work is SSH: the only one a key under ~/.ssh is for. */
const SSH_PURPOSE = /\b(?:ssh|sftp|scp|remote host|git over ssh|key ?pairs?)\b/i;
/** A tool whose declared work needs a key. */
const KEY_PURPOSE = /\b(?:ssh|sftp|scp|key ?pairs?|certificates?|gpg|pgp|signing|signatures?|tls|x\.?509)\b/i;

/** The SSH directory itself, or its files that hold no key: the client config and the known hosts. */
const SSH_PLACE = /(?:~|\$HOME)\/\.ssh(?:\/(?:config|known_hosts))?\/?(?![\w/.-])/;
/** A parameter that holds a directory or a config file's path. */
const PLACE_PARAM = /(?:^|_)(?:dir|directory|folder|path|config|config_?path|config_?file|known_hosts(?:_?(?:file|path))?)$/i;

/** A cloud or cluster CLI's own config files, named as where a profile or context comes from. */
const CLI_CONFIG = /~\/\.(?:aws\/(?:credentials|config)|kube\/config|config\/gcloud|azure)\b/;
const PROFILE_PARAM = /(?:^|_)(?:profile|profile_name|config|config_file|config_path|context|kubeconfig|kube_context)$/i;
const CLI_CONFIG_ALL = new RegExp(CLI_CONFIG.source, "g");
const CLOUD_PURPOSE = /\b(?:aws|s3|ec2|lambda|iam|gcloud|gcp|google cloud|azure|kubernetes|kubectl|k8s|clusters?|buckets?)\b/i;
/** A switch's own effect, said of the call: "When true, reports include user IP addresses". */
const SWITCH_EFFECT = /^\W*(?:when|if)\s+(?:true|enabled|set|on|false|disabled)\b[^.]*\b(?:includes?|contains?|attach(?:es)?|adds?|sends?|(?:is|are) sent)\b/i;
const SWITCH_NAME = /(?:^|_)(?:send|include|attach|with|enable|allow|collect|capture|share)(?:_|$)|^(?:pii|telemetry|tracking|analytics)$/i;

/** A parameter named for a secret: `access_token`, `api_key`, `password`, `client_secret`. */
const SECRET_PARAM = /(?:^|_)(?:tokens?|access_token|api_keys?|apikey|keys?|secrets?|client_secret|passwords?|passphrase|pat|credentials?)$/i;
/** The secret the sentence names, as a word of that parameter's name ("access token" for `access_token`). */
function namesParamSecret(s: string, param: string): boolean {
  const words = param.toLowerCase().split("_").filter((w) => w.length > 2);
  const last = words[words.length - 1];
  // Compared as words, not built into a pattern: a parameter name is data.
  return last !== undefined && s.toLowerCase().split(/[^a-z0-9]+/).some((w) => w === last || w === `${last}s`);
}
/** The vendor or product a secret is for, named right before it: "Plaid access token", "OpenAI API key". */
const SECRET_OWNER = /\b([A-Z][\w.-]*)\s+(?:(?:personal\s+)?access\s+|api\s+|auth\s+|secret\s+|bearer\s+|oauth\s+)?(?:tokens?|keys?|secrets?|passwords?|credentials?)\b/g;
/** Words before a secret that name no owner. */
const NO_OWNER = /^(?:the|your|a|an|its|their|this|that|optional|required|api|access|personal|secret|auth|oauth|bearer)$/i;
/** "set to true to include them", "true to show archived ones": what this parameter switches. */
const OWN_OPTION = /\bset (?:it |this(?: flag| option)? )?to (?:true|false)\b|\b(?:true|false) to (?:include|show|hide|skip|exclude|return|list)\b/i;
/** A tool whose declared work is prompts: templates, system prompts, personas. */
const PROMPT_PURPOSE = new RegExp(String.raw`\b(?:prompts?|system prompts?|personas?|templates?|gateway|to (?:a|another) model)\b|${CALLS_A_MODEL.source}`, "i");
const PROMPT_OBJECT = /\b(?:system prompts?|prompt templates?|system messages?)\b/gi;

/** A parameter that names a record rather than holding it: `conversation_id`, `thread_ids`, `message_key`. */
const HANDLE_PARAM = /(?:^|_)(?:id|ids|uuid|key|name|slug|ref)$/i;
const HANDLE_DESCRIPTION = /^\W*(?:the\s+)?(?:id|ids|identifier|uuid|name|key|slug|reference)\b/i;
/** An id copied from another call's results: "Copy the 'id' field from results". */
const HANDLE_COPIED = /^\W*(?:copy|use|pass|take) the ['"\x60]?(?:id|key|slug|uuid)['"\x60]? (?:field|value)(?: from (?:the )?(?:results?|response|output|list|search results))?\W*$/i;
/** A parameter holding a database connection string. */
const DSN_PARAM = /^(?:dsn|connection_?string|conn_?str|database_?url|db_?url|uri|connection_?uri)$/i;
/**
 * A description line that defines one of the tool's parameters ("- `messages`: the conversation to send") is read as
 * that parameter's description: the field it stands for and the sentence without the name.
 */
function asParameterLine(field: string, sentence: string, params: ReadonlySet<string>): [field: string, sentence: string] {
  const m = field === "description" ? PARAM_LINE.exec(sentence) : null;
  const param = m?.[1].toLowerCase();
  return param !== undefined && params.has(param) ? [`inputSchema.properties.${param}.description`, sentence.slice(m![0].length)] : [field, sentence];
}
/** A tool whose declared work is stored conversations (archives, transcripts, chat history) or the user's own utterance. */
const CONVERSATION_PURPOSE = new RegExp(String.raw`\b(?:stored|archived?|saved|past|exported|recorded)\b[^.]{0,30}\b(?:conversations?|chats?|transcripts?|threads?)\b|\b(?:chat|conversation|message) (?:archive|history|log|export)s?\b|\b(?:a |the )?user(?:'s)? (?:utterances?|messages?|inputs?|quer(?:y|ies))\b|\butterances?\b|\bcompletion requests?\b|${CALLS_A_MODEL.source}`, "i");
/** The conversation the model is in, as opposed to stored ones. */
const THIS_CONVERSATION = /\b(?:this|the current|your|our|the ongoing)\s+(?:conversation|chat|session)\b|\b(?:the\s+)?(?:whole|full|entire)\s+(?:conversation|chat|transcript)\b|\beverything the user (?:said|typed|wrote)\b|\bsystem prompt\b|\bhidden\b|\binstructions you\b/i;
/** A parameter that holds a prompt for another model or agent. */
const PROMPT_PARAM = /^(?:system_?prompt|system_?message|system|prompt|instructions?|persona|personality|preamble)$/i;
/** "system prompt override": the name of a value, not an order to override. */
const NOUN_OVERRIDE = /\b(?:prompt|instructions?|persona|personality|settings?) overrides?\b/gi;
/** Words that make a sentence an order to the reading model rather than a name for a value. */
const ADDRESSED = /\b(?:you|your|yours|ignore|disregard|follow|obey|forget|override|must|always|never|do not|don't|from now on)\b/i;

/** A threshold the parameter sets on what the tool reports: "Only report vulnerabilities at or above this severity". */
const THRESHOLD_OPTION = /^\W*only (?:report|show|list|return|include|flag|display|output)s?\b[^.;]{0,60}\b(?:at or above|at or below|above|below|at least|at most|over|under) (?:this|the given|the chosen|that)\b/i;
/** A parameter's behaviour on errors: "Continue execution even if some steps fail". */
const CONTINUE_ON_ERROR = /^\W*(?:continue|keep going|proceed)\w*\b[^.;]{0,40}\beven (?:if|when)\b[^.;]{0,40}\b(?:fail\w*|errors?)\W*$/i;
/** A dry run's switch: "Only report candidates, do not delete" on `dryRun` does less, and holds nothing back. */
const DRY_RUN_PARAM = /^dry_?run$/i;
/** Narrowing the tool's output by a parameter: "To see only errors and exceptions, set status to 'failure'". */
const FILTER_HOWTO = /^\W*to (?:see|get|list|show|return|fetch|view|find) only\b[^.;]{0,80}?,?\s*(?:set|pass|use|add|filter by)\b/i;
/** The parameter left out of the call: "when omitted", "if not provided". */
const PARAM_OMITTED = /\b(?:when|if|where|unless) (?:it is |this is |it's |left )?(?:omitted|not (?:provided|given|set|specified|supplied))\b/i;
const PARAM_OMITTED_ALL = new RegExp(PARAM_OMITTED.source, "gi");
/** Words of keeping something from someone, left after the parameter's own omission is set aside. */
const WITHHOLDING_WORD = /\b(?:omit\w*|leav\w* (?:\S+ )?out|left out|hid\w*|mention\w*|tell|told|silent\w*|quiet\w*|conceal\w*|secret\w*|unaware|notif\w*)\b/i;

/** Whether `sentence` (in `field`) describes one of the tool's own options for a reading of `category`, and which. */
export function optionNote(category: string, fieldName: string, sentence: string, ctx: OptionContext): OptionNote | undefined {
  if (obligesOrDeceives(sentence)) return undefined;
  const [field, s] = asParameterLine(fieldName, sentence, ctx.params);
  const param = parameterOfField(field);
  // "Optional system prompt for the second model." on `system_prompt`: what the parameter holds, said as a name.
  if ((category === "assistant-directive" || category === "resource-reach") && param !== undefined && /\.description$/.test(field) && PROMPT_PARAM.test(param) && !ADDRESSED.test(s.replace(NOUN_OVERRIDE, " ")) && s.split(/\s+/).length <= 12)
    return "the prompt the parameter is named for";
  if (category === "concealment" && param !== undefined && /\.description$/.test(field) && OWN_OPTION.test(s) && !OUTSIDE_PARTY.test(s)) return "an option of this parameter";
  // A threshold on what the tool reports, what a run does on errors, a dry run: the parameter shapes the tool's own work.
  if (category === "concealment" && param !== undefined && /\.description$/.test(field) && (THRESHOLD_OPTION.test(s) || CONTINUE_ON_ERROR.test(s) || DRY_RUN_PARAM.test(param)) && !OUTSIDE_PARTY.test(s)) return "an option of this parameter";
  // "To see only errors and exceptions, set status to 'failure'": how to narrow the tool's own output.
  if (category === "concealment" && FILTER_HOWTO.test(s) && !has(USER_SIDE, s.replace(FILTER_HOWTO, " "))) return "a filter of the tool's own output";
  // "Defaults to the original sender when omitted": what happens when the parameter is left out of the call.
  if (category === "concealment" && param !== undefined && /\.description$/.test(field) && PARAM_OMITTED.test(s) && !WITHHOLDING_WORD.test(s.replace(PARAM_OMITTED_ALL, " ")) && !OUTSIDE_PARTY.test(s)) return "what the call does without this parameter";
  if ((category === "resource-reach" || category === "assistant-directive") && PROMPT_PURPOSE.test(ctx.purpose) && PROMPT_OBJECT.test(s) && !CONVERSATION.test(s.replace(PROMPT_OBJECT, " ")) && !SECRET.test(s.replace(QUOTED_TEXT, " ")) && !FETCHED_FROM.test(s.replace(QUOTED_TEXT, " ")) && !ADDRESSED.test(s.replace(QUOTED_TEXT, " ")))
    return "a prompt tool's own object";
  // "ID of the conversation to fetch." on `conversation_id`: an identifier, not the conversation.
  if ((category === "resource-reach" || category === "exfiltration") && param !== undefined && /\.description$/.test(field) && HANDLE_PARAM.test(param) && ((HANDLE_DESCRIPTION.test(s) && !FETCHED_FROM.test(s)) || HANDLE_COPIED.test(s)) && !SECRET.test(s) && !ADDRESS.test(s))
    return "a handle, not what it names";
  // "Connection string including the password." on `dsn`: the password is part of the value the tool declares.
  if (category === "resource-reach" && param !== undefined && /\.description$/.test(field) && DSN_PARAM.test(param) && !FETCHED_FROM.test(s))
    return "a connection string's own password";
  // "Include system messages in the transcript." on a chat-archive tool: stored conversations are its work.
  if (category === "resource-reach" && param !== undefined && /\.description$/.test(field) && CONVERSATION_PURPOSE.test(ctx.purpose) && !THIS_CONVERSATION.test(s) && !SECRET.test(s) && !FETCHED_FROM.test(s))
    return "a conversation tool's own object";
  if (namesConversation(s)) return undefined;
  if (category === "concealment" && NOTIFY.test(s) && !OUTSIDE_PARTY.test(s) && !KEPT_FROM_KNOWING.test(s) && (namesOwnSwitch(s, ctx.params) || (param !== undefined && SWITCH_PARAM.test(param) && /\.description$/.test(field) && NOTIFY_ONLY.test(s))))
    return "a notification option";
  if (category === "resource-reach" && param !== undefined && /\.(?:default|examples?)(?:\[\d+\])?$/.test(field) && KEY_PATH_PARAM.test(param) && KEY_PATH.test(s) && KEY_PURPOSE.test(ctx.purpose) && (!/\.ssh\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b/i.test(s) || SSH_PURPOSE.test(ctx.purpose)) && !SENT_ON.test(s))
    return "a key path the tool declares";
  // "SSH directory. Default: ~/.ssh", "Config path. Default: ~/.ssh/config" on an SSH tool: the place it works in.
  if (category === "resource-reach" && param !== undefined && /\.(?:default|examples?)(?:\[\d+\])?$/.test(field) && PLACE_PARAM.test(param) && SSH_PLACE.test(s) && !KEY_PATH.test(s.replace(/\.ssh\/(?:config|known_hosts)\b/g, " ")) && SSH_PURPOSE.test(ctx.purpose) && !SENT_ON.test(s))
    return "a key path the tool declares";
  // "Named profile from ~/.aws/credentials or ~/.aws/config." on `profile` of an AWS tool: a name the CLI looks up.
  if (category === "resource-reach" && param !== undefined && /\.(?:description|default)$/.test(field) && PROFILE_PARAM.test(param) && CLI_CONFIG.test(s) && CLOUD_PURPOSE.test(ctx.purpose) && !SENT_ON.test(s) && !FETCHED_FROM.test(s.replace(CLI_CONFIG_ALL, " ").replace(/\bfrom\s+(?:or\s+)?/gi, " ")))
    return "a cloud CLI profile the tool declares";
  // "When true, reports include user IP addresses, cookies and request bodies." on `send_default_pii`: the switch.
  if ((category === "resource-reach" || category === "exfiltration") && param !== undefined && /\.description$/.test(field) && SWITCH_NAME.test(param) && SWITCH_EFFECT.test(s) && !ADDRESS.test(s) && !CONVERSATION.test(s) && !OBLIGED.test(s))
    return "what this switch includes";
  if (category === "resource-reach" && param !== undefined && /\.description$/.test(field) && SECRET_PARAM.test(param) && namesParamSecret(s, param) && !FETCHED_FROM.test(s) && vendorsDeclared(s, ctx.purpose))
    return "the secret the parameter is named for";
  return undefined;
}

/** The vendor a secret is named for is one the tool's purpose names ("Plaid" on plaid_get_transactions). */
function vendorsDeclared(s: string, purpose: string): boolean {
  for (const m of s.matchAll(SECRET_OWNER)) if (!NO_OWNER.test(m[1]) && !purpose.includes(m[1].toLowerCase())) return false;
  return true;
}
