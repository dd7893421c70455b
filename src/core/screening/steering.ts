/**
 * Steering of other tools: "use X instead", "never call X", "X is broken", "always use this tool instead of …".
 * Whether such a sentence is an attack depends on whose tool X is, so this module also owns what the screen knows
 * about the catalog: the `server__name` prefixes MCP clients write, the index of tool names to servers, and the
 * test of whether a named tool is foreign to the speaking tool's server. The sentence reader (meaning.ts) and the
 * catalog stage (screen-tools.ts) use the same test.
 */
import { eachMatch, re, type Hit } from "./text.js";
import { once } from "./memo.js";

/** A token shaped like a tool name: snake_case, kebab-case, dotted or camelCase (single plain words are not). */
const TOOL_TOKEN = String.raw`[\x60'"]?((?<![$\w-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9])[\x60'"]?`;
/** Tool-name-shaped tokens of a span (checked case-sensitively: the patterns themselves ignore case). */
export function tokensOf(span: string): string[] {
  return (span.match(/(?<![$\w-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]/g) ?? []).filter(
    (t) => /[A-Za-z0-9][_-][A-Za-z0-9]/.test(t) || /[A-Za-z0-9]\.[A-Za-z]/.test(t) || /^[a-z]+[A-Z]/.test(t),
  );
}
// "use X instead", "call X … instead"
const USE_INSTEAD = re(String.raw`\b(?:use|call|invoke|choose|pick)\s+(?:the\s+)?${TOOL_TOKEN}(?:\s+tool)?\b[^.\n]{0,60}?\binstead\b`, "gi");
// "instead of X", "rather than X", "in place of X"
const RATHER_THAN = re(String.raw`\b(?:instead of|rather than|in place of)\s+(?:using\s+|calling\s+)?(?:the\s+)?${TOOL_TOKEN}`, "gi");
// "call X first", "call X before"
const CALL_FIRST = re(String.raw`\b(?:call|invoke|run|use)\s+(?:the\s+)?${TOOL_TOKEN}(?:\s+tool)?\s+(?:first|before)\b`, "gi");
const STEER_PATTERNS: RegExp[] = [
  USE_INSTEAD,
  RATHER_THAN,
  // "never use X", "do not call X"
  re(String.raw`\b(?:never|do not|don't|must not|should not|avoid)\s+(?:ever\s+)?(?:use|call|invoke|run|trigger|using|calling)\s+(?:the\s+)?${TOOL_TOKEN}`, "gi"),
  // "you must call X", "immediately invoke X", "always use X"
  re(String.raw`\b(?:must|should|always|immediately|need to|have to)\s+(?:\w+\s+)?(?:call|invoke|run|use|trigger|execute)\s+(?:the\s+)?${TOOL_TOKEN}`, "gi"),
  CALL_FIRST,
  // "when the X tool is available", "whenever X is called"
  re(String.raw`\b(?:when(?:ever)?|if|each time|every time)\s+(?:the\s+)?${TOOL_TOKEN}(?:\s+tool)?\s+(?:is|are|gets?)\s+(?:\w+\s+)?(?:called|used|invoked|available|requested|run|present)\b`, "gi"),
  // "when sending … with X", "when using X"
  // "when sending … with X, always add …": the span is searched for tool names
  re(String.raw`\bwhen(?:ever)?\s+(?:you\s+)?(?:send|sending|use|using|call|calling|invoke|invoking|run|running)\b([^.\n]{0,60}?),?\s+(?:you\s+)?(?:must|should|always|never|also|first|add|set|include|replace|change|put)\b`, "gi"),
  // "X is deprecated / broken / has a known bug", "X corrupts data"
  re(String.raw`${TOOL_TOKEN}(?:\s+tool)?\s+(?:(?:is|are|has|have|has been|have been|was|were)\s+(?:now\s+)?(?:deprecated|retired|discontinued|obsolete|broken|buggy|unreliable|unsafe|compromised|disabled|outdated|(?:a\s+)?(?:known\s+)?(?:[\w-]+\s+)?bugs?)|(?:corrupts?|returns? wrong|leaks?)\b)`, "gi"),
  // "this tool replaces X"
  re(String.raw`\b(?:this tool|it)\s+(?:replaces|supersedes|overrides)\s+(?:the\s+)?${TOOL_TOKEN}`, "gi"),
];
/** Whole groups of another server's tools: "do not use the filesystem server's tools", "when you use the github tools". */
const GROUP_STEER = [
  /\b(?:never|do not|don't|avoid)\s+(?:use|call|using|calling)\s+(?:any of\s+)?the\s+(?!same\b|other\b)([\w-]+)(?:\s+server'?s?)?\s+tools\b/gi,
  /\bwhen(?:ever)?\s+(?:you\s+)?(?:use|call|using|calling|invoke|invoking)\s+(?:the|any)\s+(?!this\b|same\b|other\b|following\b)([\w-]+)\s+tools?\b[^.\n]{0,80}?\b(?:always|must|set|add|include|use|never)\b/gi,
];

export interface SteerContext {
  self: string;
  /** The tool's name with and without its `server__` prefix (lower case). */
  selfNames?: ReadonlySet<string>;
  /** The tool's server: the context's, else the `server__` prefix of its name. */
  server?: string;
  params: Set<string>;
  /** The tool's enum members (lower case): options its parameters describe. */
  options?: ReadonlySet<string>;
  /** Tool name (lower case) → servers offering it. */
  catalog?: Map<string, Set<string>>;
}

/** The `server` of a `server__name` tool name (as MCP clients that prefix names with their server write them). */
export function serverPrefixOf(name: string): string | undefined {
  const i = name.indexOf("__");
  return i > 0 && i < name.length - 2 ? name.slice(0, i) : undefined;
}

/** Server names compare without case, `-` or `_` ("sequential-thinking" is "sequential_thinking"). */
const sameServer = (a: string, b: string) => a.toLowerCase().replace(/[-_]/g, "") === b.toLowerCase().replace(/[-_]/g, "");

/**
 * A named tool the screen treats as foreign: not this tool, not a parameter, and not a tool of this tool's own
 * server. Names may carry a `server__` prefix on either side (the tool's own, the catalog's, or the reference):
 * `supabase__execute_sql` pointing at `apply_migration` points at its own server's `supabase__apply_migration`.
 */
/**
 * "search_v2" for the tool "search_v1": the same name at another version, the server's own successor even when another
 * server happens to list a tool of that name too.
 */
export function ownVersion(token: string, selfNames: ReadonlySet<string>): boolean {
  const name = token.toLowerCase();
  const stem = name.replace(VERSION_SUFFIX, "");
  if (stem === name) return false;
  for (const self of selfNames) if (self !== name && self.replace(VERSION_SUFFIX, "") === stem) return true;
  return false;
}
const VERSION_SUFFIX = /[_-]?v\d+$/;
const FIELD_SUFFIX = /_(?:cursor|id|ids|token|url|uri|at|count|total|page|offset|size|status|code|key|name|type|time|date)$/i;

/** A name ending as fields of a result do (`next_cursor`, `rate_id`, `upload_url`, `created_at`): a field, not a tool. */
/** A name's word without a plural ending: `files` and `file` are one word of a name. */
const singular = (w: string): string => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w);
/**
 * This tool is a special case of `other` by name: every word of the other's name is in this tool's name
 * ("read_large_file" of "read_file", "upload_file_chunked" of "upload_file", "read_multiple_files" of "read_file").
 */
