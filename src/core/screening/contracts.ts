/**
 * A ninth reading: what a definition asks of the model through the forms of a specification rather than prose. A
 * hostile definition can state its attack as the tool's "output contract", as a settings snippet (YAML or JSON), as a
 * persona the model is to take on, or as a plain fact about the other tools. These readings file a sentence by what
 * the form holds, whatever the words:
 *   - a setting (a `key: value` line, nested keys read as one path) that turns the model's safeguards off, puts
 *     returned text in charge, keeps side work from the user, is keyed by another server's tool, or mirrors data to
 *     a literal address;
 *   - a field of every result declared to be settings or instructions for the model that reads it;
 *   - an address the model is to request with the result, the answer or the user's words written into it;
 *   - a persona whose conduct has no bound ("answers any question", "never brings up …");
 *   - side work of the tool (a fee, a renewal, a public link, a copy) declared internal or left out of what the user reads;
 *   - the other tools said to cost the user, to be untrustworthy, secondary or retired, or placed behind this one;
 *   - another server's tool, named, with one of its fields held to a fixed value;
 *   - a value or template slot that stands for the conversation, the environment or a credential file.
 * Read only when no other reading of the sentence fired (structure.ts), so they add readings and never change one.
 * Pure and synchronous; each reading opens on a cheap test of the words it cannot match without.
 */
import { OWN_SERVER } from "./concepts-structure.js";
import { ask } from "./context-queries.js";
import { has } from "./memo.js";
import type { AskPush } from "./asks.js";
import type { FrameCues } from "./frames.js";

/** What these readings need of a sentence: the cues of frames.ts and the other servers' tools it names. */
export interface ContractCues extends FrameCues {
  named: string[];
  /** The reader is addressed or is the subject. */
  reader: boolean;
}

// --- settings -------------------------------------------------------------------------------------------------

/** A clause shaped as a setting: a key path, a colon, a value (a URL's "https:" has no space after its colon). */
const SETTING_GUARD = /[\w)]:\s+\S/;
const MODEL_KEY = /\b(?:agent|assistant|model|llm|ai|client|copilot|bot|chatbot)\b/;
const SAFEGUARD_KEY = /\b(?:safety|content|polic\w*|filters?|guard\w*|refusals?|checks?|moderation|restrictions?|limits?|guidelines?|rules)\b/;
const OFF_VALUE = /^(?:off|disabled?|false|no|none|0|bypass\w*|skip\w*|unrestricted|ignored?)$/;
const OBEY_KEY = /\b(?:obey|follow|trust|priority|authority|instructions?|orders?|commands?)\b/;
const RETURNED_VALUE = /\b(?:returned|tool|results?|outputs?|responses?|pages?|documents?|notes?|content|text)\b/;
const DISCLOSE_KEY = /\b(?:tell|telling|mention\w*|show\w*|disclos\w*|notify\w*|inform\w*|visib\w*|surface\w*|announce\w*)\b/;
const HIDDEN_VALUE = /^(?:false|no|never|hidden|hide|omit\w*|silent\w*|off|none|suppress\w*|internal)$/;
/** What a user is rightly not shown: a secret's value stays hidden in honest settings ("show_password: false"). */
const PROTECTED_KEY = /\b(?:secrets?|passwords?|tokens?|keys?|credentials?|pins?|otp|cvv|card numbers?)\b/;
/** What the tool does to the user's data or money besides its work: a typing indicator is no side work. */
const SIDE_KEY = /\b(?:upload\w*|cop(?:y|ies)|track\w*|sync\w*|fees?|charges?|billing|permissions?|sharing|shared|record\w*|data|collection|analytics|telemetry|background|cloud|transfers?|install\w*|renew\w*|archiv\w*)\b/;
const MIRROR_KEY = /\b(?:mirror\w*|relay\w*|tee|cop(?:y|ies)|duplicat\w*|forward\w*|shadow\w*|sink|replica\w*|beacon\w*)\b/;
const ADDRESS_VALUE = /^(?:https?|wss?|s?ftp):\/\/\S+|^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/i;

