import { performance } from 'node:perf_hooks';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Client, Notification } from 'pg';
import { Metrics } from '../metrics/metrics';
import { ChangeListenerConnector } from './change-listener-connector';
import { isSchemaMissing } from './database-errors';
import { DatabasePool } from './database-pool';
import { EmbeddedDatabaseService } from './embedded-database.service';
import { AsOf, asOfCall } from './read-scope';
import { ChangedTable, ChangeFeed, ChangeSubscriber, ReadThroughCache, ReadThroughCacheOptions } from './read-through-cache';
import { globalStatement } from './statement';

export const READ_MODEL_CHANNEL = 'read_model';
const VERSION_SQL = globalStatement<[], { version: string }>('the read model counts every change of every tenant', 'SELECT version FROM read_model_version');
const SYNC_SQL = 'SELECT version, pg_backend_pid() AS pid FROM read_model_version';
const RECONNECT_MIN_MS = 50;
const RECONNECT_MAX_MS = 5_000;
/** Why the listening connection is dropped when a statement may have stopped the embedded session listening. */
const STOPPED_LISTENING = Symbol('stopped listening');
/** How often the embedded database's announced version is checked against the counter (auditCommitted). */
const AUDIT_MS = 5_000;
/** Behind the database with no announcement applied for this long: the connection is taken for dead and opened again. */
const STUCK_MS = 3_000;

interface Change {
  version: number;
  table: string;
  key: string | null;
}

interface VersionRead {
  startedAt: number;
  promise: Promise<number>;
}

/**
 * What this process keeps in memory of the database (tenants' status, API tokens' standing, HMAC keys,
 * actions), each kind in a ReadThroughCache made by `cache()`, and how that memory stays exact:
 *
 * - A connection of its own LISTENs on `read_model`. Every change to the tables the read model keeps is
 *   numbered by `read_model_version` and announced from the writing transaction, in commit order (see the
 *   migration); the feed applies announcements in that order, and `applied` is the last number applied.
 * - A request may be answered from memory only when a read of `read_model_version` that started after the
 *   request arrived returns a number the feed has applied (`inSync`). A change acknowledged to anyone before the
 *   request arrived was committed before that read, so memory already reflects it. Otherwise (an announcement
 *   still on its way, a gap, the listener down or resynchronizing) the request reads the database. Such reads
 *   are shared: one read of the version serves every request that arrived before it started.
 * - A load keeps what it read only if it read at a version no older than `applied`: every change applied so
 *   far is in it, and every later one will be announced and drop it (`mayKeep`).
 * - A gap in the numbers or a resynchronization (after the listening connection was lost, when announcements
 *   may have been missed) forgets everything.
 * - When this process owns the database (the embedded one), every statement of every connection passes
 *   through it, and it sees each announcement the moment PGlite writes it into the committing connection's
 *   output, before the commit is acknowledged to anyone (EmbeddedSocketServer.watch): the newest number
 *   committed is known without asking, `committed`. It stands in for the version read; the rest (LISTEN, the
 *   feed, gaps, reconnections) is the same code. It holds while the listening connection is up: its LISTEN
 *   makes the one session announce every commit. A statement that may stop that (UNLISTEN, DISCARD) counts as
 *   losing the connection: requests read the database until it has LISTENed and synchronized again.
 */
