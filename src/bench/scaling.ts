/**
 * Scaling: the same methods on growing catalogs (the synthetic expansion to N tools), plus what the router costs
 * to build and run at each size: index build time with a cold and a warm embedding cache, single-query route
 * latency (encode + search + gate), and resident memory.
 *
 * Embedding a 10,000-tool catalog cold with USE-lite takes minutes on two cores; above `coldLimit` the cold build
 * is projected from a measured sample (per-tool rate × N) and routing there uses the lexical encoder. Every value
 * says whether it was measured or projected.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { resolveEncoder, type EncoderName } from "../core/encoders/index.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import type { EvalTask } from "../eval/tasks.js";
import { runMethods, type MethodOptions } from "./methods.js";
import { quantile } from "./metrics.js";
import { routedQueries, routedText, stateOf } from "../eval/evaluate.js";

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
}

function tempCache(): string {
  return mkdtempSync(join(tmpdir(), "tool-attention-bench-"));
}

async function timedPrepare(catalog: ToolCatalog, encoder: EncoderName, opts: ScalingOptions, cacheDir: string): Promise<[ToolAttentionRouter, number]> {
  const router = new ToolAttentionRouter(catalog, { encoder, encoding: opts.encoding, cacheDir, log: false });
  const t0 = performance.now();
  await router.prepare();
  return [router, performance.now() - t0];
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

export async function runScaling(opts: ScalingOptions): Promise<ScalingPoint[]> {
  const log = opts.log ?? (() => {});
  const points: ScalingPoint[] = [];
  const coldLimit = opts.coldLimit ?? 10_000;
  // The routed texts are the same at every size: embed them once with the main encoder (through the shared
  // embedding cache), so each size pays only for its catalog.
  const texts = opts.tasks.flatMap((t) => routedQueries(t, opts.perStep ?? true)).map(routedText);
  const mainEncoder = await resolveEncoder(opts.encoder, opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {});
  const mainVectors = opts.encoder === "lexical" ? undefined : await mainEncoder.embeddings.embedDocuments(texts.map((t) => t.trim() || " "));
  for (const n of opts.sizes) {
    const catalog = ToolCatalog.fromCatalogObject(opts.expand(n), { encoding: opts.encoding });
    const projected = n > coldLimit;
    const encoder: EncoderName = projected ? "lexical" : opts.encoder;
    log(`scaling: N=${catalog.size} (${encoder}${projected ? `, cold ${opts.encoder} build projected` : ""})…`);
    const dir = tempCache();
    try {
      const [router, coldMs] = await timedPrepare(catalog, encoder, opts, dir);
      const [, warmMs] = await timedPrepare(catalog, encoder, opts, dir);
      const mem = process.memoryUsage();
      let buildCold: Timed = { ms: coldMs, kind: "measured", how: encoder };
      let buildWarm: Timed = { ms: warmMs, kind: "measured", how: encoder };
      if (projected) {
        const rate = await coldRate(catalog, opts.encoder, opts.projectionSample ?? 300);
        buildCold = {
          ms: rate.perToolMs * catalog.size,
          kind: "projected",
          how: `${opts.encoder}: ${rate.perToolMs.toFixed(1)} ms/tool measured on ${rate.sampled} of its tools × ${catalog.size}`,
        };
        buildWarm = { ms: warmMs, kind: "measured", how: `${encoder} (the ${opts.encoder} warm build reads ${catalog.size} cached vectors)` };
      }

      const rows = await runMethods({ name: `synthetic-${n}`, catalog, tasks: [...opts.tasks] }, router, {
        ...opts,
        encoder,
        cacheDir: dir,
        log: () => {},
        queryVectors: encoder === opts.encoder ? mainVectors : undefined,
      });
      const methods: ScalingPoint["methods"] = {};
      for (const r of rows)
        if (r.summary)
          methods[r.key] = {
            tokensPerTurn: r.summary.tokensPerTurn,
            poolExcludedTokensPerTurn: r.summary.poolExcludedTokensPerTurn,
            rho: r.summary.rho,
            ...(r.summary.recall !== undefined ? { recall: r.summary.recall } : {}),
          };

      // Latency: real single-query routes (encode + search + gate), after one warm-up.
      const sample = Math.min(opts.latencySample ?? 100, opts.tasks.length);
      const lat: number[] = [];
      if (sample > 0) {
        await router.route(opts.tasks[0].query, stateOf(opts.tasks[0]));
        const step = opts.tasks.length / sample;
        for (let s = 0; s < sample; s++) {
          const task = opts.tasks[Math.floor(s * step)];
          lat.push((await router.route(task.query, stateOf(task))).latencyMs.total);
        }
      }
      points.push({
        n: catalog.size,
        encoder,
        methods,
        routeMsP50: quantile(lat, 0.5),
        routeMsP95: quantile(lat, 0.95),
        buildCold,
        buildWarm,
        rssMiB: mem.rss / 2 ** 20,
        heapUsedMiB: mem.heapUsed / 2 ** 20,
      });
      log(`scaling: N=${catalog.size} built cold ${(coldMs / 1000).toFixed(1)} s, warm ${(warmMs / 1000).toFixed(2)} s`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return points;
}
