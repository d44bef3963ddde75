import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { newPassword } from './embedded-login';
import { EmbeddedSocketServer, ProtocolHandlerClass } from './embedded-socket-server';

/**
 * Where a running embedded database can be reached, and with what password (user `postgres`, database
 * `postgres`); written to DATA_DIR (readable by its owner only) so other processes of that user can connect.
 */
interface EmbeddedEndpoint {
  pid: number;
  host: string;
  port: number;
  /** Absent while the process is still starting. */
  password?: string;
}

/** The data directory is open in another live process (a running service): connect to it instead. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly endpoint: EmbeddedEndpoint,
    readonly dataDir: string,
  ) {
    super(
      `the embedded database is in use by process ${endpoint.pid} (another service on DATA_DIR ${dataDir}): ` +
        'stop that one or set another DATA_DIR',
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

/** EMBEDDED_DATABASE_PORT cannot be listened on: another process has it, or it needs privileges. */
export class EmbeddedDatabasePortError extends Error {
  constructor(
    readonly port: number,
    readonly code: string,
  ) {
    super(
      code === 'EADDRINUSE'
        ? `the embedded database's port 127.0.0.1:${port} is already in use by another process (set another EMBEDDED_DATABASE_PORT, or unset it for a free one)`
        : `the embedded database is not allowed to listen on 127.0.0.1:${port} (${code}; ports below 1024 need privileges: set EMBEDDED_DATABASE_PORT)`,
    );
    this.name = 'EmbeddedDatabasePortError';
  }
}

/** The lock of a data directory, naming the process that holds it and its endpoint (EmbeddedEndpoint). */
export const EMBEDDED_ENDPOINT_FILE = 'embedded-postgres.json';
const MAX_CONNECTIONS = 100;
// PostgreSQL's default of 128 MB of shared buffers lives in the WebAssembly heap, resident in this process; a
// development database needs far less (docs/benchmarks.md, "PGlite's buffers").
const SETTINGS = ['shared_buffers=16MB', 'wal_buffers=1MB'];

/**
 * PostgreSQL compiled to WebAssembly (PGlite), served on a loopback TCP port so the ordinary `pg` driver, and
 * therefore the same TypeORM code path as production, talks to it (see EmbeddedSocketServer). Connections over TCP must give the password of this start (EmbeddedEndpoint). Only one process may open a data directory:
 * the first one takes a lock file naming its endpoint; others read it and connect there.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: Pick<PGlite, 'close'>,
    private readonly server: Pick<EmbeddedSocketServer, 'stop' | 'connectInProcess' | 'jobsRun'>,
    private readonly lockPath: string | undefined,
    readonly endpoint: EmbeddedEndpoint,
  ) {}

  /** `dataDir` undefined: an in-memory database (tests). `port` 0: a free one (EMBEDDED_DATABASE_PORT). */
  static async start(dataDir?: string, port = 0): Promise<EmbeddedPostgres> {
    const lockPath = dataDir ? join(dataDir, EMBEDDED_ENDPOINT_FILE) : undefined;
    if (dataDir && lockPath) {
      mkdirSync(join(dataDir, 'pgdata'), { recursive: true, mode: 0o700 });
      takeLock(lockPath);
    }
    try {
      // Loaded only when used, so a service on DATABASE_URL does not carry PGlite's modules.
      const { PGlite } = await import('@electric-sql/pglite');
      const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
      const db = await PGlite.create({ ...(dataDir ? { dataDir: join(dataDir, 'pgdata') } : {}), postgresqlconf: SETTINGS });
      // A new password every start: the port is on loopback, but any local user could reach it.
      const password = newPassword();
      // Its declared constructor names pglite-socket's own queue class; the server's queue has the same methods.
      const server = new EmbeddedSocketServer(db, PGLiteSocketHandler as unknown as ProtocolHandlerClass, MAX_CONNECTIONS, { password });
      const endpoint = { pid: process.pid, host: '127.0.0.1', port: await listening(server.start('127.0.0.1', port), port), password };
      if (lockPath) writeFileSync(lockPath, JSON.stringify(endpoint));
      return new EmbeddedPostgres(db, server, lockPath, endpoint);
    } catch (error) {
      if (lockPath) releaseLock(lockPath);
      throw error;
    }
  }

  /** The live process holding `dataDir` (its port is 0 while it is still starting), if any. */
  static findHolder(dataDir: string): EmbeddedEndpoint | undefined {
    const endpoint = readLock(join(dataDir, EMBEDDED_ENDPOINT_FILE));
    return endpoint && endpoint.pid !== process.pid && isAlive(endpoint.pid) ? endpoint : undefined;
  }

  /** The connection URL, password included. */
  get url(): string {
    return `postgres://postgres:${this.endpoint.password}@${this.endpoint.host}:${this.endpoint.port}/postgres`;
  }

  /** The connection URL without the password, for logs. */
  get publicUrl(): string {
    return `postgres://postgres@${this.endpoint.host}:${this.endpoint.port}/postgres`;
  }

  /** A connection from this process with no socket (EmbeddedSocketServer.connectInProcess), for `pg`'s `stream`. */
  connectInProcess(options?: { uncounted?: boolean }): Duplex {
    return this.server.connectInProcess(options);
  }

  /** How many jobs the database has begun to run (EmbeddedSocketServer.jobsRun). */
  get jobsRun(): number {
    return this.server.jobsRun;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
    if (this.lockPath) releaseLock(this.lockPath);
  }
}

/** The port `started` resolves to, or the reason an operator can act on when a fixed `port` could not be had. */
async function listening(started: Promise<number>, port: number): Promise<number> {
  try {
    return await started;
  } catch (error) {
    const { code, syscall } = error as NodeJS.ErrnoException;
    if (syscall === 'listen' && (code === 'EADDRINUSE' || code === 'EACCES')) throw new EmbeddedDatabasePortError(port, code);
    throw error;
  }
}

function takeLock(lockPath: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: '127.0.0.1', port: 0 }), { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(lockPath);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
        // The error is printed and may be logged whole: it keeps where the holder is, not its password.
        const { pid, host, port } = holder;
        throw new EmbeddedDatabaseInUseError({ pid, host, port }, dirname(lockPath));
      }
      unlinkSync(lockPath); // left behind by a process that died
    }
  }
  throw new Error(`could not lock ${lockPath}`);
}

function readLock(lockPath: string): EmbeddedEndpoint | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, 'utf8')) as EmbeddedEndpoint;
  } catch {
    return undefined;
  }
}

function releaseLock(lockPath: string): void {
  if (readLock(lockPath)?.pid === process.pid) unlinkSync(lockPath);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
