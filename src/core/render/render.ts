/**
 * Two-phase prompt rendering.
 * Phase 1: a summary pool of ALL tools, one line each, so the model knows what exists; within a token budget,
 *   so a large catalog falls back to tool names per server, then to one line per server. It depends only on
 *   the catalog, so it is rendered once and is byte-identical on every turn (stable for prompt caches).
 * Phase 2: the full schemas of the active tools only, bound to this model call.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import type { ToolRecord } from "../types.js";
import { countTokens, DEFAULT_ENCODING, truncateToTokens, type TokenEncoding } from "../tokens/count.js";
import { splitIdentifier } from "../catalog/text.js";
import { LEXICAL_STOPWORDS } from "../encoders/lexical.js";
import type { FullToolSchema } from "../loader/schema-loader.js";
import { renderTerse } from "../compaction/terse.js";
import { signatureOf } from "./signature.js";

export { signatureOf } from "./signature.js";
import { compactParameters, compactionEnabled, type Phase2CompactionOptions } from "../compaction/phase2.js";

export const POOL_HEADER =
  "Tool catalog: every tool this agent has, one line each. Only the tools attached to this request can be " +
  "called now; the others are listed so you know what exists and can plan for them.";

/**
 * What the pool says about tools that are not attached when the gate runs a call whose arguments fit the tool's
 * schema (the adapters' default `runValidCalls`): the model may call any listed tool.
 */
const RUNS_SENTENCE =
  "Attached tools come with their full schemas. You may also call any other listed tool by its exact name (through " +
  "call_tool when you have it, giving the name and the arguments): with " +
  "arguments that fit its parameters it runs; otherwise it does not run, and the answer says why and attaches its " +
  "full schema when you may use it.";

/**
 * Tier-1 header when unattached calls with fitting arguments run (`runValidCalls`): each line names the tool's
 * required parameters, so a call to a tool that is not attached can fit without a round trip for its schema.
 */
export const POOL_HEADER_RUNS =
  `Tool catalog: every tool this agent has, one line each as id(required parameters, … when it also takes optional ones): purpose. A parameter whose value must take a form shows it (paths: string[], mode: "a"|"b", url: uri, key: /pattern/). ${RUNS_SENTENCE}`;

/** Tier-1 header when unattached calls run but the parameters did not fit the budget (summaries only). */
export const POOL_HEADER_RUNS_NO_PARAMS = `Tool catalog: every tool this agent has, one line each. ${RUNS_SENTENCE}`;

/** Header of the TERSE pool: the line format needs one sentence of explanation. */
export const TERSE_POOL_HEADER =
  "Tool catalog: every tool this agent has, one line each (TOOL id: purpose | IN parameters, ? = optional | " +
  "OUT output fields | WHEN preconditions | TAGS). Only the tools attached to this request can be called now; " +
  "the others are listed so you know what exists and can plan for them.";

/**
 * Default pool budget, in tokens of the router's encoding. A summary line costs ~15–25 tokens, and naming the
 * required parameters (under `runValidCalls`) about 5 more: 12,000 keeps one line per tool with its parameters for
 * catalogs of about 500 tools (the 464 real MCP tools take 8,970), one line without them to about 750, and past
 * that caps the pool that is resent on every turn at ~9% of a 128k context: a catalog ten times larger must not
 * cost ten times more per turn than the routed schemas it exists to save. The parameters pay for themselves: a
 * call the model can make right from the pool costs no round trip (measured with the cost replay on the real
 * catalog: 36.3 → 31.3 model calls per 30-call conversation).
 */
export const DEFAULT_POOL_MAX_TOKENS = 12000;

/** TERSE tier-1 header when unattached calls with fitting arguments run. */
export const TERSE_POOL_HEADER_RUNS =
  "Tool catalog: every tool this agent has, one line each (TOOL id: purpose | IN parameters, ? = optional | " +
  `OUT output fields | WHEN preconditions | TAGS). ${RUNS_SENTENCE}`;

/** Tier-2 header when unattached calls with fitting arguments run. */
export const NAMES_POOL_HEADER_RUNS =
  `Tool catalog: every tool this agent has, by server ([server] description (tool count), then the tool names). ${RUNS_SENTENCE}`;

