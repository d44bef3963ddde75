import { Client, ClientConfig } from 'pg';

/** How often the watchdog looks at the connections: a query is cut within two looks after its deadline. */
export const DEADLINE_CHECK_MS = 500;

export interface DeadlineClientConfig extends ClientConfig {
  /** How long a query may go unanswered before its connection is closed; 0 or absent: no deadline. */
  queryDeadlineMs?: number;
}

/**
 * What of pg's client the watchdog reads: the query being answered, and the connection under it. All three are
 * private (query-deadline.spec.ts names the one an upgrade of pg moved). The public ways cost more: pg's
 * `query_timeout` is a timer per query (below); noting each query's start and end ourselves means wrapping every
 * form of `query()` (promise, callback, Submittable, cursor) with a record and a callback per query; and no public
 * call fails a query on a connection that never answers (`end()` waits for the server to close it).
 */
interface ClientInternals {
  _activeQuery?: object | null;
  _ended?: boolean;
  connection?: { stream?: { destroy(error?: Error): void } };
}

/** The error a query gets when its connection is closed for want of an answer (a 503, isDatabaseUnavailable). */
export class QueryDeadlineError extends Error {
  constructor(deadlineMs: number) {
    super(`Query read timeout: the database did not answer within ${deadlineMs} ms`);
    this.name = 'QueryDeadlineError';
  }
}

const watched = new Set<DeadlineClient>();
let timer: NodeJS.Timeout | undefined;

function look(): void {
  const now = performance.now();
  for (const client of watched) client.look(now);
}

/**
 * A pg client whose queries have a deadline, for a database that does not answer at all (a network that drops
 * packets, a server that hangs): the server's `statement_timeout` cannot cut what the server never sees.
 *
 * pg's own `query_timeout` does this with a timer per query whose callback holds the query and its rows. Under a
 * steady stream of reads that kept every query's rows alive through two young collections, so they were promoted
 * to the old generation, and full collections stalled the service every few seconds (docs/benchmarks.md, "The
 * query deadline: one watchdog instead of a timer per query"; `bench/query-deadline.mjs` measures it).
 * Here one watchdog for the process looks at every client twice a second instead: a query seen running at two
 * looks `queryDeadlineMs` apart has its connection closed with QueryDeadlineError, which fails the query (and any
 * queued behind it) and takes the connection out of its pool. Nothing is allocated per query.
 */
export class DeadlineClient extends Client {
  private readonly deadlineMs: number;
  /** The query running at the last look, and when it was first seen. */
  private running: object | null = null;
  private seenAt = 0;

  constructor(config: DeadlineClientConfig = {}) {
    super(config);
    this.deadlineMs = config.queryDeadlineMs ?? 0;
  }

  /** Connects, watched from then on until the connection ends: a client never connected is never watched. */
  override connect(): Promise<Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, c: Client) => void)): Promise<Client> | void {
    if (this.deadlineMs > 0 && !watched.has(this)) {
      watched.add(this);
      this.once('end', () => unwatch(this));
      timer ??= setInterval(look, DEADLINE_CHECK_MS).unref();
    }
    return callback ? super.connect(callback) : super.connect();
  }

  /** One look of the watchdog at `now` (performance.now()). */
  look(now: number): void {
    const internals = this as unknown as ClientInternals;
    if (internals._ended) {
      unwatch(this);
      return;
    }
    const active = internals._activeQuery ?? null;
    if (active !== this.running) {
      this.running = active;
      this.seenAt = now;
      return;
    }
    if (active !== null && now - this.seenAt >= this.deadlineMs) {
      this.running = null;
      unwatch(this);
      internals.connection?.stream?.destroy(new QueryDeadlineError(this.deadlineMs));
    }
  }
}

function unwatch(client: DeadlineClient): void {
  watched.delete(client);
  if (watched.size === 0 && timer) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** How many clients the watchdog looks at (for tests). */
export function watchedClients(): number {
  return watched.size;
}