@Injectable()
export class ReadModel implements ChangeFeed, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ReadModel');
  private readonly subscribers = new Map<string, ChangeSubscriber[]>();
  private client?: Client;
  private state: 'down' | 'syncing' | 'up' = 'down';
  private applied = 0;
  private lastRead?: VersionRead;
  private nextRead?: { promise: Promise<number>; start: () => void };
  private reconnectDelayMs = RECONNECT_MIN_MS;
  private reconnectTimer?: NodeJS.Timeout;
  private stopped = false;
  private behindSince?: number;
  private listenerPid?: number;
  /** Failed attempts since the listening connection was last up: only the first is worth a warning. */
  private failures = 0;
  /** The newest number committed, when this process sees every commit (see the class comment); else undefined. */
  private committed?: number;
  /** When `committed` last grew, and when the listening connection last came up (performance.now()). */
  private committedAt = 0;
  private upSince = 0;
  private auditTimer?: NodeJS.Timeout;

  constructor(
    private readonly pool: DatabasePool,
    private readonly connector: ChangeListenerConnector,
    private readonly metrics: Metrics,
    embedded: EmbeddedDatabaseService,
  ) {
    // Watching from before the listener's first synchronization: a commit is either older than that (and
    // included in it) or seen here. The embedded database is started by now (DatabasePool needs it).
    const watching = embedded.watchCommits(READ_MODEL_CHANNEL, {
      committed: (payload) => this.sawCommit(payload),
      mayHaveStoppedListening: () => {
        if (this.client) this.lost(this.client, STOPPED_LISTENING);
      },
    });
    if (watching) this.committed = 0;
  }

  onApplicationBootstrap(): void {
    void this.connect();
    if (this.committed !== undefined) this.auditTimer = setInterval(() => void this.auditCommitted().catch(() => undefined), AUDIT_MS).unref();
  }

  /**
   * From here on, a lost listening connection is the database going away with the rest (the embedded one stops in
   * another module's shutdown hook, maybe before this one's): no warning, no reconnection. Requests still being
   * drained are answered as before: from memory while the listener is up, from the database once it is not.
   */
  beforeApplicationShutdown(): void {
    this.stopped = true;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.auditTimer);
    const client = this.client;
    this.client = undefined;
    this.state = 'down';
    await client?.end().catch(() => undefined);
  }

  /** A cache of this read model, bounded by `maxSize`; what it holds is forgotten as changes are announced. */
  cache<K extends string, V>(options: Omit<ReadThroughCacheOptions<K, V>, 'reads'>): ReadThroughCache<K, V> {
    const reads = { memory: this.metrics.readModelReads.labels(options.name, 'memory'), database: this.metrics.readModelReads.labels(options.name, 'database') };
    return new ReadThroughCache(this, { ...options, reads });
  }

  subscribe(table: ChangedTable, subscriber: ChangeSubscriber): void {
    this.subscribers.set(table, [...(this.subscribers.get(table) ?? []), subscriber]);
  }

  /** The listening connection's server process id, while it is connected (pg_terminate_backend can end it). */
  get listenerProcessId(): number | undefined {
    return this.state === 'up' ? this.listenerPid : undefined;
  }

  /**
   * Whether a request's version read is worth starting as it arrives (prefetch): only when the version is read
   * from a server that other processes write to as well.
   */
  get needsArrivals(): boolean {
    return this.committed === undefined;
  }

  /**
   * Starts the version read a request that has just arrived will need, so that it runs while the request is
   * routed and its token verified rather than after.
   */
  prefetch(arrivedAt: number): void {
    if (this.state === 'up' && this.needsArrivals) this.versionAfter(arrivedAt).catch(() => undefined);
  }

  /** Whether a read as fresh as `asOf` (see AsOf) may be answered from memory: see the class comment. */
  async inSync(asOf?: AsOf): Promise<boolean> {
    if (this.state !== 'up') return false;
    const version = this.committed ?? (await this.versionAfter(asOfCall(asOf)));
    if (this.state !== 'up') return false;
    if (this.applied >= version) {
      this.behindSince = undefined;
      return true;
    }
    // An announcement still on its way, usually; one that never comes means a connection that died silently.
    const now = performance.now();
    this.behindSince ??= now;
    if (now - this.behindSince > STUCK_MS && this.client) this.lost(this.client, new Error(`no announcement of version ${version} for ${STUCK_MS} ms`));
    return false;
  }

  /** Whether a load may keep what it read at `version` (the read model's version in the same statement). */
  mayKeep(version: number): boolean {
    return version >= this.applied;
  }

  /**
   * The safety net of `committed` (run every 5 s when this process owns the database): were the session to stop
   * listening in a way the socket server cannot see (an UNLISTEN inside a function or dynamic SQL), commits
   * would announce nothing and `committed` would stand still. A version beyond it means just that: the listening
   * connection is taken for lost (read the database, LISTEN and synchronize again).
   */
  async auditCommitted(): Promise<void> {
    if (this.committed === undefined || this.state !== 'up') return;
    const client = this.client;
    const [{ version }] = await this.pool.query(VERSION_SQL);
    // A commit the socket server saw is in `committed` before the commit ends, so before this read could see it.
    if (Number(version) > this.committed && client && this.client === client) this.lost(client, STOPPED_LISTENING);
  }

  /** Whether a load that started at `loadStartedAt` (performance.now()) read everything acknowledged before `asOf`. */
  mayShare(loadStartedAt: number, asOf?: AsOf): boolean {
    // The load started after `asOf`; or, seeing every commit, nothing was committed since it started.
    if (this.committed === undefined) return loadStartedAt >= asOfCall(asOf);
    return this.state === 'up' && loadStartedAt > this.upSince && loadStartedAt > this.committedAt;
  }

  /** The version read by a statement that started at or after `arrivedAt`; one read serves many requests. */
  private versionAfter(arrivedAt: number): Promise<number> {
    if (this.lastRead && this.lastRead.startedAt >= arrivedAt) return this.lastRead.promise;
    if (this.nextRead) return this.nextRead.promise;
    let start!: () => void;
    const promise = new Promise<number>((resolve, reject) => {
      start = () => {
        this.nextRead = undefined;
        const read: VersionRead = { startedAt: performance.now(), promise };
        this.lastRead = read;
        this.pool.query(VERSION_SQL).then(
          ([row]) => resolve(Number(row.version)),
          (error: unknown) => {
            if (this.lastRead === read) this.lastRead = undefined;
            reject(error);
          },
        );
      };
    });
    this.nextRead = { promise, start };
    // Requests that arrive while this turn of the event loop reads its sockets all share the read.
    setImmediate(start);
    return promise;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = this.connector.create();
    this.client = client;
    this.state = 'syncing';
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => this.receive(client, message));
    try {
      await client.connect();
      await client.query(`LISTEN ${READ_MODEL_CHANNEL}`);
      // Every change numbered up to `version` is in the database; every later one will be announced here.
      const [{ version, pid }] = (await client.query<{ version: string; pid: number }>(SYNC_SQL)).rows;
      if (this.client !== client) return;
      this.listenerPid = pid;
      this.forget();
      this.applied = Number(version);
      this.upSince = performance.now();
      this.state = 'up';
      this.reconnectDelayMs = RECONNECT_MIN_MS;
      this.failures = 0;
      this.metrics.readModelListening.set(1);
      this.logger.log(`listening for changes (server process ${pid}, version ${this.applied})`);
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.state = 'down';
    this.behindSince = undefined;
    this.metrics.readModelListening.set(0);
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    if (error === STOPPED_LISTENING) {
      this.logger.log('the embedded database may have stopped listening (UNLISTEN or DISCARD by a connection): reading from the database until listening again');
      this.reconnectTimer = setTimeout(() => void this.connect(), RECONNECT_MIN_MS);
      return;
    }
    // One warning per outage, not one per attempt: the attempts go on every 5 s for as long as it lasts. Pending
    // migrations are said once at start (Migrations); here they are named, without a stack.
    const level = this.failures++ === 0 ? 'warn' : 'debug';
    if (isSchemaMissing(error)) {
      this.logger[level]('cannot listen for changes: the database lacks this build\'s tables (migrations pending); reading from the database, retrying');
    } else {
      this.logger[level]({ err: error }, 'lost the connection that listens for changes: reading from the database until it is back');
    }
    this.reconnectTimer = setTimeout(() => void this.connect(), this.reconnectDelayMs);
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
  }

  private sawCommit(payload: string): void {
    const change = parseChange(payload);
    // Unreadable: the listener will say so and forget everything; here, no number to learn.
    if (change && this.committed !== undefined && change.version > this.committed) {
      this.committed = change.version;
      this.committedAt = performance.now();
    }
  }

  private receive(client: Client, message: Notification): void {
    if (this.client !== client || message.channel !== READ_MODEL_CHANNEL) return;
    const change = parseChange(message.payload);
    if (!change) {
      this.logger.error(`unreadable change announcement ${JSON.stringify(message.payload)}: forgetting everything`);
      this.forget();
      return;
    }
    // While synchronizing, announcements are of changes that connect()'s version read includes: the server sends
    // them only while the connection is idle, so before that read runs. (Were one later, the next
    // announcement would be a gap, and a request would meanwhile find the feed behind and read the database.)
    if (this.state === 'up') this.apply(change);
  }

  private apply(change: Change): void {
    if (change.version <= this.applied) return;
    this.behindSince = undefined; // announcements are arriving: behind, maybe, but not stuck
    if (change.version !== this.applied + 1 || change.key === null) {
      // A gap (an announcement that never came) or a TRUNCATE: nothing kept can be trusted.
      this.forget();
    } else {
      for (const subscriber of this.subscribers.get(change.table) ?? []) subscriber.changed(change.key);
    }
    this.applied = change.version;
  }

  private forget(): void {
    this.metrics.readModelResets.inc();
    for (const subscribers of this.subscribers.values()) for (const subscriber of subscribers) subscriber.reset();
  }
}

function parseChange(payload: string | undefined): Change | undefined {
  try {
    const change = JSON.parse(payload ?? '') as Change;
    const valid = Number.isSafeInteger(change.version) && typeof change.table === 'string' && (change.key === null || typeof change.key === 'string');
    return valid ? change : undefined;
  } catch {
    return undefined;
  }
}