/** Tier-3 header when unattached calls with fitting arguments run. */
export const SERVERS_POOL_HEADER_RUNS =
  "Tool catalog: this agent's tool servers ([server] description (tool count; common words in its tool names)); " +
  "there are too many tools to list. Tools are attached by what the request and your stated plan are about, so say " +
  `which server and action you need. ${RUNS_SENTENCE}`;

/** Header of the names-only pool (tier 2), when the gate promotes a called tool. */
export const NAMES_POOL_HEADER =
  "Tool catalog: every tool this agent has, by server ([server] description (tool count), then the tool names). " +
  "Only the tools attached to this request can be called now. To use another listed tool, call it by its exact " +
  "name: if it is usable now, that call does not run but the tool is attached with its full schema for your " +
  "next call; otherwise the answer says why not.";

/** Header of the per-server pool (tier 3): too many tools to name them all. */
export const SERVERS_POOL_HEADER =
  "Tool catalog: this agent's tool servers ([server] description (tool count; common words in its tool names)); " +
  "there are too many tools to list. Only the tools attached to this request can be called now; tools are " +
  "attached by what the request and your stated plan are about, so say which server and action you need. If you " +
  "know a tool's exact name you may call it: if it is usable now, that call does not run but the tool is " +
  "attached with its full schema for your next call.";

/** Tier-2 header when calling an unattached tool does not attach it (`callByName: false`). */
export const NAMES_POOL_HEADER_NO_PROMOTE =
  "Tool catalog: every tool this agent has, by server ([server] description (tool count), then the tool names). " +
  "Only the tools attached to this request can be called now; the others are listed so you know what exists " +
  "and can plan for them.";

/** Tier-3 header when calling an unattached tool does not attach it (`callByName: false`). */
export const SERVERS_POOL_HEADER_NO_PROMOTE =
  "Tool catalog: this agent's tool servers ([server] description (tool count; common words in its tool names)); " +
  "there are too many tools to list. Only the tools attached to this request can be called now; tools are " +
  "attached by what the request and your stated plan are about, so say which server and action you need.";

export interface PoolOptions {
  /** Group lines under `[server]` headings (default true when the catalog has more than one server). */
  groupByServer?: boolean;
  /**
   * Text above the one-line-per-tool list. Default POOL_HEADER (TERSE_POOL_HEADER with `format: "terse"`).
   * The compact tiers (see `maxTokens`) use their own headers, which describe their layout.
   */
  header?: string;
  /**
   * `"line"` (default): `- id: summary`. `"terse"`: `TOOL id: summary | IN a, b? | OUT x | WHEN … | TAGS …`,
   * which also tells the model each tool's parameter names, output fields and preconditions.
   */
  format?: "line" | "terse";
  /**
   * Token budget of the whole pool (default DEFAULT_POOL_MAX_TOKENS). The pool is rendered in the first tier
   * that fits: (1) one line per tool; (2) per server a header line and the tool names; (3) per server only a
   * header line with its tool count and common name words, cut to fit. `Infinity` or `false`: always tier 1.
   */
  maxTokens?: number | false;
  /** Encoding the budget is counted in (the router passes its own). Default cl100k_base. */
  encoding?: TokenEncoding;
  /**
   * Whether the compact tiers tell the model it may call any listed tool by name to have it attached (true
   * when the gate promotes such calls: the adapters' default `promoteOnRequest`). Default true.
   */
  callByName?: boolean;
  /**
   * Whether every tier tells the model that a listed tool that is not attached runs when called with arguments that
   * fit its parameters (the adapters set it from `runValidCalls`, on by default there). Default false.
   */
  runValidCalls?: boolean;
}

/** Which layout a pool was rendered in (see PoolOptions.maxTokens). */
export type PoolTier = 1 | 2 | 3;

export interface RenderedPool {
  text: string;
  tier: PoolTier;
  /** Tokens of `text` in the options' encoding. */
  tokens: number;
  /** Whether each line names the tool's parameters (the terse format, or the line format under `runValidCalls`). */
  params: boolean;
  /** Set when the purposes were cut to this many tokens so the parameter lines fit the budget. */
  summaryTokens?: number;
}

const poolCache = new WeakMap<ToolCatalog, { revision: number; pools: Map<string, RenderedPool> }>();

