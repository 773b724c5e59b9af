/** Summary statistics of a sample of durations in milliseconds. */
export interface Summary {
  readonly n: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly meanMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/** Percentile by nearest rank on a sorted copy (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(values: readonly number[]): Summary {
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: values.length,
    medianMs: round(percentile(values, 50)),
    p95Ms: round(percentile(values, 95)),
    meanMs: round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)),
    minMs: round(Math.min(...values)),
    maxMs: round(Math.max(...values)),
  };
}

/** Ratio rounded to two decimals. */
export function ratio(a: number, b: number): number {
  return Math.round((a / b) * 100) / 100;
}

/**
 * Runs `fn` `count` times with at most `concurrency` in flight; returns each duration (ms).
 * `fn` gets the run index and its worker's index (0 … concurrency-1), stable per worker.
 */
export async function timed(
  count: number,
  concurrency: number,
  fn: (i: number, worker: number) => Promise<void>,
): Promise<{ durations: number[]; wallMs: number }> {
  const durations: number[] = [];
  let next = 0;
  const start = performance.now();
  async function worker(w: number): Promise<void> {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      await fn(i, w);
      durations.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  return { durations, wallMs: performance.now() - start };
}
