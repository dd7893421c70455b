/**
 * Scaling: the same methods on growing catalogs (the synthetic expansion to N tools), plus what the router costs
 * to build and run at each size: index build time with a cold and a warm embedding cache, single-query route
 * latency (encode + search + gate), route latency without the encoder (a precomputed query vector), the dense
 * index's search alone, the approximate index's recall@10 against exact search, and resident memory.
 *
 * Embedding a 10,000-tool catalog cold with USE-lite takes minutes on two cores; above `coldLimit` the encoder's
 * cold cost is projected from a measured sample (per-tool rate × N), and the router there is built for real on
 * DERIVED vectors: each tool gets the main encoder's vector of a tool of the largest measured catalog (same base
 * tool: the expansion repeats the testbed's 120 tools per round) plus seeded Gaussian noise, so the index holds N
 * distinct vectors with the clusters real rebranded copies form. Index build, search, recall, routes (real BM25 over
 * the real N tool texts, real preconditions) and RSS are measured on them; the method rows are not run there. Every
 * value says whether it was measured or projected.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { resolveEncoder, type EncoderName } from "../core/encoders/index.js";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { ToolAttentionRouter } from "../core/router/router.js";
import { Rng } from "../core/util/rng.js";
import { activeAgreement, measureRouterCost, type RouterCostQuery } from "./router-cost.js";
import type { EvalTask } from "../eval/tasks.js";
import { runMethods, type MethodOptions } from "./methods.js";
import { quantile } from "./metrics.js";
import { routedQueries, routedText, stateOf } from "../eval/evaluate.js";
import { scoreTask } from "../eval/metrics.js";
import type { RoutingDecision } from "../core/types.js";
import { willUseHnsw } from "../core/index/vector-index.js";
import type { RoutingStore } from "../core/store/types.js";
import { DiskRoutingStore } from "../core/store/disk.js";
import { postgresBinDir, startPostgres, type TestPostgres } from "./postgres.js";
import { measureWarmStart, type WarmStartRequest, type WarmStartResult } from "./warm-start.js";

export interface ScalingOptions extends MethodOptions {
  sizes: readonly number[];
  /** Builds the catalog of N tools (the synthetic expansion). */
  expand: (n: number) => unknown;
  /** Tasks routed at every size (a deterministic sample of the set's tasks). */
  tasks: readonly EvalTask[];
  /** Largest N embedded cold with the main encoder; above it the cold build is projected. Default 10,000. */
  coldLimit?: number;
  /** Tools embedded to measure the per-tool cold rate when projecting. Default 300. */
  projectionSample?: number;
  /** Single-query routes timed per size. Default 100. */
  latencySample?: number;
  /**
   * Per-dimension standard deviation of the noise added to derived vectors (above `coldLimit`), before
   * normalization. Default 0.02 (cosine about 0.9 to the source row at 512 dimensions).
   */
  derivedNoise?: number;
  /**
   * Where sizes with the approximate index share their routing state, for the warm start of a fresh process:
   * "postgres" (a throwaway cluster of the Debian server), "disk" (a DiskRoutingStore in a temporary directory),
   * or "auto" (default): PostgreSQL when its server binaries and `pg` are installed, else disk.
   */
  warmStore?: "auto" | "postgres" | "disk";
}

export interface Timed {
  ms: number;
  /** "measured", or "projected" with how. */
  kind: "measured" | "projected";
  how?: string;
}

