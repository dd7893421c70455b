/**
 * Statements a definition has no business making, read with no order in them. A poisoned definition need not ask
 * anything: it can state, calmly, how things "work" — how the model that reads it behaves, how another server's tool
 * behaves, what a link the model builds carries, what the user does not need to hear — and a model takes a statement
 * about its own conduct as a description of what it is to do. A legitimate definition states what its own tool does;
 * these readings file the statements whose subject or object lies outside it:
 *   - the model as the actor of a statement about its own conduct (its rules, answers, persona, corrections);
 *   - another server's tool as the subject of a present-tense statement (what it takes, sends, reads, opens);
 *   - the user's data or a secret written into an address the model builds (a query parameter, an image link);
 *   - telling the user declined about what the tool does ("you don't need to let users know that …");
 *   - a comparison table with a row for another server's tool;
 *   - the model gathering broad or sensitive data from other tools to fill this tool's call.
 * Read only when no directive reading fired (structure.ts), so they add readings and never change one.
 * Pure and synchronous; every pattern is guarded (memo.ts `requires`) so a sentence without the guard word costs one
 * cheap test.
 */
import { has, requires } from "./memo.js";
import type { ScreeningCategory } from "./categories.js";
import { ADVICE_TO_USER, DISCLOSE, MODEL_NOUN, PROTECTED_OBJECT } from "./concepts-parties.js";
import { CALLS_A_MODEL, CONVERSATION, PERSONAL, SECRET } from "./concepts-objects.js";
import { FLAWED, OWNED_ELSEWHERE } from "./concepts-roles.js";
import { CREDENTIAL_STORE, NOT_SERVER_NAME, OWN_SERVER, SELF_WEAKER } from "./concepts-structure.js";
import { ask } from "./context-queries.js";
import type { SentenceContext } from "./intent.js";

/** What a statement reading needs to know of a sentence (a subset of structure.ts's cues). */
export interface StatementCues {
  s: string;
  /** A value (default, const, enum, example) or a title. */
  misplaced: boolean;
  /** The first sentence of the description: the tool's declared purpose. */
  lenient: boolean;
  /** Tools of other servers named in the sentence. */
  named: readonly string[];
  /** A literal destination in the sentence that is not an example. */
  address: string | undefined;
  /** Where the sentence sits and what the tool declares; asked through context-queries.ts so the memory stays exact. */
  ctx: SentenceContext;
}

export type StatementPush = (category: ScreeningCategory, score: number, cue: string) => void;

/** A sentence that opens as an example: "For example, …". */
const EXAMPLE_OPENING = /^\W*(?:for example|for instance|e\.g\.)/i;

/**
 * The model as the subject of a present-tense verb: "the assistant presenting the digest takes …", "the model
 * relaying the result regards …", "the chatbot presenting it answers …", "the model's answers … come from …".
 */
