import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, get, lastBudget } from './client';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** When the data was last read. */
  loadedAt: Date | undefined;
  reload: () => Promise<void>;
}

interface Answer<T> {
  path: string;
  data?: T;
  error?: ApiError;
  loadedAt?: Date;
}

/** How long after the user's last input automatic refreshes go on. */
export const IDLE_AFTER_MS = 2 * 60_000;
/** Automatic refreshes stop while less than this share of the request budget is left. */
const BUDGET_RESERVE = 0.2;

let lastInput = Date.now();
if (typeof window !== 'undefined') {
  for (const event of ['pointerdown', 'pointermove', 'keydown', 'wheel', 'scroll', 'focus']) {
    window.addEventListener(event, () => (lastInput = Date.now()), { passive: true, capture: true });
  }
}

/**
 * Whether an automatic refresh may be sent now. Every request a session makes counts against a budget (a tenant
 * session's against its tenant's 1,000 an hour, which its production traffic needs too): so no refresh while
 * the page is hidden, nor once the user has left it alone for IDLE_AFTER_MS (it resumes at their next input),
 * nor while less than a fifth of the budget is left. A refresh the user asks for is always sent.
 */
export function mayRefresh(now = Date.now(), visible = document.visibilityState === 'visible'): boolean {
  if (!visible || now - lastInput > IDLE_AFTER_MS) return false;
  return lastBudget.limit === undefined || (lastBudget.remaining ?? 0) >= lastBudget.limit * BUDGET_RESERVE;
}

/**
 * GETs `path` and keeps the answer; `refreshMs` reads it again on that interval while an automatic refresh may
 * be sent (mayRefresh: the page visible, its user there, budget to spare), so the page follows the service
 * without a reload.
 */
export function useApi<T>(path: string | undefined, options: { refreshMs?: number } = {}): Loaded<T> {
  const [answer, setAnswer] = useState<Answer<T>>();
  const latest = useRef(path);
  useEffect(() => {
    latest.current = path;
  }, [path]);
  // Reads are numbered as they are sent; `shown` is the newest one applied.
  const sent = useRef(0);
  const shown = useRef(0);

  // A late answer for a path the page has left is dropped, and so is one overtaken by a later read (the first
  // load answering after the reload that followed a change would show the list without it). A failed refresh
  // keeps the data it had.
  const load = useCallback(async (from: string) => {
    const number = ++sent.current;
    const next = await read<T>(from);
    if (latest.current !== next.path || number < shown.current) return;
    shown.current = number;
    setAnswer((previous) => (next.error && previous?.path === next.path ? { ...previous, error: next.error } : next));
  }, []);

  useEffect(() => {
    if (path !== undefined) void load(path);
  }, [path, load]);

  const reload = useCallback(async () => {
    if (path !== undefined) await load(path);
  }, [path, load]);

  useRefreshEvery(options.refreshMs, reload);

  const current = answer?.path === path ? answer : undefined;
  return { data: current?.data, error: current?.error, loading: path !== undefined && !current, loadedAt: current?.loadedAt, reload };
}

/** Calls `refresh` every `refreshMs` (none when undefined) while an automatic refresh may be sent (mayRefresh). */
export function useRefreshEvery(refreshMs: number | undefined, refresh: () => Promise<void>): void {
  useEffect(() => {
    if (!refreshMs) return;
    const timer = setInterval(() => {
      if (mayRefresh()) void refresh();
    }, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, refresh]);
}

async function read<T>(path: string): Promise<Answer<T>> {
  try {
    return { path, data: await get<T>(path), loadedAt: new Date() };
  } catch (caught) {
    return { path, error: caught instanceof ApiError ? caught : new ApiError(0, String(caught)) };
  }
}