export interface ScalingPoint {
  n: number;
  /** Encoder the routed rows at this size used. */
  encoder: string;
  /** Tokens per turn and ρ per method key. */
  methods: Record<string, { tokensPerTurn: number; poolExcludedTokensPerTurn: number; rho: number; recall?: number }>;
  routeMsP50: number;
  routeMsP95: number;
  buildCold: Timed;
  buildWarm: Timed;
  /** Process resident set size after building this size's router, MiB. */
  rssMiB: number;
  heapUsedMiB: number;
  /** Where the dense vectors came from: the encoder ("measured") or derived from it (see the module comment). */
  vectors: "encoder" | "derived" | "none";
  /** Dense index kind of the router ("hnsw", "flat", "faiss"; "none" for the lexical encoder). */
  index: string;
  /** Dense index search of the top 10 alone (query already embedded), ms; null without a dense index. */
  searchP50Ms: number | null;
  /** Exact top 10 by a full scan of the same rows, ms (the baseline of searchP50Ms). */
  exactSearchP50Ms: number | null;
  /** One route with a precomputed query vector (encoder excluded), ms. */
  routeP50Ms: number;
  routeP95Ms: number;
  /** Median of each phase of those routes (search: every channel's candidates and scores; fusion, gate, tokens), ms. */
  routePhasesP50Ms?: Record<string, number>;
  /** Tie-aware recall@10 of the index's search against exact search (1 for an exact index; null without one). */
  annRecallAt10: number | null;
  /** On an HNSW index: share of routes whose active set equals the exact path's (ann: false), same query vectors. */
  exactAgreement?: { same: number; top1: number; overlap: number };
  /**
   * buildCold in seconds; warmStartS: with the approximate index, `prepare()` of a fresh process on the shared
   * store (`warmFrom`), else buildWarm (in the bench process, warm disk cache), seconds.
   */
  coldBuildS: number;
  warmStartS: number;
  /** Where warmStartS was measured: "postgres" / "disk" store in a fresh process, or "in-process" (disk cache). */
  warmFrom: "postgres" | "disk" | "in-process";
  /** The fresh process of the warm start: its catalog build (not in warmStartS), its RSS and routes. */
  warmProcess?: WarmStartResult;
  /**
   * At sizes embedded cold: tool definitions to the first routed call, empty cache and store, in seconds: the
   * catalog build (`catalogBuildS`: parsing, checks, summaries, and below `PROGRESSIVE_SCREENING_MIN_TOOLS` tools the
   * screening; above, the tools the first route shows are screened on the way) plus the router's construction to its
   * first routed call. With a progressive start (`RouterOptions.progressive`, default from 200 tools) that call is
   * lexical and does not wait for the encoder; below it, it waits for the whole build. Where the cold build is
   * projected (derived vectors), a router with the real encoder is built on the catalog and closed after its first
   * route, without a store. Measured in the bench process, whose tokenizer is loaded already: a fresh process also
   * loads its rank tables on its first token count (about 0.2–0.5 s on 2 cores).
   */
  firstRouteColdS?: number;
  /**
   * Seconds to build the `ToolCatalog` from the tool definitions (part of `firstRouteColdS`), at every size. From
   * `PROGRESSIVE_SCREENING_MIN_TOOLS` tools the constructor leaves screening to the background (a worker thread), so
   * this is the constructor alone; `screeningS` says when every tool was screened.
   */
  catalogBuildS?: number;
  /**
   * Seconds from the start of the catalog build until every tool was screened: the constructor's time below
   * `PROGRESSIVE_SCREENING_MIN_TOOLS` tools, above it the background screening's end (it runs beside the router's
   * start and build, and `prepare()` waits for it).
   */
  screeningS?: number;
  /**
   * Recall@10 (of the ranked slate) of the tasks routed while the cold build was still running (lexical phase), over
   * the full hybrid's recall@10 on the same tasks routed after the build; null when no task was routed before the
   * build finished (below `progressive.minTools`). `progressiveRoutes`: how many tasks that was.
   */
  progressiveRecall?: number | null;
  progressiveRoutes?: number;
  /**
   * Median wall time of those routes, ms: on the static channel each waits for its query vector behind the build's
   * forward passes (a route of the built router takes a few ms). Null when no task was routed before the build finished.
   */
  progressiveRouteP50Ms?: number | null;
}

/** The shared store of the sizes with an approximate index (see `ScalingOptions.warmStore`). */
class WarmStores {
  private pg?: Promise<TestPostgres | undefined>;
  readonly kind: "postgres" | "disk";
  constructor(choice: "auto" | "postgres" | "disk", private readonly log: (l: string) => void) {
    let pgReady = false;
    if (choice !== "disk") {
      try {
        postgresBinDir();
        createRequire(import.meta.url).resolve("pg");
        pgReady = true;
      } catch (err) {
        if (choice === "postgres") throw err;
        log(`scaling: PostgreSQL or pg not available (${(err as Error).message.split(/[;.]/)[0]}); warm starts use a disk store`);
      }
    }
    this.kind = pgReady ? "postgres" : "disk";
  }
  /** A fresh store for size n, and what a child process needs to open the same one. */
  async open(n: number, dir: string): Promise<{ store: RoutingStore; spec: WarmStartRequest["store"] }> {
    if (this.kind === "disk") return { store: new DiskRoutingStore({ dir }), spec: { kind: "disk", dir } };
    this.pg ??= startPostgres();
    const pg = await this.pg;
    if (!pg) throw new Error("PostgreSQL did not start");
    const { PostgresRoutingStore } = await import("../core/store/postgres.js");
    const schema = `bench_scale_${n}`;
    return { store: new PostgresRoutingStore({ connectionString: pg.url, schema, warn: (m) => this.log(`scaling: ${m}`) }), spec: { kind: "postgres", url: pg.url, schema } };
  }
  async close(): Promise<void> {
    const pg = await this.pg;
    await pg?.stop();
  }
}

