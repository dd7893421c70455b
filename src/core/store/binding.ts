/**
 * How a router uses a store (`RouterOptions.store`): its document embeddings go through the store, each catalog it
 * routes on is published as a version, and versions other processes publish are followed. The router keeps the
 * swap itself (catalog, index and version change in one synchronous step); this module holds the store side.
 */
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { CatalogOptions, ToolCatalog } from "../catalog/catalog.js";
import { LexicalEmbeddings } from "../encoders/lexical.js";
import { storeSnapshotCache } from "../index/snapshot-cache.js";
import { StoreEmbeddings } from "./embeddings.js";
import { catalogDigestThrough, catalogFromSnapshot, catalogSnapshotOf, type DigestMemo } from "./snapshot.js";
import type { CatalogVersionInfo, PublishResult, RoutingStore } from "./types.js";

/** The default catalog name of a router in a store. */
export const DEFAULT_STORE_CATALOG = "default";

/** `RouterOptions.store` in full; a bare `RoutingStore` means these defaults. */
export interface RouterStoreOptions {
  /** The shared store: `PostgresRoutingStore`, `LangGraphRoutingStore`, `DiskRoutingStore` or your own. */
  store: RoutingStore;
  /**
   * Name of this router's catalog in the store. Default "default". Routers over different tool sets sharing one
   * store (one per agent) need different names; routers over the same tool set in different processes, the same.
   */
  catalog?: string;
  /**
   * Switch to catalog versions other processes publish (default true). With false the router still publishes its
   * own catalogs (and names their versions) but only changes catalog through its own `replaceCatalog`.
   */
  follow?: boolean;
  /**
   * Options a followed version's catalog is rebuilt with: function preconditions, tags and screening settings,
   * which a snapshot cannot hold (see snapshot.ts). Give the same options the process builds its own catalogs with.
   */
  catalogOptions?: CatalogOptions;
  /**
   * What `prepare()` does with the catalog the router was constructed with: "publish" (default) makes it the next
   * version unless the latest version already holds it, which suits processes that each build the catalog from the
   * same code or the same MCP servers; "adopt" routes on the store's latest version when there is one (the
   * constructor's catalog is only published into an empty store), which suits processes that follow a catalog
   * another process manages, and restarts that must not bring back an older catalog.
   */
  initial?: "publish" | "adopt";
}

/** A validated store binding (see {@link RouterStoreOptions}). */
export class RouterStoreBinding {
  readonly store: RoutingStore;
  readonly catalog: string;
  readonly follow: boolean;
  readonly catalogOptions: CatalogOptions;
  readonly initial: "publish" | "adopt";
  /** The store's blobs, where catalog digests are remembered by fingerprint; undefined when it keeps none. */
  private readonly memo?: DigestMemo;

  /** `warn` receives what goes wrong with the digest memo (the router's log); nothing else depends on it. */
  constructor(
    option: RoutingStore | RouterStoreOptions,
    private readonly warn: (line: string) => void = () => {},
  ) {
    const full: RouterStoreOptions = isStore(option) ? { store: option } : (option as RouterStoreOptions);
    if (!full || typeof full !== "object" || !isStore(full.store))
      throw new Error(
        "Invalid store: expected a RoutingStore (PostgresRoutingStore, LangGraphRoutingStore, DiskRoutingStore) or { store, catalog?, follow?, catalogOptions? }",
      );
    this.store = full.store;
    this.catalog = full.catalog ?? DEFAULT_STORE_CATALOG;
    if (typeof this.catalog !== "string" || this.catalog === "" || this.catalog.length > 200)
      throw new Error(`Invalid store.catalog: ${JSON.stringify(full.catalog)} (expected a non-empty name of at most 200 characters)`);
    if (full.follow !== undefined && typeof full.follow !== "boolean") throw new Error(`Invalid store.follow: ${String(full.follow)} (expected a boolean)`);
    this.follow = full.follow ?? true;
    if (full.catalogOptions !== undefined && (typeof full.catalogOptions !== "object" || full.catalogOptions === null))
      throw new Error("Invalid store.catalogOptions: expected catalog options (an object)");
    this.catalogOptions = full.catalogOptions ?? {};
    this.initial = full.initial ?? "publish";
    this.memo = storeSnapshotCache(this.store);
    if (this.initial !== "publish" && this.initial !== "adopt")
      throw new Error(`Invalid store.initial: ${JSON.stringify(full.initial)} (expected "publish" or "adopt")`);
  }

