/**
 * Shared routing state (see types.ts): the store seam, its three implementations, and the pieces a router uses.
 * `PostgresRoutingStore` loads the optional peer `pg` lazily; importing this module never does.
 */
export type {
  RoutingStore,
  EmbedFn,
  EmbedThroughResult,
  CatalogSnapshot,
  CatalogVersionInfo,
  StoredCatalog,
  PublishResult,
  PruneBlobsOptions,
  PruneBlobsResult,
  PruneCatalogVersionsOptions,
  PruneCatalogVersionsResult,
  CatalogListener,
} from "./types.js";
export { PostgresRoutingStore, PG_PACKAGE, PG_INSTALL_COMMAND } from "./postgres.js";
export type { PostgresRoutingStoreOptions, PgPoolLike, PgClientLike, PgQueryResultLike } from "./postgres.js";
export { DiskRoutingStore } from "./disk.js";
export type { DiskRoutingStoreOptions } from "./disk.js";
export { LangGraphRoutingStore } from "./langgraph.js";
export type { LangGraphRoutingStoreOptions, BaseStoreLike, StoreGetOperationLike, StorePutOperationLike } from "./langgraph.js";
export { StoreEmbeddings } from "./embeddings.js";
export type { StoreEmbeddingStats } from "./embeddings.js";
export { RouterStoreBinding, DEFAULT_STORE_CATALOG } from "./binding.js";
export type { RouterStoreOptions } from "./binding.js";
export { catalogSnapshotOf, catalogFromSnapshot, catalogDigest, snapshotDigest, canonicalJson } from "./snapshot.js";
