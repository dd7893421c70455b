/**
 * The real catalog for the benchmark: the tools of the real MCP servers listed in data/mcp/real-servers.json
 * (installed as devDependencies), captured by starting each server and calling `tools/list`. The capture is
 * cached under .cache/tool-attention/ keyed by the config and the installed package versions, so a re-run does
 * not start the servers again; it is never committed.
 *
 * The benchmark treats it like any other set (same `runMethods` path as the synthetic catalog). Its gold tasks
 * (data/mcp/real-tasks.jsonl: single-tool, multi-request and long-horizon requests written over these tools) are
 * checked against the capture: a task whose gold tool is not in it (its server failed to start, or a new server
 * version renamed the tool) is dropped with a warning naming the task and the tool, so the other tasks still run.
 */
import { existsSync } from "node:fs";
import { ToolCatalog } from "../core/catalog/catalog.js";
import type { TokenEncoding } from "../core/tokens/count.js";
import { captureCatalog } from "../mcp/capture.js";
import { loadTasks, type EvalTask } from "../eval/tasks.js";

export interface RealCatalog {
  catalog: ToolCatalog;
  /** Tasks with gold tools over this catalog; may be empty (then only token rows are measured). */
  tasks: EvalTask[];
  /** Where the tools came from (servers, versions, capture cache file). */
  source: string;
}

export const REAL_SERVERS_CONFIG = "data/mcp/real-servers.json";
/** Gold tasks over the real catalog; when the file is absent the set has no tasks (token rows only). */
export const REAL_TASKS = "data/mcp/real-tasks.jsonl";

/**
 * Keeps the tasks whose every gold tool is in the catalog; each dropped task is reported once, naming the task and
 * the missing tools (a gold name is met by a tool of that name on any server).
 */
export function tasksInCatalog(
  tasks: readonly EvalTask[],
  catalog: ToolCatalog,
  warn: (line: string) => void = () => {},
  source = "tasks",
): EvalTask[] {
  return tasks.filter((t) => {
    const missing = t.gold.filter((g) => catalog.getByName(g).length === 0);
    if (missing.length === 0) return true;
    warn(`${source}: task ${t.id} dropped: gold tool${missing.length > 1 ? "s" : ""} ${missing.map((g) => `"${g}"`).join(", ")} not in the captured catalog`);
    return false;
  });
}

/** Captures (or reads the cached capture of) the real catalog, or says why it cannot be loaded here. */
export async function loadRealCatalog(
  opts: { config?: string; tasks?: string; encoding?: TokenEncoding; log?: (line: string) => void } = {},
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
  const tasksPath = opts.tasks ?? REAL_TASKS;
  const tasks = existsSync(tasksPath) ? tasksInCatalog(loadTasks(tasksPath), catalog, opts.log, tasksPath) : [];
  return { catalog, tasks, source: existsSync(tasksPath) ? `${source}; tasks ${tasksPath}` : source };
}
