import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import { Metrics } from '../metrics/metrics';
import { ChangeListenerConnector } from './change-listener-connector';
import { DatabasePool } from './database-pool';
import { EmbeddedDatabaseService } from './embedded-database.service';
import type { CommitWatcher } from './embedded-socket-server';
import { READ_MODEL_CHANNEL, ReadModel } from './read-model';
import { Snapshot } from './read-through-cache';

/**
 * The database as the read model sees it: a version counter, and a listening connection the test drives.
 * `owned`: the embedded database, whose commits the process sees as they happen (EmbeddedSocketServer.watch).
 */
class FakeDatabase {
  version = 0;
  private watcher?: CommitWatcher;
  /** Whether the (owned) database's one session LISTENs: an UNLISTEN stops it, a listener's LISTEN restarts it. */
  listening = false;

  constructor(private readonly owned = false) {}
  /** Version reads issued on the pool, with when each was issued. */
  readonly versionReads: number[] = [];
  readonly listeners: FakeListener[] = [];

  readonly pool = {
    query: async (sql: string) => {
      expect(sql).toBe('SELECT version FROM read_model_version');
      this.versionReads.push(performance.now());
      return [{ version: String(this.version) }];
    },
  } as unknown as DatabasePool;

  readonly connector = {
    create: () => {
      const listener = new FakeListener(this);
      this.listeners.push(listener);
      return listener as unknown as Client;
    },
  } as unknown as ChangeListenerConnector;

  readonly embedded = {
    watchCommits: (channel: string, watcher: CommitWatcher) => {
      expect(channel).toBe(READ_MODEL_CHANNEL);
      if (this.owned) this.watcher = watcher;
      return this.owned;
    },
  } as unknown as EmbeddedDatabaseService;

  /** A committed change: numbered, and announced to the listening connection unless `silent`. */
  commit(table: string, key: string | null, silent = false): number {
    this.version++;
    if (this.listening) this.watcher?.committed(JSON.stringify({ version: this.version, table, key }));
    if (!silent) this.announce({ version: this.version, table, key });
    return this.version;
  }

  /** A connection ran UNLISTEN or DISCARD on the owned database. */
  stopListening(): void {
    this.listening = false;
    this.watcher?.mayHaveStoppedListening();
  }

  announce(change: { version: number; table: string; key: string | null }): void {
    this.listener.emit('notification', { channel: READ_MODEL_CHANNEL, payload: JSON.stringify(change) });
  }

  get listener(): FakeListener {
    return this.listeners[this.listeners.length - 1];
  }
}

class FakeListener extends EventEmitter {
  ended = false;
  constructor(private readonly db: FakeDatabase) {
    super();
  }
  async connect(): Promise<void> {}
  async query(sql: string): Promise<{ rows: unknown[] }> {
    if (sql.startsWith('LISTEN')) {
      this.db.listening = true;
      return { rows: [] };
    }
    return { rows: [{ version: String(this.db.version), pid: 4242 }] };
  }
  async end(): Promise<void> {
    this.ended = true;
  }
}

