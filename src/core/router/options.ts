/**
 * The router's options: every type a caller passes (`RouterOptions`, `RouteOptions` and their parts), the defaults,
 * and `routerSettingsOf`, which validates the options once at construction and resolves them into the settings the
 * pipeline reads on every route. Kept apart from router.ts so the class holds wiring, and so a bad option fails with
 * a message naming the field before anything is embedded.
 */
import type { AnticipationInput } from "../anticipation/co-usage.js";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { LexicalEmbeddings, type EncoderName } from "../encoders/index.js";
import type { Bm25Options, WeightedText } from "../encoders/bm25.js";
import type { ToolTextOptions } from "../catalog/text.js";
import { DEFAULT_ANN_CANDIDATES, type AnnOptions, type IndexPreference } from "../index/vector-index.js";
import type { LazySchemaLoader, SchemaLoaderOptions } from "../loader/schema-loader.js";
import type { PoolOptions } from "../render/render.js";
import type { TokenEncoding } from "../tokens/count.js";
import type { ClauseOptions } from "./clauses.js";
import { DEFAULT_MULTI_VECTOR_MAX_TOOLS, DEFAULT_MULTI_VECTOR_WEIGHT, type MultiVectorOptions } from "./channels/multi-vector.js";
import { DEFAULT_SERVER_WEIGHT, type ServerChannelOptions } from "./channels/server.js";
import type { ToolAttentionEvent } from "../events/events.js";
import type { RouterStoreOptions } from "../store/binding.js";
import type { RoutingStore } from "../store/types.js";

/** Default θ for dense sentence encoders (cosine of unit vectors). */
export const DEFAULT_THETA = 0.28;
/**
 * Default θ for the "lexical" encoder (sparse BM25, scores normalized to [0, 1]): low, because a share of 2 % of
 * the query's idf mass already means a real word in common; k does the cutting. Measured on metatool-dev.
 */
export const DEFAULT_LEXICAL_THETA = 0.02;
/** Default θ for a `LexicalEmbeddings` instance (hashed BM25 vectors compared by cosine). */
export const DEFAULT_HASHED_LEXICAL_THETA = 0.08;
/** Default weight of the lexical channel in the hybrid score (`cosine + w · bm25`); picked on metatool-dev, flat from 1.5 to 4 on the synthetic single-tool tasks. */
export const DEFAULT_LEXICAL_WEIGHT = 1.5;
/** Default encoder: USE-lite dense plus sparse BM25. */
export const DEFAULT_ENCODER: EncoderName = "hybrid";

/** The default θ for an encoder choice. */
export function defaultThetaFor(encoder: RouterOptions["encoder"]): number {
  if (encoder === "lexical") return DEFAULT_LEXICAL_THETA;
  return encoder instanceof LexicalEmbeddings ? DEFAULT_HASHED_LEXICAL_THETA : DEFAULT_THETA;
}

/** Options of the lexical (BM25) channel. */
export interface LexicalChannelOptions extends Bm25Options {
  /** Weight of the normalized BM25 score added to the cosine. Default 1.5. */
  weight?: number;
}

/** Tag filters of one route: restrict to tools carrying a tag, or boost them. A tool's server counts as a tag. */
export interface TagFilter {
  /** Only tools with at least one of these tags (or on one of these servers) are routed. alwaysInclude still applies. */
  only?: readonly string[];
  /** Tools with one of these tags (or on one of these servers) get `tagBoost` added to their score. */
  boost?: readonly string[];
}

/** The query of one route: one text, or weighted parts (latest message, earlier turns, tool results...). */
export type RouteQuery = string | readonly WeightedText[];
export const DEFAULT_K = 10;

/** Slate size scored before preconditions, wide enough that gating cannot starve the active set. */
export function slateSize(k: number): number {
  return Math.max(4 * k, 20);
}

