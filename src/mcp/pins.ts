/**
 * Pinned tool definitions: what the user approved of each MCP server's tools, so a definition that changes later
 * (a "rug pull": a server rewriting a description after it was trusted) is held out of the catalog until approved.
 *
 * - A pin is the sha256 of a tool's canonical definition (see `definitionHash`) plus the definition itself, so a
 *   held tool can be shown beside what was approved.
 * - Pins are kept per server name in one JSON file, `<dir>/mcp-pins.json`, written atomically (a temp file in the
 *   same directory, then a rename), so a crash never leaves half a file; each write merges over the file as it is
 *   then, so pins another process wrote meanwhile are kept.
 * - With `store` (a `PostgresRoutingStore`) they live in the shared store instead (see pins-postgres.ts), so every
 *   process over that store sees the same approvals.
 * - Without a directory or store the pins live in memory for the life of the process.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { ToolSpec } from "../core/types.js";
import { defaultEmbeddingCacheDir } from "../core/encoders/cache.js";
import type { McpServerConfig } from "./config.js";
import { PostgresPins, type PinPostgresStore } from "./pins-postgres.js";

/** The part of a tool definition that is pinned: exactly what reaches the model. */
export interface PinnedDefinition {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** One approved definition. */
export interface Pin {
  hash: string;
  definition: PinnedDefinition;
}

/** What to do with a definition that does not match its pin. */
export type PinAction = "hold" | "allow";

/**
 * `McpSessionOptions.pins`. `false` keeps pins in memory for this process (nothing is written), with the default
 * policy.
 */
export interface PinOptions {
  /**
   * Directory of the pin file (`mcp-pins.json`). Default: the embedding cache directory
   * (`TOOL_ATTENTION_CACHE_DIR`, else `.cache/tool-attention/embeddings` under the working directory); `false`, or
   * `TOOL_ATTENTION_CACHE_DIR=off`, keeps pins in memory for this process.
   */
  dir?: string | false;
  /**
   * A `PostgresRoutingStore` to keep the pins in (table `mcp_pins` of its schema) instead of a file: every process
   * over the store shares the approvals. Not with `dir`.
   */
  store?: PinPostgresStore;
  /**
   * A tool whose definition (name, description, inputSchema) differs from its pin: `"hold"` leaves it out of the
   * catalog until approved (`McpSession.approve()` or `tool-attention audit --approve`); `"allow"` re-pins it and
   * keeps it. Default `"hold"`.
   */
  changed?: PinAction;
  /**
   * A tool with no pin: `"allow"` pins it on first sight and keeps it (trust on first use, also for the first
   * listing of a server with no pins at all); `"hold"` leaves it out until approved, including every tool of a
   * server listed for the first time. Default `"allow"`.
   */
  added?: PinAction;
}

export interface ResolvedPinOptions {
  dir: string | false;
  store?: PinPostgresStore;
  changed: PinAction;
  added: PinAction;
}

const PIN_FILE = "mcp-pins.json";
const FORMAT = 1;

/**
 * The key a server's pins are kept under: its name and a short hash of how it is reached (command, arguments and
 * working directory, or URL), so two different servers that happen to share a name in two configs never share
 * pins. Only the hash is stored: arguments and URLs may carry credentials. Environment and headers are left out,
 * for the same reason and because rotating a token is not a different server.
 */
export function pinSource(server: string, config: McpServerConfig | undefined): string {
  if (!config) return server;
  const launch = config.transport === "http" ? { url: config.url } : { command: config.command, args: config.args, cwd: config.cwd };
  return `${server}#${createHash("sha256").update(canonicalJson(launch)).digest("hex").slice(0, 12)}`;
}

/** Validates `pins` (misconfiguration fails at construction, naming the field). */
export function resolvePinOptions(pins: PinOptions | false | undefined): ResolvedPinOptions {
  if (pins === false) return { dir: false, changed: "hold", added: "allow" };
  if (pins !== undefined && (typeof pins !== "object" || pins === null || Array.isArray(pins)))
    throw new Error(`Invalid pins: expected an object ({ dir, changed, added }) or false, got ${JSON.stringify(pins)}`);
  const o = pins ?? {};
  for (const key of Object.keys(o))
    if (!["dir", "store", "changed", "added"].includes(key)) throw new Error(`Invalid pins.${key}: unknown option (expected dir, store, changed or added)`);
  for (const key of ["changed", "added"] as const) {
    const v = o[key];
    if (v !== undefined && v !== "hold" && v !== "allow") throw new Error(`Invalid pins.${key}: ${JSON.stringify(v)} (expected "hold" or "allow")`);
  }
  if (o.dir !== undefined && o.dir !== false && (typeof o.dir !== "string" || o.dir.trim() === ""))
    throw new Error(`Invalid pins.dir: ${JSON.stringify(o.dir)} (expected a directory path or false)`);
  if (o.store !== undefined) {
    const st = o.store as Partial<PinPostgresStore> | null;
    if (!st || typeof st !== "object" || st.kind !== "postgres" || typeof st.connect !== "function" || typeof st.schema !== "string")
      throw new Error("Invalid pins.store: expected a PostgresRoutingStore");
    if (o.dir !== undefined) throw new Error("Invalid pins: give pins.dir (a pin file) or pins.store (PostgreSQL), not both");
    return { dir: false, store: o.store, changed: o.changed ?? "hold", added: o.added ?? "allow" };
  }
  const dir = o.dir === undefined ? defaultEmbeddingCacheDir() : o.dir === false ? false : path.resolve(o.dir);
  return { dir, changed: o.changed ?? "hold", added: o.added ?? "allow" };
}

// Past this depth a schema is written as a marker: the catalog cuts schemas far shallower than this before they
// reach the model, and a hostile 10,000-level schema must not overflow the stack here.
const MAX_DEPTH = 256;

/**
 * Sorted-key JSON with a depth cap. The canonical JSON helpers of the store and compaction modules recurse without
 * one, and pins are computed on raw server output before the catalog has cut anything.
 */
function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) return '"[too deep]"';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v, depth + 1)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value as object).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Pretty-printed canonical JSON (for diffs): the same depth cap, keys sorted. */
function prettyLines(definition: PinnedDefinition): string[] {
  return JSON.stringify(JSON.parse(canonicalJson(definition)), null, 2).split("\n");
}