/** The Phase-1 pool text. Memoized per catalog and options, so repeated turns reuse the same string. */
export function renderPool(catalog: ToolCatalog, options: PoolOptions = {}): string {
  return renderPoolTiered(catalog, options).text;
}

/**
 * The Phase-1 pool with the tier it was rendered in and its token count. Memoized per catalog object and
 * options: a catalog replaced on an MCP list_changed is a new object and gets its own pool.
 */
export function renderPoolTiered(catalog: ToolCatalog, options: PoolOptions = {}): RenderedPool {
  const group = options.groupByServer ?? catalog.servers.size > 1;
  const terse = options.format === "terse";
  const runs = options.runValidCalls === true;
  const header = options.header ?? (terse ? (runs ? TERSE_POOL_HEADER_RUNS : TERSE_POOL_HEADER) : runs ? POOL_HEADER_RUNS : POOL_HEADER);
  const encoding = options.encoding ?? DEFAULT_ENCODING;
  const budget = options.maxTokens === false ? Infinity : options.maxTokens ?? DEFAULT_POOL_MAX_TOKENS;
  if (!(budget >= 1)) throw new Error(`Invalid pool.maxTokens: ${options.maxTokens} (expected a number ≥ 1, Infinity or false)`);
  const callByName = options.callByName ?? true;
  const key = `${group ? 1 : 0}\0${terse ? "terse" : "line"}\0${budget}\0${encoding}\0${callByName ? 1 : 0}\0${runs ? 1 : 0}\0${header}`;
  let perCatalog = poolCache.get(catalog);
  // A tool quarantined by background screening since (catalog.revision) is not in the pool any more: render anew.
  if (perCatalog?.revision !== catalog.revision) poolCache.set(catalog, (perCatalog = { revision: catalog.revision, pools: new Map() }));
  const hit = perCatalog.pools.get(key);
  if (hit !== undefined) return hit;

  const settings: TierSettings = { group, terse, header, encoding, budget, callByName, runs, params: runs && !terse };
  let rendered = renderTiers(catalog, settings);
  // Tiers 1 and 2 show every tool (its line or its name): a catalog still screening in the background screens them
  // all first, and the pool is rendered from what remains. Tier 3 shows servers, their tool counts and the common
  // words of their tool names, no tool's definition: it is rendered at once, and again if a tool is quarantined.
  if (rendered.tier < 3 && catalog.screeningProgress().pending > 0) {
    catalog.screenAll();
    rendered = renderTiers(catalog, settings);
  }
  if (perCatalog.revision !== catalog.revision) poolCache.set(catalog, (perCatalog = { revision: catalog.revision, pools: new Map() }));
  perCatalog.pools.set(key, rendered);
  return rendered;
}

interface TierSettings {
  group: boolean;
  terse: boolean;
  header: string;
  encoding: TokenEncoding;
  budget: number;
  callByName: boolean;
  runs: boolean;
  /** Line format: name each tool's required parameters (on when unattached calls run). */
  params: boolean;
  /** Line format: cut each purpose to this many tokens (the shortened tiers that keep the parameters). */
  summaryTokens?: number;
}

/**
 * Purpose lengths (tokens) tried, longest first, when the parameter lines do not fit the budget: with its parameters a
 * line lets the model call a tool that was not delivered and have it run, so a shorter purpose is given up before
 * the parameters are. Tried only while the catalog could fit at all (each line takes at least MIN_LINE_TOKENS).
 */
const SHORT_SUMMARY_TOKENS = [24, 16, 12, 9, 6] as const;
const MIN_LINE_TOKENS = 12;
/**
 * Fewest tokens a line of the line tier can take, in either format: `- id: …` pre-splits into at least "-", the id
 * and ":" (`TOOL id: …` into "TOOL", the id and ":"), each at least one token. A catalog with more lines than the
 * budget over this skips the line tier without rendering it; the names tier takes at least a token per tool.
 */
const LINE_MIN_TOKENS = 3;

/**
 * Whether `text` has more than `budget` tokens, decided on a prefix when that suffices: a large catalog's line tier
 * is megabytes of text (minutes to tokenize at 100,000 tools) against a budget of a few thousand tokens. The prefix
 * ends after a newline followed by a non-space character, where the tokenizer's pre-split always cuts (a newline
 * run is its own piece), so the text has at least the prefix's tokens.
 */
