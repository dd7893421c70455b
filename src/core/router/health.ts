/**
 * The state of a router's dense build, as `health()` reports it: building (the catalog is routable on the lexical
 * channel while the encoder embeds it), ready (the hybrid serves), or degraded (the encoder could not load or failed
 * while embedding: the lexical channel serves until a later build succeeds).
 *
 * One tracker per router, about the catalog the router routes on (or is about to swap in); the router moves it.
 */
import type { ScreeningProgress, ToolCatalog } from "../catalog/catalog.js";
import type { RoutingChannel } from "../types.js";

export type RouterBuildState = "building" | "ready" | "degraded";

/** What `ToolAttentionRouter.health()` returns. */
export interface RouterHealth {
  /** "building": the catalog is being embedded; "ready": every channel serves; "degraded": the encoder failed. */
  state: RouterBuildState;
  /** Whether a route answers now without waiting (false only before the first catalog's lexical channel exists). */
  routable: boolean;
  /** The channels a route scores on now. */
  channels: RoutingChannel[];
  /** The encoder's model id, "" until it has loaded. */
  encoder: string;
  /** Tools of the catalog. */
  tools: number;
  /**
   * The catalog's tool screening: tools still pending (a large catalog screens in the background, see
   * `CatalogOptions.progressiveScreening`; every tool is screened before it is shown), screened and quarantined so far.
   */
  screening: ScreeningProgress;
  /** Dense texts of the catalog with a vector so far, of `total` (whole texts and multi-vector rows; 0 of 0 before the build counts them). */
  embedded: number;
  total: number;
  /** With state "degraded": the encoder's error. */
  error?: string;
  /** When the state began (ms since the epoch). */
  since: number;
}

/** The dense build's progress and outcome for one catalog at a time. */
export class BuildTracker {
  state: RouterBuildState = "building";
  embedded = 0;
  total = 0;
  error?: string;
  since = Date.now();
  /** The catalog the state is about. */
  catalog?: ToolCatalog;
  private startedAt = performance.now();

  /** A build of `catalog` begins (nothing changes when one is already counted for it). */
  start(catalog: ToolCatalog): void {
    if (this.catalog === catalog && this.state === "building") return;
    this.catalog = catalog;
    this.state = "building";
    this.embedded = 0;
    this.total = 0;
    this.error = undefined;
    this.since = Date.now();
    this.startedAt = performance.now();
  }

  progress(catalog: ToolCatalog, ready: number, total: number): void {
    if (this.catalog !== catalog) return;
    this.embedded = ready;
    this.total = total;
  }

  ready(catalog: ToolCatalog): void {
    this.catalog = catalog;
    this.state = "ready";
    this.embedded = this.total;
    this.error = undefined;
    this.since = Date.now();
  }

  fail(catalog: ToolCatalog, error: unknown): string {
    this.catalog = catalog;
    this.state = "degraded";
    this.error = errorText(error);
    this.since = Date.now();
    return this.error;
  }

  /** Seconds since the build of the current catalog began. */
  seconds(): number {
    return (performance.now() - this.startedAt) / 1000;
  }
}

/** An error's message, first line, bounded: what a log line or a health report can hold. */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.slice(0, 300);
}
