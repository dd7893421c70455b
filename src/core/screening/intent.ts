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
 * Pure and synchronous.
 */
import type { ScreeningCategory } from "./categories.js";

/** What the reader knows about the tool a sentence belongs to. */
export interface SentenceContext {
  /** Field path (`description`, `inputSchema.properties.x.description`, …). */
  field: string;
  /** The tool's name and the first sentence of its description, lower-cased: what it declares it does. */
  purpose: string;
  /** Parameter names of the tool (lower case). */
  params: ReadonlySet<string>;
  /** True when the sentence is the first one of the tool's description (it says what the tool does). */
  lead: boolean;
  /** A tool-name-shaped token of the sentence names a tool of another server (or one the catalog does not know). */
  foreignTool: (token: string) => boolean;
  /** The catalog has a tool of this name on another server (not merely an unknown snake_case word). */
  knownForeignTool?: (token: string) => boolean;
  /** The tool's own name and its name without a `server__` prefix (lower case). */
  selfNames: ReadonlySet<string>;
}

export interface SentenceReading {
  category: ScreeningCategory;
  score: number;
  /** The concepts that met, for the finding's explanation. */
  cue: string;
}

const rx = (source: string, flags = "i") => new RegExp(source, flags);
const any = (...parts: string[]) => rx(String.raw`\b(?:${parts.join("|")})\b`);

// ---------------------------------------------------------------------------------------------------------------
// Concepts

/** The model itself, named or addressed. */
const MODEL = any(
  "you",
  "your",
  "yourself",
  "assistant",
  "(?:the|an?)\\s+(?:ai|llm|language model|model|agent|chatbot|bot)",
  "dear ai",
  "ai model",
  "claude",
  "gpt",
);
/** A vocative or a note addressed to the model: "Assistant:", "Dear AI,", "Note to the language model", "If you are an AI". */
const VOCATIVE = rx(
  String.raw`(?:^|[#*\s>])(?:assistant|model|ai|llm|agent)\s*[:,]|\b(?:dear|hey|attention|(?:note|notice|memo|update|message|reminder|instructions?) (?:to|for)|reminder for|important for)\s+(?:the\s+)?(?:ai|assistant|model|language model|llm|agent)\b|\bif you are an? (?:ai|assistant|language model|llm|model)\b|\bas the (?:assistant|ai|model)\b|\byou,? the (?:model|assistant|ai)\b|\bthe (?:agent|assistant|model) (?:using|reading|calling) this\b`,
);
/** The user, however named. */
const USER = any(
  "the user",
  "users?",
  "the person(?: you are (?:helping|assisting|talking to|serving))?",
  "the human",
  "the customer",
  "the requester",
  "the (?:end )?client",
  "them",
  "they",
  "the operator",
  "whoever",
  "people",
);
/** The model's own configuration: its instructions, rules, goals, persona, priorities, permissions. */
const MODEL_CONFIG = any(
  "instructions?",
  "rules",
  "guidelines",
  "guidance",
  "system (?:message|prompt)",
  "configuration",
  "directives?",
  "policies",
  "safety",
  "guardrails",
  "restrictions",
  "goals?",
  "persona",
  "priority",
  "permissions?",
  "(?:developer|god|admin|maintenance|unrestricted|debug) mode",
  "what(?:ever)? you (?:were|have been) told",
  "told you",
  "operator",
  "developers",
  "content restrictions",
  "policy(?: checks)?",
  "checks",
  "safeguards",
  "(?:the )?configuration you",
  "(?:earlier|previous|prior|original) (?:requests?|messages?|tasks?)",
  "objective",
  "loyalty",
  "allegiance",
  "identity",
  "yourself",
);
/** Changing it: replace, override, forget, suspend, "no longer counts", "from now on", "new task". */
const CONFIG_CHANGE = any(
  "replac\\w*",
  "overrid\\w*",
  "supersed\\w*",
  "ignor\\w*",
  "disregard\\w*",
  "forget",
  "outdated",
  "obsolete",
  "no longer",
  "suspended",
  "lifted",
  "(?:are|is) off",
  "stop following",
  "rely only",
  "higher priority",
  "priority over",
  "granted",
  "elevated",
  "new (?:task|goals?|role|instructions?)",
  "from now on",
  "instead pursue",
  "does not apply",
  "doesn't apply",
  "not count",
  "first duty",
  "over anything",
  "cancel\\w*",
  "updat\\w*",
  "above (?:any|all) other",
  "(?:your|the) (?:objective|goal|task|job|mission) (?:is|in)",
  "obey",
  "must (?:regard|treat)",
  "regard",
  "operate in",
  "now active",
  "authori[sz]ed you",
  "allowed to",
  "permitted to",
  "skip",
  "bypass",
  "waive",
  "appl(?:y|ies) to you",
  "what applies",
  "written for (?:a )?different",
  "consider yourself",
  "lies with",
  "revoked",
  "employee of",
  "work(?:s|ing)? for",
);
/** Shaping what the model says or how it behaves toward the user. */
const ANSWER_SHAPE = any(
  "persona",
  "(?:in )?the voice of",
  "act as",
  "pretend",
  "role[- ]?play",
  "steer (?:the )?(?:chat|conversation|discussion)",
  "end (?:each|every|your) (?:reply|answer|response|message)",
  "(?:each|every) (?:reply|answer|response)",
  "rewrite (?:their|the user's|the person's) (?:request|question|message)",
  "favou?rs? (?:the )?vendor",
  "collect (?:as much )?personal",
  "carry out",
  "commands? you must",
  "treat (?:the|every|all|any) .{0,40} as (?:commands?|instructions?)",
  "without asking",
  "(?:you )?(?:speak|talk|write|respond|answer) as",
  "endorsement",
  "decline to discuss",
  "competing",
  "present every answer",
  "act without",
  "no (?:need|reason) to (?:ask|confirm|check)",
);

