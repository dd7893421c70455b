/**
 * Catalog versions of `PostgresRoutingStore` (see the module comment of postgres.ts): published under a per-catalog
 * advisory lock (a new version unless the latest holds the same digest, announced by `pg_notify` on commit), read,
 * and pruned.
 */
import { checkKeep } from "./codec.js";
import { checkCatalogName, lockKeyOf, type PgPoolLike, type PgStoreAccess } from "./pg-driver.js";
import { digestFor } from "./snapshot.js";
import type {
  CatalogSnapshot,
  CatalogVersionInfo,
  PruneCatalogVersionsOptions,
  PruneCatalogVersionsResult,
  PublishResult,
  StoredCatalog,
} from "./types.js";

export class PgCatalogVersions {
  constructor(
    private readonly store: PgStoreAccess,
    /** The NOTIFY channel of catalog versions. */
    private readonly channel: string,
  ) {}

  private get q(): string {
    return this.store.q;
  }

  private get schema(): string {
    return this.store.schema;
  }

  private connect(): Promise<PgPoolLike> {
    return this.store.connect();
  }

  async publishCatalog(catalog: string, snapshot: CatalogSnapshot, digest?: string): Promise<PublishResult> {
    checkCatalogName("PostgresRoutingStore.publishCatalog", catalog);
    if (!snapshot || !Array.isArray(snapshot.servers)) throw new Error(`PostgresRoutingStore.publishCatalog: snapshot.servers must be an array`);
    digest = digestFor("PostgresRoutingStore.publishCatalog", snapshot, digest);
    const pool = await this.connect();
    const tools = snapshot.servers.reduce((n, s) => n + (Array.isArray(s.tools) ? s.tools.length : 0), 0);
    const client = await pool.connect();
    let broken: unknown;
    try {
      await client.query("BEGIN");
      // Serializes publishers of one catalog: the digest check and the next version number cannot race.
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention catalog ${this.schema} ${catalog}`)]);
      const latest = await client.query(
        `SELECT version, digest, tools FROM ${this.q}.catalog_versions WHERE catalog = $1 ORDER BY version DESC LIMIT 1`,
        [catalog],
      );
      const row = latest.rows[0];
      if (row && row.digest === digest) {
        await client.query("COMMIT");
        return { catalog, version: Number(row.version), digest, tools: Number(row.tools), created: false };
      }
      const version = row ? Number(row.version) + 1 : 1;
      await client.query(
        `INSERT INTO ${this.q}.catalog_versions (catalog, version, digest, tools, snapshot) VALUES ($1, $2, $3, $4, $5::json)`,
        [catalog, version, digest, tools, JSON.stringify(snapshot)],
      );
      const info: CatalogVersionInfo = { catalog, version, digest, tools };
      await client.query("SELECT pg_notify($1, $2)", [this.channel, JSON.stringify(info)]);
      await client.query("COMMIT");
      return { ...info, created: true };
    } catch (err) {
      broken = err;
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /** Deletes every version of `catalog` but the latest `keep` (see `RoutingStore.pruneCatalogVersions`). */
  async pruneCatalogVersions(catalog: string, options: PruneCatalogVersionsOptions): Promise<PruneCatalogVersionsResult> {
    checkCatalogName("PostgresRoutingStore.pruneCatalogVersions", catalog);
    const keep = checkKeep("PostgresRoutingStore.pruneCatalogVersions", options);
    const pool = await this.connect();
    const r = await pool.query(
      `DELETE FROM ${this.q}.catalog_versions
       WHERE catalog = $1 AND version <= (SELECT max(version) FROM ${this.q}.catalog_versions WHERE catalog = $1) - $2
       RETURNING version`,
      [catalog, keep],
    );
    return { deleted: r.rows.map((row) => Number(row.version)).sort((a, b) => a - b) };
  }

  private rowToCatalog(row: Record<string, unknown>): StoredCatalog {
    const snapshot = (typeof row.snapshot === "string" ? JSON.parse(row.snapshot) : row.snapshot) as CatalogSnapshot;
    return { catalog: row.catalog as string, version: Number(row.version), digest: row.digest as string, tools: Number(row.tools), snapshot };
  }

  async latestCatalog(catalog: string): Promise<StoredCatalog | undefined> {
    checkCatalogName("PostgresRoutingStore.latestCatalog", catalog);
    const pool = await this.connect();
    const r = await pool.query(
      `SELECT catalog, version, digest, tools, snapshot FROM ${this.q}.catalog_versions WHERE catalog = $1 ORDER BY version DESC LIMIT 1`,
      [catalog],
    );
    return r.rows[0] ? this.rowToCatalog(r.rows[0]) : undefined;
  }

  async latestVersion(catalog: string): Promise<CatalogVersionInfo | undefined> {
    checkCatalogName("PostgresRoutingStore.latestVersion", catalog);
    const pool = await this.connect();
    const r = await pool.query(`SELECT version, digest, tools FROM ${this.q}.catalog_versions WHERE catalog = $1 ORDER BY version DESC LIMIT 1`, [
      catalog,
    ]);
    const row = r.rows[0];
    return row ? { catalog, version: Number(row.version), digest: row.digest as string, tools: Number(row.tools) } : undefined;
  }

  async getCatalog(catalog: string, version: number): Promise<StoredCatalog | undefined> {
    checkCatalogName("PostgresRoutingStore.getCatalog", catalog);
    if (!Number.isInteger(version) || version < 1) throw new Error(`PostgresRoutingStore.getCatalog: version must be an integer ≥ 1 (got ${version})`);
    const pool = await this.connect();
    const r = await pool.query(
      `SELECT catalog, version, digest, tools, snapshot FROM ${this.q}.catalog_versions WHERE catalog = $1 AND version = $2`,
      [catalog, version],
    );
    return r.rows[0] ? this.rowToCatalog(r.rows[0]) : undefined;
  }
}