export interface RouterOptions {
  /**
   * Encoder: "hybrid" (default: USE-lite dense + sparse BM25), "use-lite" (dense only), "lexical" (sparse BM25
   * only, no model), "minilm", or any LangChain Embeddings instance.
   */
  encoder?: EncoderName | EmbeddingsInterface;
  /**
   * The lexical channel: `true`/options to add it to any dense encoder (including your own Embeddings), `false`
   * to turn it off for "hybrid". Default: on for "hybrid" and "lexical", off otherwise.
   */
  lexical?: boolean | LexicalChannelOptions;
  /** What is embedded and indexed per tool (server context, parameters, tags, truncation, field weights). */
  toolText?: ToolTextOptions;
  /** Minimum score for a tool to be considered. Default 0.28 (0.02 for the "lexical" encoder). */
  theta?: number;
  /**
   * Relative cut: also drop tools scoring more than `margin` below the best candidate (on top of θ). One θ rarely
   * fits every encoder and catalog; a margin adapts to each query's score range. Default: none.
   */
  margin?: number;
  /** Score added to tools matching a `tags.boost` entry of a route. Default 0.1. */
  tagBoost?: number;
  /**
   * Score added to the likely successors of the tools a route names in `anticipate` (scaled by how strongly the
   * catalog or the thread links them, see anticipation/co-usage.ts), so the next tool of a workflow is routed
   * when the model writes nothing between two calls. Default 0.1; 0 turns anticipation off.
   */
  anticipationBoost?: number;
  /** Maximum number of active tools per turn. Default 10. */
  k?: number;
  /**
   * Never bind fewer tools than this when tools are available: when fewer clear θ, the best remaining candidates
   * whose preconditions hold fill up to it (at most k; within `margin` of the best when a margin is set). A request phrased far from every description ("remember
   * that Bob is a person") then still gets its likeliest tools instead of none. Default 3; 0 lets θ leave the
   * active set empty.
   */
  minActive?: number;
  /**
   * The multi-vector channel (see channels/multi-vector.ts): `true`/options to use it, `false` to turn it off.
   * Default: on for dense encoders on catalogs up to 2,000 tools (it embeds about 4 short rows per tool).
   */
  multiVector?: boolean | MultiVectorOptions;
  /**
   * The server channel (see channels/server.ts): the query is also scored against each server's centroid, and a
   * tool of a server the query is not about needs more evidence. `false` turns it off. Default: on (weight 0.15)
   * for dense encoders on catalogs with several servers.
   */
  servers?: boolean | ServerChannelOptions;
  /** Candidates scored before preconditions. Default max(4k, 20). */
  slate?: number;
  /** Tool names or ids that are always active (when their preconditions hold); they do not count against k. */
  alwaysInclude?: string[];
  /**
   * Multi-intent decomposition: a request asking for several things ("read the log, then open a ticket") is
   * split into clauses at explicit English connectives (see `splitClauses`), each clause is routed with the whole
   * request at `wholeWeight`, a tool keeps its best clause score, and the k slots go to the clauses in turn (rank 1
   * of every clause first). A single-intent request routes as before. The first query part is split (the latest
   * user message in the adapters' intent). Costs one query encode per clause. Default: on (`{ wholeWeight: 0.3 }`).
   */
  decompose?: boolean | DecomposeOptions;
  /**
   * Vector index backend. Default "auto": below `ann.threshold` tools, faiss when it loads, else the pure-TS flat
   * index (both exact); from it on, the pure-TS HNSW index with candidate routing. "flat" / "faiss": always exact;
   * "hnsw": always approximate.
   */
  index?: IndexPreference;
  /**
   * Approximate search on large catalogs. With `index: "auto"`, a catalog of `threshold` (default 5,000) tools or
   * more gets an HNSW index, and a route fuses only candidates (HNSW top-`candidates` by cosine ∪ BM25's top
   * `candidates`) instead of scoring every tool; below it routing is exact and unchanged. Fields: `threshold`,
   * `candidates` (default 100), and the HNSW's `M` (16), `efConstruction` (grows with N: 100 up to 10,000 tools, 200 at 100,000), `efSearch` (grows with N: 128 at 10,000 tools, 322 at 100,000), `upperBeam` (16 at 10,000, 127 at 100,000), `seed` (42), `keepPruned` (false).
   * `false`: always exact. Default: on, with those settings.
   */
  ann?: boolean | AnnOptions;
  /** Token encoding for accounting. Default cl100k_base. */
  encoding?: TokenEncoding;
  /** Where Phase-2 schemas come from (catalog, registry dir, fetcher) and the LRU size. */
  schemas?: SchemaLoaderOptions | LazySchemaLoader;
  /** Phase-1 pool rendering options. */
  pool?: PoolOptions;
  /** Embedding cache directory (default .cache/tool-attention/embeddings; false disables the disk cache). */
  cacheDir?: string | false;
  /** Receives one structured event per routing decision. */
  onEvent?: (event: ToolAttentionEvent) => void;
  /**
   * Where the one line saying which index and encoder are in use goes (once per process and backend; only to a
   * function you pass: by default the router prints nothing when all is well), and the one line per encoder
   * failure episode (see `encoderFallback`; default: stderr). `false` silences both.
   */
  log?: ((line: string) => void) | false;
  /**
   * What a route does when the dense encoder fails on its query (an Embeddings client that throws, or one slower
   * than `timeoutMs`): by default it scores the tools on the lexical (BM25) channel alone, at the lexical θ, and
   * marks the decision and its event `degraded: "lexical"`. The hybrid default has that channel already; a
   * dense-only encoder gets a BM25 index built on the first failure. One line goes to `log` when failures start,
   * none while they go on; the next route whose query encodes again ends the episode. `false`: the encoder's error
   * propagates from `route()`.
   *
   * The same holds for the catalog's embedding: when the encoder cannot load, or fails while embedding the catalog,
   * the router keeps routing on the lexical channel, marks its decisions `degraded: "lexical"`, says so in
   * `health()`, one log line and a `tool_attention.encoder` event, and `prepare()` resolves. `false` is strict mode:
   * the encoder's error rejects `prepare()` (and `route()`), and no route runs before the whole build is done.
   */
  encoderFallback?: boolean | EncoderFallbackOptions;
  /**
   * Shared routing state for a deployment of several processes (see src/core/store/): a `RoutingStore`
   * (`PostgresRoutingStore`, `LangGraphRoutingStore`, `DiskRoutingStore`) or `{ store, catalog, follow,
   * catalogOptions }`. Document vectors are read from the store and only the missing ones embedded (once across
   * processes on PostgreSQL); every catalog the router routes on is published as a version of `catalog`, versions
   * other processes publish are followed (`follow`, default true), and each decision and routing event names the
   * version (`catalogVersion`). With a store the local disk cache is off unless `cacheDir` is given. Default: none.
   */
  store?: RoutingStore | RouterStoreOptions;
  /**
   * Progressive start: a large catalog is routable as soon as it is parsed. Routes score on the lexical (BM25)
   * channel, at the lexical θ (`encoderFallback.theta`), while the encoder embeds the tool texts in the background
   * (in its worker thread, in chunks the disk cache or store keeps as they finish); the dense channels join all at
   * once when the build is done. Each decision and routing event lists the channels that served it (`channels`), and
   * `health()` says how far the build is. A catalog change that brings at least `minTools` texts never embedded
   * before is swapped in the same way. `route()` waits only until the router can route; `prepare()` waits for the
   * whole build. `false`: every route waits for the whole build, as `prepare()` does.
   *
   * Default: on, with `minTools` 200, for the built-in model encoders ("hybrid", "use-lite", "minilm", "hf:…"),
   * whose cold build of a few hundred tools takes longer than a first call should wait (see `ProgressiveOptions`);
   * off for an Embeddings instance of your own unless you set it.
   * Needs the lexical fallback: not allowed with `encoderFallback: false` (strict mode).
   */
  progressive?: boolean | ProgressiveOptions;
}

