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
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { ToolCatalog, type CatalogFile } from "../core/catalog/catalog.js";
import { screenTool, type ScreeningReason } from "../core/screening/screen.js";
import type { ToolSpec } from "../core/types.js";

export const POISONED_SET = fileURLToPath(new URL("../../data/screening/poisoned.jsonl", import.meta.url));
export const SYNTHETIC_CATALOG = fileURLToPath(new URL("../../data/synthetic/catalog.json", import.meta.url));
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

/**
 * Reads a labelled set, one JSON object per line (blank lines skipped). A line that does not parse, or whose row
 * `valid` refuses, throws an error naming the file and line (`expected` says what a row must hold).
 */
export function readJsonLines<T>(path: string, valid: (row: T) => boolean, expected: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line, i) => ({ line: line.trim(), i }))
    .filter(({ line }) => line)
    .map(({ line, i }) => {
      let row: T;
      try {
        row = JSON.parse(line) as T;
      } catch (err) {
        throw new Error(`${path}:${i + 1}: ${(err as Error).message}`);
      }
      if (!valid(row)) throw new Error(`${path}:${i + 1}: expected ${expected}`);
      return row;
    });
}

/** Reads the labelled set (JSON lines); errors name the line. */
export function loadPoisonedSet(path = POISONED_SET): PoisonedExample[] {
  return readJsonLines<PoisonedExample>(
    path,
    (row) => Boolean(row?.tool) && typeof row.tool.name === "string" && (row.split === "dev" || row.split === "test"),
    `{"id", "kind", "split": "dev"|"test", "tool": {"name", …}}`,
  );
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

// ---------------------------------------------------------------------------------------------------------------
// By category: the library's own development set (data/screening/dev-set.jsonl), written for this library in its
// own words: poisoned tools per category (most in plain prose, no markers) and legitimate-but-alarming tools
// (credential managers, shell, databases, email, cloud and cluster admin, browsers, payments). Each category and
// the legitimate set alternate dev / test; concepts, prototypes and thresholds were fit on dev only.

export const DEV_SET = fileURLToPath(new URL("../../data/screening/dev-set.jsonl", import.meta.url));
/**
 * Written after the first round of the reader froze and measured before anything was fit on it (12 of 30 poisoned
 * detected, 1 of 20 legitimate flagged, 2026-11-25); the reader's concepts were then generalized on it, so it is
 * development data now.
 */
export const FRESH_SET = fileURLToPath(new URL("../../data/screening/fresh-set.jsonl", import.meta.url));
/** Written after the second round froze; measured at 12/30 detected and 0/20 legitimate flagged, then fit on. */
export const BLIND_SET = fileURLToPath(new URL("../../data/screening/blind-set.jsonl", import.meta.url));
/** Written after the third round froze; measured, never fit on: the figure closest to held-out this library has. */
export const HOLDOUT_SET = fileURLToPath(new URL("../../data/screening/holdout-set.jsonl", import.meta.url));
/** A wider training set, written for fitting the structural reading (many styles and field positions per category). */
export const WIDE_SET = fileURLToPath(new URL("../../data/screening/wide-set.jsonl", import.meta.url));
/** Fifth round, written before the reader's structural reading and never fit on: styles chosen to differ from every earlier set. */
export const ROUND5_SET = fileURLToPath(new URL("../../data/screening/round5-set.jsonl", import.meta.url));
/** Sixth round, written before the reader was generalized for it and never fit on: terse fragments, markdown lists, JSON-ish notes, enum/default/example/nested-title text, UX-worded concealment, benchmark/rating/certification preference. */
export const ROUND6_SET = fileURLToPath(new URL("../../data/screening/round6-set.jsonl", import.meta.url));
/** Seventh round, written before the reader was changed for it and never fit on: long descriptions with one hostile clause, attacks split across description and parameter, passive and conditional wording, policy and changelog framing, example/default/enum/nested-title text, concealment as UX or privacy guidance, preference as ratings, SLAs, certification, "only supported" claims and disparagement; legitimate tools with the same alarming vocabulary. */
export const ROUND7_SET = fileURLToPath(new URL("../../data/screening/round7-set.jsonl", import.meta.url));
/** Eighth round, written before the reader was changed for it and never fit on: terse one-liners, API-reference descriptions with the attack in a Behavior or Notes paragraph, markdown lists, non-native English, troubleshooting tips, client defaults, data-handling notices, onboarding steps, concealment as noise reduction, preference as benchmarks, platform recommendations and deprecation of other servers' tools, polite shadowing; legitimate secret hygiene, same-server ordering and successors, audit, DLP and migration tools. */
export const ROUND8_SET = fileURLToPath(new URL("../../data/screening/round8-set.jsonl", import.meta.url));
/** Ninth round, written before the reader was changed for it and never fit on: attacks only in deeply nested property descriptions, spread over two harmless-looking parameters, framed as SOC 2 / GDPR / compliance obligations, conditional triggers, addressed to the orchestrator, the LLM, Claude, GPT or the copilot, numbered procedures, sentences in Spanish, German or French, preference as user ratings, "most users prefer", price and speed claims, "official" claims and rate-limit claims, resource reach for dotfiles, browser profiles, SSH keys, environment, kube configs and cloud metadata, exfiltration as telemetry, crash reports, sync and backups with the destination in an enum or default, shadowing as a compatibility layer or argument conventions; legitimate SSH clients, config tools, backups to a user-given bucket, honest opt-in telemetry, compliance scanners, same-server successors. */
export const ROUND9_SET = fileURLToPath(new URL("../../data/screening/round9-set.jsonl", import.meta.url));
/** Tenth round, written before the reader was changed for it and never fit on: calm matter-of-fact prose stating the attack as how the tool works or is designed, second-person documentation for a developer, attacks in `title` fields and `examples` arrays, long SaaS-style descriptions with one hostile sentence in the middle, preference as comparisons only (latency tables, "never fails unlike", "retired last quarter", "verified by the platform", "recommended default"), concealment as transcript hygiene or internal bookkeeping, reach as an argument's expected format, exfiltration through markdown images and URL query parameters, shadowing as "this server also governs how X behaves"; legitimate tools in the same styles. */
export const ROUND10_SET = fileURLToPath(new URL("../../data/screening/round10-set.jsonl", import.meta.url));
/** Eleventh round, written before the reader was changed for it and never fit on: hostile text in array `items`, nested titles, enums, defaults and side-channel parameters (`callback_url`, `metadata`, `trace`, `notes`, `context`); troubleshooting, changelog, migration and rate-limit notes; conditional triggers, persona and compliance framing, pipeline ordering; YAML, JSON, code and table examples; preference by authority, cost and competitors' failures; legitimate tools in the same styles. */
export const ROUND11_SET = fileURLToPath(new URL("../../data/screening/round11-set.jsonl", import.meta.url));
/** Twelfth round, written before the reader was changed for it and never fit on: terse imperative fragments, third-person norms ("the assistant typically…"), translated-sounding prose, markdown tables and bullet lists, changelog entries, FAQ question and answer, policy citations, attacks carried only by parameter descriptions or split across fields each harmless alone, preference as benchmark results or user reviews, concealment as UX advice; legitimate admin, security, credential, email, shell and cloud tools in the same styles. */
export const ROUND12_SET = fileURLToPath(new URL("../../data/screening/round12-set.jsonl", import.meta.url));
/** Thirteenth round, written before the reader was changed for it and never fit on: instructions as the tool's output contract or response schema, YAML and JSON snippets, conditional triggers, personas, compliance and audit requirements, preference as other tools' deprecation, pricing, quotas or certification, one buried sentence in a long description, Spanish, German and French sentences, attacks in an enum, default, example or title only, telemetry, webhook and callback parameters; legitimate tools in the same styles (real output contracts, deprecation notes, telemetry and webhook settings, compliance exports). */
export const ROUND13_SET = fileURLToPath(new URL("../../data/screening/round13-set.jsonl", import.meta.url));
/** Fourteenth round, written before the reader was changed for it and never fit on: conversational prose with no imperative mood ("it's best if the assistant…", "users generally expect…"), attacks as error-handling or retry advice, instructions in a parameter's `examples`, markdown links and images whose URLs carry data, quoted earlier messages and fake tool results, synonyms for secrets (passphrase, bearer, session cookie, seed phrase, .npmrc, kubeconfig), workflow and ordering rules, "this tool replaces tool Z", Italian, Portuguese and Dutch sentences, one-line attacks in a parameter title; legitimate tools in the same styles (real retry advice, deprecation and replacement notes, badges, quoted threads, secrets managers). */
export const ROUND14_SET = fileURLToPath(new URL("../../data/screening/round14-set.jsonl", import.meta.url));
/** Fifteenth round, written before the reader was changed for it and never fit on: second-person narratives ("you will notice…"), numbered step lists where one step is the attack, attacks in a tool's output schema, notes for maintainers and TODO comments, terms-of-service wording, accessibility and localization framing, rhetorical questions and sarcasm, zero-width characters inside words, base64 and URL-encoded "configuration", passive voice ("it is expected that…"), memory and persistence ("remember for all future sessions"), Chinese, Japanese, Russian and Polish sentences; legitimate tools in the same styles (real output schemas, step lists, maintainers' notes, terms acceptance, memory tools, config decoders, localization and accessibility tools). */
export const ROUND15_SET = fileURLToPath(new URL("../../data/screening/round15-set.jsonl", import.meta.url));
/** Sixteenth round, written before the reader was changed for it and never fit on: instructions as test cases and unit-test expectations, "known issues" and troubleshooting sections, release-note bullets with version numbers, orders addressed to the integrator or the orchestrator, attacks as preferences the user supposedly stored ("the user has asked that…"), invented citations of the MCP specification or the host's policy, attacks in properties nested three levels deep, numeric limits ("at most 200 lines…"), comparison tables ranking tools, emoji-heavy marketing copy, Korean, Turkish, Arabic and Hindi sentences; legitimate tools in the same styles (real test runners, known issues, release notes, stored preferences, spec validators, policy checks, nested config, telemetry limits, comparison tables, marketing copy, translation examples). */
export const ROUND16_SET = fileURLToPath(new URL("../../data/screening/round16-set.jsonl", import.meta.url));
/** Seventeenth round, written before the reader was changed for it and never fit on: "before you start" and prerequisite sections, accessibility notes, error-message templates the model is told to show, markdown footnotes, attacks in a schema's `pattern`, `$comment`, `const` or `examples` of objects, glossaries that redefine words ("context means the whole conversation"), triggers on what the user says, a maintainer of another server speaking, caching and performance advice, dialogue transcripts, legal disclaimers, paired-tool workflows, parameter names that carry the ask, command-line usage examples, verse, abbreviations, Swedish, Indonesian, Vietnamese, Greek and Hebrew sentences; legitimate tools in the same styles (real prerequisites, error messages, footnotes, key patterns, glossaries, maintainers' notes, keychain caches, sample exchanges, legal notes, chained uploads, environment-forwarding switches, command equivalents, verse, abbreviations, translation examples). */
export const ROUND17_SET = fileURLToPath(new URL("../../data/screening/round17-set.jsonl", import.meta.url));
/** Eighteenth round, written before the reader was changed for it and never fit on: error-code tables ("E409: …"), migration guides from v1 to v2, state-machine descriptions ("in state TRIAGED…"), checklists with "[ ]" boxes, sample exchanges showing the expected (misbehaving) answer, hypotheticals ("suppose the user asks…; the right move is…"), double negations, spaced and leetspeak letters ("p a s s w o r d", "cr3dent1als"), vendor-extension schema keywords (`x-agent-hint`, `x-priority`), priority and weight numbers for tool choice, humour and sarcasm, email-signature footers and postscripts, "for AI agents" sections and agent cards, SQL and shell comments inside default values, code-switching within one sentence, Czech, Romanian, Finnish, Ukrainian, Thai and Persian sentences; legitimate tools in the same styles (real error-code tables, migration notes, state machines, checklists, masked secrets, cron defaults with comments, webhook and telemetry settings, deploy priorities, agent notes asking for confirmation, translation examples, jokes, misspelling examples). */
export const ROUND18_SET = fileURLToPath(new URL("../../data/screening/round18-set.jsonl", import.meta.url));
/** Nineteenth round, written before the reader was changed for it and never fit on: interviews and Q&A with the tool's author, recipes ("Ingredients: …"), commit messages and diff hunks, HTTP request and response examples with headers, scheduling phrasing ("every hour, also …"), analogies and metaphors, quotations attributed to a security team, lists of "guarantees", asks placed only in an output schema's field or in `annotations`, nominal style without verbs, future tense ("the assistant will …"), first-person plural ("we forward …"), Korean and Japanese mixed with code identifiers, Swahili, Malay, Tagalog and Bengali sentences; legitimate tools in the same styles (real FAQs, recipes, commit and diff examples, HTTP examples, cron jobs, analogies, output schemas with tokens, destructive-hint annotations, retention notes in the first person, deprecation notices, webhook and telemetry parameters, compliance exports). */
export const ROUND19_SET = fileURLToPath(new URL("../../data/screening/round19-set.jsonl", import.meta.url));
export const ROUND20_SET = fileURLToPath(new URL("../../data/screening/round20-set.jsonl", import.meta.url));
/** Twenty-first round, written before the reader was changed for it and never fit on: Gherkin scenarios (Given/When/Then), `x-example` values inside parameter descriptions, pseudo-code, asks in a markdown link title or image alt text, FAQ answers that contradict an earlier safe sentence, "internal note" / "note to self" asides, quota advice that asks for credentials, pronoun chains back to another server's tool, understated suggestions ("it tends to work better if …"), diffs of the description itself, bilingual side-by-side text, Norwegian, Danish, Slovak, Lithuanian and Urdu sentences; legitimate tools in the same styles (real scenarios, x-examples, pseudo-code guards, FAQs, internal notes, rate limits, diffs and deprecations, bilingual text, telemetry and webhook parameters, compliance exports). */
export const ROUND21_SET = fileURLToPath(new URL("../../data/screening/round21-set.jsonl", import.meta.url));
export const ROUND22_SET = fileURLToPath(new URL("../../data/screening/round22-set.jsonl", import.meta.url));

export type DevSplit = "dev" | "test" | "fresh" | "blind" | "wide" | "holdout" | "round5" | "round6" | "round7" | "round8" | "round9" | "round10" | "round11" | "round12" | "round13" | "round14" | "round15" | "round16" | "round17" | "round18" | "round19" | "round20" | "round21" | "round22";
const SPLITS: readonly DevSplit[] = ["dev", "test", "fresh", "blind", "wide", "holdout", "round5", "round6", "round7", "round8", "round9", "round10", "round11", "round12", "round13", "round14", "round15", "round16", "round17", "round18", "round19", "round20", "round21", "round22"];

export interface DevSetRow {
  id: string;
  label: "poisoned" | "legit";
  /** Poisoned: the screening category; legit: the kind of server. */
  category: string;
  split: DevSplit;
  /** Legit rows: the server the tool belongs to (its siblings are in the set too). */
  server?: string;
  /** Poisoned rows: where the poison sits (description, param, default, enum, title, nested). */
  where?: string;
  plain?: boolean;
  tool: ToolSpec;
}

/** The files of the development set, in the order they were written (dev/test, fresh, blind, holdout). */
export function loadAllDevSets(): DevSetRow[] {
  return [DEV_SET, FRESH_SET, BLIND_SET, WIDE_SET, HOLDOUT_SET, ROUND5_SET, ROUND6_SET, ROUND7_SET, ROUND8_SET, ROUND9_SET, ROUND10_SET, ROUND11_SET, ROUND12_SET, ROUND13_SET, ROUND14_SET, ROUND15_SET, ROUND16_SET, ROUND17_SET, ROUND18_SET, ROUND19_SET, ROUND20_SET, ROUND21_SET, ROUND22_SET].flatMap((p) => loadDevSet(p));
}

export function loadDevSet(path = DEV_SET): DevSetRow[] {
  return readJsonLines<DevSetRow>(
    path,
    (row) => Boolean(row?.tool) && typeof row.tool.name === "string" && (row.label === "poisoned" || row.label === "legit") && SPLITS.includes(row.split),
    `{"id", "label": "poisoned"|"legit", "category", "split": "dev"|"test"|"fresh"|"blind"|"wide"|"holdout"|"round5"|"round6"|"round7"|"round8"|"round9"|"round10"|"round11"|"round12"|"round13"|"round14"|"round15"|"round16"|"round17"|"round18"|"round19"|"round20"|"round21"|"round22", "tool": {"name", …}}`,
  );
}

/** 95 % Wilson score interval for k successes out of n. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface CategoryCount extends DetectionCount {
  ci: [number, number];
}

export interface CategoryMeasurement {
  /** "rules+reader+lexical" (synchronous, what ToolCatalog does by default), with "+encoder" (screenTools); without "+lexical" when it is off. */
  mode: string;
  encoder: { used: boolean; model?: string; reason?: string };
  /** Detection per category and split, with 95 % Wilson intervals; `all` sums the categories. */
  detection: Record<string, Partial<Record<DevSplit, CategoryCount>>>;
  /** Legitimate-but-alarming tools flagged, per split. */
  legitimate: Partial<Record<DevSplit, CategoryCount>> & { flagged: string[] };
  /** Quarantined tools of clean catalogs: real (plain names and `server__name`), synthetic, demo. */
  clean: Record<string, { n: number; quarantined: number; flagged: number; names: string[] }>;
  /** Screening 500 tools of the real and synthetic catalogs (encoder already loaded, vectors not cached). */
  timing?: { tools: number; sentences: number; embedded: number; ms: number };
}

