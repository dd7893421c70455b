/**
 * `tool-attention audit --config FILE`: what an MCP setup costs per model call.
 *
 * Starts every server in the config, lists its tools and reports, per server and in total:
 * - raw MCP JSON: `JSON.stringify(tool)` of every tool as the server sent it, summed;
 * - LangChain: the tools `@langchain/mcp-adapters` builds (`loadMcpTools`), rendered with `convertToOpenAITool`
 *   as one JSON array: what a LangChain agent sends on every call today;
 * - Tool Attention per call: the Phase-1 pool (one line per tool, always sent) plus the Phase-2 schemas of the
 *   k active tools. Which tools are active depends on the query, so "top-k" here is the WORST case: the k tools
 *   with the largest Phase-2 schemas (`{name, description, inputSchema}` JSON). Per server: its pool lines plus
 *   its k largest schemas (all of them when it has fewer than k); total: the whole pool plus the k largest
 *   schemas of the whole catalog;
 * - compaction savings (`measureCompaction`, each technique on its own against the raw JSON);
 * - failures with their reasons and stderr tails (redacted), start + list time.
 *
 * One server's hostile output never costs the others their results: its `tools/list` is bounded (`listLimits`),
 * schemas nested past the catalog's depth cap are cut before anything walks them, a server whose numbers cannot be
 * computed is reported failed (phase "report") beside the others, and every server process started is stopped,
 * whatever state it ended in.
 *
 * Pinned definitions (see `McpSessionOptions.pins`): tools whose definition differs from the one approved are listed
 * with a line diff of the approved and the current definition; `approve` pins every current definition, as
 * `McpSession.approve()` does. Without `approve` the audit writes nothing.
 */
import { resolveDeliveryMode, type DeliveryMode } from "../core/delivery/plan.js";
import { DEFAULT_PROFILES } from "../core/cost/profiles.js";
import { loadMcpTools } from "@langchain/mcp-adapters";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { describeReasons, ToolCatalog, type CatalogEntry, type CatalogFinding } from "../core/catalog/catalog.js";
import { isScreeningCategory, SCREENING_CATEGORIES } from "../core/screening/categories.js";
import { screenTools, type ScreeningReport } from "../core/screening/screen-tools.js";
import type { ScreeningFinding } from "../core/screening/types.js";
import { measureCompaction, type CompactionReport } from "../core/compaction/measure.js";
import { poolLine, renderFullSchema, renderPool } from "../core/render/render.js";
import { countTokens, type TokenEncoding } from "../core/tokens/count.js";
import { DEFAULT_K } from "../core/router/router.js";
import type { ToolSpec } from "../core/types.js";
import { loadMcpConfig } from "../mcp/config.js";
import { redactSecrets } from "../core/util/redact.js";
import { McpServerConnection } from "../mcp/connection.js";
import { resolveListLimits, type McpListLimits, type McpListResult } from "../mcp/list-tools.js";
import type { PinPostgresStore } from "../mcp/pins-postgres.js";
import { checkPins, definitionDiff, definitionHash, pinnedDefinition, pinSource, PinStore, resolvePinOptions } from "../mcp/pins.js";

export interface AuditOptions {
  config: string;
  /** Active tools per call for the Tool Attention column. Default 10. */
  k?: number;
  encoding?: TokenEncoding;
  /** Servers started at once. Default 4 (timings are less disturbed with fewer). */
  concurrency?: number;
  /** Timeout for initialize and each request (ms). Default 30,000. */
  timeoutMs?: number;
  /** Bounds on each server's `tools/list` (see `McpListLimits`); a server past one is reported failed. */
  listLimits?: McpListLimits;
  /** Screen with the embedded encoder as well as the rules and the sentence reader. Default false. */
  screeningEncoder?: boolean;
  /** Pin the current definition of every listed tool (approving every held one). Default false. */
  approve?: boolean;
  /** Directory of the pin file, as `McpSessionOptions.pins.dir`. Default: the cache directory; false: none. */
  pinsDir?: string | false;
  /** The PostgreSQL store of the pins, as `McpSessionOptions.pins.store` (instead of `pinsDir`). */
  pinsStore?: PinPostgresStore;
}

/** A tool whose definition differs from the one approved (or that was never approved, under a "hold" policy). */
export interface AuditHeldTool {
  server: string;
  tool: string;
  /** "description", "inputSchema", "name", or "new". */
  changed: string[];
  /** Line diff of the approved and the current definition, pretty-printed ("- " approved, "+ " current). */
  diff: string[];
}

