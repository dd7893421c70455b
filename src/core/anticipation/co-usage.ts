/**
 * Anticipation: which tools are likely to come next, from what the catalog itself says about how its tools are
 * used together. A tool that was just called makes its successors likely on the next model call, whatever the
 * model writes (it often writes nothing between two calls). The edges, strongest first:
 *
 * - `after-tool`: the successor declares the tool as a precondition (`afterTool`), so it runs after it by design;
 * - `mentions`: the successor's description or a parameter description names the tool ("transition id from
 *   jira_get_transitions"): one's output feeds the other's input;
 * - `output-input`: a required input of the successor is a field of the tool's declared output (same server);
 * - `family`: same server, same resource ("get_issue" → "update_issue", "add_issue_comment");
 * - `thread`: the pair ran one after the other earlier in the thread (given by the route, not the catalog).
 *
 * Pure, no model calls. A tool's successors are worked out the first time it runs (O(its server's tools)) and kept.
 */
import type { DeclarativePreconditions, JsonSchema, ToolRecord } from "../types.js";
import { splitIdentifier } from "../catalog/text.js";
import { positionOf } from "../router/select.js";

/** How a successor is linked to its tool; `thread`: the pair was called one after the other earlier in the thread. */
export type CoUsageEdge = "after-tool" | "mentions" | "output-input" | "family" | "thread";

/** A route's view of the thread: tools whose results the model just read, and pairs called in sequence before. */
export interface AnticipationInput {
  after: readonly string[];
  transitions?: ReadonlyArray<readonly [string, string]>;
}

/** A likely next tool. */
export interface Successor {
  /** Catalog id of the successor. */
  id: string;
  /**
   * In (0, 1]: how strongly the edge predicts the successor (the strongest edge counts; a family edge is scaled by
   * the share of the resource the two names have in common).
   */
  weight: number;
  edge: CoUsageEdge;
}

/** Weight of each edge kind: a declared order is near-certain; a shared resource only says "same family". */
export const EDGE_WEIGHTS: Readonly<Record<CoUsageEdge, number>> = {
  thread: 1,
  "after-tool": 1,
  mentions: 0.8,
  "output-input": 0.6,
  family: 0.2,
};

/** Most successors kept per tool (the strongest): a family of 40 tools must not flood the next call. */
export const MAX_SUCCESSORS = 8;

/** Verbs and fillers of tool names; what is left names the resource ("get_pull_request" → "pull request"). */
const NAME_VERBS = new Set(
  "get list search find fetch read show view describe query lookup look up create add new make insert post put set update edit modify patch change write save upsert delete remove del drop clear cancel close open start stop run execute exec call invoke send move rename copy merge apply check validate test sync import export upload download generate analyze by for from to of in on all my the a an and or with batch bulk multi many one single info details detail status".split(
    " ",
  ),
);

/** Input keys too generic to chain tools (every tool of a server takes them). */
const GENERIC_KEYS = new Set(["id", "name", "query", "q", "limit", "page", "per_page", "perpage", "offset", "cursor", "format", "type", "options", "data", "input", "text", "path"]);

/** Resource words of a tool name: its words without verbs and fillers, singular. */
export function resourceWords(name: string): string[] {
  const out: string[] = [];
  for (const w of splitIdentifier(name).toLowerCase().split(" ")) {
    if (w.length < 2 || NAME_VERBS.has(w) || /^\d+$/.test(w)) continue;
    out.push(w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w);
  }
  return out;
}

function requiredKeys(schema: JsonSchema | undefined): string[] {
  const r = schema?.required;
  return Array.isArray(r) ? r.filter((k): k is string => typeof k === "string") : [];
}

function propertyKeys(schema: JsonSchema | undefined): Set<string> {
  const p = schema?.properties;
  return new Set(p && typeof p === "object" ? Object.keys(p) : []);
}

/** The texts a successor can name its predecessor in: its description and its parameters' descriptions. */
function mentionText(t: ToolRecord): string {
  const parts = [t.description];
  const p = t.inputSchema?.properties;
  if (p && typeof p === "object")
    for (const v of Object.values(p as Record<string, unknown>)) {
      const d = (v as { description?: unknown } | null)?.description;
      if (typeof d === "string") parts.push(d);
    }
  return parts.join("\n");
}