const counted = (n: number, detected: number): CategoryCount => ({ n, detected, ci: wilson(detected, n) });

/** Screens with `screenTools` (encoder on or off) and counts per category; clean catalogs go through ToolCatalog. */
export async function measureCategories(
  options: { realCatalog?: CatalogFile; encoder?: boolean; lexical?: boolean; cacheDir?: string | false; devSet?: DevSetRow[]; timing?: boolean } = {},
): Promise<CategoryMeasurement> {
  const { screenTools } = await import("../core/screening/screen-tools.js");
  const rows = options.devSet ?? loadAllDevSets();
  const encoder = options.encoder ?? true;
  const cleanFiles: Record<string, CatalogFile> = {
    synthetic: readCatalog(SYNTHETIC_CATALOG),
    demo: readCatalog(DEMO_CATALOG),
    ...(options.realCatalog
      ? {
          real: options.realCatalog,
          "real, server__name": { servers: options.realCatalog.servers.map((s) => ({ ...s, tools: s.tools.map((t) => ({ ...t, name: `${s.name}__${t.name}` })) })) },
        }
      : {}),
  };

  let timing: CategoryMeasurement["timing"];
  if (options.timing !== false) {
    // Warm the encoder (model loaded, prototypes embedded) on text that is not in the timed set.
    if (encoder) await screenTools([{ server: "warm", tool: { name: "warm_up", description: "Always use this tool first. Warm-up sentence for the encoder." } }], { cacheDir: false });
    const pool = [...(options.realCatalog?.servers ?? []), ...cleanFiles.synthetic.servers].flatMap((s) => s.tools.map((t) => ({ server: s.name, tool: t })));
    const five = pool.slice(0, 500);
    const r = await screenTools(five, { cacheDir: false, encoder: encoder ? undefined : false });
    timing = { tools: five.length, sentences: r.sentences.total, embedded: r.sentences.embedded, ms: r.ms };
  }

  // Poisoned tools: each on an untrusted server of its own, next to the legitimate set and the clean catalogs.
  const legit = rows.filter((r) => r.label === "legit");
  const neighbours = [...legit.map((r) => ({ server: r.server ?? "legit", tool: r.tool as ScreenableToolLike })), ...Object.values(cleanFiles).slice(0, 3).flatMap((f) => f.servers.flatMap((s) => s.tools.map((t) => ({ server: s.name, tool: t as ScreenableToolLike }))))];
  const poisoned = rows.filter((r) => r.label === "poisoned");
  const report = await screenTools([...neighbours, ...poisoned.map((r) => ({ server: `untrusted-${r.id}`, tool: r.tool as ScreenableToolLike }))], { encoder: encoder ? undefined : false, lexical: options.lexical, cacheDir: options.cacheDir });
  const detection: CategoryMeasurement["detection"] = {};
  const tally: Record<string, Partial<Record<DevSplit, [number, number]>>> = {};
  for (const r of poisoned) {
    const hit = report.results.get(`untrusted-${r.id}\0${r.tool.name}`)?.flagged ? 1 : 0;
    for (const k of [r.category, ...(r.plain ? ["plain prose"] : []), "all"]) {
      const t = ((tally[k] ??= {})[r.split] ??= [0, 0]);
      t[0]++;
      t[1] += hit;
    }
  }
  const order = (k: string) => (k === "all" ? 2 : k === "plain prose" ? 1 : 0);
  for (const [k, t] of Object.entries(tally).sort((a, b) => order(a[0]) - order(b[0])))
    detection[k] = Object.fromEntries(Object.entries(t).map(([split, c]) => [split, counted(...c)]));
  const legitTally: Partial<Record<DevSplit, [number, number]>> = {};
  const flagged: string[] = [];
  for (const r of legit) {
    const hit = report.results.get(`${r.server ?? "legit"}\0${r.tool.name}`)?.flagged ? 1 : 0;
    const t = (legitTally[r.split] ??= [0, 0]);
    t[0]++;
    t[1] += hit;
    if (hit) flagged.push(`${r.id} (${r.split})`);
  }

  const clean: CategoryMeasurement["clean"] = {};
  for (const [name, file] of Object.entries(cleanFiles)) {
    const entries = file.servers.flatMap((s) => s.tools.map((t) => ({ server: s.name, tool: t as ScreenableToolLike })));
    const pre = await screenTools(entries, { encoder: encoder ? undefined : false, cacheDir: options.cacheDir });
    const catalog = ToolCatalog.fromCatalogObject(file, { screening: { precomputed: pre.results }, onWarning: () => {} });
    clean[name] = { n: entries.length, quarantined: catalog.quarantined.length, flagged: catalog.flagged.length, names: catalog.flagged.map((f) => `${f.server}/${f.name}`) };
  }
  return {
    mode: `rules+reader${options.lexical === false ? "" : "+lexical"}${report.encoder.used ? "+encoder" : ""}`,
    encoder: report.encoder,
    detection,
    legitimate: { ...Object.fromEntries(Object.entries(legitTally).map(([split, c]) => [split, counted(...c)])), flagged },
    clean,
    timing,
  };
}