function exceedsBudget(text: string, budget: number, count: (text: string) => number): boolean {
  const probe = Math.ceil(budget * 8);
  if (text.length > probe * 2) {
    let cut = text.indexOf("\n", probe);
    while (cut >= 0 && cut + 1 < text.length && /\s/.test(text[cut + 1]!)) cut = text.indexOf("\n", cut + 1);
    if (cut >= 0 && cut + 1 < text.length && count(text.slice(0, cut + 1)) > budget) return true;
  }
  return count(text) > budget;
}

function renderTiers(catalog: ToolCatalog, o: TierSettings): RenderedPool {
  const count = (text: string) => countTokens(text, o.encoding);
  const listed = catalog.listed.length;
  const params = o.terse || o.params;
  // A tier that cannot fit is not rendered: at 100,000 tools the line tier is megabytes of text built for nothing.
  if (o.budget === Infinity || listed * LINE_MIN_TOKENS <= o.budget) {
    const full = lineTier(catalog, o);
    if (o.budget === Infinity || !exceedsBudget(full, o.budget, count)) return { text: full, tier: 1, tokens: count(full), params };
    if (o.params && listed * MIN_LINE_TOKENS <= o.budget)
      for (const summaryTokens of SHORT_SUMMARY_TOKENS) {
        const short = lineTier(catalog, { ...o, summaryTokens });
        if (!exceedsBudget(short, o.budget, count)) return { text: short, tier: 1, tokens: count(short), params: true, summaryTokens };
      }
    // Then the parameters go: a line per tool with its purpose still routes the model's choices.
    if (o.params) {
      const summaries = lineTier(catalog, { ...o, params: false, header: o.header === POOL_HEADER_RUNS ? POOL_HEADER_RUNS_NO_PARAMS : o.header });
      if (!exceedsBudget(summaries, o.budget, count)) return { text: summaries, tier: 1, tokens: count(summaries), params: false };
    }
  }

  const servers = toolsByServer(catalog);
  if (listed <= o.budget) {
    const names = namesTier(catalog, servers, o.runs ? NAMES_POOL_HEADER_RUNS : o.callByName ? NAMES_POOL_HEADER : NAMES_POOL_HEADER_NO_PROMOTE);
    if (!exceedsBudget(names, o.budget, count)) return { text: names, tier: 2, tokens: count(names), params: false };
  }

  const text = serversTier(catalog, servers, o.runs ? SERVERS_POOL_HEADER_RUNS : o.callByName ? SERVERS_POOL_HEADER : SERVERS_POOL_HEADER_NO_PROMOTE, o.budget, o.encoding);
  return { text, tier: 3, tokens: count(text), params: false };
}

/**
 * A catalog text (a tool id, a server name, a summary) on one line. Ids and server names come from MCP servers: one
 * holding a newline could otherwise start a forged pool entry ("[bank]\n- transfer_funds: harmless") or a fake
 * system line in the system prompt. Line breaks and other control characters become spaces.
 */
export function oneLine(text: string): string {
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text) ? text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ") : text;
}

/**
 * A value as one line of JSON that no string inside it can break: JSON.stringify already escapes line feeds and the
 * other C0 controls, but not DEL, the C1 controls (U+0085 is a line break in Unicode) or the line and paragraph
 * separators U+2028 / U+2029; those are written as `\uXXXX` escapes too (still the same JSON value). For texts that
 * reach a system-role message one tool per line, such as the dispatcher's tool list: a description cannot start a
 * line that reads as a new tool or a new section.
 */
export function jsonLine(value: unknown): string {
  const json = JSON.stringify(value) ?? "null";
  return /[\u007f-\u009f\u2028\u2029]/.test(json)
    ? json.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : json;
}

/** Tier 1: one line per tool (the pool as it always was). */
function lineTier(catalog: ToolCatalog, o: TierSettings): string {
  const lineOf = o.terse
    ? (t: ToolRecord) => oneLine(renderTerse(t, { level: "pool", summary: t.summary }))
    : o.summaryTokens === undefined
      ? (t: ToolRecord) => poolLine(t, o.params)
      : (t: ToolRecord) => poolLine(t, o.params, truncateToTokens(t.summary, o.summaryTokens!, o.encoding));
  const lines: string[] = [o.header];
  if (o.group) {
    for (const [server, tools] of toolsByServer(catalog)) {
      lines.push(`[${oneLine(server) || "tools"}]`);
      for (const t of tools) lines.push(lineOf(t));
    }
  } else {
    for (const t of catalog.listed) lines.push(lineOf(t));
  }
  return lines.join("\n");
}