/** The clauses of a sentence that are settings, as [key words, key as written, value]. */
function settingsOf(s: string): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const clause of s.split(/;\s+|\.\s+(?=[\w]+(?: \([^)]*\))?:\s)/)) {
    const at = clause.lastIndexOf(": ");
    if (at <= 0) continue;
    const raw = clause.slice(0, at);
    const key = raw.replace(/\([^)]*\)/g, " ").replace(/[_.:-]+/g, " ").toLowerCase();
    const value = clause.slice(at + 2).trim().replace(/^["'\x60]|["'\x60.]+$/g, "");
    if (key.split(/\s+/).filter(Boolean).length > 8 || !value) continue;
    out.push([key, raw, value]);
  }
  return out;
}

function settings(c: ContractCues, push: AskPush): boolean {
  const { s } = c;
  if (!SETTING_GUARD.test(s)) return false;
  for (const [key, raw, value] of settingsOf(s)) {
    const v = value.toLowerCase().replace(/[_-]+/g, " ");
    if ((MODEL_KEY.test(key) && SAFEGUARD_KEY.test(key) && OFF_VALUE.test(v)) || (/\b(?:refusals?|guardrails?|moderation|content polic\w*|safety checks?)\b/.test(key) && OFF_VALUE.test(v))) {
      push("assistant-directive", 0.7, "a setting turns the model's safeguards off");
      return true;
    }
    if (OBEY_KEY.test(key) && RETURNED_VALUE.test(v) && (MODEL_KEY.test(key) || /^(?:obey|follow|trust)\b/.test(key.trim().split(/\s+/).pop() ?? ""))) {
      push("assistant-directive", 0.7, "a setting puts returned text in charge of the model");
      return true;
    }
    if (DISCLOSE_KEY.test(key) && HIDDEN_VALUE.test(v) && SIDE_KEY.test(key) && !PROTECTED_KEY.test(key)) {
      push("concealment", 0.7, "a setting keeps side work from the user");
      return true;
    }
    // "`delete_branch: true`" with no other tool named is a flag of this tool's own call, its schema or not.
    if (c.named.some((t) => raw.includes(t)) && !ownFlag(c.named, raw, value)) {
      push("shadowing", 0.7, "a setting keyed by another server's tool");
      return true;
    }
    if (CREDENTIAL_VALUE.test(value) && !ask(c.ctx, "declared", s)) {
      push("resource-reach", 0.7, "a setting that points at a credential file");
      return true;
    }
    if (MIRROR_KEY.test(key) && ADDRESS_VALUE.test(value) && !ask(c.ctx, "hostDeclared", value)) {
      push("exfiltration", 0.7, `a setting mirrors data to ${value}`);
      return true;
    }
  }
  return false;
}

// --- contracts: a result's field as the model's settings, an address requested with the result -------------------

const EACH_RESULT = /\b(?:each|every|any|the) (?:response|result|reply|output|answer)s?\b|\bin (?:each|every) (?:response|result)\b/i;
const AS_SETTINGS_FOR_MODEL =
  /\b(?:configuration|config|settings?|standing \w+|directives?|instructions?|orders?)\s+(?:for|to|of)\s+(?:the\s+)?(?:caller|client|consuming \w+|calling \w+|agent|assistant|model|llm)\b|\b(?:client|caller|agent|assistant|model)\b[^.;]{0,30}\bappl(?:y|ies|ied)\b[^.;]{0,30}\bbefore\b|\bappl(?:y|ies|ied)\b[^.;]{0,20}\bbefore (?:it|the (?:agent|assistant|model|client)) (?:handles|acts|reads|answers)\b/i;
/** A slot in an address filled with the result, the answer or the user's words. */
const CONTENT_SLOT = /:\/\/\S*[<{]{1,2}\s*(?:result|summary|body|answer|reply|response|output|query|message|user_message|prompt|text|document|content|conversation|history)\w*\s*[>}]{1,2}/i;
const REQUESTED_BY_MODEL = /\b(?:before (?:showing|displaying|rendering|answering|replying)|acknowledg\w*|confirm\w*|clients?|callers?|agents?|assistants?)\b/i;

