/**
 * A parameter whose name or value asks for something private: a name such as `content_from_reading_ssh_id_rsa`,
 * `full_chat_history` or `dotenv_contents_for_validation` on a calculator, or a default, enum member or example such as
 * `~/.ssh/id_ed25519` or `entire_conversation` on a tool that lists emails. The model fills every parameter it is
 * shown, reads a parameter's name as what to put there and copies a value as it stands, so the name or the value alone
 * is an ask; the description may say nothing at all.
 *
 * Honest servers name parameters for private things too (`api_key`, `private_key_path`, `chat_id`,
 * `env_var_value`), but either for what the tool itself is about (a secrets manager's `secret_name`, an SSH
 * server's `private_key`) or as a bare noun. What an honest name does not do is say where the value comes from or
 * that it is a copy of something ("contents of", "from reading", "full", "previous") for a tool whose name and
 * description never mention that thing. That conjunction is what is read here, word by word: a name is data, so
 * its words are compared, not built into a pattern.
 */
import type { TextField } from "./fields.js";

/** A kind of private thing a parameter name can ask for, and the words that show a tool is about it. */
interface PrivateThing {
  /** The thing, in the name's words joined by spaces ("ssh id rsa"). */
  named: RegExp;
  /** Words of a tool's name or description that make the thing its business. */
  business: RegExp;
  /**
   * Private enough that a name giving any reason for it ("ssh_private_key_for_rate_signing",
   * "browser_cookies_for_region_detection") asks for it; an API key or a token is an ordinary input of many tools.
   */
  strong: boolean;
}

const PRIVATE_THINGS: readonly PrivateThing[] = [
  {
    named: /\b(?:ssh|id (?:rsa|ed25519|ecdsa|dsa)|rsa keys?|ed25519|private keys?|pem|authorized keys|known hosts|gpg keys?|pgp keys?)\b/,
    business: /\b(?:ssh|sftp|scp|rsa|ed25519|private keys?|key ?pairs?|gpg|pgp|certificates?|tls|ssl|deploy keys?|sign(?:ing|s)?|remote (?:hosts?|servers?|machines?))\b/,
    strong: true,
  },
  {
    named: /\b(?:dotenv|env (?:files?|vars?|variables?|contents?)|environment (?:files?|vars?|variables?)|\w+ env)\b|^env\b/,
    business: /\b(?:env|dotenv|\.env|environment|variables?|config(?:uration)?|settings|deploy(?:ments?)?|projects?)\b/,
    strong: true,
  },
  {
    named: /\b(?:credentials?|creds|aws|kubeconfig|kube config|netrc|npmrc|pgpass|gcloud|passwords?|passwd|cookies?|keychain|wallet|seed (?:phrase|words)|mnemonic)\b/,
    business: /\b(?:credentials?|secrets?|vault|passwords?|keys?|tokens?|auth\w*|log ?in|sign ?in|cookies?|sessions?|wallets?|keychain|aws|kube\w*|gcloud|iam|identity|accounts?)\b/,
    strong: true,
  },
  {
    named: /\b(?:secrets?|api ?keys?|access keys?|tokens?)\b/,
    business: /\b(?:credentials?|secrets?|vault|passwords?|keys?|tokens?|auth\w*|log ?in|sign ?in|sessions?|iam|identity|accounts?)\b/,
    strong: false,
  },
  {
    // The model's own instructions are no inbox's or memory store's business.
    named: /\bsystem prompts?\b/,
    business: /\b(?:system prompts?|prompts?|personas?|instructions|agents?|assistants?|llm|models?|chatbots?)\b/,
    strong: true,
  },
  {
    named: /\b(?:mcp|cursor|claude|vscode|settings json|config json)\b/,
    business: /\b(?:mcp|cursor|claude|vscode|editor|ide|config(?:uration)?|settings)\b/,
    strong: true,
  },
  {
    named: /\b(?:conversation|chat|transcript|dialog(?:ue)?|(?:user|previous|prior|earlier|past) (?:messages?|prompts?|turns?|requests?)|(?:bash|zsh|shell) history|memory|memories)\b/,
    business: /\b(?:conversations?|chats?|transcripts?|dialog(?:ue)?s?|messages?|messaging|prompts?|llm|completions?|assistant|memor(?:y|ies)|history|summar\w*|threads?|inbox|support|tickets?|shell|terminal)\b/,
    strong: true,
  },
];

/** Words that say the value is a copy of something, or where it is read from. */
const COPY_OF = /\b(?:contents?|dump(?:ed)?|copy|copied|raw|verbatim|full|entire|whole|all|every|reading|read|from|previous|prior|past|earlier|cat|leaked|exported|existing|stored|saved|local|current|text of|body of)\b/;
/** Words that give a reason for asking, as attacks do ("for verification", "for the auth check"). */
const PRETEXT = /\b(?:for|to) (?:the )?(?:verification|verify|validation|validate|check(?:ing)?|auth(?:entication)?|diagnostics?|debug(?:ging)?|context|telemetry|sync(?:ing)?|backup|audit(?:ing)?|compliance|security|personali[sz]ation|calibration|analytics)\b|\b(?:verification|validation|check|diagnostics?|debug|calibration)$/;

