import { TICK_SPACING_PX, tickIndexes } from './axis-ticks';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** `count` starts `stepMs` apart, the last at `last`. */
function starts(count: number, stepMs: number, last: number): string[] {
  return Array.from({ length: count }, (_, index) => new Date(last - (count - 1 - index) * stepMs).toISOString());
}

const gaps = (indexes: number[]) => indexes.slice(1).map((index, at) => index - indexes[at]);

describe('tickIndexes', () => {
  // The reader's clock: hours are labelled on it (jest runs in the machine's zone; whole-hour zones here).
  const lastHour = new Date(2026, 10, 28, 19).getTime();

  it.each([390, 600, 800, 1000, 1280, 1920])('labels 48 hours evenly on a whole hour of the clock, %i px wide, with room for each label', (width) => {
    const hours = starts(48, HOUR_MS, lastHour);
    const indexes = tickIndexes(hours, 'hourly', width);
    const step = gaps(indexes)[0];
    expect(new Set(gaps(indexes))).toEqual(new Set([step]));
    expect(step * (width / 48)).toBeGreaterThanOrEqual(TICK_SPACING_PX);
    for (const index of indexes) expect(new Date(hours[index]).getHours() % step).toBe(0);
  });

  it('adds no last tick next to the one before it (14:00 then 19:00)', () => {
    const hours = starts(48, HOUR_MS, lastHour); // the last hour is 19:00
    const indexes = tickIndexes(hours, 'hourly', 390);
    expect(indexes.map((index) => new Date(hours[index]).getHours())).not.toContain(19);
  });

  it.each([390, 800, 1280])('labels 30 days evenly from today back, %i px wide', (width) => {
    const days = starts(30, DAY_MS, Date.UTC(2026, 10, 28));
    const indexes = tickIndexes(days, 'daily', width);
    expect(indexes[indexes.length - 1]).toBe(29);
    const step = gaps(indexes)[0];
    expect(new Set(gaps(indexes))).toEqual(new Set([step]));
    expect(step * (width / 30)).toBeGreaterThanOrEqual(TICK_SPACING_PX);
  });

  it('labels every point when there is room, and nothing of nothing', () => {
    expect(tickIndexes(starts(3, DAY_MS, Date.UTC(2026, 10, 28)), 'daily', 1000)).toEqual([0, 1, 2]);
    expect(tickIndexes([], 'hourly', 1000)).toEqual([]);
  });
});