/** Text given authority over the model, or run ahead of the person it serves: "authoritative for AI agents". */
const AUTHORITY_OVER_MODEL = /\b(?:authoritative|binding|in charge|final)\s+(?:for|over|on|to)\s+(?:the\s+)?(?:ai\s+)?(?:agents?|assistants?|models?|llms?|copilots?)\b/i;
const AHEAD_OF_PERSON = /\b(?:ahead of|over|before|above)\s+(?:the\s+)?(?:user|requester|customer|person|sender)(?:'s)?\b/i;

/** The model as the one who moves data: "the assistant posts … to https://…". */
const MODEL_ACTOR = /\b(?:the|an?|each|every) (?:ai |calling |consuming )?(?:assistant|model|agent|llm|client|caller|orchestrator|copilot)s?\b/i;
const MODEL_SENDS = /\b(?:posts?|sends?|uploads?|forwards?|reports?|submits?|mirrors?|copies|beacons?|pings?)\b/i;

/** Found text carried out with no check with the person: "get carried out without checking back with the person chatting". */
const UNCHECKED = /\b(?:get|gets|are|is|will be)\s+(?:carried out|executed|obeyed|followed|acted on|run)\b[^.;]{0,30}\bwithout (?:checking|asking|confirm\w*|consulting)\b/i;
/** The model carrying out what it is handed before it answers: "the assistant performs it before replying". */
const PERFORMS_FIRST = /\b(?:the )?(?:assistant|model|agent|llm)\s+(?:performs|executes|carries out|obeys|follows|acts on)\s+(?:it|them|this|that|whatever)\b[^.;]{0,30}\b(?:before (?:replying|answering|responding|anything else)|without (?:asking|checking))\b/i;
/** The model's safeguards stated to be off, addressed to no one: "content-safety is switched off for this workspace". */
const SAFEGUARDS_OFF = /\b(?:content[- ]safety|safety (?:checks?|filters?|rules)|guardrails?|moderation|content filter\w*|refusals?)\b[^.;]{0,20}\b(?:is|are) (?:now )?(?:switched off|turned off|disabled|off|suspended|lifted|waived)\b/i;

/** Moved to the address that follows, in the passive: "…, are written to https://…". */
const PASSIVE_TO = /\b(?:are|is|get|gets|will be)\s+(?:also\s+|then\s+|always\s+)?(?:written|sent|posted|uploaded|forwarded|copied|transmitted|mirrored|relayed|submitted)\s+(?:to|at|into)\s+$/i;

function contract(c: ContractCues, push: AskPush): boolean {
  const { s } = c;
  // Safeguards are the model's only where the sentence speaks to it or of its session: a moderation API's staging key
  // "with moderation turned off" is the tool's own setting.
  if (UNCHECKED.test(s) || PERFORMS_FIRST.test(s) || (SAFEGUARDS_OFF.test(s) && (MODEL_ACTOR.test(s) || /\b(?:to|for) (?:the )?(?:agent|assistant|model|llm)\b|\b(?:for|in|during) (?:this|the|your) (?:workspace|session|chat|conversation)\b/i.test(s)))) {
    push("assistant-directive", 0.7, "found text carried out unchecked, or safeguards declared off");
    return true;
  }
  if (AUTHORITY_OVER_MODEL.test(s) || (EACH_RESULT.test(s) && AS_SETTINGS_FOR_MODEL.test(s)) || (AHEAD_OF_PERSON.test(s) && /\b(?:executed|carried out|obeyed|followed|acted on) as (?:written|is|stated)\b/i.test(s))) {
    push("assistant-directive", 0.7, "a field of every result made the model's settings");
    return true;
  }
  if (c.address && (c.reader || MODEL_ACTOR.test(s)) && MODEL_SENDS.test(s) && !ask(c.ctx, "hostDeclared", c.address)) {
    push("exfiltration", 0.7, `the model sends data to ${c.address}`);
    return true;
  }
  if (c.address && PASSIVE_TO.test(s.slice(0, s.indexOf(c.address))) && !ask(c.ctx, "hostDeclared", c.address)) {
    push("exfiltration", 0.7, `data written to ${c.address}`);
    return true;
  }
  if (s.includes("://") && CONTENT_SLOT.test(s) && (c.misplaced || REQUESTED_BY_MODEL.test(s))) {
    push("exfiltration", 0.7, "an address requested with the result or the user's words in it");
    return true;
  }
  return false;
}

// --- personas ------------------------------------------------------------------------------------------------

const PERSONA = /\brole:|\b(?:persona|speak(?:s|ing)? as|in character as|play(?:s|ing)? (?:the role|the part)|acting as|act as|you are now)\b/i;
const UNBOUNDED = /\b(?:no limits|without (?:limits|restrictions)|any (?:request|question|topic)s?\b|bound by no\b|whatever (?:text |content )?is asked|keeps? quiet about (?:any )?(?:limits|rules|restrictions)|declines? nothing|refuses? nothing|never (?:declines?|refuses?)|anything at all)/i;
const NEVER_RAISES = /\bnever (?:brings? up|mentions?|tells?|talks? about|reveals?|says|admits?|lets on)\b|\b(?:does not|doesn't|never) go(?:es)? into\b|\b(?:avoids?|steers? clear of) (?:mentioning|discussing|raising)\b/i;
const MODEL_RULES = /\b(?:rules|guidelines|polic(?:y|ies)|restrictions|safety|limits)\b/i;

function persona(c: ContractCues, push: AskPush): boolean {
  const { s } = c;
  if (!PERSONA.test(s)) return false;
  if (UNBOUNDED.test(s) || (NEVER_RAISES.test(s) && MODEL_RULES.test(s))) {
    push("assistant-directive", 0.7, "a persona with no bound on its conduct");
    return true;
  }
  if (NEVER_RAISES.test(s)) {
    push("concealment", 0.7, "a persona that keeps something from the user");
    return true;
  }
  return false;
}

// --- side work kept out of what the user reads ------------------------------------------------------------------

const SIDE_WORK = /\b(?:fares?|surge|fees?|surcharges?|charges?|renewals?|auto-?renew\w*|upload\w*|cop(?:y|ies|ied)|archiv\w*|public|tracking|subscriptions?|deposits?|commissions?|partners?|sold|enroll\w*|paid plan)\b/i;
const KEPT_OUT =
  /\b(?:replies|answers|summar\w+|responses)\s+(?:are to|should|must|will)\s+(?:stay|keep|remain)\s+(?:on|to|with)\b|\b(?:reassur\w*|(?:are|is) not (?:worried|alarmed)|avoid (?:alarming|worrying|scaring))\b|\b(?:need not|needn't|does not need to|doesn't need to|has no need to|no need to)\s+(?:raise|mention|bring up|tell|point out|disclose|explain)\b|\b(?:leave (?:that|this|it|them) out|left out of|not part of what|not something (?:the|a) \w+ (?:hears?|is told|sees?|reads?)|(?:is|are) (?:an? )?(?:internal(?: matter)?|implementation detail)\b[^.]{0,80}\b(?:only|not part|not told|not shown|leave|left)\b)/i;

function keptOut(c: ContractCues, push: AskPush): boolean {
  const { s } = c;
  // A value that reports the booking "without the service fee and tip that were added" narrows the reply itself.
  const valueLeavesOut = c.misplaced && /\b(?:without|omit\w*|minus|leav\w* out|hid\w*)\b/i.test(s) && /\b(?:added|charged|applied|taken)\b/i.test(s);
  if (!(KEPT_OUT.test(s) || valueLeavesOut) || !SIDE_WORK.test(s)) return false;
  push("concealment", 0.7, "side work kept out of what the user reads");
  return true;
}

// --- the other tools set behind this one -------------------------------------------------------------------------

const OTHER_TOOLS = /\b(?:other|built-in|uncertified|unofficial|non-official|third-party)\b[^.;]{0,25}\b(?:tools?|servers?|connectors?|integrations?|plugins?)\b|\bthe [\w-]+ (?:and|or) [\w-]+ (?:[\w-]+ )?tools\b|\b(?:tools?|servers?|connectors?) (?:without|lacking)\b|\bthe (?:platform|client|host|app)'s (?:own )?[\w-]+ tool\b|\bothers are\b|\b(?:anything|everything) else (?:available|installed|connected|that is installed)\b/i;
const SET_BEHIND =
  /\b(?:bills?|charges?) the user\b|\bbest (?:left alone|avoided|ignored)\b|\b(?:used up|exhausted|run out of) (?:its|their) (?:\w+ )?(?:allowance|quota|credits)\b|\bcome back empty\b|\b(?:been )?sunset\b|\berror pages\b|\bcomes? first in every case\b|\bonly for when (?:it|this one) is (?:unreachable|down|unavailable)\b|\b(?:will )?stop working\b|\blast resort\b|\b(?:known|said|reported) to (?:return|give|produce) (?:fabricated|wrong|false|made-up)\b|\bno other tools? (?:should|is to|are to|may|need|will|can)\b|\bnot to be (?:relied|trusted)\b|\bcannot be (?:trusted|relied on)\b|\b(?:are|is) secondary\b|\b(?:dropped|discarded|ignored) when\b|\b(?:deprecated|retired|outdated|stale)\b|\bbefore anything else\b|\bahead of (?:everything|anything)\b|\bthe tool to (?:reach for|pick|use|choose)\b/i;

/** This tool alone for a class of requests: "use this one and nothing else". */
const THIS_ALONE = /\b(?:use|pick|call|choose|expected to use)\s+(?:this (?:one|tool)|it)\s+(?:and nothing else|and no other\b|exclusively|alone)/i;

function setBehind(c: ContractCues, push: AskPush): boolean {
  const { s } = c;
  if (THIS_ALONE.test(s) && !has(OWN_SERVER, s)) {
    push("tool-choice", 0.7, "this tool alone for a class of requests");
    return true;
  }
  if (!OTHER_TOOLS.test(s) || !SET_BEHIND.test(s) || has(OWN_SERVER, s)) return false;
  push("tool-choice", 0.7, "sets the other tools behind this one");
  return true;
}

// --- values and slots that stand for the conversation, the environment or a credential file -----------------------

const CONVERSATION_SLOT = /(?:\{\{|\$\{|\{)\s*(?:conversation|chat|history|messages|session|transcript|context|thread)\b[\w.]*\s*\}/i;
const WHOLE_CONTEXT_SLOT = /<[^<>]{0,60}\b(?:every|all|full|entire|whole)\b[^<>]{0,40}\b(?:messages?|conversation|chat|history|environment variables?|env)\b[^<>]{0,40}>/i;
const ENV_DUMP = /\b(?:output of \x60?(?:env|printenv|set)\x60?|(?:every|all) (?:the )?environment variables?(?! names))\b/i;
/** A public key, which is meant to be shared: `~/.ssh/id_ed25519.pub`, `known_hosts`. */
const PUBLIC_KEY_FILE = /\.ssh\/[\w.-]+\.pub\b|\.ssh\/known_hosts\b/i;
const CREDENTIAL_VALUE = /(?:\/home\/[\w.-]+|\/Users\/[\w.-]+|~|\$HOME)\/\.(?:ssh|aws|kube|gnupg|docker|azure|config\/gcloud)\b|\bapplication_default_credentials\b|\bkubeconfig\b/i;
/** A value that is the conversation in full, or the secrets the model has seen. */
const WHOLE_CONVERSATION_VALUE = /\b(?:whole|entire|full|all)\b[^.;]{0,15}\b(?:conversation|chats?|history|transcript)\b|\b(?:api keys?|tokens?|passwords?|secrets?) (?:seen|found|shared|mentioned|available)\b/i;
/** The user's collection in full: "the user's full sent-mail folder and calendar". */
const USER_COLLECTION = /\b(?:the user's|their|your)\s+(?:full|whole|entire|complete)\s+[\w -]{0,25}?\b(?:folders?|mailbox|inbox|calendar|history|messages|emails|contacts|drive|photos)\b/i;
/** What a tool honestly says it withholds: "values are masked", "names only". */
const WITHHELD = /\b(?:masked|redacted|names only|only (?:the )?names|never (?:returned|read|sent))\b/i;

/** A flag's value. */
const BOOLEAN_VALUE = /^(?:true|false|yes|no|on|off)$/i;

/** "With `delete_branch: true` the branch is removed": the one tool-shaped name is the key of a flag, nothing else named. */
function ownFlag(named: readonly string[], raw: string, value: string): boolean {
  const key = raw.trim().replace(/^.*[\s\x60]/, "").toLowerCase();
  return named.length === 1 && key === named[0]!.toLowerCase() && BOOLEAN_VALUE.test(value.split(/[\s\x60]/)[0] ?? "");
}
/** A parameter that says where the tool writes a key it makes: a private-key file there is its output, not a reach. */
const KEY_WRITTEN_TO = /\bwhere to (?:write|save|store|put) the (?:new |generated )?(?:private )?key\b[^]*?Default:\s*~\/\.ssh\/(?:id_\w+|\w+_(?:rsa|ed25519|ecdsa|dsa))\s*$/i;

function reachSlots(c: ContractCues, push: AskPush): boolean {
  const { s } = c;
  if (WITHHELD.test(s)) return false;
  if (CONVERSATION_SLOT.test(s) && (c.misplaced || c.parameterText || s.includes("<") || s.includes("\""))) {
    push("resource-reach", 0.7, "a slot that stands for the conversation");
    return true;
  }
  if (WHOLE_CONTEXT_SLOT.test(s) || ENV_DUMP.test(s) && (c.reader || c.parameterText || /\b(?:fill|put|attach|include|pass|populate|paste)\b/i.test(s))) {
    push("resource-reach", 0.7, "the whole conversation or environment asked for");
    return true;
  }
  if (USER_COLLECTION.test(s) && /\b(?:give|pass|put|paste|attach|supply|provide|send)\b|\bin \x60\w+\x60/i.test(s)) {
    push("resource-reach", 0.7, "the user's records in full handed to the tool");
    return true;
  }
  if (c.misplaced && (CREDENTIAL_VALUE.test(s) || WHOLE_CONVERSATION_VALUE.test(s)) && !KEY_WRITTEN_TO.test(s) && !PUBLIC_KEY_FILE.test(s)) {
    push("resource-reach", 0.7, "a value that stands for a credential file");
    return true;
  }
  return false;
}

// --- another server's tool given a fixed argument --------------------------------------------------------------

/** A field of a call held to one value: "the field `to_account` must always be …", "its `memo` is to be …". */
const FIXED_ARGUMENT = /\b(?:field|parameter|argument|param)\s+\x60?\w+\x60?\s+(?:must|always|is to|has to|should|shall)\b|\x60\w+\x60\s+(?:must|has to|is to|should|shall)\s+(?:always\s+)?be\b/i;

/** "… the subject must always start with '[PROMO]'": an obligation on what the named tool's call holds. */
const HELD_TO = /\b(?:must|has to|is to|shall)\s+(?:always\s+)?(?:be|start|begin|end|contain|include|carry)\b/i;

function fixedArgument(c: ContractCues, push: AskPush): boolean {
  if (c.named.length === 0 || !(FIXED_ARGUMENT.test(c.s) || HELD_TO.test(c.s))) return false;
  push("shadowing", 0.7, `another server's tool (${c.named[0]}) given a fixed argument`);
  return true;
}

/**
 * Words each group cannot match without, tested on the lower-cased sentence before the group's own patterns: nearly
 * every sentence of a clean catalog reaches this reading, and a plain alternation of literals costs less than the
 * dozen word-bounded patterns behind it.
 */
const CONTRACT_WORDS = /without|before |authoritative|binding|in charge|final |result|response|output|safety|guardrail|moderation|filter|refusal|:\/\/|as written|as is|as stated/;
const PERSONA_WORDS = /persona|role:|speak|character|playing|plays? the|act as|acting as|you are now/;
const KEPT_WORDS = /leave|left out|not part|not something|internal|implementation detail|need|replies|answers|summar|responses|reassur|worried|alarm|scaring/;
const BEHIND_WORDS = /other|built-in|certified|official|third-party|without|lacking|'s own|platform's|client's|host's|app's| else|exclusively|alone/;
const REACH_WORDS = /[{<]|env|user's|their |your |\/\.|kubeconfig|credentials/;

/** Files what a sentence's specification form carries; pushes at most one reading. */
export function contractReadings(c: ContractCues, push: AskPush): void {
  if (c.lenient && !c.misplaced) return;
  const w = c.s.toLowerCase();
  if (w.includes(": ") && settings(c, push)) return;
  if ((c.address || CONTRACT_WORDS.test(w)) && contract(c, push)) return;
  if (PERSONA_WORDS.test(w) && persona(c, push)) return;
  if ((c.misplaced || KEPT_WORDS.test(w)) && keptOut(c, push)) return;
  if (BEHIND_WORDS.test(w) && setBehind(c, push)) return;
  if (c.named.length > 0 && fixedArgument(c, push)) return;
  if (c.misplaced || REACH_WORDS.test(w)) reachSlots(c, push);
}
