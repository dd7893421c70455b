/**
 * Intent routing: embed the turn's intent, score it against every tool's routing text (cosine
 * "Intent–Schema Overlap"), keep tools above θ, apply preconditions over a wide slate, take the top-k.
 *
 * The expensive part — embedding the catalog and building the index — happens once in `prepare()` and is
 * cached on disk by the encoder layer; a turn costs one query embedding, one index search and a few
 * precondition checks.
 */
import { createHash } from "node:crypto";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { ToolCatalog } from "../catalog/catalog.js";
import { LexicalEmbeddings, resolveEncoder, type EncoderName } from "../encoders/index.js";
import { createVectorIndex, describeIndexBackend, type IndexPreference, type VectorIndex } from "../index/vector-index.js";
import { LazySchemaLoader, type SchemaLoaderOptions } from "../loader/schema-loader.js";
import { checkPreconditions, emptyStateView } from "../preconditions/preconditions.js";
import { renderPool, SchemaTokenCounter, type PoolOptions } from "../render/render.js";
import { countTokens, DEFAULT_ENCODING, type TokenEncoding } from "../tokens/count.js";
import { routingEventOf, type ToolAttentionEvent } from "../events/events.js";
import type { AgentStateView, GatedTool, RoutingDecision, ScoredTool, ToolRecord } from "../types.js";

/** Default θ for dense sentence encoders (cosine of unit vectors). */
export const DEFAULT_THETA = 0.28;
/** Default θ for the lexical encoder, whose BM25-style cosines run lower than dense ones. */
export const DEFAULT_LEXICAL_THETA = 0.08;

/** The default θ for an encoder choice. */
export function defaultThetaFor(encoder: RouterOptions["encoder"]): number {
  return encoder === "lexical" || encoder instanceof LexicalEmbeddings ? DEFAULT_LEXICAL_THETA : DEFAULT_THETA;
}
export const DEFAULT_K = 10;

/** Slate size scored before preconditions, wide enough that gating cannot starve the active set. */
export function slateSize(k: number): number {
  return Math.max(4 * k, 20);
}

export interface RouterOptions {
  /** Encoder: "use-lite" (default, offline), "lexical", "minilm", or any LangChain Embeddings instance. */
  encoder?: EncoderName | EmbeddingsInterface;
  /** Minimum cosine score for a tool to be considered. Default 0.28 (0.08 for the lexical encoder). */
  theta?: number;
  /** Maximum number of active tools per turn. Default 10. */
  k?: number;
  /** Candidates scored before preconditions. Default max(4k, 20). */
  slate?: number;
  /** Tool names or ids that are always active (when their preconditions hold); they do not count against k. */
  alwaysInclude?: string[];
  /** Vector index backend. Default "auto": faiss when it loads, else the pure-TS flat index. */
  index?: IndexPreference;
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
   * Where the one line saying which index and encoder are in use goes (once per process and backend).
   * Default: stderr. `false` silences it.
   */
  log?: ((line: string) => void) | false;
}

const loggedBackends = new Set<string>();

/** What `replaceCatalog` changed, by tool id, and how many routing texts it had to embed. */
export interface CatalogUpdate {
  added: string[];
  changed: string[];
  removed: string[];
  embedded: number;
}

export interface RouteOptions {
  k?: number;
  theta?: number;
  turnId?: string;
  /** A query vector embedded beforehand (see `embedQueries`); skips the encode step. */
  queryVector?: ArrayLike<number>;
}

function validateNumber(name: string, value: number, min: number, max: number): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max)
    throw new Error(`Invalid ${name}: ${value} (expected a number from ${min} to ${max})`);
}

export class ToolAttentionRouter {
  readonly theta: number;
  readonly k: number;
  readonly encoding: TokenEncoding;
  readonly loader: LazySchemaLoader;
  private embeddings?: EmbeddingsInterface;
  private encoderName = "";
  private modelId = "";
  private index?: VectorIndex;
  private preparing?: Promise<void>;
  private turnCounter = 0;
  private readonly tokenCounter: SchemaTokenCounter;
  private fullTokens?: number;
  private poolTokenCount?: number;
  private readonly alwaysIds: string[];