/** Names listed in a tool's declarative `afterTool` preconditions (exact names and `prefix*` patterns). */
function afterToolPatterns(t: ToolRecord): string[] {
  const out: string[] = [];
  for (const p of t.preconditions) {
    if (typeof p === "function") continue;
    const a = (p as DeclarativePreconditions).afterTool;
    if (typeof a === "string") out.push(a);
    else if (Array.isArray(a)) out.push(...a.filter((x): x is string => typeof x === "string"));
  }
  return out;
}

/**
 * A name is worth looking for in another tool's text only when it cannot be an ordinary word: it holds a
 * separator or a case change ("read_file", "getIssue"), and is long enough not to occur by chance.
 */
function mentionable(name: string): boolean {
  return name.length >= 6 && /[_\-.]|[a-z][A-Z]/.test(name);
}

const NAME_CHAR = /[\w-]/;

/** Whether `text` names the tool as a whole word (not inside a longer identifier such as "read_file_v2"). */
function names(text: string, name: string): boolean {
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    const before = i > 0 ? text[i - 1] : " ";
    const after = i + name.length < text.length ? text[i + name.length] : " ";
    if (!NAME_CHAR.test(before) && !NAME_CHAR.test(after)) return true;
  }
  return false;
}

const graphs = new WeakMap<readonly ToolRecord[], CoUsage>();

/** The graph of a tool list, built on first use and kept while the list lives (a catalog change brings a new list). */
export function coUsageOf(tools: readonly ToolRecord[]): CoUsage {
  let g = graphs.get(tools);
  if (!g) graphs.set(tools, (g = CoUsage.fromTools(tools)));
  return g;
}

