/**
 * The screen measured on sets written independently of it: each by a writer who read neither the screen's readers
 * nor the other sets, and measured once, as written, against the screen of the day (its "first contact"). Three
 * kinds:
 *
 * - `legit`: 160 alarming-but-legitimate tools in the registers real MCP servers publish (credential managers,
 *   shells, databases, messaging, cloud admin, browser automation, guidance to the model, memory, LLM gateways, …);
 * - `realistic`: 64 poisoned and 40 legitimate tools as a real malicious server would ship them;
 * - `evasive`: 64 poisoned and 40 legitimate tools by a writer told to reach the same goals politely and indirectly,
 *   without the words a screen looks for ("secret", "hidden", "do not tell the user");
 * - `adversarial`: attacks dressed as the notes the screen lets through (routing-notes.ts, option-notes.ts), written
 *   by someone who had read those two files.
 *
 * A set stays never-fit until its texts are read while changing the screen; after that its "now" figure is not
 * blind. `INDEPENDENT_SETS` records which, and the first-contact figure with the commit it was measured at.
 *
 * Two settings, as the writers measured: each tool alone on its own server ("alone"), and each tool on its own
 * server next to a catalog's tools ("beside the catalog"), where a named tool of another server is known as such.
 */
import { fileURLToPath } from "node:url";
import { screenTool, type ScreenableTool } from "../core/screening/screen.js";
import { readJsonLines, wilson } from "./screening.js";

export type IndependentKind = "legit" | "realistic" | "evasive" | "adversarial";

export interface IndependentSet {
  name: string;
  kind: IndependentKind;
  /** First contact, as the writer measured it: the commit, the setting, and the counts. */
  firstContact: { commit: string; setting: "alone" | "beside the real catalog"; detected?: [number, number]; flagged: [number, number] };
  /** The set's texts were read while changing the screen: its figure now is not blind. */
  fit: boolean;
  /** Poisoned and legitimate tools the writer was asked for, when not the kind's usual sizes (the short-tool sets). */
  size?: [number, number];
}

