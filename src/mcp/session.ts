/**
 * A set of live MCP servers seen as one routed tool catalog.
 *
 * - Start from an MCP config file (`McpSession.start`) or from a `MultiServerMCPClient` you already have
 *   (`McpSession.fromMultiServerClient`). Either way each server's `tools/list` is read tolerantly and the
 *   catalog keeps what the server declared (raw inputSchema, outputSchema, annotations).
 * - `tools()` are LangChain tools that execute through the MCP client; the middleware only routes and gates.
 * - `notifications/tools/list_changed` re-lists that server and updates the catalog and every attached router
 *   incrementally (only added or changed tools are embedded again; removed tools leave the active set at once).
 * - A server that fails to start is reported with its stderr tail (redacted, to the operator) and left out; one that
 *   dies later keeps its tools in the catalog, and each call to them gets an error result naming the server and why
 *   it is down. The server's stderr never goes into what the model reads.
 * - Each server's `tools/list` is bounded (`listLimits`: tools, bytes, time, pages); a server past a bound fails
 *   alone, with an error naming it and the bound.
 * - A server the session started that dies is started again with exponential backoff (`restart`); once it is up,
 *   its tools are listed again and any difference reaches the catalog and every attached router, as a
 *   list_changed would. Calls made while it is down get an error saying it is restarting.
 * - Every tool definition the user approved is pinned (`pins`): on connect, on list_changed and after a restart, a
 *   tool whose definition differs from its pin is held out of the catalog, as a quarantined tool is, until
 *   `approve()` (or `tool-attention audit --approve`) pins the new definition.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolCatalog, type CatalogEntry, type CatalogOptions } from "../core/catalog/catalog.js";
import { ToolAttentionRouter, type RouterOptions } from "../core/router/router.js";
import type { SchemaFetcher } from "../core/loader/schema-loader.js";
import type { JsonSchema } from "../core/types.js";
import { loadMcpConfig, type McpConfig } from "./config.js";
import { McpServerConnection, type McpConnectOptions, type McpServerFailure } from "./connection.js";
import { resolveListLimits, type McpListResult } from "./list-tools.js";
import { mcpToolFor, type McpToolBinding } from "./tools.js";
import { checkPins, definitionHash, pinSource, PinStore, resolvePinOptions, type Pin, type PinCheck, type PinnedDefinition, type PinOptions, type ResolvedPinOptions } from "./pins.js";
import type { HeldTool } from "../core/catalog/catalog.js";

export interface McpSessionOptions extends McpConnectOptions {
  /** Options for the catalog built from the servers' tools (extra preconditions, tags, encoding). */
  catalog?: CatalogOptions;
  /**
   * Leave input schemas out of the catalog: the router's schema loader then fetches them from the live
   * server's `tools/list` when a tool becomes active (through its LRU). Default false.
   */
  lazySchemas?: boolean;
  /**
   * Repaired tools and skipped tools, one line each. Default: collected in `warnings`, and a tool left out (an
   * invalid name, an unusable schema, a name taken by another server) is also said once on stderr, since a tool that
   * silently disappears would be worse.
   */
  onWarning?: (message: string) => void;
  /** A server failed to start, list, or died. Default: one line on stderr. */
  onServerFailure?: (failure: McpServerFailure) => void;
  /** Per-call timeout for tool calls (ms). Default 60,000. */
  callTimeoutMs?: number;
  /**
   * Restart servers this session started (from a config) when they die: after 0.25 s, then 0.5 s, 1 s… up to
   * `maxDelayMs`, at most `maxAttempts` times in a row. `false`: a dead server stays dead. Default on.
   */
  restart?: McpRestartOptions | false;
  /** A dead server is back (restarted and listed again). Default: one line on stderr. */
  onRestart?: (event: McpRestartEvent) => void;
  /**
   * Pinned tool definitions (see `PinOptions`: `dir`, `changed`, `added`). Default: pins in
   * `<cache dir>/mcp-pins.json`, changed definitions held, new tools trusted on first use. `false`: the same
   * policy with pins kept in memory for this process.
   */
  pins?: PinOptions | false;
}

/** A tool held out of the catalog until its definition is approved (`McpSession.heldTools()`). */
export interface McpHeldTool {
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** The name it has in the catalog once approved (server-qualified when it collides). */
  name: string;
  /** The approved definition, or undefined for a tool never approved. */
  previous?: PinnedDefinition;
  /** What the server lists now. */
  current: PinnedDefinition;
  /** "description", "inputSchema", "name", or "new". */
  changed: string[];
}