/** Savings of one compaction technique against raw MCP JSON (fraction 0..1; negative when it costs more). */
export interface AuditCompaction {
  shortList: number;
  refDedup: number;
  sharedDefs: number;
  shortListRefDedup: number;
  terse: number;
}

export interface AuditServer {
  server: string;
  ok: boolean;
  tools: number;
  skipped: { tool: string; reason: string }[];
  warnings: string[];
  rawTokens: number;
  /** undefined when the adapter could not load the server's tools (see langchainError). */
  langchainTokens?: number;
  langchainTools?: number;
  langchainError?: string;
  poolTokens: number;
  topKTokens: number;
  /** poolTokens + topKTokens. */
  toolAttentionTokens: number;
  /** A typical call instead of the worst case: pool + k × the median Phase-2 schema (at most the worst case). */
  toolAttentionTypicalTokens: number;
  compaction?: AuditCompaction;
  startMs: number;
  listMs: number;
  /** phase: the connection's ("start", "list", "exited", "restart"), or "report" when its numbers could not be computed. */
  failure?: { phase: string; message: string; stderrTail: string };
}

export interface AuditReport {
  config: string;
  date: string;
  encoding: TokenEncoding;
  k: number;
  servers: AuditServer[];
  total: Omit<AuditServer, "server" | "ok" | "skipped" | "warnings" | "failure" | "startMs" | "listMs" | "compaction"> & {
    servers: number;
    failed: number;
    skipped: number;
    compaction?: AuditCompaction;
    wallMs: number;
    /**
     * What delivery `auto` chooses for this catalog (as the runtime does, from the same token counts): on providers
     * with prompt caching, and on providers without.
     */
    delivery: { cached: DeliveryMode; uncached: DeliveryMode };
  };
  /**
   * Pinned definitions: the pin file (undefined when pins are off), the tools held against it when the audit ran,
   * and how many definitions `approve` pinned (0 without it).
   */
  pins: { file?: string; held: AuditHeldTool[]; approved: number };
  /**
   * Every screening finding (server, tool, field, sentence, category, score, action), whether the encoder took part,
   * and the findings the lexical model set aside (the tool's words read as honest; they quarantine nothing).
   */
  screening: { findings: CatalogFinding[]; encoder: ScreeningReport["encoder"]; setAside: ScreeningFinding[] };
}

function savings(r: CompactionReport): AuditCompaction {
  return {
    shortList: r.shortList.savedRatio,
    refDedup: r.refDedup.savedRatio,
    sharedDefs: r.sharedDefs.savedRatio,
    shortListRefDedup: r.shortListRefDedup.savedRatio,
    terse: r.terse.savedRatio,
  };
}