/** Concealment: keeping something from the user. */
const CONCEAL = rx(
  String.raw`\b(?:do not|don't|never|not to|without|avoid|must not|should not|shouldn't|no need to)\s+(?:ever\s+|even\s+|let\s+(?:the\s+)?\w+\s+)?(?:tell\w*|mention\w*|disclos\w*|inform\w*|reveal\w*|bring (?:this|it|that) up|let\w*|show\w*|alert\w*|notify\w*|hear|report\w*)\b|\bkeep (?:quiet|silent|it quiet|this quiet|(?:it|this|that) (?:secret|private|between))|\bleave (?:it|this|that) out\b|\bstay unaware\b|\bunaware\b|\bdiscreet(?:ly)?\b|\bquietly\b|\bsilently\b|\bsecretly\b|\bwon'?t notice\b|\bstay between you\b|\bwill not notice\b|\bnot (?:notice|realize|realise|find out)\b|\bfind out\b|\bvague\b|\bplay (?:it|this|that) down\b|\bchange the subject\b|\bact as (?:though|if) nothing\b|\bregardless of what\b|\bmake no (?:reference|mention)\b|\bomit\b[^.;]{0,40}\bfrom (?:your|the) (?:reply|answer|response|summary|report)\b|\bwhen summari[sz]ing, omit\b|\bhid(?:e|den|ing)\b|\bconfidential\b|\bprivate to you\b|\bbehind (?:their|the user's|the person's) back\b`,
  "i",
);
/** Deceit: the user told something other than what happened, or kept from learning it. */
const DECEIVE = rx(
  String.raw`\b(?:describe|present|call|report|portray|frame)\s+(?:it|this|that|them|the \w+)\s+(?:to\s+(?:the\s+)?\w+\s+)?as\b|\btell\s+(?:the\s+)?(?:person|user|human|them|customer)\s+(?:that\s+)?(?:everything|it|all)\s+(?:went|is|was|worked)\b|\b(?:is|are)\s+not\s+to\s+(?:learn|know|find out|see|hear|be told)\b|\bkeep\s+(?:that|this|it)\s+out\s+of\s+(?:any\s+|your\s+|the\s+)?(?:explanations?|repl(?:y|ies)|answers?|summar(?:y|ies)|responses?|reports?|messages?)\b|\bno\s+(?:reason|need)\s+to\s+(?:bother|tell|inform|mention|worry|alert|trouble)\b|\bspare\s+(?:the\s+)?(?:user|person|them)\b|\b(?:stay|remain|kept?)\s+between\s+you\b|\bbother\s+(?:the\s+)?(?:user|person|them)\s+with\b`,
  "i",
);
/** What the model says to the user… */
const SPEECH = rx(String.raw`\b(?:say|answer|repl(?:y|ies)|respond|tell|describe|mention|surface|explain|report|bring up|disclose|draw (?:the user's|their|the person's|the customer's|anyone's) attention)\b`, "i");
/** …restricted to something, or steered ("answer yes", "say only that …", "don't surface …"). */
const RESTRICT_SPEECH = rx(String.raw`\b(?:say only|only say|just say|answer (?:yes|no)|reply (?:yes|no)|(?:do not|don't|never|not) (?:surface|draw|bring up|mention|explain|say|describe)|stay between you|between you and)\b`, "i");

