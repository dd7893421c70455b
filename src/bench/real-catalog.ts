/**
 * The real catalog for the benchmark: the tools of the real MCP servers listed in data/mcp/real-servers.json
 * (installed as devDependencies), captured by starting each server and calling `tools/list`. The capture is
 * cached under .cache/tool-attention/ keyed by the config and the installed package versions, so a re-run does
 * not start the servers again; it is never committed.
 *
 * The benchmark treats it like any other set (same `runMethods` path as the synthetic catalog). It has no gold
 * tasks, so only the token rows are measured on it.
 */
import { existsSync } from "node:fs";
import { ToolCatalog } from "../core/catalog/catalog.js";
import type { TokenEncoding } from "../core/tokens/count.js";
import { captureCatalog } from "../mcp/capture.js";
import type { EvalTask } from "../eval/tasks.js";

export interface RealCatalog {
  catalog: ToolCatalog;
  /** Tasks with gold tools over this catalog; may be empty (then only token rows are measured). */
  tasks: EvalTask[];
  /** Where the tools came from (servers, versions, capture cache file). */
  source: string;
}

export const REAL_SERVERS_CONFIG = "data/mcp/real-servers.json";

/** Captures (or reads the cached capture of) the real catalog, or says why it cannot be loaded here. */
export async function loadRealCatalog(
  opts: { config?: string; encoding?: TokenEncoding; log?: (line: string) => void } = {},
): Promise<RealCatalog | { skipped: string }> {
  const config = opts.config ?? REAL_SERVERS_CONFIG;
  if (!existsSync(config)) return { skipped: `not captured: no server config at ${config}` };
  let captured;
  try {
    captured = await captureCatalog(config);
  } catch (err) {
    return { skipped: `not captured: ${(err as Error).message.split("\n")[0]}` };
  }
  const { catalog: file, fromCache } = captured;
  const failed = file.capture.failures.map((f) => f.server);
  if (file.servers.length === 0) return { skipped: `not captured: every server failed (${failed.join(", ")})` };
  const catalog = ToolCatalog.fromCatalogObject(file, { encoding: opts.encoding, onWarning: opts.log });
  const packages = Object.values(file.capture.packages);
  const source =
    `${config}: ${file.servers.length} servers (${packages.length} npm packages), captured ${file.capture.capturedAt}` +
    `${fromCache ? " (cached)" : ""}${failed.length ? `; failed: ${failed.join(", ")}` : ""}`;
  return { catalog, tasks: [], source };
}
