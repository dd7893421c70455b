/**
 * Intent routing: embed the turn's intent, score it against every tool's routing text (cosine
 * "Intent–Schema Overlap"), keep tools above θ, apply preconditions over a wide slate, take the top-k.
 *
 * The pipeline of one route, in the order `route()` runs it:
 *   channels → fusion → θ (and margin) → preconditions → top-k
 * - channels (./channels/): dense (one whole-text row per tool, in the vector index), multi-vector (a tool's best
 *   short row: name, each description sentence, parameters), server (the query against each server's centroid)
 *   and lexical (sparse BM25 over weighted tool fields);
 * - fusion (./fusion.ts): one linear score per tool whose dense part is a cosine, so θ keeps its dense meaning;
 * - θ and margin cut a wide slate, preconditions gate it on agent state, k takes the best; a route never ends with
 *   no tool at all while some tool's preconditions hold (`minActive`).
 * Multi-intent requests are split into clauses first (./clauses.ts), each clause scored, and the slate interleaved.
 *
 * The expensive part — embedding the catalog and building the index — happens once in `prepare()` and is
 * cached on disk by the encoder layer; a turn costs one query embedding, one index search and a few
 * precondition checks.
 */
import { createHash } from "node:crypto";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { ToolCatalog } from "../catalog/catalog.js";
import { embedQueryBatch, LexicalEmbeddings, resolveEncoder, type EncoderName } from "../encoders/index.js";
import { Bm25Index, type Bm25Options, type WeightedText } from "../encoders/bm25.js";
import { toolFieldsOf, toolTextOf, type ToolTextContext, type ToolTextOptions } from "../catalog/text.js";
import {
  createVectorIndex,
  DEFAULT_ANN_CANDIDATES,
  describeIndexFor,
  hnswBuildFor,
  type AnnOptions,
  type IndexPreference,
  type VectorIndex,
  usesAnn,
  willUseHnsw,
} from "../index/vector-index.js";
import { HnswIndex } from "../index/hnsw-index.js";
import { bm25SnapshotKey, diskSnapshotCache, hnswSnapshotKey, storeSnapshotCache, toolSourceDigest, type SnapshotCache } from "../index/snapshot-cache.js";
import { defaultEmbeddingCacheDir } from "../encoders/cache.js";
import { candidateScores } from "./candidates.js";
import { LazySchemaLoader, type SchemaLoaderOptions } from "../loader/schema-loader.js";
import { checkPreconditions, emptyStateView } from "../preconditions/preconditions.js";
import { checkRouterOptions } from "./option-keys.js";
import { renderPoolTiered, SchemaTokenCounter, type PoolOptions, type PoolTier, type RenderedPool } from "../render/render.js";
import { countFullSchemaTokens, FULL_TOKENS_KEEP_MIN_TOOLS } from "../render/full-schema-tokens.js";
import { DEFAULT_ENCODING, type TokenEncoding } from "../tokens/count.js";
import { splitClauses, type ClauseOptions } from "./clauses.js";
import { buildLexicalIndex } from "./channels/lexical.js";
import {
  DEFAULT_MULTI_VECTOR_MAX_TOOLS,
  DEFAULT_MULTI_VECTOR_WEIGHT,
  MultiVectorChannel,
  multiVectorRows,
  type MultiVectorOptions,
} from "./channels/multi-vector.js";
import { DEFAULT_SERVER_WEIGHT, ServerChannel, type ServerChannelOptions } from "./channels/server.js";
import { addWeighted, addWeightedAt, blendMaxSim } from "./fusion.js";
import { interleave, topIndices } from "./ranking.js";
import { routingEventOf, type ToolAttentionEvent } from "../events/events.js";
import type { AgentStateView, GatedTool, RoutingDecision, ScoredTool, ToolRecord } from "../types.js";
import { RouterStoreBinding, type RouterStoreOptions } from "../store/binding.js";
import { StoreEmbeddings } from "../store/embeddings.js";
import type { CatalogVersionInfo, RoutingStore } from "../store/types.js";

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
   * Where the one line saying which index and encoder are in use goes (once per process and backend), and the one
   * line per encoder failure episode (see `encoderFallback`). Default: stderr. `false` silences it.
   */
  log?: ((line: string) => void) | false;
  /**
   * What a route does when the dense encoder fails on its query (an Embeddings client that throws, or one slower
   * than `timeoutMs`): by default it scores the tools on the lexical (BM25) channel alone, at the lexical θ, and
   * marks the decision and its event `degraded: "lexical"`. The hybrid default has that channel already; a
   * dense-only encoder gets a BM25 index built on the first failure. One line goes to `log` when failures start,
   * none while they go on; the next route whose query encodes again ends the episode. `false`: the encoder's error
   * propagates from `route()`.
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
}

/** Settings of routing on the lexical channel when the dense encoder fails (see `RouterOptions.encoderFallback`). */
export interface EncoderFallbackOptions {
  /** θ of degraded routes, on normalized BM25 scores (0 to 1). Default 0.02, the lexical encoder's. */
  theta?: number;
  /** Treat a query encode slower than this as a failure (ms). Default: no limit. */
  timeoutMs?: number;
}

/** The scoring channels of one catalog (see ./channels/), built together and swapped together. */
interface Channels {
  /** Whole-text dense rows, one per tool, in catalog order. */
  dense?: VectorIndex;
  multi?: MultiVectorChannel;
  server?: ServerChannel;
  lexical?: Bm25Index;
}

/** Default `minActive`: a route keeps at least this many tools when θ would leave fewer. */
export const DEFAULT_MIN_ACTIVE = 3;

/** A dense-encoder failure during one route, with the error the encoder gave. */
class QueryEncodeFailure extends Error {
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** Settings of multi-intent decomposition (see `RouterOptions.decompose`). */
export interface DecomposeOptions extends ClauseOptions {
  /** Weight of the whole request added to each clause's query (relative to the clause). Default 0.3. */
  wholeWeight?: number;
}

/** Default weight of the whole request in each clause's query. */
export const DEFAULT_DECOMPOSE_WHOLE_WEIGHT = 0.3;

const loggedBackends = new Set<string>();

/** What `replaceCatalog` changed, by tool id, and how many routing texts it had to embed. */
export interface CatalogUpdate {
  added: string[];
  changed: string[];
  removed: string[];
  embedded: number;
  /** With a store: the catalog version the router now routes on. */
  version?: number;
}

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
  /** Turn multi-intent decomposition on or off for this route (see RouterOptions.decompose). */
  decompose?: boolean;
}

/** Parts of a query with empty texts removed and weights defaulted. */
function queryParts(query: RouteQuery): { text: string; weight: number }[] {
  const parts = typeof query === "string" ? [{ text: query, weight: 1 }] : query;
  const out: { text: string; weight: number }[] = [];
  for (const p of parts) {
    const text = typeof p?.text === "string" ? p.text.trim() : "";
    const weight = p?.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) throw new Error(`Invalid query part weight: ${weight} (expected a number ≥ 0)`);
    if (text && weight > 0) out.push({ text, weight });
  }
  return out;
}

