import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ApiTokensService } from '../auth/api-tokens.service';
import { isSchemaMissing } from '../database/database-errors';
import { HmacKeysService } from '../webhooks/hmac-keys.service';

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Hourly, on every replica (the deletes are idempotent): API tokens revoked or expired, and HMAC keys revoked, more
 * than 30 days ago go (ApiTokensService.prune, HmacKeysService.prune). Meanwhile each tenant keeps at most 100 of
 * each, trimmed when it makes a new one.
 */
@Injectable()
export class CredentialsRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CredentialsRetention');
  private timer?: NodeJS.Timeout;
  private pruning: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly apiTokens: ApiTokensService,
    private readonly hmacKeys: HmacKeysService,
  ) {}

  /** Prunes both; how many tokens and keys went. */
  async prune(): Promise<{ apiTokens: number; hmacKeys: number }> {
    return { apiTokens: await this.apiTokens.prune(), hmacKeys: await this.hmacKeys.prune() };
  }

  onApplicationBootstrap(): void {
    const run = () => {
      // With migrations pending there is nothing to prune, and the start-up has said so already (Migrations).
      this.pruning = this.prune().catch((error: unknown) => {
        if (!isSchemaMissing(error)) this.logger.warn({ err: error }, 'pruning revoked credentials failed');
      });
    };
    run();
    this.timer = setInterval(run, PRUNE_EVERY_MS).unref();
  }

  /** Before the database closes: no new pruning, and the one under way finishes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.pruning;
  }
}
