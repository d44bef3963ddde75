import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';

/**
 * The Redis client behind the shared rate-limit counters, when REDIS_URL is set. It never queues commands while
 * disconnected and gives up on a command after 500 ms, so a lost Redis costs a request nothing but a fallback.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client?: Redis;

  constructor(config: AppConfig, metrics: Metrics) {
    if (!config.redisUrl) return;
    this.client = new Redis(config.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 250, 2_000),
    });
    this.client.on('error', (error: Error) => this.logger.warn(`redis: ${error.message}`));
    const client = this.client;
    metrics.observeRedis(() => client.status === 'ready');
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.client?.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  onApplicationShutdown(): void {
    this.client?.disconnect(false);
  }
}