function validateNumber(name: string, value: number, min: number, max: number): void {
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

function validateTheta(theta: number, range: ThetaRange): void {
  if (typeof theta !== "number" || !Number.isFinite(theta) || theta < range.min || theta > range.max)
    throw new Error(`Invalid theta: ${theta} (${range.scores}; θ must lie from ${range.min} to ${range.max})`);
}

export class ToolAttentionRouter {
  readonly theta: number;
  /** The scores this router's encoder produces; θ (option or per route) must lie in this range. */
  readonly thetaRange: ThetaRange;
  readonly k: number;
  readonly encoding: TokenEncoding;
  readonly loader: LazySchemaLoader;
  private embeddings?: EmbeddingsInterface;
  private encoderName = "";
  private modelId = "";
  /** The dense encoder's own id (modelId without the lexical channel), for failure reports. */
  private denseModelId = "";
  /** The scoring channels built for the current catalog; replaced as one object when the catalog changes. */
  private channels: Channels = {};
  private preparing?: Promise<void>;
  private turnCounter = 0;
  private readonly tokenCounter: SchemaTokenCounter;
  private fullTokens?: { catalog: ToolCatalog; total: Promise<number> };
  /** Aborted (and replaced) by `close()`: background work in progress (the full-schema count) stops. */
  private lifetime = new AbortController();
  /** The rendered pool and the catalog object it was rendered for (a replaced catalog renders anew). */
  private poolMemo?: { catalog: ToolCatalog; rendered: RenderedPool };
  private readonly alwaysIds: string[];
  /** BM25 settings when the lexical channel is on (lexical and hybrid modes). */
  private readonly lexicalOptions?: Bm25Options;
  /** Weight of the lexical score in the hybrid sum; 0 without a lexical channel. */
  private readonly lexicalWeight: number;
  /** True when there is no dense channel (encoder "lexical"). */
  private readonly lexicalOnly: boolean;
  readonly margin?: number;
  readonly tagBoost: number;
  readonly minActive: number;
  /** Multi-vector settings, undefined when turned off. */
  private readonly multiVector?: Required<MultiVectorOptions>;
  /** Server channel weight, 0 when turned off. */
  private readonly serverWeight: number;
  /** Fallback settings, undefined when turned off. */
  private readonly fallback?: { theta: number; timeoutMs?: number };
  /** The current encoder failure episode, if the last query encode failed. */
  private failing?: { since: number; error: string; routes: number };
  /** BM25 built on the first encoder failure of a router without a lexical channel, for that catalog. */
  private fallbackBm25?: { catalog: ToolCatalog; index: Bm25Index };
  /** Approximate-search settings; false when turned off. */
  private readonly ann: AnnOptions | false;
  /** Decomposition settings (`enabled` false: only routes asking for it decompose). */
  private readonly decompose: Required<Omit<DecomposeOptions, "maxClauses">> & ClauseOptions & { enabled: boolean };
  /** The shared store, when `options.store` is set. */
  private readonly storeBinding?: RouterStoreBinding;
  /** Store version of the current catalog (set with the catalog, in the same synchronous step). */
  private version?: CatalogVersionInfo;
  /** Catalog changes one after another when a store is set: a local replace and a followed version never interleave. */
  private catalogChain: Promise<unknown> = Promise.resolve();
  private unwatch?: () => void;

  constructor(
    readonly catalog: ToolCatalog,
    private readonly options: RouterOptions = {},
  ) {
    checkRouterOptions("ToolAttentionRouter", options);
    this.theta = options.theta ?? defaultThetaFor(options.encoder);
    this.k = options.k ?? DEFAULT_K;
    validateNumber("k", this.k, 0, 10_000);
    const encoder = options.encoder ?? DEFAULT_ENCODER;
    this.lexicalOnly = encoder === "lexical";
    // Lexical evidence matters as much as the encoder (README, Stronger encoders): named transformers.js models get
    // the BM25 channel too, as the USE-lite hybrid does; a custom Embeddings instance opts in with `lexical`.
    const namedModel = typeof encoder === "string" && (encoder === "minilm" || encoder.startsWith("hf:"));
    const lexicalOn = options.lexical === undefined ? encoder === "hybrid" || this.lexicalOnly || namedModel : options.lexical !== false;
    if (this.lexicalOnly && options.lexical === false) throw new Error(`encoder "lexical" needs the lexical channel; remove lexical: false`);
    const lexOpts = typeof options.lexical === "object" ? options.lexical : {};
    this.lexicalWeight = lexicalOn ? (lexOpts.weight ?? DEFAULT_LEXICAL_WEIGHT) : 0;
    validateNumber("lexical.weight", this.lexicalWeight, 0, 100);
    this.thetaRange = thetaRangeOf(encoder, this.lexicalOnly ? 0 : this.lexicalWeight);
    validateTheta(this.theta, this.thetaRange);
    if (lexicalOn) this.lexicalOptions = lexOpts;
    this.minActive = options.minActive ?? DEFAULT_MIN_ACTIVE;
    validateNumber("minActive", this.minActive, 0, 10_000);
    if (options.multiVector !== false && !this.lexicalOnly) {
      const mv = typeof options.multiVector === "object" ? options.multiVector : {};
      this.multiVector = {
        weight: mv.weight ?? DEFAULT_MULTI_VECTOR_WEIGHT,
        maxSentences: mv.maxSentences ?? 6,
        // Asked for explicitly (true or options): any size, unless the options set a limit.
        maxTools: mv.maxTools ?? (options.multiVector === undefined ? DEFAULT_MULTI_VECTOR_MAX_TOOLS : Number.MAX_SAFE_INTEGER),
      };
      validateNumber("multiVector.weight", this.multiVector.weight, 0, 1);
      validateNumber("multiVector.maxSentences", this.multiVector.maxSentences, 1, 100);
      validateNumber("multiVector.maxTools", this.multiVector.maxTools, 0, Number.MAX_SAFE_INTEGER);
    }
    const srv = typeof options.servers === "object" ? options.servers : {};
    this.serverWeight = options.servers === false || this.lexicalOnly ? 0 : (srv.weight ?? DEFAULT_SERVER_WEIGHT);
    validateNumber("servers.weight", this.serverWeight, 0, 10);
    if (options.margin !== undefined) validateNumber("margin", options.margin, 0, 2);
    this.margin = options.margin;
    this.tagBoost = options.tagBoost ?? 0.1;
    validateNumber("tagBoost", this.tagBoost, 0, 10);
    const dec = typeof options.decompose === "object" ? options.decompose : {};
    this.decompose = {
      ...dec,
      enabled: options.decompose !== false,
      wholeWeight: dec.wholeWeight ?? DEFAULT_DECOMPOSE_WHOLE_WEIGHT,
      minWords: dec.minWords ?? 3,
    };
    validateNumber("decompose.wholeWeight", this.decompose.wholeWeight, 0, 100);
    validateNumber("decompose.minWords", this.decompose.minWords, 1, 100);
    if (options.toolText?.maxChars !== undefined) validateNumber("toolText.maxChars", options.toolText.maxChars, 1, 100_000);
    if (options.slate !== undefined) validateNumber("slate", options.slate, 1, 1_000_000);
    if (options.encoderFallback !== false && !this.lexicalOnly) {
      const fb = typeof options.encoderFallback === "object" ? options.encoderFallback : {};
      const theta = fb.theta ?? DEFAULT_LEXICAL_THETA;
      validateTheta(theta, thetaRangeOf("lexical", 0));
      if (fb.timeoutMs !== undefined) validateNumber("encoderFallback.timeoutMs", fb.timeoutMs, 1, 3_600_000);
      this.fallback = { theta, timeoutMs: fb.timeoutMs };
    }
    this.ann = options.ann === false ? false : typeof options.ann === "object" ? { ...options.ann } : {};
    if (this.ann) {
      const a = this.ann;
      if (a.threshold !== undefined) validateNumber("ann.threshold", a.threshold, 0, Number.MAX_SAFE_INTEGER);
      if (a.candidates !== undefined) validateNumber("ann.candidates", a.candidates, 1, 1_000_000);
      if (a.M !== undefined) validateNumber("ann.M", a.M, 2, 100);
      if (a.efConstruction !== undefined) validateNumber("ann.efConstruction", a.efConstruction, 1, 10_000);
      if (a.efSearch !== undefined) validateNumber("ann.efSearch", a.efSearch, 1, 100_000);
    }
    this.encoding = options.encoding ?? DEFAULT_ENCODING;
    this.tokenCounter = new SchemaTokenCounter(this.encoding);
    this.loader =
      options.schemas instanceof LazySchemaLoader ? options.schemas : new LazySchemaLoader(catalog, options.schemas);
    if (options.store !== undefined) this.storeBinding = new RouterStoreBinding(options.store, (line) => this.logLine(line));
    this.alwaysIds = (options.alwaysInclude ?? []).map((n) => {
      const r = catalog.resolve(n);
      if (!r) throw new Error(`alwaysInclude names "${n}", which is not in the catalog`);
      return r.id;
    });
  }

  /** Embeds the catalog and builds the index (once; later calls await the same work). */
  prepare(): Promise<void> {
    this.preparing ??= this.doPrepare().catch((err) => {
      this.preparing = undefined;
      throw err;
    });
    return this.preparing;
  }

  /** Context each tool text may use: whether the catalog spans servers, and the server's description. */
  private textContext(server: string, catalog: ToolCatalog = this.catalog): ToolTextContext {
    return { multiServer: catalog.servers.size > 1, serverDescription: catalog.servers.get(server) };
  }

  /** The text embedded for each tool under the router's `toolText` options. */
  toolTexts(catalog: ToolCatalog = this.catalog): string[] {
    return catalog.tools.map((t) => toolTextOf(t, this.options.toolText, this.textContext(t.server, catalog)));
  }

  /** BM25 over a catalog's weighted tool fields. */
  private lexicalIndex(catalog: ToolCatalog, options: Bm25Options): Bm25Index {
    return buildLexicalIndex(catalog, options, this.options.toolText, (server) => this.textContext(server, catalog));
  }

  /**
   * The texts behind the dense rows and how their vectors become one row per tool: one joined text per tool, or
   * a weighted sum of separately embedded components (`toolText.fieldWeights`).
   */
  private denseTexts(catalog: ToolCatalog): { texts: string[]; rowsOf: (vectors: readonly ArrayLike<number>[]) => ArrayLike<number>[] } {
    const weights = this.options.toolText?.fieldWeights;
    if (!weights) return { texts: this.toolTexts(catalog), rowsOf: (vectors) => [...vectors] };
    const fields = catalog.tools.map((t) => toolFieldsOf(t, { ...this.options.toolText, params: true }, this.textContext(t.server, catalog)));
    const parts: [keyof typeof weights, number][] = (["name", "description", "params"] as const)
      .map((k) => [k, weights[k] ?? (k === "params" ? 0 : 1)] as [keyof typeof weights, number])
      .filter(([, w]) => w > 0);
    const texts: string[] = [];
    const owners: { tool: number; weight: number }[] = [];
    fields.forEach((f, i) => {
      for (const [k, w] of parts) {
        const text = k === "name" && f.server ? `${f.name} (${f.server})` : f[k];
        if (text) {
          texts.push(text);
          owners.push({ tool: i, weight: w });
        }
      }
    });
    const rowsOf = (vectors: readonly ArrayLike<number>[]) => {
      const dim = vectors[0]?.length ?? 0;
      const rows = fields.map(() => new Array<number>(dim).fill(0));
      vectors.forEach((v, j) => {
        const { tool, weight } = owners[j];
        for (let d = 0; d < dim; d++) rows[tool][d] += weight * v[d];
      });
      // A tool with no text at all keeps a zero row (cosine 0 with everything).
      return rows;
    };
    return { texts, rowsOf };
  }

  /**
   * Builds every scoring channel for a catalog: lexical BM25, and with a dense encoder the whole-text index, the
   * multi-vector rows and the server centroids. All dense texts go to the encoder in one call (new texts only).
   */
  private async buildChannels(catalog: ToolCatalog): Promise<Channels> {
    const embeddings = this.embeddings;
    const dense = !this.lexicalOnly && embeddings !== undefined;
    const prefer = this.options.index ?? "auto";
    // A large catalog's BM25 and HNSW snapshots are read at the same time (a store reads large ones in a thread).
    const [lexical, snapshot] = await Promise.all([
      this.lexicalOptions ? this.lexicalChannel(catalog, this.lexicalOptions) : undefined,
      // The HNSW index comes with its rows: nothing to embed, and the tool texts are not even made (the key hashes
      // their sources).
      dense && catalog.size > 0 ? this.loadSnapshot(catalog, prefer) : undefined,
    ]);
    if (!dense) return { lexical };
    const tools = catalog.tools;
    const mv = this.multiVector;
    const rowsOfMv = mv && mv.weight > 0 && tools.length > 0 && tools.length <= mv.maxTools
      ? multiVectorRows(tools, this.options.toolText, (server) => this.textContext(server, catalog), mv.maxSentences)
      : undefined;
    let index: VectorIndex;
    let rows: ArrayLike<number>[];
    let extra: Float32Array[] = [];
    if (snapshot) {
      index = snapshot.index;
      rows = tools.map((_, i) => snapshot.index.rowView(i));
      if (rowsOfMv) extra = await this.embedTexts(rowsOfMv.texts);
      // The snapshot's rows serve a later catalog change as the encoder's vectors would (views: no copy), keyed by
      // their texts when that change comes (see embedTexts).
      if (!this.options.toolText?.fieldWeights) this.unkeyedRows = { catalog, rows: rows as Float32Array[] };
    } else {
      const dense = this.denseTexts(catalog);
      const vectors = tools.length > 0 ? await this.embedTexts([...dense.texts, ...(rowsOfMv?.texts ?? [])]) : [];
      rows = dense.rowsOf(vectors.slice(0, dense.texts.length));
      extra = vectors.slice(dense.texts.length);
      if (rows.length !== tools.length) throw new Error(`Encoder ${this.denseModelId} returned ${rows.length} vectors for ${tools.length} tools`);
      const dim = rows[0]?.length || this.channels.dense?.dim || (await embeddings.embedQuery("tool")).length;
      index = await createVectorIndex(dim, prefer, { rows: rows.length, ann: this.ann });
      if (rows.length > 0) index.add(rows);
      if (index.kind === "hnsw") {
        const hnsw = index as HnswIndex;
        // The server centroids come from the rows as the index keeps them (half precision by default), as they do
        // in a process that loads this snapshot: every process scores alike.
        rows = tools.map((_, i) => hnsw.rowView(i));
        await this.saveSnapshot(catalog, hnsw);
      }
    }
    const dim = index.dim;
    let multi: MultiVectorChannel | undefined;
    if (rowsOfMv && rowsOfMv.texts.length > 0) {
      const rowIndex = await createVectorIndex(dim, prefer);
      rowIndex.add(extra);
      multi = new MultiVectorChannel(rowIndex, rowsOfMv.owners, tools.length);
    }
    const server = this.serverWeight > 0 ? ServerChannel.build(tools, rows, dim) : undefined;
    return { dense: index, multi, server, lexical };
  }

  /**
   * The lexical channel of a catalog. A catalog large enough for the approximate index also keeps its BM25 index as
   * a snapshot next to the HNSW one (tokenizing 100,000 tools takes seconds; loading the snapshot does not).
   */
  private async lexicalChannel(catalog: ToolCatalog, options: Bm25Options): Promise<Bm25Index> {
    const cache = usesAnn(catalog.size, this.ann) ? this.snapshotCache() : undefined;
    if (!cache) return this.lexicalIndex(catalog, options);
    const key = bm25SnapshotKey(options, toolSourceDigest(catalog, this.options.toolText));
    const loaded = await this.readSnapshot(cache, "lexical", key, (bytes) => {
      const index = Bm25Index.fromBytes(bytes, options);
      if (index.size !== catalog.size) throw new Error(`snapshot holds ${index.size} documents, the catalog has ${catalog.size} tools`);
      return index;
    });
    if (loaded) return loaded;
    const index = this.lexicalIndex(catalog, options);
    await this.keepSnapshot(cache, "lexical", key, index);
    return index;
  }

  /**
   * A snapshot decoded, or undefined when there is none. A damaged or unreadable one (decode throws) is logged and
   * costs a rebuild, never the catalog.
   */
  private async readSnapshot<T>(cache: SnapshotCache, what: string, key: string, decode: (bytes: Uint8Array) => T): Promise<T | undefined> {
    try {
      const bytes = await cache.get(key);
      return bytes ? decode(bytes) : undefined;
    } catch (err) {
      this.logLine(`tool-attention: ${what} snapshot ${key} in the ${cache.where} not used (${(err as Error).message}); building the index`);
      return undefined;
    }
  }

  /** Keeps a freshly built index for the next process (failures are logged: the router works without). */
  private async keepSnapshot(cache: SnapshotCache, what: string, key: string, index: { toBytes(): Uint8Array }): Promise<void> {
    try {
      await cache.put(key, index.toBytes());
    } catch (err) {
      this.logLine(`tool-attention: could not keep the ${what} snapshot ${key} in the ${cache.where} (${(err as Error).message})`);
    }
  }

  /** Where HNSW snapshots are kept: the store's blobs, else the local disk cache; undefined when neither is on. */
  private snapshotCache(): SnapshotCache | undefined {
    if (this.options.ann === false || this.embeddings instanceof LexicalEmbeddings) return undefined;
    return this.blobCache();
  }

  /** The store's blobs, else the local disk cache (unless turned off); undefined when neither is on. */
  private blobCache(): SnapshotCache | undefined {
    const fromStore = this.storeBinding ? storeSnapshotCache(this.storeBinding.store) : undefined;
    if (fromStore) return fromStore;
    const dir = this.storeBinding && this.options.cacheDir === undefined ? false : (this.options.cacheDir ?? defaultEmbeddingCacheDir());
    return dir === false ? undefined : (this.diskSnapshots ??= diskSnapshotCache(dir));
  }
  private diskSnapshots?: SnapshotCache;

  private snapshotKey(catalog: ToolCatalog): string {
    const build = hnswBuildFor(catalog.size, this.ann || undefined);
    return hnswSnapshotKey(this.denseModelId, toolSourceDigest(catalog, this.options.toolText), build, this.options.toolText?.fieldWeights ?? null);
  }

  /** The HNSW index of a catalog's dense rows from a snapshot, when the catalog gets one and a snapshot exists. */
  private async loadSnapshot(catalog: ToolCatalog, prefer: IndexPreference): Promise<{ index: HnswIndex } | undefined> {
    // One row per tool, except with fieldWeights (component texts summed into rows): the rows are still one per tool.
    const rowCount = catalog.size;
    if (!willUseHnsw(rowCount, prefer, this.ann)) return undefined;
    const cache = this.snapshotCache();
    if (!cache) return undefined;
    const a = this.ann || {};
    const index = await this.readSnapshot(cache, "index", this.snapshotKey(catalog), (bytes) => {
      const loaded = HnswIndex.fromBytes(bytes, { efSearch: a.efSearch, upperBeam: a.upperBeam });
      if (loaded.size !== rowCount) throw new Error(`snapshot holds ${loaded.size} rows, the catalog has ${rowCount} tools`);
      return loaded;
    });
    return index ? { index } : undefined;
  }

  /** Keeps a freshly built HNSW index for the next process. */
  private async saveSnapshot(catalog: ToolCatalog, index: HnswIndex): Promise<void> {
    const cache = this.snapshotCache();
    if (cache) await this.keepSnapshot(cache, "index", this.snapshotKey(catalog), index);
  }

  private logLine(line: string): void {
    if (this.options.log !== false) (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  private async doPrepare(): Promise<void> {
    // The catalog's digest (seconds on 100,000 tools) runs in slices while the channels load.
    this.storeBinding?.prime(this.catalog);
    if (this.lexicalOnly) {
      this.encoderName = "lexical";
      this.modelId = "lexical-bm25";
      this.startFullSchemaTokens();
      this.channels = await this.buildChannels(this.catalog);
      await this.joinStore();
      return;
    }
    // With a store, vectors persist there: the disk cache only when asked for.
    const cacheDir = this.storeBinding && this.options.cacheDir === undefined ? false : this.options.cacheDir;
    const enc = await resolveEncoder(this.options.encoder ?? DEFAULT_ENCODER, { cacheDir });
    const embeddings = this.storeBinding ? this.storeBinding.wrap(enc.embeddings, enc.modelId) : enc.embeddings;
    this.embeddings = embeddings;
    this.encoderName = enc.name;
    this.modelId = this.lexicalOptions ? `${enc.modelId}+bm25` : enc.modelId;
    this.denseModelId = enc.modelId;
    // store.initial "adopt": route on the store's latest catalog instead of embedding the constructor's.
    const adopted = await this.storeBinding?.adoptable(this.catalog);
    if (adopted) await this.swapCatalog(adopted.catalog, async () => adopted.info);
    else {
      // Counted while the catalog is embedded or loaded, not on the first route.
      this.startFullSchemaTokens();
      this.channels = await this.buildChannels(this.catalog);
    }
    await this.joinStore();
    const prefer = this.options.index ?? "auto";
    const line = `tool-attention: ${describeIndexFor(this.catalog.size, prefer, this.ann)}; encoder: ${this.modelId}${this.storeBinding ? `; store: ${this.storeBinding.store.kind}` : ""}`;
    if (this.options.log !== false && !loggedBackends.has(line)) {
      loggedBackends.add(line);
      (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
    }
  }

  /**
   * Embeds many queries at once for offline evaluation: batched, and for stateless encoders through the
   * embedding cache, so re-running an evaluation (θ sweeps, benchmarks) does not re-embed its queries.
   * Pass each vector to `route(query, state, { queryVector })`.
   */
  async embedQueries(texts: readonly string[]): Promise<number[][]> {
    await this.prepare();
    // Without a dense channel there is nothing to embed; route() scores the text lexically.
    if (this.lexicalOnly) return texts.map(() => []);
    // Evaluation queries are not tool texts: never written to a shared store.
    const emb = this.embeddings instanceof StoreEmbeddings ? this.embeddings.inner : (this.embeddings as EmbeddingsInterface);
    // Symmetric encoders embed queries like documents (batched, through the cache); others (prefixed models, the
    // hashed lexical encoder, custom ones) take the query side, batched when the encoder can.
    if (this.encoderName === "use-lite" || this.encoderName === "minilm" || this.encoderName === "hybrid")
      return emb.embedDocuments(texts.map((t) => t.trim() || " "));
    return embedQueryBatch(emb, [...texts]);
  }

  /** One line describing the encoder and index in use. */
  describe(): string {
    return `encoder: ${this.modelId || "(not prepared)"}; index: ${this.indexKind ?? "(not prepared)"}; tools: ${this.catalog.size}`;
  }

  /** The whole-text dense index of the current catalog (read-only use: benchmarks, diagnostics), if any. */
  get denseIndex(): VectorIndex | undefined {
    return this.channels.dense;
  }

  get indexKind(): string | undefined {
    return this.channels.dense?.kind ?? (this.lexicalOnly && this.channels.lexical ? "bm25" : undefined);
  }

  /** The Phase-1 summary pool (identical on every turn for the same catalog). */
  pool(): string {
    return this.renderedPool().text;
  }

  /** Tokens of the Phase-1 pool (computed once per catalog: the pool does not change between turns). */
  poolTokens(): number {
    return this.renderedPool().tokens;
  }

  /** The pool's line format: `"terse"` lists each tool's parameters, `"line"` only its summary. */
  get poolFormat(): "line" | "terse" {
    return this.options.pool?.format ?? "line";
  }

  /** The pool options the router renders with (the adapters add `runValidCalls`; the cost replay renders the same). */
  get poolOptions(): PoolOptions {
    return this.options.pool ?? {};
  }

  /** Whether the pool's lines name each tool's parameters (see RenderedPool.params). */
  poolShowsParameters(): boolean {
    return this.renderedPool().params;
  }

  /** The layout the pool fits its token budget in: 1 one line per tool, 2 names per server, 3 servers only. */
  poolTier(): PoolTier {
    return this.renderedPool().tier;
  }

  private renderedPool(): RenderedPool {
    const catalog = this.catalog;
    if (this.poolMemo?.catalog !== catalog) {
      // Counted in the router's encoding, whatever the pool options say, so the budget matches the accounting.
      const rendered = renderPoolTiered(catalog, { ...this.options.pool, encoding: this.encoding });
      this.poolMemo = { catalog, rendered };
    }
    return this.poolMemo.rendered;
  }

  /**
   * Tokens of the whole catalog's full schemas: what every turn would cost without routing. Counted once per
   * catalog, in slices; on large catalogs whose schemas the catalog holds, kept beside the index snapshots for the
   * next process (see full-schema-tokens.ts).
   */
  fullSchemaTokens(): Promise<number> {
    const catalog = this.catalog;
    if (this.fullTokens?.catalog !== catalog) {
      const cache = this.options.schemas === undefined ? this.blobCache() : undefined;
      const total = countFullSchemaTokens(
        catalog,
        (ids) => this.loader.getMany(ids),
        this.tokenCounter,
        cache && { cache, warn: (l) => this.logLine(l) },
        this.lifetime.signal,
      );
      // A failure is not kept: the next route counts again (and reports it).
      total.catch(() => {
        if (this.fullTokens?.total === total) this.fullTokens = undefined;
      });
      this.fullTokens = { catalog, total };
    }
    return this.fullTokens.total;
  }

  /** Starts counting a large catalog's full-schema tokens ahead of the first route, when its schemas are local. */
  private startFullSchemaTokens(): void {
    if (this.catalog.size >= FULL_TOKENS_KEEP_MIN_TOOLS && this.options.schemas === undefined) this.fullSchemaTokens().catch(() => undefined);
  }

  /** Tokens of the given tools' full schemas. */
  async schemaTokens(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    let n = 0;
    for (const s of await this.loader.getMany(ids)) n += this.tokenCounter.count(s);
    return n;
  }

  /** The query's dense vector: one embedding, or the weighted sum of its parts' embeddings. */
  private async queryVector(parts: readonly { text: string; weight: number }[]): Promise<number[]> {
    const emb = this.embeddings as EmbeddingsInterface;
    if (parts.length === 1) return emb.embedQuery(parts[0].text);
    const vectors = await Promise.all(parts.map((p) => emb.embedQuery(p.text)));
    const out = new Array<number>(vectors[0].length).fill(0);
    vectors.forEach((v, j) => {
      const w = parts[j].weight;
      for (let d = 0; d < out.length; d++) out[d] += w * v[d];
    });
    return out;
  }

  /** Whether a tool carries one of the tags (its server counts as a tag). */
  private static hasTag(t: ToolRecord, tags: ReadonlySet<string>): boolean {
    if (tags.has(t.server)) return true;
    for (const tag of t.tags) if (tags.has(tag)) return true;
    return false;
  }

  /**
   * Routes one query under the given agent state. The query is one text or weighted parts (see `RouteQuery`):
   * dense vectors of the parts are summed by weight, lexical term counts likewise.
   */
  async route(query: RouteQuery, state: AgentStateView = emptyStateView(), opts: RouteOptions = {}): Promise<RoutingDecision> {
    await this.prepare();
    const k = opts.k ?? this.k;
    let theta = opts.theta ?? this.theta;
    let margin = opts.margin ?? this.margin;
    validateNumber("k", k, 0, 10_000);
    validateTheta(theta, this.thetaRange);
    if (margin !== undefined) validateNumber("margin", margin, 0, 2);
    const turnId = opts.turnId ?? `turn-${++this.turnCounter}`;
    // Read together: replaceCatalog swaps catalog, index and BM25 at once, and index rows refer to these tools.
    const catalog = this.catalog;
    const tools = catalog.tools;
    const channels = this.channels;
    const version = this.version?.version;
    const t0 = performance.now();

    const parts = queryParts(query);
    const queryText = typeof query === "string" ? query : parts.map((p) => p.text).join("\n");
    const n = tools.length;
    let scores: Float32Array | undefined;
    let slate: number[] = [];
    const tEncoded = { at: t0 };
    const slateN = this.options.slate ?? slateSize(k);
    const clauseQueries = n > 0 ? this.clauseQueries(parts, opts.decompose) : undefined;
    const scoreAll = async (ch: Channels, lexicalOnly: boolean) => {
      if (clauseQueries) {
        // Each clause is routed on its own (with the whole request at a lower weight); a tool keeps its best
        // clause score, and the slate takes the clauses' rankings in turn so every clause gets its best tools in.
        const perClause: Float32Array[] = [];
        const ranked: number[][] = [];
        for (const q of clauseQueries) {
          const c = await this.scoreParts(q, tools, ch, lexicalOnly, opts.tags, undefined, tEncoded, slateN);
          perClause.push(c.scores);
          ranked.push(topIndices(c.scores, slateN, c.ids));
        }
        slate = interleave(ranked, slateN);
        scores = Float32Array.from(perClause[0]);
        for (const other of perClause.slice(1)) for (let i = 0; i < n; i++) if (other[i] > scores[i]) scores[i] = other[i];
      } else if (parts.length > 0 && n > 0) {
        const c = await this.scoreParts(parts, tools, ch, lexicalOnly, opts.tags, opts.queryVector, tEncoded, slateN);
        scores = c.scores;
        slate = topIndices(scores, slateN, c.ids);
      } else tEncoded.at = performance.now();
    };
    let degraded = false;
    try {
      await scoreAll(channels, this.lexicalOnly);
    } catch (err) {
      if (!(err instanceof QueryEncodeFailure)) throw err;
      if (!this.fallback) throw err.error;
      // The dense encoder failed: score on BM25 alone, on the lexical scale and θ.
      this.noteEncoderFailure(err.error);
      degraded = true;
      theta = this.fallback.theta;
      margin = undefined;
      await scoreAll({ lexical: channels.lexical ?? this.lexicalFallback(catalog) }, true);
    }
    const tSearched = performance.now();

    const active: ScoredTool[] = [];
    const gatedOut: GatedTool[] = [];
    const candidates: ScoredTool[] = [];
    const taken = new Set<string>();
    let belowTheta = 0;
    const scoreOf = (id: string) => {
      const i = this.positionOf(id);
      return scores && i >= 0 && scores[i] !== Number.NEGATIVE_INFINITY ? scores[i] : 0;
    };

    for (const id of this.alwaysIds) {
      const t = this.catalog.getById(id) as ToolRecord;
      const check = checkPreconditions(t, state);
      if (check.allow) active.push({ id, name: t.name, server: t.server, score: 1 });
      else gatedOut.push({ id, name: t.name, server: t.server, score: 1, reason: check.reason });
      taken.add(id);
    }
    for (const name of opts.include ?? []) {
      const t = this.catalog.resolve(name);
      if (!t || taken.has(t.id)) continue;
      taken.add(t.id);
      const scored: ScoredTool = { id: t.id, name: t.name, server: t.server, score: scoreOf(t.id) };
      const check = checkPreconditions(t, state);
      if (check.allow) active.push(scored);
      else gatedOut.push({ ...scored, reason: check.reason });
    }
    const fixed = active.length;
    let best = Number.NEGATIVE_INFINITY;
    for (const i of slate) best = Math.max(best, (scores as Float32Array)[i]);
    const cut = margin !== undefined && slate.length > 0 ? Math.max(theta, best - margin) : theta;
    for (const i of slate) {
      const t = tools[i];
      const score = (scores as Float32Array)[i];
      const scored: ScoredTool = { id: t.id, name: t.name, server: t.server, score };
      candidates.push(scored);
      if (score < cut) {
        belowTheta++;
        continue;
      }
      if (taken.has(t.id) || active.length - fixed >= k) continue;
      const check = checkPreconditions(t, state);
      if (check.allow) active.push(scored);
      else gatedOut.push({ ...scored, reason: check.reason });
    }
    // Never bind nothing: when θ left fewer than minActive tools active (always-included and sticky ones count),
    // the best candidates below the cut whose preconditions hold fill up to it.
    const floor = Math.min(k, opts.minActive ?? this.minActive);
    if (active.length < floor) {
      const chosen = new Set(active.map((a) => a.id));
      for (const i of slate) {
        if (active.length >= floor) break;
        const t = tools[i];
        const score = (scores as Float32Array)[i];
        // The floor relaxes θ, never the margin: a relative cut is the caller's own choice of a tight set.
        if (score >= cut || taken.has(t.id) || chosen.has(t.id) || (margin !== undefined && score < best - margin)) continue;
        if (checkPreconditions(t, state).allow) active.push({ id: t.id, name: t.name, server: t.server, score });
      }
    }
    // The clauses' turns decide which tools get in; the active list still reads best first.
    if (clauseQueries) active.splice(fixed, active.length - fixed, ...active.slice(fixed).sort((a, b) => b.score - a.score));
    const tGated = performance.now();

    const activeIds = active.map((a) => a.id);
    const [phase2Tokens, fullSchemaTokens] = await Promise.all([this.schemaTokens(activeIds), this.fullSchemaTokens()]);
    const decision: RoutingDecision = {
      turnId,
      queryHash: createHash("sha256").update(queryText).digest("hex").slice(0, 12),
      query: queryText,
      theta,
      k,
      active,
      gatedOut,
      belowTheta,
      candidates,
      phase1Tokens: this.poolTokens(),
      phase2Tokens,
      fullSchemaTokens,
      latencyMs: {
        encode: tEncoded.at - t0,
        search: tSearched - tEncoded.at,
        gate: tGated - tSearched,
        total: tGated - t0,
      },
      ...(degraded ? { degraded: "lexical" as const } : {}),
      ...(version !== undefined ? { catalogVersion: version } : {}),
    };
    this.options.onEvent?.(routingEventOf(decision));
    return decision;
  }

  /** The clauses the router would route `text` as: its clauses when decomposition is on, else `[text]`. */
  clausesOf(text: string, decompose?: boolean): string[] {
    if (decompose === false || (decompose === undefined && !this.decompose.enabled)) return [text];
    return splitClauses(text, this.decompose);
  }

  /**
   * The per-clause queries of a multi-intent request, or undefined when it is not decomposed: decomposition is
   * off, or the first part (the latest user message) holds one clause. Clause i routes as
   * [clause (the first part's weight), the whole first part (× wholeWeight), the other parts as they are].
   */
  private clauseQueries(
    parts: readonly { text: string; weight: number }[],
    override: boolean | undefined,
  ): { text: string; weight: number }[][] | undefined {
    const d = this.decompose;
    if (override === false || (override === undefined && !d.enabled) || parts.length === 0) return undefined;
    const [first, ...rest] = parts;
    const clauses = splitClauses(first.text, d);
    if (clauses.length < 2) return undefined;
    return clauses.map((c) => [
      { text: c, weight: first.weight },
      ...(d.wholeWeight > 0 ? [{ text: first.text, weight: first.weight * d.wholeWeight }] : []),
      ...rest,
    ]);
  }

  /**
   * The query's dense vector, or a QueryEncodeFailure carrying the encoder's error (or the timeout). A success
   * ends a failure episode.
   */
  private async encodeQuery(parts: readonly { text: string; weight: number }[]): Promise<number[]> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const encoding = this.queryVector(parts);
      const limit = this.fallback?.timeoutMs;
      const vector = limit
        ? await Promise.race([
            encoding,
            new Promise<never>((_, reject) => {
              // Not unref'd: a route waiting on a silent encoder must keep the process alive until the limit.
              timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
            }),
          ])
        : await encoding;
      // A vector the index cannot use would turn every score into NaN: that is a failure too.
      if (!Array.isArray(vector) && !ArrayBuffer.isView(vector)) throw new Error(`the encoder returned ${typeof vector}, not a vector`);
      const dim = this.channels.dense?.dim;
      if (dim !== undefined && vector.length !== dim) throw new Error(`the encoder returned a vector of ${vector.length} dimensions, the index has ${dim}`);
      for (let d = 0; d < vector.length; d++) if (!Number.isFinite(vector[d])) throw new Error(`the encoder returned a vector holding ${vector[d]}`);
      this.failing = undefined;
      return vector;
    } catch (err) {
      throw new QueryEncodeFailure(err);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** Starts (and logs, once) or continues an encoder failure episode. */
  private noteEncoderFailure(error: unknown): void {
    if (this.failing) {
      this.failing.routes++;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.failing = { since: Date.now(), error: message, routes: 1 };
    const line =
      `tool-attention: encoder ${this.denseModelId} failed on a query (${message.split("\n")[0].slice(0, 300)}); ` +
      `routing on the lexical channel until it answers again`;
    if (this.options.log !== false) (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  /** The current encoder failure episode (since when, the first error, routes degraded so far), if any. */
  get encoderFailure(): { since: number; error: string; routes: number } | undefined {
    return this.failing ? { ...this.failing } : undefined;
  }

  /** BM25 over a catalog for a router without a lexical channel, built when its encoder first fails. */
  private lexicalFallback(catalog: ToolCatalog): Bm25Index {
    if (this.fallbackBm25?.catalog !== catalog) {
      const index = this.lexicalIndex(catalog, typeof this.options.lexical === "object" ? this.options.lexical : {});
      this.fallbackBm25 = { catalog, index };
    }
    return this.fallbackBm25.index;
  }

  /**
   * Scores every tool for one (weighted) query: each channel, fused (see fusion.ts), then the tag filter/boost. On
   * an HNSW index only candidates get a score (see candidates.ts), at least `slateN` per channel; others -Infinity.
   */
  private async scoreParts(
    parts: readonly { text: string; weight: number }[],
    tools: readonly ToolRecord[],
    ch: Channels,
    lexicalOnly: boolean,
    tags: TagFilter | undefined,
    queryVector: ArrayLike<number> | undefined,
    encoded: { at: number },
    slateN = 0,
  ): Promise<{ scores: Float32Array; ids?: Int32Array }> {
    const n = tools.length;
    let scores: Float32Array;
    let lexical: Float32Array | undefined;
    let ids: Int32Array | undefined;
    if (ch.dense) {
      const qv = queryVector && queryVector.length > 0 ? queryVector : await this.encodeQuery(parts);
      encoded.at = performance.now();
      if (ch.dense.kind === "hnsw") {
        // Approximate path: only the candidates get a score, and every channel visits only them.
        const lex = ch.lexical?.scoreSparse(parts);
        const cand = candidateScores(ch.dense as HnswIndex, qv, lex, Math.max(slateN, (this.ann && this.ann.candidates) || DEFAULT_ANN_CANDIDATES));
        ({ scores, ids } = cand);
        if (ch.multi && this.multiVector) blendMaxSim(scores, ch.multi.maxSim(qv), this.multiVector.weight);
        if (ch.server) ch.server.addToCandidates(scores, qv, this.serverWeight, ids);
        if (lex) addWeightedAt(scores, lex.scores, this.lexicalWeight, ids);
        lexical = undefined;
      } else {
        lexical = ch.lexical?.scoreAll(parts);
        scores = ch.dense.scoreAll(qv);
        if (ch.multi && this.multiVector) blendMaxSim(scores, ch.multi.maxSim(qv), this.multiVector.weight);
        if (ch.server) ch.server.addTo(scores, qv, this.serverWeight);
        if (lexical) addWeighted(scores, lexical, this.lexicalWeight);
      }
    } else {
      encoded.at = performance.now();
      scores = new Float32Array(n);
      lexical = ch.lexical?.scoreAll(parts);
      if (lexical) addWeighted(scores, lexical, lexicalOnly ? 1 : this.lexicalWeight);
    }
    const only = tags?.only?.length ? new Set(tags.only) : undefined;
    const boost = tags?.boost?.length ? new Set(tags.boost) : undefined;
    if (only || boost)
      for (let i = 0; i < n; i++) {
        if (only && !ToolAttentionRouter.hasTag(tools[i], only)) scores[i] = Number.NEGATIVE_INFINITY;
        else if (boost && ToolAttentionRouter.hasTag(tools[i], boost)) scores[i] += this.tagBoost;
      }
    return ids ? { scores, ids } : { scores };
  }

  private positions?: { tools: readonly ToolRecord[]; byId: Map<string, number> };
  /** Position of a tool id in the catalog (and index rows), -1 when absent; rebuilt when the tool list changes. */
  private positionOf(id: string): number {
    if (this.positions?.tools !== this.catalog.tools) {
      const byId = new Map<string, number>();
      this.catalog.tools.forEach((t, i) => byId.set(t.id, i));
      this.positions = { tools: this.catalog.tools, byId };
    }
    return this.positions.byId.get(id) ?? -1;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Catalog updates (e.g. an MCP server's notifications/tools/list_changed)
  // ---------------------------------------------------------------------------------------------------------

  /**
   * Tool text → dense vector of every text embedded so far; a catalog update embeds only texts not in it. Float32
   * (the index's precision): at 100,000 tools a number[] per text would hold twice the memory for nothing.
   */
  private vectorByText = new Map<string, Float32Array>();
  /**
   * Rows loaded from an index snapshot whose tool texts were never made (a warm start skips the text processing);
   * the next `embedTexts` keys them by text first, so a catalog change reuses them like embedded vectors.
   */
  private unkeyedRows?: { catalog: ToolCatalog; rows: Float32Array[] };
  /** How many texts the last `embedTexts` call sent to the encoder. */
  private lastEmbedded = 0;

  /**
   * Dense vectors of one catalog's tool texts, embedding only those not seen before (duplicates once). Only the
   * texts of this call are kept, so a long-running session does not grow without bound.
   */
  private async embedTexts(texts: readonly string[]): Promise<Float32Array[]> {
    const known = this.vectorByText;
    if (this.unkeyedRows) {
      const { catalog, rows } = this.unkeyedRows;
      this.unkeyedRows = undefined;
      this.toolTexts(catalog).forEach((t, i) => known.set(t, rows[i]!));
    }
    // Hashed lexical vectors depend on the whole corpus (idf): re-fit on every text instead of reusing any.
    if (this.embeddings instanceof LexicalEmbeddings) known.clear();
    const missing = [...new Set(texts.filter((t) => !known.has(t)))];
    this.lastEmbedded = missing.length;
    if (missing.length > 0) {
      const fresh = await (this.embeddings as EmbeddingsInterface).embedDocuments(missing);
      if (fresh.length !== missing.length)
        throw new Error(`Encoder ${this.modelId} returned ${fresh.length} vectors for ${missing.length} tool texts`);
      missing.forEach((t, i) => known.set(t, Float32Array.from(fresh[i])));
    }
    const rows = texts.map((t) => known.get(t) as Float32Array);
    const used = new Set(texts);
    for (const t of known.keys()) if (!used.has(t)) known.delete(t);
    return rows;
  }

  /**
   * Swaps in a new catalog (tools added, changed or removed) without re-embedding what is unchanged: only tool
   * texts never embedded before go to the encoder; the BM25 index is rebuilt (cheap, and its idf depends on the
   * whole corpus). Catalog, index, BM25, schema cache and token counts switch in one synchronous step, so a
   * removed tool leaves the active set from the next route on.
   */
  async replaceCatalog(next: ToolCatalog): Promise<CatalogUpdate> {
    await this.prepare();
    if (!this.storeBinding) return this.swapCatalog(next);
    // With a store: embed (through the store), publish, then swap with the version the store gave.
    return this.inCatalogOrder(() => this.swapCatalog(next, () => this.publishFor(next)));
  }

  /**
   * Builds the channels of `next` and swaps catalog, channels (and with a store, the version) in one synchronous
   * step. `beforeSwap` runs after the build (publishing needs the texts embedded first, so followers find them).
   */
  private async swapCatalog(next: ToolCatalog, beforeSwap?: () => Promise<CatalogVersionInfo>): Promise<CatalogUpdate> {
    const prev = this.catalog;
    this.lastEmbedded = 0;
    const stored = this.embeddings instanceof StoreEmbeddings ? this.embeddings.stats.embedded : undefined;
    const channels = await this.buildChannels(next);
    // With a store, texts another process embedded are read, not embedded: count what this process's encoder did.
    const embedded = stored !== undefined ? (this.embeddings as StoreEmbeddings).stats.embedded - stored : this.lastEmbedded;
    const version = beforeSwap ? await beforeSwap() : this.version;

    const added: string[] = [];
    const changed: string[] = [];
    for (const t of next.tools) {
      const old = prev.getById(t.id);
      if (!old) added.push(t.id);
      else if (
        old.routingText !== t.routingText ||
        old.description !== t.description ||
        JSON.stringify(old.inputSchema) !== JSON.stringify(t.inputSchema) ||
        old.name !== t.name
      )
        changed.push(t.id);
    }
    const removed = prev.tools.filter((t) => !next.getById(t.id)).map((t) => t.id);

    // Synchronous swap: no route can observe a catalog and an index that do not belong together.
    (this as unknown as { catalog: ToolCatalog }).catalog = next;
    this.channels = channels;
    this.version = version;
    this.loader.replaceCatalog(next, [...added, ...changed, ...removed]);
    this.poolMemo = undefined;
    this.startFullSchemaTokens();
    const always = (this.options.alwaysInclude ?? []).map((n) => next.resolve(n)?.id).filter((id): id is string => !!id);
    this.alwaysIds.splice(0, this.alwaysIds.length, ...always);
    return { added, changed, removed, embedded, ...(version ? { version: version.version } : {}) };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Shared store (options.store): catalog versions published and followed
  // ---------------------------------------------------------------------------------------------------------

  /** The store version of the catalog the router routes on; undefined without a store (or before `prepare()`). */
  get catalogVersion(): CatalogVersionInfo | undefined {
    return this.version ? { ...this.version } : undefined;
  }

  /** Runs catalog changes one at a time. */
  private inCatalogOrder<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.catalogChain.then(fn);
    this.catalogChain = run.catch(() => undefined);
    return run;
  }

  private async publishFor(catalog: ToolCatalog): Promise<CatalogVersionInfo> {
    const { created: _created, ...info } = await (this.storeBinding as RouterStoreBinding).publish(catalog);
    return info;
  }

  /** At the end of `prepare()`: publish the first catalog (or find its version) and start following. */
  private async joinStore(): Promise<void> {
    const binding = this.storeBinding;
    if (!binding) return;
    const { created: _created, ...info } = await binding.publish(this.catalog);
    this.version = info;
    if (binding.follow && !this.unwatch) {
      this.unwatch = await binding.watch((v) => void this.followVersion(v.version));
      // A version published between our publish and the subscription would otherwise go unheard.
      const latest = await binding.latestVersion();
      if (latest && latest.version > info.version) await this.followVersion(latest.version);
    }
  }

  /**
   * Switches to a version another process published, unless the router is already on it or a later one. A version
   * holding the catalog the router already has only renumbers it; otherwise its catalog is rebuilt from the
   * snapshot and swapped in (its texts are in the store already: the publisher embedded them first).
   */
  private followVersion(target: number): Promise<void> {
    const binding = this.storeBinding as RouterStoreBinding;
    return this.inCatalogOrder(async () => {
      if (this.version && this.version.version >= target) return;
      const found = await binding.catalogOf(target, this.catalog);
      if (!found) return;
      if (this.version && found.info.digest === this.version.digest) {
        this.version = found.info;
        return;
      }
      await this.swapCatalog(found.catalog, async () => found.info);
    }).catch((err) => {
      const line = `tool-attention: could not follow catalog "${binding.catalog}" version ${target} from the ${binding.store.kind} store (${(err as Error)?.message ?? err}); routing on version ${this.version?.version}`;
      if (this.options.log !== false) (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
    });
  }

  /**
   * Waits until the router routes on `version` (or a later one) of its store catalog: for tests and for a deployment
   * step that must not continue before every process switched. Rejects after `timeoutMs`.
   */
  async waitForCatalogVersion(version: number, timeoutMs = 30_000): Promise<CatalogVersionInfo> {
    await this.prepare();
    if (!this.storeBinding) throw new Error("waitForCatalogVersion: the router has no store (options.store)");
    const deadline = Date.now() + timeoutMs;
    while (!this.version || this.version.version < version) {
      if (Date.now() > deadline) throw new Error(`waitForCatalogVersion: still on version ${this.version?.version} after ${timeoutMs} ms (waiting for ${version})`);
      // Ask the store too: a caller waiting should not depend on the notification's timing alone.
      const latest = await this.storeBinding.latestVersion();
      if (latest && latest.version >= version) await this.followVersion(latest.version);
      else await new Promise((r) => setTimeout(r, 50));
    }
    return { ...this.version };
  }

  /**
   * Stops following the store's catalog versions, and a full-schema token count in progress (at its next slice; a
   * route waiting for it rejects). The router still routes afterwards (a later route counts again). The store stays
   * open: it is the application's to close.
   */
  async close(): Promise<void> {
    this.lifetime.abort(new Error("ToolAttentionRouter: closed while counting the catalog's full-schema tokens"));
    this.lifetime = new AbortController();
    this.unwatch?.();
    this.unwatch = undefined;
    await this.catalogChain;
  }
}
