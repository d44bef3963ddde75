import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, get } from './client';
import type { Execution, ExecutionPage } from './types';
import { useRefreshEvery } from './use-api';

/** An execution log as a page shows it: the newest page, kept up to date, and older pages read on demand. */
export interface ExecutionLog {
  executions: Execution[] | undefined;
  error: ApiError | undefined;
  /** No answer yet for this list (a new filter's first answer: the old filter's rows are not shown meanwhile). */
  loading: boolean;
  loadedAt: Date | undefined;
  /** Older executions exist (`next_cursor`). */
  hasOlder: boolean;
  loadingOlder: boolean;
  /** Reads the next older page and adds it below. */
  loadOlder: () => Promise<void>;
  /** Reads the newest page again and adds what is new, keeping the older pages read so far. */
  refresh: () => Promise<void>;
}

interface State {
  path: string;
  /** Undefined until the list's first answer. */
  executions?: Execution[];
  /** Where the page after the oldest execution shown starts; null: that one is the oldest. */
  next: string | null;
  loadedAt?: Date;
  /** Why the last read failed; what was shown stays. */
  error?: ApiError;
}

const withCursor = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
const newestFirst = (a: Execution, b: Execution) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1);

/**
 * The newest page of `path` joined to what was shown. When the newest page shares an execution with what is shown,
 * both are one contiguous stretch of the log: their union, in the log's order, keeping the older pages and where
 * they end. When it shares none (more than a page arrived between two reads), what is shown may not continue it:
 * the newest page replaces it, so the list never has a hidden gap.
 */
export function joinNewest(shown: State | undefined, newest: ExecutionPage, path: string, loadedAt: Date): State {
  const fresh: State = { path, executions: newest.executions, next: newest.next_cursor, loadedAt };
  if (shown?.path !== path || !shown.executions || shown.executions.length === 0) return fresh;
  const known = new Set(shown.executions.map((execution) => execution.id));
  if (!newest.executions.some((execution) => known.has(execution.id))) return fresh;
  const added = newest.executions.filter((execution) => !known.has(execution.id));
  return { path, executions: [...added, ...shown.executions].sort(newestFirst), next: shown.next, loadedAt };
}

/** `shown` (if it is of `path`) with the error of its last read. */
const failed = (shown: State | undefined, path: string, error: ApiError): State => ({ ...(shown?.path === path ? shown : { path, next: null }), error });

/**
 * GETs an execution list (`{executions, next_cursor}`) at `path`: its newest page, again every `refreshMs` while an
 * automatic refresh may be sent (mayRefresh), and older pages one at a time (`loadOlder`), down to the oldest the
 * log keeps. The cursor holds a position in the log, so executions stored meanwhile never shift the older pages.
 */
export function useExecutionLog(path: string | undefined, refreshMs?: number): ExecutionLog {
  const [state, setState] = useState<State>();
  const [loadingOlder, setLoadingOlder] = useState(false);
  const latest = useRef(path);
  const sent = useRef(0);
  const applied = useRef(0);
  useEffect(() => {
    latest.current = path;
  }, [path]);

  const readNewest = useCallback(async (from: string) => {
    const number = ++sent.current;
    const answer = await read(from);
    // Dropped when the page has moved to another list, or a later read has answered first.
    if (latest.current !== from || number < applied.current) return;
    applied.current = number;
    const loadedAt = new Date();
    setState((shown) => (answer.page ? joinNewest(shown, answer.page, from, loadedAt) : failed(shown, from, answer.error!)));
  }, []);

  useEffect(() => {
    if (path !== undefined) void readNewest(path);
  }, [path, readNewest]);

  const refresh = useCallback(async () => {
    if (path !== undefined) await readNewest(path);
  }, [path, readNewest]);

  useRefreshEvery(refreshMs, refresh);

  const current = state?.path === path ? state : undefined;
  const loadOlder = useCallback(async () => {
    if (!current?.next || !current.executions) return;
    const { path: from, next } = current;
    setLoadingOlder(true);
    const answer = await read(withCursor(from, next));
    setLoadingOlder(false);
    setState((shown) => {
      if (!answer.page) return failed(shown, from, answer.error!);
      // A refresh that replaced the list (a gap) has moved where older pages start: this page is not its next.
      if (shown?.path !== from || shown.next !== next || !shown.executions) return shown;
      const known = new Set(shown.executions.map((execution) => execution.id));
      const older = answer.page.executions.filter((execution) => !known.has(execution.id));
      return { ...shown, executions: [...shown.executions, ...older], next: answer.page.next_cursor, error: undefined };
    });
  }, [current]);

  return {
    executions: current?.executions,
    error: current?.error,
    loading: path !== undefined && !current?.executions && !current?.error,
    loadedAt: current?.loadedAt,
    hasOlder: Boolean(current?.next),
    loadingOlder,
    loadOlder,
    refresh,
  };
}

async function read(path: string): Promise<{ page?: ExecutionPage; error?: ApiError }> {
  try {
    return { page: await get<ExecutionPage>(path) };
  } catch (caught) {
    return { error: caught instanceof ApiError ? caught : new ApiError(0, String(caught)) };
  }
}
