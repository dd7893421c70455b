/**
 * Redaction of secrets from text that leaves the library: error messages, a server's stderr in reports and logs.
 * Config values are expanded from the environment (`${env:API_KEY}`), servers echo their arguments when they fail,
 * and both end up in messages an operator pastes into a ticket. What looks like a credential is replaced by
 * `[redacted]`; the text around it stays, so the message still says what went wrong.
 *
 * Heuristic by nature (a secret with no recognizable shape or label cannot be told from any other word); it covers
 * the shapes that carry credentials in practice: URL query values and user-info, `Authorization`-style headers,
 * `key=value` / `"key": "value"` pairs whose key names a secret, and well-known token prefixes.
 */

export const REDACTED = "[redacted]";

/** Words that, as (part of) a key, mark its value as a secret. */
const SECRET_KEY = String.raw`(?:[A-Za-z0-9_.-]*(?:api[_-]?key|apikey|access[_-]?key|secret|token|passw(?:or)?d|pwd|auth|credential|session|private[_-]?key|signature|sig|key))`;

const RULES: [RegExp, string | ((...m: string[]) => string)][] = [
  // user:password@ in URLs.
  [/([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi, `$1${REDACTED}@`],
  // Every query value of a URL (query strings carry API keys far more often than anything else worth keeping).
  [/([?&][^\s=&#"']+=)[^\s&#"']+/g, `$1${REDACTED}`],
  // Authorization: Bearer …, Basic …, token …
  [/\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // "api_key": "…" (JSON), api_key=… (env, query, args), token:… (no space: prose such as "missing token: set X"
  // is left readable), X-Api-Key: … (headers), --token=…, --password …
  [new RegExp(String.raw`(["']${SECRET_KEY}["']\s*:\s*["'])[^"']+`, "gi"), `$1${REDACTED}`],
  [new RegExp(String.raw`(\b${SECRET_KEY}\s*=\s*["']?)[^\s"',;&]+`, "gi"), `$1${REDACTED}`],
  [new RegExp(String.raw`(\b${SECRET_KEY}:)[^\s"',;&/]+`, "gi"), `$1${REDACTED}`],
  [/(\b(?:x-[a-z0-9-]*(?:key|token|secret|auth)[a-z0-9-]*|api-key)\s*:\s*)\S+/gi, `$1${REDACTED}`],
  [new RegExp(String.raw`(--${SECRET_KEY}(?:=|\s+))[^\s"',;&]+`, "gi"), `$1${REDACTED}`],
  // Well-known token shapes: sk-…, ghp_…, xox?-…, AKIA…, JWTs.
  [/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b(?:ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abprs])[-_][A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED],
];

/** The text with everything that looks like a credential replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [re, by] of RULES) out = out.replace(re, by as string);
  return out;
}

/**
 * Each of `values` (e.g. the environment values a config expanded) replaced by `[redacted]` wherever it occurs,
 * then the heuristic rules. Values shorter than 6 characters are left alone: they would redact ordinary words.
 */
export function redactValues(text: string, values: Iterable<string>): string {
  let out = text;
  const long = [...new Set(values)].filter((v) => v.length >= 6).sort((a, b) => b.length - a.length);
  for (const v of long) out = out.split(v).join(REDACTED);
  return redactSecrets(out);
}
