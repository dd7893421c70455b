/**
 * Deterministic text derived from a tool: the Phase-1 summary and the text embedded for routing.
 * Pure functions, no model calls, so the same catalog always renders the same pool (prompt-cache friendly).
 */
import { countTokens, truncateToTokens, type TokenEncoding } from "../tokens/count.js";

/** Upper bound of one summary line in tokens (name included). */
export const SUMMARY_MAX_TOKENS = 60;

const PLAIN_IDENTIFIER = /^[a-z]+(?:[_-][a-z]+)*$/;

/** `getWeReadRank`, `get_weread_rank`, `list-PRs2` → words separated by spaces, case kept. */
export function splitIdentifier(name: string): string {
  // Most tool names are plain snake_case or kebab-case: the rules below then only turn separators into spaces.
  if (PLAIN_IDENTIFIER.test(name)) return name.replace(/[_-]/g, " ");
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    // "HTTPServer" → "HTTP Server", but a plural acronym stays whole: "listPRs" → "list PRs".
    .replace(/([A-Z]+)([A-Z](?:[a-z]{2,}|[a-rt-z]))/g, "$1 $2")
    .replace(/([A-Za-z])(\d)/g, "$1 $2")
    .replace(/[_\-.:/]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// Openers that add tokens but no meaning; removed from the start of the first sentence.
const BOILERPLATE = [
  /^(this|the) (tool|function|endpoint|api|method) (is used to|can be used to|allows you to|lets you|will|is for|)\s*/i,
  /^(a |an )?(tool|function|utility) (to|for|that)\s+/i,
  /^use this (tool )?(to|when you need to|if you want to)\s+/i,
  /^(allows|enables) (you|the user|users|the agent) to\s+/i,
  /^(call|invoke) this (tool )?to\s+/i,
];

/** Characters of a text that markup stripping reads; what lies beyond never reaches a summary or a routing text. */
const MARKUP_MAX_CHARS = 65_536;

/**
 * Removes markdown and HTML. Link and tag patterns have bounded lengths: unbounded, an unclosed `<`, `[` or `(`
 * repeated through a long text makes each match attempt scan to the end (quadratic: minutes for 2 MB).
 */
function stripMarkup(text: string): string {
  return text
    .slice(0, MARKUP_MAX_CHARS)
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!\[[^\]]{0,1000}\]\([^)]{0,2000}\)/g, " ")
    .replace(/\[([^\]]{0,1000})\]\([^)]{0,2000}\)/g, "$1")
    .replace(/<[^>]{1,1000}>/g, " ")
    // Markdown emphasis, headings and quotes; `_` and `#` inside words (read_file, C#) are kept.
    .replace(/\*+/g, "")
    .replace(/(^|\s)_{1,2}(?=\S)|(?<=\S)_{1,2}(?=\s|$|[.,;:!?])/g, "$1")
    .replace(/(^|\n)\s*(#{1,6}|>+)\s+/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** The first sentence of a description, boilerplate openers removed. Handles "e.g." and "v1.2" without splitting. */
export function firstSentence(description: string): string {
  const text = stripMarkup(description);
  if (!text) return "";
  const m = /^(.+?(?<!\b(?:e\.g|i\.e|etc|vs|Mr|Dr|approx))[.!?。！？](?=\s|$))/u.exec(text);
  let sentence = (m ? m[1] : text).trim();
  for (const re of BOILERPLATE) sentence = sentence.replace(re, "");
  sentence = sentence.trim();
  if (!sentence) return "";
  return sentence[0].toUpperCase() + sentence.slice(1);
}

/**
 * The compact Phase-1 description of a tool (without its name): the first sentence of its description,
 * or the split identifier when it has none. The whole pool line (`name: summary`) is kept ≤ 60 tokens.
 */
export function summarizeTool(
  name: string,
  description: string | undefined,
  encoding: TokenEncoding = "cl100k_base",
  /** What the pool line shows before the colon (the tool id, which may be server-qualified). */
  displayName: string = name,
): string {
  let body = firstSentence(description ?? "");
  if (!body) {
    const words = splitIdentifier(name).toLowerCase();
    body = words ? words[0].toUpperCase() + words.slice(1) + "." : "";
  }
  const prefixTokens = countTokens(`- ${displayName}: `, encoding);
  // A name too long to leave room for text still gets a few words; such lines are the only ones over budget.
  const budget = Math.max(4, SUMMARY_MAX_TOKENS - prefixTokens);
  return countTokens(body, encoding) > budget ? truncateToTokens(body, budget, encoding) : body;
}

/** Maximum characters of description that go into the routing text (long texts slow encoders quadratically). */
export const ROUTING_TEXT_MAX_CHARS = 400;

/** The text embedded for a tool: split name, server as context, and the start of the description. */
export function routingTextOf(name: string, server: string, description: string | undefined): string {
  const words = splitIdentifier(name);
  const desc = stripMarkup(description ?? "");
  const head = server ? `${words} (${splitIdentifier(server)})` : words;
  let text = desc ? `${head}: ${desc}` : head;
  if (text.length > ROUTING_TEXT_MAX_CHARS) {
    const cut = text.slice(0, ROUTING_TEXT_MAX_CHARS);
    const space = cut.lastIndexOf(" ");
    text = space > ROUTING_TEXT_MAX_CHARS * 0.7 ? cut.slice(0, space) : cut;
  }
  return text;
}

/** What the router embeds and indexes per tool (see {@link toolTextOf} and {@link toolFieldsOf}). */
export interface ToolTextOptions {
  /**
   * Put the server name in the text as context. "auto" (default): only when the catalog has several servers —
   * a name every tool shares tells tools apart no better than nothing, and it dilutes short descriptions.
   */
  server?: boolean | "auto";
  /** Put the server's description (first sentence) in the text too. Default false. */
  serverDescription?: boolean;
  /** Put the input schema's parameter names in the text. Default false (they help the lexical channel more). */
  params?: boolean;
  /** Put the tool's tags in the embedded text. Default false (tags always feed the lexical channel). */
  tags?: boolean;
  /** Maximum characters of the whole text (cut at a word boundary). Default 400. */
  maxChars?: number;
  /**
   * Embed the components (name, description, parameters) separately and combine their vectors with these
   * weights, instead of embedding one joined text. Costs one embedding per component.
   */
  fieldWeights?: { name?: number; description?: number; params?: number };
  /** Lexical (BM25) field weights: a word in a heavier field counts more. Default name 2, description 1, params 0.5, tags 1, server 0.5. */
  lexicalWeights?: { name?: number; description?: number; params?: number; tags?: number; server?: number };
}

/** What a tool text is built from (a subset of ToolRecord, so plain objects work too). */
export interface ToolTextSource {
  name: string;
  server: string;
  description: string;
  inputSchema?: { [key: string]: unknown };
  tags?: readonly string[];
}

/** Context a tool text may use from its catalog. */
export interface ToolTextContext {
  /** Whether the catalog has more than one server. */
  multiServer?: boolean;
  /** The server's description, when the catalog has one. */
  serverDescription?: string;
}

/** Top-level (and one level of anyOf/oneOf/allOf) property names of an input schema, split into words. */
export function parameterNamesOf(schema: { [key: string]: unknown } | undefined): string[] {
  const names = new Set<string>();
  for (const k of parameterKeysOf(schema)) names.add(splitIdentifier(k));
  return [...names].filter(Boolean);
}

/**
 * The property names `parameterNamesOf` reads, as declared (top level and one level of anyOf / oneOf / allOf), first
 * occurrence first.
 */
export function parameterKeysOf(schema: { [key: string]: unknown } | undefined): string[] {
  if (!schema || typeof schema !== "object") return [];
  const keys = new Set<string>();
  const visit = (s: unknown, depth: number) => {
    if (!s || typeof s !== "object" || depth > 1) return;
    const o = s as { properties?: unknown; anyOf?: unknown; oneOf?: unknown; allOf?: unknown };
    if (o.properties && typeof o.properties === "object") for (const k of Object.keys(o.properties)) keys.add(k);
    for (const alt of [o.anyOf, o.oneOf, o.allOf]) if (Array.isArray(alt)) for (const a of alt) visit(a, depth + 1);
  };
  visit(schema, 0);
  return [...keys];
}

function cutAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(" ");
  return space > maxChars * 0.7 ? cut.slice(0, space) : cut;
}

/**
 * The cleaned name and description of a tool, computed once per tool object: the dense text and the lexical
 * fields both need them, and on 100,000 tools the regex work is most of a warm start. The raw strings are kept
 * and compared, so an object whose name or description changed is cleaned again.
 */
const cleaned = new WeakMap<object, { rawName: string; rawDescription: string | undefined; name: string; description: string }>();
function cleanedOf(tool: ToolTextSource): { name: string; description: string } {
  const hit = cleaned.get(tool);
  if (hit && hit.rawName === tool.name && hit.rawDescription === tool.description) return hit;
  const entry = { rawName: tool.name, rawDescription: tool.description, name: splitIdentifier(tool.name), description: stripMarkup(tool.description ?? "") };
  cleaned.set(tool, entry);
  return entry;
}

/** Server names are shared by all their tools: split each once (bounded, so a long-lived process does not grow). */
const splitServers = new Map<string, string>();
function splitServer(server: string): string {
  let out = splitServers.get(server);
  if (out === undefined) {
    if (splitServers.size >= 50_000) splitServers.clear();
    splitServers.set(server, (out = splitIdentifier(server)));
  }
  return out;
}

/** The text components of a tool, each already cleaned (markup stripped, identifiers split). */
export function toolFieldsOf(
  tool: ToolTextSource,
  options: ToolTextOptions = {},
  context: ToolTextContext = {},
): { name: string; server: string; description: string; params: string; tags: string } {
  const useServer = options.server === "auto" || options.server === undefined ? Boolean(context.multiServer) : options.server;
  let server = useServer && tool.server ? splitServer(tool.server) : "";
  if (server && options.serverDescription && context.serverDescription) server += ` — ${firstSentence(context.serverDescription)}`;
  const base = cleanedOf(tool);
  return {
    name: base.name,
    server,
    description: base.description,
    params: options.params ? parameterNamesOf(tool.inputSchema).join(", ") : "",
    tags: options.tags ? (tool.tags ?? []).join(", ") : "",
  };
}

/**
 * The one text embedded for a tool: `split name (server): description [parameters: …] [tags: …]`, cut at
 * `maxChars`. With the defaults on a single-server catalog it is `split name: description`.
 */
export function toolTextOf(tool: ToolTextSource, options: ToolTextOptions = {}, context: ToolTextContext = {}): string {
  const f = toolFieldsOf(tool, options, context);
  const head = f.server ? `${f.name} (${f.server})` : f.name;
  let text = f.description ? `${head}: ${f.description}` : head;
  // Parameters and tags go before the cut would reach them only when the description is short.
  const extras = [f.params ? `parameters: ${f.params}` : "", f.tags ? `tags: ${f.tags}` : ""].filter(Boolean).join(". ");
  if (extras) text = `${text}${/[.!?。]$/.test(text) ? "" : "."} ${extras}`;
  return cutAtWord(text, options.maxChars ?? ROUTING_TEXT_MAX_CHARS);
}
