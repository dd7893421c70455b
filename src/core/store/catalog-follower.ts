/**
 * The catalog lifecycle of a router with a store: the first catalog published when the router joins, every later
 * one published before it is swapped in, and versions other processes publish followed. Catalog changes run one at
 * a time, so a local replace and a followed version never interleave.
 *
 * The router keeps the swap itself (catalog, channels and version change in one synchronous step); this module
 * decides when a swap happens and with which version, and says what a swap changed (`diffCatalogs`).
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import type { RouterStoreBinding } from "./binding.js";
import type { CatalogVersionInfo } from "./types.js";

/** What `replaceCatalog` changed, by tool id, and how many routing texts it had to embed. */
export interface CatalogUpdate {
  added: string[];
  changed: string[];
  removed: string[];
  embedded: number;
  /** With a store: the catalog version the router now routes on. */
  version?: number;
}

/** Tool ids added, changed (routing text, description, schema or name) and removed from `prev` to `next`. */
export function diffCatalogs(prev: ToolCatalog, next: ToolCatalog): Pick<CatalogUpdate, "added" | "changed" | "removed"> {
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
  return { added, changed, removed };
}

/** What the follower needs from its router. */
export interface FollowerHost {
  /** The catalog the router routes on now. */
  catalog(): ToolCatalog;
  /** Builds the channels of `catalog` and swaps it in with `info` as its version. */
  swapTo(catalog: ToolCatalog, info: CatalogVersionInfo): Promise<unknown>;
}

export class CatalogFollower {
  /** Store version of the router's current catalog (set by the router's swap, in the same synchronous step). */
  version?: CatalogVersionInfo;
  /** Catalog changes one after another. */
  private chain: Promise<unknown> = Promise.resolve();
  private unwatch?: () => void;

  constructor(
    readonly binding: RouterStoreBinding,
    private readonly host: FollowerHost,
    /** Where a version that could not be followed is reported (the router's log). */
    private readonly log: (line: string) => void,
  ) {}

  /** Runs catalog changes one at a time. */
  inOrder<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Publishes `catalog` as the next version (or finds the version holding it). */
  async publish(catalog: ToolCatalog): Promise<CatalogVersionInfo> {
    const { created: _created, ...info } = await this.binding.publish(catalog);
    return info;
  }

  /** At the end of `prepare()`: publish the first catalog (or find its version) and start following. */
  async join(): Promise<void> {
    const binding = this.binding;
    const info = await this.publish(this.host.catalog());
    this.version = info;
    if (binding.follow && !this.unwatch) {
      this.unwatch = await binding.watch((v) => void this.follow(v.version));
      // A version published between our publish and the subscription would otherwise go unheard.
      const latest = await binding.latestVersion();
      if (latest && latest.version > info.version) await this.follow(latest.version);
    }
  }

  /**
   * Switches to a version another process published, unless the router is already on it or a later one. A version
   * holding the catalog the router already has only renumbers it; otherwise its catalog is rebuilt from the
   * snapshot and swapped in (its texts are in the store already: the publisher embedded them first).
   */
  follow(target: number): Promise<void> {
    const binding = this.binding;
    return this.inOrder(async () => {
      if (this.version && this.version.version >= target) return;
      const found = await binding.catalogOf(target, this.host.catalog());
      if (!found) return;
      if (this.version && found.info.digest === this.version.digest) {
        this.version = found.info;
        return;
      }
      await this.host.swapTo(found.catalog, found.info);
    }).catch((err) => {
      this.log(
        `tool-attention: could not follow catalog "${binding.catalog}" version ${target} from the ${binding.store.kind} store (${(err as Error)?.message ?? err}); routing on version ${this.version?.version}`,
      );
    });
  }

  /** Waits until the router routes on `version` or a later one (see `ToolAttentionRouter.waitForCatalogVersion`). */
  async waitFor(version: number, timeoutMs: number): Promise<CatalogVersionInfo> {
    const deadline = Date.now() + timeoutMs;
    while (!this.version || this.version.version < version) {
      if (Date.now() > deadline) throw new Error(`waitForCatalogVersion: still on version ${this.version?.version} after ${timeoutMs} ms (waiting for ${version})`);
      // Ask the store too: a caller waiting should not depend on the notification's timing alone.
      const latest = await this.binding.latestVersion();
      if (latest && latest.version >= version) await this.follow(latest.version);
      else await new Promise((r) => setTimeout(r, 50));
    }
    return { ...this.version };
  }

  /** Stops following, then waits for a catalog change in progress. */
  async close(): Promise<void> {
    this.unwatch?.();
    this.unwatch = undefined;
    await this.chain;
  }
}
