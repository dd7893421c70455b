/**
 * Writes the synthetic testbed: `data/synthetic/catalog.json` and `data/synthetic/tasks.jsonl`
 * (`npm run gen:synthetic`). Deterministic: re-running it reproduces the committed files byte for byte.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { catalogTokenStats } from "./generate.js";
import { renderCatalogFile, renderTasksFile, syntheticTestbed } from "./index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const out = join(root, process.argv[2] ?? "data/synthetic");
const { catalog, tasks } = syntheticTestbed();
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "catalog.json"), renderCatalogFile(catalog));
writeFileSync(join(out, "tasks.jsonl"), renderTasksFile(tasks));
const stats = catalogTokenStats(catalog);
const kinds = new Map<string, number>();
for (const t of tasks) kinds.set(t.kind, (kinds.get(t.kind) ?? 0) + 1);
process.stderr.write(
  `wrote ${out}: ${stats.tools} tools, ${stats.total} cl100k tokens ` +
    `(${stats.servers.map((s) => `${s.name} ${s.tools}×${s.perTool.toFixed(0)}`).join(", ")}); ` +
    `${tasks.length} tasks (${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")})\n`,
);
