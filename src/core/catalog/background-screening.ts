/**
 * The background half of progressive screening (see `ToolCatalog`, "Progressive screening"): who screens the tools
 * still pending, when, and who waits for the end. The catalog keeps the verdicts (`screenOne` judges one tool and
 * takes it out of the pending map); this module only schedules that work:
 *
 * - in a worker thread (`screen-thread.ts`), one pass off the host's thread, each batch's verdicts handed back;
 * - where no thread can start, or the thread fails, in slices of a few milliseconds on this thread.
 *
 * It starts once the turn of the event loop that built the catalog is over, or when a router's first route settles
 * (`defer`), or when someone waits for the end (`whenDone`). Nothing here keeps a process alive unless a caller
 * waits for the end.
 */
import type { ToolSpec } from "../types.js";
import type { ScreeningResult } from "../screening/screen.js";
import { screenableOf, startScreenThread, type ScreenThread } from "./screen-thread.js";

/** Longest a background screening slice runs before it yields to the event loop, ms. */
const SCREENING_SLICE_MS = 8;

/** A tool built into the catalog before the screen has read it: what its screening needs. */
export interface PendingTool {
  spec: ToolSpec;
  server: string;
  label: string;
}

/** What the screening thread needs besides the tools: the catalog's other tools and the policy's threshold. */
export interface ScreenContext {
  neighbours: readonly { name: string; server: string }[];
  threshold: number;
}

/** One run of the background, from its start to its end or stop. */
interface Run {
  thread?: ScreenThread;
  timer?: NodeJS.Immediate;
  done: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
  /** Someone waits for the end: the run keeps the process alive until then. */
  awaited: boolean;
}

export class BackgroundScreening {
  private run?: Run;
  /** The start after construction, until it happens or is deferred. */
  private kickoff?: NodeJS.Immediate;
  /** Set when the screening thread could not be used: slices on this thread from then on. */
  private threadDenied = false;

  /**
   * `pending`: the catalog's tools still to screen, by id, in catalog order (the catalog deletes each one it screens).
   * `screenOne`: screens the pending tool `id`, with the thread's verdict when there is one.
   */
  constructor(
    private readonly pending: ReadonlyMap<string, PendingTool>,
    private readonly context: ScreenContext,
    private readonly screenOne: (id: string, result?: ScreeningResult) => void,
  ) {
    if (pending.size === 0) return;
    this.kickoff = setImmediate(() => {
      this.kickoff = undefined;
      if (this.pending.size > 0) void this.start();
    });
    this.kickoff.unref();
  }

  /**
   * Starts only when `until` settles, unless the background has started already or someone waits for it (see
   * `ToolCatalog.deferScreening`).
   */
  defer(until: Promise<unknown>): void {
    if (!this.kickoff) return;
    clearImmediate(this.kickoff);
    this.kickoff = undefined;
    const go = () => {
      if (this.pending.size > 0 && !this.run?.thread && !this.run?.timer) void this.start();
    };
    until.then(go, go);
  }

  /**
   * Resolves once every tool is screened; starts the background (again, after `stop`) and keeps the process alive
   * until then. `start: false` only listens: it neither starts the background nor keeps the process alive.
   */
  whenDone(options: { start?: boolean } = {}): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    if (options.start === false) return (this.run ??= idleRun()).done;
    this.cancelKickoff();
    const done = this.start();
    const run = this.run!;
    run.awaited = true;
    run.timer?.ref();
    run.thread?.hold(true);
    return done;
  }

  /** Stops the background; a `whenDone()` waiting rejects. A later `whenDone()` starts it again. */
  stop(): void {
    this.cancelKickoff();
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    if (run.timer) clearImmediate(run.timer);
    run.thread?.stop();
    run.reject(new Error(`ToolCatalog: background screening stopped with ${this.pending.size} tools still to screen (a later whenScreened() starts it again)`));
  }

  /** Every tool is screened (the catalog calls it once its lists are final): the waiters are released. */
  finish(): void {
    this.cancelKickoff();
    const run = this.run;
    this.run = undefined;
    if (run?.timer) clearImmediate(run.timer);
    run?.thread?.stop();
    run?.resolve();
  }

  private cancelKickoff(): void {
    if (this.kickoff) clearImmediate(this.kickoff);
    this.kickoff = undefined;
  }

  /** Starts the run unless it is running: in a worker thread, or where none can start, in slices on this thread. */
  private start(): Promise<void> {
    const run = (this.run ??= idleRun());
    if (run.thread || run.timer) return run.done;
    if (!this.threadDenied) {
      const ids = [...this.pending.keys()];
      try {
        const thread: ScreenThread = startScreenThread(
          { tools: ids.map((id) => ({ spec: screenableOf(this.pending.get(id)!.spec), server: this.pending.get(id)!.server })), ...this.context },
          (from, results) => results.forEach((r, k) => this.screenOne(ids[from + k]!, r)),
          (error) => {
            if (this.run !== run || run.thread !== thread) return; // stopped, or done
            run.thread = undefined;
            // The thread failed: this thread screens the rest (nothing is lost: answered tools are judged already).
            if (error !== undefined && this.pending.size > 0) {
              this.threadDenied = true;
              this.scheduleSlice();
            }
          },
        );
        run.thread = thread;
        thread.hold(run.awaited);
        return run.done;
      } catch {
        // No thread here (tools that cannot be sent to one, or TypeScript sources without tsx): slices.
        this.threadDenied = true;
      }
    }
    this.scheduleSlice();
    return run.done;
  }

  /** The next slice, after the event loop has turned (unref'd unless someone waits for the end). */
  private scheduleSlice(): void {
    const run = this.run;
    if (!run || this.pending.size === 0) return;
    run.timer = setImmediate(() => {
      run.timer = undefined;
      const until = performance.now() + SCREENING_SLICE_MS;
      for (const id of this.pending.keys()) {
        this.screenOne(id);
        if (performance.now() >= until) break;
      }
      if (this.pending.size > 0) this.scheduleSlice();
    });
    if (!run.awaited) run.timer.unref();
  }
}

/** A run not started yet: the promise of its end, never an unhandled rejection when stopped with nobody waiting. */
function idleRun(): Run {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  done.catch(() => undefined);
  return { done, resolve, reject, awaited: false };
}
