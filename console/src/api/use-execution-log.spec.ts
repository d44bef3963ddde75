import type { Execution } from './types';
import { joinNewest } from './use-execution-log';

/** An execution stored `second` seconds into the minute (ids sort as their times do). */
const at = (second: number): Execution => ({
  id: `00000000-0000-7000-8000-${String(second).padStart(12, '0')}`,
  action_name: 'get_weather',
  status: 'succeeded',
  http_status: 200,
  result: null,
  error: '',
  duration_ms: 5,
  attempts: 1,
  created_at: `2026-11-27T10:00:${String(second).padStart(2, '0')}.000Z`,
});
const ids = (executions: Execution[] | undefined) => executions?.map((execution) => Number(execution.id.slice(-12)));
const PATH = '/tenants/t/executions?limit=3';
const now = new Date();

describe('joinNewest (the log\'s refresh, with older pages loaded)', () => {
  // Shown: a first page (9, 8, 7) and an older one (6, 5, 4), more after 4.
  const shown = { path: PATH, executions: [9, 8, 7, 6, 5, 4].map(at), next: 'after-4', loadedAt: now };

  it('adds what is new above what is shown, keeping the older pages and where they end', () => {
    const joined = joinNewest(shown, { executions: [11, 10, 9].map(at), next_cursor: 'after-9' }, PATH, now);
    expect(ids(joined.executions)).toEqual([11, 10, 9, 8, 7, 6, 5, 4]);
    expect(joined.next).toBe('after-4');
  });

  it('puts an execution stored late (a long call) in its place by time, not on top', () => {
    const late = joinNewest(shown, { executions: [at(10), at(9), { ...at(12), created_at: '2026-11-27T10:00:08.500Z' }], next_cursor: 'x' }, PATH, now);
    expect(ids(late.executions)).toEqual([10, 9, 12, 8, 7, 6, 5, 4]);
  });

  it('replaces the list when the newest page shares nothing with it (more than a page arrived): no hidden gap', () => {
    const joined = joinNewest(shown, { executions: [20, 19, 18].map(at), next_cursor: 'after-18' }, PATH, now);
    expect(ids(joined.executions)).toEqual([20, 19, 18]);
    expect(joined.next).toBe('after-18');
  });

  it('starts afresh for another list (a new filter), and clears the last error', () => {
    const joined = joinNewest({ ...shown, error: undefined }, { executions: [3].map(at), next_cursor: null }, `${PATH}&status=failed`, now);
    expect([ids(joined.executions), joined.next, joined.path, joined.error]).toEqual([[3], null, `${PATH}&status=failed`, undefined]);
  });
});