/** One tool's line of the line format: `- id(required, …): summary` with `params`, else `- id: summary`. */
export function poolLine(t: ToolRecord, params: boolean, summary: string = t.summary): string {
  return params ? `- ${oneLine(t.id)}(${signatureOf(t.inputSchema, oneLine)}): ${oneLine(summary)}` : `- ${oneLine(t.id)}: ${oneLine(summary)}`;
}

/** Tools grouped by server, servers in order of first appearance. */
function toolsByServer(catalog: ToolCatalog): Map<string, ToolRecord[]> {
  const byServer = new Map<string, ToolRecord[]>();
  for (const t of catalog.listed) {
    const list = byServer.get(t.server);
    if (list) list.push(t);
    else byServer.set(t.server, [t]);
  }
  return byServer;
}

function serverHeading(server: string, count: number, description: string | undefined, hint?: string): string {
  const desc = description ? ` ${description}` : "";
  const n = `${count} tool${count === 1 ? "" : "s"}`;
  return `[${oneLine(server) || "tools"}]${desc} (${hint ? `${n}; ${hint}` : n})`;
}

/** A server description on one line (descriptions may hold newlines, which would break the layout). */
function flatDescription(catalog: ToolCatalog, server: string): string | undefined {
  const d = catalog.servers.get(server);
  const flat = d?.replace(/\s+/g, " ").trim();
  return flat || undefined;
}

/** Tier 2: per server a heading, then its tool ids (the id is the name unless names collide). */
function namesTier(catalog: ToolCatalog, servers: Map<string, ToolRecord[]>, header: string): string {
  const lines: string[] = [header];
  for (const [server, tools] of servers) {
    lines.push(serverHeading(server, tools.length, flatDescription(catalog, server)));
    lines.push(tools.map((t) => oneLine(t.id)).join(", "));
  }
  return lines.join("\n");
}

/**
 * The most common words in a server's tool names (then tags), most frequent first (ties alphabetical), without
 * function words, CRUD verbs and words of the server's own name (which every tool of such a server repeats).
 */
/** CRUD verbs start most tool names and say nothing about what a server is for. */
const GENERIC_VERBS: ReadonlySet<string> = new Set(["get", "list", "create", "update", "delete", "set", "add", "remove"]);

function commonWords(server: string, tools: readonly ToolRecord[], max: number): string[] {
  if (max <= 0) return [];
  const skip = new Set(splitIdentifier(server).toLowerCase().split(" "));
  const counts = new Map<string, number>();
  const add = (text: string, weight: number, seen: Set<string>) => {
    for (const w of splitIdentifier(text).toLowerCase().split(" ")) {
      if (seen.has(w) || w.length < 3 || skip.has(w) || LEXICAL_STOPWORDS.has(w) || GENERIC_VERBS.has(w) || /^\d+$/.test(w)) continue;
      seen.add(w);
      counts.set(w, (counts.get(w) ?? 0) + weight);
    }
  };
  for (const t of tools) {
    // Tags only fill in: they often describe a side effect ("mutating", "read-only"), names what a tool acts on.
    const seen = new Set<string>();
    add(t.name, 1, seen);
    for (const tag of t.tags ?? []) add(tag, 1e-3, seen);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([w]) => w);
}

/**
 * Tier 3: one heading per server with its tool count and common name words. Shrinks step by step until it
 * fits: shorter descriptions and fewer words, then no descriptions, then only as many servers as fit with a
 * closing line counting the rest. Every step depends only on the catalog, so the result is deterministic.
 */
