/**
 * Captures the tool lists of every server in an MCP config into the shared catalog file format
 * (`{"servers": [{"name", "tools": [ToolSpec…]}]}`), cached under `.cache/tool-attention/`. The cache key covers
 * the resolved config and the installed version of each server package, so upgrading a server re-captures.
 * Benchmarks use this to run on a real catalog without starting every server on every run.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { CatalogFile } from "../core/catalog/catalog.js";
import { loadMcpConfig, type McpConfig } from "./config.js";
import { McpServerConnection, type McpConnectOptions, type McpServerFailure } from "./connection.js";

export interface CaptureOptions extends McpConnectOptions {
  /** Cache file to read or write. Default `.cache/tool-attention/mcp-capture-<key>.json` under the working directory. */
  cacheFile?: string;
  /** Ignore an existing cache file and list the servers again. Default false. */
  refresh?: boolean;
  /** Receives repair/skip warnings while listing. */
  onWarning?: (message: string) => void;
}

/** A capture as stored: the shared catalog format plus where it came from. */
export interface CapturedCatalog extends CatalogFile {
  capture: {
    key: string;
    source: string;
    capturedAt: string;
    /** `name@version` of each server's npm package, when the command runs one. */
    packages: Record<string, string>;
    failures: McpServerFailure[];
    warnings: string[];
  };
}

export interface CaptureResult {
  catalog: CapturedCatalog;
  file: string;
  fromCache: boolean;
}

/** `name@version` of the npm package that holds a script path, found by walking up to its package.json. */
export function packageOfScript(path: string): string | undefined {
  let dir = dirname(resolve(path));
  for (let i = 0; i < 12; i++) {
    const pj = join(dir, "package.json");
    if (existsSync(pj)) {
      try {
        const { name, version } = JSON.parse(readFileSync(pj, "utf8")) as { name?: string; version?: string };
        if (name && version) return `${name}@${version}`;
      } catch {
        return undefined;
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** The packages a config's stdio servers run (first script argument that is a file). */
export function serverPackages(config: McpConfig): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, server] of Object.entries(config.servers)) {
    if (server.transport !== "stdio") continue;
    const script = server.args.find((a) => !a.startsWith("-") && (isAbsolute(a) || a.includes("/")) && existsSync(a));
    const pkg = script ? packageOfScript(script) : undefined;
    if (pkg) out[name] = pkg;
  }
  return out;
}

/** The cache key: resolved config + installed server package versions. */
export function captureKey(config: McpConfig): string {
  const h = createHash("sha256");
  h.update(JSON.stringify(config.servers)).update("\0").update(JSON.stringify(serverPackages(config)));
  return h.digest("hex").slice(0, 16);
}

/** Lists every server of the config (or reads the cached capture) and returns it in the shared catalog format. */
export async function captureCatalog(config: McpConfig | string, options: CaptureOptions = {}): Promise<CaptureResult> {
  const parsed = typeof config === "string" ? loadMcpConfig(config) : config;
  const key = captureKey(parsed);
  const file = options.cacheFile ?? join(process.cwd(), ".cache", "tool-attention", `mcp-capture-${key}.json`);
  if (!options.refresh && existsSync(file)) {
    try {
      const cached = JSON.parse(readFileSync(file, "utf8")) as CapturedCatalog;
      if (cached?.capture?.key === key && Array.isArray(cached.servers)) return { catalog: cached, file, fromCache: true };
    } catch {
      // A damaged cache file is re-captured below.
    }
  }
  const names = Object.keys(parsed.servers);
  const warnings: string[] = [];
  const failures: McpServerFailure[] = [];
  const servers: CatalogFile["servers"] = [];
  const listed = await Promise.all(
    names.map(async (name) => {
      const conn = await McpServerConnection.connect(name, parsed.servers[name], options);
      try {
        if (conn.state !== "ready") return { name, conn };
        return { name, conn, listing: await conn.listTools().catch(() => undefined) };
      } finally {
        await conn.close();
      }
    }),
  );
  for (const { name, conn, listing } of listed) {
    if (!listing) {
      if (conn.failure) failures.push(conn.failure);
      continue;
    }
    for (const w of [...listing.warnings, ...listing.skipped.map((s) => `server "${s.server}", tool "${s.tool}": skipped: ${s.reason}`)]) {
      warnings.push(w);
      options.onWarning?.(w);
    }
    servers.push({ name, tools: listing.tools.map((t) => t.spec) });
  }
  const catalog: CapturedCatalog = {
    servers,
    capture: { key, source: parsed.source, capturedAt: new Date().toISOString(), packages: serverPackages(parsed), failures, warnings },
  };
  // Only a complete capture is cached: a server that failed this time should be tried again next time.
  if (failures.length === 0) {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(catalog));
    renameSync(tmp, file);
  }
  return { catalog, file, fromCache: false };
}
