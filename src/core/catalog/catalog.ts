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
import { BackgroundScreening, type PendingTool, type ScreenContext } from "./background-screening.js";
import { screeningCacheKey, type ScreeningCache } from "./screening-cache.js";

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
   * Screen in the background instead of in the constructor (see the class comment, "Progressive screening"): the
   * catalog is routable at once, every tool is screened before anything shows it to the model, and the rest is
   * screened in slices of a few milliseconds between other work. `true` forces it, `false` screens every tool in
   * the constructor (what a report such as the audit needs). Default: on from `PROGRESSIVE_SCREENING_MIN_TOOLS`
   * tools (screening takes about 0.6 ms per tool, seconds on such catalogs). `true` with `screening: false` is a
   * contradiction and throws.
   */
  progressiveScreening?: boolean;
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
  /**
   * Where the screen's verdicts on this catalog are kept between processes (screening-cache.ts): a catalog screened
   * before, with the same definitions and rules, reads them instead of screening. The adapters keep them under
   * `<cacheDir>/screening/`. Not read when `precomputed` is given.
   */
  cache?: ScreeningCache;
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

/**
 * Catalogs of at least this many tools screen progressively by default (`CatalogOptions.progressiveScreening`).
 * Screening costs about 0.6 ms per tool on 2 cores: 1.2 s at 2,000 tools, 6 s at 10,000, time during which a
 * catalog screened in its constructor could not route. Below it the constructor screens everything, as it always did.
 */
export const PROGRESSIVE_SCREENING_MIN_TOOLS = 2_000;

/** Where a catalog's screening stands (`ToolCatalog.screeningProgress`). */
export interface ScreeningProgress {
  /** Tools whose screening is still pending (0 once screening is done, and always with up-front screening). */
  pending: number;
  /** Tools screened so far (all of them with up-front screening; 0 when screening is off). */
  screened: number;
  /** Tools left out so far by the screen (`quarantined.length`). */
  quarantined: number;
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

/**
 * Progressive screening. A large catalog (`progressiveScreening`) is built with its screening pending: every tool is
 * a record at once, so the catalog can be indexed and routed while the screen reads the definitions in the
 * background (`whenScreened`). A definition is never shown to the model unscreened: each lookup (`getById`,
 * `getByName`, `resolve`, `quarantineOf`) and `isVisible` screens the tool first, synchronously, if it has not been
 * (under a millisecond; each verdict is kept), and a tool flagged then is quarantined exactly as in the constructor:
 * lookups no longer find it, a call to it gets the quarantine error, `onFlag` and the warning fire. Such a tool
 * keeps its place in `tools` (the routing indexes are built on those positions) but is never listed, routed or
 * resolved: see `isVisible` and `listed`. After `whenScreened()` the catalog's lists (`quarantined`, `flagged`,
 * `findings`) are complete and in catalog order, the same as with up-front screening.
 */
export class ToolCatalog {
  /**
   * Every tool the catalog routes over, in catalog order. With progressive screening, also tools not screened yet,
   * and one the screen quarantined later keeps its place (check `isVisible`, or read `listed`).
   */
  readonly tools: readonly ToolRecord[];
  readonly warnings: string[] = [];
  /** Stable hash of what routing depends on (ids + routing texts): cache key for the embedded catalog. */
  readonly fingerprint: string;
  readonly servers: ReadonlyMap<string, string | undefined>;
  /**
   * Tools the poisoning screen left out, with the reasons (empty when screening is off). While screening is pending
   * it holds the tools screened so far; complete once `whenScreened()` resolves.
   */
  readonly quarantined: readonly QuarantinedTool[];
  /** Every tool the screen flagged, including those kept by `allow` or `quarantine: false` (complete like `quarantined`). */
  readonly flagged: readonly ScreeningFlag[];
  /**
   * Every finding at or above the threshold, with server, tool, field, sentence, category, score and the action the
   * policy gave it ("allow" findings of trusted servers or allowed categories included, for audit). Complete like
   * `quarantined`.
   */
  readonly findings: readonly CatalogFinding[];
  /**
   * Incremented each time pending screening quarantines a tool: what was rendered from the catalog before (the pool)
   * is to be rendered again. Stays 0 with up-front screening.
   */
  revision = 0;
  /** Tools held until a changed definition is approved (`CatalogOptions.held`). */
  readonly held: readonly HeldTool[];
  private readonly byId = new Map<string, ToolRecord>();
  private readonly quarantinedByName = new Map<string, QuarantinedTool>();
  private readonly byName = new Map<string, ToolRecord[]>();
  private readonly sources = new Map<string, unknown>();
  /** Tools whose screening is pending, by id, in catalog order (the background screens them in that order). */
  private readonly pending = new Map<string, PendingTool>();
  /** Ids of tools pending screening quarantined (they stay in `tools`). */
  private readonly hidden = new Set<string>();
  /** Judges a screening result for one tool (set when screening is on). */
  private judge?: (result: ScreeningResult, tool: { id: string; name: string; server: string; label: string }) => boolean;
  /** Screens one pending tool (set when screening is on). */
  private screenSpec?: (spec: ToolSpec, server: string) => ScreeningResult;
  private screenedCount = 0;
  private listedMemo?: { revision: number; tools: readonly ToolRecord[] };
  /** Screens the pending tools in the background (background-screening.ts); undefined when none was pending. */
  private readonly background?: BackgroundScreening;
  /** What the screening thread screens the tools next to (set when screening is on). */
  private screenContext?: ScreenContext;
  /** This catalog's verdicts as they come, for `ScreeningOptions.cache` (undefined once kept, or when not collected). */
  private verdicts?: { cache: ScreeningCache; key: string; results: Map<string, ScreeningResult>; expected: number };
  /** Position of each screened or pending tool among the catalog's entries: the order of the lists once complete. */
  private order = new Map<string, number>();
  /** The tool id of each finding (findings name the tool, which is not unique). */
  private readonly findingOf = new WeakMap<CatalogFinding, string>();
  private readonly onWarning: (message: string) => void;