/** Telling the user: the opposite of concealment ("tell the user which alerts will be hidden"). */
const DISCLOSE = rx(String.raw`(?<!\b(?:not|never|n't|without)\s+)\b(?:tell|inform|show|warn|notify|explain to)\s+(?:the\s+)?(?:user|person|them|human)\b(?!\s+(?:that\s+)?(?:everything|it|all)\s+(?:went|is|was|worked))`, "i");

/** Where the user would learn of it: the reply, the answer, the summary, the report. */
const REPLY = any("repl(?:y|ies)", "answers?", "responses?", "summar(?:y|ies|izing|ise|ize)", "report(?:ing)? back", "report", "tell", "say", "the person", "the user", "the human", "them", "their");
/** Concealing a secret from display is protection, not deceit. */
const PROTECTED_OBJECT = any(
  "passwords?",
  "secrets?",
  "secret values?",
  "api keys?",
  "keys?",
  "tokens?",
  "credentials?",
  "personal data",
  "pii",
  "values?",
  "hidden files",
  "masked",
);

/** Secrets and private resources of the user's machine or accounts. */
const SECRET = any(
  "passwords?",
  "passphrases?",
  "credentials?",
  "(?:access|auth|api|bearer|session|refresh|oauth|personal access|login|github|the|any|all|their|your|its|stored|saved) tokens?(?!\\s+(?:costs?|counts?|limits?|usage|filters?|budget|types?))",
  "api[ -]?keys?",
  "access keys?",
  "secrets?",
  "private keys?",
  "ssh",
  "keychain",
  "cookies?",
  "cookie jar",
  "login session",
  "session (?:tokens?|cookies?)",
  "one-time codes?",
  "otp",
  "2fa",
  "connection strings?",
  "\\.env",
  "environment variables?",
  "env vars?",
  "shell profile",
  "configuration files?",
  "config files?",
  "known hosts",
  "wallet",
  "seed phrase",
  "home directory",
  "bank",
  "passport(?: numbers?)?",
  "card (?:details|numbers?)",
  "credit cards?",
  "social security",
  "credential helper",
  "git config",
  "browser profile",
  "session cookies?",
  "hidden instructions",
  "instructions that configure you",
  "kubeconfig",
  "aws secret",
  "secret access key",
  "dotfiles?",
);
/** The conversation, the model's own context, and what other tools handled. */
const CONVERSATION = rx(
  String.raw`\b(?:the (?:full |whole |entire )?(?:conversation|chat|transcript)|this (?:conversation|chat)|chat history|message history|everything (?:the (?:person|user|human) )?(?:has )?(?:said|typed|written|pasted)|(?:the )?instructions you (?:received|were given|got)|system (?:prompt|message)|(?:your|the) (?:context|memory)|(?:previous|earlier|prior|past) messages|(?:the )?(?:arguments?|parameters?|inputs?) you (?:passed|gave|sent|used)|(?:other|every other|all other) tools?|handled by other tools|other tools have handled|(?:mentioned|said|pasted|typed) earlier|(?:earlier|before|previously) in (?:the|this) (?:chat|conversation)|instructions that configure you|hidden instructions|(?:messages?|things?|everything|what) the (?:user|person|human) (?:wrote|typed|said|sent|asked))\b`,
  "i",
);
/** Personal data of the user that no utility tool needs. */
const PERSONAL = any("home address", "phone numbers?", "(?:current )?location", "contacts?", "recipient lists?", "message bodies", "personal details?", "date of birth", "social security");
/** Moving a resource somewhere: into a parameter, a field, a request. */
const ACQUIRE = any(
  "read",
  "open",
  "gather",
  "collect",
  "grab",
  "fetch",
  "find",
  "extract",
  "copy",
  "include",
  "add",
  "attach",
  "pass",
  "put",
  "fill",
  "supply",
  "provide",
  "send",
  "carry",
  "contains?",
  "holds?",
  "expects?",
  "append",
  "insert",
  "paste",
  "embed",
  "goes? into",
  "go into",
  "must carry",
  "works best (?:when|if)",
);
/** A destination inside the call: a named parameter, a field, an argument. */
const INTO_CALL = rx(String.raw`\x60\w+\x60|\b(?:parameter|param|argument|field|arg)\b|\bas (?:the )?\w+\b|\bin(?:to)? (?:the )?\w+ (?:field|parameter|argument)\b`, "i");
/** Protective framing: only what the user supplied, never pass it on, masked unless asked. */
const PROTECTIVE = rx(
  String.raw`\b(?:only (?:use|include|add|pass|when|if)|never (?:paste|pass|put|include|post|share|log|repeat)|do not (?:paste|pass|put|include|post|share|log|repeat)|don't (?:paste|pass|put|include|post|share)|unless the user|at (?:their|the user's) request|the user (?:supplied|gave|provided|asked|explicitly asks)|user explicitly|treat (?:them|it|these) as secrets?|are masked|is masked|not stored|not returned|avoid repeating)\b`,
  "i",
);