/** Settings of the progressive start (see `RouterOptions.progressive`). */
export interface ProgressiveOptions {
  /**
   * Catalogs of fewer tools (and catalog changes bringing fewer new texts) are embedded before they are routed: their
   * build takes a few seconds, and the hybrid's recall is worth the wait. Default 200; 0 makes every start
   * progressive, a large number (or `progressive: false`) makes every first route wait for the whole build.
   *
   * Why 200 (measured 2026-11-26 on 2 shared cores, default encoder, empty cache): a cold build of 500 tools took
   * 16 s in the overhead bench (about 30 tools a second, so about 6 s at 200), and a first route below the threshold
   * waits for all of it. Routes made while such a build ran, on BM25 alone, reached 1.02 of the full hybrid's
   * recall@10 on a real 464-tool MCP catalog (85 tasks) and 0.80 of it on the synthetic 500-tool expansion (519
   * tasks). The loss lasts only until the build is done, and the store or disk cache keeps what was embedded, so a
   * deployment pays it once.
   */
  minTools?: number;
  /**
   * With the default encoder (USE-lite), routes of the progressive phase also score on static vectors of the tool
   * texts (encoders/static-table.ts: a token table distilled from the model and shipped with the package, a few
   * milliseconds per hundred tools) against the encoder's own query vector: the "static" channel, beside BM25, until
   * the real tool vectors are in. Default true. Catalogs above `STATIC_CHANNEL_MAX_TOOLS` (5,000) tools go without:
   * their rows would take most of a second of this thread, the first route would wait for them, and on large catalogs
   * BM25 alone comes close to the hybrid anyway (1.08 of its recall@10 at 10,000 synthetic tools, bench of 2026-11-26
   * 15:05 UTC).
   *
   * The cost: each route of the phase waits for its query vector, behind the forward pass an encoder worker is running
   * for the build (a query goes before the build's waiting batches).
   *
   * Measured 2026-11-26 (recall@10 relative to the full hybrid's on the same tasks, each task routed once with the
   * channel beside BM25 and once on BM25 alone): 0.92 against 0.82 on the bench's 100 scaling tasks at 500 synthetic
   * tools, 0.90 against 0.87 at 1,000 tools, 0.90 against 0.85 on 300 of MetaTool's dev queries (199 tools). It is
   * not a win on every subset: on the first 69 of those tasks at 1,000 tools, 0.82 against 0.83; nor on every catalog:
   * on the real 464-tool MCP catalog (85 tasks), 0.94 against 1.02 (BM25 beats the hybrid's own dense channel there).
   */
  staticChannel?: boolean;
  /**
   * How long a route of the progressive phase waits for the static channel while it is being made (ms): it needs the
   * encoder loaded (about 0.3–1 s in a fresh process) for its query vector. A route past the wait scores on BM25
   * alone. Default 1500; 0 never waits.
   */
  staticWaitMs?: number;
  /**
   * How many of a static-channel route's best tools are reordered by their real vectors (channels/static.ts). The
   * encoder embeds the ones it has not embedded yet ahead of the build's queued batches, and the build takes those
   * vectors instead of embedding the texts again. 0 or 1: off. Default 20.
   *
   * Static rows place a query's tools in the right neighbourhood and rank within it poorly. Measured 2026-11-26 on
   * 2 cores, the bench's scaling tasks at 1,000 synthetic tools, recall@10 of the routes made during the build
   * relative to the full hybrid's on the same tasks: on the first 51 tasks, 0.74 without the reorder and 0.94 with
   * it. In `npm run bench` of 22:30 UTC, 1.00 over the 42 tasks routed during the build at 1,000 tools and 1.33 over
   * 30 at 500, against 0.82 over 72 and 0.92 over 49 without it (20:18 UTC run). On the real 464-tool MCP catalog's
   * first 30 tasks: 0.96 without, 1.00 with. The cost: a route of the phase took about 0.3–0.4 s at the median
   * instead of 0.11–0.15, and the build 1–3 % longer (texts embedded in small batches; about 2 % of them twice, when
   * the batch that held them was already running).
   */
  rerankTop?: number;
  /**
   * How long a route waits for the real vectors of its best tools (ms); past it, the tools whose vectors are not in
   * keep their static order (their embedding goes on). It adds to each route of the phase: about one forward pass of
   * the encoder for the batch it is running, then one per 8 missing texts. Default 1000; 0 reorders only by vectors
   * already made.
   */
  rerankWaitMs?: number;
}