  constructor(entries: CatalogEntry[], options: CatalogOptions = {}, serverDescriptions?: Map<string, string | undefined>) {
    const warn = (msg: string) => {
      this.warnings.push(msg);
      options.onWarning?.(msg);
    };
    this.onWarning = warn;
    if (options.progressiveScreening !== undefined && typeof options.progressiveScreening !== "boolean")
      throw new Error(`Invalid catalog option "progressiveScreening": ${JSON.stringify(options.progressiveScreening)} (expected true, false or nothing)`);
    if (options.progressiveScreening === true && options.screening === false)
      throw new Error(`Catalog options "progressiveScreening: true" and "screening: false" contradict each other: remove one`);
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

    // The screen's verdict on one tool, the same whenever it runs (in this loop or later, for a pending tool): flags,
    // findings, notices, and whether the tool is quarantined (true).
    const order = new Map<string, number>();
    this.order = order;
    const screenSpec = (spec: ToolSpec, server: string) => screenTool(spec, { server, tools: neighbours, threshold: policy!.threshold });
    // Verdicts kept from an earlier process on this very catalog serve as precomputed ones; otherwise this one's are
    // collected (only when every tool has its own key: a repeated server and name would share one).
    const keys = screening?.cache && !screening.precomputed && policy ? new Set(neighbours.map((t) => screeningKey(t.server, t.name))) : undefined;
    const cacheKey = keys && keys.size === valid.length ? screeningCacheKey(valid, policy!.threshold) : undefined;
    const kept = cacheKey ? screening!.cache!.get(cacheKey) : undefined;
    const precomputed = screening?.precomputed ?? (kept && [...keys!].every((k) => kept.has(k)) ? kept : undefined);
    if (cacheKey && !precomputed) this.verdicts = { cache: screening!.cache!, key: cacheKey, results: new Map(), expected: valid.length };
    const judge = (result: ScreeningResult, tool: { id: string; name: string; server: string; label: string }): boolean => {
      const { id, name, server, label } = tool;
      this.screenedCount++;
      this.keepVerdict(screeningKey(server, name), result);
      const acted: CatalogFinding[] = result.findings
        .filter((f) => f.score >= policy!.threshold)
        .map((f) => ({ ...f, server, tool: name, action: policy!.actionFor(server, f.category) }));
      findings.push(...acted);
      for (const f of acted) this.findingOf.set(f, id);
      const live = acted.filter((f) => f.action !== "allow");
      const reasons = result.reasons.filter((r) => !r.category || policy!.actionFor(server, r.category) !== "allow");
      if (live.length === 0 || reasons.length === 0) return false;
      const allowed = allow.has(id) || allow.has(name);
      const quarantines = live.some((f) => f.action === "quarantine");
      const flag: ScreeningFlag = { id, name, server, reasons, quarantined: quarantine && quarantines && !allowed, allowed, findings: live };
      flagged.push(flag);
      screening!.onFlag?.(flag);
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
        return true;
      }
      if (!allowed)
        notify(`${label}: flagged by tool screening (${why}); kept because ${quarantines ? "screening.quarantine is false" : "the screening policy only warns for this category"}`);
      return false;
    };
    if (screening && policy) {
      this.judge = judge;
      this.screenSpec = screenSpec;
      this.screenContext = { neighbours, threshold: policy.threshold };
    }
    const progressive = screening !== undefined && (options.progressiveScreening ?? valid.length >= PROGRESSIVE_SCREENING_MIN_TOOLS);

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