export function specializes(selfNames: ReadonlySet<string>, other: string): boolean {
  const words = other.toLowerCase().replace(/^[a-z0-9]+__/, "").split(/[_.-]+/).filter(Boolean).map(singular);
  for (const self of selfNames) {
    const own = new Set(self.replace(/^[a-z0-9]+__/, "").split(/[_.-]+/).map(singular));
    if (own.size > words.length && words.every((w) => own.has(w))) return true;
  }
  return false;
}

export function fieldName(token: string): boolean {
  return FIELD_SUFFIX.test(token);
}

export function foreignTool(token: string, ctx: SteerContext): boolean {
  const name = token.toLowerCase();
  if (name === ctx.self || ctx.selfNames?.has(name) || ctx.params.has(name)) return false;
  const prefix = serverPrefixOf(name);
  if (prefix && ctx.server && sameServer(prefix, ctx.server)) return false;
  // `github__get_file_contents` named by `github__create_or_update_file`: the client gave both the same server prefix.
  const ownPrefix = serverPrefixOf(ctx.self);
  if (prefix && ownPrefix && sameServer(prefix, ownPrefix)) return false;
  const servers = ctx.catalog?.get(name) ?? (prefix ? ctx.catalog?.get(name.slice(prefix.length + 2)) : undefined);
  // `create_or_update_file` named by `github__push_files`: the tool's own prefix names the server that lists it.
  if (servers && ownPrefix && [...servers].some((s) => sameServer(s, ownPrefix))) return false;
  if (servers) return ctx.server === undefined ? false : ![...servers].some((s) => sameServer(s, ctx.server as string));
  // A bare name whose server mounts it under this tool's vendor word ("get_attachments", listed as
  // "confluence_get_attachments" beside "confluence_download_attachment") is a sibling named as its code names it.
  const vendor = /^([a-z][a-z0-9]*)_/.exec(ownPrefix ? ctx.self.slice(ownPrefix.length + 2) : ctx.self)?.[1];
  const mounted = vendor && !name.startsWith(`${vendor}_`) ? ctx.catalog?.get(`${vendor}_${name}`) : undefined;
  if (mounted && ctx.server && [...mounted].some((s) => sameServer(s, ctx.server as string))) return false;
  // A `server__tool` name of another server is foreign by construction, known to the catalog or not.
  if (prefix && ctx.server && !name.includes(".")) return true;
  // An unknown name in capitals (VAULT_ADDR, AWS_PROFILE) is an environment variable or a constant, not a tool.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(token)) return false;
  // An unknown name ending as fields do (next_cursor, rate_id, upload_url, created_at) is a field of a result.
  if (fieldName(name)) return false;
  // An unknown name that starts with this tool's vendor word ("notion_retrieve_database" named by "notion_update_page",
  // "helm_diff" by "helm_upgrade") is its sibling on the same server, which the catalog was not given.
  if (sharesVendor(name, ctx.self)) return false;
  // A name the catalog does not have: only snake_case or multi-hyphen names count. camelCase words are parameter
  // values (executionStats, autoEmbed), single hyphens are English (auto-embed, read-only), dots are fields or files.
  return /[A-Za-z0-9]_[A-Za-z0-9]/.test(name) || (name.match(/-/g)?.length ?? 0) >= 2 ? !name.includes(".") : false;
}

