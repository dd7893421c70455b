/**
 * Tool-poisoning screen, measured: detection on the labelled poisoned set (data/screening/poisoned.jsonl, split
 * into dev and test by alternation; the rules were written against dev only, so test is the held-out figure) and
 * false positives on clean catalogs: the project's synthetic catalog, the demo catalog and, when given, the real
 * MCP catalog captured from the servers installed as devDependencies (never stored in the repo).
 *
 * Clean tools go through `ToolCatalog` exactly as an application's would (each screened next to its own catalog),
 * so a false positive here is a tool a user would see quarantined. Each poisoned tool is screened as the tool of an
 * extra, untrusted server installed next to those same clean tools.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ToolCatalog, type CatalogFile } from "../core/catalog/catalog.js";
import { screenTool, type ScreeningReason } from "../core/screening/screen.js";
import type { ToolSpec } from "../core/types.js";

export const POISONED_SET = fileURLToPath(new URL("../../data/screening/poisoned.jsonl", import.meta.url));
const SYNTHETIC_CATALOG = fileURLToPath(new URL("../../data/synthetic/catalog.json", import.meta.url));
const DEMO_CATALOG = fileURLToPath(new URL("../../data/demo-catalog.json", import.meta.url));

/** One labelled poisoned tool. */
export interface PoisonedExample {
  id: string;
  kind: string;
  /** Where the poison sits (description, inputSchema.properties.x.default, …). */
  where?: string;
  split: "dev" | "test";
  tool: ToolSpec;
}

export interface DetectionCount {
  n: number;
  detected: number;
}

export interface FalsePositive {
  name: string;
  server: string;
  rule: string;
}

export interface CleanSetResult {
  n: number;
  flagged: number;
  falsePositives: FalsePositive[];
}

export interface ScreeningMeasurement {
  poisoned: {
    dev: DetectionCount;
    test: DetectionCount;
    /** Ids of poisoned tools the screen let through, with their split and kind. */
    missed: { id: string; split: string; kind: string; name: string }[];
  };
  /** All clean sets together, and each one (synthetic, demo, real when given). */
  clean: CleanSetResult & { sets: Record<string, CleanSetResult> };
  /** Detection per attack kind, overall and per split. */
  byKind: Record<string, DetectionCount & { dev: DetectionCount; test: DetectionCount }>;
  /** Which rules fired on poisoned tools (a tool counts once per rule). */
  byRule: Record<string, number>;
  /** Wall time of screening every tool once (clean and poisoned), ms. */
  screenMs: number;
}

/** Reads the labelled set (JSON lines); errors name the line. */
export function loadPoisonedSet(path = POISONED_SET): PoisonedExample[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line, i) => ({ line: line.trim(), i }))
    .filter(({ line }) => line)
    .map(({ line, i }) => {
      let row: PoisonedExample;
      try {
        row = JSON.parse(line) as PoisonedExample;
      } catch (err) {
        throw new Error(`${path}:${i + 1}: ${(err as Error).message}`);
      }
      if (!row.tool || typeof row.tool.name !== "string" || (row.split !== "dev" && row.split !== "test"))
        throw new Error(`${path}:${i + 1}: expected {"id", "kind", "split": "dev"|"test", "tool": {"name", …}}`);
      return row;
    });
}

function readCatalog(path: string): CatalogFile {
  return JSON.parse(readFileSync(path, "utf8")) as CatalogFile;
}

function cleanResult(file: CatalogFile): CleanSetResult {
  const catalog = ToolCatalog.fromCatalogObject(file, { screening: { quarantine: true }, onWarning: () => {} });
  const falsePositives: FalsePositive[] = catalog.flagged.flatMap((f) =>
    [...new Set(f.reasons.map((r: ScreeningReason) => r.rule))].map((rule) => ({ name: f.name, server: f.server, rule })),
  );
  return { n: catalog.size + catalog.quarantined.length, flagged: catalog.flagged.length, falsePositives };
}

/**
 * Measures detection and false positives. `realCatalog` is the captured real MCP catalog (e.g. from
 * `captureCatalog("data/mcp/real-servers.json")`); without it only the repository's own clean sets are used.
 */
