/**
 * Catalog version notifications of `PostgresRoutingStore` (see the module comment of postgres.ts): LISTEN on a
 * dedicated connection whose socket is unref'd, and a poll every `pollMs` (unref'd timer) that also reconnects a
 * lost listen connection, so a dropped connection or a pooler without LISTEN still converges.
 */
import { checkCatalogName, loadPg, type PgListenClient, type PgPoolLike, type PgStoreAccess } from "./pg-driver.js";
import type { CatalogListener, CatalogVersionInfo } from "./types.js";

/** Settings of the notifications (see `PostgresRoutingStoreOptions`). */
export interface PgWatchOptions {
  /** The NOTIFY channel: `<schema>_catalog`. */
  channel: string;
  /** false: poll only. */
  listen?: boolean;
  pollMs: number;
  /** Set when the store opens its own pool; else the LISTEN connection copies the pool's settings. */
  connectionString?: string;
  /** The store's pool once open (undefined before `connect()`). */
  pool: () => PgPoolLike | undefined;
}

export class PgCatalogWatch {
  private readonly channel: string;
  private readonly pollMs: number;
  // Listeners per catalog, the last version each was told about, the listen connection, the poll.
  private readonly listeners = new Map<string, Set<CatalogListener>>();
  private readonly known = new Map<string, number>();
  private listenClient?: Promise<PgListenClient | undefined>;
  private pollTimer?: NodeJS.Timeout;

  constructor(
    private readonly store: PgStoreAccess,
    private readonly options: PgWatchOptions,
  ) {
    this.channel = options.channel;
    this.pollMs = options.pollMs;
  }

  private get q(): string {
    return this.store.q;
  }

  private get closed(): boolean {
    return this.store.isClosed();
  }

  private connect(): Promise<PgPoolLike> {
    return this.store.connect();
  }

  private get pool(): PgPoolLike | undefined {
    return this.options.pool();
  }

  private warn(message: string): void {
    this.store.warn(message);
  }

  async watchCatalog(catalog: string, listener: CatalogListener): Promise<() => void> {
    checkCatalogName("PostgresRoutingStore.watchCatalog", catalog);
    if (typeof listener !== "function") throw new Error("PostgresRoutingStore.watchCatalog: listener must be a function");
    const pool = await this.connect();
    let set = this.listeners.get(catalog);
    if (!set) {
      this.listeners.set(catalog, (set = new Set()));
      // Listeners hear of versions after the one current now.
      const r = await pool.query(`SELECT max(version) AS v FROM ${this.q}.catalog_versions WHERE catalog = $1`, [catalog]);
      if (!this.known.has(catalog)) this.known.set(catalog, Number(r.rows[0]?.v ?? 0));
    }
    set.add(listener);
    if (this.options.listen !== false) await this.ensureListening();
    if (this.pollMs > 0 && !this.pollTimer) {
      this.pollTimer = setInterval(() => void this.poll(), this.pollMs);
      this.pollTimer.unref();
    }
    return () => {
      const s = this.listeners.get(catalog);
      s?.delete(listener);
      if (s && s.size === 0) this.listeners.delete(catalog);
      if (this.listeners.size === 0) void this.stopWatching();
    };
  }

  /** Tells a catalog's listeners about a version newer than the last one they heard of. */
  private announce(info: CatalogVersionInfo): void {
    if ((this.known.get(info.catalog) ?? 0) >= info.version) return;
    this.known.set(info.catalog, info.version);
    for (const l of this.listeners.get(info.catalog) ?? []) {
      try {
        l(info);
      } catch (err) {
        this.warn(`[tool-attention] postgres store: a catalog listener threw (${(err as Error)?.message ?? err})`);
      }
    }
  }

  private ensureListening(): Promise<PgListenClient | undefined> {
    this.listenClient ??= this.openListenClient().catch((err) => {
      this.listenClient = undefined;
      const fallback = this.pollMs > 0 ? `polling every ${this.pollMs} ms` : "other processes' catalog versions go unseen until it reconnects (options.pollMs is 0)";
      this.warn(`[tool-attention] postgres store: cannot LISTEN (${(err as Error)?.message ?? err}); ${fallback}`);
      return undefined;
    });
    return this.listenClient;
  }

  private async openListenClient(): Promise<PgListenClient> {
    const pg = await loadPg();
    const config = this.options.connectionString ? { connectionString: this.options.connectionString } : { ...(this.pool?.options ?? {}) };
    const client = new pg.Client(config);
    const lost = (err?: Error) => {
      if (this.closed) return;
      this.listenClient = undefined;
      this.warn(`[tool-attention] postgres store: listen connection lost${err ? ` (${err.message})` : ""}; the poll reconnects it`);
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      try {
        const info = JSON.parse(msg.payload) as CatalogVersionInfo;
        if (typeof info.catalog === "string" && Number.isInteger(info.version)) this.announce(info);
      } catch {
        // Not ours (someone else notifying on the channel): ignore.
      }
    });
    await client.connect();
    await client.query(`LISTEN "${this.channel}"`);
    // From now on the connection only waits for news: it must not keep the host process alive. (Not before: an
    // unref'd socket under a pending query lets the process exit while the query waits.)
    client.unref?.();
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error("closed");
    }
    return client;
  }

  /** The fallback: the latest version of every watched catalog, and a reconnect of a lost listen connection. */
  private async poll(): Promise<void> {
    if (this.closed || this.listeners.size === 0 || !this.pool) return;
    try {
      if (this.options.listen !== false && !this.listenClient) void this.ensureListening();
      const r = await this.pool.query(
        `SELECT DISTINCT ON (catalog) catalog, version, digest, tools FROM ${this.q}.catalog_versions
         WHERE catalog = ANY($1::text[]) ORDER BY catalog, version DESC`,
        [[...this.listeners.keys()]],
      );
      for (const row of r.rows)
        this.announce({ catalog: row.catalog as string, version: Number(row.version), digest: row.digest as string, tools: Number(row.tools) });
    } catch (err) {
      if (!this.closed) this.warn(`[tool-attention] postgres store: catalog poll failed (${(err as Error)?.message ?? err})`);
    }
  }

  async stopWatching(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    const listen = this.listenClient;
    this.listenClient = undefined;
    const client = await listen?.catch(() => undefined);
    // Ref'd again while it closes: an unref'd socket would let the process exit before `end()` settles.
    client?.ref?.();
    await client?.end().catch(() => undefined);
  }

  /** Drops every listener (the store is closing; `stopWatching` then closes the listen connection). */
  dropListeners(): void {
    this.listeners.clear();
  }
}
