import type { Duplex } from 'node:stream';
import type { PoolConfig } from 'pg';
import { AppConfig } from '../config/app-config';
import { DeadlineClient, DeadlineClientConfig } from './query-deadline';

/**
 * How this service reaches its database: one description for TypeORM's pool (dataSourceOptions) and for the
 * connections the service opens itself (execution records, the read model's listener), so they all share the
 * server, the timeouts and the limits.
 */
export class DatabaseSettings {
  readonly connectTimeoutMs = 5_000;

  constructor(
    readonly url: string,
    /** The embedded PGlite: one session behind a single connection of the pool. */
    readonly embedded: boolean,
    /** Connections of the main pool. */
    readonly poolSize: number,
    /** The longest a statement may run on the server; the client waits a second longer. */
    readonly statementTimeoutMs: number,
    /**
     * When this process runs the embedded database itself: a connection to it with no socket
     * (EmbeddedSocketServer.connectInProcess), which every connection opened with these settings uses; `url`
     * then only names it.
     */
    readonly connectInProcess?: () => Duplex,
  ) {}

  static of(config: AppConfig, url: string, embedded: boolean, connectInProcess?: () => Duplex): DatabaseSettings {
    // PGlite is one session: one connection runs one statement at a time anyway (see EmbeddedSocketServer).
    return new DatabaseSettings(url, embedded, embedded ? 1 : config.databasePoolSize, config.databaseStatementTimeoutMs, connectInProcess);
  }

  /** A pg pool's options; `connectionString` is left to the caller (TypeORM sets its own from `url`). */
  poolOptions(): PoolConfig & DeadlineClientConfig {
    return {
      max: this.poolSize,
      connectionTimeoutMillis: this.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      // The server cancels a slow statement; the client also stops waiting, for a database that does not answer
      // at all (a network that drops packets, a server that hangs), so a request is a prompt 503, not a hang: a
      // watchdog's deadline rather than pg's query_timeout, whose timer per query kept every query's rows alive
      // into the old generation (DeadlineClient).
      statement_timeout: this.statementTimeoutMs,
      Client: DeadlineClient,
      queryDeadlineMs: this.statementTimeoutMs + 1_000,
      ...(this.connectInProcess ? { stream: this.connectInProcess } : {}),
    };
  }

  /** A single connection of the service's own, named so it can be told apart in pg_stat_activity. */
  clientOptions(applicationName: string): DeadlineClientConfig {
    const { connectionTimeoutMillis, statement_timeout, queryDeadlineMs, stream } = this.poolOptions();
    return { connectionString: this.url, application_name: applicationName, connectionTimeoutMillis, statement_timeout, queryDeadlineMs, keepAlive: true, stream };
  }

  /** A single connection of the service's own (not yet connected), with the pools' deadline. */
  newClient(applicationName: string): DeadlineClient {
    return new DeadlineClient(this.clientOptions(applicationName));
  }
}
