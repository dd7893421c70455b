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
 * The expensive part — embedding the catalog and building the index — happens once per catalog and is cached on
 * disk (or in the store) by the encoder layer; a turn costs one query embedding, one index search and a few
 * precondition checks. A large catalog starts progressively (`RouterOptions.progressive`): it is routable on its
 * BM25 channel as soon as that is built, the encoder embeds in the background, and the dense channels join all at
 * once when the build is done. All at once rather than chunk by chunk: a tool with a vector and a tool without one
 * would score on different scales (cosine + BM25 against BM25 alone), and no θ fits both.
 *
 * The class holds the wiring; each mechanism lives in its layer:
 * - options.ts: every option, validated and resolved once (`routerSettingsOf`);
 * - pipeline.ts, fusion.ts, select.ts: the stages of a route;
 * - channels/build.ts: the channels of a catalog, built and swapped together;
 * - encoders/router-encoder.ts: the encoder, the vectors embedded so far, query encodes and failure episodes;
 * - store/router-snapshots.ts, store/catalog-follower.ts: index snapshots, and catalog versions published and
 *   followed through a store;
 * - render/router-tokens.ts: the pool and the token accounting.
 */
import { createHash } from "node:crypto";
import { estimatedCatalogSchemaTokens } from "../tokens/estimate.js";
import type { ToolCatalog } from "../catalog/catalog.js";
import { resolveEncoder } from "../encoders/index.js";
import type { Bm25Index } from "../encoders/bm25.js";
import { toolTextsOf } from "../encoders/dense-texts.js";
import { loadStaticTable } from "../encoders/static-table.js";
import { QueryEncodeFailure, RouterEncoder, type EncoderFailure, type QueryPart } from "../encoders/router-encoder.js";
import { describeIndexFor, type VectorIndex } from "../index/vector-index.js";
import { LazySchemaLoader } from "../loader/schema-loader.js";
import { emptyStateView } from "../preconditions/preconditions.js";
import type { PoolOptions, PoolTier } from "../render/render.js";
import { RouterTokens } from "../render/router-tokens.js";
import { DEFAULT_ENCODING, type TokenEncoding } from "../tokens/count.js";
import { routingEventOf } from "../events/events.js";
import type { AgentStateView, RoutingChannel, RoutingDecision } from "../types.js";
import { RouterStoreBinding } from "../store/binding.js";
import { CatalogFollower, diffCatalogs, type CatalogUpdate, type FollowerHost } from "../store/catalog-follower.js";
import { RouterSnapshots } from "../store/router-snapshots.js";
import type { CatalogVersionInfo } from "../store/types.js";
import {
  buildChannels,
  buildLexicalChannel,
  catalogLexicalIndex,
  channelNamesOf,
  type ChannelBuildContext,
  type Channels,
} from "./channels/build.js";
import { BuildTracker, type RouterHealth } from "./health.js";
import { splitClauses } from "./clauses.js";
import { checkRouterOptions } from "./option-keys.js";
import {
  DEFAULT_ENCODER,
  DEFAULT_LEXICAL_THETA,
  routerSettingsOf,
  slateSize,
  STATIC_CHANNEL_MAX_TOOLS,
  validateNumber,
  validateTheta,
  type RouteOptions,
  type RouteQuery,
  type RouterOptions,
  type RouterSettings,
  type ThetaRange,
} from "./options.js";
import { clauseQueries, queryParts, scoreSlate, type ScoringRoute, type ScoringSettings, type Slate } from "./pipeline.js";
import { coUsageOf } from "../anticipation/co-usage.js";
import { buildStaticIndex, staticTableServes } from "./channels/static.js";
import { selectActive } from "./select.js";

export {
  DEFAULT_THETA,
  DEFAULT_LEXICAL_THETA,
  DEFAULT_HASHED_LEXICAL_THETA,
  DEFAULT_LEXICAL_WEIGHT,
  DEFAULT_ENCODER,
  DEFAULT_K,
  DEFAULT_MIN_ACTIVE,
  DEFAULT_DECOMPOSE_WHOLE_WEIGHT,
  DEFAULT_PROGRESSIVE_MIN_TOOLS,
  DEFAULT_STATIC_WAIT_MS,
  STATIC_CHANNEL_MAX_TOOLS,
  defaultThetaFor,
  slateSize,
  thetaRangeOf,
  type DecomposeOptions,
  type EncoderFallbackOptions,
  type LexicalChannelOptions,
  type ProgressiveOptions,
  type RouteOptions,
  type RouteQuery,
  type RouterOptions,
  type TagFilter,
  type ThetaRange,
} from "./options.js";
export type { CatalogUpdate } from "../store/catalog-follower.js";
export type { RouterHealth, RouterBuildState } from "./health.js";
import { settledWithin } from "../util/settled-within.js";

/** Index and encoder lines already written (once per process and backend). */
const loggedBackends = new Set<string>();