/** Backoff of server restarts (see `McpSessionOptions.restart`). */
export interface McpRestartOptions {
  /** Delay before the first attempt (ms). Default 250. */
  initialDelayMs?: number;
  /** Each further attempt waits this many times longer. Default 2. */
  factor?: number;
  /** Longest delay between attempts (ms). Default 30,000. */
  maxDelayMs?: number;
  /** Attempts in a row before giving up (the server is then reported failed, phase "restart"). Default 8. */
  maxAttempts?: number;
  /**
   * A restarted server that stays up this long starts its next outage from the first delay again; one that dies
   * sooner continues the backoff where it was, so a server that crashes on start is not restarted forever.
   * Default 60,000 ms.
   */
  resetAfterMs?: number;
}

/** A restarted server, as reported to `onRestart`. */
export interface McpRestartEvent {
  server: string;
  /** Which attempt of this outage succeeded (1 = the first). */
  attempt: number;
  /** Milliseconds from the server's death to its tools being listed again. */
  downMs: number;
  /** Milliseconds the successful attempt took to start and initialize the server. */
  startMs: number;
  /** Tools the server lists now. */
  tools: number;
  /** What changed in the catalog, by tool name (usually nothing: the same tools are back). */
  added: string[];
  changed: string[];
  removed: string[];
}

const DEFAULT_RESTART: Required<McpRestartOptions> = {
  initialDelayMs: 250,
  factor: 2,
  maxDelayMs: 30_000,
  maxAttempts: 8,
  resetAfterMs: 60_000,
};

/** The restart delays of one outage, in order (exported for reports and tests). */
export function restartDelays(options: McpRestartOptions = {}): number[] {
  const o = { ...DEFAULT_RESTART, ...options };
  return Array.from({ length: o.maxAttempts }, (_, i) => Math.min(o.maxDelayMs, Math.round(o.initialDelayMs * o.factor ** i)));
}

/** What one catalog update changed, by tool name. */
export interface McpCatalogChange {
  server: string;
  catalog: ToolCatalog;
  added: string[];
  changed: string[];
  removed: string[];
}

/** The minimal `MultiServerMCPClient` surface used here (from `@langchain/mcp-adapters`). */
export interface MultiServerClientLike {
  readonly config: { mcpServers: Record<string, unknown> };
  getClient(serverName: string): Promise<Client | undefined>;
}

/** A router attached to a session: receives each catalog change. */
export interface CatalogReplaceable {
  replaceCatalog(next: ToolCatalog): Promise<unknown>;
}

export class McpSession {
  readonly connections = new Map<string, McpServerConnection>();
  /** Repairs and skips, one line each, naming server and tool. */
  readonly warnings: string[] = [];
  private listings = new Map<string, McpListResult>();
  private bindings = new Map<string, McpToolBinding>();
  private toolCache = new Map<string, { key: string; tool: StructuredToolInterface }>();
  private currentCatalog: ToolCatalog;
  private readonly routers = new Set<CatalogReplaceable>();
  private readonly listeners = new Set<(change: McpCatalogChange) => void>();
  private queue: Promise<void> = Promise.resolve();
  private readonly restartPolicy?: Required<McpRestartOptions>;
  /** Per server: consecutive restart attempts and when it last came back (for the backoff across outages). */
  private readonly restartHistory = new Map<string, { attempts: number; upAt: number }>();
  /** Servers with a restart loop running, and the timers it waits on (cleared by close). */
  private readonly restarting = new Set<string>();
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;
  /** Catalog warnings already passed on. */
  private readonly reported = new Set<string>();
  /** Skipped tools already said on stderr (a re-list says them again otherwise). */
  private readonly logged = new Set<string>();
  private readonly pinPolicy: ResolvedPinOptions;
  private pins: PinStore;
  /** Held tools per server, as the last rebuild found them. */
  private held = new Map<string, McpHeldTool[]>();
  /** Held definitions already warned about (server, tool, hash of what it lists now). */
  private readonly heldWarned = new Set<string>();

