/**
 * The tool catalog: every tool normalized into a ToolRecord with a unique id, its full schema, tags,
 * preconditions, Phase-1 summary and routing text. Built once; routing only reads it.
 *
 * Bad entries never take the catalog down: a tool without a usable name is skipped, a malformed field is
 * repaired, and each case leaves a warning naming the server and the tool.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { JsonSchema, Precondition, ToolRecord, ToolSpec } from "../types.js";
import type { TokenEncoding } from "../tokens/count.js";
import { closestName, validatePreconditions } from "../preconditions/preconditions.js";
import { routingTextOf, summarizeTool } from "./text.js";
import { screenTool, type ScreeningFinding, type ScreeningReason, type ScreeningResult } from "../screening/screen.js";
import { resolveScreeningPolicy, policyServers, type ScreeningAction, type ScreeningPolicy } from "../screening/policy.js";
import { checkDescription, checkInputSchema, jsonSafe, stripControl } from "./input-checks.js";
import { toolNameProblem } from "./tool-name.js";

/** The shared catalog file format: `{"servers": [{"name", "description"?, "tools": [ToolSpec…]}]}`. */
export interface CatalogServer {
  name: string;
  description?: string;
  tools: ToolSpec[];
}
export interface CatalogFile {
  servers: CatalogServer[];
}

/** One tool as handed to the catalog builder, with where it came from. */
export interface CatalogEntry {
  server: string;
  spec: ToolSpec;
  /** The framework object behind the tool (e.g. a LangChain StructuredTool), kept for binding. */
  source?: unknown;
}

export interface CatalogOptions {
  /** Extra preconditions keyed by tool name or id; added to those the tool declares itself. */
  preconditions?: Record<string, Precondition | Precondition[]>;
  /** Extra tags keyed by tool name or id. */
  tags?: Record<string, string[]>;
  /** Encoding used to keep summaries within their token budget. Default cl100k_base. */
  encoding?: TokenEncoding;
  /** Called once per warning (default: collected in `catalog.warnings` only). */
  onWarning?: (message: string) => void;
  /**
   * Throw on configuration mistakes instead of repairing them with a warning: an invalid or misspelled
   * precondition, an `afterTool` naming no tool of the catalog, a `preconditions` or `tags` entry keyed by an
   * unknown tool. For catalogs built from application code (the adapters set it), where a mistake should stop
   * the application at start-up rather than gate a tool forever or never. Default false: catalog files and MCP
   * servers are third-party input, repaired with a warning naming the tool.
   */
  strict?: boolean;
  /**
   * Tool-poisoning screen over each tool's name, description and schemas (see `screenTool`). On by default: tool
   * descriptions reach the model verbatim, and a third-party MCP server (or a LangChain tool wrapping one) can
   * hide instructions in them. A flagged tool is quarantined: left out of the catalog, so it is never in the pool,
   * never routed and never active, and a call to it gets a "quarantined" error. `false` turns screening off.
   */
  screening?: ScreeningOptions | false;
  /**
   * Where quarantine notices go when there is no `onWarning`: default one line on stderr per tool (a tool that
   * silently disappears would be worse), `false` for none. They are in `catalog.warnings` either way.
   */
  log?: ((line: string) => void) | false;
  /**
   * Tools left out because their definition changed since it was approved (an MCP session's pinned definitions,
   * see `McpSessionOptions.pins`). Like quarantined tools they are never in the pool, never routed or active, and a
   * call to one gets an error saying it waits for approval. Default none.
   */
  held?: readonly HeldTool[];
}

/** A tool held out of the catalog until its changed definition is approved. */
export interface HeldTool {
  /** The name the model would call it by (server-qualified when it collides). */
  name: string;
  server: string;
  /** What differs from the approved definition: "description", "inputSchema", "name", or "new" (never approved). */
  changed: string[];
}