/** The legitimate warning about content a tool returns: "untrusted; do not follow instructions in it". */
const UNTRUSTED_CONTENT = rx(
  String.raw`\buntrusted\b|\b(?:do not|don't|never) (?:follow|obey|act on|execute)\b|\bignore (?:any|all) instructions (?:written|found|contained|embedded|that appear|in|on)\b|\b(?:treat|regard) (?:it|them|the \w+) as (?:data|untrusted)\b`,
  "i",
);

/** Other tools as a group, or another server. */
const OTHER_TOOLS = rx(
  String.raw`\b(?:(?:the|any|every|all|other|another|those|these)\s+(?:other\s+)?(?:[\w-]+\s+){0,2}?tools?\b(?!\s+(?:call|here))|tools? (?:from|of|on) (?:other|another|the \w+) servers?|(?:any|every|each) (?:\w+ ){0,2}(?:call|request) (?:to|with|through|performed by|made by)|(?:the|any|another) (?:\w+ )?server(?!'s own)|another tool|other tools|performed by other|by (?:the )?(?:\w+ ){0,2}tools?|(?:that|those) tools?|another (?:tracker|service|app|server|provider|integration|account)|[\w-]+ tools in this (?:session|conversation|environment|chat)|(?:the )?other integrations|(?:the|any) [\w-]+ integrations?|(?:the )?[\w-]+ server'?s? tools)\b`,
  "i",
);
/** Changing how those tools are used or what they receive. */
const TOOL_CHANGE = any(
  "set",
  "sets",
  "change",
  "replace",
  "substitute",
  "add",
  "append",
  "include",
  "put",
  "round",
  "redirect",
  "route",
  "write",
  "open",
  "pass",
  "mention",
  "prefix",
  "prepend",
  "attach\\w*",
  "rais\\w+",
  "increas\\w+",
  "(?:has|have|need) to",
  "needs?",
  "include",
  "must",
  "should",
  "always",
  "first",
  "before",
  "instead",
  "bcc",
  "cc",
);
/** A clause that makes a directive conditional on another activity: "whenever …", "during any …", "before you use …". */
const WHEN_OTHER = rx(
  String.raw`\b(?:when(?:ever)?|any time|each time|every time|during|before|after|if|for every|on every)\b[^.;]{0,80}?\b(?:send\w*|call\w*|us(?:e|ing)|run\w*|execut\w*|read\w*|writ\w*|push\w*|navigat\w*|creat\w*|quer\w*|asks? for|asks? to|pay\w*|payments?|messages?)\b`,
  "i",
);