  constructor(
    readonly catalog: ToolCatalog,
    private readonly options: RouterOptions = {},
  ) {
    this.theta = options.theta ?? defaultThetaFor(options.encoder);
    this.k = options.k ?? DEFAULT_K;
    validateNumber("theta", this.theta, -1, 1);
    validateNumber("k", this.k, 0, 10_000);
    if (options.slate !== undefined) validateNumber("slate", options.slate, 1, 1_000_000);
    this.encoding = options.encoding ?? DEFAULT_ENCODING;
    this.tokenCounter = new SchemaTokenCounter(this.encoding);
    this.loader =
      options.schemas instanceof LazySchemaLoader ? options.schemas : new LazySchemaLoader(catalog, options.schemas);
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

  private async doPrepare(): Promise<void> {
    const enc = await resolveEncoder(this.options.encoder, { cacheDir: this.options.cacheDir });
    const embeddings = enc.embeddings;
    this.embeddings = embeddings;
    this.encoderName = enc.name;
    this.modelId = enc.modelId;
    const texts = this.catalog.tools.map((t) => t.routingText);
    const vectors = texts.length > 0 ? await embeddings.embedDocuments(texts) : [];
    if (vectors.length !== texts.length)
      throw new Error(`Encoder ${this.modelId} returned ${vectors.length} vectors for ${texts.length} tools`);
    const dim = vectors[0]?.length ?? (await embeddings.embedQuery("tool")).length;
    const prefer = this.options.index ?? "auto";
    this.index = await createVectorIndex(dim, prefer);
    this.index.add(vectors);
    this.vectorByText = new Map(texts.map((t, i) => [t, vectors[i]]));
    const line = `tool-attention: ${describeIndexBackend(prefer)}; encoder: ${this.modelId}`;
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
    const emb = this.embeddings as EmbeddingsInterface;
    // The lexical encoder (and possibly a custom one) embeds documents differently from queries.
    if (this.encoderName !== "use-lite" && this.encoderName !== "minilm") {
      const out: number[][] = [];
      for (const t of texts) out.push(await emb.embedQuery(t));
      return out;
    }
    return emb.embedDocuments(texts.map((t) => t.trim() || " "));
  }

  /** One line describing the encoder and index in use. */
  describe(): string {
    return `encoder: ${this.modelId || "(not prepared)"}; index: ${this.index?.kind ?? "(not prepared)"}; tools: ${this.catalog.size}`;
  }

  get indexKind(): string | undefined {
    return this.index?.kind;
  }

  /** The Phase-1 summary pool (identical on every turn for the same catalog). */
  pool(): string {
    return renderPool(this.catalog, this.options.pool);
  }

  /** Tokens of the Phase-1 pool (computed once: the pool does not change between turns). */
  poolTokens(): number {
    this.poolTokenCount ??= countTokens(this.pool(), this.encoding);
    return this.poolTokenCount;
  }

  /** Tokens of the whole catalog's full schemas: what every turn would cost without routing. */
  async fullSchemaTokens(): Promise<number> {
    this.fullTokens ??= await this.schemaTokens(this.catalog.tools.map((t) => t.id));
    return this.fullTokens;
  }

  /** Tokens of the given tools' full schemas. */
  async schemaTokens(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    let n = 0;
    for (const s of await this.loader.getMany(ids)) n += this.tokenCounter.count(s);
    return n;
  }

  /** Routes one query under the given agent state. */
  async route(query: string, state: AgentStateView = emptyStateView(), opts: RouteOptions = {}): Promise<RoutingDecision> {
    await this.prepare();
    const k = opts.k ?? this.k;
    const theta = opts.theta ?? this.theta;
    validateNumber("k", k, 0, 10_000);
    validateNumber("theta", theta, -1, 1);
    const turnId = opts.turnId ?? `turn-${++this.turnCounter}`;
    // Read together: replaceCatalog swaps both at once, and index positions refer to this catalog's tools.
    const index = this.index as VectorIndex;
    const tools = this.catalog.tools;
    const t0 = performance.now();

    const text = query.trim();
    let hits: { id: number; score: number }[] = [];
    let tEncoded = t0;
    if (text && index.size > 0) {
      const qv = opts.queryVector ?? (await (this.embeddings as EmbeddingsInterface).embedQuery(text));
      tEncoded = performance.now();
      hits = index.search(qv, this.options.slate ?? slateSize(k));
    }
    const tSearched = performance.now();

    const active: ScoredTool[] = [];
    const gatedOut: GatedTool[] = [];
    const candidates: ScoredTool[] = [];
    const taken = new Set<string>();
    let belowTheta = 0;

    for (const id of this.alwaysIds) {
      const t = this.catalog.getById(id) as ToolRecord;
      const check = checkPreconditions(t, state);
      if (check.allow) active.push({ id, name: t.name, server: t.server, score: 1 });
      else gatedOut.push({ id, name: t.name, server: t.server, score: 1, reason: check.reason });
      taken.add(id);
    }
    const always = active.length;
    for (const hit of hits) {
      const t = tools[hit.id];
      const scored: ScoredTool = { id: t.id, name: t.name, server: t.server, score: hit.score };
      candidates.push(scored);
      if (hit.score < theta) {
        belowTheta++;
        continue;
      }
      if (taken.has(t.id) || active.length - always >= k) continue;
      const check = checkPreconditions(t, state);
      if (check.allow) active.push(scored);
      else gatedOut.push({ ...scored, reason: check.reason });
    }
    const tGated = performance.now();

    const activeIds = active.map((a) => a.id);
    const [phase2Tokens, fullSchemaTokens] = await Promise.all([this.schemaTokens(activeIds), this.fullSchemaTokens()]);
    const decision: RoutingDecision = {
      turnId,
      queryHash: createHash("sha256").update(query).digest("hex").slice(0, 12),
      query,
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
        encode: tEncoded - t0,
        search: tSearched - tEncoded,
        gate: tGated - tSearched,
        total: tGated - t0,
      },
    };
    this.options.onEvent?.(routingEventOf(decision));
    return decision;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Catalog updates (e.g. an MCP server's notifications/tools/list_changed)
  // ---------------------------------------------------------------------------------------------------------

  /** Routing text → vector of the tools embedded so far; lets a catalog update embed only new texts. */
  private vectorByText?: Map<string, number[]>;

  /**
   * Swaps in a new catalog (tools added, changed or removed) without re-embedding what is unchanged: only
   * routing texts never embedded before go to the encoder (the lexical encoder, whose vectors depend on the
   * whole corpus, re-fits on all texts). The index, schema cache and token counts switch in one synchronous
   * step, so a removed tool leaves the active set from the next route on.
   */
  async replaceCatalog(next: ToolCatalog): Promise<CatalogUpdate> {
    await this.prepare();
    const prev = this.catalog;
    const emb = this.embeddings as EmbeddingsInterface;
    const texts = next.tools.map((t) => t.routingText);
    let vectors: number[][];
    let embedded: number;
    if (this.encoderName === "lexical" || emb instanceof LexicalEmbeddings) {
      vectors = texts.length > 0 ? await emb.embedDocuments(texts) : [];
      embedded = texts.length;
      this.vectorByText = new Map(texts.map((t, i) => [t, vectors[i]]));
    } else {
      const known = this.vectorByText ?? new Map<string, number[]>();
      const missing = [...new Set(texts.filter((t) => !known.has(t)))];
      const fresh = missing.length > 0 ? await emb.embedDocuments(missing) : [];
      if (fresh.length !== missing.length)
        throw new Error(`Encoder ${this.modelId} returned ${fresh.length} vectors for ${missing.length} tools`);
      missing.forEach((t, i) => known.set(t, fresh[i]));
      vectors = texts.map((t) => known.get(t) as number[]);
      embedded = missing.length;
      // Keep only what the current catalog uses, so a long-running session does not grow without bound.
      const current = new Set(texts);
      for (const t of known.keys()) if (!current.has(t)) known.delete(t);
      this.vectorByText = known;
    }
    const dim = (this.index as VectorIndex).dim;
    const index = await createVectorIndex(dim, this.options.index ?? "auto");
    if (vectors.length > 0) index.add(vectors);

    const added: string[] = [];
    const changed: string[] = [];
    for (const t of next.tools) {
      const old = prev.getById(t.id);
      if (!old) added.push(t.id);
      else if (
        old.routingText !== t.routingText ||
        JSON.stringify(old.inputSchema) !== JSON.stringify(t.inputSchema) ||
        old.name !== t.name
      )
        changed.push(t.id);
    }
    const removed = prev.tools.filter((t) => !next.getById(t.id)).map((t) => t.id);

    // Synchronous swap: no route can observe a catalog and an index that do not belong together.
    (this as unknown as { catalog: ToolCatalog }).catalog = next;
    this.index = index;
    this.loader.replaceCatalog(next, [...added, ...changed, ...removed]);
    this.fullTokens = undefined;
    this.poolTokenCount = undefined;
    const always = (this.options.alwaysInclude ?? []).map((n) => next.resolve(n)?.id).filter((id): id is string => !!id);
    this.alwaysIds.splice(0, this.alwaysIds.length, ...always);
    return { added, changed, removed, embedded };
  }
}