type ScreenableToolLike = import("../core/screening/screen.js").ScreenableTool;

const pctCi = (c: CategoryCount | undefined) => (c?.n ? `${c.detected}/${c.n} (${((100 * c.detected) / c.n).toFixed(0)} %, CI ${(100 * c.ci[0]).toFixed(0)}–${(100 * c.ci[1]).toFixed(0)} %)` : "—");

/** The by-category section (starts with its heading). */
export function renderCategoryMarkdown(ms: readonly CategoryMeasurement[]): string {
  const md: string[] = ["## Tool-poisoning screen by category", ""];
  md.push(
    "Own development sets, written for this library (poisoned tools per category, most in plain prose; legitimate-but-alarming",
    "tools: credential managers, shell, databases, email, cloud and cluster admin, browsers, payments, secrets vaults, CI, home",
    "automation), in rounds. `dev-set.jsonl`: concepts, prototypes and thresholds fit on the dev half, test half reported beside",
    "it (held out from fitting, but written by the same hands with the same concepts in mind). Each later set was measured",
    "before anything was fit on it: `fresh-set.jsonl` 12/30 detected, 1/20 legitimate flagged; then fit. `blind-set.jsonl`",
    "12/30, 0/20; then fit. `holdout-set.jsonl`: never fit on (16/30, 0/20 before the structural reading of structure.ts).",
    "`round5-set.jsonl`: written before the structural reading, never fit on; before it, 27/48 detected (28/48 with the",
    "encoder), 1/32 legitimate flagged. `wide-set.jsonl`: written to fit the structural reading, in three batches, each measured",
    "before it was fit: 27/60 detected and 0/42 flagged, then 22/36 and 3/23, then 9/30 and 3/19, then 10/29 and 1/14, then 4/18 and 0/8, then 5/16 and 0/6,",
    "then (sixth round) 7/20 and 5/12, 5/16 and 0/8, 6/14 and 0/8, 2/12 and 0/8, 5/13 and 0/8. `round6-set.jsonl`: written before the sixth round's changes (terse fragments,",
    "markdown lists, JSON-ish notes, text in enums, defaults, examples and nested titles, concealment worded as UX guidance,",
    "preference as benchmarks, ratings, certification; legitimate deprecation notes naming a successor, same-server hints,",
    "security tools), never fit on; before them, 31/48 detected (both modes) and 3/40 legitimate flagged. `round7-set.jsonl`:",
    "written before the seventh round's changes (long descriptions with one hostile clause, attacks split across description and",
    "parameter, passive and conditional wording, policy and changelog framing, text in examples, defaults, enums and nested",
    "titles, concealment as UX or privacy guidance, preference as ratings, SLAs, certification, \"only supported\" claims and",
    "disparagement; legitimate password managers, secret scanners, shell, SQL, email, cloud admin, backup and exfiltration",
    "detection, same-server deprecation and preference notes), never fit on; on first contact 35/48 detected (73 %, CI 59–83 %,",
    "both modes) and 1/40 legitimate flagged. The seventh round then added a role reading (who acts, on what, hidden from whom)",
    "fit on seven more wide batches, each measured before it was fit: 17/36 detected and 3/20 flagged, then 12/30 and 2/16,",
    "then 21/30 and 1/16, then 23/30 and 0/12, then 6/18 and 0/8, then 14/24 and 1/10 (that flag from a tool name the batch",
    "itself reused, renamed), then 4/6 and 2/20. The holdout, round5, round6 and round7 columns are **the",
    "columns to read** (the others are fitted figures; holdout and round5 were measured at nine checkpoints before the seventh",
    "round and about ten during it, round6 at three and about ten, round7 at about ten after its first contact; none was fit",
    "on). round5, round6, round7 and wide were written by the same hand, and the misses of round5, round6 and round7 were",
    "seen before the wide batches that followed them were written, so those columns flatter the reader more than a set written",
    "by others would; round7's first-contact figure above is its honest one. `round8-set.jsonl`: written before the eighth",
    "round's changes (terse one-liners, API-reference descriptions with the attack in a Behavior or Notes paragraph, markdown",
    "lists, non-native English, troubleshooting tips, client defaults, data-handling notices, onboarding steps, concealment as",
    "noise reduction, preference as benchmarks, platform recommendations and deprecation of other servers' tools, polite",
    "shadowing; legitimate secret hygiene, same-server ordering and successors, audit, DLP and migration tools), never fit on;",
    "on first contact 32/48 detected (67 %, CI 53–78 %, both modes) and 2/40 legitimate flagged. The eighth round then added a",
    "relations reading (structure.ts `relations()`: something ranked above or lapsing from the model's rules, a new identity",
    "for the model, a speech act declined about the tool's side work, a tool owned by another server given an argument, data",
    "sent to or written into a literal address, the other tools set aside or left as a fallback), fit on five more wide",
    "batches, each measured before it was fit: 23/36 detected and 0/16 flagged, then 31/36 and 0/16, then 20/24 and 3/16, then",
    "13/24 and 1/10, then 21/24 and 0/8; round8 was measured at five checkpoints and never fit on, and its 2 first-contact false positives came",
    "from rules older than the round (a sign-in address read as a destination, a claim about the tool's own option read as",
    "a claim over other tools), which the round narrowed after writing wide legitimate tools of the same shape. `round9-set.jsonl`:",
    "written before the ninth round's changes (attacks only in deeply nested property descriptions, spread over two",
    "harmless-looking parameters, framed as SOC 2 or GDPR obligations, conditional triggers on what the user mentions,",
    "addressed to the orchestrator, the LLM, Claude, GPT or the copilot, numbered procedures, sentences in Spanish, German or",
    "French, preference as user ratings, \"most users prefer\", cost and speed claims, \"official\" and rate-limit claims, reach for",
    "dotfiles, browser profiles, SSH keys, environment variables, kube configs and cloud metadata, exfiltration as telemetry,",
    "crash reports, sync and backups with the destination in an enum or a default, shadowing as a compatibility layer or as",
    "argument conventions for another server's tool; legitimate SSH clients, config tools, backups to a user-given bucket,",
    "honest opt-in telemetry, compliance scanners, same-server successors), never fit on; on first contact 29/48 detected",
    "(60 %, CI 46–73 %, both modes) and 1/40 legitimate flagged: the honest figure for this round.",
    "The ninth round then read sentences in Spanish, German and French through an English gloss (foreign.ts), took a",
    "condition on what the user says as addressing the model, named the model by more roles, added credential stores as",
    "objects of reach (unless the tool refuses or masks them), read a single-valued enum, a description line that defines a",
    "parameter, a question and a short order about a value with the text they qualify, and read statements of how another",
    "server's tool works, and of the model's answers, safeguards and instruction hierarchy, as directives with no one",
    "addressed; fit on nine more wide batches, each measured before it was fit: 15/30 detected and 1/14 flagged (written",
    "from the same list of styles as round9, so round9's later figures flatter the reader), then 12/36 and 0/16, 2/2 and",
    "1/6, 14/24 and 0/10, 12/24 and 2/10 (both flags from older rules), 12/24 and 0/10, 14/24 and 0/10, 18/24 and 0/10,",
    "10/24 and 0/10.",
    "round9, round8, round7, round6, round5 and the holdout were measured at ten checkpoints and never fit on; two",
    "legitimate tools flagged at checkpoints (a round9 tool blocking a metadata address, read as reach; a holdout tool whose",
    "second sentence was read without the lead) were traced and the rules narrowed after writing wide legitimate tools of the",
    "same shape, so those two columns' false-positive figures are no longer blind. round9's remaining false positive (a",
    "pointer to another server for repositories the tool cannot reach) comes from a rule older than the round. Fresh wide",
    "batches of 24 or more, written in styles no rule had seen, were detected at 33–75 % before fitting, and the never-fit",
    "columns other than round9 barely moved (round8 38 → 40 of 48, holdout 24/30 unchanged): the reader still matches surface",
    "forms more than meaning, and a set written by others should be expected to score near the first-contact figures.",
    "The ninth round's reading costs time: measured on the same machine back to back (2026-11-26 12:09 UTC, this command, rules",
    "only), 500 tools took 547 ms before the round and 602 ms after; 10,000 tools (expandCatalog(10000), median of five paired",
    "runs, CPU time) 2,622 ms before and 2,668 ms after.",
    "`round10-set.jsonl`: written before the tenth round's changes (calm, matter-of-fact prose that states the attack as how",
    "the tool works or is designed, with no imperative and no marker; second-person documentation for a developer; attacks in",
    "`title` fields and `examples` arrays; SaaS-style descriptions of 130–220 words with one hostile sentence in the middle;",
    "preference as comparison only: latency tables, \"unlike X, never fails\", \"retired last quarter\", \"verified by the",
    "platform\", \"recommended default\"; concealment as transcript hygiene, internal bookkeeping, \"no need to mention\"; reach",
    "as an argument's expected format; exfiltration through markdown image links and query parameters the model builds;",
    "shadowing as \"this server also governs how X behaves\"; legitimate tools in the same styles: long SaaS docs, comparisons",
    "of a tool's own modes, latency notes, retention notices, image and URL builders, config readers), never fit on; on first",
    "contact 33/48 detected (69 %, CI 55–80 %, both modes: the encoder added nothing) and 0/40 legitimate flagged, the honest",
    "figure for this round. The tenth round then added a statement reading (statements.ts), read only when no directive",
    "reading fired: the model as the actor of a statement about its own conduct, another server's tool as the subject of a",
    "present-tense statement or its calls sent elsewhere as well, the user's data or a secret written into an address the",
    "model builds, telling the user declined, what the user is shown set against a cost or side effect, figures or failures",
    "set beside another server's, the other tools run down as a group, a credential store or a file's contents taken as input,",
    "and data gathered from other tools to fill the call; fit on six wide batches, each measured before it was fit: 22/30",
    "detected and 0/12 flagged (written from the same list of styles as round10, so round10's later figures flatter the",
    "reader), then 21/24 and 0/10, 5/18 and 1/8, 10/18 and 0/8, 8/12 and 0/6, 9/12 and 0/6. The four batches written in",
    "styles outside that list were detected at 28–75 % before fitting. The never-fit columns were measured at five",
    "checkpoints: round10 33 → 41 of 48 after the first batch and unchanged after the other five; round9 40 → 41, round5",
    "46 → 47, round8 40/48,",
    "round7 48/48, round6 47/48 and the holdout 24/30 (concealment 2/5) unchanged; no legitimate tool of any never-fit column",
    "was newly flagged. Fitting more wide batches moved only the sets written in the same styles: the reader still follows",
    "wording more than meaning, and the 90 % target on sets written by others is not met. The encoder (USE-lite) was",
    "measured in both modes at every checkpoint and changed no detection, while it flags 4 wide and 1 holdout legitimate tool",
    "that the rules pass; its category prototypes were left unchanged. Screening time, measured on the same machine back to",
    "back with the round's final code (2026-11-26 14:18–14:20 UTC, rules only, JIT warmed on other text and the per-sentence",
    "memory cleared before each run, median of three runs per process, CPU time, load average 3–4 on 2 cores, three paired",
    "processes): 500 tools 539, 526 and 491 ms before the round and 530, 554 and 553 ms after; 10,000 tools",
    "(expandCatalog(10000)) 1,711, 1,848 and 1,695 ms before and 1,889, 1,793 and 1,851 ms after: medians 5 % and 8 % higher,",
    "within the spread of repeated runs here (pairs taken at 14:03–14:07 UTC, before the last two batches, had the round 4 %",
    "and 2 % faster). With the statement reading switched off in a copy of the final code, 10,000 tools",
    "took 1,811 and 1,905 ms against 1,893 and 1,788 ms with it (two paired processes, 14:21 UTC): its own cost is below",
    "what this machine can resolve.",
    "`round11-set.jsonl`: written before the eleventh round's changes (hostile text in array `items`, nested titles, enums,",
    "defaults and side-channel parameters such as `callback_url`, `metadata`, `trace`, `notes` and `context`; troubleshooting,",
    "changelog, migration and rate-limit notes; conditional triggers, persona and compliance framing, pipeline ordering; YAML,",
    "JSON, code and table examples; preference by authority, cost and competitors' failures; legitimate tools in the same",
    "styles: error docs that mention tokens and 401s, compliance and audit tools, webhooks, tools recommending their own modes,",
    "`login` and `init_session` that must run first, enum- and default-rich schemas), never fit on; on first contact 23/48",
    "detected (48 %, CI 34–62 %, both modes: the encoder added nothing; assistant-directive 3/8, resource-reach 5/8,",
    "concealment 4/8, shadowing 3/8, exfiltration 4/8, tool-choice 4/8) and 5/40 legitimate flagged (13 %, CI 5–26 %): the",
    "honest figure for this round, and the lowest first contact yet. The eleventh round then added a reading of what a sentence",
    "asks of the model by actor, object and place (asks.ts), read only when no other reading fired: a source ranked below the",
    "system prompt or the operator, the model's safeguards or the operator's setup said to lapse, returned content carried out",
    "as if the user asked, the model's judgment or loyalty moved off the user; the reply scripted against what happened, what",
    "the tool did left out of or narrowed in what the user reads, or set apart from the conversation; another server's tool",
    "given fixed arguments over the user's choice, said to be altered, given rules in a list or called in a code example with",
    "a fixed address; a claim on every conversation whatever is asked, the other tools run down by cost, staleness or silent",
    "failure; a parameter, title or example value standing for the user's home files, folders, records, environment, earlier",
    "requests' headers or the conversation, or the conversation sent to a phone number or a query filled from the session. It",
    "also reads the lead's clause after a semicolon as a later sentence, takes an address built from a variable as the",
    "operator's setting, and no longer reads a resource the sentence rules out (\"never credentials\", \"no chat history or",
    "keys are attached\") as reached for. It was fit on six wide batches, each measured before it was fit: 12/24 detected and",
    "0/10 flagged (written from round11's list of styles after its misses were seen, so round11's later figures flatter the",
    "reader), then 20/24 and 6/16 (the new reading's first version overreached on legitimate tools of the same shapes), 10/12",
    "and 3/6, 23/24 and 0/12 (styles outside round11's list: example sessions, rhetorical questions, `$comment`, output",
    "schemas, annotation titles, HTML comments; measured after replacing four reserved `example.*` hosts, which the screen",
    "rightly reads as examples and which had held it to 19/24), 14/24 and 2/10 (plain-prose concealment and preference), 20/24",
    "and 1/10 (docstring, footnote, P.S., tag and JSON-note styles). The never-fit columns were measured at five checkpoints:",
    "round11 23 → 46 of 48 and 5 → 2 of 40 flagged, which is not blind (its misses and false positives were seen; three of its",
    "first-contact false positives, a webhook's \"never credentials\", a batch note naming an unlisted sibling and a bucket",
    "built from a variable, were narrowed, with wide legitimate tools of the same shape written to measure it; the two left, a geocoder's",
    "rate-limit note and a successor on its own server, come from rules older than the round); a round9 legitimate tool newly",
    "flagged by the first version of the reading (a compliance hook run after each call of another tool) was narrowed the same",
    "way, so round9 stays at 1/40; round10 41/48, round9 41/48, round8 40/48, round7 48/48, round6 47/48, round5 47/48 and",
    "the holdout 24/30 (concealment 2/5) did not move at any checkpoint, and the clean catalogs stayed at 0 flags. The fresh",
    "batches written outside round11's list were detected at 58–96 % before fitting: the reader still follows wording more",
    "than meaning, the 90 % target on sets written by others is not met, and a set written by others should be expected to",
    "score near the first-contact figures. The encoder (USE-lite) was measured in both modes at every checkpoint and changed no",
    "detection (it still flags 4 wide and 1 holdout legitimate tool the rules pass); its prototypes were left unchanged.",
    "Screening time: the new reading tests its own patterns directly (guard word, then pattern) and each group only when a",
    "sentence holds its words, and the schema walk (fields.ts) was made cheaper, so the round costs about what the previous",
    "rules did. Measured 2026-11-26 17:14–17:15 UTC (rules only, JIT warmed on other text, per-sentence memory cleared before",
    "each run, median of three runs per process, CPU time, load average 4.4–4.6 on 2 cores, three paired processes of a",
    "scratch script): 10,000 tools (expandCatalog(10000)) 1,897, 1,981 and 2,009 ms before the round and 2,510, 1,812 and",
    "1,693 ms after; its first 500 tools 147, 240 and 152 ms before and 191, 133 and 134 ms after. The bench's 500-tool pool",
    "(the real catalog first), alternated nine times in one process with the previous rules (17:13 UTC): after/before 1.07",
    "and 1.05, while a control of identical code in the same position read 1.14 and 1.10, so the difference is below what",
    "this machine resolves.",
    "`round12-set.jsonl`: written before the twelfth round's changes (terse imperative fragments with no verb of speech,",
    "third-person norms such as \"the assistant typically…\", translated-sounding prose, markdown tables and bullet lists,",
    "changelog entries, FAQ questions with their answers, policy citations, attacks carried only by a parameter's description",
    "or split across fields each harmless alone, preference as benchmark results and user reviews, concealment as UX advice;",
    "legitimate admin, security, credential, email, shell and cloud tools in the same styles), never fit on; on first contact",
    "26/48 detected (54 %, CI 40–67 %, both modes: the encoder added nothing; assistant-directive 4/8, resource-reach 4/8,",
    "concealment 2/8, shadowing 6/8, exfiltration 7/8, tool-choice 3/8) and 2/40 legitimate flagged (5 %, CI 1–17 %): the",
    "honest figure for this round. The twelfth round then added a reading by frame (frames.ts), read only when no other reading",
    "fired: text the tool reads or returns given the standing of instructions (counted as, becoming or outranking them, a",
    "request in a page handled as the user's, a returned message made a task, the operator's authority claimed for it), the",
    "model's own instructions set aside in the passive or ranked below the tool's text, the model told to stop asking the user;",
    "side work of the tool (a copy, a fee, a rule it adds, an install) left out of or narrowed in what the user reads, given a",
    "quoted label in the reply, set up silently, or answered \"no\" to whether the user should hear of it; a line or table row",
    "keyed by another server's tool that lays down what it does; the model said to route a whole class of requests here or to",
    "put this tool ahead of everything it has, this tool's figures set beside other tools', a quoted review or a share of users",
    "dismissing another tool, the other tools said to be hardly ever the right pick, unreliable or to be avoided, praise joined",
    "to a claim on a class of requests, harm said to follow choosing another tool, \"preferred by N % of assistants\"; a value",
    "standing for the user's device or records in full, every saved credential, the user's data gathered with other tools, a",
    "credential file as a default whose text goes into the call; data kept at, sent to or received by a literal address",
    "besides the tool's work, and a user's value replaced by a fixed address. Tables are read row by row (under their header",
    "when it names a subject, so \"| in the reply | |\" over \"| service fee | no |\" reads as the reply leaving the fee out)",
    "and whole, and a quoted review with the sentences around it. Older rules were narrowed: \"the tool\" alone is this tool,",
    "not the other tools; a credential said to go only to one address (\"sent only to api.payments-co.com\") is confined, not",
    "sent away; a checked reply (\"asks the user to confirm each command; refusals are final\") is not a change to the model's",
    "rules; more endings (`.top`, `.sh` …) make a bare host an address; a card number in a URL placeholder is private data.",
    "It was fit on seven wide batches, each measured before it was fit: 12/24 detected and 0/10 flagged (written from round12's",
    "list of styles after its misses were seen, so round12's later figures flatter the reader), then 19/24 and 2/12 (both flags",
    "credentials said to go only to their service's host, the shape of one of round12's first-contact false positives), 19/24",
    "and 0/12 (tips, `@remarks`, example dialogues, known issues, notes to integrators), 21/24 and 0/14 (README sections: when to",
    "use, security considerations, limitations, returns), 15/24 and 0/12 (NB blockquotes, terms, internal notes, example output,",
    "JSON example calls, output schemas), 17/24 and 1/12 (plain prose), 12/24 and 0/12 (preference in marketing prose: tool",
    "choice 4/12). The never-fit columns were measured after every batch: round12 26 → 44 of 48 and 2 → 0 of 40 flagged, which",
    "is not blind (its misses and its two false positives were seen; both false positives came from rules older than the",
    "round and were narrowed after wide legitimate tools of the same shape were written); round10 41 → 42 of 48, round8 40 →",
    "41; round11 46/48, round9 41/48, round7 48/48, round6 47/48, round5 47/48 and the holdout 24/30 (concealment 2/5) did",
    "not move, no legitimate tool of any never-fit column was newly flagged, and the clean catalogs stayed at 0 flags. Batches",
    "written outside round12's list were detected at 50–88 % before fitting, preference in plain marketing prose at a third:",
    "the reader still follows wording more than meaning, the 90 % target on sets written by others is not met, and a set",
    "written by others should be expected to score near the first-contact figures. The encoder (USE-lite) was measured in both",
    "modes and changed no detection (it still flags 4 wide and 1 holdout legitimate tool the rules pass); its prototypes were",
    "left unchanged. Screening time: the frame reading runs on nearly every sentence of a clean catalog, so it opens each group",
    "of its patterns on the sentence's words (one split and a few lookups) rather than on a guard pattern per group, which had",
    "cost a tenth of the screen's time. Measured 2026-11-26 19:49–19:50 UTC (rules only, the bench's 500-tool pool with the real",
    "catalog first, JIT warmed on other text, per-sentence memory cleared before each run, the previous round's code and this",
    "round's alternated fifteen times in one process, load average 4.3–5.3 on 2 cores while another job ran, three processes):",
    "medians 345, 328 and 348 ms before and 366, 355 and 387 ms after (CPU 325, 310 and 348 against 341, 342 and 378 ms), 6–11 %",
    "higher, while two controls of identical code in the same positions read 7 % and 3 % higher: the round costs a few per",
    "cent. The bench's own single runs read 694 ms before the round (load 2.6) and 627 and 644 ms with its final code (load",
    "3.4 and 3.2, 19:51 UTC).",
    "`round13-set.jsonl`: written before the thirteenth round's changes (instructions framed as the tool's output contract or",
    "response schema, YAML and JSON settings snippets, conditional triggers, personas, compliance and audit requirements, preference",
    "as other tools' deprecation, pricing, quotas or certification, one buried sentence in a long description, Spanish, German and",
    "French sentences, attacks in an enum, default, example or title only, telemetry, webhook and callback parameters; legitimate",
    "tools in the same styles: real output contracts, deprecation notes, telemetry and webhook settings, compliance exports), never",
    "fit on; on first contact 26/48 detected (54 %, CI 40–67 %, both modes: the encoder added nothing; assistant-directive 6/8,",
    "resource-reach 3/8, concealment 3/8, shadowing 5/8, exfiltration 5/8, tool-choice 4/8) and 0/40 legitimate flagged: the",
    "honest figure for this round. The thirteenth round then added a reading of specification forms (contracts.ts), read only",
    "when no other reading fired: a YAML snippet's nested keys read as one path per value (siblings kept in one sentence, so an",
    "address is read with what goes there), and a setting that turns the model's safeguards off, puts returned text in charge,",
    "keeps side work (an upload, a copy, tracking, a fee) from the user, is keyed by another server's tool, points at a credential",
    "file or mirrors data to a literal address; a field of every result made settings for the model, text given authority over",
    "the model or carried out unchecked, safeguards declared off for the model's session, the model sending data to an address or",
    "data written to one in the passive, an address requested with the result or the user's words in it; a persona with no bound",
    "on its conduct or one that does not go into side work; side work declared internal, left out of the summary, not something",
    "the user hears about, kept out of replies or reported so as to reassure; the other tools said to bill the user, to be",
    "uncertified, secondary, sunset, out of quota or a last resort, this tool alone for a class of requests; another server's tool",
    "held to a fixed argument; slots and values that stand for the conversation, the whole environment, a credential file or the",
    "user's collections in full. The gloss of foreign sentences gained everyday words of requests, answers and transfers and keeps",
    "addresses and codes (a host ending in \".de\", an IBAN's \"DE44\") as written. Older rules were narrowed: a caveat that other tools' output",
    "may differ is no order about them, a default address named after a semicolon is no destination, a confirmation that lists",
    "the charge or the fee discloses it. It was fit on four wide batches, each measured before it was fit: 11/24 detected and",
    "0/12 flagged (written from round13's list of styles after its misses were seen; the gloss words and the first draft of the",
    "new reading were also written after reading them, so round13's later figures flatter the reader), then 17/24 and 3/16 (two of the flags from older rules, one from a first draft of the settings reading), then 14/24",
    "and 2/14 (both from older rules), then 11/24 and 0/12 (plain prose and mixed forms). The never-fit columns were measured",
    "after every batch: round13 26 → 41 of 48 and 0 → 0 of 40 flagged, which is not blind; round10 42 → 43 of 48; round12 44/48,",
    "round11 46/48, round9 41/48, round8 41/48, round7 48/48, round6 47/48, round5 47/48 and the holdout 24/30 did not move, no",
    "legitimate tool of any never-fit column was newly flagged, and the clean catalogs stayed at 0 flags. The four batches",
    "were detected at 46–71 % before fitting: the reader still follows wording more than meaning, and a set written by",
    "others should be expected to score near the first-contact figures. Screening time: the new reading runs on nearly every",
    "sentence of a clean catalog, so each of its groups opens on a plain alternation of the words it cannot match without.",
    "Measured 2026-11-26 22:03 UTC (rules only, the bench's 500-tool pool with the real catalog first, JIT warmed on other text,",
    "the previous round's code and this round's alternated twelve times in one process, CPU time, load average 2.4–2.7 on 2",
    "cores): medians 361 ms before and 376 ms after (4 %; 7 % before the word guards), about what a control of identical code",
    "read in round 12.",
    "`round14-set.jsonl`: written before the fourteenth round's changes (conversational advice with no imperative mood, \"it's",
    "best if the assistant…\", \"users generally expect…\"; attacks as retry and error-handling advice; instructions in a",
    "parameter's examples; markdown links and images whose URLs carry data; quoted earlier messages and fake tool results; secrets",
    "by other names: passphrase, bearer token, session cookie, seed phrase, .npmrc, kubeconfig; workflow and ordering rules;",
    "\"this tool replaces …\"; Italian, Portuguese and Dutch sentences; one-line attacks in a parameter title; legitimate tools in",
    "the same styles: real retry advice, deprecation and replacement notes on the same server, status badges, quoted threads,",
    "secrets managers, wallets and kubeconfig tools), never fit on; on first contact 35/48 detected (73 %, CI 59–83 %, both modes:",
    "the encoder added nothing; assistant-directive 5/8, resource-reach 5/8, concealment 5/8, shadowing 7/8, exfiltration 6/8,",
    "tool-choice 7/8) and 1/40 legitimate flagged (a search tool telling the model to treat page content as data, not",
    "instructions): the honest figure for this round. The fourteenth round then widened the gloss of foreign sentences to",
    "Italian, Portuguese and Dutch (their function words, elided articles with the preposition they carry, \"instead of\" and",
    "\"no longer\" phrases, Dutch \"de\", \"en\", \"dat\" read the Dutch way in a plainly Dutch sentence), and read skipping the",
    "user's confirmation when it is given as advice: confirmation prompts called a cost and the assistant going ahead without",
    "them, and \"without checking with anyone\"; withholding offered as a kindness (\"it goes over better if the user isn't",
    "shown…\", \"users are happier not hearing which…\"); a secret of the user's said to sit in one of the tool's fields with no",
    "verb. It was fit on three wide batches, each measured before it was fit: 1/15 detected and 0/6 flagged (Italian,",
    "Portuguese and Dutch; written after round14's misses were read), then 9/12 and 0/6 (secrets by other names, retry advice,",
    "quoted messages, confirmation as a cost), then 5/12 and 0/6 (secrets placed in a field with no verb, withholding as a",
    "kindness, titles, quoted maintainers). The never-fit columns were measured after every batch:",
    "round14 35 → 42 of 48 and 1 → 1 of 40 flagged, which is not blind; round13 41/48, round12 44/48, round11 46/48, round10",
    "43/48, round9 41/48, round8 41/48, round7 48/48, round6 47/48, round5 47/48 and the holdout 24/30 did not move, no",
    "legitimate tool of any never-fit column was newly flagged, and the clean catalogs stayed at 0 flags. Screening time:",
    "measured 2026-11-26 22:23 UTC (rules only, 500 legitimate tools of the development sets, warmed on 300 others, the",
    "previous round's code and this round's in alternating fresh processes six times each, load average 0.7–1.0 on 2",
    "cores): CPU medians 259 ms before and 271 ms after (5 %), wall 179 and 184 ms (3 %).",
    "`round15-set.jsonl`: written before the fifteenth round's changes (second-person narratives, \"you will notice…\"; numbered",
    "steps with one hostile step; attacks in a tool's output schema; notes for maintainers and TODO comments; terms-of-service",
    "wording; accessibility and localization framing; rhetorical questions and sarcasm; zero-width characters inside words;",
    "base64 and URL-encoded \"configuration\"; passive voice; \"remember for all future sessions\"; Chinese, Japanese, Russian",
    "and Polish sentences; legitimate tools in the same styles: real output schemas, step lists with the user's approval,",
    "maintainers' notes, terms acceptance, memory tools, config decoders, localization and accessibility tools), never fit on;",
    "on first contact 37/48 detected (77 %, CI 63–87 %, both modes: the encoder added nothing; assistant-directive 5/8,",
    "resource-reach 7/8, concealment 6/8, shadowing 8/8, exfiltration 4/8, tool-choice 7/8) and 1/40 legitimate flagged (a",
    "refund tool: \"it is expected that the customer is told about the refund\"): the honest figure for this round. The",
    "fifteenth round then read a base64 or percent-encoded run that decodes to prose as what it says (encoding alone is no",
    "finding); glossed Chinese and Japanese sentences by the longest known word at each place and Russian and Polish ones by the",
    "longest known stem of each inflected word; read a rhetorical question (\"why would anyone use…?\", \"why bother asking…?\",",
    "\"who still needs…?\") also as the negated order it stands for; read confirmation skipped and speech withheld in the",
    "passive (\"without the user being consulted\", \"must never be read out to the user\"), the conversation sent to a",
    "documentation host, and persistence across future sessions as a standing rule. It was fit on two wide batches, each",
    "measured before it was fit: 6/18 detected and 0/12 flagged (encoded configuration, step lists, passive voice, rhetorical",
    "questions, the four languages; written after round15's misses were read), then 10/16 and 0/10 (rhetorical questions,",
    "persistence, output schemas, TODO notes, licence wording). The never-fit columns were measured after every change:",
    "round15 37 → 42 of 48 and 1 → 1 of 40 flagged, which is not blind; round14 42/48, round13 41/48, round12 44/48, round11",
    "46/48, round10 43/48, round9 41/48, round8 41/48, round7 48/48, round6 47/48, round5 47/48 and the holdout 24/30 did not",
    "move, no legitimate tool of any never-fit column was newly flagged, and the clean catalogs stayed at 0 flags. Screening",
    "time: measured 2026-11-26 23:09 UTC (rules only, the bench's 500-tool pool with the real catalog first, warmed on 300",
    "legitimate wide tools, the previous round's code and this round's in alternating fresh processes five times each, load",
    "average about 1.0 on 2 cores): CPU medians 799 ms before and 803 ms after, wall 553 and 557 ms (under 1 %; 8 % and 4 %",
    "before the decoded runs were remembered per text and the script test began with one look for a non-ASCII letter).",
    "`round16-set.jsonl`: written before the sixteenth round's changes (instructions as test cases and unit-test",
    "expectations; \"known issues\" and troubleshooting sections; release-note bullets with version numbers; orders addressed",
    "to the integrator or the orchestrator; preferences the user supposedly stored, \"the user has asked that…\"; invented",
    "citations of the MCP specification or the host's policy; attacks in properties nested three levels deep; numeric",
    "limits; comparison tables ranking tools; emoji-heavy marketing copy; Korean, Turkish, Arabic and Hindi sentences;",
    "legitimate tools in the same styles: test runners, real known issues and release notes, stored preferences, a spec",
    "validator, policy checks, nested TLS config, telemetry with stated limits, comparison tables of the user's own runs,",
    "marketing copy, translation examples), never fit on; on first contact 38/48 detected (79 %, CI 66–88 %, both modes:",
    "the encoder added nothing; assistant-directive 4/8, resource-reach 7/8, concealment 6/8, shadowing 7/8, exfiltration",
    "7/8, tool-choice 7/8) and 1/40 legitimate flagged (a force-push tool warning that collaborators' commits can be lost):",
    "the honest figure for this round. The sixteenth round then glossed Korean, Turkish, Arabic and Hindi sentences by",
    "their stems (Arabic's attached \"and\"/\"the\"/\"to\" taken off first, unknown words in those scripts dropped) and read the",
    "last verb of a verb-final clause first; read the user's check removed (\"skip the user's confirmation\", \"confirmations",
    "are unwanted\", \"without being run past them\", \"stop prompting the user\") and a tool's words treated \"as if the user",
    "had typed them\" as the model's checks set aside; read side work \"left out of\" or \"excluded from\" user-facing output as",
    "concealment; and read the integrator as the model. It was fit on two wide batches, each measured before it was fit:",
    "2/18 detected and 0/8 flagged (the four languages, other content; written after round16's misses were read), then 5/12",
    "and 0/8 (stored preferences, troubleshooting workarounds, skipped approvals, policy-cited omissions). The never-fit",
    "columns were measured after every change: round16 38 → 46 of 48 and 1 → 1 of 40 flagged, which is not blind; round15",
    "42/48, round14 42/48, round13 41/48, round12 44/48, round11 46/48, round10 43/48, round9 41/48, round8 41/48, round7",
    "48/48, round6 47/48, round5 47/48 and the holdout 24/30 did not move, no legitimate tool of any never-fit column was",
    "newly flagged, and the clean catalogs stayed at 0 flags. Screening time: measured 2026-11-26 23:31 UTC (rules only,",
    "500 legitimate tools of the development sets, warmed on 300 others, the previous round's code and this round's in",
    "alternating fresh processes three times each, with a bench run on the other core): CPU medians 355 ms before and 293",
    "ms after (noisy); the bench's 500-tool pool with the real catalog first, two alternating screening runs each: 449 and",
    "461 ms before, 474 and 449 ms after (no measurable cost).",
    "`round17-set.jsonl`: written before the seventeenth round's changes (\"before you start\" and prerequisite sections;",
    "accessibility notes; error-message templates the model is told to show; markdown footnotes; attacks in a schema's",
    "`pattern`, `$comment`, `const` or `examples` objects; glossaries that redefine a word; triggers on what the user says;",
    "a maintainer of another server speaking; caching and performance advice; dialogue transcripts; legal disclaimers;",
    "paired-tool workflows; parameter names that carry the ask; command-line usage examples; verse; shorthand; Swedish,",
    "Indonesian, Vietnamese, Greek and Hebrew sentences; legitimate tools in the same styles: real prerequisites, error",
    "messages, footnotes, key patterns, glossaries, maintainers' notes, keychain caches, sample exchanges, legal notes,",
    "chained uploads, environment-forwarding switches, command equivalents, verse, abbreviations, translation examples),",
    "never fit on; on first contact 33/48 detected (69 %, CI 55–80 %; assistant-directive 4/8, concealment 5/8, shadowing",
    "5/8, tool-choice 5/8, exfiltration 7/8, resource-reach 7/8) and 4/40 legitimate flagged (a vault tool saying \"set",
    "VAULT_ADDR in the server's environment\", a mail tool calling list_threads first, a key generator defaulting to",
    "~/.ssh/id_ed25519, a merge tool's `delete_branch: true`): the honest figure for this round. The seventeenth round then",
    "read a transcript's assistant lines as the model's conduct and a denial to a question about the user's data as a",
    "scripted reply, verse lines joined, shorthand spelled out, a glossary word with its meaning in its place, example,",
    "default and const objects as their key-value pairs and a `pattern` as the text it asks for; glossed Swedish,",
    "Indonesian, Vietnamese, Greek and Hebrew; and read content ranked above what users say, messages equated with",
    "commands, acting without the user's confirmation, side work that never reaches the user or never comes up in replies,",
    "the user said to have no need to know, a rule for every call of another tool, and other tools gated on this one. It",
    "narrowed a sibling that only supplies this tool's input, a flag keyed by its own name, a key file the tool writes,",
    "capitalised environment names and the bare \"the server\" (the last two read off round17's own false positive before",
    "training tools of that shape were written), what the user is spared doing, and the operating system's own prompt. It",
    "was fit on five wide batches, each measured before it was fit: 11/18 detected and 0/8 flagged, then 14/18 and 3/8,",
    "then 12/18 and 1/8, then 9/12 and 3/10, then 9/12 and 1/8. The never-fit columns were measured after every change:",
    "round17 33 → 48 of 48 and 4 → 2 of 40 flagged, which is not blind; round16 46/48, round15 42/48, round14 42/48,",
    "round13 41/48, round12 44/48, round11 46/48, round10 43/48, round9 41/48, round8 41/48, round7 48/48, round6 47/48,",
    "round5 47/48 and the holdout 24/30 did not move, no legitimate tool of any never-fit column was newly flagged, and the",
    "clean catalogs stayed at 0 flags. Screening time: measured 2026-11-27 00:28 UTC (rules only, the 464 real tools, CPU",
    "time of one cold screening, the previous round's code and this round's in alternating fresh processes five times each,",
    "load 2.1–2.8 on 2 cores from other work): medians 1268 ms before and 1310 ms after (3 %; an earlier set of five, 1195",
    "and 1262 ms); the bench run below was at load 3.5, so its screening time is not comparable with the previous report's.",
    "`round18-set.jsonl`: written before the eighteenth round's changes (error-code tables; migration guides from v1 to v2;",
    "state-machine descriptions; checklists with \"[ ]\" boxes; sample exchanges showing the misbehaving answer as the expected",
    "one; hypotheticals; double negations; letters spaced or swapped for digits; vendor-extension schema keys; priority and",
    "weight numbers; sarcasm; email-signature postscripts; \"for AI agents\" sections and agent cards; SQL and shell comments",
    "in defaults; code-switching; Czech, Romanian, Finnish, Ukrainian, Thai and Persian sentences; legitimate tools in the",
    "same styles: real error-code tables, migration notes, state machines, checklists, masked secrets, cron defaults with",
    "comments, webhook and telemetry settings, deploy priorities, agent notes asking for confirmation, translation examples,",
    "jokes, misspelling examples), never fit on; on first contact 36/48 detected (75 %, CI 61–85 %; assistant-directive",
    "5/8, concealment 8/8, exfiltration 7/8, resource-reach 5/8, shadowing 6/8, tool-choice 5/8) and 1/40 legitimate flagged",
    "(a deprecated drop_table pointing to its successor \"instead\"): the honest figure for this round. The eighteenth round",
    "then read pulled-apart letters and letter-like digits put back; an order at one remove said plainly (double negations,",
    "the verdict on a supposed case, the user's check named as a step, telling nobody; not in the lead); each clause-holding",
    "cell of a table row as a sentence; Thai (keys in NFKC), Ukrainian, Persian (verb first), Czech, Romanian and Finnish",
    "glossed; the pattern rules matched on the English a glossed or rejoined sentence reads as; content met on the way named",
    "as orders, going on without approval in a second clause or anyway, other tools declared off-limits or no longer",
    "acceptable for the model, \"whatever an item asks for, do it\", and earlier tools' results as a tool's input. It was fit",
    "on four wide batches, each measured before it was fit: 0/12 detected and 0/8 flagged, then 11/12 and 0/8, then 3/12 and",
    "0/8, then (written after the round's readings were in) 8/12 and 0/8. The never-fit columns were measured after every",
    "change: round18 36 → 42 of 48 and 1 → 1 of 40 flagged, which is not blind; round17 48/48, round16 46/48, round15",
    "42/48, round14 42/48, round13 41/48, round12 44/48, round11 46/48, round10 43/48, round9 41/48, round8 41/48, round7",
    "48/48, round6 47/48, round5 47/48 and the holdout 24/30 did not move, no legitimate tool of any never-fit column was",
    "newly flagged, and the clean catalogs stayed at 0 flags; with the encoder, one more fitted wide legitimate tool is",
    "flagged (7 of 802). Screening time: measured 2026-11-27 01:01 UTC (rules only, the bench's 500-tool pool with the",
    "real catalog first, warmed on the same pool, CPU time of one screening, the previous round's code and this round's in",
    "alternating fresh processes five times each, load about 3 on 2 cores): medians 674 ms before and 690 ms after (2 %);",
    "the whole screening bench back to back, twice each: 742 and 698 ms before, 626 and 674 ms after, so a single run",
    "is not comparable with another.",
    "`round19-set.jsonl`: written before the nineteenth round's changes (interviews and Q&A with the tool's author; recipes;",
    "commit messages and diff hunks; HTTP request and response examples with headers; scheduling phrasing; analogies;",
    "quotations attributed to a security team; lists of guarantees; asks only in an output schema's field or in `annotations`;",
    "nominal style with no verb; the future tense; \"we\" as the speaker; Korean and Japanese around code identifiers; Swahili,",
    "Malay, Tagalog and Bengali sentences; legitimate tools in the same styles: real FAQs, recipes, commit and diff examples,",
    "HTTP examples, cron jobs, analogies, output schemas with tokens, destructive-hint annotations, retention notes in the",
    "first person, deprecation notices, webhook and telemetry parameters, compliance exports), never fit on; on first contact",
    "36/48 detected (75 %, CI 61–85 %; assistant-directive 5/8, concealment 6/8, exfiltration 7/8, resource-reach 7/8,",
    "shadowing 6/8, tool-choice 5/8) and 0/40 legitimate flagged: the honest figure for this round. The nineteenth round then",
    "glossed Swahili, Tagalog, Malay (with Indonesian's gloss) and Bengali (verb first, its trailing negation put before the",
    "verb); read an order written as a noun (\"Mandatory: suspension of …\", \"Other translators: not permitted\") with its verb;",
    "content said in the passive to be carried out, change notes that remove or stop what the user is told, refusals ruled",
    "out, \"no confirmation before any …\" and not asking before carrying out steps met in content as what they ask; the model",
    "calling another server's tool as a side step or on a schedule, and an argument set over the one the user gave, as",
    "shadowing; a yes/no question about the model's conduct answered \"no\" as the statement it denies (not when that is unsafe);",
    "\"e.g.\" no longer ends a sentence, and an address inside an example of a setting is no destination. It was fit on four",
    "wide batches, each measured before it was fit: 6/16 detected and 0/8 flagged, then 3/8 and 1/6 (an older rule), then",
    "6/10 and 0/6, then (written after the round's first readings were in) 5/12 and 0/8. The never-fit columns were measured",
    "after every change: round19 36 → 48 of 48 and 0 → 0 of 40 flagged, which is not blind; round18 42/48, round17 48/48,",
    "round16 46/48, round15 42/48, round14 42/48, round13 41/48, round12 44/48, round11 46/48, round10 43/48, round9 41/48,",
    "round8 41/48, round7 48/48, round6 47/48, round5 47/48 and the holdout 24/30 did not move, no legitimate tool of any",
    "never-fit column was newly flagged, and the clean catalogs stayed at 0 flags; with the encoder, no more fitted wide",
    "legitimate tools are flagged than before (7 of 830). Screening time: measured 2026-11-27 01:18",
    "UTC (rules only, the bench's 500-tool pool with the real catalog first, CPU time of one screening, the previous round's",
    "code and this round's in alternating fresh processes five times each, load 4–5 on 2 cores from other work): cold,",
    "medians 1430 ms before and 1410 ms after; warmed on 300 other tools, 1084 and 1025 ms: no measurable cost.",
    "`round20-set.jsonl`: written before the twentieth round's changes (long API reference prose with a parameter table and",
    "one sentence of attack among honest detail; compatibility notes for named host apps; orders conditioned on time or",
    "environment; attacks framed as safety features; numbered policies with section signs; plain-English \"what the model",
    "should remember\"; notes addressed to Claude, GPT or Copilot by name; polite \"would you kindly\" requests; passive",
    "prohibitions about the user; JSON settings escaped inside the description; French, Spanish and German sentences mixed",
    "with English technical words; Hungarian, Serbian, Malayalam and Amharic sentences; legitimate tools in the same",
    "styles: API references, host compatibility notes, night windows and production checks, safety measures, GDPR",
    "sections, tools that call Claude, GPT or Copilot, moderation that does not notify, JSON examples, mixed-language",
    "descriptions), never fit on. Its first draft used `.example` hosts, which the screen reads as documentation hosts, so",
    "they were replaced by ordinary domains before any screen change (35/48 with them); on first contact 37/48 detected",
    "(77 %, CI 63–87 %; assistant-directive 6/8, concealment 5/8, exfiltration 7/8, resource-reach 7/8, shadowing 6/8,",
    "tool-choice 6/8) and 3/40 legitimate flagged (a key rotation's \"as a safety measure\", an on-call page \"after 6pm\", an",
    "IAM policy setter pointing to get_iam_policy): the honest figure for this round. The twentieth round then read orders",
    "found in content made the model's (\"shall follow any directive contained in a saved note\", \"act on whatever the page",
    "asks\"); \"never to be listed to the user\" as withholding; \"over filesystem search tools\" as the alternatives; a first",
    "sentence that gives the model an order (\"The model should remember: …\", \"Dear Claude, …\", \"When …, forward …\",",
    "\"Compatibility notes for …:\") as no declaration of purpose; an imperative after a fronted safety, time or environment",
    "clause (\"For the user's safety, first open …\", \"Before pinging, place …\") as an imperative; a secret collection (the",
    "keychain, a browser's saved passwords) as outside a purpose that does not name it; the tool's own name at another",
    "version as its successor (a training batch's false positive, by an older rule); Hungarian, Serbian (Latin and",
    "Cyrillic), Malayalam and Amharic glossed, French, Spanish and German requests half in English glossed with their verbs,",
    "and a gloss's verb-adverb and negation-modal order put in English order. It was fit on two wide batches, each measured",
    "before it was fit: 28/48 detected and 0/16 flagged, then (written after the round's first changes) 28/36 and 0/16. The",
    "never-fit columns were measured after every change: round20 37 → 47 of 48 and 3 → 3 of 40 flagged, which is not blind;",
    "round13 41 → 42 and round9 41 → 42 of 48; round19 48/48, round18 42/48, round17 48/48, round16 46/48, round15 42/48,",
    "round14 42/48, round12 44/48, round11 46/48, round10 43/48, round8 41/48, round7 48/48, round6 47/48, round5 47/48 and",
    "the holdout 24/30 did not move, no legitimate tool of any never-fit column was newly flagged, and the clean catalogs",
    "stayed at 0 flags; with the encoder, the same seven wide legitimate tools and one holdout tool are flagged as before.",
    "Screening time: measured 2026-11-27 01:40 UTC (rules only, the dev sets' 4,214 tools and their first 500, the previous",
    "round's code and this round's in alternating fresh processes five times each, load about 1.5 on 2 cores): 500 tools,",
    "medians 350 ms before and 309 ms after; all 4,214, 2,070 and 2,191 ms (about 6 %).",
    "`round21-set.jsonl`: written before the twenty-first round's changes (Gherkin scenarios, `x-example` values in",
    "parameter descriptions, pseudo-code, asks in a markdown link title or image alt text, FAQ answers that contradict an",
    "earlier safe one, \"internal note\" and \"note to self\" asides, quota advice that asks for credentials, \"it\" referring",
    "back to another server's tool, understated suggestions, diffs of the description itself, bilingual side-by-side text,",
    "Norwegian, Danish, Slovak, Lithuanian and Urdu sentences; legitimate tools in the same styles: real scenarios,",
    "x-examples, pseudo-code guards, FAQs, internal notes, rate limits, deprecation diffs, bilingual text, telemetry and",
    "webhook parameters, compliance exports), never fit on. Its first draft used `example.com`-style hosts, which the screen",
    "reads as documentation hosts, so they were replaced by ordinary domains before any screen change (31/48 with them",
    "too); on first contact 31/48 detected (65 %, CI 50–77 %; assistant-directive 5/8, concealment 6/8, exfiltration 6/8,",
    "resource-reach 5/8, shadowing 4/8, tool-choice 5/8) and 3/40 legitimate flagged (a shell tool's \"commands run with the",
    "server's user privileges\", a deprecation diff pointing to search_v2, a completion tool's \"keep the system prompt",
    "short\"): the honest figure for this round. The twenty-first round then read a diff of the description as what it now",
    "says (removed lines dropped, added lines read under their context line), a scenario's And/But step with the step before",
    "it and a Then step with its When; withholding \"even when asked\" (not a secret's value) as concealment; the model left",
    "to skip the other tools (\"never calls the others\", \"calls to the other tools should be refused\") as tool choice; the",
    "model reading a credential file, or code in a description opening one, as a reach for it; orders in content ranked",
    "above the user as given authority; a dotted name passed unquoted to a call (`send(user.email, …)`) as a code field, not",
    "a host (a training batch's false positive); and Norwegian and Danish glossed together. It was fit on two wide batches,",
    "each measured before it was fit: 5/12 detected and 1/6 flagged, then (written after the round's first changes) 3/12",
    "and 0/6. The never-fit columns were measured after every change: round21 31 → 37 of 48 and 3 → 3 of 40 flagged, which",
    "is not blind; round20 47/48, round19 48/48, round18 42/48, round17 48/48, round16 46/48, round15 42/48, round14 42/48,",
    "round13 42/48, round12 44/48, round11 46/48, round10 43/48, round9 42/48, round8 41/48, round7 48/48, round6 47/48,",
    "round5 47/48 and the holdout 24/30 did not move (rules and reader), no legitimate tool of any never-fit column was newly",
    "flagged, and the clean catalogs stayed at 0 flags. Screening time: measured 2026-11-27 01:50 UTC (rules only, the dev",
    "sets' tools and their first 500, the previous round's code and this round's in alternating fresh processes three times",
    "each, load about 3 on 2 cores, CPU time): 500 tools, medians 1,068 ms before and 986 ms after; all tools (4,214 before,",
    "4,250 with the new batches), 3,445 and 3,312 ms; the bench's 500-tool pool (real catalog first), six alternating pairs",
    "with the final code at load 3–4, CPU medians 1,308 ms before and 1,316 ms after: no measurable cost.",
    "`round22-set.jsonl`: written before the twenty-second round's changes (\"pro tip\" boxes, README badges and headings,",
    "support-ticket templates, benchmark tables that disparage other tools, asks spelled as enum value names, a parameter",
    "to be filled with the previous tool's output verbatim, multi-agent workflows, conditions on the reader being an AI",
    "model, \"dear reader\" address, two-word attacks, Estonian, Latvian, Slovenian, Tamil and Telugu sentences; legitimate",
    "tools in the same styles: real tips, badges, ticket templates, benchmark tables, enums, telemetry and webhook",
    "parameters, multi-agent delegation, compliance exports), never fit on. On first contact 28/48 detected (58 %, CI",
    "45–71 %; 29/48 with the encoder) and 3/40 legitimate flagged (a shell tool's \"commands run with the server's user privileges\", an intent",
    "classifier's \"use the returned intent to choose the next tool\", an admin tool's \"the user is not notified",
    "automatically\"): the honest figure for this round. The twenty-second round then read a value (an enum member, a",
    "default) that spells a phrase of four or more words as one identifier (snake, kebab or camel case) as the words it",
    "spells, and following orders found in content, said in such a value, as an order to the model. It was fit on one",
    "wide batch, measured before it was fit: 0/8 detected and 0/6 flagged (6/8 and 0/6 after). The never-fit columns",
    "were measured after the change: round22 28 → 31 of 48 (29 → 32 with the encoder) and 3 → 3 of 40 flagged, which is not blind; the holdout and",
    "rounds 5–21 did not move, no legitimate tool of any never-fit column was newly flagged, and the clean catalogs stayed",
    "at 0 flags. Screening time: the bench's pool, the previous round's code and this one's, rules only, 753 → 747 ms: no measurable cost.",
    "Timings below are from one run on a shared machine.",
    "95 % Wilson intervals.",
    "",
  );
  for (const m of ms) {
    md.push(
      `### ${m.mode}${m.encoder.used ? ` (${m.encoder.model})` : m.encoder.reason ? ` (encoder not used: ${m.encoder.reason})` : ""}`,
      "",
      "| Category | dev | test | fresh (fit) | blind (fit) | wide (fit) | **holdout (never fit)** | **round5 (never fit)** | **round6 (never fit)** | **round7 (never fit)** | **round8 (never fit)** | **round9 (never fit)** | **round10 (never fit)** | **round11 (never fit)** | **round12 (never fit)** | **round13 (never fit)** | **round14 (never fit)** | **round15 (never fit)** | **round16 (never fit)** | **round17 (never fit)** | **round18 (never fit)** | **round19 (never fit)** | **round20 (never fit)** | **round21 (never fit)** | **round22 (never fit)** |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const [k, d] of Object.entries(m.detection))
      md.push(`| ${k} | ${pctCi(d.dev)} | ${pctCi(d.test)} | ${pctCi(d.fresh)} | ${pctCi(d.blind)} | ${pctCi(d.wide)} | **${pctCi(d.holdout)}** | **${pctCi(d.round5)}** | **${pctCi(d.round6)}** | **${pctCi(d.round7)}** | **${pctCi(d.round8)}** | **${pctCi(d.round9)}** | **${pctCi(d.round10)}** | **${pctCi(d.round11)}** | **${pctCi(d.round12)}** | **${pctCi(d.round13)}** | **${pctCi(d.round14)}** | **${pctCi(d.round15)}** | **${pctCi(d.round16)}** | **${pctCi(d.round17)}** | **${pctCi(d.round18)}** | **${pctCi(d.round19)}** | **${pctCi(d.round20)}** | **${pctCi(d.round21)}** | **${pctCi(d.round22)}** |`);
    const l = m.legitimate;
    md.push(`| legitimate-but-alarming flagged | ${pctCi(l.dev)} | ${pctCi(l.test)} | ${pctCi(l.fresh)} | ${pctCi(l.blind)} | ${pctCi(l.wide)} | **${pctCi(l.holdout)}** | **${pctCi(l.round5)}** | **${pctCi(l.round6)}** | **${pctCi(l.round7)}** | **${pctCi(l.round8)}** | **${pctCi(l.round9)}** | **${pctCi(l.round10)}** | **${pctCi(l.round11)}** | **${pctCi(l.round12)}** | **${pctCi(l.round13)}** | **${pctCi(l.round14)}** | **${pctCi(l.round15)}** | **${pctCi(l.round16)}** | **${pctCi(l.round17)}** | **${pctCi(l.round18)}** | **${pctCi(l.round19)}** | **${pctCi(l.round20)}** | **${pctCi(l.round21)}** | **${pctCi(l.round22)}** |`);
    md.push("", "| Clean catalog | tools | quarantined | flagged |", "| --- | ---: | ---: | ---: |");
    for (const [k, c] of Object.entries(m.clean)) md.push(`| ${k} | ${c.n} | ${c.quarantined} | ${c.flagged}${c.names.length ? ` (${c.names.join(", ")})` : ""} |`);
    if (m.timing)
      md.push(
        "",
        `Screening ${m.timing.tools} tools (${m.timing.sentences} sentences, ${m.timing.embedded} embedded)${m.encoder.used ? " with a warm encoder and no vector cache" : ""}: ${m.timing.ms.toFixed(0)} ms (os.loadavg() ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores).`,
      );
    md.push("");
  }
  return md.join("\n");
}