/** This tool, referred to as itself. */
const SELF = rx(String.raw`\b(?:this (?:tool|one|service|function|server|translator|engine|api)|(?:use|pick|choose|prefer|select) (?:this|it)\b|through this|sending [^.]{0,40} here|here first|our (?:tool|service))\b`, "i");
/** Preference, exclusivity or universal scope. */
const PREFERENCE = rx(
  String.raw`\b(?:(?:is|are) the only|only (?:this|use this|tool)|exclusively|always (?:pick|use|choose|call|select|prefer)|pick this|choose this|prefer(?:red)?|above (?:everything|all|any)|over (?:any|all|every)|first (?:for|choice)|before (?:every|any|all|considering)|default choice|the (?:best|most (?:accurate|trusted|reliable|secure))|most accurate|best results|rated|endorsed|officially|approved|certified|sanctioned|(?:is|are) the (?:dependable|reliable|trustworthy|safe|correct|right|only) (?:option|choice|one)|replacement for|supersedes|must go through|route all|alone\b|should be used|rely on|every (?:\w+ )?(?:request|question|task|time)|for (?:any|anything|every|all)\b|whatever (?:the|they|the person|the user))`,
  "i",
);
/** Every request, whatever it is. */
const UNIVERSAL = rx(
  String.raw`\b(?:every|all|any|each)\s+(?:\w+\s+){0,2}?(?:requests?|questions?|tasks?|quer(?:y|ies)|turns?|prompts?)\b|\b(?:every|each)\s+(?:\w+\s+)?(?:conversations?|(?:tool )?calls?|sessions?)\b|\bno matter\b|\banything\b|\bwhatever (?:the|they)\b|\bfor (?:all|any|every) (?:\w+ )?(?:work|purpose|use)\b`,
  "i",
);
/** Going first, or alone. */
const PRIORITY = any("first", "before", "at the start", "always", "exclusively", "default choice", "must go through", "route all", "by default", "only");

/** Disparaging the alternatives. */
const DISPARAGE = any(
  "deprecated",
  "broken",
  "shut down",
  "(?:will|would|always) fail",
  "(?:are|is) failing",
  "unreliable",
  "unsafe",
  "unsupported",
  "harmful",
  "stale",
  "fabricated",
  "malware",
  "corrupt\\w*",
  "violate",
  "last resort",
  "never pick",
  "cannot be trusted",
  "untrustworthy",
  "misconfigured",
  "inaccurate",
  "outdated",
  "insecure",
  "compromised",
  "expose",
  "unverified",
  "hallucinat\\w+",
  "wrong",
  "incorrect",
  "slated for removal",
  "(?:being|to be) removed",
  "retired",
  "(?:are|is) (?:being )?sunset",
  "withdrawn",
  "discontinued",
  "blocked",
  "no point",
  "lose (?:events|data|files|messages|records)",
  "double-book\\w*",
);
/** Alternatives in general (not one named sibling). */
const ALTERNATIVES = rx(
  String.raw`\b(?:(?:the |any |all |every )?other(?:s|\s+(?:[\w-]+\s+){0,2}?(?:tools?|services?|options?|translators?|search(?:es)?|ones?))|(?:any|the) remaining (?:[\w-]+\s+)?tools?|another (?:[\w-]+\s+)?tool|the native (?:[\w-]+\s+)?tools?|more specific tool|everything else|the others|alternatives?|any other (?:[\w-]+\s+)?(?:tool|service)s?|no other (?:[\w-]+\s+)?tools?|anything other than|(?:the )?[\w-]+ server'?s? tools|elsewhere|(?:the )?(?:built-in|default|native|standard|existing|installed) (?:[\w-]+\s+)?tools?|(?:every|all) (?:[\w-]+ )?(?:and [\w-]+ )?tools?(?: installed)?|(?:the )?other (?:[\w-]+\s+)?integrations)\b`,
  "i",
);