/**
 * Screening options. The policy fields (`categories`, `servers`, `threshold`, see `ScreeningPolicy`) decide what
 * each finding does; they are validated when the catalog is built.
 */
export interface ScreeningOptions extends ScreeningPolicy {
  /** Leave flagged tools out of the catalog. Default true; with false they stay and are only reported. */
  quarantine?: boolean;
  /**
   * Results computed beforehand, keyed by `screeningKey(server, name)`: what `screenTools()` returns after the
   * encoder (or a judge) has read the tools. Tools without an entry are screened here, with rules and the reader.
   */
  precomputed?: ReadonlyMap<string, ScreeningResult>;
  /** Tool names or ids kept despite a flag (a false positive you have checked). */
  allow?: string[];
  /** Called once per flagged tool, quarantined or kept. */
  onFlag?: (flag: ScreeningFlag) => void;
}

/** A tool the screen left out of the catalog, and why. */
export interface QuarantinedTool {
  id: string;
  name: string;
  server: string;
  reasons: ScreeningReason[];
  /** Set when the tool is held for approval of a changed definition rather than flagged by the screen. */
  held?: HeldTool;
}

/** A flagged tool: quarantined, or kept because screening does not quarantine or `allow` names it. */
export interface ScreeningFlag extends QuarantinedTool {
  quarantined: boolean;
  allowed: boolean;
  /** The findings behind the flag, each with the action the policy gave it. */
  findings: CatalogFinding[];
}

/** A finding with the action the policy gave it (see `ScreeningOptions.categories` and `.servers`). */
export interface CatalogFinding extends ScreeningFinding {
  action: ScreeningAction;
}

/** Key of a tool in `ScreeningOptions.precomputed`. */
export function screeningKey(server: string, name: string): string {
  return `${server}\0${name}`;
}

/** One line for a flagged tool: every rule that fired, then where the first one fired and an excerpt. */
export function describeReasons(reasons: readonly ScreeningReason[]): string {
  if (reasons.length === 0) return "";
  const first = reasons[0];
  const excerpt = first.excerpt.length > 120 ? `${first.excerpt.slice(0, 120)}…` : first.excerpt;
  return `${[...new Set(reasons.map((r) => r.rule))].join(", ")}; ${first.field}: "${excerpt}"`;
}

// A long-lived MCP session rebuilds its catalog on every tools/list_changed: say each quarantine once per process.
const loggedQuarantines = new Set<string>();

