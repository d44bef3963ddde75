import { lastBudget } from './client';
import { IDLE_AFTER_MS, mayRefresh } from './use-api';

describe('mayRefresh (automatic refreshes spend the session\'s request budget)', () => {
  afterEach(() => {
    delete lastBudget.limit;
    delete lastBudget.remaining;
  });

  it('refreshes a visible page its user has touched lately', () => {
    expect(mayRefresh(Date.now(), true)).toBe(true);
  });

  it('not a hidden page, nor one left alone for two minutes', () => {
    expect(mayRefresh(Date.now(), false)).toBe(false);
    expect(mayRefresh(Date.now() + IDLE_AFTER_MS + 1, true)).toBe(false);
  });

  it('not once less than a fifth of the budget is left', () => {
    Object.assign(lastBudget, { limit: 1000, remaining: 200 });
    expect(mayRefresh(Date.now(), true)).toBe(true);
    Object.assign(lastBudget, { limit: 1000, remaining: 199 });
    expect(mayRefresh(Date.now(), true)).toBe(false);
  });
});
