import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EmbeddedPostgres } from './embedded-postgres';

/** Owns the embedded PostgreSQL when no DATABASE_URL is configured; otherwise does nothing. */
@Injectable()
export class EmbeddedDatabaseService implements OnApplicationShutdown {
  private readonly logger = new Logger('EmbeddedDatabase');
  private embedded?: EmbeddedPostgres;

  constructor(private readonly config: AppConfig) {}

  /** The URL the app connects to: the configured one, or the embedded database's, started on first use. */
  async connectionUrl(): Promise<string> {
    if (this.config.databaseUrl) return this.config.databaseUrl;
    if (!this.embedded) {
      this.embedded = await EmbeddedPostgres.start(this.config.dataDir);
      this.logger.log(`embedded PostgreSQL (PGlite) on ${this.embedded.url} with data in ${this.config.dataDir}`);
    }
    return this.embedded.url;
  }

  get isEmbedded(): boolean {
    return !this.config.databaseUrl;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.embedded?.stop();
    this.embedded = undefined;
  }
}