  /**
   * With `initial: "adopt"`: the store's latest catalog when it differs from `own` (rebuilt, with its version);
   * `undefined` when the store has none, holds `own` already, or `initial` is "publish".
   */
  async adoptable(own: ToolCatalog): Promise<{ catalog: ToolCatalog; info: CatalogVersionInfo } | undefined> {
    if (this.initial !== "adopt") return undefined;
    const latest = await this.latestVersion();
    if (!latest || latest.digest === (await this.digestOf(own))) return undefined;
    return this.catalogOf(latest.version, own);
  }

  /** The encoder the router embeds documents with: through the store, except stateful (lexical) encoders. */
  wrap(embeddings: EmbeddingsInterface, modelId: string): EmbeddingsInterface {
    // Hashed lexical vectors depend on the whole corpus: never shared by text.
    if (embeddings instanceof LexicalEmbeddings) return embeddings;
    return new StoreEmbeddings(embeddings, this.store, modelId);
  }

  /** Publishes a catalog as this binding's next version (or finds the version holding it). */
  async publish(catalog: ToolCatalog): Promise<PublishResult> {
    const digest = await this.digestOf(catalog);
    // A process joining a deployment usually holds the latest version already: then there is nothing to write, and
    // the snapshot (a tenth of a second and 100,000 objects at 100,000 tools) is not built. publishCatalog would
    // return that version too; a version published meanwhile reaches the router through watch() as always.
    if (this.store.latestVersion) {
      const latest = await this.store.latestVersion(this.catalog);
      if (latest?.digest === digest) return { ...latest, created: false };
    }
    return this.store.publishCatalog(this.catalog, catalogSnapshotOf(catalog), digest);
  }

  /**
   * Starts the digest of the catalog `publish` will need, so that a large catalog's digest runs while the router
   * reads its snapshots (a failure shows at `publish`).
   */
  prime(catalog: ToolCatalog): void {
    this.digestOf(catalog).catch(() => undefined);
  }

  /**
   * The catalog's digest (`catalogDigest`). With a store that keeps blobs, the first process to compute it leaves it
   * under the catalog's fingerprint, which takes about half the time; the others read it there.
   */
  digestOf(catalog: ToolCatalog): Promise<string> {
    let digest = this.digests.get(catalog);
    if (!digest) {
      digest = catalogDigestThrough(catalog, this.memo, (message) => this.warn(`tool-attention: ${message}`));
      this.digests.set(catalog, digest);
      // A failure is not kept: the next call tries again.
      digest.catch(() => this.digests.delete(catalog));
    }
    return digest;
  }
  private readonly digests = new WeakMap<ToolCatalog, Promise<string>>();

  /** The latest version of this binding's catalog, without its snapshot where the store can (`latestVersion`). */
  async latestVersion(): Promise<CatalogVersionInfo | undefined> {
    if (this.store.latestVersion) return this.store.latestVersion(this.catalog);
    const latest = await this.store.latestCatalog(this.catalog);
    if (!latest) return undefined;
    const { snapshot: _snapshot, ...info } = latest;
    return info;
  }

  /**
   * The catalog of a published version, rebuilt; `undefined` when the version is gone. Tools `current` has keep
   * their framework objects.
   */
  async catalogOf(version: number, current: ToolCatalog): Promise<{ catalog: ToolCatalog; info: CatalogVersionInfo } | undefined> {
    const stored = await this.store.getCatalog(this.catalog, version);
    if (!stored) return undefined;
    const catalog = catalogFromSnapshot(stored.snapshot, this.catalogOptions, current);
    const { snapshot: _snapshot, ...info } = stored;
    return { catalog, info };
  }

  /** Subscribes to this binding's catalog versions. */
  watch(listener: (info: CatalogVersionInfo) => void): Promise<() => void> {
    return this.store.watchCatalog(this.catalog, listener);
  }
}

function isStore(x: unknown): x is RoutingStore {
  const s = x as Partial<RoutingStore> | undefined;
  return (
    !!s &&
    typeof s === "object" &&
    typeof s.embedThrough === "function" &&
    typeof s.publishCatalog === "function" &&
    typeof s.getCatalog === "function" &&
    typeof s.watchCatalog === "function"
  );
}
