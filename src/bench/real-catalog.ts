/**
 * The real catalog for the benchmark: the tools of the real MCP servers listed in data/mcp/real-servers.json,
 * captured by starting each server and calling `tools/list` (cached on disk for re-runs, never committed).
 *
 * The benchmark treats it like any other set (same `runMethods` path as the synthetic catalog). Until the capture
 * module is part of this build, this returns a skip reason, and the report prints it.
 */
import { existsSync } from "node:fs";
import type { ToolCatalog } from "../core/catalog/catalog.js";
import type { EvalTask } from "../eval/tasks.js";

export interface RealCatalog {
  catalog: ToolCatalog;
  /** Tasks with gold tools over this catalog; may be empty (then only token rows are measured). */
  tasks: EvalTask[];
  /** Where the tools came from (servers, versions, capture cache file). */
  source: string;
}

export const REAL_SERVERS_CONFIG = "data/mcp/real-servers.json";

/** Loads the real catalog, or says why it cannot be loaded here. */
export async function loadRealCatalog(): Promise<RealCatalog | { skipped: string }> {
  if (!existsSync(REAL_SERVERS_CONFIG))
    return { skipped: `not captured: no server config at ${REAL_SERVERS_CONFIG} and no MCP capture module (src/mcp) in this build` };
  return { skipped: `not captured: the MCP capture module (src/mcp captureCatalog) is not in this build` };
}
