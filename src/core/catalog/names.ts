/**
 * Name resolution for tool calls: the name a model calls is not always the name the catalog gives the tool.
 * Models drop the server prefix of a server-qualified name (`create_entities` for `memory__create_entities`), add
 * one in a notation of their own (`github.create_issue`, `github/create_issue`, `github:create_issue`,
 * `github_create_issue` for `create_issue` on server `github`), or change the letter case or `-`/`_`. Answering
 * such a call with "no tool named …" costs a round trip for a call whose meaning is clear, so the gate resolves it
 * to the canonical name — but only when exactly one tool fits: a guess between two tools would run the wrong one.
 *
 * Pure and synchronous; the per-catalog lookup tables are built once (a replaced catalog gets new ones).
 */
import type { ToolCatalog } from "./catalog.js";

/** How a called name was mapped to a catalog name. */
export type ResolvedHow = "unqualified" | "server-qualified" | "case";

export type CallNameResolution =
  /** The catalog has a tool of exactly this name. */
  | { status: "exact"; name: string }
  /** Exactly one catalog tool fits (or exactly one of the fitting tools is active): call it by `name`. */
  | { status: "resolved"; name: string; how: ResolvedHow }
  /** Several catalog tools fit and the active set does not decide: the model must pick one by its exact name. */
  | { status: "ambiguous"; candidates: string[] }
  | { status: "none" };

/** Case and `-`/`_` (and stray spaces) do not tell two tool names apart for a model. */
export function normalizeToolName(name: string): string {
  return name.trim().toLowerCase().replace(/[-\s]+/g, "_");
}

/** Separators models put between a server and a tool name; `__` first so `a__b` is not read as `a` + `_b`. */
const SEPARATORS = ["__", ".", "/", ":", "_"] as const;

interface NameIndex {
  /** Normalized full name → catalog names. */
  byNorm: Map<string, string[]>;
  /** Normalized unqualified name (the `server__` prefix of a qualified name removed) → catalog names. */
  byBase: Map<string, string[]>;
  /** `server\0name` (both normalized; name qualified or not) → catalog names. */
  byServerName: Map<string, string[]>;
  /** Normalized server names, longest first (so `git` does not take the prefix of `github_…`). */
  servers: string[];
}

const indexes = new WeakMap<ToolCatalog, NameIndex>();

function add(map: Map<string, string[]>, key: string, name: string): void {
  const list = map.get(key);
  if (!list) map.set(key, [name]);
  else if (!list.includes(name)) list.push(name);
}

/** A tool's name without the `server__` prefix the catalog (or an MCP session) adds when names collide. */
export function unqualifiedName(name: string, server: string): string {
  return server && name.startsWith(`${server}__`) && name.length > server.length + 2 ? name.slice(server.length + 2) : name;
}

function indexOf(catalog: ToolCatalog): NameIndex {
  let index = indexes.get(catalog);
  if (index) return index;
  index = { byNorm: new Map(), byBase: new Map(), byServerName: new Map(), servers: [] };
  const servers = new Set<string>();
  for (const t of catalog.tools) {
    const base = normalizeToolName(unqualifiedName(t.name, t.server));
    add(index.byNorm, normalizeToolName(t.name), t.name);
    add(index.byBase, base, t.name);
    if (t.server) {
      const server = normalizeToolName(t.server);
      servers.add(server);
      add(index.byServerName, `${server}\0${base}`, t.name);
      add(index.byServerName, `${server}\0${normalizeToolName(t.name)}`, t.name);
    }
  }
  index.servers = [...servers].sort((a, b) => b.length - a.length);
  indexes.set(catalog, index);
  return index;
}

/** One name, one among the active ones, or several. */
function pickName(names: readonly string[], active: ReadonlySet<string>, how: ResolvedHow): CallNameResolution | undefined {
  if (names.length === 0) return undefined;
  if (names.length === 1) return { status: "resolved", name: names[0], how };
  const live = names.filter((n) => active.has(n));
  if (live.length === 1) return { status: "resolved", name: live[0], how };
  return { status: "ambiguous", candidates: [...names] };
}

/**
 * Resolves the name a model called to a catalog tool name. Tried in order, the first that fits decides:
 * 1. exact: a catalog tool has this name;
 * 2. case: the name differs from one catalog name only in letter case or `-`/`_`;
 * 3. server-qualified: `<server><sep><tool>` with `<server>` a server of the catalog and sep one of
 *    `__ . / : _`, naming a tool of that server (by its unqualified or its full name);
 * 4. unqualified: the name of a tool the catalog qualifies as `server__name`.
 * When a step finds several tools, the one among `active` wins if it is the only active one; otherwise the
 * result is `ambiguous` with the candidates (later steps are not tried: they would only guess wider).
 */
export function resolveCallName(catalog: ToolCatalog, calledName: string, active: readonly string[] = []): CallNameResolution {
  if (typeof calledName !== "string" || calledName.trim() === "") return { status: "none" };
  if (catalog.getByName(calledName).length > 0) return { status: "exact", name: calledName };
  const index = indexOf(catalog);
  const live = new Set(active);
  // The index holds every tool the catalog was built with; a name it offers is one the catalog still finds (screened
  // first while screening is pending, so a tool quarantined since is not offered).
  const pick = (names: readonly string[], active: ReadonlySet<string>, how: ResolvedHow) =>
    pickName(names.filter((n) => catalog.getByName(n).length > 0), active, how);
  const called = normalizeToolName(calledName);

  const byCase = pick(index.byNorm.get(called) ?? [], live, "case");
  if (byCase) return byCase;

  const qualified: string[] = [];
  for (const server of index.servers)
    for (const sep of SEPARATORS) {
      if (!called.startsWith(server + sep)) continue;
      const rest = called.slice(server.length + sep.length);
      for (const name of index.byServerName.get(`${server}\0${rest}`) ?? []) if (!qualified.includes(name)) qualified.push(name);
    }
  const byServer = pick(qualified, live, "server-qualified");
  if (byServer) return byServer;

  const byBase = pick(index.byBase.get(called) ?? [], live, "unqualified");
  if (byBase) return byBase;
  return { status: "none" };
}