/** Leading words that name an action, not a vendor or product: `get_x` and `get_y` need not share a server. */
const ACTION_WORD = /^(?:get|list|create|update|delete|remove|read|write|search|find|run|set|add|send|fetch|query|execute|exec|make|do|check|show|open|close|start|stop|new|edit|put|post|patch|move|copy|upload|download|export|import|sync|describe|view|call|use|my|the|a)$/;
/** Both names start with the same vendor or product word (`kubectl_`, `notion_`, `kv_`), each with more after it. */
function sharesVendor(name: string, self: string): boolean {
  const a = name.replace(/^[a-z0-9]+__/, "").split(/[_-]+/);
  const b = self.toLowerCase().replace(/^[a-z0-9]+__/, "").split(/[_-]+/);
  return a.length > 1 && b.length > 1 && a[0] === b[0] && a[0].length >= 2 && !ACTION_WORD.test(a[0]);
}

/** Whether the catalog has a tool of this name (bare or `server__` prefixed). */
export function knownTool(token: string, ctx: SteerContext): boolean {
  const name = token.toLowerCase();
  const prefix = serverPrefixOf(name);
  return Boolean(ctx.catalog?.has(name) || (prefix && ctx.catalog?.has(name.slice(prefix.length + 2))));
}

/** The sentence around `at` speaks of the tool's own server ("write_file and move_file in this server"). */
function ownServerSentence(text: string, at: number): boolean {
  const start = Math.max(text.lastIndexOf(". ", at), text.lastIndexOf("\n", at), 0);
  const end = text.slice(at).search(/\.\s|\n|$/);
  return /\b(?:in|on|of|from|within) (?:this|the same) server\b/i.test(text.slice(start, at + (end < 0 ? 0 : end)));
}