function serversTier(catalog: ToolCatalog, servers: Map<string, ToolRecord[]>, header: string, budget: number, encoding: TokenEncoding): string {
  const count = (text: string) => countTokens(text, encoding);
  const entries = [...servers];
  // Each server's common words, once and only for the lines made with words: every step takes a prefix of the same
  // ranking, and with thousands of servers only the last step (no words) makes every line.
  const hints: (string[] | undefined)[] = new Array(entries.length);
  const line = (i: number, descTokens: number, words: number): string => {
    const [server, tools] = entries[i]!;
    const d = flatDescription(catalog, server);
    const desc = d && descTokens > 0 ? truncateToTokens(d, descTokens, encoding) : undefined;
    const hint = words > 0 ? (hints[i] ??= commonWords(server, tools, 8)).slice(0, words).join(", ") : "";
    return serverHeading(server, tools.length, desc, hint ? `e.g. ${hint}` : undefined);
  };
  // A step is given up when its first lines (about `probe` characters) are already over budget: with thousands of
  // servers most steps are, and making every line (a description cut to tokens each) would cost seconds.
  const probe = budget * 16;
  const steps: [number, number][] = [[40, 8], [20, 6], [10, 4], [0, 3], [0, 2], [0, 1], [0, 0]];
  let lines: string[] = [];
  for (const [descTokens, words] of steps) {
    lines = [];
    let chars = header.length;
    let i = 0;
    for (; i < entries.length && chars <= probe; i++) {
      lines.push(line(i, descTokens, words));
      chars += lines[i]!.length + 1;
    }
    // The text goes on after this newline with another heading, so it has at least the prefix's tokens. The last
    // step's lines are all made: the cut below keeps as many of them as fit.
    const last = words === 0 && descTokens === 0;
    if (!last && i < entries.length && count(`${[header, ...lines].join("\n")}\n`) > budget) continue;
    for (; i < entries.length; i++) lines.push(line(i, descTokens, words));
    const text = [header, ...lines].join("\n");
    if (!exceedsBudget(text, budget, count)) return text;
  }
  // Still too long: keep the first servers that fit and count the rest on a closing line.
  const total = catalog.listed.length;
  const more = (shownServers: number, shownTools: number) =>
    `… and ${entries.length - shownServers} more servers with ${total - shownTools} tools.`;
  let used = count(header) + count(more(0, 0)) + 1;
  let shown = 0;
  let shownTools = 0;
  // Lines are counted only until the budget is reached (+1: the newline before each).
  for (let next: number; shown < lines.length && used + (next = count(lines[shown]!) + 1) <= budget; shown++) {
    used += next;
    shownTools += entries[shown]![1].length;
  }
  // Sums of per-line counts can differ from the joined text by a token at the seams: check and back off.
  for (;;) {
    const text = [header, ...lines.slice(0, shown), more(shown, shownTools)].join("\n");
    if (count(text) <= budget) return text;
    if (shown === 0) return truncateToTokens(text, budget, encoding);
    shown--;
    shownTools -= entries[shown][1].length;
  }
}

/**
 * The Phase-2 text of one tool: its MCP object `{name, description, inputSchema}` as compact JSON, or with
 * `"terse"` the TERSE lines (for prompts that describe tools in text rather than bind them).
 */
export function renderFullSchema(schema: FullToolSchema, format: "json" | "terse" = "json"): string {
  if (format === "terse") return renderTerse({ name: schema.name, description: schema.description, inputSchema: schema.inputSchema });
  return JSON.stringify({ name: schema.name, description: schema.description, inputSchema: schema.inputSchema });
}

/**
 * Token counts of full schemas. Memoized per schema object: the loader hands out the same object for a tool
 * until it is invalidated, so the per-turn cost is a WeakMap lookup, not a JSON render + tokenization.
 */
export class SchemaTokenCounter {
  private readonly counts = new WeakMap<FullToolSchema, number>();
  constructor(
    readonly encoding: TokenEncoding = DEFAULT_ENCODING,
    /** Count the schemas as Phase-2 compaction sends them (default: as declared). */
    readonly compaction?: Phase2CompactionOptions,
  ) {}

  count(schema: FullToolSchema): number {
    let n = this.counts.get(schema);
    if (n === undefined) {
      const sent = this.compaction && compactionEnabled(this.compaction)
        ? { ...schema, inputSchema: compactParameters(schema.inputSchema, { encoding: this.encoding, ...this.compaction }) }
        : schema;
      n = countTokens(renderFullSchema(sent), this.encoding);
      this.counts.set(schema, n);
    }
    return n;
  }
}
