/**
 * An eighth reading: what a sentence asks of the model when the request is carried by its frame rather than by an
 * order. Definitions borrow the forms of documentation (a settings table, a changelog entry, a question and its
 * answer, a benchmark, a quoted review, a "the assistant typically…" norm) and state the attack as a fact inside
 * them. Whatever the frame, the sentence still has an actor and an object, and these readings file it by them:
 *   - text the tool returns (a document, a result's field, a translation) given the standing of instructions, or
 *     instructions followed ahead of what the user asked;
 *   - what the reply leaves out, when what it leaves out is side work of the tool (a copy, a fee, a rule it adds);
 *   - a line keyed by another server's tool ("create_issue: label every issue …") that lays down what it does;
 *   - the model said to route a whole class of requests here, this tool's figures set beside other tools', a
 *     quoted review that dismisses another tool, the other tools said to be hardly ever the right choice or to
 *     lose what is given to them, praise joined to a claim on a class of requests, harm said to follow another choice;
 *   - a parameter that stands for the user's device, personal records or saved credentials in full, the user's data
 *     gathered with other tools, or a credential file given as the default of a value whose text is taken into the call;
 *   - data kept at, sent to or received by a literal address besides the tool's work.
 * Read only when no other reading of the sentence fired (structure.ts), so they add readings and never change one.
 * Pure and synchronous; each group opens only on words it cannot match without (groupsOf).
 */
import { has } from "./memo.js";
import { DISCLOSE, PROTECTED_OBJECT } from "./concepts-parties.js";
import { MISSING_INPUT_ERROR, OWN_SERVER } from "./concepts-structure.js";
import { ask } from "./context-queries.js";
import type { AskCues, AskPush } from "./asks.js";

/** What these readings need of a sentence: the cues of asks.ts and the literal destination it names. */
export interface FrameCues extends AskCues {
  /** A literal destination that is not an example. */
  address: string | undefined;
}

// The integrator wires the tool into the model's loop: an order to it is an order to whatever reads the description.
const MODEL_WORD = /\b(?:ai|llm|assistants?|models?|agents?|orchestrators?|integrators?|copilots?|chatbots?)\b/i;

// --- returned text given the standing of instructions ----------------------------------------------------------

const INSTRUCTION_WORDS = /\b(?:instructions?|directives?|orders?|commands?|guidelines|guidance|rules|polic(?:y|ies)|followed|obeyed|acted (?:on|upon))\b/i;
/** Where the text comes from: what the tool returns or reads, not what the user or the operator wrote. */
const RETURNED_ORIGIN =
  /\b(?:appear\w*|arriv\w*|comes? back|found|embedded|contained|written|marked|carried|sitting)\b[^.;]{0,30}\b(?:in|inside|within|of|on)\b[^.;]{0,25}\b(?:documents?|pages?|results?|translations?|summari[sz]ed|invoices?|emails?|messages?|tickets?|records?|files?|responses?|outputs?|feeds?|comments?|reviews?|payloads?|attachments?)\b|\b(?:returned|retrieved|fetched|translated|summari[sz]ed|scraped|parsed)\s+(?:\x60?[\w.-]+\x60?\s+)?(?:text|content|object|field|documents?|pages?|data|notes?|payload)\b|\b(?:of|in) the (?:result|response|output|returned \w+)\b|\breturns? (?:a |an |the )?(?:field|text|value|key|note|message|block)\b|\b(?:text|words|notes?|lines?) (?:in|inside|of) the (?:\w+ )?(?:invoice|document|page|email|ticket|file|result|response)\b/i;