function tempCache(): string {
  return mkdtempSync(join(tmpdir(), "tool-attention-bench-"));
}

async function timedPrepare(
  catalog: ToolCatalog,
  encoder: EncoderName | EmbeddingsInterface,
  opts: ScalingOptions,
  cacheDir: string | false,
  extra: { ann?: false; lexical?: boolean; store?: RoutingStore } = {},
): Promise<[ToolAttentionRouter, number]> {
  const router = new ToolAttentionRouter(catalog, { encoder, encoding: opts.encoding, cacheDir, log: false, ...extra });
  const t0 = performance.now();
  await router.prepare();
  return [router, performance.now() - t0];
}

/** Recall@10 of a decision's ranked slate against a task's gold tools. */
function slateRecallAt10(d: RoutingDecision, task: EvalTask): number {
  return scoreTask(d.candidates.slice(0, 10).map((c) => c.name), task.gold).recall;
}

/** What a cold progressive start measured (see `ScalingPoint.firstRouteColdS` and `progressiveRecall`). */
interface ColdStart {
  router: ToolAttentionRouter;
  /** Construction to the whole build done (what `prepare()` measured before progressive starts), ms. */
  coldMs: number;
  firstRouteColdS: number;
  progressiveRecall: number | null;
  progressiveRoutes: number;
  progressiveRouteP50Ms: number | null;
}

/**
 * A cold router as an application meets it: constructed, then routed at once (the first routed call), then the
 * sample tasks routed while the build runs; then the whole build awaited (`coldMs`, as `timedPrepare` measures it) and
 * the tasks that were routed before the build finished (BM25, and the static channel once the encoder has loaded) routed
 * again on the full hybrid.
 */
async function coldStart(
  catalog: ToolCatalog,
  encoder: EncoderName,
  opts: ScalingOptions,
  cacheDir: string | false,
  tasks: readonly EvalTask[],
  extra: { store?: RoutingStore } = {},
): Promise<ColdStart> {
  const router = new ToolAttentionRouter(catalog, { encoder, encoding: opts.encoding, cacheDir, log: false, ...extra });
  const t0 = performance.now();
  if (tasks.length > 0) await router.route(tasks[0]!.query, stateOf(tasks[0]!));
  const firstRouteColdS = (performance.now() - t0) / 1000;
  const early: { task: EvalTask; recall: number; ms: number }[] = [];
  for (const task of tasks) {
    const t = performance.now();
    const d = await router.route(task.query, stateOf(task));
    const ms = performance.now() - t;
    // Before the dense channels because the build is still running (not because the router has none at all).
    if (!d.channels.includes("dense") && router.health().state === "building") early.push({ task, recall: slateRecallAt10(d, task), ms });
  }
  await router.prepare();
  const coldMs = performance.now() - t0;
  // The sweep measures the hybrid: an encoder that failed would make every number after this one lexical.
  const health = router.health();
  if (health.state === "degraded") throw new Error(`scaling: N=${catalog.size}: the encoder failed (${health.error})`);
  let lexical = 0;
  let hybrid = 0;
  for (const e of early) {
    lexical += e.recall;
    hybrid += slateRecallAt10(await router.route(e.task.query, stateOf(e.task)), e.task);
  }
  const ms = early.map((e) => e.ms).sort((a, b) => a - b);
  return {
    router,
    coldMs,
    firstRouteColdS,
    progressiveRecall: early.length > 0 && hybrid > 0 ? lexical / hybrid : null,
    progressiveRoutes: early.length,
    progressiveRouteP50Ms: ms.length > 0 ? ms[Math.floor((ms.length - 1) / 2)]! : null,
  };
}

