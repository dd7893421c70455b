/**
 * A small pool of worker threads running the USE-lite model (`use-lite-worker.ts`), so the model never runs on the
 * host application's main thread. Two reasons:
 * - TF.js's WASM runtime installs process-wide `uncaughtException` / `unhandledRejection` listeners that rethrow
 *   when it loads; on the main thread they defeat an application's own handler (the process exits with code 7). A
 *   worker thread has its own `process` object, so they stay there.
 * - One forward pass takes 20–50 ms of CPU; on the main thread it stalls every other request a server handles.
 *
 * Scheduling: a main-side FIFO queue, at most one request in flight per worker, workers started lazily (the first
 * request starts one; more start only while batches of several texts wait, up to `size`, and only in a stretch of
 * work of at least `growAfterTexts` texts, counted as they are embedded or announced by `expectTexts`: each worker
 * holds its own model copy, and a second one pays for its memory only on builds long enough to need it). Idle workers are `unref()`ed so they never
 * keep the host process alive, and `ref()`ed while they hold a request so an awaited embedding is not cut short by
 * the process exiting under it.
 *
 * Failures: a request that fails inside the worker rejects its caller with the worker's message, naming the encoder.
 * A failed model load also rejects every queued request (each would retry the same load). A worker that dies (an
 * uncaught error, out of memory, terminated) rejects its in-flight request, and the queue too when no other worker
 * is left; the next request starts a fresh worker. Nothing is ever left pending.
 *
 * Locating the worker: `use-lite-worker` next to this module (`startModuleWorker`).
 */
import type { ResourceLimits, Worker } from "node:worker_threads";
import { startModuleWorker } from "../util/module-worker.js";

/** Request to a worker: embed `texts` in one model call; no texts = load the model only. */
export interface UseLiteRequest {
  id: number;
  texts: string[];
}

/** A worker's reply: the raw rows, flattened, with the row count as the model returned it. */
export type UseLiteResponse =
  | { id: number; ok: true; count: number; dim: number; data?: Float64Array<ArrayBuffer> }
  | { id: number; ok: false; phase: "load" | "embed"; message: string };

/** One batch's raw model output: `count` rows of `dim` values, row-major. */
export interface UseLiteBatchResult {
  count: number;
  dim: number;
  data: Float64Array;
}

export interface UseLiteWorkerPoolOptions {
  /** Maximum number of worker threads (each holds its own model copy, about 65–75 MiB resident). Default 1. */
  size?: number;
  /**
   * V8 heap limits of each worker (Node's `Worker` option), over {@link USE_LITE_WORKER_RESOURCE_LIMITS} (fields
   * given here win).
   */
  resourceLimits?: ResourceLimits;
  /**
   * A worker beyond the first starts only in a stretch of work (no idle pause longer than
   * `USE_LITE_STRETCH_PAUSE_MS`) of at least this many texts, embedded so far or announced by `expectTexts`, and only
   * for a waiting batch of more than one text (a build's, not a query's). Each worker costs its own model copy
   * (about 65–75 MiB resident); one worker embeds a few thousand texts in seconds to tens of seconds, while a build
   * announced as larger gets its second worker at once. 0 = grow as soon as any request waits. Default
   * {@link USE_LITE_GROW_AFTER_TEXTS}.
   */
  growAfterTexts?: number;
}

/**
 * Default `growAfterTexts`: about 25 s of one worker on 2 cores. A 500-tool catalog (about 1,900 texts: its tool
 * texts, then its multi-vector sentences) builds on one worker; a 10,000-tool build, announced by the router, gets
 * its second worker at once.
 */
export const USE_LITE_GROW_AFTER_TEXTS = 2048;
/**
 * Default heap limits of an encoder worker: a 4 MB young generation instead of V8's default (up to 16 MB per
 * semi-space). The tokenizer's short-lived garbage otherwise grows the worker's heap by ~18 MiB during a build and
 * it stays resident; measured on 500 tool texts, the worker's V8 heap stays at 22 MiB instead of 34–50, at no
 * measurable cost in time. The old generation keeps Node's default.
 */
export const USE_LITE_WORKER_RESOURCE_LIMITS: Readonly<ResourceLimits> = Object.freeze({ maxYoungGenerationSizeMb: 4 });
/** An idle pause longer than this (ms) ends a stretch of work: the next request counts its texts from zero. */
export const USE_LITE_STRETCH_PAUSE_MS = 1000;

/** Prefix of every error raised here: names the encoder and where it runs. */
export const USE_LITE_WORKER_LABEL = 'UseLiteEmbeddings (encoder "use-lite", Universal Sentence Encoder lite in a worker thread)';