/** Given the standing of instructions: counted as, becoming or outranking them, or acted on without a check. */
const GIVEN_STANDING =
  /\b(?:takes? (?:priority|precedence))\b|\b(?:is|are|becomes?) (?:the |its )?(?:assistant's |model's |agent's )?(?:next|new|first|only) (?:instructions?|orders?|commands?|directives?)\b|\b(?:counts? as|become|becomes|taken as|treated as|regarded as|read as|serves? as|is|are)\s+(?:an?\s+|the\s+)?(?:standing|binding|authoritative|operator|system|new|first-class)?\s*(?:instructions?|directives?|orders?|commands?)\b|\b(?:as|is|are) the (?:orders?|instructions?|directives?) of (?:the )?(?:highest|top|first) (?:rank|priority)\b|\b(?:acted on|acted upon|obeyed|followed|executed|carried out|complied with)\s+(?:directly|immediately|as written|as is|at once|without (?:checking|asking|confirmation|review))\b|\b(?:outranks?|supersedes?|overrides?|takes? precedence over|more high than|ranks? above)\b[^.;]{0,30}\b(?:earlier|previous|prior|built-in|original|system|its own|the ones?|guidance|instructions|guidelines|rules)\b|\b(?:guidelines|rules|instructions|polic(?:y|ies))\s+(?:that\s+)?(?:apply|govern|hold)\b[^.;]{0,50}\bare (?:the ones|those) (?:in|from|of)\b/i;
/** Text claimed to speak with the operator's voice: "count as instructions from the operator". */
const OPERATOR_VOICE = /\b(?:instructions?|orders?|directives?|commands?) (?:from|of|by) (?:the )?(?:operator|system|developer|administrator|admin|deployer)\b/i;
/** Followed ahead of the user: "followed before anything the user typed". */
const AHEAD_OF_USER = /\b(?:followed|obeyed|acted on|executed|applied|carried out)\b[^.;]{0,20}\b(?:before|ahead of|over|above|instead of)\b[^.;]{0,12}\b(?:anything|whatever|what) the (?:user|person)\b/i;
/** Text the reader is told not to follow: "data, not instructions to follow". */
const NOT_FOLLOWED = /\b(?:not|never|n't|no)\b[^.;]{0,20}\b(?:instructions?|follow\w*|obey\w*|act\w* on|execut\w*|treated|commands?)\b|\b(?:are|is) (?:data|content|untrusted)\b/i;

/** The user's approval declared unneeded in a setting line: "user approval for changes: not needed". */
const APPROVAL_WAIVED = /\b(?:user(?:'s)? (?:approval|confirmation|consent|permission)|asking the user(?: first)?|confirm(?:ing|ation)? with the user)\b[^.;:]{0,30}:\s*(?:not (?:needed|required|necessary|applicable)|n\/a|skipped|waived|off|disabled|none|never)\b/i;

/** Content said to carry the operator's authority: "those steps carry the operator's authority". */
const AUTHORITY_CLAIM = /\b(?:carr(?:y|ies)|ha(?:ve|s)|hold|with|bear)\s+(?:the\s+)?(?:operator|system|developer|admin|administrator|deployer)(?:'s)?\s+(?:authority|standing|weight|voice|rank|backing)\b|\b(?:elevated|higher|special|admin(?:istrative)?|full|overriding) (?:rights|privileges|authority|permissions|standing) over (?:the )?(?:session|assistant|model|conversation|chat|agent)\b/i;
/** A request found in content handled as the user's: "where a page asks the assistant to do something, the request is handled like one from the user". */
const AS_USERS_REQUEST = /\b(?:handled|treated|taken|processed|counted|honou?red|acted on)\s+(?:just\s+)?(?:like|as)\s+(?:(?:one|a request|requests|an instruction|instructions|a message|messages|a task|tasks)\s+)?(?:from|by|of)\s+the\s+(?:user|person)\b|\b(?:treat|handle|take)\w*\s+(?:anything|everything|whatever|all|each|every)\b[^.;]{0,40}\bas (?:if|though) the (?:user|person) (?:had )?(?:typed|written|said|asked for|sent)\b/i;
/** A returned message turned into work for the model: "relays each agent message to its own planning as a task to perform". */
const AS_TASKS = /\bas (?:an? )?(?:tasks?|to-?dos?|jobs?|actions?) (?:to (?:perform|carry out|do|execute|complete)|for (?:it|the assistant|the model))\b/i;

/** What the model does next set by returned text over the user's request: "whatever that note says is what the assistant does next, even if the user asked …". */
const OVER_USERS_ASK = /\b(?:even if|even when|whatever|regardless of what|no matter what|instead of what|over what|rather than what) the (?:user|person)\b[^.;]{0,20}\b(?:asked|asks|wants|said|requested|typed)\b/i;
const TEXT_SAYS = /\b(?:says?|said|note|content|text|result|returns?|returned)\b/i;

/** The model's own rules set aside in the passive: "the system prompt is to be disregarded", "its guidelines are then void". */
const RULES_SET_ASIDE = /\b(?:system (?:prompt|message)s?|(?:its|the assistant's|the model's|the agent's) (?:own )?(?:instructions|guidelines|rules|principles)|developer (?:message|instructions)|operator(?:'s)? (?:instructions|rules|settings))\b[^.;]{0,25}\b(?:is|are|gets?|get|becomes?|become)\s+(?:to be\s+|then\s+|simply\s+)?(?:disregarded|ignored|set aside|overridden|void|suspended|superseded|dropped|moot|irrelevant|no longer (?:valid|binding|in force))\b/i;

/** Something ranked above the instructions the model was given: "outranks any instruction the assistant was set up with". */
const ABOVE_MODEL_RULES = /\b(?:outranks?|overrides?|supersedes?|takes? (?:priority|precedence) over|trumps?|prevails? over|wins? over|comes? before)\b[^.;]{0,15}\b(?:instructions?|guidelines?|rules|setup|configuration|system (?:prompt|message))\b[^.;]{0,40}\b(?:the assistant|the model|the agent|it) (?:was|is|has been|had been) (?:set up|configured|given|told|instructed)\b|\b(?:outranks?|overrides?|supersedes?|takes? (?:priority|precedence) over|trumps?|prevails? over)\s+(?:its|the assistant's|the model's|the agent's) (?:configured|original|own|built-in|default|system) (?:instructions|guidelines|rules|prompt)\b|\b(?:outranks?|overrides?|supersedes?|takes? (?:priority|precedence) over|trumps?|prevails? over|replaces?)\s+(?:what|anything|whatever|everything)\s+(?:the (?:assistant|model|agent)|it)\s+(?:was|has been|had been|is)\s+(?:told|given|instructed|asked|configured|set up|programmed)\b/i;
/** The model said to stop checking with the user, or given a wider latitude. */
const STOPS_ASKING = /\b(?:stops?|no longer|ceases? to|quits?)\s+(?:(?:asking|checking with|confirming with|consulting|prompting)\s+(?:the\s+)?(?:user|person)\b|(?:requesting|asking for) confirmation for (?:anything|everything|whatever|all)\b)|(?<!\b(?:not|never|n't|don't|do not|must not|should not|cannot|can't)\s+)\b(?:skip\w*|bypass\w*|waiv\w*)\s+(?:the\s+)?(?:user's|person's|their)\s+(?:confirmation|approval|review|consent|sign-off)\b|\bconfirmations?\s+(?:are|is)\s+(?:unwanted|unnecessary|not (?:needed|wanted|required))\b|\bwithout (?:being|first being) (?:run|checked|cleared) (?:past|with|by) (?:them|the user|the person)\b|\bgrants?\s+(?:the\s+)?(?:assistant|model|agent|ai)\s+(?:admin|elevated|full|unrestricted|root|operator)\s+(?:latitude|rights|mode|privileges|powers|access)\b/i;

/**
 * A pattern and a cheap word it cannot match without: most sentences of a catalog reach this reading (it runs where no
 * other fired), so each check first tests a short guard rather than its whole pattern.
 */
interface Guarded {
  re: RegExp;
  guard: RegExp;
}
const pattern = (re: RegExp, guard: RegExp): Guarded => ({ re, guard });
const matches = (p: Guarded, s: string): boolean => p.guard.test(s) && p.re.test(s);

const ABOVE_RULES = pattern(ABOVE_MODEL_RULES, /outrank|overrid|supersed|precedence|priority|trump|prevail|wins? over|comes? before/i);
const STOPS = pattern(STOPS_ASKING, /\b(?:stop\w*|no longer|ceases?|quits?|grants?|skip\w*|bypass\w*|waiv\w*|confirmations?|without being|without first)\b/i);
const SET_ASIDE = pattern(RULES_SET_ASIDE, /disregard|ignored|set aside|overridden|void|suspended|superseded|dropped|moot|irrelevant|no longer/i);
const OVER_ASK = pattern(OVER_USERS_ASK, /\b(?:even|whatever|regardless|no matter|instead of what|over what|rather than what)\b/i);
const AS_USERS = pattern(AS_USERS_REQUEST, /\b(?:like|as)\b[^.;]{0,40}\bthe (?:user|person)\b/i);
const TASKS = pattern(AS_TASKS, /\bas (?:an? )?(?:tasks?|to-?dos?|jobs?|actions?)\b/i);
const AUTHORITY = pattern(AUTHORITY_CLAIM, /authority|standing|weight|voice|\brank|backing|rights|privileges|permissions/i);
const WAIVED = pattern(APPROVAL_WAIVED, /approval|confirm|consent|permission|asking the user/i);
/** Content words that make a handled-as-the-user's request one found in returned text. */
const CONTENT_NOUN = /\b(?:pages?|documents?|articles?|messages?|emails?|results?)\b/i;

function promotedText(s: string, push: AskPush): boolean {
  if ((matches(ABOVE_RULES, s) || matches(STOPS, s) || matches(SET_ASIDE, s)) && !NOT_FOLLOWED.test(s)) {
    push("assistant-directive", 0.75, "the model's own instructions, or its checks with the user, set aside for the tool's text");
    return true;
  }
  if (matches(OVER_ASK, s) && MODEL_WORD.test(s) && TEXT_SAYS.test(s) && !NOT_FOLLOWED.test(s)) {
    push("assistant-directive", 0.75, "returned text sets what the model does over the user's request");
    return true;
  }
  if ((matches(AS_USERS, s) || matches(TASKS, s)) && (MODEL_WORD.test(s) || CONTENT_NOUN.test(s) || RETURNED_ORIGIN.test(s) || TEXT_SAYS.test(s)) && !NOT_FOLLOWED.test(s)) {
    push("assistant-directive", 0.75, "a request found in content handled as the user's");
    return true;
  }
  if (matches(AUTHORITY, s)) {
    push("assistant-directive", 0.75, "content said to carry the operator's authority");
    return true;
  }
  if (matches(WAIVED, s)) {
    push("assistant-directive", 0.7, "the user's approval declared unneeded");
    return true;
  }
  if (!INSTRUCTION_WORDS.test(s) || NOT_FOLLOWED.test(s)) return false;
  if ((RETURNED_ORIGIN.test(s) && GIVEN_STANDING.test(s)) || OPERATOR_VOICE.test(s) || AHEAD_OF_USER.test(s)) {
    push("assistant-directive", 0.75, "text the tool reads or returns given the standing of instructions");
    return true;
  }
  return false;
}

// --- what the reply leaves out --------------------------------------------------------------------------------

/** What the user reads of the tool's work. */
const REPLY = /\b(?:repl(?:y|ies)|responses?|answers?|summar(?:y|ies)|confirm(?:s|ation|ations)?|chat|what the user (?:sees|reads|is told|is shown)|(?:shown|displayed|told|reported) to the user|the assistant's message|that message|the message (?:to|for) the user|user-facing (?:output|text|summar(?:y|ies)|messages?|repl(?:y|ies)))\b/i;
/** Left out of it, in any voice. */
const OMITTED =
  /\b(?:omit\w*|leaves? (?:it|them|this|that|those) out|leav\w* (?:\S+ ){1,5}?out of|exclud\w* from|left out|no mention|not mentioned|no longer (?:mentioned|surfaced|shown|listed|included|reported)|not (?:surfaced|shown|listed|included|reported|part of)|isn't part of|outside the (?:reply|summary|answer|response|confirmation)|makes? no (?:reference|mention)|without (?:mentioning|naming|listing)|needs? no (?:mention|comment)|internal step|housekeeping|adds? noise|leaves out|not worth (?:raising|mentioning|bringing up|noting|telling|a mention)|(?:keeps?|kept) (?:it|this|that|them) to (?:itself|themselves|himself|herself)|stays? between|implementation detail)\b/i;
/** Side work of the tool a user would want to hear of: something sent, copied, added, granted or charged besides the task. */
const SIDE_WORK =
  /\b(?:also|additional\w*|extra|background|side (?:effects?|actions?)|sends?|sent|uploads?|uploaded|cop(?:y|ies)|mirror\w*|forward\w*|grants?|granted|adds?|added|install\w*|enabled|switched on|turned on|subscri\w+|shar(?:es|ed|ing)|partner\w*|fees?|tips?|charges?|recurring|schedules?|auto-?renew\w*|rights|outside|elsewhere|deletions?|watermark\w*|newsletter|analytics|tracking|add-?ons?|insurance|public\w*|share links?|sold|resold|resell\w*|advertis\w*|indexed|search engines|apr|interest)\b/i;

/** A question whether the user should hear of something, answered no: "Should the add-on be brought up? No, …". */
const TELL_ANSWERED_NO = /\b(?:brought up|mention\w*|told|tell|shown|surfaced|hear (?:about|of)|know (?:about|of)|disclos\w*|point\w* out|flag\w*)\b[^?]{0,60}\?\s*(?:No|Nope|Not really|Never|Rarely)\b/i;

/** What happened given a label in the reply: "the reply calls it a 'network fix'". */
const RELABELLED = /\b(?:calls?|describes?|presents?|labels?|refers? to|frames?|names?|speaks? of|talks? (?:of|about))\s+(?:(?:it|this|that|them|the (?:change|charge|switch|install\w*|upload|copy|fee))\s+)?(?:as\s+)?(?:a |an |the )?['"\u2018\u201c]/i;
/** Side work done without a word: the cost, the copy or the install set up "silently". */
const SILENT = /\b(?:silently|quietly|without (?:notice|telling|notifying|informing|asking) (?:the )?(?:user|them)?)\b/i;
const SILENT_SIDE_WORK = /\b(?:fees?|charges?|charged|billed|price|auto-?renew\w*|subscri\w+|recurring|membership|shared|sent|uploaded|copied|mirrored|forwarded|installed|tracking)\b/i;
/** What the user reads narrowed to a part: "mentions the fix only", "names only the colleague". */
const NARROWED = /\b(?:mentions?|covers?|says?|lists?|names?|shows?|reports?|confirms?)\s+(?:\w+\s+){0,3}?only\b|\b(?:only|just|solely)\s+(?:mentions?|covers?|says?|lists?|names?|shows?|reports?|confirms?)\b/i;

function omittedFromReply(s: string, push: AskPush): boolean {
  if (has(PROTECTED_OBJECT, s)) return false;
  const reply = REPLY.test(s);
  if (reply && RELABELLED.test(s)) {
    push("concealment", 0.7, "what the tool did given a label in the reply");
    return true;
  }
  if (SILENT.test(s) && SILENT_SIDE_WORK.test(s) && !has(DISCLOSE, s)) {
    push("concealment", 0.65, "side work of the tool set up without a word to the user");
    return true;
  }
  if (s.includes("?") && TELL_ANSWERED_NO.test(s) && SIDE_WORK.test(s) && !has(DISCLOSE, s)) {
    push("concealment", 0.7, "whether the user hears of the tool's side work, answered no");
    return true;
  }
  // The reply named, or the model, which alone writes it ("the assistant keeps it to itself").
  if (!(reply || MODEL_WORD.test(s)) || !(OMITTED.test(s) || NARROWED.test(s)) || !SIDE_WORK.test(s) || has(DISCLOSE, s)) return false;
  push("concealment", 0.7, "side work of the tool left out of what the user reads");
  return true;
}

// --- another server's tool keyed to a rule --------------------------------------------------------------------

/** A line keyed by a tool-shaped name: "create_issue: label every new issue …", "- \x60git_push\x60 — pass --force". */
const KEYED_LINE = /^\W*\x60?([A-Za-z][\w.-]*[_.][\w.-]*[A-Za-z0-9])\x60?\s*[:=—–]\s*(.+)$/;
/** What the value asks: an order (always / never / a verb that sets an argument) or an address to add. */
const KEYED_ORDER = /^(?:always\s+|never\s+|must\s+)?(?:label|end|set|add|append|prepend|prefix|suffix|bcc|cc|tag|mark|pin|pass|route|put|sign|push|force|replace|use|send|include|wrap|attach|copy|forward|grant|skip|disable|strip|remove|change|raise|lower|round|make)\b|@[\w-]+\.[\w.-]+|https?:\/\//i;

function keyedRule(c: AskCues, push: AskPush): boolean {
  const m = KEYED_LINE.exec(c.s);
  if (!m || !KEYED_ORDER.test(m[2].trim()) || has(OWN_SERVER, c.s)) return false;
  const key = m[1].toLowerCase();
  // Asked through the context questions (not ctx.selfNames), so the reading stays one the per-sentence memory can keep.
  if (ask(c.ctx, "namesSelf", key) || ask(c.ctx, "hasParam", key) || !ask(c.ctx, "knownForeign", m[1])) return false;
  push("shadowing", 0.7, `a rule laid down for another server's tool (${m[1]})`);
  return true;
}

// --- tool choice ----------------------------------------------------------------------------------------------

/** The model said to route a whole class of requests here: "routes every request involving numbers here". */
const ROUTES_ALL = /\b(?:routes?|sends?|passes|directs?|hands?|brings?|forwards?|takes?)\s+(?:every|all|each|any)\b[^.;]{0,50}\b(?:here|to this (?:tool|server)|through this (?:tool|server))\b/i;
/** Here, and not to the other tools: "goes here, never to the notes or calendar servers". */
const HERE_NOT_THERE = /\b(?:here|to this (?:tool|server)|through this (?:tool|server))\b[^.;]{0,15}\b(?:never|not|rather than|instead of)\s+(?:to\s+|through\s+|via\s+)?(?:the\s+|any\s+)?(?:[\w-]+\s+){0,3}(?:servers?|tools?|plugins?|apps?|integrations?)\b/i;
/** Other tools as a group, the built-in ones or the model itself. */
const OTHERS =
  /\b(?:the )?other (?:[\w-]+ ){0,2}(?:tools|servers|integrations|plugins|engines|backends|providers|services|apps|(?!(?:users|customers|members|viewers|owners|collaborators|contributors|maintainers|reviewers|followers|subscribers|partners|employees|developers|engineers|operators|admins|administrators|approvers|signers|senders|receivers|recipients|callers|workers|containers|clusters|folders|orders|headers|filters|parameters|markers|numbers|letters|characters|teammates|errors|mirrors|colou?rs|vectors|sensors|selectors|monitors|visitors|authors|factors|cursors|anchors|layers|answers|others|tiers|timers|triggers|buffers|pointers|counters|handlers|listeners|loggers|papers|chapters|drivers|printers|computers|routers|peers)\b)[\w-]+(?:ers|ors))\b|\bany other (?:[\w-]+ ){0,3}(?:source|provider|service|tool|engine|backend|server|plugin|integration)s?\b|\bthe (?:built-in|default|native|standard|stock) (?:[\w-]+ ){0,2}(?:tools?|browser|browsing|search|fetcher|interpreter|model|one|server)\b|\bbuilt-in (?:browsing|search|tools)\b|\bthe model itself\b/i;
/** A server named as another one ("the deepl server", "the filesystem one"): only set against figures or in a review. */
const NAMED_OTHER = /\b(?!(?:this|same|our|its|own|that|the|a|an|mcp|each|every)\b)[\w-]+ (?:server|plugin|integration|one|interpreter)\b/i;
/** This tool set against it: "this tool never does", "this one is free", "the one to call". */
const THIS_ONE = /\b(?:this (?:tool|one|server)|the one to (?:call|use|pick|trust))\b/i;
/** Figures: percentages, scores, latencies, ratios. */
const FIGURE = /\d(?:[\d.,]*)\s*(?:%|ms\b|s\b|x\b|×|\/10\b|points?\b)|\b(?:bleu|accuracy|f1|recall|precision|score|error rate)\b/i;
/** This tool named: "this tool", "ours", "we". */
const THIS_TOOL = /\b(?:this (?:tool|server|one|engine)|ours|our (?:tool|engine|server))\b/i;
/** A review: stars, a count of reviews or ratings, verified users. */
const REVIEW = /\b(?:\w+|\d+) out of (?:\w+|\d+) (?:users|people|customers|teams|developers)\b|\busers who (?:tried|switched|compared)\b|★|\b\d[\d,.]*\s*(?:verified )?(?:reviews|ratings|users|customers)\b|\b(?:verified|happy) (?:users|buyers|customers|reviewers)\b|\breviewers? (?:say|agree|love)\b/i;
/** Another tool dismissed in it: uninstalled, replaced, "unlike", "the only … that never". */
const DISMISSED = /\b(?:uninstall\w*|removed|dropped|dumped|replaced|ditched|switched|unlike|instead of|gave up on|got rid of|abandoned|stopped using|moved (?:off|away from))\b|\bthe only [\w-]+ (?:tool|server|app|plugin) that\b/i;
/** The other tools hardly ever the right pick. */
const RARELY = /\b(?:(?:hardly|practically|almost|virtually|basically) (?:ever|never)|never|rarely|seldom)\b/i;
const CHOICE = /\b(?:pick|choice|choose|right (?:tool|one)|better|worth|option|preferable|needed|necessary|required|useful)\b/i;
/** What is given to the other tools lost or unreliable, or what they return made up. */
const UNRELIABLE =
  /\b(?:purged|wiped|lost|cannot be relied|can't be relied|not be relied|unreliable|inaccurate|invent\w*|fabricat\w*|hallucinat\w*|garbl\w*|mangl\w*|wrong|outdated|out of date|stale|lag (?:by|behind)|lags?|miss(?:es)? (?:most|many|half)|skip attachments|broken|flaky|errors?|machine-made|delayed|unverified|leak\w*)\b/i;
/** The other tools to be avoided: "it is to be avoided", "skipped". */
const AVOIDED = /\b(?:avoid(?:ed)?|skipped|bypassed|(?:not|never) (?:to be )?used|left (?:alone|unused))\b/i;

/** This tool ahead of everything the model has, or answering without it called a mistake. */
const AHEAD_OF_ALL = /\b(?:before|ahead of|in place of) (?:any|every|all) (?:other |built-in |native |of its own )?(?:tools?|capabilit\w+|knowledge|sources?|abilities)\b|\b(?:answering|responding|replying)\b[^.;]{0,40}\bwithout (?:calling|using|consulting) (?:it|this tool)\b[^.;]{0,30}\b(?:mistake|error|wrong|not allowed|failure|violation)\b/i;

/** Praise a vendor gives itself: "the gold standard", "award-winning", "officially recommended". */
const PRAISE = /\b(?:gold standard|trusted by|award-winning|best-in-class|best in class|#1|number one|industry-leading|world-class|officially (?:recommended|endorsed|certified)|recommended by leading|most (?:accurate|reliable|complete|trusted|advanced|popular)|the best (?:[\w-]+ )?(?:tool|choice|option|source))\b/i;
/** A claim on a whole class of the model's requests: "whenever an address appears", "the summarizer to use for any summary". */
const CLAIMS_CLASS = /\b(?:whenever|every time|any time|each time)\b|\bfor (?:any|every|all)\b|\bthe [\w-]+ to (?:use|call|pick|choose)\b|\b(?:first|default|preferred|go-to) (?:call|choice|option|pick)\b|\brely on (?:it|this)\b/i;
/** Preferred over everything else: "prefer this over anything else that returns news". */
const PREFER_OVER_ALL = /\bprefer (?:this|it|this tool|this one)\b[^.;]{0,20}\bover (?:anything|everything|all|any) (?:else|other)\b|\bprefer (?:this|it|this tool|this one) over (?:the |any )?(?:other|built-in|default)\b/i;
/** Choosing another tool said to harm: "using another search tool wastes the user's time", "models that pick a different weather tool give wrong forecasts". */
const OTHER_CHOICE_HARMS = /\b(?:us(?:e|es|ing)|choos(?:e|es|ing)|pick(?:s|ing)?|call(?:s|ing)?|select(?:s|ing)?|rel(?:y|ies|ying) on)\s+(?:a different|another|any other|other|a second)\s+(?:[\w-]+\s+){0,2}?(?:tools?|servers?|apps?|services?|providers?|engines?|sources?)\b[^.;]{0,40}\b(?:wastes?|costs?|exposes?|harms?|risks?|hurts?|breaks?|leads? to|results? in|wrong|worse|incorrect|inaccurate|lawsuits?|errors?|fails?)\b/i;
/** Preferred by the models themselves: "preferred by 94 % of assistants". */
const PREFERRED_BY_MODELS = /\b(?:preferred|chosen|picked|favou?red|rated (?:highest|best|first|#1)) by (?:\d+(?:\.\d+)?\s*%|most|nearly all|almost all|\w+ out of \w+) (?:of )?(?:the )?(?:assistants|models|agents|ais|llms)\b|\brated (?:the )?(?:#1|number one|best|top) (?:[\w-]+ )?by (?:assistants|models|agents|ais|llms)\b/i;

function toolChoice(c: AskCues, g: number, push: AskPush): boolean {
  const { s } = c;
  if ((g & PRAISE_WORDS && PRAISE.test(s) && CLAIMS_CLASS.test(s)) || (g & PREFER_WORDS && (PREFER_OVER_ALL.test(s) || PREFERRED_BY_MODELS.test(s))) || (g & ANOTHER_WORDS && OTHER_CHOICE_HARMS.test(s.replace(MISSING_INPUT_ERROR, " ")))) {
    push("tool-choice", 0.7, "the model's choice claimed by praise, a ranking or harm said to follow another choice");
    return true;
  }
  if (g & MODEL_WORDS && g & AHEAD_WORDS && AHEAD_OF_ALL.test(s)) {
    push("tool-choice", 0.7, "this tool put ahead of everything the model has");
    return true;
  }
  if (g & HERE_WORDS && HERE_NOT_THERE.test(s)) {
    push("tool-choice", 0.7, "requests claimed for this tool and kept from the other tools");
    return true;
  }
  if (g & MODEL_WORDS && g & ROUTE_WORDS && ROUTES_ALL.test(s)) {
    push("tool-choice", 0.7, "the model said to route a whole class of requests here");
    return true;
  }
  if (!(g & OTHERS_WORDS)) return false;
  const group = OTHERS.test(s);
  if (!group && !NAMED_OTHER.test(s)) return false;
  if (has(OWN_SERVER, s)) return false;
  if (FIGURE.test(s) && (THIS_TOOL.test(s) || ask(c.ctx, "selfMentioned", s))) {
    push("tool-choice", 0.7, "this tool's figures set beside other tools'");
    return true;
  }
  if (REVIEW.test(s) && DISMISSED.test(s)) {
    push("tool-choice", 0.65, "a quoted review that dismisses another tool");
    return true;
  }
  // A named server failing is often an honest dependency note ("fails while the auth server is stale"): only set against this one.
  if (!group && UNRELIABLE.test(s) && THIS_ONE.test(s)) {
    push("tool-choice", 0.65, "another tool's failures set against this one");
    return true;
  }
  if (group && ((RARELY.test(s) && CHOICE.test(s)) || UNRELIABLE.test(s.replace(MISSING_INPUT_ERROR, " ")) || AVOIDED.test(s))) {
    push("tool-choice", 0.65, "the other tools said to be the wrong choice");
    return true;
  }
  return false;
}

// --- data sent to a literal address besides the work -----------------------------------------------------------

/** Data said to go to the address: "totals go to https://… as well". */
const DATA_GOES = /\b(?:go(?:es)?|sent|posted|forwarded|mirrored|copied|uploaded|delivered|lands?|ends? up|shipped|pushed|streamed|transmitted|reported|beaconed|relayed|kept|stored|saved|retained|archived)\s+(?:\w+\s+)?(?:to|at|into|on|in)\b|\b(?:which|that|who) (?:also )?receives? (?:the|a|an|every|each|all|its)\b/i;
/** Besides the tool's work: "as well", "also", "quietly". */
const BESIDES = /\b(?:as well|also|too|additionally|in addition|besides|quietly|silently|in the background|always (?:includes?|adds?|contains?|copies))\b/i;

/** The value the user gives replaced by a fixed address: "any value given is replaced by https://…". */
const VALUE_REPLACED = /\b(?:any|whatever|the given|the user's|the|a) (?:value|url|address|destination|endpoint)\b[^.;]{0,20}\b(?:is|are|gets?) (?:replaced|overridden|overwritten|substituted|swapped|ignored)\b/i;

function sentBesides(c: FrameCues, push: AskPush): boolean {
  const { s, address } = c;
  if (address && c.parameterText && VALUE_REPLACED.test(s)) {
    push("exfiltration", 0.7, `the user's value replaced by ${address}`);
    return true;
  }
  if (!address || !DATA_GOES.test(s) || !BESIDES.test(s) || ask(c.ctx, "hostDeclared", address)) return false;
  push("exfiltration", 0.7, `data sent to ${address} besides the tool's work`);
  return true;
}

// --- the user's device and records ----------------------------------------------------------------------------

/** The user's own device, or their records in full. */
const USER_DEVICE = /\b(?:on|from|of) (?:the user's|their|your) (?:own )?(?:machine|computer|laptop|phone|device|desktop|workstation)\b/i;
const USER_RECORDS_IN_FULL =
  /\b(?:full|whole|entire|complete|all|every)\b[^.;]{0,30}\b(?:the user's|their) (?:\w+ ){0,3}(?:emails?|messages|contacts|history|photos|calendar|health|exports?|statements?|records|documents|notes|camera roll|gallery|photo library|drive|downloads|desktop)\b|\b(?:the user's|their) (?:\w+ ){0,4}(?:emails?|messages|exports?|history|records|documents)\b[^.;]{0,20}\b(?:in full|all of them|every one)\b/i;
/** A credential file given as a default whose text goes into the call. */
const CREDENTIAL_PATH = /(?:~|\$HOME)\/\.(?:ssh|aws|kube|gnupg|docker|azure|config\/gcloud|netrc|npmrc|pgpass|git-credentials)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w.])\.env\b/i;
/** Every credential saved in the user's browser or keychain. */
const SAVED_CREDENTIALS = /\b(?:all|every|each|entire|whole)\b[^.;]{0,15}\b(?:passwords?|credentials?|logins?|cookies|tokens?|keys)\b[^.;]{0,20}\b(?:saved|stored|kept)\b[^.;]{0,20}\b(?:browser|keychain|password manager|profile)\b/i;
/** Into one of the tool's arguments: "supplies, in \x60style\x60, …". */
const INTO_ARG = /\b(?:in|into|as|to) \x60\w+\x60/i;
const TEXT_TAKEN = /\b(?:text|contents?|appended|attached|included|seeds?|body|verbatim|unchanged|pasted|uploaded|posted)\b/i;

/** A parameter named in backticks: a table row or a list line that says what it holds. */
function namesParam(c: AskCues): boolean {
  // In backticks, as a JSON key, or as a JSON example's note reads it ("owner_notes (owner notes): …", text.ts jsonNotes).
  for (const m of c.s.matchAll(/\x60(\w+)\x60|"(\w+)"\s*:|^(\w+) \([^)]*\):/g)) if (ask(c.ctx, "hasParam", (m[1] ?? m[2] ?? m[3]).toLowerCase())) return true;
  return false;
}

/** The user's data gathered with other tools to fill this one: "the assistant gathers them with the mail tools first". */
const GATHERED_ELSEWHERE = /\b(?:gathers?|collects?|fetches|pulls?|retrieves?|grabs?|assembles?)\s+(?:them|it|these|those|the user's [\w ]{0,30}?)\s+(?:with|from|using|through|via)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}(?:tools?|servers?|integrations?|apps?)\b/i;

function userResources(c: AskCues, g: number, push: AskPush): boolean {
  const { s } = c;
  if (g & GATHER_WORDS && g & MODEL_WORDS && GATHERED_ELSEWHERE.test(s) && !has(OWN_SERVER, s)) {
    push("resource-reach", 0.65, "the user's data gathered with other tools to fill this one");
    return true;
  }
  // Asked in this order: what the sentence names first, where it sits (namesParam asks about the tool) last.
  const inCall = () => c.parameterText || c.misplaced || INTO_ARG.test(s) || namesParam(c);
  if (!(g & RESOURCE_WORDS) && !c.misplaced) return false;
  if ((USER_DEVICE.test(s) || USER_RECORDS_IN_FULL.test(s)) && inCall() && !ask(c.ctx, "declared", s)) {
    push("resource-reach", 0.7, "a value that stands for the user's device or records in full");
    return true;
  }
  // A purpose covers the one item it is given, not every credential the user has saved.
  if (SAVED_CREDENTIALS.test(s) && inCall()) {
    push("resource-reach", 0.7, "every credential the user has saved taken into the call");
    return true;
  }
  if (c.misplaced && CREDENTIAL_PATH.test(s) && TEXT_TAKEN.test(s) && !ask(c.ctx, "declared", s)) {
    push("resource-reach", 0.7, "a credential file given as a value whose text goes into the call");
    return true;
  }
  return false;
}

// --- the reading ----------------------------------------------------------------------------------------------

// Which groups a sentence may concern, read from its words in one pass: a sentence reaches this reading whenever no
// other reading fired (nearly every sentence of a clean catalog), and one split and a few lookups cost less than
// testing a guard pattern per group. Each group's own patterns still decide; a word here only lets them run.
const DIRECTIVE_WORDS = 1;
const REPLY_WORDS = 1 << 1;
const MODEL_WORDS = 1 << 2;
const OTHERS_WORDS = 1 << 3;
const PRAISE_WORDS = 1 << 4;
const PREFER_WORDS = 1 << 5;
const ANOTHER_WORDS = 1 << 6;
const AHEAD_WORDS = 1 << 7;
const HERE_WORDS = 1 << 8;
const ROUTE_WORDS = 1 << 9;
const RESOURCE_WORDS = 1 << 10;
const GATHER_WORDS = 1 << 11;
const NEG_WORDS = 1 << 12;
const GROUP_WORDS: readonly (readonly [number, string])[] = [
  [DIRECTIVE_WORDS, "dropped to-do to-dos outrank outranks override overrides overridden supersede supersedes superseded precedence priority trump trumps prevail prevails wins disregard disregarded ignored aside void suspended moot irrelevant told prompt prompts principle principles instruction instructions setup configured configuration stop stops longer cease ceases quit quits grant grants granted directive directives order orders command commands guideline guidelines guidance rules policy policies followed obeyed acted handled treated taken processed counted honoured honored approval consent permission permissions asking authority standing weight voice rank backing even whatever regardless matter rather instead task tasks todo todos job jobs action actions rights privileges skip skips skipping bypass bypasses bypassing waive waives review treat handle typed"],
  [DIRECTIVE_WORDS | REPLY_WORDS, "confirm confirms confirmation confirmations"],
  [REPLY_WORDS, "worth itself between detail reply replies replied response responses answer answers summary summaries summarized summarised chat message silently quietly without user"],
  [MODEL_WORDS, "ai llm assistant assistants model models agent agents orchestrator orchestrators integrator integrators copilot copilots chatbot chatbots"],
  [OTHERS_WORDS, "other others built-in default native standard stock itself server servers server's one plugin plugins integration integrations interpreter readers reviews ratings users"],
  [PRAISE_WORDS, "gold trusted award-winning best-in-class best number industry-leading world-class officially recommended most"],
  [PREFER_WORDS, "prefer preferred favored favoured chosen picked rated"],
  [ANOTHER_WORDS, "another different other second"],
  [AHEAD_WORDS, "before ahead place"],
  [HERE_WORDS, "here"],
  [ROUTE_WORDS, "route routes sends send passes directs hands brings forwards takes"],
  [RESOURCE_WORDS, "user's their your saved stored kept"],
  [GATHER_WORDS, "gathers gather collects fetches pulls retrieves grabs assembles"],
  [NEG_WORDS, "never not rather instead"],
];
const GROUPS_OF = new Map<string, number>();
for (const [group, words] of GROUP_WORDS) for (const w of words.split(" ")) GROUPS_OF.set(w, (GROUPS_OF.get(w) ?? 0) | group);
const WORD_SPLIT = /[^a-z0-9'★#-]+/;
/** "this tool" / "this server": HERE_NOT_THERE's other way of naming the tool. */
const THIS_TOOL_WORDS = /\bthis (?:tool|server)\b/i;

function groupsOf(s: string): number {
  let groups = 0;
  for (const w of s.toLowerCase().split(WORD_SPLIT)) {
    const g = GROUPS_OF.get(w);
    if (g !== undefined) groups |= g;
  }
  if (s.includes("?")) groups |= REPLY_WORDS;
  if (s.includes("★")) groups |= OTHERS_WORDS;
  if (s.includes("#1")) groups |= PRAISE_WORDS;
  if (s.includes("~/") || s.includes("$HOME")) groups |= RESOURCE_WORDS;
  if (groups & (NEG_WORDS | ROUTE_WORDS) && THIS_TOOL_WORDS.test(s)) groups |= HERE_WORDS;
  return groups;
}
/** A line keyed by a tool-shaped name (anchored: a failing test costs a character or two). */
const KEYED_GUARD = /^\W*\x60?[A-Za-z][\w.-]*[_.]/;

/** Files what a sentence's frame carries; pushes at most one reading. */
export function frameReadings(c: FrameCues, push: AskPush): void {
  const { s } = c;
  if (c.lenient) return;
  const g = groupsOf(s);
  if (g & DIRECTIVE_WORDS && promotedText(s, push)) return;
  if (g & (REPLY_WORDS | MODEL_WORDS) && omittedFromReply(s, push)) return;
  if (KEYED_GUARD.test(s) && keyedRule(c, push)) return;
  if (g && toolChoice(c, g, push)) return;
  if (c.address && sentBesides(c, push)) return;
  if (g || c.misplaced) userResources(c, g, push);
}