/** Per-tool cold embedding time of the main encoder, measured on a sample of the catalog's routing texts. */
async function coldRate(catalog: ToolCatalog, encoder: EncoderName, sample: number): Promise<{ perToolMs: number; sampled: number }> {
  const dir = tempCache();
  try {
    const enc = await resolveEncoder(encoder, { cacheDir: dir });
    const step = Math.max(1, Math.floor(catalog.size / sample));
    const texts = catalog.tools.filter((_, i) => i % step === 0).slice(0, sample).map((t) => t.routingText);
    const t0 = performance.now();
    await enc.embeddings.embedDocuments(texts);
    return { perToolMs: (performance.now() - t0) / texts.length, sampled: texts.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Embeddings that serve precomputed vectors by text (the derived vectors of a large catalog); texts it does not
 * hold (queries are passed as vectors, so none are expected) get a zero vector.
 */
class FixedEmbeddings implements EmbeddingsInterface {
  constructor(
    private readonly byText: Map<string, Float32Array>,
    private readonly dim: number,
    /** Names the vector space in caches, stores and snapshots. */
    readonly modelId: string,
  ) {}
  /**
   * A query vector near tool row `(i · 7919) mod N` (that row + N(0, 0.3²) per dimension, normalized), for runs
   * without encoder query vectors (the lexical encoder's derived random vectors).
   */
  probe(i: number): number[] {
    const rows = [...this.byText.values()];
    const src = rows[(i * 7919) % rows.length]!;
    const rng = new Rng(1000 + i);
    const v = Array.from(src, (x) => x + 0.3 * gauss(rng));
    const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;
    return v.map((x) => x / norm);
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.vector(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.vector(text);
  }
  private vector(text: string): number[] {
    const v = this.byText.get(text);
    return v ? Array.from(v) : new Array<number>(this.dim).fill(0);
  }
}

/** A standard normal draw (Box–Muller) from the seeded generator. */
function gauss(rng: Rng): number {
  const u = rng.next() || 1e-12;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * Derived vectors of `texts` (tool i of the large catalog): the source row of the same base tool (position
 * i mod (120·⌊m/120⌋) of the m measured rows: the expansion repeats the testbed's 120 tools per round), plus
 * N(0, noise²) per dimension, normalized. Without source rows (a lexical-only run): seeded random unit vectors.
 */
function deriveVectors(texts: readonly string[], source: readonly (readonly number[])[] | undefined, noise: number, seed = 7): { byText: Map<string, Float32Array>; dim: number } {
  const rng = new Rng(seed);
  const dim = source?.[0]?.length ?? 64;
  const period = source ? Math.max(1, Math.floor(source.length / 120) * 120) || source.length : 0;
  const byText = new Map<string, Float32Array>();
  texts.forEach((t, i) => {
    const v = new Float32Array(dim);
    const src = source?.[i % period];
    let norm = 0;
    for (let d = 0; d < dim; d++) {
      v[d] = (src ? src[d]! : 0) + (src ? noise : 1) * gauss(rng);
      norm += v[d]! * v[d]!;
    }
    const inv = 1 / Math.sqrt(norm || 1);
    for (let d = 0; d < dim; d++) v[d] = v[d]! * inv;
    byText.set(t, v);
  });
  return { byText, dim };
}

export async function runScaling(opts: ScalingOptions): Promise<ScalingPoint[]> {
  const log = opts.log ?? (() => {});
  const points: ScalingPoint[] = [];
  const coldLimit = opts.coldLimit ?? 10_000;
  // The routed texts are the same at every size: embed them once with the main encoder (through the shared
  // embedding cache), so each size pays only for its catalog.
  const texts = opts.tasks.flatMap((t) => routedQueries(t, opts.perStep ?? true)).map(routedText);
  const mainEncoder = await resolveEncoder(opts.encoder, opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {});
  const mainVectors = opts.encoder === "lexical" ? undefined : await mainEncoder.embeddings.embedDocuments(texts.map((t) => t.trim() || " "));
  // Latency queries: an even sample of the tasks, each with its request's vector.
  const sample = Math.min(opts.latencySample ?? 100, opts.tasks.length);
  const latencyTasks = Array.from({ length: sample }, (_, s) => opts.tasks[Math.floor((s * opts.tasks.length) / sample)]!);
  const latencyVectors = opts.encoder === "lexical" ? undefined : await mainEncoder.embeddings.embedDocuments(latencyTasks.map((t) => t.query.trim() || " "));
  const stores = new WarmStores(opts.warmStore ?? "auto", log);
  /** Vectors of the largest measured catalog, the source of derived vectors above coldLimit. */
  let sourceRows: number[][] | undefined;

  for (const n of opts.sizes) {
    const catalogFile = opts.expand(n);
    const tCatalog = performance.now();
    const catalog = ToolCatalog.fromCatalogObject(catalogFile, { encoding: opts.encoding });
    const catalogBuildS = (performance.now() - tCatalog) / 1000;
    // Screening left to the background ends later (the router's prepare() waits for it); when, is reported.
    let screeningS: number | undefined;
    // Listening only: the router starts the background after its first route, as in an application.
    const screened = catalog.whenScreened({ start: false }).then(
      () => {
        screeningS = (performance.now() - tCatalog) / 1000;
      },
      () => undefined,
    );
    const projected = n > coldLimit;
    const derived = projected;
    const encoder: EncoderName = opts.encoder;
    log(`scaling: N=${catalog.size} (${derived ? `derived ${sourceRows ? opts.encoder : "random"} vectors, cold ${opts.encoder} build projected` : encoder})…`);
    const dir = tempCache();
    // Sizes with the approximate index run as a deployment would: the first router embeds through a shared store
    // and keeps its index snapshot there; a fresh process then warm-starts from that store.
    const shared = willUseHnsw(catalog.size, "auto", {}) && (derived || encoder !== "lexical") ? await stores.open(n, join(dir, "store")) : undefined;
    try {
      let router: ToolAttentionRouter;
      let coldMs: number;
      let warmMs: number;
      let fixed: FixedEmbeddings | undefined;
      let derivedFrom = "";
      let cold: ColdStart | undefined;
      const lexical = encoder !== "use-lite";
      let derivedFirstRouteS: number | undefined;
      if (derived) {
        if (encoder !== "lexical" && latencyTasks.length > 0) {
          // What a user gets at this size too: a router with the real encoder on the catalog just built, an empty
          // cache, routing on BM25 while the encoder would embed (it is closed right after its first route; its
          // close stops the background screening, which the next lines start again and time to its end).
          const first = new ToolAttentionRouter(catalog, { encoder, encoding: opts.encoding, cacheDir: tempCache(), log: false });
          const t = performance.now();
          await first.route(latencyTasks[0]!.query, stateOf(latencyTasks[0]!));
          derivedFirstRouteS = (performance.now() - t) / 1000;
          await first.close();
          log(`scaling: N=${catalog.size} first routed call ${(catalogBuildS + derivedFirstRouteS).toFixed(2)} s from the tool definitions (cold, no store)`);
        }
        // The derived build measures index, BM25 and channels, as it did when the constructor screened: not the
        // background screening of the catalog (reported as screeningS).
        await catalog.whenScreened();
        await screened;
        screeningS ??= (performance.now() - tCatalog) / 1000;
        const toolTexts = new ToolAttentionRouter(catalog, { log: false }).toolTexts();
        const d = deriveVectors(toolTexts, sourceRows, opts.derivedNoise ?? 0.02);
        fixed = new FixedEmbeddings(d.byText, d.dim, `bench-derived-${catalog.size}-${d.dim}`);
        // Cold: encoder projected (below) + this build (index, BM25, channels). Warm: a second router on the same
        // store (or disk cache), which loads the index snapshot the first one kept.
        [router, coldMs] = await timedPrepare(catalog, fixed, opts, shared ? false : dir, { lexical, ...(shared ? { store: shared.store } : {}) });
        derivedFrom = sourceRows ? `${opts.encoder} (derived vectors)` : "random unit vectors + BM25";
      } else {
        cold = await coldStart(catalog, encoder, opts, dir, latencyTasks, shared ? { store: shared.store } : {});
        ({ router, coldMs } = cold);
        log(
          `scaling: N=${catalog.size} first routed call ${(catalogBuildS + cold.firstRouteColdS).toFixed(2)} s from the tool definitions (cold): ` +
            `catalog ${catalogBuildS.toFixed(2)} s (every tool screened at ${screeningS?.toFixed(2) ?? "?"} s), router construction to first route ${cold.firstRouteColdS.toFixed(2)} s; ` +
            `${cold.progressiveRoutes} tasks routed before the build finished` +
            (cold.progressiveRecall !== null ? `, their recall@10 ${(cold.progressiveRecall * 100).toFixed(1)} % of the hybrid's` : "") +
            (cold.progressiveRouteP50Ms !== null ? `, ${cold.progressiveRouteP50Ms.toFixed(1)} ms p50 per route` : ""),
        );
      }
      // Memory right after this size's first router is built (the warm build below makes a second one).
      const mem = process.memoryUsage();
      if (fixed) [, warmMs] = await timedPrepare(catalog, fixed, opts, shared ? false : dir, { lexical, ...(shared ? { store: shared.store } : {}) });
      else [, warmMs] = await timedPrepare(catalog, encoder, opts, dir, shared ? { store: shared.store } : {});
      // The latency queries' vectors: the encoder's, in the index's space; derived random vectors (no measured size
      // to derive from) are in a space of their own, so their queries are probes near their rows.
      const queryVector = (i: number): ArrayLike<number> =>
        (fixed && !sourceRows ? fixed.probe(i) : (latencyVectors?.[i] ?? fixed?.probe(i))) ?? [];
      let warmProcess: WarmStartResult | undefined;
      if (shared) {
        const catalogPath = join(dir, "catalog.json");
        writeFileSync(catalogPath, JSON.stringify(catalogFile));
        const queriesPath = join(dir, "queries.json");
        writeFileSync(
          queriesPath,
          JSON.stringify(latencyTasks.map((t, i) => ({ query: t.query, vector: Array.from(queryVector(i)) }))),
        );
        const modelId = fixed ? fixed.modelId : mainEncoder.modelId;
        // The deployment's first process has counted the catalog's full-schema tokens (kept in the store) by now.
        await router.fullSchemaTokens();
        warmProcess = await measureWarmStart({ catalogPath, queriesPath, modelId, lexical: fixed ? lexical : true, store: shared.spec });
        log(
          `scaling: N=${catalog.size} warm start of a fresh process from the ${shared.spec.kind} store ${warmProcess.warmStartS.toFixed(2)} s ` +
            `(catalog object ${warmProcess.catalogS.toFixed(1)} s before it), RSS ${warmProcess.rssMiB.toFixed(0)} MiB, route p50 ${warmProcess.routeP50Ms?.toFixed(2)} ms (first pass ${warmProcess.firstPassRouteP50Ms?.toFixed(2)} ms), first route ${warmProcess.firstRouteMs?.toFixed(0)} ms`,
        );
      }
      let buildCold: Timed = { ms: coldMs, kind: "measured", how: encoder };
      let buildWarm: Timed = { ms: warmMs, kind: "measured", how: encoder };
      if (projected) {
        const rate = await coldRate(catalog, opts.encoder, opts.projectionSample ?? 300);
        buildCold = {
          ms: rate.perToolMs * catalog.size + (derived ? coldMs : 0),
          kind: "projected",
          how: derived
            ? `${opts.encoder}: ${rate.perToolMs.toFixed(1)} ms/tool measured on ${rate.sampled} of its tools × ${catalog.size}, plus the measured ${(coldMs / 1000).toFixed(1)} s build of index, BM25 and channels`
            : `${opts.encoder}: ${rate.perToolMs.toFixed(1)} ms/tool measured on ${rate.sampled} of its tools × ${catalog.size}`,
        };
        buildWarm = derived
          ? { ms: warmMs, kind: "measured", how: `index, BM25 and channels on ${catalog.size} derived vectors (a warm ${opts.encoder} cache read excluded)` }
          : { ms: warmMs, kind: "measured", how: `${encoder} (the ${opts.encoder} warm build reads ${catalog.size} cached vectors)` };
      }

      const methods: ScalingPoint["methods"] = {};
      if (!derived) {
        const rows = await runMethods({ name: `synthetic-${n}`, catalog, tasks: [...opts.tasks] }, router, {
          ...opts,
          encoder,
          cacheDir: dir,
          log: () => {},
          queryVectors: encoder === opts.encoder ? mainVectors : undefined,
        });
        for (const r of rows)
          if (r.summary)
            methods[r.key] = {
              tokensPerTurn: r.summary.tokensPerTurn,
              poolExcludedTokensPerTurn: r.summary.poolExcludedTokensPerTurn,
              rho: r.summary.rho,
              ...(r.summary.recall !== undefined ? { recall: r.summary.recall } : {}),
            };
      }

      // Latency: real single-query routes (encode + search + gate), after one warm-up; derived: no encoder to run.
      const lat: number[] = [];
      if (sample > 0 && !derived) {
        await router.route(opts.tasks[0].query, stateOf(opts.tasks[0]));
        for (const task of latencyTasks) lat.push((await router.route(task.query, stateOf(task))).latencyMs.total);
      }
      // Without the encoder: the same queries with their precomputed vectors.
      const queries: RouterCostQuery[] = latencyTasks.map((t, i) => ({ query: t.query, state: stateOf(t), vector: queryVector(i) }));
      const cost = await measureRouterCost(router, queries);
      let exactAgreement: ScalingPoint["exactAgreement"];
      if (cost.index === "hnsw") {
        const [exact] = fixed
          ? await timedPrepare(catalog, fixed, opts, false, { ann: false, lexical, ...(shared ? { store: shared.store } : {}) })
          : await timedPrepare(catalog, encoder, opts, dir, { ann: false });
        exactAgreement = await activeAgreement(router, exact, queries);
      }
      const hasDense = cost.index !== "none";
      if (!projected && opts.encoder !== "lexical" && n <= coldLimit) {
        const enc = await resolveEncoder(opts.encoder, { cacheDir: dir });
        sourceRows = await enc.embeddings.embedDocuments(router.toolTexts());
      }
      points.push({
        n: catalog.size,
        encoder: derived ? derivedFrom : encoder,
        methods,
        routeMsP50: derived ? cost.routeP50Ms : quantile(lat, 0.5),
        routeMsP95: derived ? cost.routeP95Ms : quantile(lat, 0.95),
        buildCold,
        buildWarm,
        rssMiB: warmProcess ? warmProcess.rssMiB : mem.rss / 2 ** 20,
        heapUsedMiB: warmProcess ? warmProcess.heapUsedMiB : mem.heapUsed / 2 ** 20,
        vectors: derived ? "derived" : hasDense ? "encoder" : "none",
        index: cost.index,
        searchP50Ms: hasDense ? cost.searchP50Ms : null,
        exactSearchP50Ms: hasDense ? cost.exactSearchP50Ms : null,
        routeP50Ms: cost.routeP50Ms,
        routeP95Ms: cost.routeP95Ms,
        routePhasesP50Ms: cost.routePhasesP50Ms,
        annRecallAt10: hasDense ? cost.annRecallAt10 : null,
        ...(exactAgreement ? { exactAgreement } : {}),
        coldBuildS: buildCold.ms / 1000,
        warmStartS: warmProcess ? warmProcess.warmStartS : buildWarm.ms / 1000,
        warmFrom: warmProcess && shared ? shared.spec.kind : "in-process",
        ...(warmProcess ? { warmProcess } : {}),
        catalogBuildS,
        ...(screeningS !== undefined ? { screeningS } : {}),
        ...(cold ? { firstRouteColdS: catalogBuildS + cold.firstRouteColdS, progressiveRecall: cold.progressiveRecall, progressiveRoutes: cold.progressiveRoutes, progressiveRouteP50Ms: cold.progressiveRouteP50Ms } : {}),
        ...(derivedFirstRouteS !== undefined ? { firstRouteColdS: catalogBuildS + derivedFirstRouteS, progressiveRecall: null, progressiveRoutes: 0 } : {}),
      });
      log(
        `scaling: N=${catalog.size} built cold ${(coldMs / 1000).toFixed(1)} s, warm ${(warmMs / 1000).toFixed(2)} s; index ${cost.index}, ` +
          `search p50 ${cost.searchP50Ms.toFixed(3)} ms, route p50 (no encoder) ${cost.routeP50Ms.toFixed(2)} ms (${Object.entries(cost.routePhasesP50Ms).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(", ")}), recall@10 ${cost.annRecallAt10.toFixed(3)}` +
          (exactAgreement ? `, same active set as exact ${(exactAgreement.same * 100).toFixed(0)} %` : ""),
      );
    } finally {
      await shared?.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  await stores.close();
  return points;
}
