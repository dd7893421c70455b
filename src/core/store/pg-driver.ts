/**
 * The seam between `PostgresRoutingStore` and the `pg` driver: the subset of `pg` the store uses (so a pool you own
 * fits), loading the optional peer package with a clear install message, and the small helpers every part of the
 * store shares (advisory lock keys, catalog name checks).
 */
import { createHash } from "node:crypto";
import { advisoryKey } from "./codec.js";

/** The npm package `PostgresRoutingStore` loads lazily, and how to install it. */
export const PG_PACKAGE = "pg";
export const PG_INSTALL_COMMAND = "npm install pg@^8";

/** The subset of a `pg` query result the store reads. */
export interface PgQueryResultLike {
  rows: Record<string, unknown>[];
}
/**
 * The subset of a `pg.PoolClient` the store uses. `getBlob` also hands it pg Submittable objects (a COPY); a client
 * that does not run them makes the store read blobs as base64 text instead.
 */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<PgQueryResultLike>;
  release(destroy?: boolean | Error): void;
}
/** The subset of a `pg.Pool` the store uses (a `pg.Pool` you own fits). */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  query(text: string, values?: unknown[]): Promise<PgQueryResultLike>;
  end(): Promise<void>;
  on?(event: "error", listener: (err: Error) => void): unknown;
  /** pg.Pool keeps its connection settings here; used to open the LISTEN connection. */
  options?: Record<string, unknown>;
}


/** The parts of the `pg` module the store uses. */
export interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPoolLike;
  Client: new (config: Record<string, unknown>) => PgListenClient;
}
/** The subset of a `pg.Client` the LISTEN connection uses. */
export interface PgListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  unref?(): void;
  ref?(): void;
  on(event: "notification", listener: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: "error" | "end", listener: (err?: Error) => void): unknown;
}

let pgModule: Promise<PgModule> | undefined;
/** Loads `pg` once per thread; a missing package fails with the install command. */
export function loadPg(): Promise<PgModule> {
  pgModule ??= (async () => {
    try {
      const name: string = PG_PACKAGE;
      const mod = (await import(name)) as { default?: PgModule } & PgModule;
      return mod.default ?? mod;
    } catch (err) {
      pgModule = undefined;
      throw new Error(
        `PostgresRoutingStore needs the "${PG_PACKAGE}" package, an optional peer dependency of tool-attention. ` +
          `Install it with: ${PG_INSTALL_COMMAND} (${(err as Error)?.message ?? err})`,
        { cause: err },
      );
    }
  })();
  return pgModule;
}

/** The advisory lock key of a label (the first 64 bits of its sha256). */
export const lockKeyOf = (label: string) => advisoryKey(createHash("sha256").update(label).digest("hex"));

/** Checks a catalog name argument; names the argument when it is bad. */
export function checkCatalogName(where: string, catalog: unknown): string {
  if (typeof catalog !== "string" || catalog === "" || catalog.length > 200)
    throw new Error(`${where}: catalog name must be a non-empty string of at most 200 characters (got ${JSON.stringify(catalog)})`);
  return catalog;
}

/**
 * What the parts of the store (embeddings, blobs, catalog versions, notifications) use of the store itself: its
 * schema, its pool (`connect()` opens it and creates the tables once), its warnings and whether it is closed.
 */
export interface PgStoreAccess {
  readonly schema: string;
  /** The quoted schema, for query text. */
  readonly q: string;
  connect(): Promise<PgPoolLike>;
  warn(message: string): void;
  isClosed(): boolean;
}
