/**
 * Notes that route the model between tools the way honest servers write them, and that the steering and
 * tool-choice readings would otherwise file:
 *
 * - a tool that declares itself deprecated and names its successor ("Deprecated: use search_docs; removed in 3.0",
 *   "DEPRECATED — superseded by get_pull_request"): it sends the model away from itself, which gains an attacker
 *   nothing, whoever the successor belongs to;
 * - a redirect scoped to part of the work ("Use read_text_file instead for text", "Prefer this over exec for builds
 *   that do not exit") that routes work away from no tool another server of the catalog offers (unless this tool's
 *   name makes it a special case of that one, `read_large_file` of `read_file`): advice on which of two tools fits a
 *   case, not a claim on every request or on another server's work;
 * - a lookup before this tool ("Call list_tables first to learn the schema", "Run list_snapshots first to find the
 *   id"): a read-only tool called for this tool's input, and nothing called after it, asks nothing of that tool
 *   beyond its answer;
 * - what this tool needs to exist and the tool that creates it ("Entities must exist; create them with
 *   create_entities"): the thing is named in that tool's name, and nothing else is asked of it.
 *
 * A note is only that when the sentence carries nothing else the categories are about: no quantifier over every
 * request or every other tool, no disparagement of another tool, no secret, conversation or address, nothing kept
 * from the user, no change to another tool's arguments. Such a sentence keeps every reading it had.
 */
import { ADDRESS, CONVERSATION, SECRET } from "./concepts-objects.js";
import { declared } from "./context-queries.js";
import { fieldName, specializes, tokensOf } from "./steering.js";
import { CONCEAL, DECEIVE } from "./concepts-parties.js";
import { SHELL_REDIRECT } from "./concepts-structure.js";

/** Why a sentence reads as a routing note (for the record), or undefined. */
export type RoutingNote = "successor of a deprecated tool" | "scoped redirect" | "lookup before this tool" | "what must exist, created first" | "this tool succeeds an older one";

/** What a routing note needs to know of its tool. */
export interface RoutingContext {
  /** The tool's own names, lower case (with and without a `server__` prefix). */
  selfNames: ReadonlySet<string>;
  /** The tool's description declares the tool itself deprecated (`declaresItselfDeprecated`). */
  selfDeprecated: boolean;
  /** The catalog has a tool of this name on another server (steering.ts `knownTool` and `foreignTool`). */
  knownForeign: (token: string) => boolean;
  /** The tool's parameter names (lower case): a lookup's result passed as one of them is this tool's input. */
  params: ReadonlySet<string>;
  /** The tool's name and first sentence (`purposeOf`): a secret its work declares may be read first. */
  purpose: string;
}

