/**
 * Event-loop delay while a server routes many requests at once: `threads` concurrent "threads" (as a LangGraph
 * server runs them) each route queries through ONE shared `ToolAttentionRouter` over the demo catalog, and
 * `perf_hooks.monitorEventLoopDelay` (1 ms resolution) records how long the host's event loop was held up
 * meanwhile. With the encoder in a worker thread (the default) only message passing and scoring run here; with
 * `inProcess` every forward pass (20–50 ms) runs on this thread and every other request waits for it.
 *
 * Both modes use the same encoder settings (USE-lite dense + BM25, as the default "hybrid"), differing only in
 * where the model runs. Queries are all distinct, so no query cache hides an encode. Catalog embedding and the
 * model load happen before the measurement starts.
 *
 * For the bench report, `eventLoopSection()` measures both modes, each in a fresh child process (so neither the
 * other mode's model nor the in-process model's process-wide handlers are in the measured process), and
 * `renderEventLoopMarkdown()` renders the result.
 *
 * Run: `node --import tsx src/bench/event-loop.ts [--in-process] [--threads N] [--queries N]` (prints the result as
 * JSON).
 */
import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { UseLiteEmbeddings } from "../core/encoders/use-lite.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import { runIfEntry } from "../cli/entry.js";
import { markdownTable } from "./report.js";

export interface EventLoopDelayOptions {
  /** Concurrent routing threads. Default 50. */
  threads?: number;
  /** Queries each thread routes one after another. Default 1. */
  queriesPerThread?: number;
  /** Run the model on this thread instead of the encoder worker (for comparison). Default false. */
  inProcess?: boolean;
  /** Catalog file. Default: the demo catalog (data/demo-catalog.json). */
  catalogPath?: string;
  /** Embedding cache directory for the catalog (see RouterOptions.cacheDir). Default false: memory only. */
  cacheDir?: string | false;
}

export interface EventLoopDelayResult {
  threads: number;
  /** Event-loop delay percentiles and maximum over the routing window, in milliseconds. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Routes completed per second of the window (all threads together). */
  routesPerSecond: number;
}

const DEMO_CATALOG = fileURLToPath(new URL("../../data/demo-catalog.json", import.meta.url));

/** Everyday requests over the demo catalog; a thread number and a counter make each one distinct. */
const REQUESTS = [
  "what's the weather going to be like in {city} tomorrow",
  "merge pull request {n} in acme/api",
  "open config-{n}.yaml and change the port to 8080",
  "how many users signed up in week {n}? check the analytics tables",
  "tell the #release channel on slack that v2.{n} is out",
  "create an issue about the login bug number {n}",
  "send an email to bob about the meeting on day {n}",
  "list the files in the reports-{n} directory",
  "search the web for the {city} train timetable",
  "schedule a meeting with the team on {city} office day {n}",
];
const CITIES = ["Paris", "Lisbon", "Berlin", "Oslo", "Madrid", "Rome", "Vienna", "Prague", "Dublin", "Athens"];

function queryFor(thread: number, round: number): string {
  const i = thread + round * 7919;
  return REQUESTS[i % REQUESTS.length]!.replace("{city}", CITIES[Math.floor(i / REQUESTS.length) % CITIES.length]!).replace("{n}", String(i + 1));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Measures the event-loop delay while `threads` concurrent threads route through one shared router. */
export async function measureEventLoopDelay(options: EventLoopDelayOptions = {}): Promise<EventLoopDelayResult> {
  const { threads = 50, queriesPerThread = 1, inProcess = false, catalogPath = DEMO_CATALOG, cacheDir = false } = options;
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
  if (!Number.isInteger(queriesPerThread) || queriesPerThread < 1) throw new RangeError(`queriesPerThread must be a positive integer, got ${queriesPerThread}`);
  const router = new ToolAttentionRouter(ToolCatalog.fromFile(catalogPath), {
    encoder: new UseLiteEmbeddings({ inProcess }),
    lexical: true,
    cacheDir,
    log: false,
  });
  await router.prepare();
  await router.route("warm up the query path");

  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  // The first timer tick only sets the histogram's reference time: let it happen before the routes start, or a
  // stall that begins at once goes unrecorded.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: threads }, async (_, thread) => {
      for (let r = 0; r < queriesPerThread; r++) await router.route(queryFor(thread, r));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  // Give the sampling timer one turn: when the routes held the loop until the end (the in-process encoder runs
  // through promise continuations without yielding to it), that stall is only recorded when the timer next fires.
  await new Promise((resolve) => setTimeout(resolve, 5));
  h.disable();
  return {
    threads,
    p50Ms: round2(h.percentile(50) / 1e6),
    p99Ms: round2(h.percentile(99) / 1e6),
    maxMs: round2(h.max / 1e6),
    routesPerSecond: round2((threads * queriesPerThread) / seconds),
  };
}

export interface EventLoopSectionOptions {
  /** Concurrent routing threads. Default 50. */
  threads?: number;
  /** Queries each thread routes one after another. Default 1. */
  queriesPerThread?: number;
  /** Per-mode time limit for the child process (ms). Default 180,000. */
  timeoutMs?: number;
}

/** The bench report's event-loop section: the same load with the encoder in a worker thread and in process. */
export interface EventLoopSection {
  threads: number;
  queriesPerThread: number;
  /** Tools in the routed catalog (the demo catalog). */
  tools: number;
  /** CPUs available to the bench process (the encoder worker shares them with the host thread). */
  cpus: number;
  /** The default: the encoder runs in a worker thread. */
  worker: EventLoopDelayResult;
  /** `UseLiteEmbeddings({ inProcess: true })`: every forward pass runs on the host's thread. */
  inProcess: EventLoopDelayResult;
}

/** How to run this module as a child process: compiled, or from source through tsx. */
function selfCommand(): string[] {
  const self = fileURLToPath(import.meta.url);
  return self.endsWith(".ts") ? ["--import", import.meta.resolve("tsx"), self] : [self];
}

/** Measures one mode in a fresh Node process (the JSON line `main` prints). */
function measureInChild(inProcess: boolean, threads: number, queriesPerThread: number, timeoutMs: number): Promise<EventLoopDelayResult> {
  const args = [...selfCommand(), "--threads", String(threads), "--queries", String(queriesPerThread), ...(inProcess ? ["--in-process"] : [])];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const mode = inProcess ? "in-process" : "worker";
      if (err) return reject(new Error(`event-loop measurement (${mode}) failed: ${err.message}\n${String(stderr).trim().split("\n").slice(-5).join("\n")}`));
      const line = String(stdout).trim().split("\n").at(-1) ?? "";
      try {
        const { mode: _mode, ...result } = JSON.parse(line) as EventLoopDelayResult & { mode: string };
        resolve(result);
      } catch {
        reject(new Error(`event-loop measurement (${mode}) printed no JSON: ${line.slice(0, 200)}`));
      }
    });
  });
}

