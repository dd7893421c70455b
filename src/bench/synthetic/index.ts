/**
 * The synthetic MCP testbed: a six-server catalog calibrated to Table 2 of the Tool Attention paper, tasks with
 * gold tool sets, and larger catalogs for scaling runs.
 */
import type { CatalogFile } from "../../core/catalog/catalog.js";
import { DEFAULT_SEED, generateCatalog } from "./generate.js";
import { generateTasks, type SyntheticTask } from "./tasks.js";

export { Rng, subSeed } from "./prng.js";
export type { ServerDef, ToolDef, ToolKind, PoolParam } from "./model.js";
export { SERVERS } from "./servers/index.js";
export { SCENARIOS, type Scenario } from "./scenarios.js";
export { DEFAULT_SEED, TABLE2_TOTAL_TOKENS, catalogTokenStats, generateCatalog, schemaTokensOf, serverBudgets } from "./generate.js";
export { generateTasks, type SyntheticTask, type TaskKind, type TaskOptions, type TaskState } from "./tasks.js";

/** The catalog and tasks for a seed (42 is the committed testbed). */
export function syntheticTestbed(seed = DEFAULT_SEED): { catalog: CatalogFile; tasks: SyntheticTask[] } {
  return { catalog: generateCatalog(seed), tasks: generateTasks({ seed }) };
}

/** The exact bytes of the committed catalog file. */
export function renderCatalogFile(catalog: CatalogFile): string {
  return `${JSON.stringify(catalog, null, 1)}\n`;
}

/** The exact bytes of the committed tasks file: one task per line. */
export function renderTasksFile(tasks: readonly SyntheticTask[]): string {
  return tasks.map((t) => JSON.stringify(t)).join("\n") + "\n";
}
export { expandCatalog } from "./expand.js";
