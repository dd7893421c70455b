/**
 * Long whole-catalog work (hashing 200 MB of schemas, tokenizing them) run in slices of about `sliceMs` with the
 * host's event loop served between them, so a library never blocks its host for seconds:
 *
 *   const slices = new TimeSlices();
 *   for (const item of items) { work(item); if (slices.due) await slices.pause(); }
 */
export class TimeSlices {
  private start = performance.now();

  constructor(
    private readonly sliceMs = 10,
    /** Checked after each pause: an aborted signal makes `pause` reject with its reason. */
    private readonly signal?: AbortSignal,
  ) {}

  /** Whether the current slice has run its time. */
  get due(): boolean {
    return performance.now() - this.start > this.sliceMs;
  }

  /** Serves the event loop once, then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.start = performance.now();
  }
}
