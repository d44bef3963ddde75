import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, get } from './client';

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

/**
 * GETs `path` and keeps the answer; `refreshMs` reads it again on that interval while the page is visible
 * (the execution log), so the page follows the service without a reload.
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

  const { refreshMs } = options;
  useEffect(() => {
    if (!refreshMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, reload]);

  const current = answer?.path === path ? answer : undefined;
  return { data: current?.data, error: current?.error, loading: path !== undefined && !current, loadedAt: current?.loadedAt, reload };
}

async function read<T>(path: string): Promise<Answer<T>> {
  try {
    return { path, data: await get<T>(path), loadedAt: new Date() };
  } catch (caught) {
    return { path, error: caught instanceof ApiError ? caught : new ApiError(0, String(caught)) };
  }
}
