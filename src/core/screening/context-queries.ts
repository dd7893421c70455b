/**
 * What a sentence reader may ask about the tool a sentence belongs to, beyond the sentence itself: whether its
 * declared purpose covers a resource, whether a word is one of its parameters, whether it names itself, whether a
 * token is another server's tool. The readers (intent.ts, structure.ts) ask through `ask` rather than reading the
 * context's purpose, parameters and names directly, so a reading depends on the context only through answers.
 *
 * That is what lets a catalog's repeated sentences be read once (meaning.ts): a reading is remembered with the
 * questions it asked and their answers, and reused for another tool whose context gives the same answers. The
 * readers are pure functions of the sentence and those answers, so the reused reading is the one they would make.
 */
import type { SentenceContext } from "./intent.js";
import { once } from "./memo.js";
import { ownVersion, specializes } from "./steering.js";

/** The questions, each about one argument (a sentence, a word, a token, an address). */
export type ContextQuestion = "declared" | "purposeIncludes" | "hostDeclared" | "hasParam" | "mentionsParam" | "mentionsOption" | "selfMentioned" | "namesSelf" | "selfForAll" | "foreign" | "knownForeign" | "storeDeclared" | "ownVersion" | "specializes" | "vendorSiblings";

/** One question asked while reading a sentence, with the answer it got. */
export type AskedQuestion = readonly [question: ContextQuestion, arg: string, answer: boolean];

/** A context that keeps the questions asked of it (meaning.ts builds one per sentence it reads for the first time). */
export interface RecordingContext extends SentenceContext {
  [RECORDER]: { base: SentenceContext; asked: AskedQuestion[]; raw: boolean };
}

export const RECORDER = Symbol("screening.recorder");

/** The family words of a purpose that make a resource part of the tool's job (a password manager may speak of passwords). */
const DECLARED_FAMILIES = [
  /password|passphrase|login|credential|vault|secret|keychain/,
  /token|api.?key|access.?key/,
  /cookie|session|browser/,
  /env|environment|process|shell|command/,
  /ssh|\bhost|remote/,
  // Word starts: "profile" is no file, "localhost" no host.
  /\bfile|dotfile|\bpath|\bdirector|\bfolder/,
  /email|mail|inbox|message|sms/,
  /contact|address|phone/,
  /kubeconfig|kubectl|kube.?context/,
];

/** A purpose whose object is the conversation itself: "Transfers the conversation to another specialised agent". */
const CONVERSATION_PURPOSE = /\b(?:transfers?|hands? (?:off|over)|escalates?|summari[sz]es?|continues?|resumes?) (?:the |this |a |an )?(?:current |ongoing |whole |full |live )?(?:conversation|chat|transcript)\b/;
const CONVERSATION_WORD = /\b(?:conversation|transcript|chat)\b/i;

/** Whether the purpose and the sentence share a resource family: the resource is part of the tool's declared job. */
export function declared(purpose: string, sentence: string): boolean {
  // A handoff's summary of the conversation is its job; a secret beside it is not.
  if (CONVERSATION_PURPOSE.test(purpose) && CONVERSATION_WORD.test(sentence) && (sentenceFamilies(sentence) & SECRET_FAMILIES) === 0) return true;
  const shared = purposeFamilies(purpose) & sentenceFamilies(sentence);
  // Files in common ("extracts text from PDF files" and "any config files you can read") do not make a password or a
  // token part of the tool's job.
  if (shared === FILE_FAMILY && (sentenceFamilies(sentence) & SECRET_FAMILIES) !== 0) return false;
  return shared !== 0;
}
const FILE_FAMILY = 1 << 5;
const SECRET_FAMILIES = (1 << 0) | (1 << 1);

/** The resource families a text names, one bit each. */
function familiesOf(text: string): number {
  let bits = 0;
  DECLARED_FAMILIES.forEach((f, i) => {
    if (f.test(text)) bits |= 1 << i;
  });
  return bits;
}

// One tool's sentences are read in a row: its purpose's families are kept at hand.
let lastPurpose: string | undefined;
let lastPurposeBits = 0;
function purposeFamilies(purpose: string): number {
  if (purpose !== lastPurpose) {
    lastPurpose = purpose;
    lastPurposeBits = familiesOf(purpose);
  }
  return lastPurposeBits;
}

function sentenceFamilies(sentence: string): number {
  return once("families", sentence, () => familiesOf(sentence.toLowerCase()));
}

/** Words of a host that say nothing about who runs it. */
/** Where the user keeps all their secrets at once, as opposed to one key or one config file. */
export const SECRET_COLLECTION = /\b(?:keychain|saved[- ](?:browser )?(?:logins|passwords)|login data|password (?:store|manager|vault)|cookie (?:jar|store)|logins\.json|key4\.db)\b/i;

const GENERIC_HOST_WORD = /^(?:www|api|com|net|org|info|mail|hooks?|cloud|online|site|apps?)$/;