/** Catalogs above this many tools get no static channel in their progressive phase (see `ProgressiveOptions.staticChannel`). */
export const STATIC_CHANNEL_MAX_TOOLS = 5_000;
/** Default `progressive.staticWaitMs`. */
export const DEFAULT_STATIC_WAIT_MS = 1500;
/** Default `progressive.rerankTop`. */
export const DEFAULT_RERANK_TOP = 20;
/** Default `progressive.rerankWaitMs`. */
export const DEFAULT_RERANK_WAIT_MS = 1000;

/** Default `progressive.minTools` (see `ProgressiveOptions.minTools` for the measurements behind it). */
export const DEFAULT_PROGRESSIVE_MIN_TOOLS = 200;

/** Settings of routing on the lexical channel when the dense encoder fails (see `RouterOptions.encoderFallback`). */
export interface EncoderFallbackOptions {
  /** θ of degraded routes, on normalized BM25 scores (0 to 1). Default 0.02, the lexical encoder's. */
  theta?: number;
  /** Treat a query encode slower than this as a failure (ms). Default: no limit. */
  timeoutMs?: number;
}

/** Default `minActive`: a route keeps at least this many tools when θ would leave fewer. */
export const DEFAULT_MIN_ACTIVE = 3;

/** Settings of multi-intent decomposition (see `RouterOptions.decompose`). */
export interface DecomposeOptions extends ClauseOptions {
  /** Weight of the whole request added to each clause's query (relative to the clause). Default 0.3. */
  wholeWeight?: number;
}

