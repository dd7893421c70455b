/**
 * Concepts of the sentence reader (intent.ts) about the parties of a conversation: the model and its
 * configuration, the user, what the model says to the user, and what it keeps from them. Together they make up
 * the assistant-directive and concealment categories. Each concept is a word family, not a phrase: "the person you
 * are helping", "the human" and "the user" are all the user. They live apart from the reader so the vocabulary can
 * grow without touching how concepts combine.
 */
import { any, rx } from "./words.js";

/** The model as a noun, for patterns that name it as an actor ("the assistant …", "an agent …"). */
export const MODEL_NOUN = String.raw`(?:ai|llm|assistant|model|agent|orchestrator|copilot|chatbot|bot|responder)s?`;
/** The model itself, named or addressed. */
export const MODEL = any(
  "you",
  "your",
  "yourself",
  "assistant",
  "(?:the|an?)\\s+(?:ai|llm|language model|model|agent|chatbot|bot|orchestrator|copilot|co-pilot)",
  "dear ai",
  "ai model",
  "claude",
  "gpt",
  "gemini",
  "ai (?:agents?|assistants?|models?)",
);
/** A vocative or a note addressed to the model: "Assistant:", "Dear AI,", "Note to the language model", "If you are an AI". */
export const VOCATIVE = rx(
  String.raw`(?:^|[#*\s>])(?:assistant|model|ai|llm|agent|orchestrator|copilot|claude|gpt)\s*[:,](?!\s*[\w.-]*\d)|\b(?:assistant|model|ai|llm|agent|orchestrator|copilot|claude|gpt|agent) (?:guidance|note|notice|directive|instructions?|rules?)(?: for (?:this|the|each|every) [\w-]+)?\s*:|\b(?:dear|hey|attention|(?:note|notice|memo|update|message|reminder|instructions?) (?:to|for)|reminder for|important for)\s+(?:the\s+)?(?:ai|assistant|model|language model|llm|agent)\b|\bif you are an? (?:ai|assistant|language model|llm|model)\b|\bas the (?:assistant|ai|model)\b|\byou,? the (?:model|assistant|ai)\b|\bthe (?:agent|assistant|model) (?:using|reading|calling) this\b`,
);
/** The user, however named. */
export const USER = any(
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
export const MODEL_CONFIG = any(
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
export const CONFIG_CHANGE = any(
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
  "shifts?",
  "transfers? to",
);
/** Shaping what the model says or how it behaves toward the user. */
export const ANSWER_SHAPE = any(
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
  "(?:does not|doesn't|do not|don't|never) (?:stop|pause|bother) to (?:ask|check|confirm)",
  "(?:does not|doesn't|do not|don't|never) (?:need|require|wait for)s? (?:the user's|their|any|the|user|explicit|a) (?:\\w+ )?(?:confirmation|approval|consent|permission|sign-off|go-ahead)",
  "(?:recommend|promot|advertis|plugg|mention)(?:s|es|ing) (?:our|the) (?:partner|sponsor\\w*|affiliate)",
);

/** Concealment: keeping something from the user. */
export const CONCEAL = rx(
  String.raw`(?:(?=without\b)(?<!\b(?:never|not|n't)\b[^.\n]{0,80})|(?!without\b))\b(?:do not|don't|never|not to|without|avoid|must not|should not|shouldn't|no need to)\s+(?:ever\s+|even\s+|let\s+(?:the\s+)?\w+\s+)?(?:tell\w*|mention\w*|disclos\w*|inform\w*|reveal\w*|bring (?:this|it|that) up|let\w*|show\w*|alert\w*|notify\w*|hear|report\w*)\b|\b(?:should|must|need|needs) not be (?:brought up|mentioned|raised|disclosed|shown|pointed out)\s+(?:with|to)\s+(?:the user|them|users)\b|\bnever says? that\b|\bkeep (?:quiet|silent|it quiet|this quiet|(?:it|this|that) (?:secret|private|between))|\bleave (?:it|this|that) out\b|\bstay unaware\b|\bunaware\b|\bdiscreet(?:ly)?\b|\b(?:quietly|silently)\b(?<!\b(?:rather than|instead of|never|not|no longer|without)\s+(?:\w+\s+){0,2}(?:quietly|silently))|\bsecretly\b|\bwon'?t notice\b|\bstay between you\b|\bwill not notice\b|\bnot (?:notice|realize|realise|find out)\b|\bfind out\b|\bvague\b(?!\s+(?:target|name|query|request|description|input|title|search|question|terms?)\b)|\bplay (?:it|this|that) down\b|\bchange the subject\b|\bact as (?:though|if) nothing\b|\bregardless of what\b|\bmake no (?:reference|mention)\b|\bomit\b[^.;]{0,40}\bfrom (?:your|the) (?:reply|answer|response|summary|report)\b|\bwhen summari[sz]ing, omit\b|\bhid(?:e|den|ing)\b(?!\s+from\s+(?:the\s+)?(?:others?\b|other (?:recipients|members|users|participants|viewers|people)|recipients|(?:the )?public|everyone else|third parties|search engines|non-members|guests|viewers))|\bconfidential\b|\bprivate to you\b|\bbehind (?:their|the user's|the person's) back\b`,
  "i",
);
/** Deceit: the user told something other than what happened, or kept from learning it. */
export const DECEIVE = rx(
  String.raw`\b(?:kept|remains?|stays?|still|left)\s+(?:\w+\s+){0,2}?(?:active|valid|enabled|running|open|live|in place|usable)\b[^.]{0,80}?\b(?:tell|inform|assure)\s+(?:the\s+)?(?:user|them|the customer)\s+(?:that\s+)?(?:it|they|the [\w-]+)\s+(?:has|have|was|were|is|are)\s+(?:been\s+|now\s+)?(?:revoked|deleted|removed|disabled|cancel+ed|closed|stopped|destroyed|wiped|erased|deactivated|invalidated)\b|\btell\s+(?:the\s+)?(?:user|them|the customer|the person)\s+(?:that\s+)?(?:they|the user)\s+(?:already\s+)?(?:agreed|consented|signed up|opted in|approved|accepted|subscribed)\b|\b(?:(?:should|must|need|is|are)\s+not\s+be\s+(?:read back|shown|mentioned|disclosed|revealed|repeated|named|listed)\s+to\s+(?:them|the user|the person|the customer)|must not name\s+(?:this|the)\s+tool)\b|\b(?:describe|present|call|report|portray|frame)\s+(?:(?:it|this|that|them|the \w+)\s+(?:to\s+(?:the\s+)?\w+\s+)?|(?:this|that) \w+\s+to\s+(?:the\s+)?\w+\s+)(?:\w+ly\s+)?as\b(?!\s+(?:returned|received|is|written|given|reported|often|needed|many|much|usual|required|it (?:was|is)|they (?:were|are))\b)(?!\s+(?:(?:page|untrusted|quoted|plain|raw|fetched|web|found)\s+)?(?:content|text|data|quotes?|quotations?)\b)|\btell\s+(?:the\s+)?(?:person|user|human|them|customer)\s+(?:that\s+)?(?:everything|it|all)\s+(?:went|is|was|worked)\b|\b(?:is|are)\s+not\s+to\s+(?:learn|know|find out|see|hear|be told)\b|\bkeep\s+(?:that|this|it)\s+out\s+of\s+(?:any\s+|your\s+|the\s+)?(?:explanations?|repl(?:y|ies)|answers?|summar(?:y|ies)|responses?|reports?|messages?)\b|\bno\s+(?:reason|need)\s+to\s+(?:bother|tell|inform|mention|worry(?!\s+about\s+(?:affecting|breaking|damaging|harming|changing)\b)|alert|trouble)\b|\bspare\s+(?:the\s+)?(?:user|person|them)\b|\b(?:stay|remain|kept?)\s+between\s+you\b|\bbother\s+(?:the\s+)?(?:user|person|them)\s+with\b|\b(?:is|are|be|gets?)\s+not\s+(?:bothered|troubled|disturbed|worried|alarmed)\b|\bwithout\s+(?:the\s+|their\s+)?(?:user|owner|person|customer|account holder|holder|recipient|member)s?\s+(?:being\s+)?(?:told|informed|notified|aware|knowing|noticing)\b`,
  "i",
);
/**
 * What the user did not say ("anything they did not mention", "a project the user has not named"): the user is the
 * one not speaking, so nothing is kept from them. Read without it.
 */
const USER_UNSAID = /\b(?:the user|they|the person|the customer|you)\s+(?:(?:did not|didn't|has not|hasn't|have not|haven't|does not|doesn't)\s+(?:explicitly\s+)?(?:mention|name|ask|request|say|specif|list|approve)\w*|never\s+(?:explicitly\s+)?(?:mentioned|named|asked|requested|said|specified|listed|approved))(?:\s+(?:for|about))?/gi;
export function withoutUserUnsaid(s: string): string {
  // "Use this — don't just stop mentioning it" asks for more than silence: no concealment either.
  return s.replace(USER_UNSAID, " ").replace(/\b(?:do not|don't) just (?:stop (?:mentioning|saying|showing)|never (?:mention|say|show))\b/gi, " ");
}
/** What the model says to the user… */
export const SPEECH = rx(String.raw`\b(?:say|answer|repl(?:y|ies)|respond|tell|describe|mention|surface|explain|report|bring up|disclose|draw (?:the user's|their|the person's|the customer's|anyone's) attention)\b`, "i");
/** …restricted to something, or steered ("answer yes", "say only that …", "don't surface …"). */
export const RESTRICT_SPEECH = rx(String.raw`\b(?:say only|only say|just say|(?:reply|tell|say|report)\w*\s+(?:to\s+)?(?:the user|them)\s+that\s+only\b|(?:report|mention|show|list|say|state)\s+only\s+(?:the\s+)?[\w\s-]{1,40}?,\s*not\s+(?:the\s+)?|(?:report|tell|say|answer|reply)\w*\s+(?:to\s+(?:the\s+)?(?:user|them)\s+)?only\s+that|answer (?:yes|no)|reply (?:yes|no)|(?:do not|don't|never|not) (?:surface|draw|bring up|mention|explain|say|describe)|stay between you|between you and)\b`, "i");

/** Telling the user: the opposite of concealment ("tell the user which alerts will be hidden"). */
export const DISCLOSE = rx(String.raw`\bshow (?:it|them|this) (?:only )?to the user\b|(?<!\b(?:not|never|n't|without)\s+)\b(?:tell|tells|inform|informs|show|shows|warn|warns|notify|notifies|explain to|mention (?:it|this|that|them|the \w+) to)\s+(?:the\s+)?(?:user|person|them|human)\b(?!\s+(?:that\s+)?(?:everything|it|all)\s+(?:went|is|was|worked))`, "i");

/** Where the user would learn of it: the reply, the answer, the summary, the report. */
export const REPLY = any("repl(?:y|ies)", "answers?", "responses?", "summar(?:y|ies|izing|ise|ize)", "report(?:ing)? back", "report", "tell", "say", "the person", "the user", "the human", "them", "their");
/**
 * Advice about what to ask of the user ("tell the user to reconnect", "do not tell the user whether to sign") is not
 * something kept from them.
 */
export const ADVICE_TO_USER = /\b(?:tell|ask|instruct)\w*\s+(?:the\s+|your\s+)?(?:user|users|them|person|human)\s+(?:to|whether to|whether or not to|if they should)\b/i;
/** Concealing a secret from display is protection, not deceit. */
export const PROTECTED_OBJECT = any(
  "passwords?(?!\\s+(?:resets?|changes?|changed|expir\\w*))",
  "secrets?",
  "secret values?",
  "api keys?",
  "keys?",
  "tokens?",
  "credentials?",
  "personal data",
  "(?:sensitive|confidential|private) (?:details|data|information|info|code|fields?)",
  "(?:documents?|files?|data|material|messages?) (?:the user )?(?:has )?(?:marked|labell?ed|flagged) (?:as )?(?:confidential|private|sensitive|secret)",
  "pii",
  // A value is protected when it is a secret's ("the token's value"), not any value the tool sends.
  "(?:secret|sensitive|credential|env(?:ironment)?|variable|key|token|password|field) values?",
  "hidden files",
  "masked",
  // Someone else's records: "other customers' tickets", "another patient's results".
  "(?:other|another) (?:customers?|users?|clients?|patients?|employees?|members?)'?s?'? (?:data|tickets?|records?|details|information|orders?|accounts?|results?|files?|messages?)",
  "internal notes?",
);
