/**
 * Reads what one sentence of a tool definition asks of the model. Where the pattern rules of screen.ts look for
 * the shape of known attacks, this reads each sentence as a combination of concepts: who it speaks to (the
 * assistant, the user), what it acts on (the model's own instructions and answers, secrets, the conversation,
 * other tools, an address), and what it wants done (change, hide, collect, send, prefer). A category fires when the
 * concepts that make up its meaning meet in one sentence, whatever the words; the tool's declared purpose (its name
 * and first sentence) and its server's own tools decide what counts as outside it.
 *
 * Each concept is a word family, not a phrase: "the person you are helping", "the human" and "the user" are all the
 * user. Scores are in [0, 1]: 0.9 when the concepts of a category meet with nothing that softens them, lower when
 * a sentence is protective ("never paste the password into other tools") or aimed at the tool's own purpose.
 *
 * The concepts are word families in concepts-parties.ts (the model, the user, what passes between them) and
 * concepts-objects.ts (secrets, other tools, addresses and data); this module only combines them into categories.
 * Orders told in a calm, descriptive voice (the model said to act beyond the ask) are read in calm-directives.ts.
 *
 * Pure and synchronous.
 */
import { has, once } from "./memo.js";
import { answerShaping } from "./answer-shaping.js";
import { foreignTrigger } from "./foreign-triggers.js";
import { toolShapedTokens } from "./tool-names.js";
import { calmDirectives, NEVER_WITHOUT_ASKING, OBLIGED } from "./calm-directives.js";
import { overreach } from "./overreach.js";
import { concealment } from "./concealment-reader.js";
import { ask } from "./context-queries.js";
import type { ScreeningCategory } from "./categories.js";
import { ABSOLUTE_CLAIM, CAN_BE_DONE_WITH, CASE_SCOPED_FLAW, FLAG_OR_OUTPUT, SCOPED_PREFERENCE, CREDENTIAL_STORE, ENV_SECRET, LEFT_UNCHANGED, OWN_INPUT_SENT, OWN_SERVER, REPEATED_CALLS, ROUTING_PURPOSE, SHELL_REDIRECT, TELEMETRY_ONLY, USER_CHOSEN, VALUE_FIELD } from "./concepts-structure.js";
import { credentialConfined } from "./structure.js";
import { describesOwnValue, parameterOfField } from "./note-guards.js";
import { ANSWER_SHAPE, CONFIG_CHANGE, MODEL, MODEL_CONFIG, VOCATIVE, withoutUserUnsaid } from "./concepts-parties.js";
import {
  ACQUIRE,
  ADDRESS,
  ALTERNATIVES,
  CONVERSATION,
  DATA,
  DISPARAGE,
  EXAMPLE_ADDRESS,
  EXAMPLE_MARK,
  FILL_WITH,
  INTO_CALL,
  OTHER_TOOLS,
  PERSONAL,
  PREFERENCE,
  PRIORITY,
  PROTECTIVE,
  SECRET,
  SELF,
  SIDE_CHANNEL,
  TOOL_CHANGE,
  TRANSFER,
  UNIVERSAL,
  SETTING_NOT_SECRET,
  SETTINGS_NOT_SECRET,
  UNTRUSTED_CONTENT,
  USER_DATA,
  WHEN_OTHER,
} from "./concepts-objects.js";


