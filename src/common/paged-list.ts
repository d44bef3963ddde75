import { InvalidRequestError } from './common.errors';
import { PageCursors, PagePosition } from './page-cursors';

/** Items a page of a management list holds unless `?limit` asks for fewer; also the most it holds. */
export const PAGE_SIZE = 100;

/** What a client asks of a paged list: at most `limit` items, after `cursor` (a `next_cursor` the list gave). */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * Where a list ordered newest first by `(created_at, id)` goes on: the last row's `created_at` as PostgreSQL spells
 * it (`created_at::text`, to the microsecond, with its offset; read back as `::timestamptz`) and its id. Not a Date:
 * a Date keeps milliseconds, and a position cut to them skips the rows between the cut and the real time, ties
 * included, whenever `created_at` has microseconds (written by SQL `now()`, an import, a restore).
 */
export interface TimePosition {
  createdAt: string;
  id: string;
}

/** A row of a list ordered by `(created_at, id)`, with its exact position. */
export interface Positioned<T> {
  row: T;
  position: TimePosition;
}

/** A page: its items, and the cursor of the next one (null at the end of the list). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * `?limit=N` of a management list (tenants, a tenant's API tokens, HMAC keys and actions): a positive integer; a
 * larger one than PAGE_SIZE gives PAGE_SIZE, as a page-size cap does. Absent: undefined (PAGE_SIZE).
 */
export function parsePageLimit(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const limit = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1)) throw new InvalidRequestError('limit: must be a positive integer');
  return limit;
}

/**
 * One paged list: what it is called in its cursors, the scope they are given to (a tenant's id, or `operator`),
 * and how many parts its positions have. A position, not an offset: a row added or removed between two pages
 * neither repeats nor shifts the others.
 */
export class PagedList {
  constructor(
    private readonly cursors: PageCursors,
    private readonly list: string,
    private readonly width: number,
  ) {}

  /**
   * How many rows to read (`limit` + 1: the extra one, if there, says a next page exists) and from which position,
   * for `query`. A cursor this list did not give to `scope` is `400 Invalid request` naming `cursor`.
   */
  open(scope: string, query: PageQuery = {}): { limit: number; after?: PagePosition } {
    const limit = Math.min(query.limit ?? PAGE_SIZE, PAGE_SIZE);
    if (query.cursor === undefined) return { limit };
    const after = typeof query.cursor === 'string' ? this.cursors.read(this.list, scope, query.cursor) : undefined;
    if (after?.length !== this.width) throw new InvalidRequestError('cursor: is not a cursor this list gave (send next_cursor as it came)');
    return { limit, after };
  }

  /** The page of `rows` (read as `limit` + 1 from the position), with the cursor after its last item (`positionOf`). */
  close<T>(scope: string, rows: T[], limit: number, positionOf: (row: T) => PagePosition): Page<T> {
    if (rows.length <= limit) return { items: rows, nextCursor: null };
    const items = rows.slice(0, limit);
    return { items, nextCursor: this.cursors.make(this.list, scope, positionOf(items[items.length - 1])) };
  }
}

/**
 * A PagedList newest first by `(created_at, id)` (tenants, a tenant's API tokens and HMAC keys): its positions are
 * TimePositions. A cursor of the format before them (the time to the millisecond, as ISO 8601) reads as one too.
 */
export class NewestFirstList {
  private readonly pages: PagedList;

  constructor(cursors: PageCursors, list: string) {
    this.pages = new PagedList(cursors, list, 2);
  }

  /** As PagedList.open, with the position as a TimePosition. */
  open(scope: string, query?: PageQuery): { limit: number; after?: TimePosition } {
    const { limit, after } = this.pages.open(scope, query);
    return { limit, after: after && { createdAt: after[0], id: after[1] } };
  }

  /** As PagedList.close: the page of `rows`, with the cursor after the exact position of its last item. */
  close<T>(scope: string, rows: Positioned<T>[], limit: number): Page<T> {
    const page = this.pages.close(scope, rows, limit, ({ position }) => [position.createdAt, position.id]);
    return { items: page.items.map(({ row }) => row), nextCursor: page.nextCursor };
  }
}