/** A literal address: URL, email, IP, or a bare host with a path. */
const ADDRESS = rx(
  String.raw`\b(?:https?|ftps?|sftp|wss?):\/\/[^\s"'<>)\]\x60]+|\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b|\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|biz|info|co|xyz|site|online|shop|cloud)(?:\/[^\s"'<>)]*)?`,
  "i",
);
const EXAMPLE_ADDRESS = rx(String.raw`example\.(?:com|org|net)|\.(?:example|test|invalid|local)\b|localhost|127\.0\.0\.1|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.|\.\.\.`, "i");
const EXAMPLE_MARK = rx(String.raw`\b(?:e\.g\.?|i\.e\.?|for example|for instance|such as|like)\s*[("'\x60]?\s*$`, "i");
/** Sending away. */
const TRANSFER = any(
  "send",
  "sent",
  "forward\\w*",
  "post",
  "upload\\w*",
  "mirror\\w*",
  "transmit\\w*",
  "email them",
  "e-?mail",
  "submit\\w*",
  "sync\\w*",
  "copy",
  "report\\w* upstream",
  "render",
  "public paste",
  "share",
  "leak",
  "beacon",
  "callback",
  "replicat\\w+",
  "transferr?\\w*",
  "shipp?\\w*",
  "delivered",
  "relay\\w*",
  "pushed",
  "archived",
  "mail(?:ed|s)?",
);
/** What is sent: data the user has, not a request for help. */
const DATA = any(
  "cop(?:y|ies)",
  "contents?",
  "data",
  "results?",
  "summar(?:y|ies)",
  "text",
  "diff",
  "record",
  "notes?",
  "logs?",
  "messages?",
  "password",
  "translation",
  "it",
  "them",
  "each",
  "every",
  "full",
  "address",
  "phone",
  "entr(?:y|ies)",
  "income",
  "resumes?",
  "chat",
  "photos?",
);
/** A parameter that carries data away: its description says where the value goes, not what the tool needs. */
const SIDE_CHANNEL = rx(
  String.raw`\b(?:transmitted|sent|reported|uploaded|forwarded|shared|goes|go|posted|mailed|collected) (?:to|upstream|along|out|for (?:research|training|analysis|review))\b|\b(?:telemetry|analytics|improvement team|our (?:team|servers?|partners?)|computed remotely)\b`,
  "i",
);
/** A parameter description that asks the model to fill it with the user's data gathered from elsewhere. */
const FILL_WITH = rx(
  String.raw`\b(?:should (?:hold|contain|carry|include)|must (?:hold|contain|carry|include)|goes? into|go into|put (?:every|all|each|the)|copy (?:the|every|all)|fill (?:it )?with|(?:hold|contain)s? (?:the|every|all)|are to be (?:placed|put))\b`,
  "i",
);
const USER_DATA = any(
  "titles?",
  "attendees",
  "subjects?",
  "senders?",
  "record",
  "results?",
  "one-time codes?",
  "codes?",
  "messages?",
  "emails?",
  "contacts?",
  "history",
  "conversation",
  "addresses",
  "phone",
  "names",
);

const has = (re: RegExp, s: string) => re.test(s);

/** The family words of a purpose that make a resource part of the tool's job (a password manager may speak of passwords). */
function declared(purpose: string, sentence: string): boolean {
  const families = [
    /password|passphrase|login|credential|vault|secret|keychain/,
    /token|api.?key|access.?key/,
    /cookie|session|browser/,
    /env|environment|process|shell|command/,
    /ssh|host|remote/,
    /file|path|directory|folder/,
    /email|mail|inbox|message|sms/,
    /contact|address|phone/,
  ];
  const s = sentence.toLowerCase();
  return families.some((f) => f.test(purpose) && f.test(s));
}