/** Own-property lookup: a tool named "constructor" must not pick up Object.prototype members. */
function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class ToolCatalog {
  readonly tools: readonly ToolRecord[];
  readonly warnings: string[] = [];
  /** Stable hash of what routing depends on (ids + routing texts): cache key for the embedded catalog. */
  readonly fingerprint: string;
  readonly servers: ReadonlyMap<string, string | undefined>;
  /** Tools the poisoning screen left out, with the reasons (empty when screening is off). */
  readonly quarantined: readonly QuarantinedTool[];
  /** Every tool the screen flagged, including those kept by `allow` or `quarantine: false`. */
  readonly flagged: readonly ScreeningFlag[];
  /**
   * Every finding at or above the threshold, with server, tool, field, sentence, category, score and the action the
   * policy gave it ("allow" findings of trusted servers or allowed categories included, for audit).
   */
  readonly findings: readonly CatalogFinding[];
  /** Tools held until a changed definition is approved (`CatalogOptions.held`). */
  readonly held: readonly HeldTool[];
  private readonly byId = new Map<string, ToolRecord>();
  private readonly quarantinedByName = new Map<string, QuarantinedTool>();
  private readonly byName = new Map<string, ToolRecord[]>();
  private readonly sources = new Map<string, unknown>();

  constructor(entries: CatalogEntry[], options: CatalogOptions = {}, serverDescriptions?: Map<string, string | undefined>) {
    const warn = (msg: string) => {
      this.warnings.push(msg);
      options.onWarning?.(msg);
    };
    const valid: CatalogEntry[] = [];
    const positionInServer = new Map<string, number>();
    entries.forEach((entry) => {
      const i = positionInServer.get(entry.server) ?? 0;
      positionInServer.set(entry.server, i + 1);
      const where = entry.server ? `server "${entry.server}"` : "catalog";
      if (!isPlainObject(entry.spec)) {
        warn(`${where}: tool #${i} skipped: expected an object, got ${entry.spec === null ? "null" : typeof entry.spec}`);
        return;
      }
      const name = entry.spec.name;
      if (typeof name !== "string" || name.trim() === "") {
        warn(`${where}: tool #${i} skipped: missing or empty "name"`);
        return;
      }
      valid.push(entry);
    });

    // Names that occur on more than one server get server-qualified ids; real catalogs do collide.
    const serversByName = new Map<string, Set<string>>();
    for (const e of valid) {
      const set = serversByName.get(e.spec.name) ?? new Set<string>();
      set.add(e.server);
      serversByName.set(e.spec.name, set);
    }

    const screening = options.screening === false ? undefined : (options.screening ?? {});
    const quarantine = screening?.quarantine ?? true;
    const allow = new Set(screening?.allow ?? []);
    // Misconfiguration is loud at construction, whatever the catalog's source.
    const policy = screening ? resolveScreeningPolicy(screening) : undefined;
    const findings: CatalogFinding[] = [];
    // Each tool is screened next to all the others, so "call X first" naming a tool of its own server is the
    // server's guidance while naming another server's tool is steering.
    const neighbours = valid.map((e) => ({ name: String(e.spec.name), server: e.server ?? "" }));
    const quarantined: QuarantinedTool[] = [];
    const flagged: ScreeningFlag[] = [];
    const log = options.log === false ? undefined : (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)));
    const notify = (msg: string) => {
      this.warnings.push(msg);
      if (options.onWarning) options.onWarning(msg);
      else if (log && !(options.log === undefined && loggedQuarantines.has(msg))) {
        if (options.log === undefined) loggedQuarantines.add(msg);
        log(`tool-attention: ${msg}`);
      }
    };

    const records: ToolRecord[] = [];
    for (const entry of valid) {
      const spec = entry.spec;
      // Never trimmed or rewritten: the gate and the middleware look tools up by the exact string (tool-name.ts);
      // a name they could not use is reported by toolNameProblem below.
      const name = spec.name;
      const server = entry.server ?? "";
      const label = server ? `server "${server}", tool "${name}"` : `tool "${name}"`;
      let id = (serversByName.get(spec.name)?.size ?? 1) > 1 && server ? `${server}__${name}` : name;
      if (this.byId.has(id)) {
        let n = 2;
        while (this.byId.has(`${id}__${n}`)) n++;
        warn(`${label}: duplicate definition; kept as id "${id}__${n}"`);
        id = `${id}__${n}`;
      }

      const badName = toolNameProblem(name);
      if (badName) warn(`${label}: ${badName}`);

      let description = "";
      if (typeof spec.description === "string") {
        const checked = checkDescription(spec.description);
        description = checked.description;
        for (const p of checked.problems) warn(`${label}: ${p}`);
      } else if (spec.description !== undefined && spec.description !== null)
        warn(`${label}: "description" is ${typeof spec.description}, not a string; ignored`);

      let inputSchema: JsonSchema | undefined;
      if (spec.inputSchema !== undefined) {
        if (isPlainObject(spec.inputSchema)) {
          const checked = checkInputSchema(spec.inputSchema);
          inputSchema = checked.schema;
          for (const p of checked.problems) warn(`${label}: ${p}`);
        } else warn(`${label}: "inputSchema" is not an object; replaced by an empty object schema`);
        if (!inputSchema) inputSchema = { type: "object", properties: {} };
      }
      const keptObject = (field: "outputSchema" | "annotations") => {
        const value = spec[field];
        if (!isPlainObject(value)) return undefined;
        const checked = jsonSafe(value);
        for (const p of checked.tooLarge ? [`${checked.problems[0]}; dropped`] : checked.problems) warn(`${label}: "${field}" ${p}`);
        return checked.tooLarge ? undefined : checked.value;
      };

      // Malformed preconditions go to validation below, which fails closed instead of dropping them.
      const preconditions: Precondition[] = [];
      if (spec.preconditions !== undefined && spec.preconditions !== null)
        preconditions.push(spec.preconditions as Precondition);
      const extra = own(options.preconditions, id) ?? own(options.preconditions, name);
      if (extra) preconditions.push(...(Array.isArray(extra) ? extra : [extra]));
      try {
        validatePreconditions({ id, preconditions });
      } catch (err) {
        if (options.strict) throw err;
        // Fail closed: a precondition that cannot be evaluated keeps the tool gated out, with the reason.
        const reason = `invalid precondition: ${(err as Error).message}`;
        warn(`${label}: ${reason}; the tool stays gated out until it is fixed`);
        preconditions.length = 0;
        preconditions.push(() => reason);
      }

      const tags = new Set<string>();
      if (Array.isArray(spec.tags)) for (const t of spec.tags) if (typeof t === "string") tags.add(t);
      if (spec.tags !== undefined && spec.tags !== null && (!Array.isArray(spec.tags) || spec.tags.some((t) => typeof t !== "string")))
        warn(`${label}: "tags" is not a list of strings; ${tags.size > 0 ? "kept its strings" : "ignored"}`);
      for (const t of own(options.tags, id) ?? own(options.tags, name) ?? []) tags.add(t);

      if (screening && policy) {
        const result = screening.precomputed?.get(screeningKey(server, spec.name)) ?? screenTool(spec, { server, tools: neighbours, threshold: policy.threshold });
        const acted: CatalogFinding[] = result.findings
          .filter((f) => f.score >= policy.threshold)
          .map((f) => ({ ...f, server, tool: name, action: policy.actionFor(server, f.category) }));
        findings.push(...acted);
        const live = acted.filter((f) => f.action !== "allow");
        const reasons = result.reasons.filter((r) => !r.category || policy.actionFor(server, r.category) !== "allow");
        if (live.length > 0 && reasons.length > 0) {
          const allowed = allow.has(id) || allow.has(name);
          const quarantines = live.some((f) => f.action === "quarantine");
          const flag: ScreeningFlag = { id, name, server, reasons, quarantined: quarantine && quarantines && !allowed, allowed, findings: live };
          flagged.push(flag);
          screening.onFlag?.(flag);
          const why = describeReasons(reasons);
          if (flag.quarantined) {
            const q: QuarantinedTool = { id, name, server, reasons };
            quarantined.push(q);
            if (!this.quarantinedByName.has(name)) this.quarantinedByName.set(name, q);
            this.quarantinedByName.set(id, this.quarantinedByName.get(id) ?? q);
            notify(
              `${label}: quarantined by tool screening (${why}); it is left out of the pool and cannot be called. ` +
                `If this is a false positive, keep it with screening: { allow: ["${name}"] }`,
            );
            continue;
          }
          if (!allowed)
            notify(`${label}: flagged by tool screening (${why}); kept because ${quarantines ? "screening.quarantine is false" : "the screening policy only warns for this category"}`);
        }
      }

      const record: ToolRecord = {
        id,
        name,
        server,
        description,
        inputSchema,
        outputSchema: keptObject("outputSchema"),
        annotations: keptObject("annotations"),
        tags: [...tags],
        preconditions,
        summary: summarizeTool(name, description, options.encoding, id),
        // A name or server name from a catalog file may still hold control characters: never into what is embedded or stored.
        routingText: stripControl(routingTextOf(name, server, description)),
      };
      records.push(record);
      this.byId.set(id, record);
      const list = this.byName.get(name) ?? [];
      list.push(record);
      this.byName.set(name, list);
      if (entry.source !== undefined) this.sources.set(id, entry.source);
    }

    // Held tools answer like quarantined ones (quarantineOf), but are not screening results: not in `quarantined`.
    for (const h of options.held ?? []) {
      if (this.byName.has(h.name) || this.byId.has(h.name)) continue;
      const reasons: ScreeningReason[] = h.changed.map((field) => ({ rule: "definition-changed", field, excerpt: "" }));
      this.quarantinedByName.set(h.name, { id: h.name, name: h.name, server: h.server, reasons, held: h });
    }
    this.held = [...(options.held ?? [])];
    this.tools = records;
    this.quarantined = quarantined;
    this.flagged = flagged;
    this.findings = findings;
    this.checkReferences(options, warn);
    const servers = new Map<string, string | undefined>(serverDescriptions ?? []);
    for (const r of records) if (!servers.has(r.server)) servers.set(r.server, undefined);
    this.servers = servers;
    const h = createHash("sha256");
    for (const r of records) h.update(r.id).update("\0").update(r.routingText).update("\n");
    this.fingerprint = h.digest("hex").slice(0, 16);
  }

  /**
   * Names the catalog cannot resolve: `afterTool` patterns no tool matches (the tool would stay gated forever) and
   * `preconditions` / `tags` entries keyed by no tool (never applied). Strict catalogs throw, others warn.
   */
  private checkReferences(options: CatalogOptions, warn: (msg: string) => void): void {
    const problem = (msg: string) => {
      if (options.strict) throw new Error(msg);
      warn(msg);
    };
    const names = [...this.byName.keys()];
    const known = (pattern: string) =>
      pattern.endsWith("*") ? names.some((n) => n.startsWith(pattern.slice(0, -1))) : this.byName.has(pattern) || this.byId.has(pattern);
    const hint = (name: string) => {
      const near = closestName(name, names);
      return near ? ` (did you mean "${near}"?)` : "";
    };
    for (const t of this.tools)
      for (const p of t.preconditions) {
        if (typeof p === "function" || p.afterTool === undefined) continue;
        const patterns = Array.isArray(p.afterTool) ? p.afterTool : [p.afterTool];
        // Only warn: the catalog is fine, the poisoned tool is what is missing (and may be allowed once checked).
        for (const pattern of patterns)
          if (!known(pattern) && this.quarantinedByName.has(pattern))
            warn(`Tool "${t.id}": precondition field "afterTool" names "${pattern}", which was quarantined by tool screening; the tool stays gated out until "${pattern}" is allowed`);
        for (const pattern of patterns)
          if (!known(pattern) && !this.quarantinedByName.has(pattern))
            problem(
              `Tool "${t.id}": precondition field "afterTool" names "${pattern}", which is not in the catalog${hint(pattern)}; ` +
                `the tool would stay gated out`,
            );
      }
    // Entries for tools the catalog does not have yet can only be judged when the catalog is built from code.
    if (!options.strict) return;
    for (const [field, record] of [["preconditions", options.preconditions], ["tags", options.tags]] as const)
      for (const key of Object.keys(record ?? {}))
        if (!this.byId.has(key) && !this.byName.has(key) && !this.quarantinedByName.has(key))
          problem(`Option "${field}" names tool "${key}", which is not in the catalog${hint(key)}`);
    if (options.screening) {
      // A misspelt allow entry usually means a quarantined tool the user meant to keep: suggest those names too.
      const candidates = [...names, ...[...this.quarantinedByName.values()].map((q) => q.name)];
      const serverNames = new Set(this.tools.map((t) => t.server).concat(this.quarantined.map((q) => q.server)));
      for (const server of policyServers(options.screening))
        if (!serverNames.has(server)) {
          const near = closestName(server, [...serverNames]);
          problem(`Option "screening.servers" names server "${server}", which is not in the catalog${near ? ` (did you mean "${near}"?)` : ""}`);
        }
      for (const key of options.screening.allow ?? [])
        if (!this.byId.has(key) && !this.byName.has(key)) {
          const near = closestName(key, candidates);
          problem(`Option "screening.allow" names tool "${key}", which is not in the catalog${near ? ` (did you mean "${near}"?)` : ""}`);
        }
    }
  }

  get size(): number {
    return this.tools.length;
  }

  getById(id: string): ToolRecord | undefined {
    return this.byId.get(id);
  }

  /** All tools with this name (more than one when servers collide). */
  getByName(name: string): readonly ToolRecord[] {
    return this.byName.get(name) ?? [];
  }

  /** Resolves what a model or user calls a tool: an id first, then a name. */
  resolve(nameOrId: string): ToolRecord | undefined {
    return this.byId.get(nameOrId) ?? this.byName.get(nameOrId)?.[0];
  }

  /**
   * The quarantine entry for a name or id the model might call, when the screen left that tool out and no tool
   * of the catalog answers to it.
   */
  quarantineOf(nameOrId: string): QuarantinedTool | undefined {
    if (this.byId.has(nameOrId) || this.byName.has(nameOrId)) return undefined;
    return this.quarantinedByName.get(nameOrId);
  }

  /** The framework object behind a tool, when the catalog was built from one. */
  sourceOf(id: string): unknown {
    return this.sources.get(id);
  }

  /** Builds a catalog from the shared file format (already parsed). */
  static fromCatalogObject(data: unknown, options: CatalogOptions = {}): ToolCatalog {
    if (!isPlainObject(data) || !Array.isArray(data.servers))
      throw new Error(`Invalid catalog: expected {"servers": [{"name", "tools": [...]}]}`);
    const entries: CatalogEntry[] = [];
    const descriptions = new Map<string, string | undefined>();
    const early: string[] = [];
    data.servers.forEach((server: unknown, i: number) => {
      if (!isPlainObject(server)) {
        early.push(`catalog: server #${i} skipped: expected an object`);
        return;
      }
      const name = typeof server.name === "string" ? server.name : `server${i}`;
      if (typeof server.name !== "string") early.push(`catalog: server #${i} has no "name"; called "${name}"`);
      let description: string | undefined;
      if (typeof server.description === "string") {
        const checked = checkDescription(server.description);
        description = checked.description;
        for (const p of checked.problems) early.push(`server "${name}": ${p}`);
      }
      descriptions.set(name, description);
      if (server.description !== undefined && server.description !== null && typeof server.description !== "string")
        early.push(`server "${name}": "description" is ${Array.isArray(server.description) ? "an array" : typeof server.description}, not a string; ignored`);
      if (!Array.isArray(server.tools)) {
        early.push(`server "${name}": "tools" is not an array; no tools taken from it`);
        return;
      }
      for (const spec of server.tools) entries.push({ server: name, spec: spec as ToolSpec });
    });
    const catalog = new ToolCatalog(entries, options, descriptions);
    for (const w of early) {
      catalog.warnings.unshift(w);
      options.onWarning?.(w);
    }
    return catalog;
  }

  /** Reads a catalog file in the shared format. Errors name the file. */
  static fromFile(path: string, options: CatalogOptions = {}): ToolCatalog {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path, "utf8"));
    } catch (err) {
      throw new Error(`Cannot read catalog ${path}: ${(err as Error).message}`);
    }
    try {
      return ToolCatalog.fromCatalogObject(data, options);
    } catch (err) {
      throw new Error(`${path}: ${(err as Error).message}`);
    }
  }

  /** Builds a catalog from MCP `tools/list` results, one list per server. */
  static fromMcpTools(servers: Record<string, ToolSpec[]>, options: CatalogOptions = {}): ToolCatalog {
    const entries: CatalogEntry[] = [];
    for (const [server, tools] of Object.entries(servers))
      for (const spec of tools) entries.push({ server, spec, source: spec });
    return new ToolCatalog(entries, options);
  }
}