/**
 * The event-loop section of the bench: `threads` concurrent threads routing through one router, measured with the
 * encoder in a worker thread (the default) and in process, one mode after the other, each in a fresh process.
 */
export async function eventLoopSection(options: EventLoopSectionOptions = {}): Promise<EventLoopSection> {
  const { threads = 50, queriesPerThread = 1, timeoutMs = 180_000 } = options;
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
  if (!Number.isInteger(queriesPerThread) || queriesPerThread < 1) throw new RangeError(`queriesPerThread must be a positive integer, got ${queriesPerThread}`);
  // Sequential: the two measurements must not compete for the same cores.
  const worker = await measureInChild(false, threads, queriesPerThread, timeoutMs);
  const inProcess = await measureInChild(true, threads, queriesPerThread, timeoutMs);
  return { threads, queriesPerThread, tools: ToolCatalog.fromFile(DEMO_CATALOG).size, cpus: availableParallelism(), worker, inProcess };
}

const ms = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString("en-US")} ms`;

/** The section as markdown for the bench report (starts with its `## Event-loop delay` heading). */
export function renderEventLoopMarkdown(result: EventLoopSection, note?: string): string {
  const { worker, inProcess } = result;
  const md = [
    "## Event-loop delay",
    "",
    `${result.threads} concurrent threads (as a LangGraph server runs them) each route ` +
      `${result.queriesPerThread === 1 ? "one query" : `${result.queriesPerThread} queries`} through one shared router over the`,
    `demo catalog (${result.tools} tools, USE-lite + BM25; the queries are distinct, so no query cache hides an encode), while`,
    "`perf_hooks.monitorEventLoopDelay` (1 ms resolution) records how long the host's event loop is held up: every other",
    "request the process serves waits that long. Each mode is measured in a fresh process, after the catalog is embedded",
    `and the model loaded; ${result.cpus} CPU${result.cpus === 1 ? "" : "s"}.`,
    "",
  ];
  if (note) md.push(note, "");
  md.push(
    markdownTable(
      ["Encoder runs", "p50 delay", "p99 delay", "max delay", "Routes / s"],
      [
        ["in a worker thread (default)", ms(worker.p50Ms), ms(worker.p99Ms), ms(worker.maxMs), worker.routesPerSecond.toFixed(1)],
        ["in process (`inProcess: true`)", ms(inProcess.p50Ms), ms(inProcess.p99Ms), ms(inProcess.maxMs), inProcess.routesPerSecond.toFixed(1)],
      ],
    ),
    "",
  );
  const ratio = worker.p99Ms > 0 ? inProcess.p99Ms / worker.p99Ms : Number.POSITIVE_INFINITY;
  md.push(
    worker.p99Ms < inProcess.p99Ms
      ? `With the encoder in a worker thread, p99 event-loop delay is ${ms(worker.p99Ms)} against ${ms(inProcess.p99Ms)} in process` +
          (Number.isFinite(ratio) ? ` (${ratio >= 10 ? Math.round(ratio).toLocaleString("en-US") : ratio.toFixed(1)}× lower).` : ".")
      : `In this run the worker thread did not lower p99 event-loop delay (${ms(worker.p99Ms)} against ${ms(inProcess.p99Ms)} in process).`,
    "",
  );
  return md.join("\n");
}

async function main(argv = process.argv.slice(2)): Promise<number> {
  const flag = (name: string, fallback: number) => {
    const at = argv.indexOf(name);
    return at >= 0 ? Number(argv[at + 1]) : fallback;
  };
  const threads = flag("--threads", 50);
  const result = await measureEventLoopDelay({ threads, queriesPerThread: flag("--queries", 1), inProcess: argv.includes("--in-process") });
  console.log(JSON.stringify({ mode: argv.includes("--in-process") ? "in-process" : "worker", ...result }));
  return 0;
}

runIfEntry(import.meta.url, () => main());