export function measureScreening(
  options: { realCatalog?: CatalogFile; poisoned?: PoisonedExample[]; synthetic?: CatalogFile; demo?: CatalogFile } = {},
): ScreeningMeasurement {
  const started = performance.now();
  const cleanFiles: Record<string, CatalogFile> = {
    synthetic: options.synthetic ?? readCatalog(SYNTHETIC_CATALOG),
    demo: options.demo ?? readCatalog(DEMO_CATALOG),
    ...(options.realCatalog ? { real: options.realCatalog } : {}),
  };
  const sets: Record<string, CleanSetResult> = {};
  for (const [name, file] of Object.entries(cleanFiles)) sets[name] = cleanResult(file);
  const clean: ScreeningMeasurement["clean"] = {
    n: Object.values(sets).reduce((a, s) => a + s.n, 0),
    flagged: Object.values(sets).reduce((a, s) => a + s.flagged, 0),
    falsePositives: Object.values(sets).flatMap((s) => s.falsePositives),
    sets,
  };

  // The poisoned server sits next to every clean tool, so naming one of theirs counts as naming another server's.
  const neighbours = Object.values(cleanFiles).flatMap((f) => f.servers.flatMap((s) => s.tools.map((t) => ({ name: t.name, server: s.name }))));
  const poisonedSet = options.poisoned ?? loadPoisonedSet();
  const count = (): DetectionCount => ({ n: 0, detected: 0 });
  const poisoned: ScreeningMeasurement["poisoned"] = { dev: count(), test: count(), missed: [] };
  const byKind: ScreeningMeasurement["byKind"] = {};
  const byRule: Record<string, number> = {};
  for (const ex of poisonedSet) {
    const result = screenTool(ex.tool, { server: "untrusted", tools: [...neighbours, { name: ex.tool.name, server: "untrusted" }] });
    const kind = (byKind[ex.kind] ??= { ...count(), dev: count(), test: count() });
    for (const c of [poisoned[ex.split], kind, kind[ex.split]]) {
      c.n++;
      if (result.flagged) c.detected++;
    }
    if (!result.flagged) poisoned.missed.push({ id: ex.id, split: ex.split, kind: ex.kind, name: ex.tool.name });
    for (const rule of new Set(result.reasons.map((r) => r.rule))) byRule[rule] = (byRule[rule] ?? 0) + 1;
  }
  return { poisoned, clean, byKind, byRule, screenMs: performance.now() - started };
}

const pct = (d: DetectionCount) => (d.n ? `${d.detected}/${d.n} (${((100 * d.detected) / d.n).toFixed(1)}%)` : "—");

/** The bench report's screening section (starts with its `## Tool-poisoning screen` heading). */
export function renderScreeningMarkdown(m: ScreeningMeasurement): string {
  const md = [
    "## Tool-poisoning screen",
    "",
    "Every tool definition (name, description, every string of its input and output schemas) is screened for injected",
    "instructions, hidden unicode, exfiltration and instructions about other tools; a flagged tool is quarantined: out",
    "of the pool, never routed or bound, and a call to it gets a structured refusal. Poisoned tools:",
    "`data/screening/poisoned.jsonl`, split into dev and test before any rule was written; the rules were tuned on dev",
    "only, so the test row is held out from tuning (though not independent of the rules: both were written for this project). Clean tools: the real MCP catalog",
    "(read while calibrating the rules, so not held out), the synthetic and demo catalogs.",
    "",
    "| Set | Detected / flagged |",
    "| --- | ---: |",
    `| Poisoned, dev | ${pct(m.poisoned.dev)} |`,
    `| **Poisoned, test (held out)** | **${pct(m.poisoned.test)}** |`,
    ...Object.entries(m.clean.sets).map(([name, s]) => `| Clean, ${name} | ${s.flagged} of ${s.n} flagged |`),
    "",
    `By kind: ${Object.entries(m.byKind)
      .map(([kind, d]) => `${kind} ${d.detected}/${d.n}`)
      .join(", ")}. Missed: ${m.poisoned.missed.length ? m.poisoned.missed.map((x) => `${x.name} (${x.kind}, ${x.split})`).join(", ") : "none"}.`,
    `Screening all of them took ${m.screenMs.toFixed(0)} ms.`,
    "",
  ];
  return md.join("\n");
}