beforeAll(() => Logger.overrideLogger(false));

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A table of values the test changes, loaded with the version as the fake database has it. */
function table(db: FakeDatabase) {
  const rows = new Map<string, string>();
  const loads: string[] = [];
  let hold: Promise<void> | undefined;
  const load = async (key: string): Promise<Snapshot<string | null>> => {
    loads.push(key);
    const snapshot = { version: db.version, value: rows.get(key) ?? null };
    await hold;
    return snapshot;
  };
  return {
    rows,
    loads,
    load,
    /** Loads started from now on read at once but finish only when the returned function is called. */
    holdLoads(): () => void {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

async function startedModel(owned = false) {
  const db = new FakeDatabase(owned);
  const model = new ReadModel(db.pool, db.connector, new Metrics(), db.embedded);
  model.onApplicationBootstrap();
  await settle();
  return { db, model };
}

describe('ReadModel', () => {
  it('serves from memory once the listener is in step with the database, and not before', async () => {
    const db = new FakeDatabase();
    const model = new ReadModel(db.pool, db.connector, new Metrics(), db.embedded);
    expect(model.needsArrivals).toBe(true);
    expect(await model.inSync()).toBe(false); // not listening yet
    model.onApplicationBootstrap();
    await settle();
    expect(model.listenerProcessId).toBe(4242);
    expect(await model.inSync()).toBe(true);

    // A change committed (and acknowledged) whose announcement has not arrived: memory may be stale.
    db.commit('actions', 'tenant-a', true);
    expect(await model.inSync()).toBe(false);
    db.announce({ version: db.version, table: 'actions', key: 'tenant-a' });
    expect(await model.inSync()).toBe(true);
    await model.onApplicationShutdown();
  });

  it('shares one version read among the requests that arrived before it started, never with later ones', async () => {
    const { db, model } = await startedModel();
    const arrived = performance.now();
    const early = await Promise.all([1, 2, 3].map(() => model.inSync(arrived)));
    expect(early).toEqual([true, true, true]);
    expect(db.versionReads).toHaveLength(1);
    // The same request reads again: the read it already has started after it arrived.
    expect(await model.inSync(arrived)).toBe(true);
    expect(db.versionReads).toHaveLength(1);
    // A request that arrives after that read started needs a read of its own: it may follow a change.
    db.commit('actions', 'tenant-a', true);
    expect(await model.inSync(performance.now())).toBe(false);
    expect(db.versionReads).toHaveLength(2);
    await model.onApplicationShutdown();
  });

  it('on a database it owns, knows what is committed without a version read, and is in sync once it is announced', async () => {
    const { db, model } = await startedModel(true);
    expect(model.needsArrivals).toBe(false);
    expect(await model.inSync()).toBe(true);
    // Committed (the process saw it) but not yet announced to the listening connection: memory may be stale.
    const version = db.commit('actions', 'tenant-a', true);
    expect(await model.inSync()).toBe(false);
    db.announce({ version, table: 'actions', key: 'tenant-a' });
    expect(await model.inSync()).toBe(true);
    model.prefetch(performance.now());
    await settle();
    expect(db.versionReads).toEqual([]);
    await model.onApplicationShutdown();
  });

  it('on a database it owns, still takes a listener that stays behind for 3 s for dead', async () => {
    const { db, model } = await startedModel(true);
    db.commit('actions', 'a', true); // its announcement never comes
    expect(await model.inSync()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    expect(await model.inSync()).toBe(false);
    expect(db.listeners[0].ended).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120)); // the reconnection's back-off
    expect(db.listeners).toHaveLength(2);
    expect(await model.inSync()).toBe(true);
    expect(db.versionReads).toEqual([]);
    await model.onApplicationShutdown();
  });

  it('on a database it owns, takes an UNLISTEN or DISCARD by any connection for a lost listener, and resynchronizes', async () => {
    const { db, model } = await startedModel(true);
    const resets: number[] = [];
    model.subscribe('actions', { changed: () => undefined, reset: () => resets.push(db.version) });
    db.stopListening();
    db.commit('actions', 'a', true); // in the same statement as the UNLISTEN: announced to nobody
    expect(db.listeners[0].ended).toBe(true);
    expect(await model.inSync()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120)); // the reconnection's back-off
    expect(db.listeners).toHaveLength(2);
    expect(resets).toEqual([1]); // everything forgotten; the version read on reconnecting includes the change
    expect(await model.inSync()).toBe(true);
    expect(db.versionReads).toEqual([]);
    await model.onApplicationShutdown();
  });

  it('on a database it owns, checks every 5 s that no commit went unseen, and resynchronizes if one did', async () => {
    const { db, model } = await startedModel(true);
    await model.auditCommitted();
    expect(db.listeners).toHaveLength(1); // nothing unseen: nothing to do
    expect(db.versionReads).toHaveLength(1);
    db.listening = false; // stopped in a way nobody saw (an UNLISTEN inside a function)
    db.commit('actions', 'a', true);
    expect(await model.inSync()).toBe(true); // the watched number stands still: only the check can tell
    await model.auditCommitted();
    expect(db.listeners[0].ended).toBe(true);
    expect(await model.inSync()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120)); // listening and synchronized again
    expect(db.listeners).toHaveLength(2);
    expect(await model.inSync()).toBe(true);
    await model.onApplicationShutdown();
  });

  it('takes an arrival of 0 for now: it shares no version read that started earlier', async () => {
    const { db, model } = await startedModel();
    expect(await model.inSync(performance.now())).toBe(true);
    expect(db.versionReads).toHaveLength(1);
    expect(await model.inSync(0)).toBe(true);
    expect(db.versionReads).toHaveLength(2);
    await model.onApplicationShutdown();
  });

  it('forgets the changed key, and everything on a gap in the numbers or a TRUNCATE', async () => {
    const { db, model } = await startedModel();
    const seen: string[] = [];
    model.subscribe('actions', { changed: (key) => seen.push(`changed ${key}`), reset: () => seen.push('reset') });
    model.subscribe('tenants', { changed: (key) => seen.push(`tenant ${key}`), reset: () => seen.push('tenant reset') });

    db.commit('actions', 'a');
    expect(seen).toEqual(['changed a']);
    db.commit('actions', 'b', true); // its announcement is lost
    db.commit('actions', 'c');
    expect(seen).toEqual(['changed a', 'reset', 'tenant reset']);
    db.commit('actions', null); // TRUNCATE
    expect(seen.slice(3)).toEqual(['reset', 'tenant reset']);
    db.announce({ version: 1, table: 'actions', key: 'a' }); // already applied
    expect(seen).toHaveLength(5);
    expect(await model.inSync()).toBe(true);
    await model.onApplicationShutdown();
  });

  it('reads from the database while the listening connection is lost, and resynchronizes when it is back', async () => {
    const { db, model } = await startedModel();
    const resets: number[] = [];
    model.subscribe('actions', { changed: () => undefined, reset: () => resets.push(db.version) });
    const first = db.listener;
    first.emit('error', new Error('terminated by administrator'));
    expect(first.ended).toBe(true);
    expect(model.listenerProcessId).toBeUndefined();
    expect(await model.inSync()).toBe(false);
    db.commit('actions', 'a', true); // made while nobody listens

    await new Promise((resolve) => setTimeout(resolve, 120)); // the reconnection's back-off
    expect(db.listeners).toHaveLength(2);
    expect(resets).toEqual([1]); // forgot everything on resynchronizing: the change above was never announced
    expect(await model.inSync()).toBe(true);
    await model.onApplicationShutdown();
    expect(db.listener.ended).toBe(true);
  });

  it('takes a listening connection that applies nothing for 3 s while behind for dead, and opens another', async () => {
    const { db, model } = await startedModel();
    db.commit('actions', 'a', true); // its announcement never comes: a connection that died silently
    expect(await model.inSync()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    db.commit('actions', 'b', true);
    expect(await model.inSync()).toBe(false);
    expect(db.listeners).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await model.inSync()).toBe(false);
    expect(db.listeners[0].ended).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120)); // the reconnection's back-off
    expect(db.listeners).toHaveLength(2);
    expect(await model.inSync()).toBe(true);
    await model.onApplicationShutdown();
  });
});