/** The pinned part of a tool as the server declared it. */
export function pinnedDefinition(spec: ToolSpec): PinnedDefinition {
  return {
    name: spec.name,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    ...(spec.inputSchema === undefined ? {} : { inputSchema: spec.inputSchema }),
  };
}

/**
 * sha256 of the canonical JSON of name + description + inputSchema. These are what the model reads and what its
 * arguments are shaped by, so a change to any of them can steer the model; annotations, titles and outputSchema
 * are left out so a cosmetic change does not ask the user to approve again. Canonical (sorted keys) so the same
 * definition re-serialized in another key order keeps its pin.
 */
export function definitionHash(definition: PinnedDefinition): string {
  return createHash("sha256").update(canonicalJson(definition)).digest("hex");
}

/** Which pinned fields differ between two definitions ("description", "inputSchema", or "new" with no pin). */
export function changedFields(previous: PinnedDefinition | undefined, current: PinnedDefinition): string[] {
  if (!previous) return ["new"];
  const out: string[] = [];
  if (canonicalJson(previous.description ?? null) !== canonicalJson(current.description ?? null)) out.push("description");
  if (canonicalJson(previous.inputSchema ?? null) !== canonicalJson(current.inputSchema ?? null)) out.push("inputSchema");
  return out.length ? out : ["name"];
}

/** The decision for one server's listing against its pins. */
export interface PinCheck {
  /** Tools left out until approved, with what was approved before (undefined for a new tool). */
  held: { tool: string; previous?: PinnedDefinition; current: PinnedDefinition; changed: string[] }[];
  /** Pins to record now (trust on first use, or the `allow` policy). */
  pin: Pin[];
}

/**
 * The pinned definition and hash of a listed tool, once per spec object: a session checks every server's listing on
 * each rebuild, and a listing's spec objects are kept until the server lists again.
 */
const hashed = new WeakMap<ToolSpec, { definition: PinnedDefinition; hash: string }>();
function hashedDefinition(spec: ToolSpec): { definition: PinnedDefinition; hash: string } {
  let hit = hashed.get(spec);
  if (!hit) {
    const definition = pinnedDefinition(spec);
    hit = { definition, hash: definitionHash(definition) };
    hashed.set(spec, hit);
  }
  return hit;
}

/** Compares one server's tools with its pins under a policy (pure). `pins` undefined: the server was never pinned. */
export function checkPins(pins: ReadonlyMap<string, Pin> | undefined, specs: readonly ToolSpec[], policy: Pick<ResolvedPinOptions, "changed" | "added">): PinCheck {
  const out: PinCheck = { held: [], pin: [] };
  for (const spec of specs) {
    const { definition: current, hash } = hashedDefinition(spec);
    const pin = pins?.get(spec.name);
    if (pin?.hash === hash) continue;
    const action = pin ? policy.changed : policy.added;
    if (action === "allow") out.pin.push({ hash, definition: current });
    else out.held.push({ tool: spec.name, previous: pin?.definition, current, changed: changedFields(pin?.definition, current) });
  }
  return out;
}

/** The pins of every server, in memory and (with a directory) in `<dir>/mcp-pins.json`. */
/** Where pins persist besides the file: read once when a session starts, written on every pin. */
export interface PinBackend {
  /** Where the pins are, for messages and reports. */
  readonly where: string;
  load(): Promise<Map<string, Map<string, Pin>>>;
  save(entries: readonly (readonly [string, readonly Pin[]])[]): Promise<void>;
}

export class PinStore {
  private readonly servers = new Map<string, Map<string, Pin>>();
  /** The pin file, or where the backend keeps the pins. */
  file?: string;
  private backend?: PinBackend;
  private writes: Promise<void> = Promise.resolve();
  private writeError?: Error;

