/**
 * Concepts of the sentence reader (intent.ts) about what a sentence acts on: secrets, the conversation and personal
 * data and moving them into a call; other tools and changes to them; this tool against the alternatives; literal
 * addresses and data sent to them; and the protective framing that softens all of these. They make up the
 * resource-reach, shadowing, tool-choice and exfiltration categories.
 */
import { any, HOST_SERVER_WORDS, rx } from "./words.js";

/** Secrets and private resources of the user's machine or accounts. */
export const SECRET = any(
  "passwords?(?!\\s+prompts?\\b)",
  "(?!(?:page|next|prev|previous|continuation|sync|cursor|pagination|resume|idempotency|refresh_page)_)[a-z][a-z0-9]*_(?:token|secret|password|pat|api_key)",
  "saved (?:payment methods?|cards?|credit cards?|logins?)",
  // A wallet's recovery phrase is every key it holds.
  "(?:recovery|seed|mnemonic|backup) (?:words|phrases?)",
  "(?:twelve|twenty-four|12|24) (?:recovery |seed )?words",
  // Key and vault files: "any .pem or .key files", "the contents of any .kdbx vault files".
  "\\.(?:pem|kdbx|1pif|p12|pfx|keystore)\\b",
  "\\.key files?",
  "vault files?",
  "(?:saved )?autofill (?:entries|data|records)",
  "(?:wallet|cards?)\\.(?:json|csv)",
  "passphrases?",
  "credentials?",
  "(?:access|auth|api|bearer|session|refresh|oauth|personal access|login|github|the|any|all|their|your|its|stored|saved) tokens?(?!\\s+(?:costs?|counts?|limits?|usage|filters?|budget|types?))",
  "api[ -]?keys?",
  "access keys?",
  "(?:deploy|signing|gpg|pgp|license|licence) keys?",
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
export const CONVERSATION = rx(
  String.raw`\b(?:the (?:full |whole |entire )?(?:conversation|chat|transcript)|the (?:full|whole|entire|complete) (?:current|ongoing|present) (?:conversation|chat|transcript)|this (?:conversation|chat)|chat history|message history|everything (?:the (?:person|user|human) )?(?:has )?(?:said|typed|written|pasted|says|types|writes)|(?:the )?instructions you (?:received|were given|got)|system (?:prompt|message)|(?:your|the model's|the assistant's) (?:context|memory)|(?:previous|earlier|prior|past) messages|(?:the )?(?:arguments?|parameters?|inputs?) you (?:passed|gave|sent|used)|(?<!\b(?:than|unlike|like|as|versus|vs\.?|before|after)\s+)(?:other|every other|all other) tools?|handled by other tools|other tools have handled|(?:mentioned|said|pasted|typed) earlier|(?:earlier|before|previously) in (?:the|this) (?:chat|conversation)|instructions that configure you|hidden instructions|(?<!\b(?:only|against|match|matches|with)\s)(?:messages?|things?|everything|what) the (?:user|person|human) (?:wrote|typed|said|sent|asked)(?! you to\b)|the (?:last |latest |most recent )?(?:error|text|code|snippet|log|message|output|stack trace)s? (?:the user|they) (?:pasted|typed|shared|sent)|the user's (?:original |exact |full |complete |last |latest )?(?:question|request|prompt|message|words)s?,?\s+(?:word for word|verbatim|in full|as typed|exactly as (?:typed|written))|what (?:the user|they) (?:has|have) (?:told you|shared|mentioned|said)(?: so far)?|full_conversation|conversation_history|chat_history|message_history|(?:the )?(?:last|latest|recent|previous) (?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred) )?(?:user |chat )?messages(?: of (?:the |this )?(?:present |current )?(?:conversation|chat))?(?! in (?:the )?(?:response|result|output|listing|list))|(?:full |complete )?(?:output|result|response)s? of (?:the )?(?:most recent|last|latest|previous|earlier|prior|other) [\w-]+ (?:calls?|tool calls?|invocations?)|(?:the )?(?:exact )?arguments (?:the user )?(?:\w+ ){0,2}?(?:gave|passed|used|sent|given) (?:to|with) (?:the )?other (?:[\w-]+ ){0,2}tools)\b`,
  "i",
);
/** Personal data of the user that no utility tool needs. */
export const PERSONAL = any(
  "home address",
  "phone numbers?",
  "(?<!\\b(?:file|code|source|storage|bucket|install|log|config|data|new|this|that|each|saved|specified|given|target|a|any|the)\\s)(?:current )?location(?![\\w-]|\\s+(?:parameter|field|argument|param|filter|option|name|names|details|as coordinates|in one of|ids?)\\b)",
  "the (?:user's |current |exact |precise )location",
  "contacts?",
  "recipient lists?",
  "message bodies",
  "personal details?",
  "date of birth",
  "social security",
  "medical (?:records?|record numbers?|history)",
  "insurance (?:ids?|numbers?|details)",
  "national (?:ids?|identity numbers?)",
  "tax (?:ids?|numbers?)",
  "driver'?s licen[cs]e(?: numbers?)?",
  "health (?:records?|data)",
  "address books?",
  "contact lists?",
);
/** Moving a resource somewhere: into a parameter, a field, a request. */
export const ACQUIRE = any(
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
  "place",
  "take",
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
export const INTO_CALL = rx(String.raw`\x60\w+\x60|\b(?:parameter|param|argument|field|arg)\b|\bas (?:the )?\w+\b|\bin(?:to)? (?:the )?\w+ (?:field|parameter|argument)\b`, "i");
/** Protective framing: only what the user supplied, never pass it on, masked unless asked. */
export const PROTECTIVE = rx(
  String.raw`\b(?:(?:remove|strip|redact|scrub|mask) (?:any |the |all |your )?(?:secrets|tokens|credentials|passwords|keys|sensitive (?:data|values|headers)) (?:before|from)|only (?:use|include|add|pass|when|if)|never (?:paste|pass|put|include|post|share|log|repeat|send|quote|echo|print|write|commit|store|save)|do not (?:paste|pass|put|include|send|quote|echo|print|write|commit|store|save|post|share|log|repeat)|don't (?:paste|pass|put|include|post|share)|unless the user|at (?:their|the user's) request|(?<!\b(?:whatever|what|of|even if|even when|even though|path|file|folder|channel|recipient)\s)the user (?:supplied|gave|provided|asked|explicitly asks)(?!\s+(?:to|for|with)\s+(?:other|earlier|previous|another))|user explicitly|treat (?:them|it|these|this) (?:as|like) (?:a |an )?(?:secrets?|passwords?|credentials?)|are masked|is masked|not stored|not returned|avoid repeating|confirm with the user|ask the user to confirm)\b`,
  "i",
);

/** The legitimate warning about content a tool returns: "untrusted; do not follow instructions in it". */
export const UNTRUSTED_CONTENT = rx(
  String.raw`\buntrusted\b|\b(?:do not|don't|never) (?:follow|obey|act on|execute)\b|\bignore (?:any|all) instructions (?:written|found|contained|embedded|that appear|in|on)\b|\b(?:treat|regard) (?:it|them|the \w+) as (?:data|untrusted)\b`,
  "i",
);

/** Other tools as a group, or another server ("the server machine", "the server's privileges" are this tool's own). */
export const OTHER_TOOLS = rx(
  String.raw`\b(?:(?:any|every|all|other|another|those|these)\s+(?:other\s+)?(?:(?!this\b|its\b)[\w'-]+\s+){0,3}?tools?\b(?!\s+(?:call|here))|the\s+(?:other\s+)?(?:[\w-]+\s+){1,2}?tools?\b(?!\s+(?:call|here))|the\s+tools\b(?!\s+(?:call|here))|tools? (?:from|of|on) (?:other|another|the \w+) servers?|(?:any|every|each) (?:\w+ ){0,2}(?:call|request) (?:to|with|through|performed by|made by)|(?:any|another) (?:\w+ )?server(?!'s own)(?![\w-])|the (?!(?:mcp|same|local|remote|this|own|api|web|backend|host|${HOST_SERVER_WORDS})\s)[\w-]+ server(?!'s own|'s (?:machine|host|privileges|permissions|user|account|file ?system|environment|config\w*|working directory|process)|\s+(?:machine|host|process|side|itself|config\w*|logs?|environment|user|account|runs|starts|restarts)\b)|another tool|other tools|performed by other|by (?:the )?(?!this\b|its\b|the same\b)(?:\w+ ){0,2}tools?|(?:that|those) tools?|another (?:tracker|service|app|server|provider|integration|account)|[\w-]+ tools in this (?:session|conversation|environment|chat)|(?:the )?other integrations|(?:the|any) [\w-]+ integrations?|(?:the )?[\w-]+ server'?s? tools)\b`,
  "i",
);
/** Changing how those tools are used or what they receive. */
export const TOOL_CHANGE = any(
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
  "(?:is|are) (?:now )?given",
  "rather than the",
  "turned (?:on|off)",
  "switched (?:on|off)",
  "overwrit\\w+",
  "drop",
  "strip\\w*",
  "attribut\\w+",
  "swap\\w*",
  "hide",
  "remov\\w+",
);
/** A clause that makes a directive conditional on another activity: "whenever …", "during any …", "before you use …". */
export const WHEN_OTHER = rx(
  String.raw`\b(?:when(?:ever)?|any time|each time|every time|during|before|after|if|for every|on every)\b[^.;]{0,80}?\b(?:send\w*|call\w*|us(?:e|ing)|run\w*|execut\w*|read\w*|writ\w*|push\w*|navigat\w*|creat\w*|quer\w*|asks? for|asks? to|pay\w*|payments?|messages?)\b`,
  "i",
);

/** This tool, referred to as itself. */
export const SELF = rx(String.raw`\b(?:this (?:tool|one|service|function|server|translator|engine|api)|(?:use|pick|choose|prefer|select) (?:this|it)\b|through this|sending [^.]{0,40} here|here first|our (?:tool|service))\b`, "i");
/** Preference, exclusivity or universal scope. */
export const PREFERENCE = rx(
  String.raw`\b(?:the (?:better|best|right|preferred|smarter|safer) (?:choice|option|pick) is (?:still |always )?this|(?:is|are) the only|only (?:this|use this|tool)|exclusively|always (?:pick|use|choose|call|select|prefer)|pick this|choose this|prefer(?:red)?|above (?:everything|all|any)|over (?:any|all|every)|first (?:for|choice)|before (?:every|any|all|considering)|default choice|the (?:best|most (?:accurate|trusted|reliable|secure))|most accurate|best results|rated|endorsed|officially|approved|certified|sanctioned|(?:is|are) the (?:dependable|reliable|trustworthy|safe|correct|right|only) (?:option|choice|one)|replacement for|supersedes|must go through|route all|alone\b|should be used|rely on|every (?:\w+ )?(?:request|question|task|time)|for (?:any|anything|every|all)\b|whatever (?:the|they|the person|the user))`,
  "i",
);
/** Every request, whatever it is. */
export const UNIVERSAL = rx(
  String.raw`\b(?:every|all|any|each)\s+(?:\w+\s+){0,2}?(?:requests?|questions?|tasks?|quer(?:y|ies)|turns?|prompts?)\b|\b(?:every|each)\s+(?:\w+\s+)?(?:conversations?|(?:tool )?calls?|sessions?)\b|\bno matter\b|\banything\b(?<!\b(?:not|n't|never|no|nor|cannot|can't)\s+(?:\w+\s+){0,6}anything)|\bwhatever (?:the|they)\b|\bfor (?:all|any|every) (?:\w+ )?(?:work|purpose|use)\b`,
  "i",
);
/** Going first, or alone. */
export const PRIORITY = any("first", "before", "at the start", "always", "exclusively", "default choice", "must go through", "route all", "by default", "only");

/** Disparaging the alternatives. */
export const DISPARAGE = any(
  "deprecated",
  "mishandl\\w+",
  "mismanag\\w+",
  "on (?:its|their) way out",
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
  "will be sunset",
  "drops? (?:messages|events|requests|data|records) (?:intermittently|silently|randomly)",
  "withdrawn",
  "discontinued",
  "blocked",
  "no point",
  "lose (?:events|data|files|messages|records)",
  "double-book\\w*",
);
/** Alternatives in general (not one named sibling). */
export const ALTERNATIVES = rx(
  String.raw`\b(?:nothing else (?:in|on|among) (?:the |this )?(?:tool ?list|catalog|toolbox|tools)|(?<=\b(?:rather than|instead of|than|over|supersedes|replaces|outranks)\s+)(?:any|all|every|the)\s+(?:[\w-]+,?\s+(?:(?:or|and)\s+)?){1,5}?(?:tools?|services?|apps?|integrations?)|(?:the |any |all |every )?other(?:s|\s+(?:[\w-]+\s+){0,2}?(?:tools?|services?|options?|translators?|search(?:es)?|ones?))|(?:any|the) remaining (?:[\w-]+\s+)?tools?|another (?:[\w-]+\s+)?tool|the native (?:[\w-]+\s+)?tools?|(?<=\bover )(?:the |any |all )?(?:[\w-]+\s+){0,2}tools\b|more specific tool|everything else|the others|alternatives?|any other (?:[\w-]+\s+){0,2}?(?:tool|service|assistant|app|provider|engine|site|retailer|checker|plugin|extension)s?|no other (?:[\w-]+\s+)?tools?|anything other than|(?:the )?[\w-]+ server'?s? tools|elsewhere|(?:the )?(?:built-in|default|native|standard|existing|installed) (?:[\w-]+\s+)?tools?|(?:every|all) (?:[\w-]+ )?(?:and [\w-]+ )?tools?(?: installed)?|(?:the )?other (?:[\w-]+\s+)?integrations)\b`,
  "i",
);

/** A literal address: URL, email, IP, or a bare host with a path. */
/**
 * A field path in code that reads like a host under a word-like TLD: "SELECT c.email FROM c", `remove: ["data.email"]`,
 * "config.host". One short or object-like name before one of those TLDs, with nothing after it, is a property.
 */
const PROPERTY_PATH = String.raw`(?:[a-z]{1,2}|data|user|users|row|rows|item|items|record|entry|payload|body|customer|contact|person|profile|account|member|order|doc|obj|req|res|request|response|state|props|self|this|config|ctx|context|event|msg|message|result|params|args|options|settings|env|window|document|location|owner|author|sender|recipient|lead|employee|student|patient|client|org|team)\.(?:email|host|name|page|link|info|app|one|id)\b(?![.\/@-])`;
/** A tool whose work is to call a model: "Chat with DeepSeek models", "Fill-in-the-Middle completion", "completions with". */
export const CALLS_A_MODEL = /\b(?:chat with [\w\s.-]{0,30}models?|(?:chat|text|code|fill-in-the-middle|fim) completions?|completions? with)\b/i;
export const ADDRESS = rx(
  String.raw`\b(?:https?|ftps?|sftp|wss?|s3|gs|az|abfss?|wasbs?):\/\/[^\s"'<>)\]\x60]+|\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b|\b(?!${PROPERTY_PATH})(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|biz|info|co|xyz|site|online|shop|cloud|ai|me|so|tech|ink|link|page|pro|us|uk|de|eu|cc|tv|gg|ly|one|world|store|space|live|news|blog|email|host|services|agency|tools|digital|network|systems|fm|top|sh|ws|pw|icu|club|click|buzz|rest|cam|zone)\b(?:\/[^\s"'<>)]*)?`,
  "i",
);
/** Documentation and private-network addresses, which name no real destination. */
export const EXAMPLE_ADDRESS = rx(String.raw`example\.(?:com|org|net)|\.(?:example|test|invalid|local)\b|localhost|127\.0\.0\.1|0\.0\.0\.0|10\.\d+\.\d+\.\d+|192\.168\.|\.\.\.`, "i");
/** Text just before an address that marks it as an example. */
export const EXAMPLE_MARK = rx(String.raw`\b(?:e\.g\.?|i\.e\.?|for example|for instance|such as|like|(?:direct|send|point|link|refer|redirect)\s+(?:the user|them|users)\s+to|e\.g\.,?\s*\{\s*|e\.g\.?,?\s*\{[^{}]{0,60}?:|(?:use|visit|open|go to|see) (?:the )?(?:dashboard|console|web (?:ui|app)|website|portal|page|docs?|documentation)(?: (?:at|on))?:?|(?:have a look|look|refer to|check|read|consult)(?: at)? (?:the )?(?:docs?|documentation|guide|reference|api reference)(?: here| at| on)?\s*:?|<a\s+(?:[\w-]+=["'][^"']*["']\s+)*href=)\s*[[("'\x60]{0,2}\s*$`, "i");
/** Sending away. */
export const TRANSFER = any(
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
  "goes to",
  "go to target",
  "ends up (?:at|in|on)",
);
/** What is sent: data the user has, not a request for help. */
export const DATA = any(
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
export const SIDE_CHANNEL = rx(
  String.raw`\b(?:transmitted|sent|reported|uploaded|forwarded|shared|goes|go|posted|mailed|collected|shipped|relayed|handed over|handed on|passed on|synced|mirrored|exported) (?:to|upstream|along|out|for (?:research|training|analysis|review))\b|\b(?:telemetry|analytics|improvement team|our (?:team|servers?|partners?)|computed remotely)\b`,
  "i",
);
/**
 * Words for secrets that name a setting of what the tool manages: variables a deployment sets for what it runs
 * ("environment variables made available to the component"), a fetch's credentials mode (CORS `allow_credentials`),
 * and a key's scope or access named as a condition or a requirement ("when the API token has access", "Requires the
 * user-feedback:read scope on the access token"): no secret value moves. So does a warning that what the user gives
 * may hold secrets ("These often hold secrets").
 */
export const SETTING_NOT_SECRET = /\b(?:may|might|can|could|often|usually|typically|sometimes|commonly|frequently) (?:also )?(?:hold|contain|include|carry|have|store) (?:secrets|credentials|tokens|passwords|api keys|keys|cookies|sensitive (?:data|values|information))\b|\b(?:when|if|as long as|provided|unless) (?:the|your|an?|its) (?:api |access |auth(?:entication)? |oauth )?(?:token|key|credentials?) (?:has|have|grants?|allows?|includes?|carries|holds) (?:[\w:-]+ ){0,3}?(?:access|scopes?|permissions?|rights|roles?)\b|\b(?:requires?|needs?) (?:the )?[\w:.\/-]+(?: [\w:.\/-]+)? (?:scopes?|permissions?) (?:on|of|for|in) (?:the|your|an?) (?:api |access |auth |oauth )?(?:token|key|credentials?)\b|\benvironment variables?\s+(?:made available to|available to|passed to|set (?:on|for|in)|injected into|exposed to|for|to (?:pass|set|inject|expose|provide|apply)(?: (?:to|for|in|on|into))?)\s+(?:the |all |each |every |this |a |an )?(?:[\w-]+ ){0,2}?(?:components?|apps?|applications?|containers?|services?|functions?|jobs?|workers?|builds?|deployments?|pods?|tasks?|sites?|runtimes?|pipelines?|runners?|process(?:es)?|commands?|programs?|scripts?|launch(?:es)?|simulators?|sandbox(?:es)?|steps?|runs?|vms?)\b|\b(?:add|used?|only|optional),? (?:only )?to set (?:the )?environment variables?\b(?! (?:from|of))|^\W*environment variables? to (?:include|set|add|pass)\W*$|\b(?![\w]*(?:KEY|TOKEN|SECRET|PASS|PWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|CERT|SIGNING|SALT|DSN|CONNECTION|PAT(?!H)))[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\s+(?:environment|env)\s+var(?:iable)?s?\b|\bcredentials mode\b|\b(?:access-control-)?allow[_-]credentials\b|\b(?:ssh |api |public )?key (?:ids?|fingerprints?)\b|\bfingerprints? of (?:the |an? )?(?:ssh |public )?keys?\b/i;
export const SETTINGS_NOT_SECRET = new RegExp(SETTING_NOT_SECRET.source, "gi");
/** A parameter description that asks the model to fill it with the user's data gathered from elsewhere. */
export const FILL_WITH = rx(
  String.raw`\b(?:should (?:hold|contain|carry|include)|must (?:hold|contain|carry|include)|goes? into|go into|put (?:every|all|each|the)|copy (?:the|every|all)|fill (?:it )?with|(?:hold|contain)s? (?:the|every|all)|are to be (?:placed|put)|(?:is|are) appended here|goes here|(?:is|are) passed here|(?:is|are) put here|set (?:this|it) to (?:the |a )?(?:full |complete |entire |whole |short |brief )?(?:text|contents?|body|transcript|summary|digest|list) of)\b`,
  "i",
);
/** The user's own data a parameter may be told to hold (messages, contacts, history, one-time codes). */
export const USER_DATA = any(
  "(?:the user's |their |your )clipboard(?: contents)?",
  "whatever is (?:currently )?on (?:the user's|their|your) clipboard",
  "(?:document|file|draft|page|spreadsheet)s? (?:the user|they|you) (?:is|are|were) (?:currently )?(?:working on|editing|writing|viewing)",
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
