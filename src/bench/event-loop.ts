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
 * Run: `node --import tsx src/bench/event-loop.ts [--in-process] [--threads N]` (prints the result as JSON).
 */
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { UseLiteEmbeddings } from "../core/encoders/use-lite.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import { runIfEntry } from "../cli/entry.js";

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

async function main(argv = process.argv.slice(2)): Promise<number> {
  const threadsAt = argv.indexOf("--threads");
  const threads = threadsAt >= 0 ? Number(argv[threadsAt + 1]) : 50;
  const result = await measureEventLoopDelay({ threads, inProcess: argv.includes("--in-process") });
  console.log(JSON.stringify({ mode: argv.includes("--in-process") ? "in-process" : "worker", ...result }));
  return 0;
}

runIfEntry(import.meta.url, () => main());