  /**
   * The store a resolved policy names: the pin file (read now), or the PostgreSQL store's pins (read before this
   * resolves). A store that cannot be read is an error: pins are not guessed.
   */
  static async open(policy: Pick<ResolvedPinOptions, "dir" | "store">): Promise<PinStore> {
    if (!policy.store) return new PinStore(policy.dir);
    const pins = new PinStore(false);
    pins.backend = new PostgresPins(policy.store);
    pins.file = pins.backend.where;
    for (const [server, map] of await pins.backend.load()) pins.servers.set(server, map);
    return pins;
  }

  /**
   * Waits for the pins written so far to reach the backend; rejects with the first write that failed since the last
   * call (the pins still hold in memory). Immediate for a pin file, which is written synchronously.
   */
  async flush(): Promise<void> {
    await this.writes;
    const err = this.writeError;
    this.writeError = undefined;
    if (err) throw err;
  }

  /** Reads the pin file, if any. A file that cannot be read or parsed is an error naming it: pins are not guessed. */
  constructor(readonly dir: string | false) {
    if (dir === false) return;
    this.file = path.join(dir, PIN_FILE);
    for (const [server, pins] of readPinFile(this.file) ?? []) this.servers.set(server, pins);
  }

  /** A server's pins, or undefined when it was never pinned (its first listing is then trusted on first use). */
  get(server: string): ReadonlyMap<string, Pin> | undefined {
    return this.servers.get(server);
  }

  /** Records pins for a server (an empty list still marks the server as seen) and writes the file. */
  set(server: string, pins: readonly Pin[]): void {
    this.setMany([[server, pins]]);
  }

  /** Records pins for several servers with one write of the file (a session pins every new server of a rebuild). */
  setMany(entries: readonly (readonly [string, readonly Pin[]])[]): void {
    if (entries.length === 0) return;
    for (const [server, pins] of entries) {
      const map = this.servers.get(server) ?? new Map<string, Pin>();
      for (const p of pins) map.set(p.definition.name, p);
      this.servers.set(server, map);
    }
    this.save(entries);
  }

  /**
   * Writes what this call changed over the file as it is now, so pins another process wrote since this store was
   * read (another session, an `audit --approve`) are kept.
   */
  private save(entries: readonly (readonly [string, readonly Pin[]])[]): void {
    if (this.backend) {
      const backend = this.backend;
      // In order, one at a time: a later approval of a tool must not be overtaken by an earlier pin of it.
      this.writes = this.writes.then(() =>
        backend.save(entries).catch((err: Error) => {
          this.writeError ??= err;
        }),
      );
      return;
    }
    if (!this.file || this.dir === false) return;
    const onDisk = readPinFile(this.file) ?? new Map<string, Map<string, Pin>>();
    for (const [server, pins] of entries) {
      const merged = onDisk.get(server) ?? new Map<string, Pin>();
      for (const p of pins) merged.set(p.definition.name, p);
      onDisk.set(server, merged);
    }
    const data = { format: FORMAT, servers: Object.fromEntries([...onDisk].map(([s, m]) => [s, Object.fromEntries(m)])) };
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(tmp, `${JSON.stringify(data, null, 1)}\n`);
      renameSync(tmp, this.file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw new Error(`Cannot write the MCP pin file ${this.file}: ${(err as Error).message}`);
    }
  }
}

/** The pins of a pin file by server, or undefined when there is none. */
function readPinFile(file: string): Map<string, Map<string, Pin>> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`Cannot read the MCP pin file ${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`The MCP pin file ${file} is not valid JSON; delete it to approve every current tool definition again`);
  }
  const servers = (data as { servers?: unknown })?.servers;
  if (!servers || typeof servers !== "object" || Array.isArray(servers))
    throw new Error(`The MCP pin file ${file} has no "servers" object; delete it to approve every current tool definition again`);
  const out = new Map<string, Map<string, Pin>>();
  for (const [server, tools] of Object.entries(servers as Record<string, Record<string, Pin>>)) {
    const map = new Map<string, Pin>();
    for (const [tool, pin] of Object.entries(tools ?? {}))
      if (pin && typeof pin.hash === "string" && pin.definition && typeof pin.definition === "object") map.set(tool, pin);
    out.set(server, map);
  }
  return out;
}

/** A line diff of two definitions' pretty-printed JSON ("- " removed, "+ " added, "  " kept). */
export function definitionDiff(previous: PinnedDefinition | undefined, current: PinnedDefinition): string[] {
  const a = previous ? prettyLines(previous) : [];
  const b = prettyLines(current);
  // Past a few million cells the table costs more than it shows: the whole old text, then the whole new one.
  if (a.length * b.length > 2_000_000) return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)];
  // Longest common subsequence over lines: definitions are small, so the quadratic table is fine.
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push(`  ${a[i++]}`);
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  while (i < n) out.push(`- ${a[i++]}`);
  while (j < m) out.push(`+ ${b[j++]}`);
  return out;
}
