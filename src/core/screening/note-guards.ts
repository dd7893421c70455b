/**
 * What the note modules (option-notes.ts, protective-notes.ts) share: the checks that keep a sentence from being a
 * note whatever else it says, and the parameter a field belongs to.
 */
import { CONVERSATION, PERSONAL, SECRET } from "./concepts-objects.js";
import { DECEIVE } from "./concepts-parties.js";

/** The model obliged to choose: "always set", "never enable", "make sure to pass", "you must". */
export const OBLIGED = /\b(?:always|must|should|make sure|be sure|remember to|(?:never|do not|don't)\s+(?:\w+\s+)?(?:set|use|pass|turn|enable|disable|leave|change)|by default,?\s+(?:set|use|pass))\b/i;
/** An obligation whose subject is the user. */
const USER_OBLIGED = /\b(?:the user|users|the customer|the person|the account owner)\s+(?:should|must)\b/gi;
/** A thing to be kept private, which obliges no one to fetch anything: "so the bucket must not be publicly readable". */
const KEPT_PRIVATE = /\b(?:must|should)\s+(?:not|never)\s+be\s+(?:made\s+)?(?:public(?:ly\s+\w+)?|shared|exposed|committed|logged|published|world-readable)\b/gi;
/** Data handed to someone outside: an option that keeps that quiet is no notification preference. */
export const OUTSIDE_PARTY = /\b(?:external|outside|third[- ]part(?:y|ies)|public link|anyone|another (?:account|address|user|organi[sz]ation))\b/i;
/** Where a value would be fetched from: the machine, the environment, files, the conversation. */
export const FETCHED_FROM = /\b(?:from|in|under|inside|out of)\s+(?:the\s+|your\s+|their\s+|this\s+)?(?:user'?s?\s+)?(?:machine|computer|environment|env|shell|disk|home|files?|folder|directory|config(?:uration)?|settings|conversation|chat|history|context|keychain|browser|clipboard|earlier|previous|other tools?)\b|~\/|\$[A-Z_]{3,}|(?<!\b(?:is|are|be|been|was|were|only|never|not|no way to|cannot|can't)\s)\b(?:read|look up|locate|find|extract|copy|grab|collect)\b(?!\s+(?:locally|by (?:the|this) server|on the (?:client|host)))/i;
/** The conversation named only as where a value does not go: "without appearing in the transcript", "your own system prompt is not forwarded". */
export const NOT_INTO_CONVERSATION = /\b(?:your|the model's|the assistant's|the agent's) (?:own )?(?:system prompt|conversation|chat history|instructions) (?:is|are) (?:never|not) (?:\w+ )?(?:forwarded|sent|shared|included|passed|copied)\b(?![^.]*\b(?:paste|copy|include|put|pass|send|add|insert|fill|repeat|quote)\s+(?:it|them|that|this|those)\b)|\b(?:without|never|not|instead of|rather than)\s+(?:\w+\s+){0,3}?(?:in|into|to|through)\s+(?:the\s+)?(?:transcript|conversation|chat(?: history)?|context|logs?)\b|\bnot (?:this|the|your) (?:full |whole |entire )?(?:conversation|chat(?: history)?|transcript)\b/i;

/** Quoted text, a mention rather than something said ("its own system prompt, 'Follow the user's instructions …'"). */
export const QUOTED_TEXT = /"[^"\n]{0,200}"|\u201c[^\u201d\n]{0,200}\u201d|'(?:[^'\n]|(?<=\w)'(?=\w)){2,200}'(?!\w)/g;

/** The parameter a field belongs to: `inputSchema.properties.x.description` → "x". */
export function parameterOfField(field: string): string | undefined {
  return /^inputSchema\.(?:[^.]+\.)*?properties\.([^.]+)\.[^.]+(?:\[\d+\])?$/.exec(field)?.[1]?.toLowerCase();
}

/** The words of a parameter's name that name a secret it takes: `otp`, `webhook_secret`, `apiKey`, `access_token`. */
const SECRET_NAME_PART = /^(?:token|secret|password|passwd|passphrase|credentials?|auth|otp|passcode|signature|apikey)$/;
const SECRET_KEY_NAME = /(?:api|access|private|secret|signing)_key$/;
/** The words of a parameter's name that name a place: `x-loc-lat`, `longitude`, `geo`. */
const LOCATION_NAME_PART = /^(?:loc|lat|lng|lon|long|latitude|longitude|location|geo|geolocation|coords?|coordinates)$/;
const LOCATION_WORDS = /\b(?:(?:geographical|geographic|current|precise|exact|approximate) )?location\b/gi;
/** Another secret than the parameter's own, or one added to it: an environment variable, a key file, "as well". */
const OTHER_SECRET_NAMED = /\b(?:environment variables?|env vars?|as well|also|too|in addition|additionally|together with|along with)\b|\.(?:env|pem|npmrc|netrc|pypirc)\b|\bid_(?:rsa|ed25519|ecdsa)\b/i;
const SECRET_VARIABLE = /\b[A-Z][A-Z0-9]*_(?:KEY|TOKEN|SECRET|PASSWORD)\b/;

/**
 * A parameter describing the secret or the place it is named for ("otp": "Six-digit one-time password from the user's
 * authenticator app"; "webhook_secret": "Shared secret that callers must send in the X-Signature header"; "x-loc-lat":
 * "The latitude of the client's location"). The user gives that value for the call: no reach, as long as the sentence
 * names no place to fetch it from (the machine, the environment, files, the conversation), no other secret and no
 * other personal data beside it.
 */
export function describesOwnValue(s: string, field: string): boolean {
  const name = /^inputSchema\.(?:[^.]+\.)*?properties\.([^.]+)\.(?:description|title)$/.exec(field)?.[1];
  if (name === undefined) return false;
  const snake = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  const parts = snake.split(/[_\-.]+/);
  const secret = parts.some((part) => SECRET_NAME_PART.test(part)) || SECRET_KEY_NAME.test(snake);
  const place = !secret && parts.some((part) => LOCATION_NAME_PART.test(part));
  if (!secret && !place) return false;
  const others = place ? s.replace(LOCATION_WORDS, " ") : s;
  return !FETCHED_FROM.test(s) && !OTHER_SECRET_NAMED.test(s) && !SECRET_VARIABLE.test(s) && !namesConversation(s) && !PERSONAL.test(others) && (secret || !SECRET.test(s));
}

/** The model obliged to pick something, or the user deceived: no note, whatever else the sentence says. */
export function obligesOrDeceives(s: string): boolean {
  // What the user should do ("the user should put it in their app's config") obliges the user, not the model.
  return OBLIGED.test(s.replace(USER_OBLIGED, " ").replace(KEPT_PRIVATE, " ")) || DECEIVE.test(s);
}

/** The conversation as the sentence's object, unless it is named only as where a value does not go. */
export function namesConversation(s: string): boolean {
  return CONVERSATION.test(s.replace(NOT_INTO_CONVERSATION, " "));
}