      let pendingHere: PendingTool | undefined;
      if (screening && policy) {
        const known = precomputed?.get(screeningKey(server, spec.name));
        order.set(id, order.size);
        if (progressive && !known) pendingHere = { spec, server, label };
        else if (judge(known ?? screenSpec(spec, server), { id, name, server, label })) continue;
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
      if (pendingHere) this.pending.set(id, pendingHere);
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
    // The background starts once this turn of the event loop is over, unless a router defers it (deferScreening).
    if (this.pending.size > 0) this.background = new BackgroundScreening(this.pending, this.screenContext!, (id, result) => this.screenNow(id, result));
  }

  /**
   * Starts the background screening only when `until` settles, unless it has started already or someone waits for it
   * (`whenScreened`). A router defers it to after its first route: copying the definitions to the screening thread
   * and its work would otherwise compete with the router's own start for the first seconds. Lookups screen on demand
   * meanwhile, as always.
   */
  deferScreening(until: Promise<unknown>): void {
    this.background?.defer(until);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Progressive screening (see the class comment)
  // ---------------------------------------------------------------------------------------------------------

  /** Where screening stands: tools pending, screened and quarantined so far. Cheap. */
  screeningProgress(): ScreeningProgress {
    return { pending: this.pending.size, screened: this.screenedCount, quarantined: this.quarantined.length };
  }

  /**
   * Whether `tool` (a record of this catalog) may be shown to the model: screens it now if its screening is pending,
   * and answers false when the screen quarantined it. Cheap once the tool is screened. With `screen: false` it answers
   * from what is known so far (a tool still pending counts as visible): for lists that are not shown to the model.
   */
  isVisible(tool: ToolRecord, screen = true): boolean {
    if (screen && this.pending.has(tool.id)) this.screenNow(tool.id);
    return !this.hidden.has(tool.id);
  }

  /**
   * The tools not quarantined so far, in catalog order: `tools` without those pending screening quarantined. Tools
   * still pending are in it (unscreened: call `isVisible` before showing one). The same array until the next
   * quarantine (`revision`).
   */
  get listed(): readonly ToolRecord[] {
    if (this.hidden.size === 0) return this.tools;
    if (this.listedMemo?.revision !== this.revision) this.listedMemo = { revision: this.revision, tools: this.tools.filter((t) => !this.hidden.has(t.id)) };
    return this.listedMemo.tools;
  }

  /**
   * Whether `name` belongs to the catalog: the name of one of its tools (screened or not yet), or of a tool the screen
   * quarantined or a held one. Never screens: for telling the catalog's tools from an application's own.
   */
  covers(name: string): boolean {
    return this.byName.has(name) || this.quarantinedByName.has(name);
  }

  /** Screens every tool still pending, now, synchronously (a report needs the whole verdict). */
  screenAll(): void {
    for (const id of [...this.pending.keys()]) this.screenNow(id);
  }

  /**
   * Resolves once every tool is screened (at once when none is pending). Screening runs in the background in slices
   * of a few milliseconds; it is started again if `stopScreening` paused it. While a caller waits, the slices keep
   * the process alive (otherwise they never do). `start: false` only listens: it neither starts the background nor
   * keeps the process alive.
   */
  whenScreened(options: { start?: boolean } = {}): Promise<void> {
    if (this.pending.size === 0 || !this.background) return Promise.resolve();
    return this.background.whenDone(options);
  }


  /**
   * Stops the background screening (a router's `close()` calls it); a `whenScreened()` waiting rejects. Lookups
   * still screen the tools they return, and a later `whenScreened()` starts the background again.
   */
  stopScreening(): void {
    this.background?.stop();
  }

  /** Screens one pending tool and, when the screen quarantines it, takes it out of every lookup. */
  private screenNow(id: string, result?: ScreeningResult): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    const record = this.byId.get(id)!;
    const quarantined = this.judge!(result ?? this.screenSpec!(p.spec, p.server), { id, name: record.name, server: p.server, label: p.label });
    if (quarantined) this.hideLate(record);
    if (this.pending.size === 0) this.screeningDone();
  }