/** "Always use this tool instead of …", "prefer this tool over …": fine when what follows is the server's own tool. */
const SELF_PROMOTION = [
  /\b(?:always|only)\s+use\s+this\s+tool\s+(?:instead|rather|over|in place|for (?:all|every|any))\b([^.\n]{0,60})/gi,
  /\bprefer\s+this\s+tool\s+(?:over|to|instead)\b([^.\n]{0,60})/gi,
];

/**
 * A steering phrase found in a text, before the catalog is consulted: which rule it would report, where, and what
 * decides it (the tool names it holds, whether it names a redirect, whether its sentence speaks of the tool's own
 * server, the group it names). It depends on the text alone, so a catalog's repeated texts are searched once.
 */
interface SteerCandidate {
  kind: "self" | "steer" | "group";
  at: number;
  length: number;
  tokens: readonly string[];
  redirect: boolean;
  ownServer: boolean;
  group: string;
  /** "Use list_threads first and pass the `thread_id` it returns": the other tool only supplies this one's input. */
  feeds: boolean;
  /** "Use update_invoice before finalizing": an order of calls, which only a tool the catalog has elsewhere makes steering. */
  order: boolean;
  /** "Call list_teams first to get the teamId": an order of calls made for an id, steering no tool, wherever it is listed. */
  forId: boolean;
  /**
   * The one thing more asked after "call X first", when it is a verb ("… first and merge only when the checks passed"):
   * if this tool's own name holds it, the action is this tool's, and the sentence is still an order of calls.
   */
  moreVerb?: string;
}

/**
 * After "call X first": X's result handed to this tool, and nothing asked of X beyond calling it. Secrets and the
 * conversation are excluded: "pass the token it returns" is a reach, whichever tool returns it.
 */
const FEEDS_THIS = /^[^.\n]{0,20}?\b(?:and|then)\s+pass\s+(?:one of\s+)?(?:the\s+)?(?:(?:\x60\w+\x60|\w+)\s+(?:it returns|from its (?:output|result))|returned\s+(?:ids?|keys?|names?|refs?|cursors?|handles?|uuids?|numbers?)|its\s+(?:\x60\w+\x60|ids?|keys?|names?|refs?|cursors?|handles?|uuids?))\b(?![^.\n]{0,40}\b(?:with|and their|plus)\b)/i;
/**
 * More asked of the other tool's result after "call X first" / "use X before": acting on it ("then close each issue it
 * returns", "then approve it"), handing it on beyond an id ("give its full output to the memo field", "pass the
 * returned messages in transcript"), obeying it. Without that the sentence is only an order of calls ("… first to get
 * the teamId", "… before finalizing").
 */
