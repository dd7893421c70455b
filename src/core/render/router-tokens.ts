/**
 * A router's token accounting: the Phase-1 pool it renders (once per catalog: the pool is identical on every turn),
 * the full-schema tokens of the whole catalog (what a turn would cost without routing; counted once per catalog, in
 * slices, and kept beside the index snapshots on large catalogs) and the tokens of the tools a route activates.
 *
 * Every count is in the router's encoding, whatever the pool options say, so budgets match the accounting.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import type { SnapshotCache } from "../index/snapshot-cache.js";
import type { LazySchemaLoader } from "../loader/schema-loader.js";
import type { TokenEncoding } from "../tokens/count.js";
import { countFullSchemaTokens, FULL_TOKENS_KEEP_MIN_TOOLS } from "./full-schema-tokens.js";
import { renderPoolTiered, SchemaTokenCounter, type PoolOptions, type RenderedPool } from "./render.js";

/** Settings of a router's token accounting, fixed at construction. */
export interface RouterTokensOptions {
  /** The router's token encoding. */
  encoding: TokenEncoding;
  /** `RouterOptions.pool`. */
  pool?: PoolOptions;
  /** Where full schemas come from. */
  loader: LazySchemaLoader;
  /**
   * Whether the catalog holds the schemas (`RouterOptions.schemas` unset): only then is a large catalog counted
   * ahead of its first route and its counts kept in `cache`.
   */
  localSchemas: boolean;
  /** Where a large catalog's counts are kept (the router's blob cache), when anywhere. */
  cache: () => SnapshotCache | undefined;
  /** Where a failure to read or keep them is reported. */
  log: (line: string) => void;
}

export class RouterTokens {
  private readonly counter: SchemaTokenCounter;
  /** The rendered pool and the catalog object it was rendered for (a replaced catalog renders anew). */
  private poolMemo?: { catalog: ToolCatalog; revision: number; rendered: RenderedPool };
  private fullTokens?: { catalog: ToolCatalog; total: Promise<number> };
  /** Aborted (and replaced) by `stop()`: a full-schema count in progress stops at its next slice. */
  private lifetime = new AbortController();

  constructor(private readonly options: RouterTokensOptions) {
    this.counter = new SchemaTokenCounter(options.encoding);
  }

  /** The catalog's pool, rendered once per catalog object (and again when background screening quarantines a tool). */
  pool(catalog: ToolCatalog): RenderedPool {
    if (this.poolMemo?.catalog !== catalog || this.poolMemo.revision !== catalog.revision) {
      // Counted in the router's encoding, whatever the pool options say, so the budget matches the accounting.
      const rendered = renderPoolTiered(catalog, { ...this.options.pool, encoding: this.options.encoding });
      this.poolMemo = { catalog, revision: catalog.revision, rendered };
    }
    return this.poolMemo.rendered;
  }

  /** Drops the pool of a replaced catalog (the next call renders the new one). */
  forgetPool(): void {
    this.poolMemo = undefined;
  }

  /** Tokens of the catalog's full schemas (see the module comment); a failed count is not kept. */
  fullSchemaTokens(catalog: ToolCatalog): Promise<number> {
    if (this.fullTokens?.catalog !== catalog) {
      const { loader, localSchemas, log } = this.options;
      const cache = localSchemas ? this.options.cache() : undefined;
      const total = countFullSchemaTokens(
        catalog,
        (ids) => loader.getMany(ids),
        this.counter,
        cache && { cache, warn: log },
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
  startFullSchemaTokens(catalog: ToolCatalog): void {
    if (catalog.size >= FULL_TOKENS_KEEP_MIN_TOOLS && this.options.localSchemas) this.fullSchemaTokens(catalog).catch(() => undefined);
  }

  /** Tokens of the given tools' full schemas. */
  async schemaTokens(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    let n = 0;
    for (const s of await this.options.loader.getMany(ids)) n += this.counter.count(s);
    return n;
  }

  /** Stops a full-schema count in progress (it rejects with `reason`); later counts run again. */
  stop(reason: Error): void {
    this.lifetime.abort(reason);
    this.lifetime = new AbortController();
  }
}
