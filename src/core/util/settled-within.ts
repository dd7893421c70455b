/**
 * Waits until `promise` settles or `ms` pass, whichever comes first; never rejects. For bounded waits on work that
 * goes on after the wait (a route waiting a while for a channel or a few vectors the build will have anyway).
 */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  if (ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
