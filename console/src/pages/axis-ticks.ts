/** The least room a label of the time axis gets ("14:00", "27 Nov" and the space between two). */
export const TICK_SPACING_PX = 56;
const HOUR_STEPS = [1, 2, 3, 4, 6, 8, 12, 24];
const DAY_STEPS = [1, 2, 3, 5, 7, 14, 28, 56, 91, 182, 364];

/**
 * Which points of a time axis `widthPx` wide get a label: every `step`-th, evenly, the step the smallest of a few
 * round ones whose labels are at least TICK_SPACING_PX apart. Hours are labelled on the reader's clock (every 3 h:
 * 00:00, 03:00, ...; midnight shows its day), days counting back from the last (today is labelled). No tick is
 * added at either end: that extra last tick is what bunched up against its neighbour ("14:00 19:00").
 * `starts` are the points' starts (ISO), oldest first; the answer is their indexes.
 */
export function tickIndexes(starts: readonly string[], period: 'hourly' | 'daily', widthPx: number): number[] {
  const count = starts.length;
  if (count === 0) return [];
  const perPoint = widthPx > 0 ? widthPx / count : 0;
  const steps = period === 'hourly' ? HOUR_STEPS : DAY_STEPS;
  const step = steps.find((candidate) => candidate * perPoint >= TICK_SPACING_PX) ?? steps[steps.length - 1];
  const indexes: number[] = [];
  for (let index = 0; index < count; index++) {
    const labelled = period === 'hourly' ? new Date(starts[index]).getHours() % step === 0 : (count - 1 - index) % step === 0;
    if (labelled) indexes.push(index);
  }
  return indexes;
}