  private constructor(private readonly options: McpSessionOptions) {
    resolveListLimits(options.listLimits);
    this.pinPolicy = resolvePinOptions(options.pins);
    this.pins = new PinStore(this.pinPolicy.dir);
    this.currentCatalog = new ToolCatalog([], options.catalog);
    if (options.restart !== false) {
      const policy = { ...DEFAULT_RESTART, ...options.restart };
      for (const [key, min] of [["initialDelayMs", 0], ["factor", 1], ["maxDelayMs", 0], ["maxAttempts", 0], ["resetAfterMs", 0]] as const)
        if (typeof policy[key] !== "number" || !Number.isFinite(policy[key]) || policy[key] < min)
          throw new Error(`Invalid restart.${key}: ${policy[key]} (expected a number ≥ ${min})`);
      this.restartPolicy = policy;
    }
  }

  /** Starts every server of a config (or config file) in parallel and lists their tools. Never throws for one server. */
  static async start(config: McpConfig | string, options: McpSessionOptions = {}): Promise<McpSession> {
    const parsed = typeof config === "string" ? loadMcpConfig(config) : config;
    const session = new McpSession(options);
    const names = Object.keys(parsed.servers);
    const conns = await Promise.all(names.map((n) => McpServerConnection.connect(n, parsed.servers[n], options)));
    names.forEach((n, i) => session.connections.set(n, conns[i]));
    await session.openPins(conns);
    await session.initialize();
    return session;
  }

  /**
   * Uses the clients of an existing `MultiServerMCPClient`. Tools are listed again from each server (raw, with
   * per-tool repair), so Phase 2 keeps the server's schemas rather than the adapter's flattened copies, and a
   * server the adapter rejected for one bad schema still contributes its other tools.
   */
  static async fromMultiServerClient(client: MultiServerClientLike, options: McpSessionOptions = {}): Promise<McpSession> {
    const session = new McpSession(options);
    for (const name of Object.keys(client.config.mcpServers ?? {})) {
      let sdk: Client | undefined;
      let error: unknown;
      // The adapter fails a whole server when one tool schema does not convert, but keeps its connection;
      // a second request returns that live client.
      for (let attempt = 0; attempt < 2 && !sdk; attempt++) {
        try {
          sdk = await client.getClient(name);
        } catch (err) {
          error = err;
        }
      }
      session.connections.set(
        name,
        sdk
          ? McpServerConnection.fromClient(name, sdk, options)
          : McpServerConnection.failed(name, `is not connected in the MultiServerMCPClient${error ? `: ${(error as Error).message}` : ""}`),
      );
    }
    await session.openPins([]);
    await session.initialize();
    return session;
  }

  /** The current catalog (replaced on every change). */
  get catalog(): ToolCatalog {
    return this.currentCatalog;
  }

  /** Servers that failed to start, list, or died, with reasons and stderr tails. */
  failures(): McpServerFailure[] {
    return [...this.connections.values()].filter((c) => c.failure).map((c) => c.failure as McpServerFailure);
  }

  /** Tool listings per server as last read (what each server declared, and what was skipped). */
  listing(server: string): McpListResult | undefined {
    return this.listings.get(server);
  }

  /** LangChain tools for every catalog tool, executing through the MCP client. */
  tools(): StructuredToolInterface[] {
    return this.currentCatalog.listed.map((t) => this.resolveTool(t.name) as StructuredToolInterface);
  }

  /**
   * The LangChain tool for a catalog name, or undefined. Pass as the middleware's `resolveTool`, so tools a
   * server adds at run time can be bound and executed without registering them with `createAgent`.
   */
  resolveTool = (name: string): StructuredToolInterface | undefined => {
    const binding = this.bindings.get(name);
    if (!binding) return undefined;
    const key = `${binding.server}\0${binding.mcpName}\0${JSON.stringify(binding.spec)}`;
    const cached = this.toolCache.get(name);
    if (cached?.key === key) return cached.tool;
    const conn = this.connections.get(binding.server) as McpServerConnection;
    const tool = mcpToolFor(binding, conn, {
      timeoutMs: this.options.callTimeoutMs,
      // The notification handler runs in a later tick than the one that delivered it; yield once, then wait.
      afterCall: async () => {
        await new Promise((r) => setImmediate(r));
        await this.queue;
      },
      isCurrent: () => {
        const now = this.bindings.get(name);
        return now !== undefined && now.server === binding.server && now.mcpName === binding.mcpName;
      },
    });
    this.toolCache.set(name, { key, tool });
    return tool;
  };