/** Default weight of the whole request in each clause's query. */
export const DEFAULT_DECOMPOSE_WHOLE_WEIGHT = 0.3;

export interface RouteOptions {
  k?: number;
  theta?: number;
  /** Relative cut for this route (see RouterOptions.margin). */
  margin?: number;
  /** Floor of the active set for this route (see RouterOptions.minActive). */
  minActive?: number;
  turnId?: string;
  /** A query vector embedded beforehand (see `embedQueries`); skips the encode step. */
  queryVector?: ArrayLike<number>;
  /**
   * Tool names or ids to keep active this route whatever their score (sticky or promoted tools), when their
   * preconditions hold. They do not count against k. Unknown names are ignored (a catalog may have changed).
   */
  include?: readonly string[];
  /** Restrict routing to, or boost, tools with these tags. */
  tags?: TagFilter;
  /**
   * What the thread says about the next tool: the tools whose results the model has just read (`after`, names or
   * ids), and tool pairs called one after the other earlier in the thread (`transitions`, [from, to]). Their likely
   * successors gain up to `anticipationBoost`.
   */
  anticipate?: AnticipationInput;
  /** Turn multi-intent decomposition on or off for this route (see RouterOptions.decompose). */
  decompose?: boolean;
}

/** Throws a clear error when an option is not a finite number within [min, max]. */
export function validateNumber(name: string, value: number, min: number, max: number): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max)
    throw new Error(`Invalid ${name}: ${value} (expected a number from ${min} to ${max})`);
}

/** The range of scores a router produces, which θ must lie in, and how to say it in an error. */
export interface ThetaRange {
  min: number;
  max: number;
  /** What the scores are, for error messages. */
  scores: string;
}

/**
 * The score range of an encoder choice. Cosine lies in [-1, 1]; the hybrid sum adds the weighted BM25 share, so it
 * reaches 1 + weight; lexical scores are normalized BM25 in [0, 1]. The lower bound is -1 for every encoder: a θ at or
 * below the lowest score keeps every candidate (k alone cuts), and -1 says that whatever the encoder.
 */
export function thetaRangeOf(encoder: RouterOptions["encoder"], lexicalWeight: number): ThetaRange {
  const name = typeof encoder === "string" ? encoder : encoder ? "custom encoder" : DEFAULT_ENCODER;
  if (encoder === "lexical") return { min: -1, max: 1, scores: "lexical scores are normalized BM25 from 0 to 1" };
  if (lexicalWeight > 0)
    return { min: -1, max: 1 + lexicalWeight, scores: `${name} scores are cosine + ${lexicalWeight} × BM25, from -1 to ${1 + lexicalWeight}` };
  return { min: -1, max: 1, scores: `${name} scores are cosine similarities from -1 to 1` };
}

/** Throws a clear error when θ lies outside the scores the router produces. */
export function validateTheta(theta: number, range: ThetaRange): void {
  if (typeof theta !== "number" || !Number.isFinite(theta) || theta < range.min || theta > range.max)
    throw new Error(`Invalid theta: ${theta} (${range.scores}; θ must lie from ${range.min} to ${range.max})`);
}

/** Decomposition settings resolved (`enabled` false: only routes asking for it decompose). */
export type DecomposeSettings = Required<Omit<DecomposeOptions, "maxClauses">> & ClauseOptions & { enabled: boolean };

/** The options of a router resolved and validated: what construction and every route read. */
export interface RouterSettings {
  theta: number;
  thetaRange: ThetaRange;
  k: number;
  margin?: number;
  tagBoost: number;
  anticipationBoost: number;
  minActive: number;
  /** True when there is no dense channel (encoder "lexical"). */
  lexicalOnly: boolean;
  /** BM25 settings when the lexical channel is on (lexical and hybrid modes). */
  lexicalOptions?: Bm25Options;
  /** Weight of the lexical score in the hybrid sum; 0 without a lexical channel. */
  lexicalWeight: number;
  /** Multi-vector settings, undefined when turned off. */
  multiVector?: Required<MultiVectorOptions>;
  /** Server channel weight, 0 when turned off. */
  serverWeight: number;
  /** Encoder fallback settings, undefined when turned off. */
  fallback?: { theta: number; timeoutMs?: number };
  /** Approximate-search settings; false when turned off. */
  ann: AnnOptions | false;
  /** Candidates fused per channel on the approximate path (before the slate raises it). */
  annCandidates: number;
  decompose: DecomposeSettings;
  /** Progressive start settings; undefined when every route waits for the whole build. */
  progressive?: { minTools: number; staticChannel: boolean; staticWaitMs: number; rerankTop: number; rerankWaitMs: number };
}