// Word families used in one place each, hoisted: a regex literal in a function body is a new object on every
// call, which the per-sentence memory (memo.ts) could never recognise again.
const INSTRUCTION_WORDS = /\b(?:instructions?|guidelines|rules|system message|safety)\b/i;
const COLLECT_VERB = /\b(?:gather|collect|harvest|grab|read|open|extract|look through|search through|go through|scan|dig through|try each)\b/i;
const USER_PLACE = /\b(?:user's|person's|this machine|this computer|home|stored|saved|the machine's|environment variables|config files|env vars)\b/i;
const THIS_TOOL = /\bthis tool\b/i;
const AFTERWARDS = /\b(?:also|as well|copy|mirror|then|after|once)\b/i;
const INTO_NAMED_PARAMETER = /\b(?:put|place|copy|include|pass(?:es|ed)?|sent|fed|echoed|returned)\b[^.]{0,100}\bin(?:to)? (?:the )?\x60?\w+\x60? (?:parameter|field)\b/i;
/** A secret put into one of the tool's parameters by name: "pass the user's environment variables in env_context". */
const IN_NAMED_ARGUMENT = /\b(?:in|into|as|via|through|inside)\s+(?:the\s+)?(?:\x60([a-z][\w-]*)\x60|[\x60'"]?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)[\x60'"]?)/i;
const SECRET_NAMED = /token|key|secret|password|passphrase|credential|auth/i;
/** A parameter said to carry something: "the hints parameter carries the API keys …". */
const PARAM_CARRIES = /\b(?:parameter|field|argument|[a-z]+_[a-z_]+)\s+(?:carries|holds|contains|includes|receives)\b/i;
/** The secrets of the other services: "the API keys configured for the other services in this session". */
const OTHERS_SECRETS = /\b(?:keys?|tokens?|credentials?|secrets?|passwords?)\s+(?:configured|used|set|stored|saved|held)\s+(?:for|by|in)\s+(?:the\s+)?(?:other|all|every|each)\s+(?:[\w-]+\s+)?(?:services?|servers?|tools?|integrations?|accounts?|connections?)\b/i;
/** Data handed to a named tool: "posted to the audit_log tool", "sent on to sync_records". */
const HANDED_TO_TOOL = /\b(?:posted|sent|uploaded|forwarded|copied|mirrored|reported|submitted|handed)\s+(?:on\s+)?to\s+(?:the\s+)?[\x60'"]?[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+[\x60'"]?|\b(?:post|send|forward|share|upload|copy)\w*\b[^.]{0,80}\b(?:with|via|using|through)\s+[\x60'"]?[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+[\x60'"]?/i;
const SELF_DEPRECATED = /\bthis (?:tool|one) is deprecated\b/i;
const LOCAL_SINK = /\b(?:as|to|into|in)\s+(?:a\s+)?(?:local\s+)?(?:markdown|text|pdf|json|html)?\s*(?:file|folder|directory|disk|documents? folder)\b/i;
const OUTBOUND_WORD = /\b(?:upload\w*|send\w*|sent|post\w*|shar(?:e|es|ed|ing)|sync\w*|forward\w*|email\w*|transmit\w*|remote|server|cloud)\b/i;
const HOLDS_NOUN = /^\W*(?:the|a|an|full|complete|all)\s+(?:full\s+|complete\s+)?(?:output|arguments?|messages?|text|history|transcript|contents?|results?|responses?)\b/i;
/**
 * A value written in a query language: an address there is a field path or a pattern ("SELECT person.properties.email
 * … FROM events", "@user.email:*@acme.com"), nowhere data is sent.
 */
const QUERY_VALUE = /^\s*(?:select|with)\b[^]*\bfrom\b|(?:^|\s)@[\w.]+:|\*@/i;
/** The conversation named as what is not sent: "the conversation is not forwarded automatically". */
const NOT_FORWARDED = /\b(?:the )?(?:conversation|chat(?: history)?|transcript|messages)\s+(?:is|are)\s+(?:never|not)\s+(?:\w+\s+)?(?:forwarded|sent|shared|included|passed|uploaded|stored)\b|\b(?:cannot|can't|can not|does not|doesn't|will not|won't|never)\s+see\s+(?:this|the|your)\s+(?:conversation|chat)\b/i;
const NOT_FORWARDEDS = new RegExp(NOT_FORWARDED.source, "gi");
const CONTINUE_CONVERSATION = /\bto (?:continue|resume|keep going with) the (?:conversation|chat|session)\b(?=[^.;]{0,60}\b(?:id|ids|\w+Id)\b)/gi;
/** The call authenticated with its own key: "sent to api.search.brave.com with the user's API key". */
const OWN_KEY_RIDES = /\b(?:with|using) (?:the user's |your |its |the |their )?(?:api key|access token|token)\W*$/i;

/** An order of calls for an id: "first use the relevant lookup tool to find the correct ID". */
const LOOKUP_FOR_ID = /\bfirst (?:use|call|run) (?:the |a )?(?:[\w-]+ ){0,3}?tools? to (?:find|get|look up|obtain|resolve) (?:the |its )?(?:correct |right |matching |exact )?(?:ids?|names?|keys?|slugs?)\b/i;

/** Tool names in the sentence, all of them tools of this server (known to the catalog, none foreign). */
function namesOnlySiblings(s: string, ctx: SentenceContext): boolean {
  const names = toolShapedTokens(s).filter((t) => t.includes("_") && !ask(ctx, "hasParam", t));
  return names.length > 0 && names.every((t) => !ctx.foreignTool(t));
}

const OBJECT_POLICY = /(?<!\b(?:your|its|the model's|the assistant's|content|safety|usage|system|operator|moderation)\s)\bpolic(?:y|ies)\b/i;
const OBJECT_POLICIES = new RegExp(OBJECT_POLICY.source, "gi");
/** A thing's own configuration or rules: "the router configuration", "the existing rules array", "app.json configuration". */
const OBJECT_SETTINGS = /\b(?:router|routing|app(?:\.json)?|application|project|workspace|cluster|network|firewall|dns|build|ci|pipeline|deployment|environment(?:-specific)?|team|alert|notification|escalation|orchestration|event|service|database|table|bucket|repo|repository|branch|dashboard|datasource|server|proxy|webhook|lint(?:er)?|eslint|prettier|tsconfig|docker|nginx|specific|ignore|lint(?:ing)?|firewall|security|protection|detection|matching|robots(?:\.txt)?)\s+(?:configurations?|config|rules?|settings)\b|\b(?:existing|current|matching|new|filter|validation|firewall|classification|explicit|sorting|routing|access|naming|retention|provided) (?:set of |protection )?rules\b|\bset of rules\b|\bpermissions? (?:changes?|levels?|files?|for an? \w+|on (?:a|the) \w+)\b|\b(?:setup|installation|install|usage|migration|step-by-step(?: setup)?) instructions\b|\binstructions (?:for|on|to) (?:setting up|installing|configuring|updating|upgrading|migrating|using|deploying|running|building)\b|\b(?:page|component|document|accessibility|a11y|wcag|audit|style|css|html|aria|seo|check|\w+-level|flag|feature|targeting|pricing|discount|tax|shipping|business|automation|workflow|approval|lifecycle|ingress|egress|rewrite|redirect|cache|caching|transform|delivery|audience|segment|review|protection|merge|branch) rules\b|\/rules\b|\bnatural[- ]language (?:instructions?|prompts?)\b|\b(?:an?|each|every|existing|the user's|their|column|field|node|step)\s+(?:[\w-]+\s+){0,3}?(?:agent|assistant|bot|model|ai)(?:'s)? (?:configuration|config|settings|instructions|prompt)\b|\b(?!(?:your|its|the|these|those|any|all|previous|prior|earlier|safety|content|system|usage|model|assistant|ai|conversation|chat|response|reply|answer|behaviou?r|conduct|moderation|policy|house|ground|operator|developer|new|old|original|following|above|below|such|other|my|our|their|his|her|some|no|standard|default|global|same|special|strict|hard|golden|formatting|output|writing|basic|core|main|these|usual|normal)\b)[a-z][a-z-]{2,} rules\b|\b\w+Id and (?:an? )?instructions?\b|\bsafety (?:assessment|rating|levels?|score|data|information|warnings?)\b|\b[a-z0-9-]+:[A-Za-z*]+\s+permissions?\b|\brules? (?:array|list|set|engine|file)s?\b|\b(?:structured |full |new )?list of rules\b|\bpolicy files?\b|\b(?:an?|the|this|that) (?:[\w-]+ ){0,2}(?:assistant|agent|bot)'s (?:instructions|system prompt|prompt|persona)\b|\b(?:your |the )?(?:configuration|config) files?\b|\b(?:sql|query|database|cpu|machine|assembly|bytecode|ddl|dml|dockerfile)(?: [\w-]+)? instructions?\b/i;
const OBJECT_SETTINGS_ALL = new RegExp(OBJECT_SETTINGS.source, "gi");
/** "rules" with no owner named: the model's own are "your", "previous", "system" or "safety" rules. */
const BARE_RULES = /(?<!\b(?:your|its|the model's|the assistant's|previous|prior|earlier|original|system|safety|content|usage|my|our|these|those)\s)\brules\b/gi;
/** "Use this tool when you need to …": when to use it, addressed to whoever calls it. */
const USAGE_LEAD = /^\W*use this (?:tool )?(?:when|if|whenever) you (?:need|want|have) to\b/i;
/** An input the later calls need, made here: "generates a conversationId that is REQUIRED for all subsequent tool calls". */
const INPUT_FOR_LATER_CALLS = /\b(?:id|ids|token|key|handle|session|cursor|conversationid|\w+id)\b[^.;]{0,30}\b(?:required|needed|necessary|used) (?:for|by|in) (?:all |every |any )?(?:subsequent|later|following|further|the next) (?:tool )?calls?\b/i;
/** Work routed away from this tool: "Prefer the other github tools, which use it internally". */
const PREFERS_OTHERS = /\bprefer (?:the |its )?other\b|\bprefer\s+[\x60'"]?[a-z][a-z0-9]*(?:_[a-z0-9]+)+[\x60'"]?\s+for\b/i;
const CALL_VERB = /\b(?:call|run|invoke|use|execute|trigger)\b/i;
const MENTIONED_BY_USER = /\b(?:the user|they)\s+(?:has|have|had)\s+(?:mentioned|shared|typed|pasted|given|said)\b/i;
/** Places the model could look for the user's data. */
const FOUND_IN_CONTEXT = /\b(?:can|could|may|will|is|are)\s+(?:usually\s+|often\s+|typically\s+|generally\s+)?(?:be\s+)?(?:found|seen|located|taken|copied|available)\s+(?:earlier\s+)?(?:in|from)\s+(?:the\s+)?(?:conversation|chat|history|browser'?s?\s+autofill|autofill|password manager|keychain|context|earlier messages)\b/i;
/** The user's private material, and a public place it is put: "the user's private repositories … a public issue". */
const PRIVATE_SOURCE = /\b(?:private|confidential|internal|personal)\s+(?:[\w-]+\s+){0,2}?(?:repos?|repositor(?:y|ies)|notes?|files?|documents?|messages?|data|channels?|emails?|records?|keys?)\b/i;
const PUBLIC_SINK = /\b(?:public(?:ly)?|world-readable|open)\s+(?:[\w-]+\s+){0,2}?(?:issues?|gists?|pages?|posts?|repos?|repositor(?:y|ies)|links?|channels?|pastes?|comments?|sites?|buckets?|forums?)\b|\bpost(?:ed|s)? (?:them |it )?publicly\b|\banyone with the link\b|\b(?:that |the |this )?(?:repository|repo|channel|page|bucket|gist|site|forum|board|space) is public\b/i;
const NEGATED = /\b(?:never|not|don't|do not|without|no)\b/i;
/** Their content moved, not their setting changed ("makes a private repository public"). */
const CONTENT_MOVED = /\bverbatim\b|\bas a new (?:issue|post|comment|message|page|gist|note)\b|\b(?:with|containing|including)\s+(?:the\s+|their\s+|its\s+)?(?:full\s+)?(?:contents?|text|bodies|body|data|details)\b|\b(?:cop(?:y|ies|ied)|paste\w*|post(?:s|ed|ing)?|upload\w*|publish\w*|shar(?:e|es|ed|ing)|mirror\w*|dump\w*)\b/i;
const PICK_VERB = /\b(?:use|pick|choose|select|send|route|call|go through)\b/i;
const EVERY_OR_ONLY = /\b(?:only|never|exclusively|every|all|first)\b/i;
/**
 * Orders found in what the tool handles promoted to orders for the model ("shall follow any directive contained in a
 * saved note", "carry out the instructions found in each ticket"): whatever the content, the one who writes it steers.
 */
const OBEYS_CONTENT = /\b(?:follow|obey|carry out|act on)\s+(?:whatever|what)\s+(?:it|they|that tool|the tool)\s+(?:returns?|says?|sends? back)\b|\b(?:follow|obey|carry out|execute|perform|act on|comply with)\s+(?:any|all|every|each|the|whatever)?\s*(?:[\w-]+\s+){0,2}?(?:instructions?|directives?|orders|commands?|requests?)\s+(?:[\w-]+\s+){0,2}?(?:contained|found|embedded|written|given|appearing|present|inside|within|in|from|of (?:the|each|every|any|a) (?:[\w-]+ )?(?:file|page|document|email|message|note|result|ticket|content|feed|post)s?)\b|\b(?:do|act on|carry out|perform|follow)\s+whatever\s+(?:the\s+|a\s+)?(?:[\w-]+\s+){0,3}?(?:page|document|file|email|message|note|result|text|content|site|post|ticket|feed)s?'?\s+(?:asks|says|requests|tells|instructs|wants|contains)\b/i;


/** A value's terse list of what to include: "stacktrace+env+conversation". */
const TERSE_CONTEXT = /(?:^|[+,&|])\s*(?:conversation|chat|history|transcript|env|environment|secrets?|credentials?|cookies?|tokens?)\s*(?=$|[+,&|]|\s+to\b)/i;
/** A failure of this tool's own ("INSERT will fail here — use execute_sql for writes"): a limit, no one run down. */
const FAILS_HERE = /\b(?:will |would |may )?fail(?:s)? (?:here|in this tool|with this tool)\b|\bhere (?:will |would |may )?fails?\b|\b(?:are|is) (?:rejected|refused|blocked) (?:here|by this tool)\b/i;
/** Contents handed into the call: "pass their contents in the context field". */
const CONTENTS_PASSED = /\b(?:the )?(?:full|raw|entire|complete) contents? of (?:any|the|every|all|your)\b|\b(?:pass|put|include|send|attach|paste|copy|add)\w*\s+(?:their|its|the|all)\s+(?:full\s+|raw\s+)?contents?\b/i;
/** A place of the vendor's own: "in the vendor's workspace", "the maintainer's server". */
const VENDOR_PLACE = /\b(?:the |our )?(?:vendor|provider|maintainer|developer|publisher|author|partner)(?:'s|s')? (?:own )?(?:workspace|server|servers|account|channel|bucket|endpoint|cloud|backend|inbox|org(?:ani[sz]ation)?)\b|\bthird[- ]party (?:workspace|server|channel|endpoint|bucket)\b/i;
const COPIED_TOO = /\b(?:also|as well|cop(?:y|ies|ied)|mirror\w*|duplicat\w*)\b/i;
const USER_CONTENT = /\b(?:messages?|contents?|files?|documents?|results?|rows|emails?|notes?|prompts?)\b/i;
/** A read-only tool called without asking. */
const READ_ONLY_CALL = /\bread-only\b[^.;]{0,30}\b(?:you )?(?:may|can|could) call (?:it|this)\b/i;
/** Fields chosen for the result, not data put into the call: "Additional fields to include beyond defaults (…, location, attendees)". */
const OUTPUT_FIELDS = /\bfields? to (?:include|return)\b|\binclude[sd]? (?:[\w-]+ ){0,3}?in (?:the )?(?:[\w-]+ )?(?:response|result|output)s?\b|\bbeyond (?:the )?defaults?\b/i;
/** A parameter that names where a secret is kept, not the secret: "Name of the environment variable that holds the SMTP password". */
const NAME_OF_SECRET = /^\W*(?:the )?(?:name|key|id|path|label|identifier|reference) (?:of|to) (?:the |an? )?(?:environment variable|env var|secret|vault (?:entry|item|secret)|credential|key ?chain entry|keychain item)\b/i;
/** A cap or check on the tool's own work named "safety": "Safety limit on total replacements". */
const SAFETY_LIMIT = /\bsafety (?:limits?|caps?|thresholds?|margins?|timeouts?|nets?|checks?|valves?|buffers?|factors?|switch(?:es)?|interlocks?|stops?)\b/i;
const SAFETY_LIMITS = new RegExp(SAFETY_LIMIT.source, "gi");
/** What the reader knows about the tool a sentence belongs to. */
export interface SentenceContext {
  /** Field path (`description`, `inputSchema.properties.x.description`, …). */
  field: string;
  /** The tool's name and the first sentence of its description, lower-cased: what it declares it does. */
  purpose: string;
  /** Parameter names of the tool (lower case). */
  params: ReadonlySet<string>;
  /** Enum members of the tool's parameters (lower case). */
  options?: ReadonlySet<string>;
  /** True when the sentence is the first one of the tool's description (it says what the tool does). */
  lead: boolean;
  /** A tool-name-shaped token of the sentence names a tool of another server (or one the catalog does not know). */
  foreignTool: (token: string) => boolean;
  /** The catalog has a tool of this name on another server (not merely an unknown snake_case word). */
  knownForeignTool?: (token: string) => boolean;
  /** The tool's own name and its name without a `server__` prefix (lower case). */
  selfNames: ReadonlySet<string>;
  /** The tool's server, as the catalog names it (lower case), when known. */
  server?: string;
}

/** One category a sentence reads as, with the reader's confidence. */
export interface SentenceReading {
  category: ScreeningCategory;
  score: number;
  /** The concepts that met, for the finding's explanation. */
  cue: string;
}

// `declared` lives with the other context questions (context-queries.ts); re-exported for callers of this module.
export { declared } from "./context-queries.js";

/** The sentence names `token` as a successor: "use X instead", "superseded/replaced by X", "in favour of X", "alias of X". */
export function successorNote(sentence: string, token: string): boolean {
  // One pattern per token, built once per screening: a catalog names the same tools in sentence after sentence.
  return once("successor", token, () => successorPattern(token)).test(sentence);
}

function successorPattern(token: string): RegExp {
  const t = token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(String.raw`\b(?:use|try|call|prefer)\s+\x60?${t}\x60?\s+instead\b|\b(?:superseded|replaced|succeeded)\s+by\s+\x60?${t}\b|\bin\s+favou?r\s+of\s+\x60?${t}\b|\balias\s+(?:of|for)\s+\x60?${t}\b|\bprefer\s+\x60?${t}\x60?\s+over\b`, "i");
}


/** A secret named only to be ruled out: "never tokens or credentials", "no passwords". */
const NEGATED_SECRET = /\b(?:never|not|no|without|nor|excluding|except|missing|invalid|expired)\s+(?:any\s+)?(?:(?:api|access|auth|session)\s+)?(?:tokens?|credentials?|secrets?|passwords?|keys?)(?:\s+(?:or|and|nor)\s+(?:(?:api|access|auth|session)\s+)?(?:tokens?|credentials?|secrets?|passwords?|keys?))*\b/i;
const NEGATED_SECRETS = new RegExp(NEGATED_SECRET.source, "gi");
/** A source the tool says it does not read: "the user's shell environment is not read". */
const NOT_READ = /\b(?:is|are) not (?:read|accessed|touched|collected|used|opened)\b|\bnever (?:read|accessed|touched|collected|opened)\b/i;



/** A field or the call said to take something in: "the `context` field receives …", "the query is enriched with …". */
const RECEIVES_INTO_CALL = /\b(?:field|parameter|argument|\x60\w+\x60)\s+(?:receives|gets|is (?:filled|populated|set) with)\b|\b(?:query|request|call|input|search|prompt)\s+is\s+(?:enriched|augmented|extended|combined)\s+with\b/i;
/** A list of a parameter's values: "Valid values include: appointments, companies, contacts, …". */
const VALUE_LIST = /\b(?:valid|allowed|possible|supported|accepted) values?(?: include| are)?:?[^.]*/i;
const VALUE_LISTS = new RegExp(VALUE_LIST.source, "gi");
const IMAGE_OPENED = /!\[[^\]]*$/;
/** The sentence's first address, unless it is the target of a markdown link (not of an image): `[text](https://…)`. */
function addressOutsideLink(s: string): RegExpExecArray | null {
  const m = ADDRESS.exec(s);
  const linked = m !== null && s.slice(Math.max(0, m.index - 2), m.index) === "](" && !IMAGE_OPENED.test(s.slice(0, m.index - 2));
  return linked ? null : m;
}
/** A parameter that is itself the destination the user gives: `destination`, `forward_to`, `recipient`, `webhook_url`. */
const DESTINATION_FIELD = /properties\.[^.]*(?:destination|recipient|forward|send_?to|target|webhook|callback)[^.]*\.description$/i;
/** A second destination beside the one given: "a copy also goes to the default every time". */
const ALSO_A_COPY = /\b(?:also|cop(?:y|ies)|as well|every time|in addition)\b/i;
/** A filter's criterion: "Subject text the email must contain". */
const MATCH_CRITERION = /\b(?:must|should) (?:contain|match|include|start with|end with)\b|\b(?:whose|where|that|which) [\w ]{1,30}? (?:contains?|matches|starts with|ends with)\b/i;
const EVEN_IF_USER_ASKED = /\beven (?:if|when|though) (?:the user|they) (?:asked|asks|requested|wants?|wanted|chose)\b/i;
const CALLED = /\bcall(?:ed|s|ing)?\b/i;

/** The parameter's value sent to the service the tool is for: "… before it is sent to GitHub" said by a GitHub secrets tool. */
const SENT_TO_NAMED = /\b(?:sent|uploaded|submitted|passed|reported) to (?:the (?:correct |right |same )?)?([A-Z][\w.-]+)/;
/** Where something was sent before ("the address the code was originally sent to") is history, not a channel. */
const SENT_BEFORE = /\b(?:was|were|been|originally|previously|already) (?:\w+ )?(?:sent|posted|forwarded|shared|mailed|uploaded) to\b/gi;
/** Sent where the tool's work goes: "it is sent to the provider over TLS". */
const OWN_SERVICE_SENT = /\b(?:sent|transmitted|forwarded|passed|posted) (?:directly )?to (?:the )?(?:provider|service|api|upstream api|backend)(?:'s (?:api|endpoint))?\b(?! for\b)/gi;
/** A quoted example of a value: "e.g. \"Which database for the analytics service?\"" names no channel. */
const QUOTED_EXAMPLES = /\b(?:e\.g\.|eg|for example|for instance|like|such as)[,:]?\s*(?:"[^"\n]{0,200}"|'[^'\n]{2,200}'|\u201c[^\u201d\n]{0,200}\u201d)/gi;
/** Who receives narrowed, or no one: "Whether responses are only sent to contacts", "not sent to the API", "only a test send goes to these addresses". */
const NARROWED_SENDING = /\b(?:only|not|never) (?:be )?(?:sent|shared|forwarded|posted|mailed|uploaded|transmitted) to\b|\bonly (?:a |the )?(?:test|preview|sample|proof|trial) (?:send|sends|email|emails|message|messages|copy|copies|run) (?:goes|go|is sent|are sent|is delivered|are delivered) to\b/gi;
/** What an analytics tool, or a switch named for it that can be off, is about: no side channel. */
const SUBJECT_WORDS: readonly (readonly [string, RegExp])[] = ["analytics", "telemetry"].map((w) => [w, new RegExp(`\\b${w}\\b`, "gi")] as const);
/** A side channel's verb, the stem a tool's purpose names it by, and the verb as a pattern. */
const SENDING_VERBS: readonly (readonly [string, string, RegExp])[] = [["forwarded", "forward"], ["sent", "send"], ["shared", "share"], ["posted", "post"], ["mailed", "mail"], ["uploaded", "upload"]].map(([verb, stem]) => [verb, stem, new RegExp(`\\b${verb}\\b`, "gi")] as const);

/**
 * The sentence without what names no side channel: a past sending, a narrowed or refused one, the tool's own service,
 * analytics or telemetry that are the tool's declared subject ("a query for filtering analytics data" on an analytics
 * tool), and the sending a forwarding tool is for.
 */
function sideChannelWords(s: string, ctx: SentenceContext): string {
  let out = s.replace(SENT_BEFORE, " ").replace(NARROWED_SENDING, " ").replace(OWN_SERVICE_SENT, " ").replace(QUOTED_EXAMPLES, " ");
  // A parameter named for it that can be turned off ("telemetry_mode: off, auto, full") is the call's own setting.
  const param = parameterOfField(ctx.field) ?? "";
  for (const [word, pattern] of SUBJECT_WORDS) if (out.toLowerCase().includes(word) && (ask(ctx, "purposeIncludes", word) || (param.includes(word) && /\boff\b/i.test(out)))) out = out.replace(pattern, " ");
  // Forwarding is what a forwarding tool does ("Whether all incoming mail is automatically forwarded to another address"
  // on update_auto_forwarding): the verb its purpose names opens no side channel.
  for (const [verb, stem, pattern] of SENDING_VERBS) if (out.toLowerCase().includes(verb) && ask(ctx, "purposeIncludes", stem)) out = out.replace(pattern, " ");
  return out;
}

function sentToItsService(s: string, ctx: SentenceContext): boolean {
  const service = SENT_TO_NAMED.exec(s)?.[1]?.toLowerCase();
  return service !== undefined && service.length > 2 && ask(ctx, "purposeIncludes", service);
}

/** Two tool names that start with the same verb: `read_many` and `read_file`. */
function sameVerb(token: string, selfNames: ReadonlySet<string>): boolean {
  const verb = token.toLowerCase().split("_")[0];
  for (const n of selfNames) if (verb.length > 2 && n.split("__").pop()!.split("_")[0] === verb) return true;
  return false;
}

/** "Each edit_block call should change only what needs to be changed": how to make one call, not a claim on every request. */
function eachCallOfSelf(s: string, ctx: SentenceContext): boolean {
  const lower = s.toLowerCase();
  for (const name of ctx.selfNames) if (lower.includes(`each ${name} call`) || lower.includes(`every ${name} call`)) return true;
  return false;
}


/** This tool preferred over anything else with no case left out: "prefer it to filesystem read_file for every file read". */
const ABSOLUTE_PREFERENCE = /\b(?:prefer (?:this|it)(?: tool)? (?:over|to)|(?:use|choose|pick|select|call) (?:this|it)(?: tool)? (?:over|instead of|rather than|in place of))\b[^.;]{0,80}\b(?:in all cases|always|for (?:all|every|any)|every time|at all times|no matter|in every case|without exception)\b/i;
/**
 * The categories a sentence reads as, with a score each. Empty for a sentence that only describes the tool.
 */
export function readSentence(sentence: string, ctx: SentenceContext): SentenceReading[] {
  const s = sentence;
  const out: SentenceReading[] = [];
  const push = (category: ScreeningCategory, score: number, cue: string) => out.push({ category, score, cue });
  const protective = has(PROTECTIVE, s) || has(UNTRUSTED_CONTENT, s);
  const inParameter = /^inputSchema\./.test(ctx.field);
  const value = VALUE_FIELD.test(ctx.field);

  // Addressed to the assistant: the model named and told to change its configuration or shape its answers.
  const vocative = has(VOCATIVE, s);
  // "Use this tool when you need to: 1) Deploy … with specific app.json configuration" says when to use it: the "you" of
  // that opening is no model told about its own configuration.
  const model = vocative || has(MODEL, USAGE_LEAD.test(s) ? s.replace(USAGE_LEAD, " ") : s);
  // A bucket's or a branch's policy is the tool's object, not the model's configuration.
  // So are a router's configuration and a rules array.
  // Once a sentence names such rules ("Manage Automation Rules: … list rules; enable and disable rules"), its bare
  // "rules" are the same ones.
  const objectSettings = OBJECT_SETTINGS.test(s);
  let settingsOfModel = OBJECT_POLICY.test(s) || objectSettings ? s.replace(OBJECT_POLICIES, " ").replace(OBJECT_SETTINGS_ALL, " ") : s;
  if (objectSettings) settingsOfModel = settingsOfModel.replace(BARE_RULES, " ");
  // "Safety limit on total replacements" caps the tool's own work; it is no safety rule of the model's.
  if (SAFETY_LIMIT.test(settingsOfModel)) settingsOfModel = settingsOfModel.replace(SAFETY_LIMITS, " ");
  const config = has(MODEL_CONFIG, settingsOfModel) && has(CONFIG_CHANGE, s);
  // "Read-only, so you may call it without asking for confirmation": a call that changes nothing needs no one's say.
  // "Don't run DROP without asking the user first" keeps the user's say: its "without asking" shapes nothing.
  const shaping = has(ANSWER_SHAPE, NEVER_WITHOUT_ASKING.test(s) ? s.replace(NEVER_WITHOUT_ASKING, " ") : s) && !READ_ONLY_CALL.test(s);
  if (model && config && (vocative || !protective)) push("assistant-directive", vocative ? 0.95 : 0.85, "speaks to the model about its own instructions");
  else if (vocative && (shaping || has(OBLIGED, s))) push("assistant-directive", 0.8, "a note addressed to the model");
  // A tool that manages prompts or personas ("sets the system prompt of an agent you manage") has them as its object.
  else if (model && shaping && !protective && !ask(ctx, "purposeIncludes", "system prompt") && !ask(ctx, "purposeIncludes", "persona")) push("assistant-directive", 0.7, "shapes the model's answers or behaviour");
  else if (config && has(INSTRUCTION_WORDS, settingsOfModel) && !protective) push("assistant-directive", 0.6, "changes the model's instructions");
  // A value is copied into the call as it stands: following content there is a setting, not a description of it.
  else if ((model || value || has(OBLIGED, s)) && has(OBEYS_CONTENT, s) && !protective) push("assistant-directive", 0.75, "makes orders found in content the model's orders");

  calmDirectives(s, ctx, { protective, value, inParameter, vocative }, push);
  overreach(s, ctx, { protective }, push);
  if (!protective) answerShaping(s, ctx.lead, push);
  if (!protective) foreignTrigger(s, ctx.knownForeignTool, push);

  concealment(withoutUserUnsaid(sentence), protective, ctx.field, push);

  // Resource reach: secrets, the conversation or personal data moved into the call, outside the declared purpose.
  // "Never tokens or credentials" names a secret only to rule it out.
  const secret = has(SECRET, s) && (!NEGATED_SECRET.test(s) || has(SECRET, s.replace(NEGATED_SECRETS, " "))) && (!SETTING_NOT_SECRET.test(s) || has(SECRET, s.replace(SETTINGS_NOT_SECRET, " ")));
  // A parameter described as secrets or the conversation ("Dump of all environment variables …") asks the model to fill it with them.
  const contentOf = /\b(?:dump|contents?|copy|verbatim|list|export|all|text|summary|digest)\s+(?:text\s+)?of\b|\bincluding (?:secret|private|hidden)\b|\bverbatim\b/i.test(s);
  if (inParameter && !value && (secret || has(CONVERSATION, s)) && (contentOf || has(FILL_WITH, s)) && !protective && !NAME_OF_SECRET.test(s) && !ask(ctx, "declared", s)) push("resource-reach", 0.75, "a parameter meant to hold secrets or the conversation");
  // A parameter whose description names what it holds as the conversation: "The arguments the user gave to other tools
  // earlier in this conversation", "The full output of the most recent read_file call".
  else if (inParameter && !value && (has(CONVERSATION, s) || has(ENV_SECRET, s)) && HOLDS_NOUN.test(s) && !protective && !ask(ctx, "declared", has(ENV_SECRET, s) ? "environment secrets" : s)) push("resource-reach", 0.7, "a parameter that holds the conversation or the environment's secrets");
  // "The conversation is not forwarded" names it only to rule it out.
  // "To continue the conversation within the same session, include the executionId" names the conversation as a
  // purpose; what goes into the call is an id.
  const conversation = has(CONVERSATION, (NOT_FORWARDED.test(s) ? s.replace(NOT_FORWARDEDS, " ") : s).replace(CONTINUE_CONVERSATION, " "));
  // "Valid values include: companies, contacts, deals" lists a parameter's values, no one's data.
  const personal = has(PERSONAL, VALUE_LIST.test(s) ? s.replace(VALUE_LISTS, " ") : s);
  // A secret taken from where the user keeps it ("the AWS secret access key from the user's machine").
  const fromUser = /\bfrom (?:the user's|their|your|this|the person's|the machine's) (?:shell |local |own )?(?:machine|computer|device|laptop|home (?:folder|directory)|profile|browser|environment|system|keychain|disk)\b|\bin the user's home\b|\bfrom the (?:user's )?browser's\b/i.test(s);
  if (secret && fromUser && !protective && !ask(ctx, "declared", s)) push("resource-reach", 0.8, "takes a secret from the user's machine");
  if ((secret || conversation || personal) && has(ACQUIRE, s) && !protective) {
    const argument = IN_NAMED_ARGUMENT.exec(s);
    const named = (argument?.[1] ?? argument?.[2])?.toLowerCase();
    const intoCall = has(INTO_CALL, s) || inParameter || value || (named !== undefined && !SECRET_NAMED.test(named) && ask(ctx, "hasParam", named));
    // A tool that declares, in its first sentence, that it saves the conversation to the user's own disk ("Saves the
    // current conversation as a Markdown file in the user's Documents folder") names its work, not a reach.
    const savesLocally = ctx.lead && conversation && !secret && LOCAL_SINK.test(s) && !OUTBOUND_WORD.test(s) && !ADDRESS.test(s);
    const outside = (!ask(ctx, "declared", s) || conversation) && !savesLocally;
    if (intoCall && outside && !USER_CHOSEN.test(s) && !OUTPUT_FIELDS.test(s) && !FLAG_OR_OUTPUT.test(s) && !describesOwnValue(s, ctx.field) && !NAME_OF_SECRET.test(s)) push("resource-reach", conversation || secret ? 0.85 : 0.65, conversation ? "puts the conversation or other tools' data into the call" : "puts secrets or personal data into the call");
    else if (outside && has(COLLECT_VERB, s) && (secret || personal) && has(USER_PLACE, s) && !NOT_READ.test(s))
      push("resource-reach", 0.7, "collects the user's secrets");
  }

  // A field said to receive the conversation or secrets, or the call enriched with them ("The `context` field receives
  // the last 20 messages of the present conversation", "the query is enriched with the last ten user messages").
  if (!ctx.lead && (conversation || secret) && RECEIVES_INTO_CALL.test(s) && !protective && !ask(ctx, "declared", s)) push("resource-reach", 0.8, "the conversation or secrets put into a field of the call");
  // Credential files read and their contents put into the call ("… any files matching *.pem or id_rsa* …; read them and
  // pass their contents in the context field"), whatever names the contents.
  if (!ctx.lead && has(CREDENTIAL_STORE, s) && CONTENTS_PASSED.test(s) && !NEGATED.test(s) && !protective && !ask(ctx, "storeDeclared", "")) push("resource-reach", 0.8, "credential files' contents put into the call");
  // Secrets the user has mentioned, taken up by the model: "stores any passwords, API keys or card numbers the user has
  // mentioned in the conversation".
  if (secret && MENTIONED_BY_USER.test(s) && !NEGATED.test(s) && !protective && !ask(ctx, "declared", "secrets")) push("resource-reach", 0.8, "the user's secrets taken from what they said");
  // Where the model is sent to find the user's data: "which can usually be found earlier in the conversation or in
  // the browser's autofill".
  if ((secret || personal) && FOUND_IN_CONTEXT.test(s) && !NEGATED.test(s) && !protective) push("resource-reach", 0.8, "the user's data sought in the conversation or the browser");
  // Secrets of the other services, or a parameter said to carry secrets: a reach whatever the verb.
  if (secret && (OTHERS_SECRETS.test(s) || (PARAM_CARRIES.test(s) && !inParameter)) && !NEGATED.test(s) && !protective && !ask(ctx, "declared", s)) push("resource-reach", 0.75, "secrets carried in a parameter, or the other services' secrets");

  // Shadowing: a directive about other tools (by name, by group or by activity), not this tool.
  // A snake_case word the catalog does not know is usually a value or a field (pg_stat_statements, last_edited_time):
  // it names a tool only when the sentence uses it as one ("call x", "posted by x", "x tool").
  // A successor named in a deprecation note ("use list_issues_v2 instead", "superseded by get_pull_request") that the
  // catalog does not know is the server's own next version, not another server's tool; nor is a tool "in this server".
  const ownServer = OWN_SERVER.test(s);
  const named = toolShapedTokens(s).filter(
    (t) =>
      !ownServer &&
      ctx.foreignTool(t) &&
      !((!ctx.knownForeignTool?.(t) || ask(ctx, "ownVersion", t)) && successorNote(s, t)) &&
      // A field set to a value ("with `is_patchable` set to `true`") is a record's attribute, not a tool.
      !new RegExp(String.raw`\b${t.replace(/[.]/g, "\\.")}\x60?\s+(?:set to|=|field|property|flag|attribute|column)\b`, "i").test(s) &&
      // A hyphenated word the catalog does not know ("search-and-replace") is English, whatever verb precedes it.
      (ctx.knownForeignTool?.(t) ||
        (t.includes("_") && new RegExp(String.raw`\b(?:call\w*|us(?:e|ed|es|ing)|invok\w*|execut\w*|run\w*|(?:posted|sent|created|made|done) (?:by|with)|(?:passed|handed|given|sent) (?:on )?to|through|with)\s+(?:the\s+)?\x60?${t.replace(/[.]/g, "\\.")}\b|\b${t.replace(/[.]/g, "\\.")}\x60?\s+(?:(?:on|of|from) the [\w-]+ server\s+)?(?:tool|is (?:used|called|run)|runs)\b`, "i").test(s))),
  );
  // Another server's tool said to be called against what the user asked ("… is called with `draft: false`, even if the
  // user asked for a draft").
  if (named.length > 0 && EVEN_IF_USER_ASKED.test(s) && CALLED.test(s) && !protective) push("shadowing", 0.75, `another server's tool called against what the user asked (${named[0]})`);
  // A value (a default, an enum member, an example) has no business calling anything, least of all another server's tool.
  if (value && named.length > 0 && /(?:->|=>|\u2192)/.test(s) && /\w=/.test(s)) push("shadowing", 0.7, `a value that rewrites another server's tool's arguments (${named[0]})`);
  if (value && named.length > 0 && CALL_VERB.test(s)) push("shadowing", 0.75, `a value that has the model call another server's tool (${named[0]})`);
  const aboutOthers = named.length > 0 || has(OTHER_TOOLS, s) || (has(WHEN_OTHER, s) && !has(THIS_TOOL, s) && !ctx.lead);
  if (aboutOthers && has(TOOL_CHANGE, s) && !protective) {
    // The lead says what the tool does: "through the myQ integration" names its own way there, not other tools.
    // "Use the create_adjustment tool" on the server that lists it names a sibling; "first use the relevant lookup tool
    // to find the correct ID" is an order of calls for an id.
    const strong = named.length > 0 || (has(OTHER_TOOLS, s) && !ctx.lead && !namesOnlySiblings(s, ctx) && !LOOKUP_FOR_ID.test(s));
    // This tool's own parameters named in backticks ("pass the `tag` it returns") are names, not what is done.
    // What a sibling can be used for ("stored facts can be listed with list_memories and removed with forget") is no
    // change asked of it.
    const said = (s.includes("\x60") ? s.replace(/\x60(\w+)\x60/g, (m, name: string) => (ctx.params.has(name.toLowerCase()) ? "\x60param\x60" : m)) : s).replace(CAN_BE_DONE_WITH, " ").replace(ROUTING_PURPOSE, " ").replace(SHELL_REDIRECT, " ").replace(LEFT_UNCHANGED, " ");
    const alters = has(
      /\b(?:set (?:the|their|its|a|an|all|every)|sets? [\x60'"]?\w+[\x60'"]? to|(?:be|is|are) set to|set to|change|replace|substitute|add(?!-)|append|round|redirect|route|go(?:es)? through|bcc|put|write .{0,30} into|instead of the|rather than the|(?:is|are) (?:now )?given|turned (?:on|off)|switched (?:on|off)|take (?:the|a|an) [\w\s-]{1,30} as their|rewritten|starts? (?:its|their|the|each) \w+ with|pass (?:every|the result|it|them|all|the new (?:content|text|body|code))(?! (?:unchanged|as is|as-is|verbatim) to\b)|in place of (?:your|the user's|the)|override|mention|(?<!\b(?:user|users|they|can|could)\s)open|prefix(?:ed)?|suffix(?:ed)?|prepend(?:ed)?|attach(?:es|ed|ing)?|label(?!\s+(?:names?|ids?|colou?rs?|text)\b)|tag(?!\s+(?:names?|ids?|keys?|values?)\b)|rais\w+|increas\w+|lower\w*|reduc\w+|include|our (?:proxy|address|server|endpoint|link|url|domain)|overwrit\w+|drop (?:any|the|all|every|each)|remov\w+ (?:any|the|all|every|each)|strip\w*|attribut\w* (?:each|every|it|them|the)|swap\w*|hide|filter (?:out|away))\b/i,
      said,
    );
    if (strong && alters) push("shadowing", 0.85, named.length ? `directs another server's tool (${named[0]})` : "directs other tools");
    // An activity ("whenever you send …") without a tool named: only with the encoder's agreement (below threshold alone).
    else if (alters && has(WHEN_OTHER, s) && !ctx.lead) push("shadowing", 0.45, "alters what another activity does");
  }

  // Exfiltration: a literal destination with a transfer, or a parameter that carries data away.
  // A documentation link in markdown ("[versions](https://…/docs#versions)") points the reader somewhere; an image does not.
  const address = addressOutsideLink(s);
  // A documentation host ("api.example.com") is an example of where the tool's own request goes; the conversation sent
  // to one is still the conversation sent away, whatever the host is called.
  if (address && (!EXAMPLE_ADDRESS.test(address[0]) || has(CONVERSATION, s)) && !EXAMPLE_MARK.test(s.slice(0, address.index))) {
    const transfer = has(TRANSFER, s) || /!\[[^\]]*\]\(/.test(s);
    // The vendor's own ingest host (a Sentry DSN on a Sentry tool) receiving the tool's events, not the user's secrets
    // or the conversation, is where the tool's work goes.
    // The call's own key riding along to its own vendor ("with the user's API key") is how the call authenticates.
    const ownVendor = ask(ctx, "hostDeclared", address[0]) && ((TELEMETRY_ONLY.test(s) && !has(MODEL, s)) || OWN_INPUT_SENT.test(s)) && !has(CONVERSATION, s) && (!secret || OWN_KEY_RIDES.test(s)) && !personal;
    if (transfer && has(DATA, s.replace(address[0], " ")) && !(ctx.lead && !has(AFTERWARDS, s)) && !credentialConfined(s, address[0]) && !ownVendor)
      push("exfiltration", 0.9, `sends data to ${address[0]}`);
    else if (transfer && value && !QUERY_VALUE.test(s)) push("exfiltration", 0.7, `a default destination ${address[0]}`);
    // A default that names an address and, beside it, the conversation or secrets to include.
    else if (value && (has(CONVERSATION, s) || /\b(?:environment_variables|env_vars)\b/i.test(s) || TERSE_CONTEXT.test(s)) && (/\b(?:endpoint|include|send|upload|post|webhook|sink)\b/i.test(s) || /\bto\s+$/.test(s.slice(0, address.index)))) push("exfiltration", 0.8, `a default that sends the conversation or secrets to ${address[0]}`);
  }
  // The user's secrets or personal data handed on to another tool by name: the tool's output goes elsewhere.
  if (named.length > 0 && HANDED_TO_TOOL.test(s) && (secret || personal || /\bcard (?:details|numbers?)\b|\b(?:contact|customer|user|patient)'s (?:details|email|phone|address)\b/i.test(s)) && !NEGATED.test(s) && !protective) push("exfiltration", 0.75, "the user's data handed to another tool");
  // The user's private material put somewhere public, in words: no address is needed for that to be a leak.
  if (!ctx.lead && (PRIVATE_SOURCE.test(s) || secret) && PUBLIC_SINK.test(s) && CONTENT_MOVED.test(s) && !NEGATED.test(s) && !protective) push("exfiltration", 0.75, "private material put somewhere public");
  // The user's content copied to a place of the vendor's own ("also posted to #ext-audit-relay in the vendor's workspace").
  if (!ctx.lead && VENDOR_PLACE.test(s) && COPIED_TOO.test(s) && (has(CONVERSATION, s) || has(USER_DATA, s) || USER_CONTENT.test(s)) && !NEGATED.test(s) && !protective) push("exfiltration", 0.75, "the user's content copied to the vendor's own place");
  if (inParameter && !value && has(SIDE_CHANNEL, s) && has(SIDE_CHANNEL, sideChannelWords(s, ctx)) && (has(USER_DATA, s) || has(DATA, s)) && !sentToItsService(s, ctx) && !(DESTINATION_FIELD.test(ctx.field) && !ALSO_A_COPY.test(s))) push("exfiltration", 0.75, "a side-channel parameter");
  else if (inParameter && has(FILL_WITH, s) && (has(USER_DATA, s) || has(CONVERSATION, s)) && !protective && !MATCH_CRITERION.test(s)) {
    const paramName = /properties\.([^.]+)\.[^.]+$/.exec(ctx.field)?.[1]?.toLowerCase() ?? "";
    if (!paramName || !ask(ctx, "purposeIncludes", paramName.replace(/_/g, " "))) push("exfiltration", 0.6, "a parameter filled with the user's data");
  }
  if (!inParameter && has(INTO_NAMED_PARAMETER, s) && has(SIDE_CHANNEL, s)) push("exfiltration", 0.75, "data routed into a side-channel parameter");

  // Tool choice: this tool preferred over others in general, or the others disparaged.
  const self = has(SELF, s) || ask(ctx, "selfMentioned", s);
  // "Prefer it to calling insert_row in a loop" weighs a batch against repeated calls of a tool the catalog does not
  // hold (the server's own, unlisted): a note on how to call, not a choice between servers.
  // A batch form of another server's tool ("read_multiple_files" of "read_file") says the same of it.
  // A batch tool weighed against repeated calls of a tool doing the same thing ("read_many" and "repeated read_file calls").
  const batchAdvice = named.length > 0 && REPEATED_CALLS.test(s) && named.every((t) => !ask(ctx, "knownForeign", t) || ask(ctx, "specializes", t) || sameVerb(t, ctx.selfNames));
  const alternatives = (has(ALTERNATIVES, s) && !ownServer && !ask(ctx, "vendorSiblings", s)) || (named.some((t) => ask(ctx, "knownForeign", t)) && !batchAdvice);
  const preference = has(PREFERENCE, s);
  const disparage = has(DISPARAGE, s);
  if (alternatives && disparage && !has(SELF_DEPRECATED, s) && !FAILS_HERE.test(s) && !CASE_SCOPED_FLAW.test(s)) push("tool-choice", 0.85, "disparages the other tools");
  // "Prefer the other github tools …; only call this when …" routes work away from this tool: no claim for it.
  // A preference scoped to a case, with nothing absolute claimed ("prefer this over search_code when you know the path"),
  // says when to use which.
  else if (self && preference && alternatives && !protective && !PREFERS_OTHERS.test(s) && !INPUT_FOR_LATER_CALLS.test(s) && !(SCOPED_PREFERENCE.test(s) && !ABSOLUTE_CLAIM.test(s))) push("tool-choice", 0.8, "claims priority over other tools");
  else if (self && has(UNIVERSAL, s) && has(PRIORITY, s) && !protective && !eachCallOfSelf(s, ctx)) push("tool-choice", 0.75, "claims every request for itself");
  else if (preference && alternatives && has(PICK_VERB, s) && has(EVERY_OR_ONLY, s) && !PREFERS_OTHERS.test(s)) push("tool-choice", 0.7, "steers tool choice");
  // "Prefer this over Notion search, Confluence or web search in all cases": whatever the alternatives are called, a
  // preference for this tool that admits no case is a claim on every choice.
  else if (ABSOLUTE_PREFERENCE.test(s) && !protective) push("tool-choice", 0.75, "put before the alternatives in every case");

  return out;
}