  /** Fetches input schemas from the live servers' `tools/list` (falls back to the last listing if a server is down). */
  readonly schemaFetcher: SchemaFetcher = async (records) => {
    const out: Record<string, JsonSchema | undefined> = {};
    const byServer = new Map<string, typeof records[number][]>();
    for (const r of records) {
      const list = byServer.get(r.server) ?? [];
      list.push(r);
      byServer.set(r.server, list);
    }
    await Promise.all(
      [...byServer].map(async ([server, recs]) => {
        const conn = this.connections.get(server);
        let live: McpListResult | undefined;
        if (conn?.state === "ready") live = await conn.listTools().catch(() => undefined);
        for (const r of recs) {
          const binding = this.bindings.get(r.name);
          if (!binding) continue;
          const spec = live?.tools.find((t) => t.spec.name === binding.mcpName)?.spec ?? binding.spec;
          out[r.id] = spec.inputSchema;
        }
      }),
    );
    return out;
  };

  /** Tools held out of the catalog because their definition changed since it was approved (or, with `pins.added: "hold"`, was never approved). */
  heldTools(): McpHeldTool[] {
    return [...this.held.values()].flat().map((h) => ({ ...h, changed: [...h.changed] }));
  }

  /**
   * Approves held tools: pins what their servers list now and takes them into the catalog and every attached
   * router. `names`: tool names, server-qualified names (`server__tool`) or catalog names; default every held tool.
   * A name that is not held is an error listing the held ones. Resolves to the tools approved.
   */
  approve(names?: readonly string[]): Promise<McpHeldTool[]> {
    const run = async (): Promise<McpHeldTool[]> => {
      const held = this.heldTools();
      const matches = (h: McpHeldTool, n: string) => n === h.tool || n === h.name || n === `${h.server}__${h.tool}`;
      const unknown = (names ?? []).filter((n) => !held.some((h) => matches(h, n)));
      if (unknown.length)
        throw new Error(
          `Cannot approve ${unknown.map((n) => `"${n}"`).join(", ")}: not held. Held tools: ${held.length ? held.map((h) => `${h.server}/${h.tool}`).join(", ") : "none"}`,
        );
      const chosen = names ? held.filter((h) => names.some((n) => matches(h, n))) : held;
      const byServer = new Map<string, McpHeldTool[]>();
      for (const h of chosen) byServer.set(h.server, [...(byServer.get(h.server) ?? []), h]);
      const entries = [...byServer].map(([server, list]): [string, Pin[]] => [this.pinKey(server), list.map((h) => ({ hash: definitionHash(h.current), definition: h.current }))]);
      // The pins are taken in memory even when writing them fails, so the approval holds for this process.
      let writeError: Error | undefined;
      try {
        this.pins.setMany(entries);
      } catch (err) {
        writeError = err as Error;
      }
      for (const server of byServer.keys()) await this.applyRebuild(server);
      // An approval is durable when this resolves: a pin that could not be written is the caller's error.
      await this.pins.flush().catch((err: Error) => (writeError ??= err));
      if (writeError) throw new Error(`${writeError.message}; the approval holds for this process only`);
      return chosen;
    };
    const result = this.queue.then(run, run);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Builds a router over this session's catalog, kept in sync with list_changed. */
  createRouter(options: RouterOptions = {}): ToolAttentionRouter {
    const schemas = options.schemas ?? (this.options.lazySchemas ? { fetcher: this.schemaFetcher } : undefined);
    const router = new ToolAttentionRouter(this.currentCatalog, { ...options, schemas });
    this.attach(router);
    return router;
  }

  /** Options for `toolAttentionMiddleware` that route over this session and execute its tools. */
  middlewareOptions(options: RouterOptions = {}): { router: ToolAttentionRouter; resolveTool: (name: string) => StructuredToolInterface | undefined } {
    return { router: this.createRouter(options), resolveTool: this.resolveTool };
  }

  /** Keeps a router's catalog in sync with this session. Returns a detach function. */
  attach(router: CatalogReplaceable): () => void {
    this.routers.add(router);
    return () => this.routers.delete(router);
  }

  /** Called after each applied change. Returns an unsubscribe function. */
  onChange(listener: (change: McpCatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when every pending re-list (from list_changed) has been applied. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Re-lists one server and applies the difference (what list_changed triggers). */
  refresh(server: string): Promise<void> {
    const run = async () => {
      const conn = this.connections.get(server);
      if (!conn || conn.state !== "ready") return;
      let listing: McpListResult;
      try {
        listing = await conn.listTools();
      } catch (err) {
        this.reportFailure(conn);
        return;
      }
      await this.applyListing(server, listing);
    };
    this.queue = this.queue.then(run, run).catch((err) => {
      this.warn(`server "${server}": applying its tool list change failed: ${(err as Error).message}`);
    });
    return this.queue;
  }

  /** Takes a server's new listing into the catalog and every attached router; returns what changed. */
  private async applyListing(server: string, listing: McpListResult): Promise<Omit<McpCatalogChange, "catalog" | "server">> {
    this.listings.set(server, listing);
    this.recordWarnings(listing);
    return this.applyRebuild(server);
  }

  /** Rebuilds the catalog and passes the difference to every attached router and listener. */
  private async applyRebuild(server: string): Promise<Omit<McpCatalogChange, "catalog" | "server">> {
    const before = new Map(this.bindings);
    this.rebuild();
    const added: string[] = [];
    const changed: string[] = [];
    const removed: string[] = [];
    for (const [name, b] of this.bindings) {
      const old = before.get(name);
      if (!old) added.push(name);
      else if (JSON.stringify(old.spec) !== JSON.stringify(b.spec) || old.server !== b.server) changed.push(name);
    }
    for (const name of before.keys()) if (!this.bindings.has(name)) removed.push(name);
    if (added.length + changed.length + removed.length === 0) return { added, changed, removed };
    for (const name of [...changed, ...removed]) this.toolCache.delete(name);
    await Promise.all([...this.routers].map((r) => r.replaceCatalog(this.currentCatalog)));
    const change: McpCatalogChange = { server, catalog: this.currentCatalog, added, changed, removed };
    for (const l of this.listeners) l(change);
    return { added, changed, removed };
  }

  /** Resolves after `ms`, or at once when the session closes. */
  private wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.waits.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.waits.add(entry);
    });
  }

