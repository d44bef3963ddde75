/**
 * Durations are counted per bucket as executions are stored (the rollups of `execution_stats_hourly` and
 * `execution_stats_daily`), so p50 and p95 of any period come from adding rows, never from reading the log.
 * Bucket i counts durations d (ms) with BOUNDS[i - 1] <= d < BOUNDS[i]; the last bucket has no upper bound. A
 * percentile is interpolated linearly inside its bucket, so it is exact to within the bucket's width (about a
 * factor 1.25 apart: 10–13 ms, 1084–1355 ms, ...).
 */
export const DURATION_BOUNDS_MS: readonly number[] = buildBounds();

/** The number of buckets: one per bound, and one above the last. */
export const DURATION_BUCKETS = DURATION_BOUNDS_MS.length + 1;

function buildBounds(): number[] {
  // 1, 2, 3, 4, 5, 6, 8, then 10 × 1.25ⁿ rounded (10, 13, 16, 20, 24, 31, 38, 48, 60, 75, 93, ...) up to 48 s.
  const bounds = [1, 2, 3, 4, 5, 6, 8];
  for (let value = 10; value <= 60_000; value *= 1.25) {
    const rounded = Math.round(value);
    if (rounded > bounds[bounds.length - 1]) bounds.push(rounded);
  }
  return bounds;
}

/** The bucket a duration falls in. */
export function durationBucket(durationMs: number): number {
  let low = 0;
  let high = DURATION_BOUNDS_MS.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (durationMs < DURATION_BOUNDS_MS[middle]) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** A new histogram with one duration counted. */
export function histogramOf(durationMs: number): number[] {
  const histogram = new Array<number>(DURATION_BUCKETS).fill(0);
  histogram[durationBucket(durationMs)] = 1;
  return histogram;
}

/** Adds `other` into `into`, bucket by bucket (a missing bucket counts 0). */
export function addHistogram(into: number[], other: readonly number[]): number[] {
  for (let bucket = 0; bucket < DURATION_BUCKETS; bucket++) into[bucket] = (into[bucket] ?? 0) + (other[bucket] ?? 0);
  return into;
}

/**
 * The duration below which `fraction` of the counted executions fall (0.5: the median), in whole milliseconds,
 * interpolated inside its bucket; null when nothing was counted. The open last bucket answers its lower bound.
 */
export function percentile(histogram: readonly number[], fraction: number): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = fraction * total;
  let below = 0;
  for (let bucket = 0; bucket < histogram.length; bucket++) {
    const count = histogram[bucket];
    if (count > 0 && below + count >= rank) {
      const low = bucket === 0 ? 0 : DURATION_BOUNDS_MS[bucket - 1];
      if (bucket >= DURATION_BOUNDS_MS.length) return low;
      const high = DURATION_BOUNDS_MS[bucket];
      return Math.round(low + ((high - low) * (rank - below)) / count);
    }
    below += count;
  }
  return DURATION_BOUNDS_MS[DURATION_BOUNDS_MS.length - 1];
}
