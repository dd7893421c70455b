/**
 * Catalog watching by polling, shared by the stores that have no push channel (disk, LangGraph BaseStore): one
 * unref'd timer per watch, never two polls of one watch at once, a failed poll reported and retried next tick.
 */
import type { CatalogListener, CatalogVersionInfo } from "./types.js";

/** How a store reads a catalog's latest version number (cheap, every tick) and one version's details (on change). */
export interface VersionReader {
  latest(): Promise<number | undefined>;
  info(version: number): Promise<Pick<CatalogVersionInfo, "version" | "digest" | "tools"> | undefined>;
}

/** The polling watches of one store; `close()` stops them all. */
export class CatalogPollers {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    /** Names the store in warnings ("disk store"). */
    private readonly label: string,
    private readonly pollMs: number,
    private readonly warn: ((message: string) => void) | undefined,
  ) {}

  /** Calls `listener` whenever the latest version differs from the last one seen (initially the current one). */
  async watch(catalog: string, read: VersionReader, listener: CatalogListener): Promise<() => void> {
    let known = (await read.latest()) ?? 0;
    let busy = false;
    const timer = setInterval(async () => {
      if (busy || this.closed) return;
      busy = true;
      try {
        const latest = await read.latest();
        if (latest !== undefined && latest !== known) {
          const info = await read.info(latest);
          known = latest;
          if (info) listener({ catalog, version: info.version, digest: info.digest, tools: info.tools });
        }
      } catch (err) {
        this.warn?.(`[tool-attention] ${this.label}: catalog poll failed (${(err as Error)?.message ?? err})`);
      } finally {
        busy = false;
      }
    }, this.pollMs);
    timer.unref();
    this.timers.add(timer);
    return () => {
      clearInterval(timer);
      this.timers.delete(timer);
    };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
  }
}