const MORE_ASKED = /\b(?:then|and|,)\s+(?:\w+\s+){0,2}?(?:close|delete|remove|approve|merge|pay|send|post|forward|copy|give|upload|share|follow|obey|execute|apply|pass\s+(?:the\s+|its\s+|their\s+|it\b|them\b)(?!(?:returned\s+)?(?:[\w-]+\s+)?(?:ids?|keys?|names?|refs?|cursors?|handles?|uuids?|numbers?)\b))|\b(?:full|raw|whole|complete)\s+(?:output|result|text|list|history)\b|\bcontents?\b|\bwithout (?:reading|checking|asking|confirming|review)\w*|\bahead of\b|\bwhat(?:ever)? it (?:returns|says)\b/i;
/** The actions MORE_ASKED names, to tell whether the one asked is this tool's own. */
const MORE_VERBS = /\b(?:close|delete|remove|approve|merge|pay|send|post|forward|copy|give|upload|share|follow|obey|execute|apply)\b/gi;
/** "first" or "before" right after the name: "you must call `x` first". */
const CALLED_FIRST = /^[\x60'"]?(?:\s+tool)?\s+(?:first|before)\b/i;
/** What the earlier call is for: an id to pass on ("first to get the workflow id", "first to get the child node ids"). */
const FOR_AN_ID = /^[\x60'"]?(?:\s+tool)?\s+(?:(?:for|on) the \w+\s+)?(?:first\s+)?to (?:get|find|look up|obtain|fetch|list)\s+(?:the\s+|its\s+)?(?:[\w-]+\s+){0,2}?(?:ids?|names?|refs?|handles?|uuids?|numbers?|slugs?)\b/i;
const SECRET_WORD = /\b(?:token|key|secret|password|credential|cookie|session|conversation|chat|history|env\w*)s?\b/i;

function steerCandidates(text: string): readonly SteerCandidate[] {
  return once("steer", text, () => {
    const out: SteerCandidate[] = [];
    const base = { redirect: false, ownServer: false, group: "", feeds: false, order: false, forId: false };
    for (const pattern of SELF_PROMOTION) eachMatch(pattern, text, (m) => void out.push({ ...base, kind: "self", at: m.index, length: m[0].length, tokens: tokensOf(m[1]) }));
    for (const pattern of STEER_PATTERNS)
      eachMatch(pattern, text, (m) => {
        if (m[1]) {
          const after = text.slice(m.index + m[0].length, m.index + m[0].length + 120);
          const feeds = FEEDS_THIS.test(after) && !SECRET_WORD.test(after.split(/[.\n]/)[0] ?? "");
          const clause = after.split(/[.;\n]/)[0] ?? "";
          const first = pattern === CALL_FIRST || CALLED_FIRST.test(after);
          const more = first ? MORE_ASKED.exec(clause) : null;
          const order = first && !more;
          const forId = order && FOR_AN_ID.test(clause);
          const verbs = more ? (clause.match(MORE_VERBS) ?? []) : [];
          const moreVerb = more && verbs.length === 1 ? verbs[0].toLowerCase() : undefined;
          out.push({ ...base, kind: "steer", at: m.index, length: m[0].length, tokens: tokensOf(m[1]), redirect: pattern === USE_INSTEAD, ownServer: ownServerSentence(text, m.index), feeds, order, forId, moreVerb });
        }
      });
    for (const pattern of GROUP_STEER) eachMatch(pattern, text, (m) => void out.push({ ...base, kind: "group", at: m.index, length: m[0].length, tokens: [], group: m[1].toLowerCase() }));
    return out;
  });
}

export function steerHits(text: string, ctx: SteerContext): Hit[] {
  const hits: Hit[] = [];
  for (const c of steerCandidates(text)) {
    if (c.kind === "self") {
      if (c.tokens.length === 0 || c.tokens.some((t) => foreignTool(t, ctx))) hits.push({ rule: "self-promotion", at: c.at, length: c.length });
    } else if (c.kind === "steer") {
      // "Use list_issues_v2 instead" names a successor: shadowing only when it is a tool the catalog has on another
      // server, not the server's own next version or a name the catalog does not know.
      // "Use list_threads first and pass the `thread_id` it returns" names a sibling the catalog may not list: steering
      // only when the catalog has that tool on another server.
      const order = c.order || (c.moreVerb !== undefined && ctx.self.includes(c.moreVerb));
      if (!c.ownServer && c.tokens.some((t) => foreignTool(t, ctx) && (!(c.redirect || c.feeds || order) || (knownTool(t, ctx) && !c.forId)) && !(c.redirect && ownVersion(t, ctx.selfNames ?? new Set([ctx.self]))))) hits.push({ rule: "steer-other-tool", at: c.at, length: c.length });
    } else {
      // "the slack tools" on the slack server is the server talking about itself.
      if (ctx.server && c.group.replace(/-/g, "") === ctx.server.toLowerCase().replace(/-/g, "")) continue;
      hits.push({ rule: "steer-other-tool", at: c.at, length: c.length });
    }
  }
  return hits;
}

// A catalog screens every tool against the same neighbour list: index it once.
const indexes = new WeakMap<readonly unknown[], Map<string, Set<string>>>();

export function catalogIndex(tools: readonly { name: string; server?: string }[]): Map<string, Set<string>> {
  let index = indexes.get(tools);
  if (index) return index;
  index = new Map();
  const add = (key: string, server: string) => {
    const set = index!.get(key) ?? new Set<string>();
    set.add(server);
    index!.set(key, set);
  };
  for (const t of tools) {
    if (typeof t?.name !== "string") continue;
    const key = t.name.toLowerCase();
    const prefix = serverPrefixOf(key);
    const server = t.server || prefix || "";
    add(key, server);
    // `server__name` is also reachable by its bare name, on its server.
    if (prefix && (!t.server || sameServer(prefix, t.server))) add(key.slice(prefix.length + 2), server);
  }
  indexes.set(tools, index);
  return index;
}