/** Groups tools by a key, keeping catalog order within each group. */
function groupBy(tools: readonly ToolRecord[], key: (t: ToolRecord) => string): Map<string, ToolRecord[]> {
  const out = new Map<string, ToolRecord[]>();
  for (const t of tools) {
    const k = key(t);
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

/**
 * The co-usage graph of a catalog: per tool, its likely successors, strongest first. A tool's successors are
 * worked out the first time it is asked about (from its own server's tools and the catalog's declared orders) and
 * kept: a route only ever asks about the few tools that just ran, so a 10,000-tool catalog costs nothing up front.
 */
export class CoUsage {
  private readonly byServer: Map<string, ToolRecord[]>;
  /** Per tool id, the tools that declare it (or a prefix pattern matching it) as `afterTool`. */
  private readonly declaredAfter = new Map<string, ToolRecord[]>();
  private readonly next = new Map<string, readonly Successor[]>();
  private readonly words = new Map<string, ReadonlySet<string>>();

  private constructor(private readonly tools: readonly ToolRecord[]) {
    this.byServer = groupBy(tools, (t) => t.server);
    const byName = groupBy(tools, (t) => t.name);
    for (const to of tools)
      for (const pattern of afterToolPatterns(to)) {
        // Exact names by lookup; a `prefix*` pattern scans the names.
        const from = pattern.endsWith("*") ? [...byName].filter(([n]) => n.startsWith(pattern.slice(0, -1))).flatMap(([, l]) => l) : (byName.get(pattern) ?? []);
        for (const f of from) {
          const list = this.declaredAfter.get(f.id);
          if (list) list.push(to);
          else this.declaredAfter.set(f.id, [to]);
        }
      }
  }

  /** The graph over a catalog's tools (quarantined ones should be left out by the caller). */
  static fromTools(tools: readonly ToolRecord[]): CoUsage {
    return new CoUsage(tools);
  }

  /** Likely successors of a tool, strongest first (empty for an unknown id). */
  successorsOf(id: string): readonly Successor[] {
    let out = this.next.get(id);
    if (!out) this.next.set(id, (out = this.compute(id)));
    return out;
  }

  private compute(id: string): readonly Successor[] {
    const from = this.tools[positionOf(this.tools, id)];
    if (!from) return [];
    const edges = new Map<string, Successor>();
    const add = (to: ToolRecord, edge: CoUsageEdge, share = 1) => {
      if (to.id === from.id) return;
      const weight = EDGE_WEIGHTS[edge] * share;
      const had = edges.get(to.id);
      if (!had || had.weight < weight) edges.set(to.id, { id: to.id, weight, edge });
    };
    // after-tool: declared order, across servers too.
    for (const to of this.declaredAfter.get(id) ?? []) add(to, "after-tool");
    // mentions, output-input and family: within one server (a server documents its own workflow; the same words
    // across servers say nothing about order).
    const group = this.byServer.get(from.server) ?? [];
    const mention = mentionable(from.name);
    const outputs = propertyKeys(from.outputSchema);
    const words = this.wordsOf(from);
    for (const to of group) {
      if (to.id === from.id) continue;
      if (mention && names(mentionText(to), from.name)) add(to, "mentions");
      if (outputs.size > 0 && requiredKeys(to.inputSchema).some((k) => outputs.has(k) && !GENERIC_KEYS.has(k.toLowerCase()))) add(to, "output-input");
      const theirs = this.wordsOf(to);
      if (words.size === 0 || theirs.size === 0) continue;
      let shared = 0;
      for (const w of theirs) if (words.has(w)) shared++;
      // The share of the resource in common: get_pull_request → merge_pull_request fully, → get_pull_request_files less.
      if (shared > 0) add(to, "family", shared / Math.max(words.size, theirs.size));
    }
    return [...edges.values()].sort((x, y) => y.weight - x.weight || (x.id < y.id ? -1 : 1)).slice(0, MAX_SUCCESSORS);
  }

  private wordsOf(t: ToolRecord): ReadonlySet<string> {
    let w = this.words.get(t.id);
    if (!w) this.words.set(t.id, (w = new Set(resourceWords(t.name))));
    return w;
  }

  /**
   * Score boosts by tool position (in the tools the graph was built from) for a route: each successor of a tool in
   * `after` gains `boost` × its edge weight, a tool that followed one of them earlier in the thread gains `boost`.
   * `resolve` maps what the thread calls a tool (name or id) to its record. Undefined when nothing is anticipated.
   */
  boosts(input: AnticipationInput, resolve: (nameOrId: string) => ToolRecord | undefined, boost: number): Map<number, number> | undefined {
    if (boost <= 0 || input.after.length === 0) return undefined;
    const out = new Map<number, number>();
    const just = new Set<string>();
    for (const a of input.after) {
      const id = resolve(a)?.id;
      if (id) just.add(id);
    }
    const raise = (id: string, weight: number) => {
      const i = positionOf(this.tools, id);
      if (i < 0 || just.has(id)) return;
      out.set(i, Math.max(out.get(i) ?? 0, boost * weight));
    };
    for (const id of just) for (const s of this.successorsOf(id)) raise(s.id, s.weight);
    for (const [from, to] of input.transitions ?? []) {
      const f = resolve(from)?.id;
      const t = resolve(to)?.id;
      if (f && t && just.has(f)) raise(t, EDGE_WEIGHTS.thread);
    }
    return out.size > 0 ? out : undefined;
  }
}

/** Thread transitions kept for a route: the most recent ones (a long thread must not grow every route's work). */
export const MAX_TRANSITIONS = 32;

/**
 * The tool pairs a thread called one after the other: each tool of a model turn's successful calls, followed by
 * each tool of the next such turn (a tool repeated is not a transition). `turns` is in thread order; the most
 * recent `MAX_TRANSITIONS` distinct pairs are kept.
 */
export function transitionsOf(turns: readonly (readonly string[])[]): [string, string][] {
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (let i = turns.length - 1; i > 0 && out.length < MAX_TRANSITIONS; i--)
    for (const from of turns[i - 1])
      for (const to of turns[i]) {
        const key = `${from}\0${to}`;
        if (from === to || seen.has(key) || out.length >= MAX_TRANSITIONS) continue;
        seen.add(key);
        out.push([from, to]);
      }
  return out;
}