export class ToolAttentionRouter {
  readonly theta: number;
  /** The scores this router's encoder produces; θ (option or per route) must lie in this range. */
  readonly thetaRange: ThetaRange;
  readonly k: number;
  readonly encoding: TokenEncoding;
  readonly loader: LazySchemaLoader;
  readonly margin?: number;
  readonly tagBoost: number;
  readonly minActive: number;
  /** The options resolved (see options.ts). */
  private readonly settings: RouterSettings;
  private readonly encoder: RouterEncoder;
  /** What every route's scoring reads (built once: a route allocates none of it). */
  private readonly scoring: ScoringSettings;
  private readonly snapshots: RouterSnapshots;
  private readonly tokens: RouterTokens;
  /** What a channel build reads (built once). */
  private readonly channelBuild: ChannelBuildContext;
  /** The scoring channels built for the current catalog; replaced as one object when the catalog changes. */
  private channels: Channels = {};
  /** BM25 built on the first encoder failure of a router without a lexical channel, for that catalog. */
  private fallbackBm25?: { catalog: ToolCatalog; index: Bm25Index };
  /** The store's side of catalog changes, when `options.store` is set. */
  private readonly follower?: CatalogFollower;
  private readonly alwaysIds: string[];
  /** Called once the first route is answered (or on prepare()): the catalog's background screening may start. */
  private firstRouted: () => void = () => undefined;
  /** A progressive start's store join, running behind the first routes (see `doStart`). */
  private joining?: Promise<void>;
  /** Why that join failed, until `prepare()` tries again. */
  private joinFailed?: unknown;
  /** Until the router can route (the first catalog's channels, or in a progressive start its lexical channel). */
  private starting?: Promise<void>;
  /** The static channel being made for a progressive build (see `startStatic`): routes wait for it a while. */
  private staticPending?: { catalog: ToolCatalog; done: Promise<void> };
  /** The dense build running in the background for the current catalog, if any (never rejects). */
  private pending?: Promise<void>;
  /** Dense builds one after another: two at once would evict each other's vectors (RouterEncoder.embedTexts). */
  private denseChain: Promise<unknown> = Promise.resolve();
  /** The encoder's load (once; forgotten on failure, so a later build tries again). */
  private encoderLoad?: Promise<void>;
  /** The dense build's state for `health()`. */
  private readonly build = new BuildTracker();
  private turnCounter = 0;
  /** Set by `close()`: a background build stops at its next chunk. */
  private closed = false;

  constructor(
    readonly catalog: ToolCatalog,
    private readonly options: RouterOptions = {},
  ) {
    checkRouterOptions("ToolAttentionRouter", options);
    const s = (this.settings = routerSettingsOf(options));
    this.theta = s.theta;
    this.thetaRange = s.thetaRange;
    this.k = s.k;
    this.margin = s.margin;
    this.tagBoost = s.tagBoost;
    this.minActive = s.minActive;
    const log = (line: string) => this.logLine(line);
    this.encoder = new RouterEncoder(options.toolText, s.fallback?.timeoutMs, log);
    this.scoring = {
      encoder: this.encoder,
      fusion: { lexical: s.lexicalWeight, multiVector: s.multiVector?.weight ?? 0, server: s.serverWeight, annCandidates: s.annCandidates },
      tagBoost: s.tagBoost,
      ...(s.progressive ? { staticRerank: { top: s.progressive.rerankTop, waitMs: s.progressive.rerankWaitMs } } : {}),
    };
    this.encoding = options.encoding ?? DEFAULT_ENCODING;
    this.loader = options.schemas instanceof LazySchemaLoader ? options.schemas : new LazySchemaLoader(catalog, options.schemas);
    const binding = options.store !== undefined ? new RouterStoreBinding(options.store, log) : undefined;
    // The follower reads the router's catalog at each change (not the constructor's) and swaps through the router.
    const host: FollowerHost = { catalog: () => this.catalog, swapTo: (next, info) => this.swapCatalog(next, async () => info) };
    if (binding) this.follower = new CatalogFollower(binding, host, log);
    this.snapshots = new RouterSnapshots({ binding, cacheDir: options.cacheDir, ann: s.ann, toolText: options.toolText, encoder: this.encoder, log });
    this.tokens = new RouterTokens({
      encoding: this.encoding,
      pool: options.pool,
      loader: this.loader,
      localSchemas: options.schemas === undefined,
      cache: () => this.snapshots.blobCache(),
      log,
    });
    this.channelBuild = {
      settings: s,
      encoder: this.encoder,
      snapshots: this.snapshots,
      toolText: options.toolText,
      prefer: options.index ?? "auto",
      currentDim: () => this.channels.dense?.dim,
    };
    // The catalog's background screening waits for this router's first route (or prepare()): see deferScreening.
    catalog.deferScreening(new Promise<void>((resolve) => (this.firstRouted = resolve)));
    this.alwaysIds = (options.alwaysInclude ?? []).map((n) => {
      const r = catalog.resolve(n);
      if (!r) throw new Error(`alwaysInclude names "${n}", which is not in the catalog`);
      return r.id;
    });
  }