  /**
   * Restarts a dead server with backoff, then lists its tools again through the same path as list_changed. A
   * server that dies again soon after coming back continues the backoff; after `maxAttempts` in a row it stays
   * failed and is reported (phase "restart").
   */
  private restart(server: string, conn: McpServerConnection): void {
    const policy = this.restartPolicy;
    if (!policy || this.closed || !conn.canRestart || this.restarting.has(server)) return;
    this.restarting.add(server);
    const diedAt = performance.now();
    const history = this.restartHistory.get(server);
    // Came back and stayed up long enough: this outage starts from the first delay again.
    let attempts = history && Date.now() - history.upAt < policy.resetAfterMs ? history.attempts : 0;
    const why = conn.failure?.message ?? "exited unexpectedly";
    const run = async () => {
      let lastError = "";
      while (!this.closed) {
        if (attempts >= policy.maxAttempts) {
          const message = `${why}; gave up after ${policy.maxAttempts} restart attempts in a row${lastError ? ` (last: ${lastError})` : ""}`;
          conn.giveUp(message);
          this.reportFailure(conn);
          return;
        }
        const delay = Math.min(policy.maxDelayMs, Math.round(policy.initialDelayMs * policy.factor ** attempts));
        attempts++;
        conn.markRestarting(
          `${why}; restarting (attempt ${attempts} of ${policy.maxAttempts} in ${delay} ms${lastError ? `; the last attempt failed: ${lastError}` : ""})`,
        );
        await this.wait(delay);
        if (this.closed) return;
        const started = await conn.reconnect();
        if (!started.ok) {
          // The server's own last words stay in failure.stderrTail (for the operator): this message reaches the
          // model through the error results of the server's tools.
          lastError = started.error;
          continue;
        }
        let listing: McpListResult;
        try {
          listing = await conn.listTools();
        } catch (err) {
          lastError = (err as Error).message.split("\n")[0];
          await conn.abandon();
          continue;
        }
        this.restartHistory.set(server, { attempts, upAt: Date.now() });
        // Through the same queue as list_changed, so catalog changes apply one at a time.
        let change: Omit<McpCatalogChange, "catalog" | "server"> = { added: [], changed: [], removed: [] };
        const apply = async () => {
          change = await this.applyListing(server, listing);
        };
        this.queue = this.queue.then(apply, apply).catch((err) => {
          this.warn(`server "${server}": applying its tool list after a restart failed: ${(err as Error).message}`);
        });
        await this.queue;
        const event: McpRestartEvent = {
          server,
          attempt: attempts,
          downMs: Math.round(performance.now() - diedAt),
          startMs: Math.round(conn.startMs),
          tools: listing.tools.length,
          ...change,
        };
        if (this.options.onRestart) this.options.onRestart(event);
        else process.stderr.write(`tool-attention: mcp server "${server}" restarted after ${event.downMs} ms (attempt ${attempts}); ${event.tools} tools\n`);
        return;
      }
    };
    void run()
      .catch((err) => this.warn(`server "${server}": restarting failed: ${(err as Error).message}`))
      .finally(() => this.restarting.delete(server));
  }