describe('ReadThroughCache', () => {
  it('loads a key once and serves it from memory until a change to it is announced', async () => {
    const { db, model } = await startedModel();
    const data = table(db);
    data.rows.set('k', 'v1');
    const cache = model.cache({ name: 'test', table: 'actions', maxSize: 10, load: data.load });

    expect(await cache.get('k')).toBe('v1');
    expect(await cache.get('k')).toBe('v1');
    expect(data.loads).toEqual(['k']);

    data.rows.set('k', 'v2');
    db.commit('actions', 'k');
    expect(await cache.get('k')).toBe('v2');
    expect(data.loads).toEqual(['k', 'k']);
    await model.onApplicationShutdown();
  });

  it('reads the database, not memory, for a request that follows a change not yet announced', async () => {
    const { db, model } = await startedModel();
    const data = table(db);
    data.rows.set('k', 'v1');
    const cache = model.cache({ name: 'test', table: 'actions', maxSize: 10, load: data.load });
    expect(await cache.get('k')).toBe('v1');

    data.rows.set('k', 'v2');
    const version = db.commit('actions', 'k', true);
    expect(await cache.get('k')).toBe('v2');
    // Kept: it was read at the latest version. Once the announcement arrives it is dropped and read again.
    db.announce({ version, table: 'actions', key: 'k' });
    expect(await cache.get('k')).toBe('v2');
    expect(data.loads).toEqual(['k', 'k', 'k']);
    await model.onApplicationShutdown();
  });

  it('does not keep what a load read before a change that was applied while it ran', async () => {
    const { db, model } = await startedModel();
    const data = table(db);
    data.rows.set('k', 'old');
    const cache = model.cache({ name: 'test', table: 'actions', maxSize: 10, load: data.load });

    const release = data.holdLoads();
    const loading = cache.get('k'); // reads 'old' at version 0, finishes later
    await settle();
    data.rows.set('k', 'new');
    db.commit('actions', 'k'); // applied while the load is still running: nothing cached to drop yet
    release();
    expect(await loading).toBe('old'); // fine for the request that asked before the change
    expect(await cache.get('k')).toBe('new'); // but not kept for later ones
    await model.onApplicationShutdown();
  });

  it('lets a request share a load only if the load started after the request arrived', async () => {
    const { db, model } = await startedModel();
    const data = table(db);
    data.rows.set('k', 'old');
    const cache = model.cache({ name: 'test', table: 'actions', maxSize: 10, load: data.load });

    const release = data.holdLoads();
    const arrivedEarly = performance.now();
    const first = cache.get('k', arrivedEarly);
    const sameTime = cache.get('k', arrivedEarly);
    await settle();
    expect(data.loads).toEqual(['k']);
    data.rows.set('k', 'new');
    db.commit('actions', 'k', true);
    const later = cache.get('k', performance.now());
    await settle();
    release();
    expect(await Promise.all([first, sameTime, later])).toEqual(['old', 'old', 'new']);
    expect(data.loads).toEqual(['k', 'k']);
    await model.onApplicationShutdown();
  });

  /** A cache whose key 'k' holds 'old', with its loads held until `release()`. */
  function heldCache(db: FakeDatabase, model: ReadModel) {
    const data = table(db);
    data.rows.set('k', 'old');
    const cache = model.cache({ name: 'test', table: 'actions', maxSize: 10, load: data.load });
    return { data, cache, release: data.holdLoads() };
  }

  it('on a database it owns, lets a request share a load only while nothing was committed since it started', async () => {
    const { db, model } = await startedModel(true);
    const { data, cache, release } = heldCache(db, model);
    const first = cache.get('k');
    await settle();
    const second = cache.get('k'); // nothing committed since the first load started: shared
    await settle();
    expect(data.loads).toEqual(['k']);
    data.rows.set('k', 'new');
    db.commit('actions', 'k', true);
    const later = cache.get('k'); // follows a commit: a load of its own
    await settle();
    release();
    expect(await Promise.all([first, second, later])).toEqual(['old', 'old', 'new']);
    expect(data.loads).toEqual(['k', 'k']);
    expect(db.versionReads).toEqual([]);
    await model.onApplicationShutdown();
  });

  it('on a database it owns, shares no load while the listening connection is down', async () => {
    const { db, model } = await startedModel(true);
    const { data, cache, release } = heldCache(db, model);
    const first = cache.get('k');
    await settle();
    db.listener.emit('error', new Error('terminated'));
    const during = cache.get('k'); // the listener is down: nothing says the first load is still current
    await settle();
    release();
    await Promise.all([first, during]);
    expect(data.loads).toEqual(['k', 'k']);
    await model.onApplicationShutdown();
  });

  it('on a database it owns, shares no load that started before the listener last came up', async () => {
    const { db, model } = await startedModel(true);
    const { data, cache, release } = heldCache(db, model);
    const first = cache.get('k');
    await settle();
    db.stopListening();
    data.rows.set('k', 'new');
    db.commit('actions', 'k', true); // announced to nobody: the session had stopped listening
    await new Promise((resolve) => setTimeout(resolve, 120)); // reconnected and synchronized
    const later = cache.get('k');
    await settle();
    release();
    expect(await Promise.all([first, later])).toEqual(['old', 'new']);
    expect(data.loads).toEqual(['k', 'k']);
    await model.onApplicationShutdown();
  });

  it('reads the database while the listener is down, and trusts nothing from before once it is back', async () => {
    const { db, model } = await startedModel();
    const data = table(db);
    data.rows.set('k', 'v1');
    const cache = model.cache({ name: 'test', table: 'actions', maxSize: 10, load: data.load });
    expect(await cache.get('k')).toBe('v1');

    db.listener.emit('end');
    data.rows.set('k', 'v2');
    db.commit('actions', 'k', true); // nobody listens
    expect(await cache.get('k')).toBe('v2');
    expect(await cache.get('k')).toBe('v2');
    expect(data.loads).toEqual(['k', 'k', 'k']);
    data.rows.set('k', 'v3');
    db.commit('actions', 'k', true); // still nobody listens

    await new Promise((resolve) => setTimeout(resolve, 120)); // the reconnection's back-off
    expect(await cache.get('k')).toBe('v3');
    expect(await cache.get('k')).toBe('v3');
    expect(data.loads).toEqual(['k', 'k', 'k', 'k']);
    await model.onApplicationShutdown();
  });

  it('holds at most maxSize, least recently used out first', async () => {
    const { db, model } = await startedModel();
    const data = table(db);
    const cache = model.cache({ name: 'test', table: 'actions', maxSize: 10, sizeOf: (value: string | null) => value?.length ?? 1, load: data.load });
    data.rows.set('a', 'aaaa');
    data.rows.set('b', 'bbbb');
    data.rows.set('c', 'cccc');
    data.rows.set('huge', 'x'.repeat(11));
    await cache.get('a');
    await cache.get('b');
    await cache.get('a');
    await cache.get('c'); // 12 > 10: b goes
    await cache.get('huge'); // larger than the whole cache: served, not kept
    data.loads.length = 0;
    await cache.get('c');
    await cache.get('a');
    await cache.get('huge');
    expect(data.loads).toEqual(['huge']);
    await cache.get('b');
    expect(data.loads).toEqual(['huge', 'b']);
    await model.onApplicationShutdown();
  });
});