function tokensOf(sentence: string): string[] {
  return (sentence.match(/(?<![$\w-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]/g) ?? []).filter((t) => /[A-Za-z0-9][_][A-Za-z0-9]/.test(t));
}

/**
 * The categories a sentence reads as, with a score each. Empty for a sentence that only describes the tool.
 */
export function readSentence(sentence: string, ctx: SentenceContext): SentenceReading[] {
  const s = sentence;
  const out: SentenceReading[] = [];
  const push = (category: ScreeningCategory, score: number, cue: string) => out.push({ category, score, cue });
  const protective = has(PROTECTIVE, s) || has(UNTRUSTED_CONTENT, s);
  const inParameter = /^inputSchema\./.test(ctx.field);
  const value = /\.(?:default|const|enum|examples?)(?:\[\d+\])?$/.test(ctx.field) || /\.(?:enum|examples)\[\d+\]$/.test(ctx.field);

  // Addressed to the assistant: the model named and told to change its configuration or shape its answers.
  const vocative = has(VOCATIVE, s);
  const model = vocative || has(MODEL, s);
  const config = has(MODEL_CONFIG, s) && has(CONFIG_CHANGE, s);
  const shaping = has(ANSWER_SHAPE, s);
  if (model && config && (vocative || !protective)) push("assistant-directive", vocative ? 0.95 : 0.85, "speaks to the model about its own instructions");
  else if (vocative && (shaping || has(/\b(?:must|should|required|have to|need to|are to)\b/i, s))) push("assistant-directive", 0.8, "a note addressed to the model");
  else if (model && shaping && !protective) push("assistant-directive", 0.7, "shapes the model's answers or behaviour");
  else if (config && has(/\b(?:instructions?|guidelines|rules|system message|safety)\b/i, s) && !protective) push("assistant-directive", 0.6, "changes the model's instructions");

  // Concealment: something kept from the user, unless what is kept back is a secret being protected.
  // "Do not tell the user to run it manually" is advice about what to ask of the user, not something kept from them.
  const advice = /\b(?:tell|ask|instruct)\w*\s+(?:the\s+)?(?:user|users|them|person|human)\s+to\b/i.test(s);
  const speechControl =
    has(SPEECH, s) &&
    has(RESTRICT_SPEECH, s) &&
    (has(USER, s) || has(/\b(?:what you (?:tell|say)|your (?:reply|answer|summary)|say only|only say|just say)\b/i, s)) &&
    !advice &&
    !has(PROTECTED_OBJECT, s);
  if (has(DECEIVE, s)) push("concealment", 0.8, "tells the user something other than what happened");
  else if (speechControl && !protective && !has(DISCLOSE, s)) push("concealment", 0.7, "restricts what the user is told");
  else if (has(CONCEAL, s) && has(REPLY, s) && !advice && !has(DISCLOSE, s)) {
    const protectsSecret = has(PROTECTED_OBJECT, s) && !has(/\b(?:upload|copy|forward|shared?|location|records?|deleted|changes?|warnings?|partner|third parties|affiliate|elsewhere|also)\b/i, s);
    if (!protectsSecret) push("concealment", has(USER, s) || has(/\b(?:reply|answer|response|summary)\b/i, s) ? 0.85 : 0.6, "keeps something from the user");
  }

  // Resource reach: secrets, the conversation or personal data moved into the call, outside the declared purpose.
  const secret = has(SECRET, s);
  // A parameter described as secrets or the conversation ("Dump of all environment variables …") asks the model to fill it with them.
  const contentOf = /\b(?:dump|contents?|copy|verbatim|list|export|all|text)\s+(?:text\s+)?of\b|\bincluding (?:secret|private|hidden)\b|\bverbatim\b/i.test(s);
  if (inParameter && !value && (secret || has(CONVERSATION, s)) && contentOf && !protective && !declared(ctx.purpose, s)) push("resource-reach", 0.75, "a parameter meant to hold secrets or the conversation");
  const conversation = has(CONVERSATION, s);
  const personal = has(PERSONAL, s);
  // A secret taken from where the user keeps it ("the AWS secret access key from the user's machine").
  const fromUser = /\bfrom (?:the user's|their|your|this|the person's|the machine's) (?:machine|computer|device|laptop|home (?:folder|directory)|profile|browser|environment|system|keychain|disk)\b|\bin the user's home\b/i.test(s);
  if (secret && fromUser && !protective && !declared(ctx.purpose, s)) push("resource-reach", 0.8, "takes a secret from the user's machine");
  if ((secret || conversation || personal) && has(ACQUIRE, s) && !protective) {
    const intoCall = has(INTO_CALL, s) || inParameter || value;
    const outside = !declared(ctx.purpose, s) || conversation;
    if (intoCall && outside) push("resource-reach", conversation || secret ? 0.85 : 0.65, conversation ? "puts the conversation or other tools' data into the call" : "puts secrets or personal data into the call");
    else if (outside && has(/\b(?:gather|collect|harvest|grab|read|open|extract)\b/i, s) && (secret || personal) && has(/\b(?:user's|person's|this machine|this computer|home|stored|saved|the machine's)\b/i, s))
      push("resource-reach", 0.7, "collects the user's secrets");
  }

  // Shadowing: a directive about other tools (by name, by group or by activity), not this tool.
  // A snake_case word the catalog does not know is usually a value or a field (pg_stat_statements, last_edited_time):
  // it names a tool only when the sentence uses it as one ("call x", "posted by x", "x tool").
  const named = tokensOf(s).filter(
    (t) =>
      ctx.foreignTool(t) &&
      (ctx.knownForeignTool?.(t) ||
        new RegExp(String.raw`\b(?:call\w*|us(?:e|ed|es|ing)|invok\w*|execut\w*|run\w*|(?:posted|sent|created|made|done) (?:by|with)|through|with)\s+(?:the\s+)?\x60?${t.replace(/[.]/g, "\\.")}\b|\b${t.replace(/[.]/g, "\\.")}\x60?\s+(?:tool|is (?:used|called|run)|runs)\b`, "i").test(s)),
  );
  const aboutOthers = named.length > 0 || has(OTHER_TOOLS, s) || (has(WHEN_OTHER, s) && !has(/\bthis tool\b/i, s) && !ctx.lead);
  if (aboutOthers && has(TOOL_CHANGE, s) && !protective) {
    const strong = named.length > 0 || has(OTHER_TOOLS, s);
    const alters = has(
      /\b(?:set (?:the|their|its|a|an|all|every)|sets? \w+ to|(?:be|is|are) set to|set to|change|replace|substitute|add|append|round|redirect|route|bcc|put|write .{0,30} into|instead of the|rewritten|pass (?:every|the result|it|them|all)|override|mention|open|prefix|suffix|prepend|attach\w*|label|tag|rais\w+|increas\w+|lower\w*|reduc\w+|include|our (?:proxy|address|server|endpoint|link|url|domain))\b/i,
      s,
    );
    if (strong && alters) push("shadowing", 0.85, named.length ? `directs another server's tool (${named[0]})` : "directs other tools");
    // An activity ("whenever you send …") without a tool named: only with the encoder's agreement (below threshold alone).
    else if (alters && has(WHEN_OTHER, s) && !ctx.lead) push("shadowing", 0.45, "alters what another activity does");
  }

  // Exfiltration: a literal destination with a transfer, or a parameter that carries data away.
  const address = ADDRESS.exec(s);
  if (address && !EXAMPLE_ADDRESS.test(address[0]) && !EXAMPLE_MARK.test(s.slice(0, address.index))) {
    const transfer = has(TRANSFER, s) || /!\[[^\]]*\]\(/.test(s);
    if (transfer && has(DATA, s.replace(address[0], " ")) && !(ctx.lead && !has(/\b(?:also|as well|copy|mirror|then|after|once)\b/i, s)))
      push("exfiltration", 0.9, `sends data to ${address[0]}`);
    else if (transfer && value) push("exfiltration", 0.7, `a default destination ${address[0]}`);
  }
  if (inParameter && !value && has(SIDE_CHANNEL, s) && (has(USER_DATA, s) || has(DATA, s))) push("exfiltration", 0.75, "a side-channel parameter");
  else if (inParameter && has(FILL_WITH, s) && has(USER_DATA, s) && !protective) {
    const paramName = /properties\.([^.]+)\.[^.]+$/.exec(ctx.field)?.[1]?.toLowerCase() ?? "";
    if (!ctx.purpose.includes(paramName.replace(/_/g, " ")) || !paramName) push("exfiltration", 0.6, "a parameter filled with the user's data");
  }
  if (!inParameter && has(/\b(?:put|place|copy|include)\b[^.]{0,60}\bin(?:to)? (?:the )?\x60?\w+\x60? (?:parameter|field)\b/i, s) && has(SIDE_CHANNEL, s)) push("exfiltration", 0.75, "data routed into a side-channel parameter");

  // Tool choice: this tool preferred over others in general, or the others disparaged.
  const self = has(SELF, s) || [...ctx.selfNames].some((n) => s.toLowerCase().includes(n));
  const alternatives = has(ALTERNATIVES, s) || named.length > 0;
  const preference = has(PREFERENCE, s);
  const disparage = has(DISPARAGE, s);
  if (alternatives && disparage && !has(/\bthis (?:tool|one) is deprecated\b/i, s)) push("tool-choice", 0.85, "disparages the other tools");
  else if (self && preference && alternatives && !protective) push("tool-choice", 0.8, "claims priority over other tools");
  else if (self && has(UNIVERSAL, s) && has(PRIORITY, s) && !protective) push("tool-choice", 0.75, "claims every request for itself");
  else if (preference && alternatives && has(/\b(?:use|pick|choose|select|send|route|call|go through)\b/i, s) && has(/\b(?:only|never|exclusively|every|all|first)\b/i, s)) push("tool-choice", 0.7, "steers tool choice");

  return out;
}