/** Whether a destination's host names what the tool declares (a Slack tool posting to hooks.slack.com). */
function hostDeclared(address: string, purpose: string): boolean {
  const host = address.replace(/^[a-z]+:\/\//i, "").replace(/^[^@]*@/, "").split(/[/:?#]/)[0].toLowerCase();
  return host
    .split(/[.-]/)
    .filter((w) => w.length >= 4 && !GENERIC_HOST_WORD.test(w))
    .some((w) => purpose.includes(w));
}

const WORD = /[a-z_][a-z0-9_]*/g;
const ANY_EVERY = /^(?:any|every|all|each)\b/;
const CHOOSING = /\b(?:us\w*|call\w*|pick\w*|rout\w*|send\w*|choos\w*|select\w*)\s*$/;

/** The other tools of a named vendor: "any other Shopify tools", "all other SHOPIFY TOOLS". */
const OTHER_VENDOR_TOOLS = /\b(?:any |all |the |every |each )?other ([a-z][\w-]*) tools?\b/i;

/** Another server of the same vendor, by its package: "use the @heroui/native-mcp server instead". */
const VENDOR_PACKAGE_SERVER = /@([a-z][\w-]*)\/[\w.-]+\x60?\s+(?:mcp\s+)?server\b/i;

/** The answer a context gives, computed from its purpose, parameters and names. */
export function answerOf(ctx: SentenceContext, question: ContextQuestion, arg: string): boolean {
  switch (question) {
    case "declared":
      return declared(ctx.purpose, arg);
    case "purposeIncludes":
      return ctx.purpose.includes(arg);
    case "hostDeclared":
      return hostDeclared(arg, ctx.purpose);
    case "hasParam":
      return ctx.params.has(arg);
    case "mentionsParam": {
      // The sentence names one of the tool's own parameters as a word.
      const words = new Set(arg.toLowerCase().match(WORD) ?? []);
      for (const p of ctx.params) if (p.length > 2 && words.has(p)) return true;
      return false;
    }
    case "mentionsOption": {
      // The sentence names one of the tool's own option values ("Ownable is a simple mechanism …" for access: ownable).
      if (!ctx.options || ctx.options.size === 0) return false;
      const words = arg.toLowerCase().match(WORD) ?? [];
      for (const w of words) if (ctx.options.has(w)) return true;
      return false;
    }
    case "selfMentioned": {
      const lower = arg.toLowerCase();
      for (const n of ctx.selfNames) if (lower.includes(n)) return true;
      return false;
    }
    case "namesSelf": {
      // The sentence names this tool itself (its name, with or without a `server__` prefix).
      const lower = arg.toLowerCase();
      for (const n of ctx.selfNames) if (n.includes("_") && lower.includes(n)) return true;
      return false;
    }
    case "selfForAll": {
      // This tool named for every request: "used image_gen for any picture request", "call it for every lookup".
      const lower = arg.toLowerCase();
      return [...ctx.selfNames, "this tool", "it"].some((n) => {
        const at = lower.indexOf(`${n} for `);
        return at >= 0 && ANY_EVERY.test(lower.slice(at + n.length + 5)) && CHOOSING.test(lower.slice(Math.max(0, at - 20), at));
      });
    }
    case "vendorSiblings": {
      // "before any other Shopify tools" on the shopify-dev server: the server's own name names its own tools. A word
      // of the tool's name alone ("other SQL tools" said by sql_helper) is a kind of tool, which other servers have too.
      const word = (OTHER_VENDOR_TOOLS.exec(arg) ?? VENDOR_PACKAGE_SERVER.exec(arg))?.[1]?.toLowerCase();
      return word !== undefined && word.length > 2 && ctx.server !== undefined && ctx.server.split(/[^a-z0-9]+/).includes(word);
    }
    case "foreign":
      return ctx.foreignTool(arg);
    case "knownForeign":
      return ctx.knownForeignTool?.(arg) ?? false;
    case "storeDeclared":
      // The tool says it works on the store itself (a keychain reader, a password-manager export).
      return SECRET_COLLECTION.test(ctx.purpose);
    case "ownVersion":
      return ownVersion(arg, ctx.selfNames);
    case "specializes":
      // This tool is a special case of the named one ("read_multiple_files" of "read_file").
      return specializes(ctx.selfNames, arg);
  }
}

/** Asks a question of a reader's context; a recording context keeps the question and its answer. */
export function ask(ctx: SentenceContext, question: ContextQuestion, arg: string): boolean {
  const recorder = (ctx as Partial<RecordingContext>)[RECORDER];
  if (!recorder) return answerOf(ctx, question, arg);
  const answer = answerOf(recorder.base, question, arg);
  recorder.asked.push([question, arg, answer]);
  return answer;
}

/**
 * A context that records every question asked of it. Reading its purpose, parameters or names directly (which the
 * readers do not do) marks the recording as raw: such a reading depends on more than its answers and is not reused.
 */
export function recordingContext(base: SentenceContext): RecordingContext {
  const recorder = { base, asked: [] as AskedQuestion[], raw: false };
  const ctx: RecordingContext = {
    field: base.field,
    lead: base.lead,
    get purpose() {
      recorder.raw = true;
      return base.purpose;
    },
    get params() {
      recorder.raw = true;
      return base.params;
    },
    get options() {
      recorder.raw = true;
      return base.options;
    },
    get selfNames() {
      recorder.raw = true;
      return base.selfNames;
    },
    get server() {
      recorder.raw = true;
      return base.server;
    },
    foreignTool: (token: string) => ask(ctx, "foreign", token),
    knownForeignTool: base.knownForeignTool ? (token: string) => ask(ctx, "knownForeign", token) : undefined,
    [RECORDER]: recorder,
  };
  return ctx;
}

/** Whether a context gives every recorded answer again: then a reading made with those answers is its reading too. */
export function answersAgain(ctx: SentenceContext, asked: readonly AskedQuestion[]): boolean {
  for (const [question, arg, answer] of asked) if (answerOf(ctx, question, arg) !== answer) return false;
  return true;
}
