/** Resolves after `ms` (unref'd, so housekeeping never keeps the process alive). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    timer.unref();
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Runs `promise` under a deadline; on expiry rejects with `new Error(label)`. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not finish within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

/** Settles `promise` within `ms`, swallowing its error (best-effort cleanup). */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  try {
    await withDeadline(promise, ms, 'cleanup');
  } catch {
    // Best effort: the caller escalates (kill by pid) if it matters.
  }
}

/** Exponential backoff delay for attempt `n` (0-based), capped. */
export function backoffMs(n: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(n, 16));
}