  /**
   * Embeds the catalog and builds every channel (once; later calls await the same work, or a catalog change's): resolves when the whole
   * hybrid serves, including after a progressive start's background build. When the encoder cannot load or fails
   * while embedding, it resolves all the same with the router routing on the lexical channel (see `health()`), unless
   * `encoderFallback` is false (strict mode): then it rejects with the encoder's error. Evaluation code calls it
   * before measuring the hybrid; an application need not (a route waits only until the router can route).
   */
  async prepare(): Promise<void> {
    this.firstRouted();
    await this.start();
    // Each call waits for the build in progress then (a catalog change may have started one since the last call),
    // and for the catalog's background screening (ToolCatalog, "Progressive screening").
    await Promise.all([this.whenBuilt(), this.whenScreened(), this.joined(), this.snapshots.settled()]);
  }

  /** Waits until the router's catalog is screened whole (and the catalog swapped in meanwhile, if any). */
  private async whenScreened(): Promise<void> {
    for (let catalog = this.catalog; ; catalog = this.catalog) {
      try {
        await catalog.whenScreened();
      } catch (err) {
        // A replaced catalog's background is stopped (swapCatalog): the current one is what counts.
        if (catalog === this.catalog) throw err;
      }
      if (catalog === this.catalog) return;
    }
  }

  /** Resolves when a route answers without waiting: after the whole build, or in a progressive start once BM25 is built. */
  whenRoutable(): Promise<void> {
    return this.start();
  }