/** Validates a router's options (after the key check) and resolves their defaults, in the order errors are reported. */
export function routerSettingsOf(options: RouterOptions): RouterSettings {
  const theta = options.theta ?? defaultThetaFor(options.encoder);
  const k = options.k ?? DEFAULT_K;
  validateNumber("k", k, 0, 10_000);
  const encoder = options.encoder ?? DEFAULT_ENCODER;
  const lexicalOnly = encoder === "lexical";
  // Lexical evidence matters as much as the encoder (docs/routing.md, Stronger encoders): named transformers.js
  // models get the BM25 channel too, as the USE-lite hybrid does; a custom Embeddings instance opts in with `lexical`.
  const namedModel = typeof encoder === "string" && (encoder === "minilm" || encoder.startsWith("hf:"));
  const lexicalOn = options.lexical === undefined ? encoder === "hybrid" || lexicalOnly || namedModel : options.lexical !== false;
  if (lexicalOnly && options.lexical === false) throw new Error(`encoder "lexical" needs the lexical channel; remove lexical: false`);
  const lexOpts = typeof options.lexical === "object" ? options.lexical : {};
  const lexicalWeight = lexicalOn ? (lexOpts.weight ?? DEFAULT_LEXICAL_WEIGHT) : 0;
  validateNumber("lexical.weight", lexicalWeight, 0, 100);
  const thetaRange = thetaRangeOf(encoder, lexicalOnly ? 0 : lexicalWeight);
  validateTheta(theta, thetaRange);
  const minActive = options.minActive ?? DEFAULT_MIN_ACTIVE;
  validateNumber("minActive", minActive, 0, 10_000);
  let multiVector: Required<MultiVectorOptions> | undefined;
  if (options.multiVector !== false && !lexicalOnly) {
    const mv = typeof options.multiVector === "object" ? options.multiVector : {};
    multiVector = {
      weight: mv.weight ?? DEFAULT_MULTI_VECTOR_WEIGHT,
      maxSentences: mv.maxSentences ?? 6,
      // Asked for explicitly (true or options): any size, unless the options set a limit.
      maxTools: mv.maxTools ?? (options.multiVector === undefined ? DEFAULT_MULTI_VECTOR_MAX_TOOLS : Number.MAX_SAFE_INTEGER),
    };
    validateNumber("multiVector.weight", multiVector.weight, 0, 1);
    validateNumber("multiVector.maxSentences", multiVector.maxSentences, 1, 100);
    validateNumber("multiVector.maxTools", multiVector.maxTools, 0, Number.MAX_SAFE_INTEGER);
  }
  const srv = typeof options.servers === "object" ? options.servers : {};
  const serverWeight = options.servers === false || lexicalOnly ? 0 : (srv.weight ?? DEFAULT_SERVER_WEIGHT);
  validateNumber("servers.weight", serverWeight, 0, 10);
  if (options.margin !== undefined) validateNumber("margin", options.margin, 0, 2);
  const tagBoost = options.tagBoost ?? 0.1;
  validateNumber("tagBoost", tagBoost, 0, 10);
  const anticipationBoost = options.anticipationBoost ?? 0.1;
  validateNumber("anticipationBoost", anticipationBoost, 0, 10);
  const dec = typeof options.decompose === "object" ? options.decompose : {};
  const decompose: DecomposeSettings = {
    ...dec,
    enabled: options.decompose !== false,
    wholeWeight: dec.wholeWeight ?? DEFAULT_DECOMPOSE_WHOLE_WEIGHT,
    minWords: dec.minWords ?? 3,
  };
  validateNumber("decompose.wholeWeight", decompose.wholeWeight, 0, 100);
  validateNumber("decompose.minWords", decompose.minWords, 1, 100);
  if (options.toolText?.maxChars !== undefined) validateNumber("toolText.maxChars", options.toolText.maxChars, 1, 100_000);
  if (options.slate !== undefined) validateNumber("slate", options.slate, 1, 1_000_000);
  let fallback: RouterSettings["fallback"];
  if (options.encoderFallback !== false && !lexicalOnly) {
    const fb = typeof options.encoderFallback === "object" ? options.encoderFallback : {};
    const fallbackTheta = fb.theta ?? DEFAULT_LEXICAL_THETA;
    validateTheta(fallbackTheta, thetaRangeOf("lexical", 0));
    if (fb.timeoutMs !== undefined) validateNumber("encoderFallback.timeoutMs", fb.timeoutMs, 1, 3_600_000);
    fallback = { theta: fallbackTheta, timeoutMs: fb.timeoutMs };
  }
  const ann: AnnOptions | false = options.ann === false ? false : typeof options.ann === "object" ? { ...options.ann } : {};
  if (ann) {
    if (ann.threshold !== undefined) validateNumber("ann.threshold", ann.threshold, 0, Number.MAX_SAFE_INTEGER);
    if (ann.candidates !== undefined) validateNumber("ann.candidates", ann.candidates, 1, 1_000_000);
    if (ann.M !== undefined) validateNumber("ann.M", ann.M, 2, 100);
    if (ann.efConstruction !== undefined) validateNumber("ann.efConstruction", ann.efConstruction, 1, 10_000);
    if (ann.efSearch !== undefined) validateNumber("ann.efSearch", ann.efSearch, 1, 100_000);
  }
  const progressive = progressiveSettingsOf(options, lexicalOnly, fallback !== undefined);
  return {
    theta,
    thetaRange,
    k,
    margin: options.margin,
    tagBoost,
    anticipationBoost,
    minActive,
    lexicalOnly,
    lexicalOptions: lexicalOn ? lexOpts : undefined,
    lexicalWeight,
    multiVector,
    serverWeight,
    fallback,
    ann,
    annCandidates: (ann && ann.candidates) || DEFAULT_ANN_CANDIDATES,
    decompose,
    progressive,
  };
}