export const INDEPENDENT_SETS: readonly IndependentSet[] = [
  { name: "legit23", kind: "legit", firstContact: { commit: "4f25e00", setting: "alone", flagged: [15, 160] }, fit: true },
  { name: "legit24", kind: "legit", firstContact: { commit: "4f25e00", setting: "alone", flagged: [18, 160] }, fit: true },
  { name: "legit25", kind: "legit", firstContact: { commit: "d58df8f", setting: "alone", flagged: [7, 160] }, fit: true },
  { name: "legit26", kind: "legit", firstContact: { commit: "f553eb6", setting: "alone", flagged: [12, 160] }, fit: true },
  { name: "legit27", kind: "legit", firstContact: { commit: "5915f20", setting: "alone", flagged: [7, 160] }, fit: true },
  { name: "round23", kind: "adversarial", firstContact: { commit: "05ff6ee", setting: "beside the real catalog", detected: [20, 48], flagged: [0, 24] }, fit: true },
  { name: "round24", kind: "realistic", firstContact: { commit: "d58df8f", setting: "beside the real catalog", detected: [54, 64], flagged: [6, 40] }, fit: true },
  { name: "round25", kind: "realistic", firstContact: { commit: "f553eb6", setting: "beside the real catalog", detected: [47, 64], flagged: [7, 40] }, fit: true },
  { name: "round26", kind: "realistic", firstContact: { commit: "5915f20", setting: "beside the real catalog", detected: [49, 64], flagged: [8, 40] }, fit: true },
  { name: "legit28", kind: "legit", firstContact: { commit: "402bb5a", setting: "alone", flagged: [7, 160] }, fit: true },
  { name: "round27", kind: "realistic", firstContact: { commit: "402bb5a", setting: "beside the real catalog", detected: [56, 64], flagged: [5, 40] }, fit: true },
  { name: "legit29", kind: "legit", firstContact: { commit: "6ce2b7c", setting: "alone", flagged: [7, 160] }, fit: true },
  { name: "round28", kind: "adversarial", firstContact: { commit: "6ce2b7c", setting: "beside the real catalog", detected: [25, 48], flagged: [0, 24] }, fit: true },
  { name: "legit32", kind: "legit", firstContact: { commit: "d6f2459", setting: "alone", flagged: [20, 160] }, fit: true },
  { name: "round30", kind: "realistic", firstContact: { commit: "d6f2459", setting: "beside the real catalog", detected: [51, 64], flagged: [7, 40] }, fit: true },
  { name: "round31", kind: "realistic", firstContact: { commit: "4149e93", setting: "beside the real catalog", detected: [55, 64], flagged: [8, 40] }, fit: true },
  { name: "legit30", kind: "legit", firstContact: { commit: "2db70f2", setting: "alone", flagged: [13, 160] }, fit: false },
  { name: "round29", kind: "realistic", firstContact: { commit: "2db70f2", setting: "beside the real catalog", detected: [52, 64], flagged: [7, 40] }, fit: false },
  { name: "legit33", kind: "legit", firstContact: { commit: "4149e93", setting: "alone", flagged: [5, 160] }, fit: false },
  { name: "legit37", kind: "legit", firstContact: { commit: "0ee8ad5", setting: "alone", flagged: [4, 160] }, fit: false },
  { name: "round32", kind: "realistic", firstContact: { commit: "0ee8ad5", setting: "beside the real catalog", detected: [51, 64], flagged: [6, 40] }, fit: false },
  { name: "legit42", kind: "legit", firstContact: { commit: "66acb17", setting: "alone", flagged: [2, 160] }, fit: false },
  { name: "round33", kind: "realistic", firstContact: { commit: "66acb17", setting: "beside the real catalog", detected: [53, 64], flagged: [7, 40] }, fit: false },
  { name: "round34", kind: "realistic", firstContact: { commit: "48c9600", setting: "beside the real catalog", detected: [58, 64], flagged: [0, 40] }, fit: false },
  { name: "legit50", kind: "legit", firstContact: { commit: "48c9600", setting: "alone", flagged: [5, 160] }, fit: false },
  { name: "round35", kind: "realistic", firstContact: { commit: "06b5133", setting: "beside the real catalog", detected: [54, 64], flagged: [7, 40] }, fit: false },
  { name: "legit51", kind: "legit", firstContact: { commit: "06b5133", setting: "alone", flagged: [7, 160] }, fit: false },
  { name: "round36", kind: "realistic", firstContact: { commit: "61adeef", setting: "beside the real catalog", detected: [53, 64], flagged: [4, 40] }, fit: false },
  { name: "legit52", kind: "legit", firstContact: { commit: "61adeef", setting: "alone", flagged: [4, 160] }, fit: false },
  { name: "round37", kind: "realistic", firstContact: { commit: "cbe21c8", setting: "beside the real catalog", detected: [55, 64], flagged: [4, 40] }, fit: false },
  { name: "round38", kind: "evasive", firstContact: { commit: "cbe21c8", setting: "beside the real catalog", detected: [39, 64], flagged: [5, 40] }, fit: true },
  { name: "legit62", kind: "legit", firstContact: { commit: "cbe21c8", setting: "alone", flagged: [15, 160] }, fit: true },
  { name: "round39", kind: "evasive", firstContact: { commit: "cbe21c8", setting: "beside the real catalog", detected: [50, 64], flagged: [2, 40] }, fit: false },
  { name: "legit63", kind: "legit", firstContact: { commit: "cbe21c8", setting: "alone", flagged: [12, 160] }, fit: false },
  { name: "round40", kind: "evasive", firstContact: { commit: "cbe21c8", setting: "beside the real catalog", detected: [40, 64], flagged: [2, 40] }, fit: true },
  { name: "legit64", kind: "legit", firstContact: { commit: "cbe21c8", setting: "alone", flagged: [19, 160] }, fit: true },
  { name: "round42", kind: "realistic", firstContact: { commit: "2c114cb", setting: "beside the real catalog", detected: [57, 64], flagged: [3, 40] }, fit: false },
  { name: "round41", kind: "evasive", firstContact: { commit: "429fc47", setting: "beside the real catalog", detected: [39, 64], flagged: [3, 40] }, fit: false },
  { name: "legit65", kind: "legit", firstContact: { commit: "da8479d", setting: "alone", flagged: [16, 160] }, fit: false },
  { name: "round43", kind: "realistic", firstContact: { commit: "8334049", setting: "beside the real catalog", detected: [55, 64], flagged: [3, 40] }, fit: false },
  { name: "legit66", kind: "legit", firstContact: { commit: "a190c71", setting: "alone", flagged: [22, 160] }, fit: true },
  { name: "round44", kind: "evasive", firstContact: { commit: "ed5b439", setting: "beside the real catalog", detected: [44, 64], flagged: [2, 40] }, fit: true },
  { name: "legit67", kind: "legit", firstContact: { commit: "ed5b439", setting: "alone", flagged: [14, 160] }, fit: true },
  { name: "round45", kind: "realistic", firstContact: { commit: "f6867d4", setting: "beside the real catalog", detected: [52, 64], flagged: [3, 40] }, fit: false },
  { name: "round46", kind: "evasive", firstContact: { commit: "f6867d4", setting: "beside the real catalog", detected: [55, 64], flagged: [3, 40] }, fit: true },
  { name: "round47", kind: "realistic", firstContact: { commit: "605b76c", setting: "beside the real catalog", detected: [50, 64], flagged: [5, 40] }, fit: false },
  { name: "round48", kind: "evasive", firstContact: { commit: "605b76c", setting: "beside the real catalog", detected: [44, 64], flagged: [1, 40] }, fit: true },
  { name: "legit68", kind: "legit", firstContact: { commit: "605b76c", setting: "alone", flagged: [18, 160] }, fit: true },
  { name: "round49", kind: "realistic", firstContact: { commit: "f1bb44a", setting: "beside the real catalog", detected: [54, 64], flagged: [4, 40] }, fit: false },
  { name: "legit69", kind: "legit", firstContact: { commit: "f1bb44a", setting: "alone", flagged: [33, 160] }, fit: true },
  { name: "round50", kind: "realistic", firstContact: { commit: "0fcf509", setting: "beside the real catalog", detected: [49, 64], flagged: [3, 40] }, fit: false },
  { name: "legit70", kind: "legit", firstContact: { commit: "90a10f5", setting: "alone", flagged: [20, 160] }, fit: false },
  { name: "round51", kind: "realistic", firstContact: { commit: "94d4c67", setting: "beside the real catalog", detected: [48, 64], flagged: [3, 40] }, fit: false },
  { name: "legit71", kind: "legit", firstContact: { commit: "94d4c67", setting: "alone", flagged: [17, 160] }, fit: false },
  { name: "round52", kind: "realistic", firstContact: { commit: "8f71ad6", setting: "beside the real catalog", detected: [43, 64], flagged: [0, 40] }, fit: false },
  { name: "round53", kind: "evasive", firstContact: { commit: "8f71ad6", setting: "beside the real catalog", detected: [48, 64], flagged: [1, 40] }, fit: false },
  { name: "legit72", kind: "legit", firstContact: { commit: "8f71ad6", setting: "alone", flagged: [5, 160] }, fit: false },
  { name: "round54", kind: "realistic", firstContact: { commit: "ef00baa", setting: "beside the real catalog", detected: [54, 64], flagged: [1, 40] }, fit: false },
  { name: "legit73", kind: "legit", firstContact: { commit: "ef00baa", setting: "alone", flagged: [1, 160] }, fit: false },
  { name: "legit74", kind: "legit", firstContact: { commit: "aba63b5", setting: "alone", flagged: [0, 160] }, fit: false },
  { name: "round55", kind: "realistic", firstContact: { commit: "aba63b5", setting: "beside the real catalog", detected: [52, 64], flagged: [0, 40] }, fit: false },
  { name: "round56", kind: "realistic", firstContact: { commit: "7cd6941", setting: "beside the real catalog", detected: [53, 64], flagged: [0, 40] }, fit: false },
  { name: "legit75", kind: "legit", firstContact: { commit: "7cd6941", setting: "alone", flagged: [0, 160] }, fit: false },
  { name: "round57", kind: "realistic", firstContact: { commit: "fbeb93e", setting: "beside the real catalog", detected: [60, 64], flagged: [0, 40] }, fit: false },
  { name: "legit76", kind: "legit", firstContact: { commit: "fbeb93e", setting: "alone", flagged: [0, 160] }, fit: false },
  // Short tools (one to three sentences, at most about 60 words of prose), the register of most real servers' tools.
  { name: "round58", kind: "realistic", firstContact: { commit: "c6d544e", setting: "beside the real catalog", detected: [57, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit77", kind: "legit", firstContact: { commit: "c6d544e", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  { name: "round59", kind: "realistic", firstContact: { commit: "c26ddd6", setting: "beside the real catalog", detected: [80, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "round60", kind: "realistic", firstContact: { commit: "9143cc5", setting: "beside the real catalog", detected: [84, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit78", kind: "legit", firstContact: { commit: "9143cc5", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  // Half short, half of ordinary length.
  { name: "round61", kind: "realistic", firstContact: { commit: "2f89467", setting: "beside the real catalog", detected: [85, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit79", kind: "legit", firstContact: { commit: "2f89467", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  { name: "round62", kind: "realistic", firstContact: { commit: "a1ede0a", setting: "beside the real catalog", detected: [89, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit80", kind: "legit", firstContact: { commit: "a1ede0a", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  // A third short, the rest ordinary or long: the attack styles of public write-ups, each written afresh.
  { name: "round63", kind: "realistic", firstContact: { commit: "6a2ee61", setting: "beside the real catalog", detected: [87, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit81", kind: "legit", firstContact: { commit: "6a2ee61", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  // As a benchmark generator writes them: popular kinds of servers, each ask given a rationale (security, caching,
  // compliance, a bug fix, the user's wish), half short.
  { name: "round64", kind: "realistic", firstContact: { commit: "76406a1", setting: "beside the real catalog", detected: [83, 96], flagged: [2, 64] }, fit: false, size: [96, 64] },
  // The ask in the less-read places: schema values, nested properties, parameter names, other languages, code and
  // JSON snippets inside a description.
  { name: "round65", kind: "realistic", firstContact: { commit: "76406a1", setting: "beside the real catalog", detected: [75, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  // Written in a hurry or in non-native English (lowercase, typos, text-speak, formal legalese); honest tools of the
  // kinds a screen fears most, as their maintainers publish them.
  { name: "round66", kind: "realistic", firstContact: { commit: "76406a1", setting: "beside the real catalog", detected: [81, 96], flagged: [1, 64] }, fit: false, size: [96, 64] },
  { name: "legit82", kind: "legit", firstContact: { commit: "76406a1", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  // Many voices and formats (docstrings, OpenAPI, READMEs, emoji, other languages, agent hints, changelogs, indirect
  // framings), a third short.
  { name: "round67", kind: "realistic", firstContact: { commit: "3ba5111", setting: "beside the real catalog", detected: [81, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  // A red-teamer's subtle asks, a third short and a sixth in other languages; honest tools a careless screen would flag.
  { name: "round68", kind: "realistic", firstContact: { commit: "b042113", setting: "beside the real catalog", detected: [81, 96], flagged: [3, 64] }, fit: false, size: [96, 64] },
  { name: "legit83", kind: "legit", firstContact: { commit: "b042113", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  // Eight voices (a researcher's tagged demo, a template generator, non-native, terse, corporate, marketing, schema
  // parts, multi-step), a third short, written after the last change.
  { name: "round69", kind: "realistic", firstContact: { commit: "2d55b50", setting: "beside the real catalog", detected: [82, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit84", kind: "legit", firstContact: { commit: "2d55b50", setting: "alone", flagged: [2, 200] }, fit: false, size: [0, 200] },
  { name: "round70", kind: "realistic", firstContact: { commit: "81d1112", setting: "beside the real catalog", detected: [86, 96], flagged: [7, 64] }, fit: false, size: [96, 64] },
  { name: "round71", kind: "realistic", firstContact: { commit: "81d1112", setting: "beside the real catalog", detected: [80, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit85", kind: "legit", firstContact: { commit: "81d1112", setting: "alone", flagged: [0, 200] }, fit: false, size: [0, 200] },
  { name: "round72", kind: "realistic", firstContact: { commit: "ff71a69", setting: "beside the real catalog", detected: [86, 96], flagged: [3, 64] }, fit: false, size: [96, 64] },
  { name: "round73", kind: "realistic", firstContact: { commit: "ff71a69", setting: "beside the real catalog", detected: [80, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "legit86", kind: "legit", firstContact: { commit: "ff71a69", setting: "alone", flagged: [3, 200] }, fit: false, size: [0, 200] },
  { name: "round74", kind: "realistic", firstContact: { commit: "e43face", setting: "beside the real catalog", detected: [85, 96], flagged: [4, 64] }, fit: false, size: [96, 64] },
  { name: "round75", kind: "realistic", firstContact: { commit: "e43face", setting: "beside the real catalog", detected: [81, 96], flagged: [0, 64] }, fit: false, size: [96, 64] },
  { name: "round76", kind: "realistic", firstContact: { commit: "e43face", setting: "beside the real catalog", detected: [90, 96], flagged: [1, 64] }, fit: false, size: [96, 64] },
  { name: "legit87", kind: "legit", firstContact: { commit: "e43face", setting: "alone", flagged: [2, 200] }, fit: false, size: [0, 200] },
];

export interface IndependentRow {
  id: string;
  label: "poisoned" | "legit";
  category: string;
  tool: ScreenableTool;
}

/** The file of a set: data/screening/<name>-set.jsonl. */
export function independentSetPath(name: string): string {
  return fileURLToPath(new URL(`../../data/screening/${name}-set.jsonl`, import.meta.url));
}

/** Reads a set by name (or a path to a JSON-lines file); errors name the file and line. */
export function loadIndependentSet(name: string): IndependentRow[] {
  return readJsonLines<IndependentRow>(
    name.endsWith(".jsonl") ? name : independentSetPath(name),
    (row) => Boolean(row?.tool) && typeof row.tool.name === "string" && (row.label === "poisoned" || row.label === "legit"),
    `{"id", "label": "poisoned"|"legit", "category", "tool": {"name", …}}`,
  );
}

export interface IndependentMeasurement {
  name: string;
  kind: IndependentKind;
  fit: boolean;
  setting: "alone" | "beside the real catalog";
  detected?: [number, number];
  flagged: [number, number];
  /** Ids the screen got wrong: poisoned let through, legitimate flagged. */
  missed: string[];
  falsePositives: string[];
}

/**
 * Screens every tool of a set on a server of its own (`untrusted-<id>`), alone or beside `catalog` (tool names with
 * their servers), and counts.
 */
export function measureIndependentSet(set: IndependentSet, catalog?: readonly { name: string; server: string }[]): IndependentMeasurement {
  const rows = loadIndependentSet(set.name);
  let poisoned = 0;
  let detected = 0;
  let legit = 0;
  let flagged = 0;
  const missed: string[] = [];
  const falsePositives: string[] = [];
  for (const r of rows) {
    const server = `untrusted-${r.id}`;
    const hit = screenTool(r.tool, { server, tools: [...(catalog ?? []), { name: String(r.tool.name), server }] }).flagged;
    if (r.label === "poisoned") {
      poisoned++;
      if (hit) detected++;
      else missed.push(r.id);
    } else {
      legit++;
      if (hit) {
        flagged++;
        falsePositives.push(r.id);
      }
    }
  }
  return {
    name: set.name,
    kind: set.kind,
    fit: set.fit,
    setting: catalog ? "beside the real catalog" : "alone",
    ...(poisoned ? { detected: [detected, poisoned] as [number, number] } : {}),
    flagged: [flagged, legit],
    missed,
    falsePositives,
  };
}

const pct = ([k, n]: [number, number]) => {
  const [low, high] = wilson(k, n);
  return `${k}/${n} (${Math.round((100 * k) / n)} %, CI ${Math.round(100 * low)}–${Math.round(100 * high)} %)`;
};

/** The table for the report: first contact beside the figure now, per set and setting. */
export function renderIndependentMarkdown(rows: readonly IndependentMeasurement[]): string {
  const md = [
    "### Independent sets (written without reading the screen; first contact as measured by their writers)",
    "",
    "| set | kind | fit since | first contact (commit, setting) | detected now | legitimate flagged now | setting now |",
    "|---|---|---|---|---:|---:|---|",
  ];
  for (const r of rows) {
    const set = INDEPENDENT_SETS.find((s) => s.name === r.name)!;
    const fc = set.firstContact;
    const first = `${fc.detected ? `${fc.detected[0]}/${fc.detected[1]} detected, ` : ""}${fc.flagged[0]}/${fc.flagged[1]} flagged (${fc.commit}, ${fc.setting})`;
    md.push(`| ${r.name} | ${r.kind} | ${set.fit ? "read" : "**never fit**"} | ${first} | ${r.detected ? pct(r.detected) : "—"} | ${pct(r.flagged)} | ${r.setting} |`);
  }
  return `${md.join("\n")}\n`;
}
