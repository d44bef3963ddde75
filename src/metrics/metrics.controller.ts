import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DatabasePool } from '../database/database-pool';
import { Metrics } from './metrics';

/** Prometheus text at /metrics, outside the versioned prefix and the rate limit (keep it off the public ingress). */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly pool: DatabasePool,
  ) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    const { total, idle, waiting } = this.pool.stats();
    this.metrics.databasePool.set({ state: 'total' }, total);
    this.metrics.databasePool.set({ state: 'idle' }, idle);
    this.metrics.databasePool.set({ state: 'waiting' }, waiting);
    return this.metrics.registry.metrics();
  }
}