  /** Makes the router routable: the whole build, or in a progressive start the lexical channel (once). */
  private start(): Promise<void> {
    this.starting ??= this.doStart().catch((err) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  /** Waits for the background build of the current catalog, and of any catalog swapped in meanwhile. */
  private async whenBuilt(): Promise<void> {
    while (this.pending) await this.pending;
  }

  /**
   * Where the router stands: building (routing lexically while the encoder embeds), ready or degraded (the encoder
   * failed; routing lexically), with the channels serving now and the build's progress. Cheap: read it per request
   * for a health endpoint.
   */
  health(): RouterHealth {
    const b = this.build;
    return {
      state: this.settings.lexicalOnly && this.channels.lexical ? "ready" : b.state,
      routable: this.channels.lexical !== undefined || this.channels.dense !== undefined,
      channels: channelNamesOf(this.channels),
      encoder: this.encoder.modelId,
      tools: this.catalog.size,
      screening: this.catalog.screeningProgress(),
      embedded: b.embedded,
      total: b.total,
      ...(b.error !== undefined ? { error: b.error } : {}),
      since: b.since,
    };
  }

  /**
   * Whether routes are served by the lexical channel alone while the catalog is embedded in the background (a
   * progressive start, or a large catalog change): what a caller may plan on estimates for, rather than wait.
   */
  routesLexicallyWhileEmbedding(): boolean {
    return this.build.state === "building" && this.settings.progressive !== undefined && this.channels.lexical !== undefined && !this.builtDense;
  }

  /** The text embedded for each tool under the router's `toolText` options. */
  toolTexts(catalog: ToolCatalog = this.catalog): string[] {
    return toolTextsOf(catalog, this.options.toolText);
  }

  private logLine(line: string): void {
    if (this.options.log !== false) (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  private async doStart(): Promise<void> {
    const binding = this.follower?.binding;
    // The catalog's digest (seconds on 100,000 tools) runs in slices while the channels load.
    binding?.prime(this.catalog);
    if (this.settings.lexicalOnly) {
      this.encoder.useLexicalOnly();
      this.tokens.startFullSchemaTokens(this.catalog);
      this.channels = await buildChannels(this.catalog, this.channelBuild);
      this.build.ready(this.catalog);
      await this.follower?.join();
      return;
    }
    // store.initial "adopt": route on the store's latest catalog instead of embedding the constructor's.
    const adopted = await binding?.adoptable(this.catalog);
    let countWhenRoutable = false;
    if (adopted) await this.swapCatalog(adopted.catalog, async () => adopted.info);
    else {
      // Counted while the catalog is embedded or loaded, not on the first route. A progressive start counts once it is
      // routable: its first routes plan on an estimate, and the count's slices would only delay them (a second or
      // more of this thread at 10,000 tools).
      countWhenRoutable = this.progressiveFor(this.catalog);
      if (!countWhenRoutable) this.tokens.startFullSchemaTokens(this.catalog);
      const { channels, later } = await this.channelsFor(this.catalog);
      this.channels = channels;
      if (later) this.completeLater(this.catalog, channels.lexical);
      // A progressive start is routable now: publishing the catalog to the store (its snapshot and digest: most of a
      // second at 10,000 tools, and round trips) and subscribing to its versions go on behind the first routes.
      // prepare() and a catalog change wait for them.
      if (later && this.follower) {
        this.joinLater();
        return this.afterStart(countWhenRoutable);
      }
    }
    await this.follower?.join();
    this.afterStart(countWhenRoutable);
  }

  private afterStart(countWhenRoutable: boolean): void {
    if (countWhenRoutable) this.tokens.startFullSchemaTokens(this.catalog);
    if (this.build.state === "ready") this.logBackends();
  }

  /** The store join of a progressive start, in the background (see doStart); a failure is logged and tried again by `prepare()`. */
  private joinLater(): void {
    const joining = this.follower!.join().catch((err: unknown) => {
      if (this.joining === joining) this.joining = undefined;
      this.joinFailed = err;
      this.logLine(`tool-attention: could not publish the catalog to the ${this.follower!.binding.store.kind} store (${(err as Error)?.message ?? err}); routing on it unpublished (prepare() tries again)`);
    });
    this.joining = joining;
    this.joinFailed = undefined;
  }

  /** Waits for a background store join (see `joinLater`); rejects when it failed, after trying again. */
  private async joined(): Promise<void> {
    await this.joining;
    if (this.joinFailed !== undefined && this.follower) {
      this.joinFailed = undefined;
      await this.follower.join();
    }
  }

  /** The one informational line saying which index and encoder serve (only to a log the user passed, once per process). */
  private logBackends(): void {
    const binding = this.follower?.binding;
    const line = `tool-attention: ${describeIndexFor(this.catalog.size, this.channelBuild.prefer, this.settings.ann)}; encoder: ${this.encoder.modelId}${binding ? `; store: ${binding.store.kind}` : ""}`;
    // Informational: only to a log the user passed (a library prints nothing unasked when all is well).
    if (typeof this.options.log === "function" && !loggedBackends.has(line)) {
      loggedBackends.add(line);
      this.logLine(line);
    }
  }

  /** Resolves the encoder (once; a failed load is tried again by the next build). */
  private loadEncoder(): Promise<void> {
    this.encoderLoad ??= (async () => {
      const binding = this.follower?.binding;
      // With a store, vectors persist there: the disk cache only when asked for.
      const cacheDir = binding && this.options.cacheDir === undefined ? false : this.options.cacheDir;
      const enc = await resolveEncoder(this.options.encoder ?? DEFAULT_ENCODER, { cacheDir });
      const embeddings = binding ? binding.wrap(enc.embeddings, enc.modelId) : enc.embeddings;
      this.encoder.use(embeddings, enc.name, enc.modelId, this.settings.lexicalOptions !== undefined);
    })().catch((err) => {
      this.encoderLoad = undefined;
      throw err;
    });
    return this.encoderLoad;
  }

  /** Whether `catalog` is routed lexically while it embeds (see `RouterOptions.progressive`). */
  private progressiveFor(catalog: ToolCatalog): boolean {
    const p = this.settings.progressive;
    if (!p || catalog.size < p.minTools) return false;
    // Before the encoder has loaded nothing is embedded; after, only the texts this router has no vector for count.
    if (!this.encoder.embeddings) return true;
    return this.encoder.countMissing(this.toolTexts(catalog)) >= Math.max(1, p.minTools);
  }

  /**
   * The channels `catalog` routes on from its swap on: all of them (built now), or for a progressive build its
   * lexical channel alone (`later`: the rest is built by `completeLater` once the catalog is swapped in). When the
   * encoder fails, the lexical channel alone, degraded (strict mode: the error propagates).
   */
  private async channelsFor(catalog: ToolCatalog): Promise<{ channels: Channels; later: boolean }> {
    if (this.progressiveFor(catalog)) {
      this.build.start(catalog);
      return { channels: { lexical: await this.lexicalOf(catalog) }, later: true };
    }
    try {
      return { channels: (await this.buildDense(catalog)) as Channels, later: false };
    } catch (err) {
      if (!this.settings.fallback) throw err;
      this.degrade(catalog, err);
      return { channels: { lexical: await this.lexicalOf(catalog) }, later: false };
    }
  }

  /** The BM25 index a lexical route of `catalog` scores on: the lexical channel, or for a dense-only router its fallback. */
  private async lexicalOf(catalog: ToolCatalog): Promise<Bm25Index> {
    return (await buildLexicalChannel(catalog, this.channelBuild)) ?? this.lexicalFallback(catalog);
  }

  /**
   * Loads the encoder and builds every channel of `catalog`, after the dense builds before it. `wholeOnly`: without
   * the multi-vector rows (a background build's first step; the build stays "building").
   */
  private buildDense(catalog: ToolCatalog, lexical?: Bm25Index, skipIfStale = false, wholeOnly = false): Promise<Channels | undefined> {
    const run = this.denseChain.then(async () => {
      // A background build whose catalog was replaced meanwhile has nothing left to do.
      if (skipIfStale && this.catalog !== catalog) return undefined;
      this.build.start(catalog);
      await this.loadEncoder();
      // Only the router's own lexical channel is reused: a dense-only router's fallback BM25 is not a channel of its hybrid.
      const reuse = this.settings.lexicalOptions ? lexical : undefined;
      const progress = (r: number, t: number) => {
        this.build.progress(catalog, r, t);
        // Checked between chunks: a closed router stops embedding (what was embedded is kept by the cache or store).
        if (this.closed) throw new Error("ToolAttentionRouter: closed while embedding the catalog");
      };
      const cx = wholeOnly ? { ...this.channelBuild, settings: { ...this.settings, multiVector: undefined } } : this.channelBuild;
      const channels = await buildChannels(catalog, cx, { lexical: reuse, progress });
      if (!wholeOnly) this.build.ready(catalog);
      return channels;
    });
    this.denseChain = run.catch(() => undefined);
    return run as Promise<Channels>;
  }

  /**
   * The static channel of `catalog`'s progressive phase (see channels/static.ts), swapped in beside BM25 once the
   * encoder has loaded (its query vectors are what the static rows are scored against), while `catalog` is still the
   * router's and still without its dense channels. Another encoder, a catalog above `STATIC_CHANNEL_MAX_TOOLS`, or
   * a table that cannot be used leaves the phase on BM25 alone; an encoder that fails to load is the build's to report.
   */
  private startStatic(catalog: ToolCatalog, denseIn: Promise<unknown>): void {
    const p = this.settings.progressive;
    if (!p?.staticChannel || catalog.size === 0 || catalog.size > STATIC_CHANNEL_MAX_TOOLS) return;
    const stillLexical = () => !this.closed && this.catalog === catalog && !this.channels.dense;
    // Informational, like logBackends: only to a log the user passed.
    const note = (why: string) => typeof this.options.log === "function" && this.logLine(`tool-attention: no static channel while the catalog embeds (${why})`);
    const make = async () => {
      // An encoder that fails to load is the build's to report (degraded): the phase stays on BM25.
      if (!(await this.loadEncoder().then(() => true, () => false))) return;
      if (!staticTableServes(this.encoder.denseModelId) || !stillLexical()) return;
      const texts = this.toolTexts(catalog);
      // A warm start: the embedding cache holds (nearly) every vector, so the dense channels are a read away. Routes
      // wait for them (the same bounded wait) instead of for static rows made only to be replaced.
      if ((await this.encoder.countUncached(texts)) < Math.max(1, p.minTools)) return void (await denseIn.catch(() => undefined));
      // Read only now (4 MB, 10–30 ms): a warm start never needs it.
      const table = await loadStaticTable(note);
      if (!table || !stillLexical()) return;
      const dense = await buildStaticIndex(table, texts);
      if (stillLexical()) this.channels = { lexical: this.channels.lexical, dense, static: { texts } };
    };
    const done: Promise<void> = make()
      .catch((err: unknown) => void note((err as Error)?.message ?? String(err)))
      .finally(() => {
        if (this.staticPending?.done === done) this.staticPending = undefined;
      });
    this.staticPending = { catalog, done };
  }

  /**
   * Builds the dense channels of `catalog` in the background and swaps them in if it is still the router's catalog.
   * A catalog with multi-vector rows (about 4 short texts per tool) gets them in a second step: its whole-text rows,
   * one per tool, are embedded first and serve with the server and lexical channels (still one cosine scale), so the
   * lexical phase lasts about a fifth as long.
   */
  private completeLater(catalog: ToolCatalog, lexical: Bm25Index | undefined): void {
    const mv = this.settings.multiVector;
    const twoSteps = mv !== undefined && mv.weight > 0 && catalog.size > 0 && catalog.size <= mv.maxTools;
    const whole = twoSteps
      ? this.buildDense(catalog, lexical, true, true).then((channels) => {
          if (channels && this.catalog === catalog) this.channels = channels;
        })
      : Promise.resolve();
    const done = whole.then(() => this.buildDense(catalog, lexical, true)).then(
      (channels) => {
        if (!channels || this.catalog !== catalog) return;
        this.channels = channels;
        this.emitBuild("ready", catalog);
        this.logBackends();
      },
      (err) => {
        if (this.catalog !== catalog) return;
        // A stopped or failed build routes on BM25 alone: the static channel only bridges a build that is coming.
        if (this.channels.static) this.channels = { lexical: this.channels.lexical };
        // Stopped by close(): not an encoder failure (nothing to log), but the dense channels are not coming.
        if (this.closed) this.build.fail(catalog, err);
        else this.degrade(catalog, err);
      },
    );
    const pending = done.finally(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    this.pending = pending;
    // The first dense channels: the whole-text rows of a two-step build.
    this.startStatic(catalog, twoSteps ? whole : pending);
  }

  /** The encoder failed on `catalog`'s build: routes stay lexical, one log line and an encoder event say why. */
  private degrade(catalog: ToolCatalog, err: unknown): void {
    const error = this.build.fail(catalog, err);
    const spec = typeof this.options.encoder === "string" || this.options.encoder === undefined ? `"${this.options.encoder ?? DEFAULT_ENCODER}"` : this.encoder.modelId || "(custom)";
    this.logLine(
      `tool-attention: encoder ${spec} failed ${this.encoder.embeddings ? "while embedding the catalog" : "to load"} (${error}); ` +
        `routing ${catalog.size} tools on the lexical channel (health() has the details; encoderFallback: false makes this an error)`,
    );
    this.emitBuild("degraded", catalog);
  }

  private emitBuild(state: "ready" | "degraded", catalog: ToolCatalog): void {
    const b = this.build;
    const version = this.follower?.version?.version;
    this.options.onEvent?.({
      type: "tool_attention.encoder",
      state,
      encoder: this.encoder.denseModelId,
      tools: catalog.size,
      embedded: b.embedded,
      total: b.total,
      seconds: b.seconds(),
      ...(b.error !== undefined && state === "degraded" ? { error: b.error } : {}),
      ...(version !== undefined ? { catalogVersion: version } : {}),
    });
  }

  /**
   * Embeds many queries at once for offline evaluation: batched, and for stateless encoders through the
   * embedding cache, so re-running an evaluation (θ sweeps, benchmarks) does not re-embed its queries.
   * Pass each vector to `route(query, state, { queryVector })`.
   */
  async embedQueries(texts: readonly string[]): Promise<number[][]> {
    await this.prepare();
    // Without a dense channel there is nothing to embed; route() scores the text lexically.
    if (this.settings.lexicalOnly || !this.channels.dense) return texts.map(() => []);
    return this.encoder.embedQueries(texts);
  }

  /** Starts embedding query texts the next route will likely use (see `RouterEncoder.prefetch`); never throws. */
  prefetchQuery(texts: readonly string[]): void {
    if (!this.settings.lexicalOnly && this.channels.dense) this.encoder.prefetch(texts, this.channels.dense.dim);
  }

  /** One line describing the encoder and index in use. */
  describe(): string {
    return `encoder: ${this.encoder.modelId || "(not prepared)"}; index: ${this.indexKind ?? "(not prepared)"}; tools: ${this.catalog.size}`;
  }

  /** The whole-text dense index of the current catalog (read-only use: benchmarks, diagnostics), if any. */
  get denseIndex(): VectorIndex | undefined {
    return this.builtDense;
  }

  /** The dense channel of embedded tool texts: not the static channel's rows that bridge a build. */
  private get builtDense(): VectorIndex | undefined {
    return this.channels.static ? undefined : this.channels.dense;
  }

  get indexKind(): string | undefined {
    return this.builtDense?.kind ?? (this.settings.lexicalOnly && this.channels.lexical ? "bm25" : undefined);
  }

  /** The Phase-1 summary pool (identical on every turn for the same catalog). */
  pool(): string {
    return this.tokens.pool(this.catalog).text;
  }

  /** Tokens of the Phase-1 pool (computed once per catalog: the pool does not change between turns). */
  poolTokens(): number {
    return this.tokens.pool(this.catalog).tokens;
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
    return this.tokens.pool(this.catalog).params;
  }

  /** The layout the pool fits its token budget in: 1 one line per tool, 2 names per server, 3 servers only. */
  poolTier(): PoolTier {
    return this.tokens.pool(this.catalog).tier;
  }

  /**
   * Tokens of the whole catalog's full schemas: what every turn would cost without routing. Counted once per
   * catalog, in slices; on large catalogs whose schemas the catalog holds, kept beside the index snapshots for the
   * next process (see full-schema-tokens.ts).
   */
  fullSchemaTokens(): Promise<number> {
    return this.tokens.fullSchemaTokens(this.catalog);
  }

  /**
   * The catalog's full-schema tokens for a decision. A route of a progressive start's lexical phase does not wait for
   * a count still running (seconds on 10,000 tools, on this thread, in slices), nor does a route while the catalog is
   * screened in the background (the count waits for it): it gets an estimate from the schemas' JSON size instead,
   * flagged `fullSchemaTokensEstimated`.
   */
  private async fullSchemaTokensOf(catalog: ToolCatalog, lexicalPhase: boolean): Promise<{ tokens: number; estimated?: true }> {
    const counting = this.tokens.fullSchemaTokens(catalog);
    if (!lexicalPhase) return { tokens: await counting };
    // Both settled: the count wins (it comes first); still running: the estimate.
    const done = await Promise.race([counting, Promise.resolve(undefined)]);
    return done !== undefined ? { tokens: done } : { tokens: estimatedCatalogSchemaTokens(catalog).total, estimated: true };
  }

  /** Tokens of the given tools' full schemas. */
  schemaTokens(ids: readonly string[]): Promise<number> {
    return this.tokens.schemaTokens(ids);
  }

  /**
   * Routes one query under the given agent state. The query is one text or weighted parts (see `RouteQuery`):
   * dense vectors of the parts are summed by weight, lexical term counts likewise.
   */
  async route(query: RouteQuery, state: AgentStateView = emptyStateView(), opts: RouteOptions = {}): Promise<RoutingDecision> {
    // Only until the router can route: a progressive start's background build is not waited for.
    await this.start();
    // Nor is its static channel, beyond a short wait: most of that wait is the encoder's load, which the query
    // vector needs anyway.
    const making = this.staticPending;
    if (making && making.catalog === this.catalog) await settledWithin(making.done, this.settings.progressive?.staticWaitMs ?? 0);
    const k = opts.k ?? this.k;
    const theta = opts.theta ?? this.theta;
    const margin = opts.margin ?? this.margin;
    validateNumber("k", k, 0, 10_000);
    validateTheta(theta, this.thetaRange);
    if (margin !== undefined) validateNumber("margin", margin, 0, 2);
    const turnId = opts.turnId ?? `turn-${++this.turnCounter}`;
    // Read together: a catalog change swaps catalog, channels and version at once, and index rows refer to these tools.
    const catalog = this.catalog;
    const channels = this.channels;
    const version = this.follower?.version?.version;
    const t0 = performance.now();
    const parts = queryParts(query);

    // channels → fusion (with the thread's likely next tools boosted): one score per tool, and the slate (per
    // clause for a multi-intent request).
    const boosts = opts.anticipate ? coUsageOf(catalog.tools).boosts(opts.anticipate, (n) => catalog.resolve(n), this.settings.anticipationBoost) : undefined;
    const slate = await this.score(parts, catalog, channels, boosts ? { ...opts, boosts } : opts, this.options.slate ?? slateSize(k), t0);
    const tSearched = performance.now();

    // θ (and margin) → preconditions → top-k. A lexical-only slate of a dense router (degraded, or still embedding)
    // is on the lexical scale: its θ, and no margin.
    const lexicalCut = !this.settings.lexicalOnly && !slate.served.includes("dense");
    const cutTheta = lexicalCut ? (this.settings.fallback?.theta ?? DEFAULT_LEXICAL_THETA) : theta;
    const selected = selectActive({
      tools: catalog.tools, slate, state, k, theta: cutTheta, margin: lexicalCut ? undefined : margin, include: opts.include,
      // Always-included ids follow catalog changes: they resolve in the router's catalog as it is now.
      catalog: this.catalog, alwaysIds: this.alwaysIds, minActive: opts.minActive ?? this.minActive,
      // A catalog screening in the background: each tool the route would show is screened first (see ToolCatalog).
      visible: (t, screen) => catalog.isVisible(t, screen),
    });
    // The selection has read the scores (the decision keeps its own copies): the array can serve the next route.
    slate.release?.();
    const tGated = performance.now();

    // Accounting, then the decision and its event.
    const queryText = typeof query === "string" ? query : parts.map((p) => p.text).join("\n");
    // The catalog's count waits for its background screening (full-schema-tokens.ts): meanwhile, routes plan on the estimate too.
    const lexicalPhase = (lexicalCut && this.build.state === "building" && this.settings.progressive !== undefined) || catalog.screeningProgress().pending > 0;
    const [phase2Tokens, full] = await Promise.all([this.schemaTokens(selected.active.map((a) => a.id)), this.fullSchemaTokensOf(catalog, lexicalPhase)]);
    const tCounted = performance.now();
    const decision: RoutingDecision = {
      turnId,
      queryHash: createHash("sha256").update(queryText).digest("hex").slice(0, 12),
      query: queryText,
      theta: cutTheta,
      k,
      active: selected.active,
      gatedOut: selected.gatedOut,
      belowTheta: selected.belowTheta,
      candidates: selected.candidates,
      phase1Tokens: this.poolTokens(),
      phase2Tokens,
      fullSchemaTokens: full.tokens,
      ...(full.estimated ? { fullSchemaTokensEstimated: true as const } : {}),
      latencyMs: { encode: slate.encodedAt - t0, search: Math.max(0, tSearched - slate.encodedAt - slate.fusionMs), fusion: slate.fusionMs, gate: tGated - tSearched, tokens: tCounted - tGated, total: tCounted - t0 },
      channels: slate.served,
      ...(slate.degraded ? { degraded: "lexical" as const } : {}),
      ...(version !== undefined ? { catalogVersion: version } : {}),
    };
    this.options.onEvent?.(routingEventOf(decision));
    this.firstRouted();
    return decision;
  }

  /**
   * Channels → fusion for one route (see pipeline.ts). When the dense encoder fails, the route is scored on BM25
   * alone, unless `encoderFallback` is off (the encoder's error propagates).
   */
  private async score(
    parts: QueryPart[],
    catalog: ToolCatalog,
    channels: Channels,
    opts: ScoringRoute,
    slateN: number,
    t0: number,
  ): Promise<Slate & { served: RoutingChannel[] }> {
    const tools = catalog.tools;
    const clauses = tools.length > 0 ? clauseQueries(parts, opts.decompose, this.settings.decompose) : undefined;
    const lexicalOnly = this.settings.lexicalOnly;
    // A dense router without its dense channels: the catalog is still being embedded, or the encoder failed on it.
    if (!lexicalOnly && !channels.dense) {
      const lexical = { lexical: channels.lexical ?? this.lexicalFallback(catalog) };
      const slate = await scoreSlate(parts, clauses, tools, lexical, true, this.scoring, opts, slateN, t0);
      slate.degraded = this.build.state === "degraded" && this.build.catalog === catalog;
      return Object.assign(slate, { served: ["lexical"] as RoutingChannel[] });
    }
    try {
      const slate = await scoreSlate(parts, clauses, tools, channels, lexicalOnly, this.scoring, opts, slateN, t0);
      return Object.assign(slate, { served: channelNamesOf(channels) });
    } catch (err) {
      if (!(err instanceof QueryEncodeFailure)) throw err;
      if (!this.settings.fallback) throw err.error;
      this.encoder.noteFailure(err.error);
      const lexical = { lexical: channels.lexical ?? this.lexicalFallback(catalog) };
      const slate = await scoreSlate(parts, clauses, tools, lexical, true, this.scoring, opts, slateN, t0);
      slate.degraded = true;
      return Object.assign(slate, { served: ["lexical"] as RoutingChannel[] });
    }
  }

  /** BM25 over a catalog for a router without a lexical channel, built when its encoder first fails. */
  private lexicalFallback(catalog: ToolCatalog): Bm25Index {
    if (this.fallbackBm25?.catalog !== catalog) {
      const index = catalogLexicalIndex(catalog, typeof this.options.lexical === "object" ? this.options.lexical : {}, this.options.toolText);
      this.fallbackBm25 = { catalog, index };
    }
    return this.fallbackBm25.index;
  }

  /** The clauses the router would route `text` as: its clauses when decomposition is on, else `[text]`. */
  clausesOf(text: string, decompose?: boolean): string[] {
    if (decompose === false || (decompose === undefined && !this.settings.decompose.enabled)) return [text];
    return splitClauses(text, this.settings.decompose);
  }

  /** The current encoder failure episode (since when, the first error, routes degraded so far), if any. */
  get encoderFailure(): EncoderFailure | undefined {
    return this.encoder.failure;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Catalog updates (e.g. an MCP server's notifications/tools/list_changed)
  // ---------------------------------------------------------------------------------------------------------

  /**
   * Swaps in a new catalog (tools added, changed or removed) without re-embedding what is unchanged: only tool
   * texts never embedded before go to the encoder; the BM25 index is rebuilt (cheap, and its idf depends on the
   * whole corpus). Catalog, index, BM25, schema cache and token counts switch in one synchronous step, so a
   * removed tool leaves the active set from the next route on.
   */
  async replaceCatalog(next: ToolCatalog): Promise<CatalogUpdate> {
    // Only until the router can route: a catalog change during a progressive start's build is swapped in at once.
    await this.start();
    const follower = this.follower;
    if (!follower) return this.swapCatalog(next);
    // A progressive start's join first: its version comes before this change's.
    await this.joined();
    // With a store: embed (through the store), publish, then swap with the version the store gave.
    return follower.inOrder(() => this.swapCatalog(next, () => follower.publish(next)));
  }

  /**
   * Builds the channels of `next` and swaps catalog, channels (and with a store, the version) in one synchronous
   * step. `beforeSwap` runs after the build (publishing after the texts are embedded lets followers find them). A
   * change bringing many new texts (`progressive.minTools`) is swapped in with its lexical channel and embedded
   * after (`embedded` is then 0); with a store, followers then wait for this process's vectors (or embed them) through
   * the store's embedding leases, so each text is still embedded once.
   */
  private async swapCatalog(next: ToolCatalog, beforeSwap?: () => Promise<CatalogVersionInfo>): Promise<CatalogUpdate> {
    const prev = this.catalog;
    const embedded = this.encoder.countEmbedded();
    const { channels, later } = this.settings.lexicalOnly ? { channels: await buildChannels(next, this.channelBuild), later: false } : await this.channelsFor(next);
    const count = later ? 0 : embedded();
    const version = beforeSwap ? await beforeSwap() : this.follower?.version;
    const { added, changed, removed } = diffCatalogs(prev, next);

    // Synchronous swap: no route can observe a catalog and an index that do not belong together.
    (this as unknown as { catalog: ToolCatalog }).catalog = next;
    this.channels = channels;
    if (this.follower) this.follower.version = version;
    this.loader.replaceCatalog(next, [...added, ...changed, ...removed]);
    // The replaced catalog's background screening has nobody left to serve (an MCP server re-listing its tools often
    // would otherwise keep one screening thread per stale catalog busy); lookups on it still screen on demand.
    if (prev !== next) prev.stopScreening();
    this.tokens.forgetPool();
    this.tokens.startFullSchemaTokens(next);
    const always = (this.options.alwaysInclude ?? []).map((n) => next.resolve(n)?.id).filter((id): id is string => !!id);
    this.alwaysIds.splice(0, this.alwaysIds.length, ...always);
    if (later) this.completeLater(next, channels.lexical);
    return { added, changed, removed, embedded: count, ...(version ? { version: version.version } : {}) };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Shared store (options.store): catalog versions published and followed (see store/catalog-follower.ts)
  // ---------------------------------------------------------------------------------------------------------

  /** The store version of the catalog the router routes on; undefined without a store (or before `prepare()`). */
  get catalogVersion(): CatalogVersionInfo | undefined {
    const version = this.follower?.version;
    return version ? { ...version } : undefined;
  }

  /**
   * Waits until the router routes on `version` (or a later one) of its store catalog: for tests and for a deployment
   * step that must not continue before every process switched. Rejects after `timeoutMs`.
   */
  async waitForCatalogVersion(version: number, timeoutMs = 30_000): Promise<CatalogVersionInfo> {
    await this.prepare();
    if (!this.follower) throw new Error("waitForCatalogVersion: the router has no store (options.store)");
    return this.follower.waitFor(version, timeoutMs);
  }

  /**
   * Stops following the store's catalog versions, a full-schema token count in progress (at its next slice; a
   * route waiting for it rejects), and a background build (at its next chunk: the vectors embedded so far stay in the
   * disk cache or store for the next process; the router keeps routing lexically). The router still routes afterwards
   * (a later route counts again). The store stays open: it is the application's to close.
   */
  async close(): Promise<void> {
    this.closed = true;
    // Lookups still screen what they return; a later prepare() starts the background again.
    this.catalog.stopScreening();
    this.tokens.stop(new Error("ToolAttentionRouter: closed while counting the catalog's full-schema tokens"));
    // A background join finishes first: closing the follower under it would leave a subscription behind.
    await this.joining;
    await this.follower?.close();
    await this.snapshots.settled();
    await this.whenBuilt();
    // Builds a later catalog change starts run as usual.
    this.closed = false;
  }
}
