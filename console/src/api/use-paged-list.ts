import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, get } from './client';

/** A paged management list as the page shows it: the items of the pages read so far, and whether more follow. */
export interface PagedItems<T> {
  items: T[] | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** A next page exists (`next_cursor`). */
  hasMore: boolean;
  loadingMore: boolean;
  /** Reads the next page and adds its items. */
  loadMore: () => Promise<void>;
  /** Reads the list again from its start, as far as it had been read (after a change). */
  reload: () => Promise<void>;
}

interface State<T> {
  path: string;
  items: T[];
  next: string | null;
}

const withCursor = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

/**
 * GETs a paged management list (`{<key>: [...], next_cursor}`, PAGE_SIZE items at most per page) at `path`, one page
 * at a time (`loadMore`), or with `all` every page at once (a list whose length has a small bound, such as a
 * tenant's HMAC keys: 10 active and 100 revoked at most). An answer for a path the page has left, or overtaken by
 * a later read, is dropped.
 */
export function usePagedList<T>(path: string | undefined, key: string, options: { all?: boolean } = {}): PagedItems<T> {
  const [state, setState] = useState<State<T>>();
  const [error, setError] = useState<ApiError>();
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);
  const shown = useRef(0);
  const { all = false } = options;

  /** Reads pages from the start until `atLeast` items (or every page, with `all`), then shows them. */
  const read = useCallback(
    async (from: string, atLeast: number) => {
      const mine = ++generation.current;
      const items: T[] = [];
      let next: string | null = null;
      try {
        do {
          const page: Record<string, unknown> = await get<Record<string, unknown>>(next === null ? from : withCursor(from, next));
          items.push(...(page[key] as T[]));
          next = (page.next_cursor as string | null | undefined) ?? null;
        } while (next !== null && (all || items.length < atLeast));
      } catch (caught) {
        if (mine === generation.current) setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)));
        return;
      }
      if (mine !== generation.current) return;
      shown.current = items.length;
      setError(undefined);
      setState({ path: from, items, next });
    },
    [key, all],
  );

  useEffect(() => {
    shown.current = 0;
    if (path !== undefined) void read(path, 1);
  }, [path, read]);

  const reload = useCallback(async () => {
    if (path !== undefined) await read(path, Math.max(shown.current, 1));
  }, [path, read]);

  const current = state?.path === path ? state : undefined;
  const loadMore = useCallback(async () => {
    if (!current?.next) return;
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const page = await get<Record<string, unknown>>(withCursor(current.path, current.next));
      if (mine !== generation.current) return;
      const items = [...current.items, ...(page[key] as T[])];
      shown.current = items.length;
      setState({ path: current.path, items, next: (page.next_cursor as string | null | undefined) ?? null });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)));
    } finally {
      setLoadingMore(false);
    }
  }, [current, key]);

  return { items: current?.items, error, loading: path !== undefined && !current, hasMore: Boolean(current?.next), loadingMore, loadMore, reload };
}