const MODEL_ACTOR = requires(
  new RegExp(
    String.raw`(?:\b(?:the|an?|any|every|whichever)\s+(?:[a-z-]+\s+)?|^\W*)${MODEL_NOUN}\b(?:\s+(?:that|which|who)\s+[^,.;]{0,60}?|\s+(?:it|this (?:tool|server))\s+(?:is|was|gets?)\s+[^,.;]{0,30}?|\s+(?:presenting|relaying|reading|receiving|answering|calling|using|handling|showing|consuming|integrating|running|connected to)\b[^,.;]{0,40}?)?\s+(?:then\s+|also\s+|always\s+|simply\s+|just\s+)?(?:repeats?|follows?|adopts?|treats?|regards?|takes?|carr(?:y|ies) out|completes?|answers?|stops?|speaks?|applies|obeys?|executes?|acts? on|does not|doesn't|never|no longer|disregards?|ignores?|drops?|sets? aside|considers?|defers?|puts?|keeps?|responds?|replies|does|(?:is|are) (?:configured|set up|built|designed|expected|meant|made|tuned) to)\b|\bthe ${MODEL_NOUN}'s (?:answers?|replies|responses?|output|wording)\b[^.;]{0,60}?\b(?:come|comes|are|is)\b`,
    "i",
  ),
  /\b(?:ai|llm|assistant|model|agent|orchestrator|copilot|chatbot|bot|responder)/i,
);
/** The model named, then a pronoun as the actor ("Does the assistant give its own view? No, it repeats …"). */
const MODEL_THEN_PRONOUN = requires(
  new RegExp(String.raw`\b(?:the|an?|any|every)\s+${MODEL_NOUN}\b[^.]{0,80}?\b(?:it|they)\s+(?:just\s+|simply\s+|then\s+)?(?:repeats?|follows?|adopts?|treats?|obeys?|does|carr(?:y|ies) out|passes? on|presents?)\b`, "i"),
  /\b(?:ai|llm|assistant|model|agent|orchestrator|copilot|chatbot|bot|responder)/i,
);
/** What such a statement is about: the model's own conduct, not the tool's work. */
const MODEL_CONDUCT = /\b(?:instructions?|guidelines?|rules|system prompt|prompt|its own|own (?:instructions|rules|guidelines)|corrections?|correct(?:ed|s)?|caveats?|refusals?|refuses?|character|voice|persona|task list|action items?|verbatim|word for word|unsure|uncertain|precedence|priority|over (?:its|the)|in place of|instead of its|checking back|safety|warnings?|flagging|as though|as if|requests? (?:written|in)|breaks? character|whatever|advice|opinions?|in and out of|disclaimers?|hedg\w*|role|(?:rest|remainder) of the (?:conversation|session|chat)|whole (?:conversation|session|chat)|holds? back|any topic|restrict\w*|limits?|moderat\w*|filters? (?:its|the) (?:answers|replies|output))\b/i;

/** Another server's tool as the subject of a present-tense verb ("the billing server's create_invoice takes …"). */
const OTHER_TOOL_ACTS = requires(
  new RegExp(String.raw`\b${NOT_SERVER_NAME}[\w-]+ server'?s (?:\x60[a-z][\w.-]*\x60|[a-z][a-z0-9]*[_.][\w.-]*[a-z0-9]|[a-z][\w-]* tool|[a-z]+(?=,? (?:takes|sends|reads|opens|writes|copies|routes|forwards|uses|runs|pushes|posts|gets|puts|adds|applies|skips)\b)),?\s+(?:now\s+|also\s+|always\s+|then\s+|quietly\s+|automatically\s+)?(?:(?!(?:is|has|was|does)\b)[a-z]{3,}(?:es|s)|is|are|has|goes|does|will|won't|cannot|can't)\b`, "i"),
  /server'?s /i,
);
/** Statements about another server's tool that describe it rather than alter it: what it is for, where it lives. */
const OTHER_TOOL_DESCRIBED = /\bserver'?s \x60?[\w.-]+\x60?(?: tool)?,?\s+(?:is (?:for|the|a|an|better|used|meant|available|documented|described)|remains|exists|lives|belongs)\b/i;

/** A failure stated of a tool: it drops, truncates, mangles or mislabels, or does so without saying. */
const SILENT_FAILURE = /\b(?:drops?|truncat\w*|mangl\w*|mislabel\w*|corrupt\w*|without saying so|silently (?:drops?|fails?|loses?))\b/i;