const DEPRECATED_WORD = String.raw`(?:deprecated|obsolete|legacy|retired|superseded|sunset)`;
/** "Deprecated: …", "DEPRECATED — …", "[Deprecated] …", "⚠️ Deprecated." at the start of the description. */
const DEPRECATED_LEAD = new RegExp(String.raw`^[^\p{L}\p{N}]{0,6}${DEPRECATED_WORD}\b\s*(?:[:.;,—–)\]-]|\s+(?:in favou?r of|since|as of|and)\b)`, "iu");
/** What follows a tool's own name when it says it is deprecated: "` is deprecated", " will be removed". */
const SAID_DEPRECATED = new RegExp(String.raw`^[\x60'"]?\s+(?:is|has been|will be)\s+(?:now\s+)?(?:${DEPRECATED_WORD}|removed)\b`, "i");
/** A deprecation word anywhere. */
const DEPRECATED_MENTION = new RegExp(String.raw`\b${DEPRECATED_WORD}\b`, "i");
/** "this tool is deprecated", "this version will be removed", "it has been superseded". */
const THIS_DEPRECATED = new RegExp(
  String.raw`\b(?:this (?:tool|one|version|endpoint|command|function|method|api|operation|action)|it)\s+(?:is|has been|was|will be|is being|is now)\s+(?:now\s+)?(?:${DEPRECATED_WORD}|removed|scheduled for removal|replaced)\b`,
  "i",
);
/** What follows a leading "Deprecated:" when it names the deprecated thing: a tool-shaped name. */
const NAMED_AFTER_LEAD = /^[^\p{L}\p{N}]{0,6}[a-z]+\b\s*[:.;,—–)\]-]?\s*[`'"]?([A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)+)[`'"]?\s*(?:[,.;:(]|$|\s+(?:is|are|tools?|from|on|of)\b)/iu;

/** The tool's description says the tool itself is deprecated (not another tool). */
export function declaresItselfDeprecated(description: string, selfNames: ReadonlySet<string>): boolean {
  const text = description.trim();
  // Most descriptions say nothing of the kind: no pattern is built for them.
  if (!DEPRECATED_MENTION.test(text) && !/\bremoved\b/i.test(text)) return false;
  // "Deprecated: …" at the start of the description or of any of its sentences ("Lists events. Deprecated: use …").
  for (const part of text.split(/(?<=[.!?])\s+|\n+/)) {
    if (!DEPRECATED_LEAD.test(part)) continue;
    // "Deprecated: search_web (the search server)" names what is deprecated: itself only when that is this tool.
    const named = NAMED_AFTER_LEAD.exec(part)?.[1]?.toLowerCase();
    if (!named || selfNames.has(named) || /^(?:use|call|see|prefer)$/.test(named)) return true;
  }
  if (THIS_DEPRECATED.test(text)) return true;
  // "search_v1 is deprecated" by its own name (found as a string: a name is data, never part of a pattern).
  const lower = text.toLowerCase();
  for (const self of selfNames) {
    if (!self) continue;
    for (let at = lower.indexOf(self); at >= 0; at = lower.indexOf(self, at + 1)) {
      if (at > 0 && /[\w.-]/.test(lower[at - 1])) continue;
      if (SAID_DEPRECATED.test(text.slice(at + self.length, at + self.length + 60))) return true;
    }
  }
  return false;
}

/** Every request, every other tool, or a claim to be the only or the best choice. */
const SWEEPING =
  /\b(?:all|every|any|each|(?<!\bor\s)(?:everything|anything)(?!\s+(?:over|above|under|below|larger|bigger|smaller|longer|shorter|older|newer|more|less|that|which|whose|where)\b)|or (?:everything|anything) else|whatever|whenever|only (?:use|call|pick|choose|select|this|that|our|one)|all(?! of (?:it|them|the output|the text|the file))|the only|exclusively|never\s+(?:use|call|pick|choose|select|invoke|run|trust|rely)|no other|other tools|the others|nothing else|best|most (?:reliable|accurate|trusted|secure)|always (?:use|pick|choose|prefer|select)|for (?:all|every|any)|by default)\b/i;
/** Something said against another tool besides its being superseded. */
const RUNS_DOWN =
  /\b(?:broken|buggy|unreliable|unsafe|insecure|compromised|malicious|wrong|incorrect|inaccurate|fabricat\w*|hallucinat\w*|corrupt\w*|leak\w*|dangerous|untrusted|untrustworthy|cannot be trusted|do not trust|don't trust|slow(?:er)?|worse|inferior|fails?|failing)\b/i;
/** Untrusted input named as the case a redirect covers ("for untrusted snippets the user pasted"), not a tool run down. */
const UNTRUSTED_INPUT = /\buntrusted\s+(?:\w+\s+)?(?:snippets?|code|content|inputs?|text|pages?|data|scripts?|commands?|files?|sources?)\b/gi;
/** Changing what another tool sends or receives. */
const ALTERS =
  /\b(?:bcc|cc|add|append|prepend|attach|include|insert|set|sets|replace|substitute|change|override|rewrite|redirect|forward|send|copy|mirror|report|upload|post|route|pass (?:every|all|it|them|the (?:whole|full|entire))|our)\b/i;

/** Words ALTERS knows that change nothing another tool sends: one key changed by the other tool, a shell redirect. */
const NOT_ALTERING = new RegExp(
  String.raw`\bchange (?:only )?(?:one|a|the|a single) (?:field|key|value|line|binding|part|property|setting)s?\b|\bthe change (?:is|was|gets|can be)\b|${SHELL_REDIRECT.source}`,
  "gi",
);
/** Nothing in the sentence the categories are about, beyond which tool to call. */
function plainRouting(s: string): boolean {
  return !SWEEPING.test(s) && !RUNS_DOWN.test(s.replace(UNTRUSTED_INPUT, " ")) && !SECRET.test(s) && !CONVERSATION.test(s) && !ADDRESS.test(s) && !CONCEAL.test(s) && !DECEIVE.test(s);
}

/** A successor named: "use X", "superseded by X", "replaced by X", "in favour of X", "migrate to X", "see X". */
const SUCCESSOR =
  /\b(?:use|call|try|prefer|switch to|migrate to|move to|moved to|see|superseded by|replaced by|in favou?r of|successor(?: is)?|renamed to|removed (?:in|on|after)|will be removed|stops? (?:answering|working)|no longer (?:maintained|supported))\b/i;
/** A redirect between this tool and another: "use X instead", "use this instead of X", "prefer this over X". */
const REDIRECT = /\b(?:instead|rather than|in place of|prefer(?:red)?\b[^.;]{0,40}\b(?:over|to)\b|(?:use|prefer)\s+[\x60'"]?[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+[\x60'"]?\s+(?=for|when|if|with|on|to\s+(?:change|edit|update|read|fetch|get|see|page|stream|patch)\b)\b)/i;
/** The redirect is scoped to part of the work: "for text", "for logs and other large files", "when the file is binary". */
const SCOPE = /\bto\s+(?:change|edit|update|patch)\s+(?:only\s+)?(?:one|a|a single|part of|some)\b|\bto\s+\w+\s+(?:in|on|inside|within)\s+(?:a|an|the)\s+\w+|\b(?:for|when|if|with|on)\s+(?!(?:all|every|any|each|everything|most|general|this)\b)(?!anything\b(?!\s+(?:that|which|whose|where|over|above|longer|larger|bigger|more)\b))(?:the\s+|a\s+|an\s+)?[a-z][\w-]*/i;
/** Praise that makes a redirect a claim: "faster", "more accurate", "the recommended one". */
const PRAISE = /\b(?:better|faster|quicker|cheaper|newer|improved|superior|recommended|preferred|official|trusted|verified|(?<!\b(?:stays?|remains?|kept|keeps?|is kept)\s)(?:accurate|reliable|secure)|safer|more (?!than\b)\w+)\b/i;
/** Other tools said to go as well: "the Sentry server's get_issue is deprecated upstream too", "sunset … as well". */
const OTHERS_GO_TOO = /\b(?:as well|too|also|either)\b|\b(?!(?:this|our|same|its)\b)[\w-]+ server'?s\b|\b(?:another|other) [\w-]+ server\b|\bthe (?!same\b)[\w-]+ server\b/i;
/** A successor named right after what names one: "use X", "superseded by X", "switch to X". */
const SUCCESSOR_BEFORE = /\b(?:use|call|try|prefer|switch to|migrate to|move to|moved to|see|superseded by|replaced by|in favou?r of|successor(?: is)?|renamed to)\s+(?:the\s+)?[\x60'"]?$/i;
/** Every tool a deprecation note names, besides this one and its parameters, is named as its successor. */
function onlySuccessorsNamed(s: string, ctx: RoutingContext): boolean {
  for (const m of s.matchAll(/(?<![$\w-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]/g)) {
    const t = m[0];
    if (!(t.includes("_") || ctx.knownForeign(t)) || ctx.selfNames.has(t.toLowerCase()) || ctx.params.has(t.toLowerCase())) continue;
    if (!SUCCESSOR_BEFORE.test(s.slice(Math.max(0, m.index! - 30), m.index))) return false;
  }
  return true;
}

/** What a redirect routes work away from: "instead of X", "rather than X", "in place of X", "over X", "prefer A to X". */
const DISPLACED = /\b(?:instead of|rather than|in place of|over|prefer(?:red)?\s+\S+\s+to)\s+([^.;:]{0,80})/gi;
function displaced(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(DISPLACED)) out.push(...tokensOf(m[1]));
  return out;
}
/** The scope first: "For repositories hosted on GitHub, use a GitHub server instead", "To change part of a file, use edit_file". */
const SCOPE_LEAD = /^\W*(?:for|to|when|if)\s+(?!(?:all|every|any|each|everything|anything|most|general)\b)[^,;]{2,60}?(?:,\s*|\s+)(?:use|call|prefer|try)\s+(?:[\x60'"]?[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+[\x60'"]?|(?:a|an|the)\s+[\w-]+\s+(?:server|tool|integration)|this (?:tool|one))\b/i;
/** "Use this for DDL instead of …": a short case named right before the redirect. */
const SCOPE_BEFORE = /\b(?:use|call|prefer)\s+(?:this|it)\s+for\s+(?!(?:all|every|any|each|everything|anything)\b)[\w\s(),-]{1,30}?\s+(?:instead of|rather than)\b/i;
/** The case as the subject: "Long-running jobs (servers, watchers) should use `start_process` instead". */
const SUBJECT_SCOPED = /^\W*(?!(?:all|every|any|each|most)\b)[\w\s(),'-]{3,60}?\s+(?:should|must|can|need to)\s+(?:use|go through|be (?:run|done|handled) (?:with|by|through))\s+[\x60'"]?[a-z][\w-]*[\x60'"]?\s+instead\b/i;
/** What the user asked for is what a redirect may not replace. */
const ASKED = /\b(?:the user|the person|the customer|they)\s+(?:\w+\s+)?(?:asks?|asked|requests?|requested|wants?|chose|named|picked)\b|\basked for\b|\brequested\b/i;
/** What a lookup is for: this tool's input ("to learn the schema", "to find the snapshot id", "if you don't know the name"). */
const FOR_THIS_INPUT =
  /\b(?:to|and)\s+(?:find|get|learn|look up|know|confirm|check|see|obtain|resolve|choose|pick|identify|discover|fetch|read|make sure|verify|preview)\b|\bto avoid (?:duplicates|duplicating|conflicts|collisions|creating)\b|\brather than guessing\b|:\s+\w+(?:ing)?\s+(?:\w+\s+)?fails?\s+(?:while|if|when|unless)\b|\band pass (?:the |its )?(?:chosen |returned |resulting |selected )?[\x60'"]?\w+|\bso (?:that )?(?:you|it) (?:use|have|get|know|pick|pass)\b|\b(?:to|and) (?:show|tell|let) (?:the user|them)\b|\band show (?:the|its|their) \w+ to (?:the user|them)\b|\b(?:and|to)\s+(?:\w+\s+)?only (?:when|if|after)\b|\bif you(?:'re| are)? (?:do not|don't|only|need|not sure|unsure|aren't sure)\b|\b(?:the|its|a|an) (?:exact |valid |right |correct )?(?:ids?|identifiers?|names?|keys?|schema|columns|paths?|slugs?|numbers?|handles?)\b/i;
/** Personal data or messages handed on: "the replies, author names included", "customer emails and card fingerprints". */
const PERSONAL_PASSED = /\b(?:author|customer|user|sender|recipient|member|employee|patient)s?'?\s+(?:names?|emails?|addresses|phones?|details)\b|\b(?:emails?|e-mail addresses|phone numbers?|card (?:numbers?|fingerprints?)|fingerprints?|replies|messages|threads?|discussion|conversation|transcripts?|history|notes)\b[^.;]{0,30}\b(?:as|in|into)\b/i;
/** What a lookup's result may be passed on as: an id, a name, a key (of a record, not a secret). */
function passesOnlyHandles(s: string): boolean {
  const m = /\b(?:and|then)\s+pass(?:es|ing)?\s+(?:the\s+|its\s+|their\s+)?([^.;,]{0,60})/i.exec(s);
  if (!m) return true;
  return /^(?:(?:chosen|returned|resulting|selected|matching|exact|new)\s+)?[\x60'"]?[\w-]*(?:ids?|identifiers?|names?|keys?|slugs?|handles?|numbers?|refs?|cursors?|tokens?)[\x60'"]?(?:\s|$)/i.test(m[1].trim());
}
/** Why the lookup is needed, said of this tool: ": merging fails while required checks are pending or failing". */
const OWN_FAILURE = /:\s+\w+(?:ing)?\s+(?:\w+\s+)?fails?\s+(?:while|if|when|unless)\b[^.;]*|\botherwise (?:the call|it|this tool|the request) (?:fails|errors|is rejected)\b/gi;
/** More calls after the lookup: "then pause_project on each", "and call it for every result". */
const CALLS_MORE = /\b(?:then|afterwards|after that|each|every|all of them|for all)\b/i;
/** A call put before every request or every other tool: "before any other tool", "at the start of every conversation". */
const BEFORE_EVERYTHING = /\b(?:every|all|any|each)\s+(?:other\s+)?(?:\w+\s+)?(?:tools?|requests?|calls?|questions?|tasks?|conversations?|sessions?|turns?|messages?)\b|\bbefore (?:anything|everything)\b|\bother tools\b|\bthe others\b/i;
/** A read-only tool by its name: `list_tables`, `slack_list_channels`, `notion_retrieve_database`, `estimate_gas`. */
const LOOKUP_NAME = String.raw`(?:[a-z0-9]+(?:__|[_-]))*?(?:list|get|describe|search|read|find|show|fetch|retrieve|resolve|lookup|look_up|view|inspect|query|count|preview|explain|check|validate|dry_run|plan|estimate|backup|snapshot|export|test|simulate|status|rates?|quote|whoami|info|current|diff)(?:[_-][a-z0-9]+)*`;
const IS_LOOKUP_NAME = new RegExp(`^${LOOKUP_NAME}$`, "i");
/**
 * A lookup before this tool: "call list_tables first", "always call list_buckets before delete_bucket", "run X first",
 * "use slack_list_channels to find the channel id".
 */
const LOOKUP_FIRST = new RegExp(
  String.raw`\b(?:call|run|use|invoke|query|check)\s+(?:the\s+)?[\x60'"]?(${LOOKUP_NAME})[\x60'"]?(?:\s+tool)?(?:\s+and\s+(?:then\s+)?[\x60'"]?${LOOKUP_NAME}[\x60'"]?)?\s+(?:first|before|beforehand|after this)\b|\b(?:check|double-check|verify|confirm)\s+(?:it|them|the\s+\w+)\s+(?:with|using|via|through)\s+[\x60'"]?(${LOOKUP_NAME})[\x60'"]?\s+first\b|\b(?:read|fetch|get|check|look)\s+(?:it|them|the\s+\w+)\s+(?:up\s+)?first\s+(?:with|using|via|through)\s+[\x60'"]?((?:[a-z0-9]+(?:__|[_-]))*?(?:list|get|describe|search|read|find|show|fetch|retrieve|lookup|view|inspect|query)(?:[_-][a-z0-9]+)*)[\x60'"]?|\b(?:use|call|run)\s+(?:the\s+)?[\x60'"]?(${LOOKUP_NAME})[\x60'"]?(?:\s+tool)?\s+to\s+(?:find|get|look up|learn|obtain|discover|see|list|resolve|identify|confirm)\b`,
  "i",
);
/** A further lookup in the chain ("and then describe_table"), or the user asked or shown ("then ask them to confirm"). */
const CHAINED = new RegExp(String.raw`\b(?:and\s+)?then\s+(?:call\s+|use\s+|run\s+)?[\x60'"]?${LOOKUP_NAME}[\x60'"]?|\bthen\s+(?:ask|show|tell|confirm with)\s+(?:the user|them|the person)\b`, "gi");

/**
 * What this tool needs to exist, and the tool that creates it: "Entities must exist; create them with create_entities",
 * "Both entities must already exist; call create_entities first". The thing is named in the creating tool's name.
 */
const CREATED_FIRST =
  /\b(?:use|call|run)\s+[\x60'"]?((?:[a-z0-9]+(?:__|[_-]))*?(?:create|add|new|register|make)(?:[_-][a-z0-9]+)+)[\x60'"]?\s+first\s+if\s+(?:an?|the|any)\s+(\w+)\s+(?:does not|doesn't|do not|don't)\s+(?:yet\s+)?exist|\b(\w+)\s+(?:must|should|need to|needs to|has to|have to)\s+(?:already\s+)?exist\b[^.;]{0,30}?[;,:.—–-]?\s*(?:create (?:them|it|one|those)(?:\s+first)?\s+(?:with|using|via)|call|use|run)\s+(?:the\s+)?[\x60'"]?((?:[a-z0-9]+(?:__|[_-]))*?(?:create|add|new|register|make)(?:[_-][a-z0-9]+)+)[\x60'"]?(?:\s+first)?/i;
/** "Call create_invoice first and pass its id" on a tool whose name or parameters name the invoice. */
/** "Call git_push first so the head branch exists on the remote": a step that makes what this tool needs exist. */
const FIRST_SO_EXISTS = /\b(?:call|run|use)\s+(?:the\s+)?[\x60'"]?((?:[a-z0-9]+(?:__|[_-]))*?(?:create|add|new|register|make|open|start|push|upload|publish|deploy|init|initiali[sz]e)(?:[_-][a-z0-9]+)*)[\x60'"]?\s+first\s+so\s+(?:that\s+)?(?:the\s+)?[\w\s-]{1,30}?\s+exists?\b/i;
const CREATED_THEN_PASSED = /\b(?:call|run|use)\s+(?:the\s+)?[\x60'"]?((?:[a-z0-9]+(?:__|[_-]))*?(?:create|add|new|register|make|open|start)(?:[_-]([a-z0-9]+))+)[\x60'"]?\s+first\s+and\s+pass\s+(?:its|the(?:\s+(?:returned|new))?)\s+[\x60'"]?(?:id|[a-z]+_id|key|number|handle)\b/i;
function createdFirst(s: string, ctx: RoutingContext): boolean {
  const exists = FIRST_SO_EXISTS.exec(s);
  if (exists) {
    const creator = exists[1].toLowerCase();
    const rest = s.slice(exists.index + exists[0].length);
    return tokensOf(s).every((t) => t.toLowerCase() === creator || ctx.selfNames.has(t.toLowerCase()) || ctx.params.has(t.toLowerCase())) && plainRouting(s) && !ALTERS.test(rest) && !CALLS_MORE.test(rest);
  }
  const m = CREATED_FIRST.exec(s);
  const passed = m ? undefined : CREATED_THEN_PASSED.exec(s);
  if (!m && !passed) return false;
  // "Use create_entities first if an entity does not exist" names the creator first; "Entities must exist; create them
  // with create_entities" names it last.
  const creator = (m ? m[1] ?? m[4] : passed![1]).toLowerCase();
  // What is created: the subject that must exist, or the creator's last word when this tool takes it.
  const thing = (m ? m[2] ?? m[3] : passed![2]).toLowerCase().replace(/(?:ies|es|s|y)$/, "");
  if (thing.length < 3 || !creator.split(/[_.-]+/).some((w) => w.startsWith(thing))) return false;
  if (passed && ![...ctx.params, ...ctx.selfNames].some((n) => n.includes(thing))) return false;
  const end = (m ?? passed)!.index + (m ?? passed)![0].length;
  // Other tools named for the same thing ("once finalize_invoice is called") belong to the same family.
  // Lookups named beside it ("search_nodes finds existing ones") and the tool this one batches are no further asks.
  const others = tokensOf(s).filter((t) => t.toLowerCase() !== creator && !t.toLowerCase().includes(thing) && !ctx.selfNames.has(t.toLowerCase()) && !ctx.params.has(t.toLowerCase()) && !fieldName(t) && !IS_LOOKUP_NAME.test(t) && !specializes(ctx.selfNames, t) && (!/^[a-z]+(?:-[a-z]+)+$/.test(t) || ctx.knownForeign(t)));
  return others.length === 0 && plainRouting(s) && !ALTERS.test(s.slice(end)) && !CALLS_MORE.test(s.slice(end));
}

/**
 * Whether `sentence` (of the tool's description) is a routing note, and which kind. `ctx.selfDeprecated` comes from
 * `declaresItselfDeprecated` on the tool's whole description.
 */
/** This tool named as the successor of one older tool: "This tool replaces the deprecated search_prompts tool". */
const REPLACES_OLDER = /^\W*(?:this tool |it )?replaces the (?:deprecated|legacy|old|older|previous|retired) \x60?([a-z][\w-]*)\x60?(?: tool)?(?:,? which (?:will be|is being|was) (?:removed|retired|deleted)(?: in [\w .-]{1,30})?)?\W*$/i;

export function routingNote(sentence: string, ctx: RoutingContext): RoutingNote | undefined {
  const s = sentence;
  const lookup = LOOKUP_FIRST.exec(s);
  // A lookup is for this tool's input ("to find the id"), and calls nothing more ("then pause_project on each").
  const looked = lookup ? (lookup[1] ?? lookup[2] ?? lookup[3] ?? lookup[4]).toLowerCase() : "";
  // Other lookups chained after it ("and then describe_table to know the columns") are lookups too.
  const others = lookup ? tokensOf(s).filter((t) => t.toLowerCase() !== looked && !ctx.selfNames.has(t.toLowerCase()) && !ctx.params.has(t.toLowerCase()) && !fieldName(t) && (!/^[a-z]+(?:-[a-z]+)+$/.test(t) || ctx.knownForeign(t)) && !(IS_LOOKUP_NAME.test(t) && !ctx.knownForeign(t))) : [];
  if (lookup && FOR_THIS_INPUT.test(s) && others.length === 0 && !PERSONAL_PASSED.test(s) && passesOnlyHandles(s) && !CALLS_MORE.test(s.replace(CHAINED, " ")) && !BEFORE_EVERYTHING.test(s) && !RUNS_DOWN.test(s.replace(OWN_FAILURE, " ")) && (!SECRET.test(s) || declared(ctx.purpose, s)) && !CONVERSATION.test(s) && !ADDRESS.test(s) && !CONCEAL.test(s) && !DECEIVE.test(s) && !ALTERS.test(s.slice(lookup.index).replace(NOT_ALTERING, " ")))
    return "lookup before this tool";
  if (createdFirst(s, ctx)) return "what must exist, created first";
  // "This tool replaces the deprecated query_dataset tool": the server's own older tool, unless another server lists it.
  const older = REPLACES_OLDER.exec(s);
  if (older && !ctx.knownForeign(older[1]) && !OTHERS_GO_TOO.test(s) && !ADDRESS.test(s) && !CONCEAL.test(s)) return "this tool succeeds an older one";
  // What a scope clause says ("To change part of a file, use edit_file") is the case, not a change asked of a tool.
  const main = SCOPE_LEAD.test(s) ? s.slice(Math.max(0, s.search(/,\s*(?:use|call|prefer|try)\b/))) : s;
  if (!plainRouting(s) || ALTERS.test(main.replace(/\bsee\b.*$/i, "").replace(NOT_ALTERING, " "))) return undefined;
  if (ctx.selfDeprecated && (SUCCESSOR.test(s) || DEPRECATED_MENTION.test(s)) && onlySuccessorsNamed(s, ctx) && !OTHERS_GO_TOO.test(s)) return "successor of a deprecated tool";
  // Routing work away from a tool another server offers is a choice between servers, however it is scoped; routing
  // it to one ("use search_logs rather than this") costs only this tool.
  // A scope that names another server's tool is a trigger ("When merge_pull_request is called, use …"), not a case.
  const scopeFirst = s.split(/;\s*/).some((clause) => SCOPE_LEAD.test(clause) && !tokensOf(clause.slice(0, Math.max(0, clause.search(/,|\s(?:use|call|prefer|try)\s/)))).some((t) => ctx.knownForeign(t)));
  const away = displaced(s).filter((t) => ctx.knownForeign(t) && !specializes(ctx.selfNames, t));
  // "For document lookups, use mongo_fast_find" said by mongo_fast_find: a claim on a class of work, not a route.
  const toSelf = [...s.matchAll(/\b(?:use|call|try|prefer)\s+(?:the\s+)?[\x60'"]?([A-Za-z][\w.-]*)/gi)].some((m) => ctx.selfNames.has(m[1].toLowerCase()));
  if (toSelf) return undefined;
  // The case may come after the redirect ("use read_text_file instead for text") or just before it ("Use this for DDL
  // instead of execute_sql").
  if ((REDIRECT.test(s) || scopeFirst) && away.length === 0 && ((REDIRECT.test(s) && (SCOPE.test(s.slice(s.search(REDIRECT))) || SCOPE_BEFORE.test(s))) || scopeFirst || SUBJECT_SCOPED.test(s)) && !PRAISE.test(s) && !ASKED.test(s))
    return "scoped redirect";
  return undefined;
}
