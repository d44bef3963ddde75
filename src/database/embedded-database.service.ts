import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EMBEDDED_ENDPOINT_FILE, EmbeddedPostgres } from './embedded-postgres';

/** Owns the embedded PostgreSQL when no DATABASE_URL is configured; otherwise does nothing. */
@Injectable()
export class EmbeddedDatabaseService implements OnApplicationShutdown {
  private readonly logger = new Logger('EmbeddedDatabase');
  private embedded?: EmbeddedPostgres;

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The URL the app connects to: the configured one, or the embedded database's, started on first use. */
  async connectionUrl(): Promise<string> {
    if (this.config.databaseUrl) return this.config.databaseUrl;
    if (!this.embedded) {
      this.embedded = await EmbeddedPostgres.start(this.config.dataDir, this.config.embeddedDatabasePort);
      const where = `${this.embedded.publicUrl} (password in ${join(this.config.dataDir, EMBEDDED_ENDPOINT_FILE)})`;
      this.logger.log(`embedded PostgreSQL (PGlite) on ${where} with data in ${this.config.dataDir}`);
    }
    return this.embedded.url;
  }

  /**
   * How this process's own connections reach the embedded database it runs: in process, with no socket
   * (EmbeddedSocketServer.connectInProcess). Undefined on DATABASE_URL. Other processes (the command line, a
   * second service on the same DATA_DIR) use the TCP port.
   */
  inProcessConnector(options?: { uncounted?: boolean }): (() => Duplex) | undefined {
    const embedded = this.embedded;
    return embedded && (() => embedded.connectInProcess(options));
  }

  /**
   * How many jobs the embedded database this process runs has begun (EmbeddedSocketServer.jobsRun); undefined on
   * DATABASE_URL, or before it started: other processes may write there.
   */
  jobsRun(): number | undefined {
    return this.embedded?.jobsRun;
  }

  get isEmbedded(): boolean {
    return !this.config.databaseUrl;
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.embedded) return;
    // The pool's connections close before the server does. Nest runs shutdown hooks by module depth, so whether
    // TypeORM's own hook comes first depends on how deep other modules import things; a pool whose server went
    // away first logs "Connection terminated unexpectedly" for each idle connection.
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    if (dataSource?.isInitialized) await dataSource.destroy();
    await this.embedded.stop();
    this.embedded = undefined;
  }
}
