import { DURATION_BOUNDS_MS, DURATION_BUCKETS, addHistogram, durationBucket, histogramOf, percentile } from './duration-histogram';

describe('duration histogram', () => {
  it('puts each duration in the bucket of its bounds, the last one open', () => {
    expect(durationBucket(0)).toBe(0);
    expect(durationBucket(1)).toBe(1);
    expect(durationBucket(9)).toBe(DURATION_BOUNDS_MS.indexOf(10));
    expect(durationBucket(10)).toBe(DURATION_BOUNDS_MS.indexOf(10) + 1);
    expect(durationBucket(10_000_000)).toBe(DURATION_BUCKETS - 1);
    expect(histogramOf(42).reduce((sum, count) => sum + count, 0)).toBe(1);
  });

  it('reads p50 and p95 within a bucket\'s width of the exact figures', () => {
    const durations = Array.from({ length: 1_000 }, (_, index) => 5 + ((index * 7919) % 400));
    const histogram = durations.reduce((sum, duration) => addHistogram(sum, histogramOf(duration)), new Array<number>(DURATION_BUCKETS).fill(0));
    const exact = (fraction: number) => [...durations].sort((a, b) => a - b)[Math.ceil(fraction * durations.length) - 1];
    for (const fraction of [0.5, 0.95]) {
      const estimate = percentile(histogram, fraction)!;
      expect(Math.abs(estimate - exact(fraction)) / exact(fraction)).toBeLessThan(0.25);
    }
    expect(percentile(new Array(DURATION_BUCKETS).fill(0), 0.5)).toBeNull();
  });
});