interface Task {
  texts: string[];
  /** Goes before the batches waiting (see `embed`). */
  urgent: boolean;
  resolve: (r: UseLiteBatchResult) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  task?: Task & { id: number };
  dead: boolean;
}

function startWorker(resourceLimits: ResourceLimits): Worker {
  return startModuleWorker(import.meta.url, "use-lite-worker", USE_LITE_WORKER_LABEL, { resourceLimits });
}

export class UseLiteWorkerPool {
  private maxSize: number;
  private readonly resourceLimits: ResourceLimits;
  private readonly growAfterTexts: number;
  private readonly queue: Task[] = [];
  private readonly slots: Slot[] = [];
  private nextId = 1;
  /** Texts embedded in the current stretch of work (see `growAfterTexts`). */
  private stretchTexts = 0;
  /** When the pool last went idle (nothing in flight or queued); undefined while it works. */
  private idleSince: number | undefined;

  constructor(options: UseLiteWorkerPoolOptions = {}) {
    const { size = 1, resourceLimits, growAfterTexts = USE_LITE_GROW_AFTER_TEXTS } = options;
    assertSize(size);
    if (!Number.isInteger(growAfterTexts) || growAfterTexts < 0)
      throw new RangeError(`UseLiteWorkerPool: growAfterTexts must be a non-negative integer, got ${growAfterTexts}`);
    this.maxSize = size;
    this.resourceLimits = { ...USE_LITE_WORKER_RESOURCE_LIMITS, ...resourceLimits };
    this.growAfterTexts = growAfterTexts;
  }

  /** Maximum number of worker threads. */
  get size(): number {
    return this.maxSize;
  }

  /** Raises the maximum number of workers to `size` (never lowers it: running workers are not stopped). */
  grow(size: number): void {
    assertSize(size);
    if (size > this.maxSize) {
      this.maxSize = size;
      this.pump();
    }
  }

  /** The running worker threads (at most `size`; none before the first request or after `close()`). */
  get workers(): readonly Worker[] {
    return this.slots.map((s) => s.worker);
  }

  /**
   * Embeds `texts` exactly as given in ONE model call in a worker and returns the raw rows with the count the model
   * returned (callers assert it). An empty list only makes sure a worker has loaded the model.
   *
   * An urgent request goes before the requests waiting that are not, after the other urgent ones: a route waits for
   * it, and it costs one short forward pass, where a catalog build's batches queue by the dozen. It still waits for
   * the forward pass a worker is running. Default: urgent for a request of one text (a route's query).
   */
  embed(texts: readonly string[], urgent = texts.length === 1): Promise<UseLiteBatchResult> {
    this.continueStretch();
    return new Promise<UseLiteBatchResult>((resolve, reject) => {
      const task = { texts: [...texts], urgent, resolve, reject };
      if (urgent) {
        const firstBatch = this.queue.findIndex((t) => !t.urgent);
        this.queue.splice(firstBatch === -1 ? this.queue.length : firstBatch, 0, task);
      } else this.queue.push(task);
      this.pump();
    });
  }

  /**
   * Announces `count` texts about to be embedded as one build (batches follow at once). A build of at least
   * `growAfterTexts` texts may then start further workers as soon as its batches wait, instead of after its first
   * `growAfterTexts` texts. Texts that turn out to be cached cost nothing: single-text requests (queries) never start
   * a further worker.
   */
  expectTexts(count: number): void {
    this.continueStretch();
    if (count >= this.growAfterTexts) this.stretchTexts = Math.max(this.stretchTexts, count);
    // If no batch follows (the texts were cached), the announcement lapses with the next idle pause.
    if (this.queue.length === 0 && this.slots.every((s) => !s.task)) this.idleSince = performance.now();
    this.pump();
  }

  /** Starts a worker if none runs and waits until it has loaded the model; rejects when the load fails. */
  async warmUp(): Promise<void> {
    await this.embed([]);
  }

  /**
   * Terminates every worker. Requests in flight or queued are rejected. The pool stays usable: a later request
   * starts a new worker.
   */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    const queued = this.queue.splice(0);
    const closed = () => new Error(`${USE_LITE_WORKER_LABEL}: the encoder was closed before this request finished.`);
    for (const s of slots) {
      s.dead = true;
      s.task?.reject(closed());
      s.task = undefined;
    }
    for (const t of queued) t.reject(closed());
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  // -------------------------------------------------------------------------------------------------------------