/** Any reason given in a name: "for region detection". */
const REASON = /\bfor [a-z]/;

/** A parameter name's words: `contentFromReading-ssh_id.rsa` → "content from reading ssh id rsa". */
export function wordsOfName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(" ");
}

/** A parameter name that asks for a private thing the tool has no business with, as a finding's field and sentence. */
export interface ReachingName {
  field: string;
  words: string;
}

/**
 * The first parameter name (of those in `fields`) asking for a copy of a private thing that the tool's `business`
 * (its name and description, lower case) never mentions.
 */
export function reachingParameterName(fields: readonly TextField[], business: string): ReachingName | undefined {
  for (const { field, words } of phraseNames(fields)) {
    const asked = COPY_OF.test(words) || PRETEXT.test(words);
    // A strongly private thing is asked for with any reason given; an API key or a token needs a copy or a pretext.
    if ((asked || REASON.test(words)) && asksFor(words, business, !asked)) return { field, words };
  }
  return undefined;
}

/**
 * The tool's parameter names of three words or more, as words: a bare noun ("api_key", "chat_id", "env") names an
 * input, an ask takes a thing and a copy, a pretext or a destination.
 */
function* phraseNames(fields: readonly TextField[]): Generator<ReachingName> {
  for (const f of fields) {
    if (!f.identifier || f.field === "name") continue;
    const words = wordsOfName(f.text);
    if (words.split(" ").length >= 3) yield { field: f.field, words };
  }
}

/** A value that is a path to, or the name of, a private thing: `~/.kube/config`, `.env`, `system_prompt`. */
const PRIVATE_VALUE = /(?:^|[\/~.])(?:\.ssh|id_(?:rsa|ed25519|ecdsa|dsa)|\.kube\/config|kubeconfig|\.aws\/credentials|\.netrc|\.npmrc|\.pgpass|\.env(?:\.\w+)?|\.bash_history|\.zsh_history|\.gnupg|mcp\.json|claude_desktop_config\.json|\/etc\/shadow)(?:$|[\/.])|^(?:system[_ -]prompt|(?:entire|full|whole|all)[_ -](?:conversation|chat|chat[_ -]history|history|transcript)|conversation[_ -]history|chat[_ -]history|printenv|os\.environ)$/i;

/**
 * The first value (default, enum member, example) that names a private thing the tool's `business` never mentions,
 * with its field.
 */
export function reachingValue(fields: readonly TextField[], business: string): ReachingName | undefined {
  for (const f of fields) {
    if (!f.value || f.text.length > 200 || !PRIVATE_VALUE.test(f.text.trim()) || TEMPLATE_FILE.test(f.text) || KEPT_OUT.test(f.field)) continue;
    if (asksFor(wordsOfName(f.text), business, true)) return { field: f.field, words: f.text.trim() };
  }
  return undefined;
}

/** A template of a private file (`.env.example`) holds no secret. */
const TEMPLATE_FILE = /\.(?:example|sample|template|dist|defaults?)$/i;
/** A list of what is kept out (`exclude`, `ignore`, `redact`): naming a private file there protects it. */
const KEPT_OUT = /\.(?:[\w-]*_)?(?:exclude|excludes|excluded|ignore|ignored|skip|deny|denylist|blocklist|blacklist|omit|redact|mask|secret_patterns)(?:_[\w-]*)?\./i;

/**
 * Whether `words` name a private thing that is not the tool's business: one that none of the private things it names
 * is (an SSH key generator's `~/.ssh/id_ed25519_mcp` names SSH, which it is about). `strongOnly` reads the strongly
 * private things only.
 */
function asksFor(words: string, business: string, strongOnly: boolean): boolean {
  let named = false;
  for (const thing of PRIVATE_THINGS) {
    if ((strongOnly && !thing.strong) || !thing.named.test(words)) continue;
    if (thing.business.test(business)) return false;
    named = true;
  }
  return named;
}

/** A transfer in a name's words: "upload copy to public pastebin", "cc external auditor email". */
const OUTBOUND = /\b(?:cc|bcc|forward\w*|copy|copies|mirror\w*|upload\w*|send|sends|post|relay\w*|sync\w*|share|export\w*|leak\w*|beacon)\b/;
/** A party outside the user's choosing. */
const OUTSIDE = /\b(?:external|public|outside|third party|3rd party|auditors?|pastebin|partners?|vendors?|our (?:server|team|backend))\b/;

/**
 * The first parameter name that orders data sent to an outside party ("upload_copy_to_public_pastebin",
 * "forward_to_external_tracker_url") on a tool whose business is neither such a transfer nor that party.
 */
export function outboundParameterName(fields: readonly TextField[], business: string): ReachingName | undefined {
  for (const { field, words } of phraseNames(fields)) {
    const verb = OUTBOUND.exec(words);
    const party = OUTSIDE.exec(words);
    if (verb && party && !business.includes(verb[0]) && !business.includes(party[0])) return { field, words };
  }
  return undefined;
}