  /** Stops the servers this session started, and any pending restart. */
  async close(): Promise<void> {
    this.closed = true;
    // Pins written in the background land before close resolves (their failure was already reported).
    await this.pins.flush().catch(() => undefined);
    for (const w of this.waits) {
      clearTimeout(w.timer);
      w.resolve();
    }
    this.waits.clear();
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  private async initialize(): Promise<void> {
    await Promise.all(
      [...this.connections].map(async ([name, conn]) => {
        if (conn.state !== "ready") {
          this.reportFailure(conn);
          return;
        }
        try {
          const listing = await conn.listTools();
          this.listings.set(name, listing);
          this.recordWarnings(listing);
        } catch {
          this.reportFailure(conn);
          return;
        }
        conn.onToolsChanged(() => void this.refresh(name));
        conn.onExit(() => {
          this.reportFailure(conn);
          this.restart(name, conn);
        });
      }),
    );
    this.rebuild();
  }

  /** Rebuilds bindings and the catalog from the listings, in server order. */
  private rebuild(): void {
    const servers = [...this.connections.keys()].filter((s) => this.listings.has(s));
    const count = new Map<string, number>();
    for (const s of servers) for (const t of (this.listings.get(s) as McpListResult).tools) count.set(t.spec.name, (count.get(t.spec.name) ?? 0) + 1);
    // A server-qualified name belongs to the server it names: another server's tool literally named
    // "bank__transfer_funds" must never receive the calls meant for bank's transfer_funds.
    const qualified = new Map<string, string>();
    for (const s of servers)
      for (const t of (this.listings.get(s) as McpListResult).tools) if ((count.get(t.spec.name) ?? 0) > 1) qualified.set(`${s}__${t.spec.name}`, s);
    const bindings = new Map<string, McpToolBinding>();
    const entries: CatalogEntry[] = [];
    const heldEntries: HeldTool[] = [];
    const held = new Map<string, McpHeldTool[]>();
    const toPin: [string, Pin[]][] = [];
    for (const server of servers) {
      const check = this.checkServerPins(server, (this.listings.get(server) as McpListResult).tools.map((t) => t.spec), toPin);
      const heldHere = new Map(check.held.map((h) => [h.tool, h]));
      for (const { spec } of (this.listings.get(server) as McpListResult).tools) {
        // Two servers offering the same name: both stay callable under server-qualified names.
        const isQualified = (count.get(spec.name) ?? 0) > 1;
        const name = isQualified ? `${server}__${spec.name}` : spec.name;
        const h = heldHere.get(spec.name);
        if (h) {
          // Held like a quarantined tool: no binding, not in the catalog; the catalog answers calls to its name.
          held.set(server, [...(held.get(server) ?? []), { server, tool: spec.name, name, previous: h.previous, current: h.current, changed: h.changed }]);
          heldEntries.push({ name, server, changed: h.changed });
          this.warnHeld(server, spec.name, h.changed, definitionHash(h.current));
          continue;
        }
        const owner = bindings.get(name)?.server ?? (isQualified ? undefined : qualified.get(name));
        if (owner !== undefined) {
          // A collision is the later tool's problem, never a silent overwrite: it is left out, and said so.
          const message =
            `server "${server}", tool "${spec.name}": left out: its name "${name}" is taken by server "${owner}"` +
            `${qualified.has(name) ? ` (the server-qualified name of its "${name.slice(owner.length + 2)}")` : ""}; calls to "${name}" go to "${owner}" only`;
          this.warnOnce(message);
          this.logLeftOut(message);
          continue;
        }
        const binding: McpToolBinding = { name, server, mcpName: spec.name, spec };
        bindings.set(name, binding);
        const catalogSpec = { ...spec, name };
        if (this.options.lazySchemas) delete catalogSpec.inputSchema;
        entries.push({ server, spec: catalogSpec });
      }
    }
    // One write of the pin file per rebuild, whatever the number of servers pinned in it.
    this.savePins(toPin);
    const catalog = new ToolCatalog(entries, { ...this.options.catalog, held: heldEntries });
    this.held = held;
    // The LangChain tool shows the model what the catalog kept: a description it cut or a schema it repaired (too
    // deep to walk, say) must not reach the model, or LangChain's own schema handling, in its original form.
    if (!this.options.lazySchemas)
      // Read from the list, not looked up: a catalog screening in the background screens on lookups, and this
      // bookkeeping shows the model nothing (what is bound or sent is looked up, and screened, when it is).
      for (const record of catalog.tools) {
        const name = record.id;
        const b = bindings.get(name);
        if (!b) continue;
        const description = b.spec.description === undefined ? undefined : record.description;
        if (record.inputSchema !== b.spec.inputSchema || description !== b.spec.description)
          bindings.set(name, { ...b, spec: { ...b.spec, inputSchema: record.inputSchema, ...(description === undefined ? {} : { description }) } });
      }
    // Catalog repairs are reported once, not again on every rebuild.
    for (const w of catalog.warnings) this.warnOnce(w);
    this.bindings = bindings;
    this.currentCatalog = catalog;
  }

  /** Compares a server's listing with its pins; records the pins the policy grants (trust on first use, "allow"). */
  private checkServerPins(server: string, specs: McpListResult["tools"][number]["spec"][], toPin: [string, Pin[]][]): PinCheck {
    const pinned = this.pins.get(this.pinKey(server));
    const check = checkPins(pinned, specs, this.pinPolicy);
    // A server seen for the first time is recorded even with nothing to pin, so its next tools count as new.
    if (check.pin.length || !pinned) toPin.push([this.pinKey(server), check.pin]);
    return check;
  }

  /**
   * Reads the pins from the PostgreSQL store when the policy names one (a pin file was read at construction). A store
   * that cannot be read fails the start, naming it, with the connections already made closed: pins are not guessed.
   */
  private async openPins(conns: readonly McpServerConnection[]): Promise<void> {
    if (!this.pinPolicy.store) return;
    try {
      this.pins = await PinStore.open(this.pinPolicy);
    } catch (err) {
      await Promise.all(conns.map((c) => c.close()));
      throw err;
    }
  }

  private savePins(entries: [string, Pin[]][]): void {
    if (entries.length === 0) return;
    const kept = (err: Error) => this.warnOnce(`${err.message}; the pins are kept in memory for this process`);
    try {
      this.pins.setMany(entries);
    } catch (err) {
      // The pins still hold for this process; the next one will ask again.
      kept(err as Error);
      return;
    }
    // A store write completes in the background; its failure is reported the same way.
    this.pins.flush().catch(kept);
  }

  private pinKey(server: string): string {
    return pinSource(server, this.connections.get(server)?.config);
  }

  private warnHeld(server: string, tool: string, changed: string[], hash: string): void {
    const key = `${server}\0${tool}\0${hash}`;
    if (this.heldWarned.has(key)) return;
    this.heldWarned.add(key);
    const what = changed.includes("new") ? "it is new and not yet approved" : `its ${changed.join(" and ")} changed since it was approved`;
    const message =
      `server "${server}", tool "${tool}": held: ${what}; it is left out of the pool and cannot be called until approved ` +
      `(McpSession.approve() or tool-attention audit --approve)`;
    this.warn(message);
    this.logLeftOut(message);
  }

  private recordWarnings(listing: McpListResult): void {
    for (const w of listing.warnings) this.warn(w);
    for (const s of listing.skipped) {
      const message = `server "${s.server}", tool "${s.tool}": skipped: ${s.reason}`;
      this.warn(message);
      this.logLeftOut(message);
    }
  }

  /** Without `onWarning`, a tool left out is also said on stderr, once per process of this session. */
  private logLeftOut(message: string): void {
    if (this.options.onWarning || this.logged.has(message)) return;
    this.logged.add(message);
    process.stderr.write(`tool-attention: ${message}\n`);
  }

  private warnOnce(message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.warn(message);
  }

  private warn(message: string): void {
    this.warnings.push(message);
    this.options.onWarning?.(message);
  }

  private reportFailure(conn: McpServerConnection): void {
    const failure = conn.failure;
    if (!failure) return;
    if (this.options.onServerFailure) this.options.onServerFailure(failure);
    else process.stderr.write(`tool-attention: mcp ${conn.describeFailure()}\n`);
  }
}
