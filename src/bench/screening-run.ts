/**
 * Runs only the screening section of the bench: `node --import tsx src/bench/screening-run.ts [--out DIR]
 * [--no-real]`. Writes screening.md and screening.json to DIR (default reports/bench). The real catalog is captured
 * from the MCP servers installed as devDependencies (cached under .cache/tool-attention).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { captureCatalog } from "../mcp/capture.js";
import { closeUseLiteWorkers } from "../core/encoders/index.js";
import { measureCategories, measureScreening, renderCategoryMarkdown, renderScreeningMarkdown } from "./screening.js";
import { INDEPENDENT_SETS, measureIndependentSet, renderIndependentMarkdown } from "./screening-independent.js";

const REAL_SERVERS_CONFIG = fileURLToPath(new URL("../../data/mcp/real-servers.json", import.meta.url));

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const outAt = args.indexOf("--out");
  const out = resolve(outAt >= 0 ? args[outAt + 1] : "reports/bench");
  const real = args.includes("--no-real") ? undefined : (await captureCatalog(REAL_SERVERS_CONFIG)).catalog;
  const legacy = measureScreening({ realCatalog: real });
  const rules = await measureCategories({ realCatalog: real, encoder: false });
  const withEncoder = await measureCategories({ realCatalog: real, encoder: true, cacheDir: false });
  const neighbours = real?.servers.flatMap((s) => s.tools.map((t) => ({ name: t.name, server: s.name })));
  const independent = INDEPENDENT_SETS.flatMap((set) => [measureIndependentSet(set), ...(neighbours ? [measureIndependentSet(set, neighbours)] : [])]);
  const started = new Date().toISOString();
  mkdirSync(out, { recursive: true });
  const md = `<!-- measured ${started} with: node --import tsx src/bench/screening-run.ts -->\n\n${renderCategoryMarkdown([rules, withEncoder])}\n${renderIndependentMarkdown(independent)}\n${renderScreeningMarkdown(legacy)}`;
  writeFileSync(join(out, "screening.md"), md);
  writeFileSync(join(out, "screening.json"), `${JSON.stringify({ measuredAt: started, legacy, rules, withEncoder, independent }, null, 2)}\n`);
  process.stdout.write(md);
  await closeUseLiteWorkers();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exitCode = 1;
});