  /** A request arrives: after an idle pause longer than USE_LITE_STRETCH_PAUSE_MS, a new stretch of work begins. */
  private continueStretch(): void {
    if (this.idleSince !== undefined && performance.now() - this.idleSince > USE_LITE_STRETCH_PAUSE_MS) this.stretchTexts = 0;
    this.idleSince = undefined;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.task);
      if (!slot) {
        if (this.slots.length >= this.maxSize) return;
        // A further worker (a further model copy) only for a build's batch in a stretch of work long enough to pay
        // for it; an urgent request (a query) waits for the running worker (one forward pass) rather than load a model copy.
        if (this.slots.length > 0 && this.growAfterTexts > 0 && (this.stretchTexts < this.growAfterTexts || this.queue[0]!.urgent || this.queue[0]!.texts.length < 2)) return;
        try {
          slot = this.spawn();
        } catch (err) {
          // Cannot start a worker at all (e.g. tsx missing under sources): fail what waits rather than spin.
          for (const t of this.queue.splice(0)) t.reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
      }
      const task = this.queue.shift()!;
      const id = this.nextId++;
      slot.task = { ...task, id };
      slot.worker.ref();
      slot.worker.postMessage({ id, texts: task.texts } satisfies UseLiteRequest);
    }
  }

  private spawn(): Slot {
    const worker = startWorker(this.resourceLimits);
    worker.unref();
    const slot: Slot = { worker, dead: false };
    this.slots.push(slot);
    worker.on("message", (res: UseLiteResponse) => this.onMessage(slot, res));
    worker.on("error", (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      this.onDeath(slot, `it threw ${e.name}: ${e.message}`, err);
    });
    worker.on("messageerror", (err) => {
      this.onDeath(slot, `its reply could not be deserialized (${err?.message ?? err})`, err);
      void worker.terminate();
    });
    worker.on("exit", (code) => this.onDeath(slot, `it exited with code ${code}`));
    return slot;
  }

  private onMessage(slot: Slot, res: UseLiteResponse): void {
    const task = slot.task;
    if (slot.dead || !task || task.id !== res.id) return;
    slot.task = undefined;
    slot.worker.unref();
    this.stretchTexts += task.texts.length;
    if (this.queue.length === 0 && this.slots.every((s) => !s.task)) this.idleSince = performance.now();
    if (res.ok) {
      task.resolve({ count: res.count, dim: res.dim, data: res.data ?? new Float64Array(0) });
    } else if (res.phase === "load") {
      const message = `${USE_LITE_WORKER_LABEL}: the model failed to load: ${res.message}`;
      task.reject(new Error(message));
      // Every queued request would retry the same load: fail them now; the next request tries again.
      for (const t of this.queue.splice(0)) t.reject(new Error(message));
    } else {
      task.reject(new Error(`${USE_LITE_WORKER_LABEL}: embedding a batch of ${task.texts.length} texts failed: ${res.message}`));
    }
    this.pump();
  }

  private onDeath(slot: Slot, why: string, cause?: unknown): void {
    if (slot.dead) return;
    slot.dead = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const died = (what: string) =>
      new Error(`${USE_LITE_WORKER_LABEL}: the worker thread stopped unexpectedly (${why}) ${what}; the next request starts a new one.`, { cause });
    const task = slot.task;
    slot.task = undefined;
    task?.reject(died(task.texts.length > 0 ? `while embedding ${task.texts.length} texts` : "while loading the model"));
    // Queued requests go to the remaining workers; with none left, fail them rather than restart a worker that
    // may die the same way (a load that runs out of memory) once per queued request.
    if (this.slots.length === 0) for (const t of this.queue.splice(0)) t.reject(died("before this request was sent to it"));
    else this.pump();
  }
}

function assertSize(size: number): void {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`UseLiteWorkerPool: size must be a positive integer, got ${size}`);
}

let shared: UseLiteWorkerPool | undefined;

/**
 * The process-wide pool every `UseLiteEmbeddings` uses by default (one model copy per worker, shared by all
 * instances, like the single in-process model). Its size is the largest `workers` any instance asked for.
 */
export function sharedUseLiteWorkerPool(minSize = 1): UseLiteWorkerPool {
  shared ??= new UseLiteWorkerPool({ size: minSize });
  shared.grow(minSize);
  return shared;
}

/**
 * Terminates the shared USE-lite worker threads (pending requests are rejected). Not needed for the process to
 * exit (idle workers never keep it alive); use it to free their memory. A later embedding restarts a worker.
 */
export async function closeUseLiteWorkers(): Promise<void> {
  await shared?.close();
}
