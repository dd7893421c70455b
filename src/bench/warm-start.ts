/**
 * Warm start of a deployment process, measured in a process of its own: a fresh Node process gets the catalog
 * (as the app would, from its MCP servers: built before the clock starts) and a router over the shared store
 * another process filled; `prepare()` is timed. The child's encoder has the parent's model id and throws if asked
 * to embed anything, so a warm start that silently re-embedded would fail instead of looking slow. Its resident
 * memory after the start and a few routes is the memory one deployment process needs at that catalog size.
 *
 * Run as a script (`node dist/bench/warm-start.js <json>`), it is that child; `measureWarmStart` spawns it.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import type { RoutingStore } from "../core/store/types.js";
import type { AnnOptions } from "../core/index/vector-index.js";

export interface WarmStartRequest {
  /** Catalog file (the shared catalog format) the child loads before the clock starts. */
  catalogPath: string;
  /** Dense model id the parent's router embedded with. */
  modelId: string;
  /** Whether the parent's router had the lexical channel. */
  lexical: boolean;
  ann?: AnnOptions;
  store: { kind: "postgres"; url: string; schema: string } | { kind: "disk"; dir: string };
  /** Query vectors the child routes with after the start (encoder excluded). */
  queriesPath?: string;
}

export interface WarmStartResult {
  /** `prepare()` of the child's router, seconds: store reads, snapshot load, BM25 and channels. */
  warmStartS: number;
  /** Building the catalog object in the child and screening it (not part of warmStartS), seconds. */
  catalogS: number;
  /** The child's resident set after the start and its routes, MiB. */
  rssMiB: number;
  heapUsedMiB: number;
  index: string;
  /**
   * Route p50 in the child with the given query vectors (encoder excluded), ms: the second pass over the queries, a
   * deployment process's steady state.
   */
  routeP50Ms?: number;
  /**
   * The same over the first pass, ms: its routes also decode the index rows they reach for the first time (a
   * half-precision snapshot's rows are decoded lazily) and run code not yet optimized.
   */
  firstPassRouteP50Ms?: number;
  /**
   * Wall time of the child's first route, ms: it also renders the catalog's summary pool and waits for the catalog's
   * full-schema token count (read from the store, where the first process left it).
   */
  firstRouteMs?: number;
  catalogVersion?: number;
}

/** Embeddings that must not be used: a warm start reads every vector it needs. */
class NoEmbeddings implements EmbeddingsInterface {
  constructor(readonly modelId: string) {}
  async embedDocuments(texts: string[]): Promise<number[][]> {
    throw new Error(`warm start embedded ${texts.length} document(s): the store did not serve the catalog`);
  }
  async embedQuery(): Promise<number[]> {
    throw new Error("warm start: queries are routed with precomputed vectors");
  }
}

async function child(req: WarmStartRequest): Promise<WarmStartResult> {
  let t0 = performance.now();
  const catalog = ToolCatalog.fromCatalogObject(JSON.parse(readFileSync(req.catalogPath, "utf8")));
  // A large catalog screens in the background (CatalogOptions.progressiveScreening) and prepare() waits for it: its
  // screening is counted with the catalog, as when the constructor screened, so warmStartS measures the router alone.
  await catalog.whenScreened();
  const catalogS = (performance.now() - t0) / 1000;
  let store: RoutingStore;
  if (req.store.kind === "postgres") {
    const { PostgresRoutingStore } = await import("../core/store/postgres.js");
    store = new PostgresRoutingStore({ connectionString: req.store.url, schema: req.store.schema, warn: () => {} });
  } else {
    const { DiskRoutingStore } = await import("../core/store/disk.js");
    store = new DiskRoutingStore({ dir: req.store.dir });
  }
  t0 = performance.now();
  const router = new ToolAttentionRouter(catalog, { encoder: new NoEmbeddings(req.modelId), lexical: req.lexical, ann: req.ann ?? {}, store, log: false });
  await router.prepare();
  const warmStartS = (performance.now() - t0) / 1000;
  let routeP50Ms: number | undefined;
  let firstPassRouteP50Ms: number | undefined;
  let firstRouteMs: number | undefined;
  if (req.queriesPath) {
    const queries = JSON.parse(readFileSync(req.queriesPath, "utf8")) as { query: string; vector: number[] }[];
    const pass = async (): Promise<number | undefined> => {
      const ms: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        ms.push((await router.route(q.query, undefined, { queryVector: q.vector, decompose: false })).latencyMs.total);
        // The first route also renders the catalog's summary pool and waits for its full-schema token count.
        firstRouteMs ??= performance.now() - t;
      }
      ms.sort((a, b) => a - b);
      return ms.length ? ms[Math.floor((ms.length - 1) / 2)] : undefined;
    };
    firstPassRouteP50Ms = await pass();
    routeP50Ms = await pass();
  }
  const mem = process.memoryUsage();
  const result: WarmStartResult = {
    warmStartS,
    catalogS,
    rssMiB: mem.rss / 2 ** 20,
    heapUsedMiB: mem.heapUsed / 2 ** 20,
    index: router.indexKind ?? "none",
    ...(routeP50Ms !== undefined ? { routeP50Ms } : {}),
    ...(firstPassRouteP50Ms !== undefined ? { firstPassRouteP50Ms } : {}),
    ...(firstRouteMs !== undefined ? { firstRouteMs } : {}),
    ...(router.catalogVersion ? { catalogVersion: router.catalogVersion.version } : {}),
  };
  await router.close();
  await store.close();
  return result;
}

/** Runs the warm start in a child process and returns what it measured (rejects with the child's error). */
export function measureWarmStart(req: WarmStartRequest): Promise<WarmStartResult> {
  const script = fileURLToPath(import.meta.url);
  // Under tsx (tests) the child needs the same loader; the built bench runs plain JavaScript.
  const execArgv = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...execArgv, script, JSON.stringify(req)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("error", reject);
    p.on("close", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as WarmStartResult);
      else reject(new Error(`warm-start child exited with ${code}: ${(err || out).trim().split("\n").slice(-5).join(" | ")}`));
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  child(JSON.parse(process.argv[2] ?? "{}") as WarmStartRequest).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (e) => {
      process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
      process.exit(1);
    },
  );
}