function median(sizes: number[]): number {
  if (sizes.length === 0) return 0;
  const s = [...sizes].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Never above the worst case: with k or fewer tools, every schema is active anyway. */
function typical(pool: number, sizes: number[], k: number): number {
  return Math.round(pool + Math.min(topK(sizes, k), Math.min(k, sizes.length) * median(sizes)));
}

function topK(sizes: number[], k: number): number {
  return [...sizes].sort((a, b) => b - a).slice(0, k).reduce((a, b) => a + b, 0);
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

interface Listed {
  server: string;
  conn: McpServerConnection;
  listing?: McpListResult;
  listMs: number;
  langchain?: { tokens: number; tools: number } | { error: string };
}

/** Runs the audit. Never throws for one server: failures are part of the report. */
export async function runAudit(options: AuditOptions): Promise<AuditReport> {
  const encoding = options.encoding ?? "cl100k_base";
  const k = options.k ?? DEFAULT_K;
  const config = loadMcpConfig(options.config);
  const limits = resolveListLimits(options.listLimits);
  const names = Object.keys(config.servers);
  const t0 = performance.now();
  const listed = await mapLimit(names, options.concurrency ?? 4, async (server): Promise<Listed> => {
    const conn = await McpServerConnection.connect(server, config.servers[server], { timeoutMs: options.timeoutMs, listLimits: limits });
    try {
      if (conn.state !== "ready") return { server, conn, listMs: 0 };
      const l0 = performance.now();
      const listing = await conn.listTools().catch(() => undefined);
      const listMs = performance.now() - l0;
      // The adapter lists without bounds: only a server that listed within them is handed to it.
      if (!listing) return { server, conn, listMs };
      let langchain: Listed["langchain"];
      try {
        // What LangChain users get today: the adapter's own (strict) listing and schema conversion, given as long
        // as our own listing may take; past that the server is stopped (finally below), which ends the adapter's
        // requests too.
        const tools = await withTimeout(loadMcpTools(server, conn.sdkClient as never, { throwOnLoadError: true }), limits.timeoutMs, "the adapter's tool loading");
        langchain = { tokens: countTokens(JSON.stringify(tools.map((t) => convertToOpenAITool(t))), encoding), tools: tools.length };
      } catch (err) {
        langchain = { error: oneLineMessage(err) };
      }
      return { server, conn, listing, listMs, langchain };
    } finally {
      await conn.close();
    }
  });
  const wallMs = performance.now() - t0;
  const pins = await checkAuditPins(listed, config.servers, options);

  // One catalog over all servers, as the router would build it (names colliding across servers get ids).
  const entries: CatalogEntry[] = [];
  for (const l of listed) for (const t of l.listing?.tools ?? []) entries.push({ server: l.server, spec: t.spec });
  // Quarantined tools are reported with their server's warnings (the audit has its own output, not stderr lines).
  const screened = await screenTools(
    entries.map((e) => ({ server: e.server, tool: e.spec })),
    { encoder: options.screeningEncoder ? "use-lite" : false, cacheDir: false },
  );
  // A report: every tool screened in the constructor, whatever the catalog's size.
  const catalog = new ToolCatalog(entries, { encoding, log: false, screening: { precomputed: screened.results }, progressiveScreening: false });
  const quarantine = (server: string) =>
    catalog.quarantined
      .filter((q) => q.server === server)
      .map((q) => `server "${server}", tool "${q.name}": quarantined by tool screening (${describeReasons(q.reasons)})`);
  const phase2 = new Map<string, number>();
  for (const t of catalog.tools)
    phase2.set(t.id, attempt(() => countTokens(renderFullSchema({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? {} }), encoding)) ?? 0);

  const servers: AuditServer[] = listed.map((l) => {
    try {
      return serverReport(l);
    } catch (err) {
      // This server's output broke a measurement: it is reported failed, the others keep their numbers.
      const failure = { phase: "report", message: `its tools could not be measured: ${oneLineMessage(err)}`, stderrTail: "" };
      return { ...emptyServer(l), ok: false, failure };
    }
  });
  function serverReport(l: Listed): AuditServer {
    const records = catalog.tools.filter((t) => t.server === l.server);
    const raws = (l.listing?.tools ?? []).map((t) => t.raw);
    // The server's lines as the adapters render the pool by default (runValidCalls: required parameters named).
    const poolText = records.length ? [`[${l.server}]`, ...records.map((t) => poolLine(t, true))].join("\n") : "";
    const poolTokens = poolText ? countTokens(poolText, encoding) : 0;
    const sizes = records.map((t) => phase2.get(t.id) as number);
    const topKTokens = topK(sizes, k);
    const lc = l.langchain;
    return {
      server: l.server,
      ok: Boolean(l.listing),
      tools: l.listing?.tools.length ?? 0,
      skipped: (l.listing?.skipped ?? []).map((s) => ({ tool: s.tool, reason: s.reason })),
      warnings: [...(l.listing?.warnings ?? []), ...quarantine(l.server)],
      rawTokens: raws.reduce((n, r) => n + countTokens(JSON.stringify(r), encoding), 0),
      langchainTokens: lc && "tokens" in lc ? lc.tokens : undefined,
      langchainTools: lc && "tools" in lc ? lc.tools : undefined,
      langchainError: lc && "error" in lc ? lc.error : undefined,
      poolTokens,
      topKTokens,
      toolAttentionTokens: poolTokens + topKTokens,
      toolAttentionTypicalTokens: typical(poolTokens, sizes, k),
      compaction: raws.length ? savings(measureCompaction(raws as unknown as ToolSpec[], encoding)) : undefined,
      startMs: l.conn.startMs,
      listMs: l.listMs,
      failure: l.conn.failure
        ? { phase: l.conn.failure.phase, message: l.conn.failure.message, stderrTail: l.conn.failure.stderrTail }
        : undefined,
    };
  }

  const reported = new Set(servers.filter((s) => s.ok).map((s) => s.server));
  const allRaw = listed.filter((l) => reported.has(l.server)).flatMap((l) => (l.listing?.tools ?? []).map((t) => t.raw)) as unknown as ToolSpec[];
  // The pool the adapters send by default, so the delivery mode below is the one the runtime picks.
  const poolTokens = catalog.size ? (attempt(() => countTokens(renderPool(catalog, { encoding, runValidCalls: true }), encoding)) ?? 0) : 0;
  const topKTokens = topK([...phase2.values()], k);
  const sum = (f: (s: AuditServer) => number | undefined) => servers.reduce((n, s) => n + (f(s) ?? 0), 0);
  return {
    config: options.config,
    date: new Date().toISOString(),
    encoding,
    k,
    servers,
    total: {
      servers: servers.length,
      failed: servers.filter((s) => !s.ok).length,
      tools: sum((s) => s.tools),
      skipped: sum((s) => s.skipped.length),
      rawTokens: sum((s) => s.rawTokens),
      langchainTokens: sum((s) => s.langchainTokens),
      langchainTools: sum((s) => s.langchainTools),
      langchainError: servers.some((s) => s.langchainError) ? "some servers could not be loaded by the adapter" : undefined,
      poolTokens,
      topKTokens,
      toolAttentionTokens: poolTokens + topKTokens,
      toolAttentionTypicalTokens: typical(poolTokens, [...phase2.values()], k),
      compaction: allRaw.length ? attempt(() => savings(measureCompaction(allRaw, encoding))) : undefined,
      wallMs,
      delivery: autoDelivery([...phase2.values()], poolTokens, k),
    },
    pins,
    screening: { findings: [...catalog.findings], encoder: screened.encoder, setAside: [...screened.results.values()].flatMap((x) => x.setAside ?? []) },
  };
}

// A hostile definition can be megabytes on one line: the report keeps a readable part of each diff.
const MAX_DIFF_LINES = 80;
const MAX_DIFF_LINE = 400;

/** The listed tools against their pins under the default policy; with `approve`, pins every current definition. */
async function checkAuditPins(listed: Listed[], servers: ReturnType<typeof loadMcpConfig>["servers"], options: AuditOptions): Promise<AuditReport["pins"]> {
  const dir = options.pinsDir === undefined ? resolvePinOptions(undefined).dir : options.pinsDir;
  const store = await PinStore.open(options.pinsStore ? { dir: false, store: options.pinsStore } : { dir });
  const policy = resolvePinOptions(undefined);
  const held: AuditHeldTool[] = [];
  let approved = 0;
  for (const l of listed) {
    if (!l.listing) continue;
    const key = pinSource(l.server, servers[l.server]);
    const specs = l.listing.tools.map((t) => t.spec);
    for (const h of checkPins(store.get(key), specs, policy).held) {
      const diff = definitionDiff(h.previous, h.current).map((line) => (line.length > MAX_DIFF_LINE ? `${line.slice(0, MAX_DIFF_LINE)}…` : line));
      if (diff.length > MAX_DIFF_LINES) diff.splice(MAX_DIFF_LINES, diff.length, `… ${diff.length - MAX_DIFF_LINES} more lines`);
      held.push({ server: l.server, tool: h.tool, changed: h.changed, diff });
    }
    if (options.approve) {
      const current = specs.map((spec) => pinnedDefinition(spec)).map((definition) => ({ hash: definitionHash(definition), definition }));
      store.set(key, current);
      approved += current.length;
    }
  }
  await store.flush();
  return { file: store.file, held, approved };
}

/** A server's row with nothing measured (its numbers could not be computed). */
function emptyServer(l: Listed): AuditServer {
  return {
    server: l.server, ok: false, tools: 0, skipped: [], warnings: [], rawTokens: 0, poolTokens: 0, topKTokens: 0,
    toolAttentionTokens: 0, toolAttentionTypicalTokens: 0, startMs: l.conn.startMs, listMs: l.listMs,
  };
}

/** The value, or undefined when computing it throws (a column left empty rather than a lost report). */
function attempt<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** An error's first line, at most 300 characters, credentials redacted. */
function oneLineMessage(err: unknown): string {
  return redactSecrets((err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 300));
}

/** The promise's value, or a rejection naming `what` once `ms` have passed (the timer never holds the process). */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `--fail-on`: a category, a comma-separated list of them, or "any". Returns the problem with the value, if any,
 * so the command can refuse it before starting servers.
 */
export function checkFailOn(value: string): string | undefined {
  const parts = value.split(",").map((p) => p.trim()).filter(Boolean);
  const bad = parts.filter((p) => p !== "any" && !isScreeningCategory(p));
  if (parts.length === 0 || bad.length > 0)
    return `--fail-on must be "any" or screening categories (${SCREENING_CATEGORIES.join(", ")}), comma-separated; got "${value}"`;
  return undefined;
}

/** The line to exit non-zero with when a finding (not allowed by the policy) falls under `failOn`. */
export function screeningFailure(r: AuditReport, failOn: string): string | undefined {
  const wanted = new Set(failOn.split(",").map((p) => p.trim()));
  const hits = r.screening.findings.filter((f) => f.action !== "allow" && (wanted.has("any") || wanted.has(f.category)));
  if (hits.length === 0) return undefined;
  const tools = [...new Set(hits.map((f) => `${f.server}/${f.tool}`))];
  return `tool screening: ${hits.length} finding${hits.length === 1 ? "" : "s"} under --fail-on ${failOn} in ${tools.length} tool${tools.length === 1 ? "" : "s"} (${tools.slice(0, 5).join(", ")}${tools.length > 5 ? ", …" : ""})`;
}

/** The modes delivery `auto` picks for a catalog with these schema sizes and pool (see `resolveDeliveryMode`). */
function autoDelivery(sizes: number[], pool: number, k: number): { cached: DeliveryMode; uncached: DeliveryMode } {
  const catalog = { fullSchemas: sizes.reduce((a, b) => a + b, 0), pool, tools: sizes.length, k };
  return {
    cached: resolveDeliveryMode("auto", DEFAULT_PROFILES.anthropic, catalog),
    uncached: resolveDeliveryMode("auto", DEFAULT_PROFILES.other, catalog),
  };
}

/**
 * One line when the audit measured nothing because every server failed (the command then exits non-zero),
 * else undefined. Some servers failing is a finding of the audit, not a failure of it.
 */
export function auditFailure(r: AuditReport): string | undefined {
  if (r.servers.length === 0 || r.servers.some((s) => s.ok)) return undefined;
  const why = r.servers.map((s) => `${s.server} (${s.failure ? `${s.failure.phase}: ${s.failure.message}` : "no tools listed"})`);
  return `audit: every server in ${r.config} failed (${r.servers.length} of ${r.servers.length}): ${why.join("; ")}`.replace(/\s*\n\s*/g, " ");
}

const pct = (x: number | undefined) => (x === undefined ? "–" : `${(x * 100).toFixed(1)}%`);
const int = (x: number | undefined) => (x === undefined ? "–" : x.toLocaleString("en-US"));

/** What the runtime will do with this setup, in one sentence (delivery `auto`). */
function deliverySentence(d: { cached: DeliveryMode; uncached: DeliveryMode }): string {
  const cached =
    d.cached === "all"
      ? "binds every schema (this catalog is small enough that every schema cached costs no more than routing), so it sends what LangChain sends"
      : `routes (\`${d.cached}\` delivery: the tools array stays constant and routed schemas are added after the history)`;
  const uncached = d.uncached === "all" ? "binds every schema" : `routes (\`${d.uncached}\` delivery)`;
  return `What the runtime does with this setup (delivery "auto"): on Anthropic and OpenAI, which cache the prompt, it ${cached}; on a provider without prompt caching it ${uncached}. \`tool-attention cost\` prices a whole conversation.`;
}

/** The report as a text table (markdown-compatible), then failures and warnings. */
export function formatAudit(r: AuditReport): string {
  const head = [
    "server", "tools", "raw MCP JSON", "LangChain (OpenAI)", "TA pool", `TA top-${r.k}`, "TA per call", "TA typical",
    "short list", "$ref dedup", "shared $defs", "short+$ref", "TERSE", "start+list ms",
  ];
  const rows: string[][] = r.servers.map((s) => [
    s.server,
    s.ok ? String(s.tools) + (s.skipped.length ? ` (+${s.skipped.length} skipped)` : "") : "FAILED",
    int(s.rawTokens),
    s.langchainError ? "fails" : int(s.langchainTokens),
    int(s.poolTokens),
    int(s.topKTokens),
    int(s.toolAttentionTokens),
    int(s.toolAttentionTypicalTokens),
    pct(s.compaction?.shortList),
    pct(s.compaction?.refDedup),
    pct(s.compaction?.sharedDefs),
    pct(s.compaction?.shortListRefDedup),
    pct(s.compaction?.terse),
    s.ok ? String(Math.round(s.startMs + s.listMs)) : "–",
  ]);
  const t = r.total;
  rows.push([
    "**total**", String(t.tools), int(t.rawTokens), int(t.langchainTokens), int(t.poolTokens), int(t.topKTokens),
    int(t.toolAttentionTokens), int(t.toolAttentionTypicalTokens), pct(t.compaction?.shortList), pct(t.compaction?.refDedup), pct(t.compaction?.sharedDefs),
    pct(t.compaction?.shortListRefDedup), pct(t.compaction?.terse), `${Math.round(t.wallMs)} (wall)`,
  ]);
  const lines = [
    `MCP audit of ${r.config} (${r.date}), tokens in ${r.encoding}, k = ${r.k}`,
    "",
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "",
    `Per call: raw MCP JSON ${int(t.rawTokens)}, LangChain ${int(t.langchainTokens)}, Tool Attention ${int(t.toolAttentionTokens)} ` +
      `(pool ${int(t.poolTokens)} + worst-case top-${r.k} ${int(t.topKTokens)})` +
      (t.langchainTokens && t.delivery.uncached !== "all"
        ? `: ${(t.langchainTokens / Math.max(1, t.toolAttentionTokens)).toFixed(1)}× less than LangChain on a provider without prompt caching.`
        : "."),
    deliverySentence(t.delivery),
    `TA top-${r.k} is the worst case: the ${r.k} largest Phase-2 schemas; TA typical is the pool + ${r.k} × the median schema. ` +
      "Compaction columns: tokens saved against raw MCP JSON, each technique alone.",
  ];
  const failed = r.servers.filter((s) => s.failure);
  if (failed.length) {
    lines.push("", "Failures:");
    for (const s of failed) {
      lines.push(`- ${s.server} (${s.failure?.phase}): ${s.failure?.message}`);
      if (s.failure?.stderrTail) lines.push(...s.failure.stderrTail.split("\n").map((l) => `    ${l}`));
    }
  }
  const lcFailed = r.servers.filter((s) => s.langchainError);
  if (lcFailed.length) {
    lines.push("", "Servers @langchain/mcp-adapters could not load (Tool Attention lists them tolerantly):");
    for (const s of lcFailed) lines.push(`- ${s.server}: ${s.langchainError}`);
  }
  const findings = r.screening?.findings ?? [];
  lines.push(
    "",
    `Tool screening: ${findings.length} finding${findings.length === 1 ? "" : "s"} (${r.screening?.encoder.used ? `rules, sentence reader, lexical model and encoder ${r.screening.encoder.model}` : "rules, sentence reader and lexical model; encoder not used"}).`,
  );
  const clip = (sentence: string) => (sentence.length > 160 ? `${sentence.slice(0, 160)}…` : sentence);
  for (const f of findings) lines.push(`- ${f.action} · ${f.category} (${f.score.toFixed(2)}, ${f.source}) · server "${f.server}", tool "${f.tool}", ${f.field}: "${clip(f.sentence)}"`);
  const setAside = r.screening?.setAside ?? [];
  if (setAside.length) {
    lines.push("", `Set aside by the lexical model (the tool's words read as honest; nothing quarantined): ${setAside.length}`);
    for (const f of setAside) lines.push(`- ${f.category} (${f.source}) · server "${f.server}", tool "${f.tool}", ${f.field}: "${clip(f.sentence)}"`);
  }
  const held = r.pins?.held ?? [];
  if (r.pins?.file) {
    lines.push(
      "",
      `Pinned definitions (${r.pins.file}): ${held.length ? `${held.length} tool${held.length === 1 ? "" : "s"} changed since approved, held out of routing until approved` : "every listed tool matches its approved definition, or is new"}` +
        (r.pins.approved ? `; --approve pinned the current definitions of ${r.pins.approved} tools.` : held.length ? "; approve with --approve." : "."),
    );
    for (const h of held) {
      lines.push(`- server "${h.server}", tool "${h.tool}": ${h.changed.join(", ")}`);
      lines.push(...h.diff.map((d) => `    ${d}`));
    }
  }
  const repaired = r.servers.flatMap((s) => [...s.warnings, ...s.skipped.map((k) => `server "${s.server}", tool "${k.tool}": skipped: ${k.reason}`)]);
  if (repaired.length) {
    lines.push("", "Repaired or skipped tools:");
    for (const w of repaired) lines.push(`- ${w}`);
  }
  return lines.join("\n");
}
