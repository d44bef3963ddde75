import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from './metrics';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Prometheus text at /metrics, outside the versioned prefix and the rate limit (keep it off the public ingress). */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    if (pool) {
      this.metrics.databasePool.set({ state: 'total' }, pool.totalCount);
      this.metrics.databasePool.set({ state: 'idle' }, pool.idleCount);
      this.metrics.databasePool.set({ state: 'waiting' }, pool.waitingCount);
    }
    return this.metrics.registry.metrics();
  }
}