/**
 * Resolves `RouterOptions.progressive` (see there): the built-in model encoders start progressively by default, an
 * Embeddings instance only when asked; the lexical encoder has nothing to wait for.
 */
function progressiveSettingsOf(options: RouterOptions, lexicalOnly: boolean, fallback: boolean): RouterSettings["progressive"] {
  const p = options.progressive;
  if (p !== undefined && typeof p !== "boolean" && (typeof p !== "object" || p === null || Array.isArray(p)))
    throw new Error(`Invalid progressive: ${JSON.stringify(p)} (expected true, false or { minTools, staticChannel, staticWaitMs, rerankTop, rerankWaitMs })`);
  if (p === false || lexicalOnly) return undefined;
  if (!fallback) {
    if (p !== undefined)
      throw new Error("progressive needs the lexical fallback to route while the encoder embeds: remove encoderFallback: false (strict mode) or progressive");
    return undefined;
  }
  const named = options.encoder === undefined || typeof options.encoder === "string";
  if (p === undefined && !named) return undefined;
  const minTools = (typeof p === "object" ? p.minTools : undefined) ?? DEFAULT_PROGRESSIVE_MIN_TOOLS;
  validateNumber("progressive.minTools", minTools, 0, Number.MAX_SAFE_INTEGER);
  const staticChannel = (typeof p === "object" ? p.staticChannel : undefined) ?? true;
  if (typeof staticChannel !== "boolean") throw new Error(`Invalid progressive.staticChannel: ${JSON.stringify(staticChannel)} (expected a boolean)`);
  const staticWaitMs = (typeof p === "object" ? p.staticWaitMs : undefined) ?? DEFAULT_STATIC_WAIT_MS;
  validateNumber("progressive.staticWaitMs", staticWaitMs, 0, 600_000);
  const rerankTop = (typeof p === "object" ? p.rerankTop : undefined) ?? DEFAULT_RERANK_TOP;
  validateNumber("progressive.rerankTop", rerankTop, 0, 1000);
  if (!Number.isInteger(rerankTop)) throw new Error(`Invalid progressive.rerankTop: ${rerankTop} (expected an integer from 0 to 1000)`);
  const rerankWaitMs = (typeof p === "object" ? p.rerankWaitMs : undefined) ?? DEFAULT_RERANK_WAIT_MS;
  validateNumber("progressive.rerankWaitMs", rerankWaitMs, 0, 600_000);
  return { minTools, staticChannel, staticWaitMs, rerankTop, rerankWaitMs };
}