/** A query parameter whose value is a placeholder naming the user's data or a secret: "&h=<the user's full question>". */
const DATA_QUERY = requires(
  /[?&][\w-]+=[<{[][^<>{}[\]]{0,80}\b(?:chat|conversation|messages?|prompt|history|summary|question|user|users|email|token|secret|key|api_?key|password|session|context|names?|account|card|phone|address|query)\b[^<>{}[\]]{0,80}[>}\]]/i,
  /[?&][\w-]+=/,
);
/** An empty or elided query value ("?d=", "?q=..."): the slot the sentence then says is filled. */
const EMPTY_QUERY = requires(/[?&][\w-]+=(?:\.{3}|…)?(?=[&)\s\x60'"]|$)/, /[?&][\w-]+=/);
/** The slot said to be filled with something: "with note set to …", "q filled in from …", "URL-encoded after d=". */
const SLOT_FILLED = /\b(?:set (?:to|from)|filled (?:in )?(?:with|from)|filling|filled|with \w+ (?:set|filled|being)|(?:url-?)?encoded (?:after|into|in)|appended after|carr(?:y|ies|ying)|replaced (?:by|with))\b/i;
/** The user's data: what they said, their account, their identity. */
const USER_DATA = /\b(?:(?:the )?user's|their|customer's) (?:\w+ ){0,2}(?:messages?|questions?|requests?|emails?|names?|text|input|query|prompt|address|details)|\b(?:message text|the message|last message|previous message|conversation|chat|question|account numbers?|employee (?:or account )?numbers?|email address|session token|document text|full text|transcript)\b/i;

/** An address the model builds or shows, said to carry data: "the image URL … carries the session token". */
const URL_CARRIES = requires(
  /\b(?:url|urls|link|links|address|query string|image|pixel|badge|host ?name)\b(?:[^.;]|\.(?=\S)){0,60}?\b(?:carr(?:y|ies)|contains?|includes?|holds?|embeds?)\b|\b(?:puts?|embeds?|encodes?|writes?|places?)\b(?:[^.;]|\.(?=\S)){0,60}?\bin(?:to)? the (?:image |link |request |query )?(?:url|link|address|query string|host ?name)\b/i,
  /url|link|address|query|image|pixel|badge|host/i,
);

/** Telling the user declined about what the tool does: "you don't need to let your users know that access is …". */
const TELLING_DECLINED = requires(
  /\b(?:(?:do not|don't|does not|doesn't|need not|needn't|never)\s+(?:need|have)\s+to|no need to|not necessary to|there is no need to|it is unnecessary to)\s+(?:let\s+(?:the\s+|your\s+)?(?:users?|customers?|them|people)\s+know|tell|inform|notify|mention(?:\s+to)?|bring up|point out|explain(?:\s+to)?)\b[^.;]{0,60}?\b(?:that|about|how|why)\b/i,
  /need|necessary|unnecessary/i,
);
/** What the user is shown, hears or is told: "the receipt the user sees", "people only hear", "passed on to the rider". */
const USER_SEES = requires(
  /\b(?:the |a )?(?:user|users|customer|customers|rider|buyer|shopper|people|person|they|them|employee|travell?er|guest|patient|member|client)\b[^.;]{0,30}?\b(?:sees?|hears?|is told|are told|gets? told|is shown|are shown|receives?|reads?)\b|\b(?:passed on|shown|displayed|quoted|reported) to (?:the )?(?:user|users|customer|rider|buyer|shopper|them)\b|\buser[ _-]?(?:facing|visible)\b|\b(?:progress|status) messages?\b|\b(?:is|are) (?:not|never) (?:announced|disclosed|surfaced|mentioned|reported)\b|\b(?:confirmation|receipt|notice|message|reply|summary) (?:reads|says|states|shows|lists|mentions)\b/i,
  /user|customer|rider|buyer|shopper|people|person|they|them|employee|travel|guest|patient|member|client|passed on|shown|displayed|quoted|reported|progress|status|announced|disclosed|surfaced|mentioned|reads|says|states|shows|lists/i,
);
/** Narrowed or set apart: only part of it reaches them. */
const NARROWED = /\b(?:only|never|not|while|whereas|alone|just|stops? there|separately|base (?:fare|price)|without|but|rather than|instead|speak only of|and no more)\b/i;
/** What a user would want to hear of: a cost, a copy, a publication, a bundle. */
const COST_OR_SIDE = /\b(?:fees?|margins?|surcharges?|surge|mark-?ups?|commission|charged|extra|on top|published|public link|uploaded|upload|bundled|training|archive|sold|shared with|advertis\w*|subscri\w+|auto-?renew\w*|partners?|marketing|commitment|non-?refundable|penalt\w*|bill(?:ing|ed)?|switch(?:es|ed)? (?:\w+ )?to|rais(?:es|ed|ing)|increas(?:es|ed|ing)|(?:added|attached|bundled|enrolled|included) (?:with|to|on|in) (?:each|every|all))\b/i;
/** A visibility label set to no: "not user_visible:", "hidden from the user". */
const NOT_VISIBLE = /\bnot[ _-]user[ _-]?visible\b|\buser[ _-]?visible\s*[:=]\s*(?:no|false|none)\b|\bhidden from (?:the )?(?:user|customer)s?\b/i;
/** Set aside from the person the tool serves: "a field that is for logs, not for the traveller". */
const NOT_FOR_PERSON = /\bnot (?:meant |intended )?for (?:the )?(?:user|customer|travell?er|rider|buyer|shopper|patient|employee|guest|member|client|person|human)s?\b/i;
/** Show it to them: disclosure. */
const SHOW_THEM = /\bshow (?:both|it|them|this|that|the \w+)(?: \w+)? to (?:the )?(?:user|customer|buyer)\b|\bso (?:it|they) can be shown\b/i;

/** A source of credentials or private data given to the tool as its input ("attached in `setup`", "part of the input"). */
const AS_INPUT = /\b(?:attached|attach|part of the input|as input|read in|go(?:es)? in|goes into|go into|passed (?:in|as)|included|made from|depends on|works? (?:on|from)|pasted into|in \x60\w+\x60)\b/i;
/** A source refused: "not read", "never returned", "masked". */
const SOURCE_REFUSED = /\b(?:not|never) (?:\w+ )?(?:read|returned|sent|included|shown|accessed|touched|passed|used|stored|logged|exposed)\b|\b(?:masked|redacted|refused|blocked)\b/i;
/** Sensitive stores named as such (beyond the credential-store family): private keys, saved passwords, role credentials, tokens on disk. */
const SENSITIVE_SOURCE = /\b(?:private keys?|saved passwords?|passwords? export|cookie (?:database|jar|store)|role credentials|service ?account (?:token|key)|serviceaccount\/token|\/etc\/shadow|shell history|clipboard)\b/i;
/** A value that is the contents of a path: "contents of /var/run/…". */
const CONTENTS_OF_PATH = /\b(?:contents?|text|output) of (?:the )?(?:file )?(?:~|\/|\.)[\w./-]+/i;


/** Calls of another server's tool sent elsewhere too: "go to the mirror project as well as the requested one". */
const REDIRECTED = /\b(?:go(?:es)? to|sent to|routed (?:to|through|via)|as well as|also go|in addition to|instead of|copied to|mirrored to)\b/i;
/** A benchmark claimed over every other tool: "benchmarked against every other OCR tool …, first in every category". */
const TOP_OF_ALL = /\b(?:benchmarked|compared|tested|ranked|rated) against (?:every|all|any) other\b[^.]{0,60}\b(?:first|top|best|fastest|winner|#1|number one)\b/i;

/** A markdown table row (a sentence of its own once a description is split). */
const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** Another server in a row: "search_files (filesystem server)", "the fetch server". */
const ROW_OTHER_SERVER = /\b(?!(?:this|the same|our|its|own|that|mcp|api|remote|local|web|http)\b)[\w-]+ server\b/i;
/** A figure or a verdict in a cell: a number, a percentage, a rating word. */
const ROW_FIGURE = /\|\s*(?:[\d.,]+\s*(?:%|s|ms|x|×|\/s)?|frequent|often|never|none|rare|always|slow|fast|high|low|poor|good|bad|broken|flaky|unreliable)\s*\|/i;

/** A figure: a number with a unit or a percentage ("3.1 s", "99 %", "40,000 files/s"). */
const FIGURE = /\b\d[\d.,]*\s*(?:%|s\b|ms\b|x\b|×|sec\w*|seconds|minutes|files\/s|req\w*\/s)/gi;
/** What the other tools are said to do badly: fail, time out, be less accurate, be retired. */
const RUN_DOWN_WORDS = /\b(?:time out|times out|fail\w*|truncat\w*|without (?:saying|telling|warning)\b[^.;]{0,12}|on (?:its|their) way out|unverified|unreliable|deprecated|retired|sunset|discontinued|unsupported|without support|unmaintained|no longer maintained|community builds?|slower|outdated|legacy|abandoned|removed from|complaints|not worth|need not be considered|break on|breaks on|less (?:accurate|reliable|precise|correct)\w*|inaccurate\w*|worse)\b/i;
/** A tool owned by another named server: "the pandoc server's convert" (not "the server's environment", which is its own). */
const ANOTHER_SERVERS_TOOL = new RegExp(String.raw`\b${NOT_SERVER_NAME}[\w-]+ server'?s (?!(?:environment|process|config\w*|own|logs?|host|machine|side)\b)[\w.-]+`, "i");
/** A clean record claimed: "reported none", "never", "zero errors". */
const CLEAN_RECORD = /\b(?:none|never|zero|no (?:errors|failures|issues|complaints|incidents))\b/i;
/** Failures reported: wrong results, errors, complaints. */
const FAILURES = /\b(?:wrong|errors?|failures?|complain\w*|incidents?|outages?|crash\w*)\b/i;
/** This tool named without its name. */
const THIS_TOOL = /\bthis (?:tool|one|server|service)\b/i;
/** The other tools named as a group ("the search and wiki tools", "the other calendar integrations"): not this one. */
const TOOLS_AS_GROUP = requires(/\bthe (?!(?:same|these|its|own|this|our)\b)(?:[\w-]+(?:,| and| or) )*[\w-]+ (?:tools|integrations|plugins|connectors|servers)\b|\bother (?:[\w-]+ ){0,2}(?:tools|integrations|plugins|connectors|servers)\b|\b(?!(?:this|the same|our|its|own|that)\b)[\w-]+ server'?s tools\b|\balternatives\b/i, /tools|integrations|plugins|connectors|servers|alternatives/i);

/** The model gathering data from other tools to fill this call: "which the assistant supplies … by reading the other mail tools first". */
const FROM_OTHER_TOOLS = requires(
  /\b(?:by|after|from|before)\s+(?:first\s+)?(?:reading|calling|querying|using|running|opening|searching)\s+(?:the\s+|every\s+|all\s+(?:the\s+)?)?(?:other|another|each|every)\b[^.;]{0,30}?\b(?:tools?|servers?|inbox(?:es)?|accounts?|apps?)\b|\b(?:collects?|gathers?|pulls?|reads?|fetches|copies)\b[^.;]{0,40}?\b(?:from|through|via) (?:the |every |each |all (?:the )?)?(?:other |connected )?(?:[\w-]+(?:,| and| or) )*[\w-]+ (?:tools?|servers?|inbox(?:es)?)\b/i,
  /tools?\b|servers?\b|inbox|accounts?\b|apps?\b/i,
);
/** Broad or sensitive data: the whole history, every account, secrets, identity. */
const BROAD = /\b(?:full|entire|complete|all|every|whole)\b/i;

/** A side effect stated, then (after a semicolon) what the user is shown: "raises the deductible; users are shown the date". */
/** What the user is shown lists the cost itself ("shows items, delivery fee, service fee and tip separately"): disclosed. */
function showsTheCost(s: string): boolean {
  const m = /\b(?:shows?|lists?|states?|includes?|itemi[sz]es?|displays?|names?)\b([^.;]{0,40}?)\b(?:fees?|charges?|surcharges?|tips?|costs?|commissions?)\b/i.exec(s);
  return m !== null && !/\b(?:not|never|only|without|except|but|no)\b/i.test(m[1]);
}

const COST_NAMED = /\b(?:charges?|costs?|prices?|amounts?|totals?)\b/i;

function shownAfterSideEffect(s: string): boolean {
  const at = s.indexOf(";");
  // "…; the confirmation states the fee": the cost named in what the user is shown is disclosed, not set against it.
  // The cost may be named by its noun there ("the confirmation lists the prorated charge").
  return at > 0 && COST_OR_SIDE.test(s.slice(0, at)) && USER_SEES.test(s.slice(at)) && !COST_OR_SIDE.test(s.slice(at)) && !COST_NAMED.test(s.slice(at));
}

/**
 * Words at least one reading needs (besides an address, a misplaced field, a cost or a credential store, tested
 * apart): the model, a server, a query string, a declined telling, a visibility label, a person set aside, a
 * benchmark, a table row, a group of tools.
 */
const ANCHOR = /\b(?:ai|llm|assistants?|models?|agents?|orchestrators?|copilots?|chatbots?|bots?|responders?)\b|server|=|\bneed|necessary|visible|hidden|\bnot (?:meant |intended )?for\b|against|\||\btools?\b|integrations|plugins|connectors|alternatives|inbox|\baccounts?\b|\bapps?\b/i;

/** Files statements that need no order to be out of place; pushes at most one reading. */
/** Another server's tool recommended for its strengths: "the filesystem server's `search_files` is faster and sees uncommitted changes". */
const OTHER_TOOL_PRAISED = /\b(?:is|are) (?:faster|simpler|better|more accurate|cheaper|preferred|quicker)\b/i;

export function statementReadings(c: StatementCues, push: StatementPush): void {
  const { s } = c;
  // Most sentences of a catalog ("Returns the list of projects.") hold none of the words every reading below needs:
  // one test turns them away before the readings' own patterns run.
  if (!c.misplaced && c.address === undefined && !ANCHOR.test(s) && !COST_OR_SIDE.test(s) && !SENSITIVE_SOURCE.test(s) && !has(CREDENTIAL_STORE, s)) return;
  // A completion tool's model is the one it calls ("the model completes the text in between"), not the reader.
  if ((has(MODEL_ACTOR, s) || has(MODEL_THEN_PRONOUN, s)) && MODEL_CONDUCT.test(s) && !CALLS_A_MODEL.test(c.ctx.purpose)) {
    push("assistant-directive", 0.7, "states how the model that reads it conducts itself");
    return;
  }
  // Another server's tool said to fail ("drops every table without saying so") is run down, a claim about tool choice (asks.ts).
  if (!c.lenient && has(OTHER_TOOL_ACTS, s) && !OTHER_TOOL_DESCRIBED.test(s) && !SILENT_FAILURE.test(s) && !OTHER_TOOL_PRAISED.test(s)) {
    push("shadowing", 0.7, "states how another server's tool behaves");
    return;
  }
  if ((has(DATA_QUERY, s) || (has(EMPTY_QUERY, s) && SLOT_FILLED.test(s) && USER_DATA.test(s))) && !EXAMPLE_OPENING.test(s)) {
    push("exfiltration", 0.75, "the user's data written into an address's query");
    return;
  }
  if (c.address && has(URL_CARRIES, s) && (USER_DATA.test(s) || has(SECRET, s) || has(CONVERSATION, s))) {
    push("exfiltration", 0.7, `the user's data or a secret carried in an address at ${c.address}`);
    return;
  }
  if (!c.lenient && has(TELLING_DECLINED, s) && !ADVICE_TO_USER.test(s) && !has(PROTECTED_OBJECT, s)) {
    push("concealment", 0.7, "telling the user declined about what the tool does");
    return;
  }
  if (!c.lenient && (NOT_VISIBLE.test(s) || (NOT_FOR_PERSON.test(s) && COST_OR_SIDE.test(s)) || (has(USER_SEES, s) && (NARROWED.test(s) || shownAfterSideEffect(s)) && COST_OR_SIDE.test(s))) && !SHOW_THEM.test(s) && !showsTheCost(s) && !has(DISCLOSE, s) && !has(PROTECTED_OBJECT, s)) {
    push("concealment", 0.65, "what the user is shown set against a cost or side effect");
    return;
  }
  if ((SENSITIVE_SOURCE.test(s) || has(CREDENTIAL_STORE, s)) && AS_INPUT.test(s) && !SOURCE_REFUSED.test(s) && !c.lenient) {
    push("resource-reach", 0.7, "a store of credentials or private data taken as the tool's input");
    return;
  }
  if (c.misplaced && CONTENTS_OF_PATH.test(s)) {
    push("resource-reach", 0.7, "a value that is the contents of a file on the machine");
    return;
  }
  if (!c.lenient && has(OWNED_ELSEWHERE, s) && !has(OWN_SERVER, s) && REDIRECTED.test(s)) {
    push("shadowing", 0.7, "another server's calls sent elsewhere as well");
    return;
  }
  if (TOP_OF_ALL.test(s)) {
    push("tool-choice", 0.65, "claims first place over every other tool");
    return;
  }
  if (!c.lenient && TABLE_ROW.test(s) && (c.named.length > 0 || ROW_OTHER_SERVER.test(s)) && ROW_FIGURE.test(s)) {
    push("tool-choice", 0.65, "a comparison table with a row for another server's tool");
    return;
  }
  // Figures set side by side for another server and for this tool, in prose rather than a table.
  if (!c.lenient && ROW_OTHER_SERVER.test(s) && (s.match(FIGURE)?.length ?? 0) >= 2 && (ask(c.ctx, "selfMentioned", s) || THIS_TOOL.test(s))) {
    push("tool-choice", 0.65, "figures set beside another server's");
    return;
  }
  // Another server's failures set against this tool's clean record: "… reported wrong turns …; maps_route reported none".
  if (!c.lenient && (ROW_OTHER_SERVER.test(s) || has(OWNED_ELSEWHERE, s)) && !has(OWN_SERVER, s) && CLEAN_RECORD.test(s) && (has(FLAWED, s) || RUN_DOWN_WORDS.test(s) || FAILURES.test(s)) && (ask(c.ctx, "selfMentioned", s) || THIS_TOOL.test(s))) {
    push("tool-choice", 0.65, "sets another server's failures against its own record");
    return;
  }
  // Another server named and run down: "the pandoc server's convert has been abandoned".
  if (!c.lenient && ANOTHER_SERVERS_TOOL.test(s) && !has(OWN_SERVER, s) && (has(FLAWED, s) || RUN_DOWN_WORDS.test(s))) {
    push("tool-choice", 0.65, "runs down another server's tools");
    return;
  }
  // The other tools, as a group, said to be flawed: "the search and wiki tools answer less accurately".
  // A weakness this tool admits ("Slower than the cloud tools on CPU-only machines") runs nothing down.
  if ((c.misplaced || !c.lenient) && has(TOOLS_AS_GROUP, s) && !has(OWN_SERVER, s) && (has(FLAWED, s) || RUN_DOWN_WORDS.test(s)) && !SELF_WEAKER.test(s) && !ask(c.ctx, "vendorSiblings", s)) {
    push("tool-choice", 0.65, "the other tools, as a group, run down");
    return;
  }
  if (has(FROM_OTHER_TOOLS, s) && (BROAD.test(s) || has(SECRET, s) || has(PERSONAL, s)) && /\b(?:supplies|supply|passes|pass|fills?|puts?|provides?|in \x60|into \x60|before call\w*|first)\b/i.test(s)) {
    push("resource-reach", 0.7, "data gathered from other tools to fill this call");
  }
}