  /** A tool quarantined after the catalog was built: out of every lookup, its place in `tools` kept. */
  private hideLate(record: ToolRecord): void {
    this.hidden.add(record.id);
    this.byId.delete(record.id);
    const same = (this.byName.get(record.name) ?? []).filter((t) => t !== record);
    if (same.length > 0) this.byName.set(record.name, same);
    else this.byName.delete(record.name);
    this.revision++;
    // What the constructor says about a precondition naming a quarantined tool, said now.
    for (const t of this.tools)
      for (const p of t.preconditions) {
        if (typeof p === "function" || p.afterTool === undefined || this.hidden.has(t.id)) continue;
        for (const pattern of Array.isArray(p.afterTool) ? p.afterTool : [p.afterTool])
          if ((pattern === record.name || pattern === record.id) && !this.byId.has(pattern) && !this.byName.has(pattern))
            this.onWarning(`Tool "${t.id}": precondition field "afterTool" names "${pattern}", which was quarantined by tool screening; the tool stays gated out until "${pattern}" is allowed`);
      }
  }

  /** Collects one verdict; with the catalog's last one, keeps them all in `ScreeningOptions.cache`. */
  private keepVerdict(key: string, result: ScreeningResult): void {
    const v = this.verdicts;
    if (!v) return;
    v.results.set(key, result);
    if (v.results.size < v.expected) return;
    this.verdicts = undefined;
    v.cache.set(v.key, v.results);
  }

  /** Every tool screened: the lists in catalog order (as up-front screening leaves them), and the waiters released. */
  private screeningDone(): void {
    const pos = (id: string) => this.order.get(id) ?? Number.MAX_SAFE_INTEGER;
    const sortBy = <T>(list: readonly T[], idOf: (x: T) => string) => {
      const sorted = [...list].sort((a, b) => pos(idOf(a)) - pos(idOf(b)));
      (list as T[]).splice(0, list.length, ...sorted);
    };
    sortBy(this.quarantined, (q) => q.id);
    sortBy(this.flagged, (f) => f.id);
    sortBy(this.findings, (f) => this.findingOf.get(f) ?? "");
    this.background?.finish();
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

  /** The tool with this id (screened first if its screening is pending: a quarantined tool is not found). */
  getById(id: string): ToolRecord | undefined {
    if (this.pending.has(id)) this.screenNow(id);
    return this.byId.get(id);
  }

  /** All tools with this name (more than one when servers collide), each screened first like `getById`. */
  getByName(name: string): readonly ToolRecord[] {
    const list = this.byName.get(name);
    if (list && this.pending.size > 0) for (const t of list) if (this.pending.has(t.id)) this.screenNow(t.id);
    return this.byName.get(name) ?? [];
  }

  /** Resolves what a model or user calls a tool: an id first, then a name (screened first like `getById`). */
  resolve(nameOrId: string): ToolRecord | undefined {
    return this.getById(nameOrId) ?? this.getByName(nameOrId)[0];
  }

  /**
   * The quarantine entry for a name or id the model might call, when the screen left that tool out and no tool
   * of the catalog answers to it.
   */
  quarantineOf(nameOrId: string): QuarantinedTool | undefined {
    if (this.getById(nameOrId) || this.getByName(nameOrId).length > 0) return undefined;
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
